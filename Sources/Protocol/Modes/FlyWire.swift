/// Let Me Fly on the wire (PROTOCOL.md §6.5): throw your phone on a sweeping power meter, catch it as it lands.
///
/// Heights are metres with millimetre precision (`heightM`, a JSON number with up to three decimals); every
/// instant is host-clock milliseconds like every other `deadline`.
public enum FlyWire: GameWire {
    public static let name = "fly"
    public static let title = "Let Me Fly"
    public static let startGrammar = StartGrammar(
        game: name,
        options: [
            .number(
                "rounds", 1...20, default: 3, help: "rounds; each player throws once a round", bareWord: "ROUNDS"),
            .number("roundSeconds", 5...600, default: 30, help: "each round's throwing clock"),
            .number("periodMs", 400...10_000, default: 1600, help: "the power meter's sweep 0 → 100 % → 0"),
            .number("topSpeed", 5...40, default: 20, help: "launch speed at full power, m/s"),
            .number("breakSeconds", 0...600, default: 5, help: "pause between rounds; 0 waits for next"),
        ],
        example: "start fly 3 round-seconds=30 break-seconds=0")

    /// Metres from millimetres, as the wire carries heights.
    public static func metres(_ millimetres: Int) -> Double { Double(millimetres) / 1000 }

    /// `12.41 m` for people.
    public static func heightText(_ metres: Double) -> String {
        let centimetres = Int((metres * 100).rounded())
        let cents = centimetres % 100
        return "\(centimetres / 100).\(cents < 10 ? "0" : "")\(cents) m"
    }

    /// Which throws a leaderboard ranks.
    public enum Scope: String, Codable, Sendable, CaseIterable {
        /// The running (or last) game.
        case game
        /// Since the host started.
        case tonight
        /// Every throw the host has kept.
        case allTime

        /// Its name for people.
        public var title: String {
            switch self {
            case .game: "This game"
            case .tonight: "Tonight"
            case .allTime: "All-time"
            }
        }

        /// The scope a typed word names (`game`, `tonight`, `all`), any case.
        public init?(word: String) {
            switch word.lowercased() {
            case "game", "this": self = .game
            case "tonight", "night", "today": self = .tonight
            case "all", "alltime", "all-time", "ever": self = .allTime
            default: return nil
            }
        }
    }

    /// A game of Let Me Fly started.
    public struct Intro: GameIntro {
        public static let type = "game"
        public static let gameName = FlyWire.name
        /// Always `fly`.
        public var game = FlyWire.name
        /// Everyone playing, in the order they came.
        public var players: [String]
        /// Rounds (one throw each).
        public var rounds: Int
        /// Each round's throwing clock, s.
        public var roundSeconds: Int
        /// The power meter's period, ms.
        public var periodMs: Int64
        /// Launch speed at full power, m/s.
        public var topSpeed: Int
        /// The version of the roster, which the `gameUpdate`s that follow continue (PROTOCOL.md §6.0).
        public var seq: Int?
        /// Present in a hall (more than 200 players in the room): how many players the game had when this roster
        /// was sent whole. `players` then lists only the reader's team (boards and operators: everyone), throws
        /// reach the thrower's team, and `flyBoard` and `flyTally` tell the rest.
        public var hall: Int?

        /// Creates the intro.
        public init(
            players: [String], rounds: Int, roundSeconds: Int, periodMs: Int64, topSpeed: Int, seq: Int? = nil,
            hall: Int? = nil
        ) {
            self.players = players
            self.rounds = rounds
            self.roundSeconds = roundSeconds
            self.periodMs = periodMs
            self.topSpeed = topSpeed
            self.seq = seq
            self.hall = hall
        }

        public func line(for reader: Perspective) -> String? {
            "=== Let Me Fly! \(Wording.count(rounds, "round")) of \(roundSeconds) s: throw your phone as high as you "
                + "dare, then catch it. Type t + Enter to throw (at 95 % power; t 60 throws at 60 %), then wait for "
                + "CATCH NOW and type c + Enter. ==="
                + (hall.map {
                    " (A hall of \(Wording.count($0, "player")): you see your team's throws, the top catches and the "
                        + "counts.)"
                } ?? "")
        }
    }

    /// One player of the game's roster, as a change of the roster names it.
    public struct Entrant: ListItem {
        /// The player's name.
        public var name: String
        /// In a `gameUpdate` only, where the player goes when not at the end (PROTOCOL.md §6.0).
        public var at: Int?

        /// Creates an entrant.
        public init(name: String, at: Int? = nil) {
            self.name = name
            self.at = at
        }

        /// Names are unique in a game.
        public var key: String { name }
    }

