import Foundation
import Protocol
import Rules

/// Let Me Fly on the wire: presses become `LetMeFly` events (stamped and bounded like buzzes), effects become
/// messages, and the game's throws and achievements go into the data folder's records as they happen.
///
/// Nothing in the game is secret: every message goes to everyone, except a leaderboard asked for with `top`. In a
/// hall (a room of more than `GameRoom.fullLobbyLimit` players at the start) each player gets their own team's roster,
/// throws and catches, their own achievements, a live board of the top catches (`flyBoard`) and the round's counts
/// (`flyTally`), and rankings cut to their top and the player's team; boards and operators the same without a team.
final class FlyHost: GameAdapter {
    typealias Wire = FlyWire

    /// Everything that recreates the game with the journaled events.
    struct StartRecord: Codable {
        var entrants: [FlyEntrant]
        var settings: FlySettings
        var phones: [FlyPhone]
        /// The game's id in the records (`fly-20250614-210311-3f9a`).
        var game: String
        /// The data folder whose `fly/records.json` this game adds to (nil: it keeps nothing).
        var dataDirectory: String?
        /// When tonight began (ISO 8601, UTC), for tonight's leaderboard; nil in records written before games noted
        /// it (tonight then counts back along the game clock).
        var tonightSince: String?
        /// Whether the game is laid out for a hall (nil in records written before halls: a party).
        var hall: Bool?
    }

    /// The readable record of a game (games/*.json); `ranking` entries read like every game log's.
    struct GameLog: Codable {
        struct Entry: Codable {
            var player: String
            var rank: Int
            var score: Int
            var phone: String
            var bestM: Double
        }

        /// The game's id in the records (the log file's `game` is the mode's name).
        var id: String
        var settings: FlySettings
        var throwsMade: [FlyRecord]
        var ranking: [Entry]
        var teams: [FlyWire.TeamStanding]
    }

    static let entry = ModeEntry(
        FlyHost.self, aliases: ["letmefly", "let-me-fly"],
        make: { (options, context) throws(RuleError) in try FlyHost.make(options: options, context: context) },
        restore: { try FlyHost(record: JSONCoding.decode(StartRecord.self, from: $0)) },
        tools: [{ storage in FlyRecordsTool(storage: storage) }],
        logLines: { FlyHost.logLines($0) }, logRows: { FlyHost.logRows($0) })

    var mode: ModeEntry { FlyHost.entry }
    /// The game; any change forgets the catch cues worked out for it.
    var game: LetMeFly {
        didSet { deadlineCache = nil }
    }
    let record: StartRecord
    /// The data folder's records, with this game merged in as it goes.
    let records: FlyRecordStore
    /// Whether the operator was told that the records file could not be read.
    private var isProblemReported = false
    /// The catch cues already sent, by player, throw and seconds before the landing (not journaled: a restart
    /// sends only the cues still to come).
    private var sentCues: Set<String> = []
    /// The cues still to send, in time order: worked out from the game when nil, else kept up by `messages(for:)`
    /// as phones go up (a walk over a hall's thousand players per throw was most of the host's work).
    private var cueCache: [Cue]?
    /// The throws that came down since `cueCache` was worked out (`player#index`): their cues are skipped.
    private var landedThrows: Set<String> = []
    /// Phones thrown since the counts were last sent (kept by `messages(for:)`, replay included).
    private var throwsSinceTally = 0

    /// One catch cue: whose phone, which throw of theirs, how long before the landing, and when.
    private struct Cue {
        var at: Instant
        var player: String
        var index: Int
        var inMs: Int64

        /// What marks it sent.
        var key: String { "\(player)#\(index)#\(inMs / 1000)" }
        /// What marks its throw landed.
        var throwKey: String { "\(player)#\(index)" }
    }