    /// What changed in the roster since the last `game` or `gameUpdate`: players who joined (or came back) mid-game.
    public typealias IntroUpdate = KeptListDelta<Intro>

    /// One phone on offer.
    public struct Phone: Codable, Sendable, Equatable {
        /// What players type (`brick`).
        public var id: String
        /// Its name.
        public var name: String
        /// Score multiplier (0.8 … 1.5).
        public var multiplier: Double
        /// ± ms around the landing for a clean catch (twice that: a fumble).
        public var catchWindowMs: Int64

        /// Creates a phone entry.
        public init(id: String, name: String, multiplier: Double, catchWindowMs: Int64) {
            self.id = id
            self.name = name
            self.multiplier = multiplier
            self.catchWindowMs = catchWindowMs
        }

        /// `Old brick ×0.8, ±250 ms`.
        public var summary: String { "\(name) ×\(multiplierText), ±\(catchWindowMs) ms" }

        /// `0.8`, `1.5`.
        public var multiplierText: String {
            let hundredths = Int((multiplier * 100).rounded())
            let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
            return text.hasSuffix("0") ? String(text.dropLast()) : text
        }
    }

    /// The phones to pick from (sent with the start).
    public struct Phones: HostMessage {
        public static let type = "phones"
        /// The phones, cheapest first.
        public var list: [Phone]
        /// What a player who picks nothing throws.
        public var `default`: String

        /// Creates the message.
        public init(list: [Phone], default phone: String) {
            self.list = list
            self.default = phone
        }

        public func line(for reader: Perspective) -> String? {
            "Phones (pricier: more points, a narrower catch window): "
                + list.map { "\($0.id) = \($0.summary)" }.joined(separator: " · ")
                + ". Type phone ID to pick one before your first throw (otherwise: \(self.default))."
        }
    }

    /// A player picked a phone.
    public struct Picked: HostMessage {
        public static let type = "picked"
        /// Who.
        public var player: String
        /// The phone's id.
        public var phone: String
        /// True in a catch-up once the player has thrown: the phone is theirs for the rest of the game (a pick is
        /// refused with `phone_locked`); absent otherwise.
        public var locked: Bool?

        /// Creates the message.
        public init(player: String, phone: String, locked: Bool? = nil) {
            self.player = player
            self.phone = phone
            self.locked = locked
        }

        public func line(for reader: Perspective) -> String? {
            reader.name == player ? "You will throw the \(phone)." : "\(player) picked the \(phone)."
        }
    }

    /// A round opened: everyone may throw once before `deadline`.
    public struct Round: HostMessage {
        public static let type = "round"
        /// 1-based.
        public var number: Int
        /// Rounds in the game.
        public var of: Int
        /// Throwing clock left when sent, ms.
        public var remainingMs: Int64
        /// Where the power meter's sweep started, host ms: power is 0 there, 100 % half a period later, 0 after a
        /// period, and so on.
        public var sweepStart: Int64
        /// The sweep's period, ms.
        public var periodMs: Int64
        /// When throwing closes, host ms.
        public var deadline: Int64

        /// Creates the message.
        public init(number: Int, of: Int, remainingMs: Int64, sweepStart: Int64, periodMs: Int64, deadline: Int64) {
            self.number = number
            self.of = of
            self.remainingMs = remainingMs
            self.sweepStart = sweepStart
            self.periodMs = periodMs
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            "Round \(number)/\(of): throw within \(Wording.seconds(remainingMs)). Type t + Enter to throw "
                + "(95 % power, the most you can type; t 60 throws at 60 %)."
        }
    }

    /// A phone went up.
    public struct Thrown: HostMessage {
        public static let type = "thrown"
        /// Who threw.
        public var player: String
        /// Their team.
        public var team: String
        /// The phone.
        public var phone: String
        /// The meter at the press, percent.
        public var power: Int
        /// Height it reaches, m.
        public var heightM: Double
        /// Time in the air, ms.
        public var airMs: Int64
        /// When it lands, host ms (the press was `landsAt − airMs`).
        public var landsAt: Int64

        /// Creates the message.
        public init(
            player: String, team: String, phone: String, power: Int, heightM: Double, airMs: Int64, landsAt: Int64
        ) {
            self.player = player
            self.team = team
            self.phone = phone
            self.power = power
            self.heightM = heightM
            self.airMs = airMs
            self.landsAt = landsAt
        }

        public func line(for reader: Perspective) -> String? {
            if reader.name == player {
                return ">>> Up it goes at \(power) % power: \(FlyWire.heightText(heightM)), it lands in "
                    + "\(airMs / 100 / 10).\(airMs / 100 % 10) s. Get ready: type c + Enter when you read CATCH NOW."
            }
            return "\(player) threw the \(phone): \(FlyWire.heightText(heightM)) (\(power) % power)."
        }
    }

    /// A phone came down.
    public struct Caught: HostMessage {
        public static let type = "caught"
        /// Who threw.
        public var player: String
        /// Their team.
        public var team: String
        /// The phone.
        public var phone: String
        /// `clean`, `fumbled` or `dropped`.
        public var quality: String
        /// Catch press minus landing, ms; null when nobody pressed in time.
        @Nullable public var offsetMs: Int64?
        /// Height of the throw, m.
        public var heightM: Double
        /// Points won.
        public var points: Int
        /// The player's streak after this catch (clean catches above 5 m in a row).
        public var streak: Int
        /// The player's game score after this catch.
        public var score: Int

        /// Creates the message.
        public init(
            player: String, team: String, phone: String, quality: String, offsetMs: Int64?, heightM: Double,
            points: Int, streak: Int, score: Int
        ) {
            self.player = player
            self.team = team
            self.phone = phone
            self.quality = quality
            self.offsetMs = offsetMs
            self.heightM = heightM
            self.points = points
            self.streak = streak
            self.score = score
        }

        /// `+12 ms early` style text for the offset.
        public var offsetText: String {
            guard let offsetMs else { return "no catch" }
            if offsetMs == 0 { return "right on time" }
            return "\(abs(offsetMs)) ms \(offsetMs < 0 ? "early" : "late")"
        }

        public func line(for reader: Perspective) -> String? {
            let who = reader.name == player ? "You" : player
            let height = FlyWire.heightText(heightM)
            switch quality {
            case "clean":
                return "\(who) caught it cleanly (\(offsetText)): \(height), +\(points) points"
                    + (streak > 0 ? ", streak \(streak)" : "") + "."
            case "fumbled":
                return "\(who) fumbled the catch (\(offsetText)): \(height), +\(points) points (half)."
            default:
                return "\(who) dropped it (\(offsetText)): \(height), no points."
            }
        }
    }

    /// The round's throwing clock ran out (or the operator moved on).
    public struct TimeUp: HostMessage {
        public static let type = "timeUp"
        /// Which round.
        public var round: Int
        /// Who did not throw (0 points this round); in a hall only the reader's team (spectators: the first 20).
        public var missed: [String]
        /// In a hall, how many players did not throw in all (absent otherwise: `missed` is everyone).
        public var missedCount: Int?

        /// Creates the message.
        public init(round: Int, missed: [String], missedCount: Int? = nil) {
            self.round = round
            self.missed = missed
            self.missedCount = missedCount
        }

        public func line(for reader: Perspective) -> String? {
            "Time is up for round \(round)." + (missed.isEmpty ? "" : " No throw: \(missed.joined(separator: ", ")).")
                + (missedCount.map { $0 > missed.count ? " \(Wording.count($0, "player")) did not throw in all." : "" }
                    ?? "")
        }
    }

    /// A player challenged another to beat a height.
    public struct Challenged: HostMessage {
        public static let type = "challenged"
        /// Who challenges.
        public var from: String
        /// Who is challenged.
        public var to: String
        /// The height to beat, m.
        public var heightM: Double
        /// The challenged player's best catch so far, m, when it is already that high or higher; absent otherwise.
        public var bestM: Double?

        /// Creates the message.
        public init(from: String, to: String, heightM: Double, bestM: Double? = nil) {
            self.from = from
            self.to = to
            self.heightM = heightM
            self.bestM = bestM
        }

        public func line(for reader: Perspective) -> String? {
            let height = FlyWire.heightText(heightM)
            // A challenge to someone already higher says so: only the next throw counts.
            guard let best = bestM.map(FlyWire.heightText) else {
                if reader.name == to { return ">>> \(from) challenges you to beat \(height)!" }
                return "\(from) challenges \(to) to beat \(height)."
            }
            if reader.name == to {
                return ">>> \(from) challenges you to beat \(height)! Your best is already \(best), but only your next "
                    + "throw counts."
            }
            return
                "\(from) challenges \(to) to beat \(height) (\(to)'s best is already \(best); only the next throw counts)."
        }
    }

    /// A challenge was settled when the challenged player's next throw came down.
    public struct ChallengeOver: HostMessage {
        public static let type = "challengeOver"
        /// Who challenged.
        public var from: String
        /// Who was challenged.
        public var to: String
        /// The height to beat, m.
        public var targetM: Double
        /// The challenged throw, m.
        public var heightM: Double
        /// How it was caught.
        public var quality: String
        /// Beaten: higher, and not dropped.
        public var won: Bool