    /// The cues of `thrown` not sent yet: 3, 2 and 1 s before the landing (those after the throw) and the landing.
    private func cues(of thrown: FlyThrow) -> [Cue] {
        ([3, 2, 1, 0] as [Int64]).compactMap { seconds in
            let cue = Cue(
                at: thrown.landsAt.advanced(byMilliseconds: -seconds * 1000), player: thrown.player,
                index: thrown.index, inMs: seconds * 1000)
            return (seconds == 0 || cue.at > thrown.pressedAt) && !sentCues.contains(cue.key) ? cue : nil
        }
    }
    /// `nextDeadline` as last worked out (read every turn of the loop: a hall's thousand players are not walked
    /// each time), forgotten whenever the game, the cues sent or the counts sent change.
    private var deadlineCache: Instant??
    /// The last records' time stamp and its second (`recordStamp()`).
    private var stampCache: (second: Int64, text: String)?
    /// Whether the game is laid out for a hall.
    var isHall: Bool { record.hall == true }
    /// The hall's live board as last worked out, with how many results it counts.
    private var boardCache: (count: Int, rows: [FlyHall.BoardRow]) = (0, [])
    /// The hall's counts as last sent, and when (host ms); whether they changed since.
    private var sentTally: FlyHall.Tally?
    private var tallySentAt: Int64 = .min
    /// How many results the live board counted when it was last noted.
    private var boardNotedCount = 0
    /// When the records file was last written (host ms): a hall writes it at most every few seconds mid-round.
    private var savedAt: Int64 = .min
    /// How often, at most, a hall's counts and live board go out (ms; the highest throws land last, so nearly every
    /// catch of a storm tops the board), and its records file is written mid-round.
    static let tallyInterval: Int64 = 1000
    /// How often, at most, a hall writes its records file within a round (ms).
    static let hallSaveInterval: Int64 = 5000

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try LetMeFly(entrants: record.entrants, settings: record.settings, phones: record.phones)
        records = FlyRecordStore(directory: record.dataDirectory)
    }

    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> FlyHost {
        let settings = FlySettings(
            rounds: try options.integer("rounds"), roundSeconds: try options.integer("roundSeconds"),
            periodMs: Int64(try options.integer("periodMs")), topSpeed: try options.integer("topSpeed"),
            breakSeconds: try options.integer("breakSeconds"))
        let store = FlyRecordStore(directory: context.dataDirectory)
        // The players who are here: one away joins the game when they come back (`playerJoined`), so no round
        // waits for a laptop that was closed before the start.
        let present = context.room.players.filter(\.isConnected)
        guard !present.isEmpty else {
            throw RuleError(
                .tooFewPlayers,
                "Let Me Fly needs at least one player here; players who are away join when they are back.")
        }
        let entrants = present.map { FlyEntrant(name: $0.name, team: $0.team, earned: store.earned(by: $0.name)) }
        let stamp = FlyRecordStore.date(Date()).filter { $0.isNumber }
        let id = "fly-\(stamp.prefix(8))-\(stamp.dropFirst(8).prefix(6))-\(String(context.seed & 0xFFFF, radix: 16))"
        let evening = context.tools.tool(FlyRecordsTool.self)?.eveningStart
        return try FlyHost(
            record: StartRecord(
                entrants: entrants, settings: settings, phones: FlyPhone.builtin, game: id,
                dataDirectory: context.dataDirectory, tonightSince: evening.map(FlyRecordStore.date),
                hall: context.room.players.count > GameRoom.fullLobbyLimit ? true : nil))
    }

    // MARK: The catch countdown (text mode)

    /// The cues still to send for phones in the air: 3, 2 and 1 s before the landing (those after the throw) and
    /// the landing itself, with the key that marks each sent.
    private var dueCues: [Cue] {
        if let cueCache { return cueCache }
        var cues: [Cue] = []
        for player in game.players where player.hangsSince == nil {  // a hanging phone's landing is not known yet
            if case .inAir(let thrown) = player.turn { cues += self.cues(of: thrown) }
        }
        cues.sort { $0.at < $1.at }
        cueCache = cues
        landedThrows = []
        return cues
    }

    /// Keeps the cues up with what the game did (nil: work them out again).
    private func followCues(_ effect: LetMeFly.Effect) {
        switch effect {
        case .thrown(let thrown):
            throwsSinceTally += 1
            guard var cues = cueCache else { return }
            for cue in self.cues(of: thrown) {
                var low = 0
                var high = cues.count
                while low < high {
                    let middle = (low + high) / 2
                    if cues[middle].at <= cue.at { low = middle + 1 } else { high = middle }
                }
                cues.insert(cue, at: low)
            }
            cueCache = cues
        case .caught(let result):
            if cueCache != nil { landedThrows.insert("\(result.thrown.player)#\(result.thrown.index)") }
        case .round, .resumed, .paused, .roundOver, .finished, .timeUp, .backInAir:
            cueCache = nil
        default:
            break
        }
    }

    var nextDeadline: Instant? {
        if let deadlineCache { return deadlineCache }
        let due = [game.nextDeadline, dueCues.first?.at, tallyDue].compactMap { $0 }.min()
        deadlineCache = .some(due)
        return due
    }

    /// When a hall's changed counts and board are due.
    private var tallyDue: Instant? {
        guard isHall, game.phase == .throwing || game.phase == .landing,
            throwsSinceTally > 0 || game.results.count != boardNotedCount
        else {
            return nil
        }
        return Instant(milliseconds: tallySentAt == .min ? 0 : tallySentAt + FlyHost.tallyInterval)
    }

    func tick(at now: Instant) -> Step {
        var cues: [Outgoing] = []
        let schedule = dueCues
        let dueCount = schedule.prefix { $0.at <= now }.count
        if dueCount > 0 {
            cueCache = Array(schedule.dropFirst(dueCount))
            deadlineCache = nil
        }
        for cue in schedule.prefix(dueCount) where !landedThrows.contains(cue.throwKey) {
            sentCues.insert(cue.key)
            // A cue the host could not send in time (a restart, a stall) is stale: only the landing's still helps.
            guard now.milliseconds - cue.at.milliseconds < 500 || cue.inMs == 0 else { continue }
            cues.append(
                Outgoing(.playerNamed(PlayerName(cue.player)), FlyWire.CatchCue(player: cue.player, inMs: cue.inMs)))
        }
        if let due = tallyDue, due <= now { cues += tallyOut(at: now) }
        guard let due = game.nextDeadline, due <= now else { return .announcing(cues) }
        var step = (try? apply(.tick, at: now)) ?? Step()
        step.messages.insert(contentsOf: cues, at: 0)
        return step
    }

    // MARK: The hall

    /// The round's counts (when they changed) and the live board for everyone, noted as sent.
    private func tallyOut(at now: Instant) -> [Outgoing] {
        let tally = FlyHall.tally(game)
        var outgoing: [Outgoing] = [.state(.everyone, board)]
        if tally != sentTally { outgoing.append(Outgoing(.everyone, FlyHost.tally(tally))) }
        sentTally = tally
        throwsSinceTally = 0
        tallySentAt = now.milliseconds
        boardNotedCount = game.results.count
        deadlineCache = nil
        return outgoing
    }

    /// The counts as the wire carries them.
    private static func tally(_ tally: FlyHall.Tally) -> FlyWire.Tally {
        FlyWire.Tally(
            round: tally.round, players: tally.players, thrown: tally.thrown, inAir: tally.inAir, clean: tally.clean,
            fumbled: tally.fumbled, dropped: tally.dropped, missed: tally.missed)
    }

    /// The live board: this game's highest catches, worked out again only from the results it has not counted.
    private var board: FlyWire.Board {
        let results = game.results
        if boardCache.count != results.count {
            if boardCache.count + 1 == results.count {
                boardCache.rows = FlyHall.board(boardCache.rows, adding: results[results.count - 1])
            } else {
                boardCache.rows = FlyHall.board(results)
            }
            boardCache.count = results.count
        }
        return FlyWire.Board(
            round: game.roundNumber,
            rows: boardCache.rows.map {
                FlyWire.BoardRow(
                    player: $0.player, team: $0.team, heightM: FlyWire.metres($0.heightMm), phone: $0.phone)
            })
    }

    /// The teams of the game (by name key, with a name), in order of first appearance.
    private var teamNames: [(key: String, name: String)] {
        var seen: Set<String> = []
        var names: [(String, String)] = []
        for player in game.players where seen.insert(player.team.lowercased()).inserted {
            names.append((player.team.lowercased(), player.team))
        }
        return names
    }

    /// `names` by the key of their player's team.
    private func byTeam(_ names: [String]) -> [String: [String]] {
        var teamOf: [String: String] = [:]
        for player in game.players { teamOf[player.name.lowercased()] = player.team.lowercased() }
        var grouped: [String: [String]] = [:]
        for name in names { grouped[teamOf[name.lowercased()] ?? "", default: []].append(name) }
        return grouped
    }

    /// One message per team (built from the team's name and key) and one for the spectators (team nil).
    private func perTeam(_ build: (_ team: (key: String, name: String)?) -> any HostMessage) -> [Outgoing] {
        teamNames.map { Outgoing(.team(TeamName($0.name)), build($0)) } + [Outgoing(.spectators, build(nil))]
    }

    /// The roster a hall's reader holds: their team's (team nil: everyone's).
    private func intro(team: String?) -> FlyWire.Intro {
        var intro = self.intro
        intro.hall = game.players.count
        if let key = team?.lowercased() {
            intro.players = game.players.filter { $0.team.lowercased() == key }.map(\.name)
        }
        return intro
    }

    /// The audience of what a hall shows a player's team: the team's terminals.
    private func teamOf(_ player: String) -> Audience {
        .team(TeamName(game.player(named: player)?.team ?? player))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        var parts = ["Let Me Fly"]
        if game.roundNumber > 0 { parts.append("round \(game.roundNumber)/\(game.settings.rounds)") }
        switch game.phase {
        case .notStarted: parts.append("starting")
        case .throwing:
            let thrown = game.players.filter { $0.isActive && $0.turn != .waiting }.count
            let playing = game.players.filter(\.isActive).count
            parts.append("throwing (\(thrown)/\(playing) thrown)")
        case .landing: parts.append("time is up, phones coming down")
        case .between: parts.append("between rounds")
        case .finished: parts.append("over")
        }
        let up = game.players.filter { if case .inAir = $0.turn { true } else { false } }.count
        if up > 0 { parts.append(Wording.count(up, "phone") + " up") }
        if game.isPaused { parts.append("paused") }
        return parts.joined(separator: " · ")
    }

    var operatorPrompt: String? {
        guard game.phase == .between, game.nextRoundAt == nil, !game.isPaused else { return nil }
        return "next for round \(game.roundNumber + 1)"
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        // The roster is a growing state (PROTOCOL.md §6.0): whole now, then a `gameUpdate` per mid-game join.
        var opening: [Outgoing] = [.state(.everyone, intro), Outgoing(.everyone, phones)]
        if isHall {
            opening = teamNames.map { .state(.team(TeamName($0.name)), intro(team: $0.name)) }
            opening += [.state(.spectators, intro(team: nil)), Outgoing(.everyone, phones), .state(.everyone, board)]
        }
        if let problem = records.problem {
            isProblemReported = true
            opening.append(Outgoing(.operators, Notice(problem)))
        }
        return .announcing(opening) + ((try? apply(.start, at: now)) ?? Step())
    }

    func perform(_ action: FlyWire.Action, context: PlayContext) throws(RuleError) -> Step {
        let name = context.player.name
        switch action {
        case .throwPhone(let stamp):
            let press = Instant(milliseconds: context.estimatePress(stamp).pressedAt)
            return try apply(.throwPhone(player: name, pressedAt: press), at: context.now)
        case .catchPhone(let stamp):
            let press = Instant(milliseconds: context.estimatePress(stamp).pressedAt)
            return try apply(.catchPhone(player: name, pressedAt: press), at: context.now)
        case .throwAtPower(let percent):
            return try apply(
                .throwAtPower(player: name, powerPermille: percent * 10, pressedAt: context.now), at: context.now)
        case .catchOnCue:
            // Typed on the CATCH NOW line (sent at the landing): the reader's reaction does not count against them.
            let press = context.now.advanced(byMilliseconds: -FlyPhysics.cueReactionMs)
            return try apply(.catchPhone(player: name, pressedAt: press), at: context.now)
        case .phone(let choice):
            return try apply(.pickPhone(player: name, phone: choice), at: context.now)
        case .challenge(let target):
            return try apply(.challenge(from: name, to: target), at: context.now)
        case .leaderboard(let scope):
            return .announcing([
                Outgoing(.player(context.player.playerID), leaderboard(scope ?? .game, at: context.now))
            ])
        }
    }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        if let playing = game.player(named: player.name) {
            // Back after a drop: rounds wait for them again (a removed player stays out of this game).
            guard playing.isActive, playing.isAway else { return Step() }
            return (try? apply(.playerBack(playing.name), at: now)) ?? Step()
        }
        let entrant = FlyEntrant(name: player.name, team: player.team, earned: records.earned(by: player.name))
        return (try? apply(.addPlayer(entrant), at: now)) ?? Step()
    }

    func playerAway(_ player: Player, at now: Instant) -> Step {
        guard let playing = game.player(named: player.name), playing.isActive, !playing.isAway else { return Step() }
        let wasDue = game.phase == .throwing && playing.turn == .waiting
        guard var step = try? apply(.playerAway(playing.name), at: now) else { return Step() }
        if wasDue {
            step.messages.insert(
                feed("\(playing.name) is away: the round does not wait for them.", isSecondary: true), at: 0)
        }
        return step
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step {
        (try? apply(.removePlayer(player.name), at: now)) ?? Step()
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: FlyWire.Intro {
        FlyWire.Intro(
            players: game.players.map(\.name), rounds: game.settings.rounds, roundSeconds: game.settings.roundSeconds,
            periodMs: game.settings.periodMs, topSpeed: game.settings.topSpeed)
    }

    private var phones: FlyWire.Phones {
        FlyWire.Phones(
            list: game.phones.map {
                FlyWire.Phone(
                    id: $0.id, name: $0.name, multiplier: Double($0.multiplierPercent) / 100,
                    catchWindowMs: $0.catchWindowMs)
            }, default: game.defaultPhone.id)
    }

    private func round(_ round: FlyRound, at now: Instant) -> FlyWire.Round {
        FlyWire.Round(
            number: round.number, of: round.of, remainingMs: remaining(round.deadline, now) ?? 0,
            sweepStart: round.sweepStart.milliseconds, periodMs: round.periodMs, deadline: round.deadline.milliseconds)
    }

    private static func thrown(_ thrown: FlyThrow) -> FlyWire.Thrown {
        FlyWire.Thrown(
            player: thrown.player, team: thrown.team, phone: thrown.phone, power: (thrown.powerPermille + 5) / 10,
            heightM: FlyWire.metres(thrown.heightMm), airMs: thrown.airMs, landsAt: thrown.landsAt.milliseconds)
    }

    private static func caught(_ result: FlyCatch) -> FlyWire.Caught {
        FlyWire.Caught(
            player: result.thrown.player, team: result.thrown.team, phone: result.thrown.phone,
            quality: result.quality.rawValue, offsetMs: result.offsetMs,
            heightM: FlyWire.metres(result.thrown.heightMm),
            points: result.points, streak: result.streak, score: result.score)
    }

    /// A challenge as announced: with the challenged player's best so far when it already beats the height.
    private func challenged(_ challenge: FlyChallenge) -> FlyWire.Challenged {
        let best = game.player(named: challenge.to)?.bestMm.flatMap { $0 >= challenge.heightMm ? $0 : nil }
        return FlyWire.Challenged(
            from: challenge.from, to: challenge.to, heightM: FlyWire.metres(challenge.heightMm),
            bestM: best.map(FlyWire.metres))
    }

    private static func standings(_ standings: [FlyStanding]) -> [FlyWire.Standing] {
        standings.map {
            FlyWire.Standing(
                player: $0.player, team: $0.team, phone: $0.phone, score: $0.score, rank: $0.rank,
                bestM: FlyWire.metres($0.bestMm), streak: $0.streak)
        }
    }

    private static func teams(_ teams: [FlyTeamStanding]) -> [FlyWire.TeamStanding] {
        teams.map { FlyWire.TeamStanding(team: $0.team, score: $0.score, rank: $0.rank) }
    }

    private func roundOver(_ summary: FlyRoundSummary, at now: Instant) -> FlyWire.RoundOver {
        FlyWire.RoundOver(
            number: summary.number, last: summary.isLast, missed: summary.missed,
            ranking: FlyHost.standings(summary.standings), nextInMs: remaining(summary.nextRoundAt, now),
            deadline: summary.nextRoundAt?.milliseconds)
    }

    /// A hall's `roundOver` for one team (nil: the spectators): the ranking's top and the team, the team's misses.
    private func hallRoundOver(
        _ full: FlyWire.RoundOver, standings: [FlyStanding], missed: [String: [String]],
        team: (key: String, name: String)?
    ) -> FlyWire.RoundOver {
        var message = full
        message.ranking = FlyHost.standings(FlyHall.cut(standings, team: team?.name))
        message.count = standings.count
        message.missedCount = full.missed.count
        message.missed = team.map { missed[$0.key] ?? [] } ?? Array(full.missed.prefix(FlyHall.namesShown))
        return message
    }

    private var scoreboard: FlyWire.Scoreboard {
        FlyWire.Scoreboard(ranking: FlyHost.standings(game.standings), teams: FlyHost.teams(game.teamStandings))
    }

    /// When "tonight" began: when the host opened the room (noted at the start), else the host's start as the game
    /// clock counts from it.
    func tonightSince(at now: Instant) -> String {
        record.tonightSince ?? FlyRecordStore.date(Date().addingTimeInterval(-Double(now.milliseconds) / 1000))
    }

    /// The leaderboard of `scope`: this game's throws, tonight's or every recorded one.
    func leaderboard(_ scope: FlyWire.Scope, at now: Instant) -> FlyWire.Leaderboard {
        let chosen: [FlyRecord]
        switch scope {
        case .game: chosen = game.results.map { FlyRecord($0, game: record.game, date: "") }
        case .tonight: chosen = FlyLeaderboard.since(tonightSince(at: now), records.file.records)
        case .allTime: chosen = records.file.records
        }
        return FlyRecordStore.leaderboard(scope, records: chosen, phoneOrder: game.phones.map(\.id))
    }

    // MARK: The organiser's feed (nothing in this game is secret: it only brings the game to the host's console)

    /// `Round 2/3 open: 30 s to throw for Ann, Bob and Cleo.`
    private func roundFeed(_ opened: FlyRound) -> String {
        let names = game.players.filter(\.isActive).map(\.name)
        return "Round \(opened.number)/\(opened.of) open: \(game.settings.roundSeconds) s to throw for "
            + names.joined(separator: ", ") + "."
    }

    /// The records' time stamp of now (whole seconds), formatted at most once a second: a hall's catches come a
    /// thousand a second, and an `ISO8601DateFormatter` is costly to make.
    private func recordStamp() -> String {
        let date = Date()
        let second = Int64(date.timeIntervalSince1970.rounded(.down))
        if let stampCache, stampCache.second == second { return stampCache.text }
        let text = FlyRecordStore.date(date)
        stampCache = (second, text)
        return text
    }

    func messages(for effects: [LetMeFly.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        // Formatted at most once a second (a formatter per call was a sixth of a hall round's work).
        lazy var today = recordStamp()
        var shouldSave = false
        for effect in effects {
            followCues(effect)
            switch effect {
            case .round(let opened) where isHall:
                outgoing.append(
                    .announcement(
                        .everyone, round(opened, at: now),
                        feed: "Round \(opened.number)/\(opened.of) open: \(game.settings.roundSeconds) s to throw for "
                            + Wording.count(game.players.filter(\.isActive).count, "player") + "."))
                outgoing.append(.state(.everyone, board))
            case .round(let opened):
                outgoing.append(.announcement(.everyone, round(opened, at: now), feed: roundFeed(opened)))
            case .playerAdded(let entrant) where isHall:
                outgoing.append(.state(.team(TeamName(entrant.team)), intro(team: entrant.team)))
                outgoing.append(.state(.spectators, intro(team: nil)))
                outgoing.append(feed("\(entrant.name) joins the game.", isSecondary: true))
            case .playerAdded(let entrant):
                outgoing.append(.state(.everyone, intro))  // the roster grew: a `gameUpdate` names the newcomer
                outgoing.append(feed("\(entrant.name) joins the game.", isSecondary: true))
            case .phonePicked(let player, let phone):
                let picked = FlyWire.Picked(player: player, phone: phone)
                outgoing.append(.announcement(isHall ? teamOf(player) : .everyone, picked, isSecondary: true))
            case .thrown(let thrown) where isHall:
                outgoing.append(Outgoing(.team(TeamName(thrown.team)), FlyHost.thrown(thrown)))
            case .thrown(let thrown):
                let message = FlyHost.thrown(thrown)
                outgoing.append(.announcement(.everyone, message))
            case .backInAir(let thrown):
                // Its thrower, coming back, reads it in the catch-up (with `stillInAir`); the others' screens move
                // the landing.
                outgoing.append(
                    .announcement(
                        .everyone, FlyHost.thrown(thrown),
                        feed: "\(thrown.player)'s phone flies on after the restart.", isSecondary: true))
            case .caught(let result):
                records.record(result, game: record.game, date: today)
                shouldSave = true
                let message = FlyHost.caught(result)
                if isHall {
                    // The board: at most once a second.
                    outgoing.append(Outgoing(.team(TeamName(result.thrown.team)), message))
                } else {
                    outgoing.append(.announcement(.everyone, message))
                }
            case .timeUp(let number, let missed) where isHall:
                let grouped = byTeam(missed)
                outgoing += perTeam { team in
                    FlyWire.TimeUp(
                        round: number,
                        missed: team.map { grouped[$0.key] ?? [] } ?? Array(missed.prefix(FlyHall.namesShown)),
                        missedCount: missed.count)
                }
                outgoing += tallyOut(at: now)
                outgoing.append(
                    feed("Time is up for round \(number): \(Wording.count(missed.count, "player")) did not throw."))
            case .timeUp(let number, let missed):
                let message = FlyWire.TimeUp(round: number, missed: missed)
                outgoing.append(.announcement(.everyone, message))
            case .challenged(let challenge) where isHall:
                let message = challenged(challenge)
                outgoing += [
                    .announcement(.playerNamed(PlayerName(challenge.from)), message),
                    Outgoing(.playerNamed(PlayerName(challenge.to)), message),
                ]
            case .challenged(let challenge):
                let message = challenged(challenge)
                outgoing.append(.announcement(.everyone, message))
            case .challengeSettled(let result):
                let message = FlyWire.ChallengeOver(
                    from: result.challenge.from, to: result.challenge.to,
                    targetM: FlyWire.metres(result.challenge.heightMm), heightM: FlyWire.metres(result.heightMm),
                    quality: result.quality.rawValue, won: result.won)
                if isHall {
                    outgoing += [
                        .announcement(.playerNamed(PlayerName(message.from)), message),
                        Outgoing(.playerNamed(PlayerName(message.to)), message),
                    ]
                } else {
                    outgoing.append(.announcement(.everyone, message))
                }
            case .achievement(let player, let achievement):
                records.award(achievement.rawValue, to: player, game: record.game, date: today)
                shouldSave = true
                let message = FlyWire.Achievement(
                    player: player, id: achievement.rawValue, name: achievement.title,
                    description: achievement.description)
                // In a hall, a first achievement is the player's own news (the operator's feed would drown in them).
                outgoing +=
                    isHall ? [Outgoing(.playerNamed(PlayerName(player)), message)] : [.announcement(.everyone, message)]
            case .roundOver(let summary) where isHall:
                shouldSave = true
                let full = roundOver(summary, at: now)
                let grouped = byTeam(summary.missed)
                outgoing += perTeam { team in
                    hallRoundOver(full, standings: summary.standings, missed: grouped, team: team)
                }
                outgoing += tallyOut(at: now)
                outgoing.append(feed(hallRoundOver(full, standings: summary.standings, missed: grouped, team: nil)))
                if let prompt = operatorPrompt { outgoing.append(feed("Waiting for you: type \(prompt).")) }
            case .roundOver(let summary):
                shouldSave = true
                let message = roundOver(summary, at: now)
                outgoing.append(.announcement(.everyone, message))
                if let prompt = operatorPrompt { outgoing.append(feed("Waiting for you: type \(prompt).")) }
            case .finished where isHall:
                shouldSave = true
                let standings = game.standings
                let teams = FlyHost.teams(game.teamStandings)
                outgoing += perTeam { team in
                    FlyWire.Scoreboard(
                        ranking: FlyHost.standings(FlyHall.cut(standings, team: team?.name)), teams: teams,
                        count: standings.count)
                }
                outgoing.append(
                    feed(
                        FlyWire.Scoreboard(
                            ranking: FlyHost.standings(FlyHall.cut(standings, team: nil)), teams: teams,
                            count: standings.count)))
            case .finished:
                shouldSave = true
                outgoing.append(.announcement(.everyone, scoreboard))
            case .paused:
                break  // the generic `steer` announces every pause
            case .resumed(let opened, let nextRoundAt):
                outgoing.append(
                    Outgoing(
                        .everyone,
                        FlyWire.Resumed(
                            remainingMs: opened.flatMap { remaining($0.deadline, now) },
                            deadline: opened?.deadline.milliseconds, sweepStart: opened?.sweepStart.milliseconds,
                            nextInMs: remaining(nextRoundAt, now))))
            }
        }
        // Written after the effects are merged; a replay merges the same throws again and changes nothing. A hall
        // writes at the end of a round and otherwise at most every few seconds (a write per catch of a thousand
        // players is most of the host's work).
        let isRoundEnd = effects.contains {
            switch $0 {
            case .roundOver, .finished: true
            default: false
            }
        }
        if isHall && shouldSave && !isRoundEnd && now.milliseconds < savedAt + FlyHost.hallSaveInterval {
            shouldSave = false
        }
        if shouldSave { savedAt = now.milliseconds }
        if shouldSave, let problem = records.save() { outgoing.append(Outgoing(.operators, Notice(problem))) }
        if effects.contains(where: { if case .finished = $0 { true } else { false } }) {
            outgoing += FlyWire.Scope.allCases.map { Outgoing(.everyone, leaderboard($0, at: now)) }
        }
        return outgoing
    }

    /// This round's throws of `players` as they went up and came down, in the order they were pressed (catch-ups).
    static func turns(of players: some Sequence<FlyPlayer>) -> [any HostMessage] {
        let turns = players.compactMap { player -> (FlyThrow, FlyCatch?)? in
            switch player.turn {
            case .inAir(let thrown): (thrown, nil)
            case .done(let result): (result.thrown, result)
            case .waiting, .missed: nil
            }
        }
        var messages: [any HostMessage] = []
        for (thrown, result) in turns.sorted(by: { $0.0.pressedAt < $1.0.pressedAt }) {
            messages.append(FlyHost.thrown(thrown))
            if let result { messages.append(FlyHost.caught(result)) }
        }
        return messages
    }

    /// A catch-up's picks: each phone picked, and the phone of each player who has thrown, marked locked.
    static func picks(of players: some Sequence<FlyPlayer>, in game: LetMeFly) -> [FlyWire.Picked] {
        players.compactMap { player in
            let locked = player.throwCount > 0
            guard locked || player.pickedPhone != nil else { return nil }
            return FlyWire.Picked(player: player.name, phone: game.phone(of: player).id, locked: locked ? true : nil)
        }
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [any HostMessage] {
        if isHall { return hallSnapshot(team: viewer.role == .player ? viewer.team : nil, at: current) }
        let now = game.pausedAt ?? current
        var messages: [any HostMessage] = [intro, phones]
        messages += FlyHost.picks(of: game.players, in: game)
        switch game.phase {
        case .throwing, .landing, .between:
            messages.append(FlyWire.Scores(final: false, ranking: FlyHost.standings(game.standings), teams: []))
            if let opened = game.latestRound { messages.append(round(opened, at: now)) }
            messages += FlyHost.turns(of: game.players)
            if let notice = stillInAir(for: viewer, at: now) { messages.append(notice) }
            if game.phase != .throwing {
                let missed = game.players.filter { $0.turn == .missed }.map(\.name)
                messages.append(FlyWire.TimeUp(round: game.roundNumber, missed: missed))
            }
            if game.phase == .between, let summary = game.lastSummary { messages.append(roundOver(summary, at: now)) }
            messages += game.challenges.map(challenged)
        case .finished:
            messages.append(scoreboard)
            messages += FlyWire.Scope.allCases.map { leaderboard($0, at: current) }
        case .notStarted:
            break
        }
        return messages
    }

    /// A hall's catch-up: the team's roster, picks and throws (a spectator's: everyone's roster, no throws), the
    /// board, the counts, and rankings cut to their top and the team.
    private func hallSnapshot(team: String?, at current: Instant) -> [any HostMessage] {
        let now = game.pausedAt ?? current
        let key = team?.lowercased()
        let mates = game.players.filter { key != nil && $0.team.lowercased() == key }
        var messages: [any HostMessage] = [intro(team: team), phones, board]
        messages += FlyHost.picks(of: mates, in: game)
        let standings = game.standings
        let teamPart = team.map { (key: $0.lowercased(), name: $0) }
        switch game.phase {
        case .throwing, .landing, .between:
            messages.append(
                FlyWire.Scores(
                    final: false, ranking: FlyHost.standings(FlyHall.cut(standings, team: team)), teams: [],
                    count: standings.count))
            if let opened = game.latestRound { messages.append(round(opened, at: now)) }
            messages.append(FlyHost.tally(FlyHall.tally(game)))
            messages += FlyHost.turns(of: mates)
            let missed = game.players.filter { $0.turn == .missed }.map(\.name)
            let grouped = byTeam(missed)
            if game.phase != .throwing {
                messages.append(
                    FlyWire.TimeUp(
                        round: game.roundNumber,
                        missed: teamPart.map { grouped[$0.key] ?? [] } ?? Array(missed.prefix(FlyHall.namesShown)),
                        missedCount: missed.count))
            }
            if game.phase == .between, let summary = game.lastSummary {
                messages.append(
                    hallRoundOver(
                        roundOver(summary, at: now), standings: summary.standings, missed: byTeam(summary.missed),
                        team: teamPart))
            }
        case .finished:
            messages.append(
                FlyWire.Scoreboard(
                    ranking: FlyHost.standings(FlyHall.cut(standings, team: team)),
                    teams: FlyHost.teams(game.teamStandings), count: standings.count))
            messages += FlyWire.Scope.allCases.map { leaderboard($0, at: current) }
        case .notStarted:
            break
        }
        return messages
    }

    /// The viewer's own phone is up (back after a drop or a host restart): how long it has left, and to catch it.
    private func stillInAir(for viewer: Viewer, at now: Instant) -> Notice? {
        guard viewer.role == .player, let name = viewer.name, let player = game.player(named: name),
            player.hangsSince == nil, case .inAir(let thrown) = player.turn
        else { return nil }
        let left = now.milliseconds(until: thrown.landsAt)
        guard left > 0 else { return nil }
        return Notice(
            "Your phone is still in the air and comes down in \(left / 1000).\(left / 100 % 10) s: catch it!")
    }

    var scores: any HostMessage {
        if isHall {
            let standings = game.standings
            return FlyWire.Scores(
                final: game.phase == .finished, ranking: FlyHost.standings(FlyHall.cut(standings, team: nil)),
                teams: FlyHost.teams(game.teamStandings), count: standings.count)
        }
        return FlyWire.Scores(
            final: game.phase == .finished, ranking: FlyHost.standings(game.standings),
            teams: FlyHost.teams(game.teamStandings))
    }

    var gameLog: JSONValue {
        let log = GameLog(
            id: record.game, settings: record.settings,
            throwsMade: game.results.map { FlyRecord($0, game: record.game, date: "") },
            ranking: game.standings.map {
                GameLog.Entry(
                    player: $0.player, rank: $0.rank, score: $0.score, phone: $0.phone, bestM: FlyWire.metres($0.bestMm)
                )
            }, teams: FlyHost.teams(game.teamStandings))
        return (try? JSONCoding.encode(log)) ?? .null
    }

    // MARK: The game log for people

    /// `partyline-host history GAME`: the settings, every throw round by round, the rankings.
    static func logLines(_ json: JSONValue) -> [String] {
        guard let log = try? JSONCoding.decode(GameLog.self, from: json) else { return ModeEntry.plainLines(json) }
        let settings = log.settings
        var lines = [
            "Let Me Fly · \(log.id) · \(Wording.count(settings.rounds, "round")) of \(settings.roundSeconds) s"
                + " · top speed \(settings.topSpeed) m/s"
        ]
        let names = FlyRecordStore.phoneNames
        for round in Set(log.throwsMade.map(\.round)).sorted() {
            lines.append("Round \(round)")
            for made in log.throwsMade where made.round == round {
                let how =
                    switch made.quality {
                    case .clean: "caught cleanly"
                    case .fumbled: "fumbled (half points)"
                    case .dropped: "dropped"
                    }
                lines.append(
                    "    \(made.player) (\(made.team), \(names[made.phone] ?? made.phone)): "
                        + "\(FlyPhysics.metres(made.heightMm)), \(how), \(Wording.count(made.points, "point"))")
            }
        }
        lines.append(
            "Ranking: "
                + log.ranking.map {
                    "#\($0.rank) \($0.player) \($0.score) ("
                        + ($0.bestM > 0 ? "best catch \(FlyWire.heightText($0.bestM))" : "no catch") + ")"
                }.joined(separator: " · "))
        lines.append("Teams: " + log.teams.map { "#\($0.rank) \($0.team) \($0.score)" }.joined(separator: " · "))
        return lines
    }

    /// `partyline-host history GAME --csv`: one row per throw that came down.
    static func logRows(_ json: JSONValue) -> [[String]] {
        guard let log = try? JSONCoding.decode(GameLog.self, from: json) else { return [] }
        var rows = [["round", "player", "team", "phone", "height m", "air ms", "catch", "points"]]
        for made in log.throwsMade {
            let metres = String(format: "%.3f", FlyWire.metres(made.heightMm))
            rows.append([
                String(made.round), made.player, made.team, made.phone, metres, String(made.airMs),
                made.quality.rawValue, String(made.points),
            ])
        }
        return rows
    }
}

/// What FlyHost does beyond the core every game has.
extension FlyHost: RosterAware, OperatorNotes, KeepsScore {}

extension FlyHost: RestartAware {
    /// Phones in the air when the host stopped hang until their throwers are back (`LetMeFly.Event.hostRestarted`).
    func hostRestarted(at now: Instant) -> Step {
        cueCache = nil  // phones in the air hang from now: their cues wait for the landing they get back
        return (try? apply(.hostRestarted, at: now)) ?? Step()
    }

    var isHeldForRestart: Bool { game.isHeldForRestart }
}

extension FlyWire: HostedWire {
    static var hostEntry: ModeEntry { FlyHost.entry }
}