        /// Creates the message.
        public init(from: String, to: String, targetM: Double, heightM: Double, quality: String, won: Bool) {
            self.from = from
            self.to = to
            self.targetM = targetM
            self.heightM = heightM
            self.quality = quality
            self.won = won
        }

        public func line(for reader: Perspective) -> String? {
            let result =
                "\(FlyWire.heightText(heightM))\(quality == "dropped" ? " (dropped)" : "") against "
                + FlyWire.heightText(targetM)
            return won
                ? "\(to) beat \(from)'s challenge: \(result)!" : "\(to) did not beat \(from)'s challenge: \(result)."
        }
    }

    /// A player earned an achievement for the first time ever.
    public struct Achievement: HostMessage {
        public static let type = "achievement"
        /// Who.
        public var player: String
        /// Its stable id (`club10`).
        public var id: String
        /// Its name.
        public var name: String
        /// What it takes.
        public var description: String

        /// Creates the message.
        public init(player: String, id: String, name: String, description: String) {
            self.player = player
            self.id = id
            self.name = name
            self.description = description
        }

        public func line(for reader: Perspective) -> String? {
            "★ \(reader.name == player ? "You" : player) earned “\(name)”: \(description)"
        }
    }

    /// One player's line on the game's ranking.
    public struct Standing: Codable, Sendable, Equatable {
        /// The player.
        public var player: String
        /// Their team.
        public var team: String
        /// Their phone.
        public var phone: String
        /// Points.
        public var score: Int
        /// Rank by points (1, 1, 3).
        public var rank: Int
        /// Highest caught throw, m (0: none).
        public var bestM: Double
        /// Current streak.
        public var streak: Int

        /// Creates a standing.
        public init(player: String, team: String, phone: String, score: Int, rank: Int, bestM: Double, streak: Int) {
            self.player = player
            self.team = team
            self.phone = phone
            self.score = score
            self.rank = rank
            self.bestM = bestM
            self.streak = streak
        }

        /// `#1 Ann 20`.
        public static func summary(_ standings: [Standing]) -> String {
            standings.map { "#\($0.rank) \($0.player) \($0.score)" }.joined(separator: " · ")
        }
    }

    /// One team's line: its players' points together.
    public struct TeamStanding: Codable, Sendable, Equatable {
        /// The team.
        public var team: String
        /// Points.
        public var score: Int
        /// Rank.
        public var rank: Int

        /// Creates a standing.
        public init(team: String, score: Int, rank: Int) {
            self.team = team
            self.score = score
            self.rank = rank
        }
    }

    /// A round ended.
    public struct RoundOver: HostMessage {
        public static let type = "roundOver"
        /// Which round.
        public var number: Int
        /// Whether it was the last.
        public var last: Bool
        /// Who did not throw.
        public var missed: [String]
        /// The players' ranking after it.
        public var ranking: [Standing]
        /// Until the next round opens; null: at the operator's `next` (or never, after the last).
        @Nullable public var nextInMs: Int64?
        /// When the next round opens, host ms; null as `nextInMs`.
        @Nullable public var deadline: Int64?
        /// In a hall, how many players are ranked in all: `ranking` holds the top ten and the reader's team (each
        /// with its true `rank`), `missed` as in `timeUp`. Absent otherwise.
        public var count: Int?
        /// In a hall, how many players did not throw in all.
        public var missedCount: Int?

        /// Creates the message.
        public init(
            number: Int, last: Bool, missed: [String], ranking: [Standing], nextInMs: Int64?, deadline: Int64?,
            count: Int? = nil, missedCount: Int? = nil
        ) {
            self.number = number
            self.last = last
            self.missed = missed
            self.ranking = ranking
            self.nextInMs = nextInMs
            self.deadline = deadline
            self.count = count
            self.missedCount = missedCount
        }

        public func line(for reader: Perspective) -> String? {
            let waiting = " Waiting for the quizmaster to start round \(number + 1)."
            let next = last ? "" : nextInMs.map { " Next round in \(Wording.seconds($0))." } ?? waiting
            return "Round \(number) is over. Scores: \(Standing.summary(ranking)).\(next)"
        }
    }

    /// The game is over.
    public struct Scoreboard: HostMessage {
        public static let type = "scoreboard"
        /// Always true.
        public var final = true
        /// The players' ranking.
        public var ranking: [Standing]
        /// The teams' ranking (each the sum of its players).
        public var teams: [TeamStanding]
        /// In a hall, how many players are ranked in all (`ranking` is cut as in `roundOver`); absent otherwise.
        public var count: Int?

        /// Creates the message.
        public init(ranking: [Standing], teams: [TeamStanding], count: Int? = nil) {
            self.ranking = ranking
            self.teams = teams
            self.count = count
        }

        public func line(for reader: Perspective) -> String? {
            "=== Final scoreboard: \(Standing.summary(ranking)) · teams: "
                + teams.map { "#\($0.rank) \($0.team) \($0.score)" }.joined(separator: " · ") + " ==="
        }
    }

    /// The standings on request (and in a late joiner's catch-up).
    public struct Scores: HostMessage {
        public static let type = "scores"
        /// Whether the game is over.
        public var final: Bool
        /// The players' ranking.
        public var ranking: [Standing]
        /// The teams' ranking.
        public var teams: [TeamStanding]
        /// In a hall, how many players are ranked in all (`ranking` is cut as in `roundOver`); absent otherwise.
        public var count: Int?

        /// Creates the message.
        public init(final: Bool, ranking: [Standing], teams: [TeamStanding], count: Int? = nil) {
            self.final = final
            self.ranking = ranking
            self.teams = teams
            self.count = count
        }

        public func line(for reader: Perspective) -> String? {
            "Scores: " + (ranking.isEmpty ? "none yet" : Standing.summary(ranking))
        }
    }

    /// A player's best caught throw on a leaderboard.
    public struct PlayerRow: Codable, Sendable, Equatable {
        /// Rank by height.
        public var rank: Int
        /// The player.
        public var player: String
        /// Their best caught throw, m.
        public var heightM: Double
        /// The phone it was thrown with.
        public var phone: String
        /// The points it won.
        public var points: Int
        /// When (ISO 8601, UTC); absent on the game's own board.
        public var date: String?

        /// Creates a row.
        public init(rank: Int, player: String, heightM: Double, phone: String, points: Int, date: String?) {
            self.rank = rank
            self.player = player
            self.heightM = heightM
            self.phone = phone
            self.points = points
            self.date = date
        }
    }

    /// A phone's line on a leaderboard.
    public struct PhoneRow: Codable, Sendable, Equatable {
        /// Rank by best height.
        public var rank: Int
        /// The phone.
        public var phone: String
        /// Its highest caught throw, m (0: never caught).
        public var heightM: Double
        /// Who threw that ("" when never caught).
        public var player: String
        /// Throws with it.
        public var throwCount: Int
        /// Of which caught.
        public var caughtCount: Int

        /// Creates a row.
        public init(rank: Int, phone: String, heightM: Double, player: String, throwCount: Int, caughtCount: Int) {
            self.rank = rank
            self.phone = phone
            self.heightM = heightM
            self.player = player
            self.throwCount = throwCount
            self.caughtCount = caughtCount
        }
    }

    /// A leaderboard: best caught throws per player and per phone, for this game, tonight or all time.
    public struct Leaderboard: HostMessage {
        public static let type = "leaderboard"
        /// `game`, `tonight` or `allTime`.
        public var scope: String
        /// Players by their best caught throw (at most 10).
        public var players: [PlayerRow]
        /// Phones by their best caught throw.
        public var phones: [PhoneRow]

        /// Creates the message.
        public init(scope: String, players: [PlayerRow], phones: [PhoneRow]) {
            self.scope = scope
            self.players = players
            self.phones = phones
        }

        public func line(for reader: Perspective) -> String? {
            let title = Scope(rawValue: scope)?.title ?? scope
            guard !players.isEmpty else { return "\(title) leaderboard: no caught throws yet." }
            return "\(title) leaderboard: "
                + players.prefix(5).map { "#\($0.rank) \($0.player) \(FlyWire.heightText($0.heightM)) (\($0.phone))" }
                .joined(separator: " · ")
                + (phones.isEmpty
                    ? "" : " · best phone: \(phones[0].phone) \(FlyWire.heightText(phones[0].heightM))")
        }
    }

    /// The clocks run again.
    public struct Resumed: HostMessage {
        public static let type = "resumed"
        /// The throwing clock left; null when no round is open for throws.
        @Nullable public var remainingMs: Int64?
        /// When throwing closes now, host ms; null as `remainingMs`.
        @Nullable public var deadline: Int64?
        /// Where the meter's sweep now starts (moved on by the pause), host ms; null as `remainingMs`.
        @Nullable public var sweepStart: Int64?
        /// Until the next round, between rounds; else null.
        @Nullable public var nextInMs: Int64?

        /// Creates the message.
        public init(remainingMs: Int64?, deadline: Int64?, sweepStart: Int64?, nextInMs: Int64?) {
            self.remainingMs = remainingMs
            self.deadline = deadline
            self.sweepStart = sweepStart
            self.nextInMs = nextInMs
        }

        public func line(for reader: Perspective) -> String? { "The game continues." }
    }

    /// The countdown to your own phone's landing, for text mode: sent to the thrower a whole number of seconds
    /// before the landing, and at the landing (`inMs` 0: catch now). A catch typed as `c` counts from that line.
    public struct CatchCue: HostMessage {
        public static let type = "catchCue"
        /// Whose phone.
        public var player: String
        /// Until the landing, ms (0: it lands now).
        public var inMs: Int64

        /// Creates the message.
        public init(player: String, inMs: Int64) {
            self.player = player
            self.inMs = inMs
        }

        /// `3…`, `2…`, `1…`, then `>>> CATCH NOW! type c + Enter <<<`.
        public func line(for reader: Perspective) -> String? {
            guard reader.name == player else { return nil }
            return inMs > 0 ? "\((inMs + 500) / 1000)…" : ">>> CATCH NOW! type c + Enter <<<"
        }
    }

    /// One row of a hall's live board: a player's best caught throw of this game.
    public struct BoardRow: ListItem {
        /// The player.
        public var player: String
        /// Their team.
        public var team: String
        /// Their best caught throw, m.
        public var heightM: Double
        /// The phone it was thrown with.
        public var phone: String
        /// In a `flyBoardUpdate` only, where the row goes when not at the end (PROTOCOL.md §6.0).
        public var at: Int?

        /// Creates a row.
        public init(player: String, team: String, heightM: Double, phone: String, at: Int? = nil) {
            self.player = player
            self.team = team
            self.heightM = heightM
            self.phone = phone
            self.at = at
        }

        /// A player has one row.
        public var key: String { player }
    }

    /// A hall's live board (a growing state, PROTOCOL.md §6.0): this game's five highest catches, one per player,
    /// highest first; the rank is the position.
    public struct Board: GrowingState {
        public static let type = "flyBoard"
        /// The round it stands at.
        public var round: Int
        /// The rows, highest first.
        public var rows: [BoardRow]
        /// The board's version, which the `flyBoardUpdate`s that follow continue.
        public var seq: Int?

        /// Creates the board.
        public init(round: Int, rows: [BoardRow], seq: Int? = nil) {
            self.round = round
            self.rows = rows
            self.seq = seq
        }

        /// The rows.
        public var items: [BoardRow] { rows }

        /// The delta to this board.
        public func delta(seq: Int, changed: [BoardRow], removed: [String]) -> BoardUpdate {
            BoardUpdate(round: round, rows: changed, removed: removed, seq: seq)
        }

        /// This board with `items` and the delta's round.
        public func updated(items: [BoardRow], by delta: BoardUpdate) -> Board {
            Board(round: delta.round, rows: items, seq: seq)
        }

        /// `#1 Ann 12.41 m · #2 Bob 9.80 m`.
        public static func summary(_ rows: [BoardRow]) -> String {
            rows.enumerated().map { "#\($0.offset + 1) \($0.element.player) \(FlyWire.heightText($0.element.heightM))" }
                .joined(separator: " · ")
        }

        public func line(for reader: Perspective) -> String? {
            rows.isEmpty ? "Highest catches: none yet." : "Highest catches: " + Board.summary(rows)
        }
    }

    /// What changed on a hall's live board: rows new or moved (`at`: where), players pushed off.
    public struct BoardUpdate: StateDelta {
        public static let type = "flyBoardUpdate"
        public static let stateType = Board.type
        /// The round it stands at.
        public var round: Int
        /// New and changed rows.
        public var rows: [BoardRow]
        /// Players no longer on the board.
        public var removed: [String]
        /// The board's version after this change.
        public var seq: Int?

        /// Creates the delta.
        public init(round: Int, rows: [BoardRow], removed: [String], seq: Int?) {
            self.round = round
            self.rows = rows
            self.removed = removed
            self.seq = seq
        }

        /// The new and changed rows.
        public var changed: [BoardRow] { rows }

        /// `New high catch: Ann 12.41 m (#1).`
        public func line(for reader: Perspective) -> String? {
            let parts = rows.map { row in
                "\(reader.name == row.player ? "You" : row.player) \(FlyWire.heightText(row.heightM))"
                    + (row.at.map { " (#\($0 + 1))" } ?? "")
            }
            return parts.isEmpty ? nil : "New high catch: " + parts.joined(separator: " · ") + "."
        }
    }

    /// A hall's counts of the round (every player, not only those shown), at most every two seconds while they
    /// change, and when a round's clock runs out and it ends.
    public struct Tally: HostMessage {
        public static let type = "flyTally"
        /// The round.
        public var round: Int
        /// Players in the game.
        public var players: Int
        /// Phones thrown this round.
        public var thrown: Int
        /// Phones in the air now.
        public var inAir: Int
        /// Caught cleanly this round.
        public var clean: Int
        /// Fumbled.
        public var fumbled: Int
        /// Dropped.
        public var dropped: Int
        /// Players who did not throw (after the clock ran out).
        public var missed: Int

        /// Creates the message.
        public init(
            round: Int, players: Int, thrown: Int, inAir: Int, clean: Int, fumbled: Int, dropped: Int, missed: Int
        ) {
            self.round = round
            self.players = players
            self.thrown = thrown
            self.inAir = inAir
            self.clean = clean
            self.fumbled = fumbled
            self.dropped = dropped
            self.missed = missed
        }

        /// `640/1000 thrown · 300 up · 250 clean · 60 fumbled · 30 dropped`.
        public var summary: String {
            var parts = ["\(thrown)/\(players) thrown"]
            if inAir > 0 { parts.append("\(inAir) up") }
            parts += ["\(clean) clean", "\(fumbled) fumbled", "\(dropped) dropped"]
            if missed > 0 { parts.append("\(missed) no throw") }
            return parts.joined(separator: " · ")
        }

        public func line(for reader: Perspective) -> String? { "Round \(round): \(summary)." }
    }

    /// Everything the host sends during Let Me Fly.
    public enum Message: DecodedFamily {
        case intro(Intro)
        case introUpdate(IntroUpdate)
        case phones(Phones)
        case picked(Picked)
        case round(Round)
        case thrown(Thrown)
        case caught(Caught)
        case timeUp(TimeUp)
        case challenged(Challenged)
        case challengeOver(ChallengeOver)
        case achievement(Achievement)
        case roundOver(RoundOver)
        case scoreboard(Scoreboard)
        case scores(Scores)
        case leaderboard(Leaderboard)
        case resumed(Resumed)
        case catchCue(CatchCue)
        case board(Board)
        case boardUpdate(BoardUpdate)
        case tally(Tally)

        /// The family's table: one entry per message type.
        public static let decoder = FamilyDecoder<Message>([
            member(Intro.self, Message.intro), member(IntroUpdate.self, Message.introUpdate),
            member(Phones.self, Message.phones),
            member(Picked.self, Message.picked), member(Round.self, Message.round),
            member(Thrown.self, Message.thrown), member(Caught.self, Message.caught),
            member(TimeUp.self, Message.timeUp), member(Challenged.self, Message.challenged),
            member(ChallengeOver.self, Message.challengeOver), member(Achievement.self, Message.achievement),
            member(RoundOver.self, Message.roundOver), member(Scoreboard.self, Message.scoreboard),
            member(Scores.self, Message.scores), member(Leaderboard.self, Message.leaderboard),
            member(Resumed.self, Message.resumed), member(CatchCue.self, Message.catchCue),
            member(Board.self, Message.board), member(BoardUpdate.self, Message.boardUpdate),
            member(Tally.self, Message.tally),
        ])

        public var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .introUpdate(let message): message
            case .phones(let message): message
            case .picked(let message): message
            case .round(let message): message
            case .thrown(let message): message
            case .caught(let message): message
            case .timeUp(let message): message
            case .challenged(let message): message
            case .challengeOver(let message): message
            case .achievement(let message): message
            case .roundOver(let message): message
            case .scoreboard(let message): message
            case .scores(let message): message
            case .leaderboard(let message): message
            case .resumed(let message): message
            case .catchCue(let message): message
            case .board(let message): message
            case .boardUpdate(let message): message
            case .tally(let message): message
            }
        }
    }

    /// What a player does in Let Me Fly.
    public enum Action: GameAction {
        /// Throws now; `pressedAt` is the client's clock at the key press (stamped like a buzz).
        case throwPhone(pressedAt: Int64?)
        /// Catches now, stamped the same way.
        case catchPhone(pressedAt: Int64?)
        /// Throws at a typed power, percent (text mode: `t 80`; `throw` with `power`), 1 to 95.
        case throwAtPower(Int)
        /// Catches on the host's `CATCH NOW` cue (text mode: `c`; `catch` with `cue` true): the press counts
        /// `FlyPhysics.cueReactionMs` before the line's arrival.
        case catchOnCue
        /// Picks a phone by id (before the first throw).
        case phone(String)
        /// Challenges a player, by name, to beat your best height.
        case challenge(String)
        /// Asks for a leaderboard (nil: this game's).
        case leaderboard(Scope?)

        public static let types = ["throw", "catch", "phone", "challenge", "top"]

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            switch request.type {
            case "throw":
                if let power = try fields.integer("power") { return .throwAtPower(Int(clamping: power)) }
                return .throwPhone(pressedAt: try fields.integer("t"))
            case "catch":
                if try fields.bool("cue") == true { return .catchOnCue }
                return .catchPhone(pressedAt: try fields.integer("t"))
            case "phone": return .phone(try fields.requiredString("choice", limit: 32))
            case "challenge": return .challenge(try fields.requiredString("player", limit: FieldLimits.name))
            case "top":
                guard let word = try fields.string("scope", required: false, limit: 16) else {
                    return .leaderboard(nil)
                }
                guard let scope = Scope(rawValue: word) ?? Scope(word: word) else {
                    throw fields.error(.badField, "\"scope\" must be game, tonight or allTime.")
                }
                return .leaderboard(scope)
            default: throw fields.error(.unknownType, "Let Me Fly has no \"\(request.type)\".")
            }
        }

        public var request: PlayRequest {
            switch self {
            case .throwPhone(let pressedAt):
                return PlayRequest(type: "throw", fields: pressedAt.map { ["t": .int($0)] } ?? JSONObject())
            case .catchPhone(let pressedAt):
                return PlayRequest(type: "catch", fields: pressedAt.map { ["t": .int($0)] } ?? JSONObject())
            case .throwAtPower(let power): return PlayRequest(type: "throw", fields: ["power": .int(Int64(power))])
            case .catchOnCue: return PlayRequest(type: "catch", fields: ["cue": true])
            case .phone(let choice): return PlayRequest(type: "phone", fields: ["choice": .string(choice)])
            case .challenge(let player): return PlayRequest(type: "challenge", fields: ["player": .string(player)])
            case .leaderboard(let scope):
                return PlayRequest(type: "top", fields: scope.map { ["scope": .string($0.rawValue)] } ?? JSONObject())
            }
        }

        public var pressedAt: Int64? {
            switch self {
            case .throwPhone(let stamp), .catchPhone(let stamp): stamp
            default: nil
            }
        }

        public static func parse(text line: String) -> TextAction<Action>? {
            let (verb, rest) = splitCommand(line)
            switch verb {
            case "t", "throw":
                if rest.isEmpty { return .action(.throwAtPower(95)) }
                let digits = rest.hasSuffix("%") ? String(rest.dropLast()).trimmingCharacters(in: .whitespaces) : rest
                guard let power = Int(digits), (1...95).contains(power) else {
                    return .usage("t [POWER]   t throws at 95 % (the most you can type), t 60 at 60 %")
                }
                return .action(.throwAtPower(power))
            case "c", "catch": return rest.isEmpty ? .action(.catchOnCue) : nil
            case "phone":
                return rest.isEmpty
                    ? .usage("phone ID   e.g. phone brick (the phones are listed at the start)") : .action(.phone(rest))
            case "challenge":
                return rest.isEmpty
                    ? .usage("challenge NAME   dares NAME to beat your best height") : .action(.challenge(rest))
            case "top":
                guard !rest.isEmpty else { return .action(.leaderboard(nil)) }
                guard let scope = Scope(word: rest) else { return .usage("top [game|tonight|all]") }
                return .action(.leaderboard(scope))
            default: return nil
            }
        }

        public static let textHelp = [
            "  t or throw       throw your phone at 95 % power (t 60: at 60 %)",
            "  c or catch       catch it: type it when you read CATCH NOW (3… 2… 1… count down to it)",
            "  phone ID         pick your phone before your first throw (brick … flagship)",
            "  challenge NAME   dare NAME to beat your best height",
            "  top [WHEN]       a leaderboard: top game, top tonight or top all",
        ]
    }
}

extension FlyWire.Intro: KeptList {
    /// The roster's delta: players who joined (or came back) mid-game.
    public static let deltaType = "gameUpdate"
    /// The new players, as `players`.
    public static let deltaItemsKey = "players"

    /// The roster, as entrants.
    public var items: [FlyWire.Entrant] { players.map { FlyWire.Entrant(name: $0) } }

    /// This intro with `items` as its roster.
    public func holding(_ items: [FlyWire.Entrant]) -> FlyWire.Intro {
        var next = self
        next.players = items.map(\.name)
        return next
    }

    /// `Dan and Eve join the game (5 players).` Nobody leaves a game's roster (a player removed from the room stops
    /// throwing but keeps their points).
    public static func line(for items: [FlyWire.Entrant], count: Int, reader: Perspective) -> String? {
        let names = items.map { reader.name == $0.name ? "You" : $0.name }
        let verb = names == ["You"] || names.count > 1 ? "join" : "joins"
        return "\(Wording.list(names)) \(verb) the game (\(Wording.count(count, "player")))."
    }
}
