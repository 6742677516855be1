/// The station hunt on the wire (PROTOCOL.md §6.6): teams follow clues around the venue, check in with the code
/// posted at each station and solve its puzzle or question. Codes never travel to clients; a team's clue, task,
/// hints and answers reach that team only.
public enum HuntWire: GameWire {
    public static let name = "hunt"
    public static let title = "Station hunt"
    public static let startGrammar = StartGrammar(
        game: name,
        options: [
            .word("hunt", note: "— (required)", help: "which hunt", bareWord: "HUNT-ID", isRequired: true),
            .choice(
                "order", ["fixed", "staggered"], default: "fixed",
                help: "every team the same route, or each team starting at a different station", isBare: true),
            .number("minutes", 1...600, default: 45, help: "the hunt clock", bareWord: "MINUTES"),
            .number(
                "penaltySeconds", 0...3600, default: 30,
                help: "added to a team's time for each wrong pick or answer"),
            .flag("strict", help: "no forgiveness for small spelling mistakes", houseRule: "--strict"),
            .list("teams", note: "the teams with a player connected", help: "who hunts"),
            .number(
                "lateWaitSeconds", 0...3600, default: 60,
                help: "how long a team formed during the hunt waits before its first check-in"),
        ])

    /// A hunt started.
    public struct Intro: GameIntro {
        public static let type = "game"
        public static let gameName = HuntWire.name
        /// Always `hunt`.
        public var game = HuntWire.name
        /// The hunt's id.
        public var hunt: String
        /// The hunt's name.
        public var name: String
        /// How many stations it has.
        public var stations: Int
        /// The teams hunting.
        public var teams: [String]
        /// `fixed` or `staggered`.
        public var order: String
        /// Seconds added for a wrong pick or answer.
        public var penaltySeconds: Int
        /// The hunt clock's time left when sent.
        public var remainingMs: Int64
        /// The hunt clock's end, host ms.
        public var deadline: Int64
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the intro.
        public init(
            hunt: String, name: String, stations: Int, teams: [String], order: String, penaltySeconds: Int,
            remainingMs: Int64, deadline: Int64
        ) {
            self.hunt = hunt
            self.name = name
            self.stations = stations
            self.teams = teams
            self.order = order
            self.penaltySeconds = penaltySeconds
            self.remainingMs = remainingMs
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            "=== Station hunt: \(name)! \(Wording.count(stations, "station")), \(Wording.minutes(remainingMs)) left. "
                + "Teams: \(teams.joined(separator: ", "))\(Wording.moreTeams(shown: teams.count, total: total)). "
                + "Follow your clue; at the station type: checkin CODE ==="
        }
    }

    /// Your team's clue to its next station (to that team only).
    public struct Clue: HostMessage {
        public static let type = "clue"
        /// The station's place on your route, 1-based.
        public var station: Int
        /// How many stations the hunt has.
        public var of: Int
        /// The riddle that leads there.
        public var text: String

        /// Creates the message.
        public init(station: Int, of: Int, text: String) {
            self.station = station
            self.of = of
            self.text = text
        }

        public func line(for reader: Perspective) -> String? {
            "Clue \(station)/\(of): \(text)  — at the station, type: checkin CODE"
        }
    }

    /// Your team's station asks a question (to that team only); answer with `answer`.
    public struct Question: HostMessage {
        public static let type = "question"
        /// The station's place on your route.
        public var number: Int
        /// How many stations the hunt has.
        public var of: Int
        /// The question.
        public var text: String
        /// How many letters and digits the answer has.
        public var letters: Int
        /// How many hints the station has.
        public var hints: Int
        /// What each hint costs, in seconds, in order.
        public var hintCosts: [Int]?

        /// Creates the message.
        public init(number: Int, of: Int, text: String, letters: Int, hints: Int, hintCosts: [Int]? = nil) {
            self.number = number
            self.of = of
            self.text = text
            self.letters = letters
            self.hints = hints
            self.hintCosts = hintCosts
        }

        public func line(for reader: Perspective) -> String? {
            "Station \(number)/\(of): \(text)  (\(Wording.count(letters, "letter")))  Every line you type is your "
                + "answer now; a wrong one adds time. " + Wording.huntCommands(hintCosts ?? [])
        }
    }

    /// A wrong pick or answer: the penalty (to that team only). The team tries again.
    public struct Wrong: HostMessage {
        public static let type = "wrong"
        /// The penalty just added, ms.
        public var penaltyMs: Int64
        /// The team's penalties so far, ms.
        public var penaltiesMs: Int64

        /// Creates the message.
        public init(penaltyMs: Int64, penaltiesMs: Int64) {
            self.penaltyMs = penaltyMs
            self.penaltiesMs = penaltiesMs
        }

        public func line(for reader: Perspective) -> String? {
            "✘ Not that one: +\(Wording.seconds(penaltyMs)) penalty (\(Wording.clock(penaltiesMs)) so far). "
                + "Try again."
        }
    }

    /// A hint for your team's station, for its cost (to that team only).
    public struct Hint: HostMessage {
        public static let type = "hint"
        /// Which hint, 1-based.
        public var number: Int
        /// How many the station has.
        public var of: Int
        /// What it says.
        public var text: String
        /// What it cost, ms.
        public var costMs: Int64
        /// The team's penalties now, ms.
        public var penaltiesMs: Int64

        /// Creates the message.
        public init(number: Int, of: Int, text: String, costMs: Int64, penaltiesMs: Int64) {
            self.number = number
            self.of = of
            self.text = text
            self.costMs = costMs
            self.penaltiesMs = penaltiesMs
        }

        public func line(for reader: Perspective) -> String? {
            "Hint \(number)/\(of) (+\(Wording.seconds(costMs))): \(text)"
        }
    }

    /// Your team solved its station (to that team only).
    public struct Solved: HostMessage {
        public static let type = "solved"
        /// The station's place on your route.
        public var station: Int
        /// How many stations the hunt has.
        public var of: Int
        /// Where you are.
        public var name: String
        /// The right answer.
        public var answer: String
        /// What the hunt says on solving it; null when nothing.
        @Nullable public var success: String?
        /// Hunt time of the solve, ms.
        public var elapsedMs: Int64
        /// Your penalties so far, ms.
        public var penaltiesMs: Int64
        /// Whether this was your last station.
        public var last: Bool

        /// Creates the message.
        public init(
            station: Int, of: Int, name: String, answer: String, success: String?, elapsedMs: Int64,
            penaltiesMs: Int64, last: Bool
        ) {
            self.station = station
            self.of = of
            self.name = name
            self.answer = answer
            self.success = success
            self.elapsedMs = elapsedMs
            self.penaltiesMs = penaltiesMs
            self.last = last
        }

        public func line(for reader: Perspective) -> String? {
            let done = last ? " You found every station!" : ""
            return "✔ \(name) solved (\(answer)) at \(Wording.clock(elapsedMs)). " + (success.map { $0 + " " } ?? "")
                + "Stations: \(station)/\(of).\(done)"
        }
    }

    /// One team's public progress.
    public struct TeamProgress: ListItem {
        /// The team.
        public var team: String
        /// Stations solved.
        public var station: Int
        /// How many the hunt has.
        public var of: Int
        /// Hunt time of its last solve (its finishing time once finished), ms.
        public var elapsedMs: Int64
        /// Its penalties so far, ms.
        public var penaltiesMs: Int64
        /// Whether it solved every station.
        public var finished: Bool
        /// In a `progressUpdate` only, where the row goes when not at the end (PROTOCOL.md §6.0).
        public var at: Int?

        /// Creates a row.
        public init(
            team: String, station: Int, of: Int, elapsedMs: Int64, penaltiesMs: Int64, finished: Bool, at: Int? = nil
        ) {
            self.team = team
            self.station = station
            self.of = of
            self.elapsedMs = elapsedMs
            self.penaltiesMs = penaltiesMs
            self.finished = finished
            self.at = at
        }

        /// A team has one row.
        public var key: String { team }

        /// `Red 2/5 (+0:30 penalties)`, `Blue done 12:04`.
        public var summary: String {
            let penalty = penaltiesMs > 0 ? " (+\(Wording.clock(penaltiesMs)) penalties)" : ""
            return finished
                ? "\(team) done \(Wording.clock(elapsedMs))\(penalty)" : "\(team) \(station)/\(of)\(penalty)"
        }
    }

    /// Every team's progress, in the order the teams joined the hunt: a growing state (PROTOCOL.md §6.0), whole at
    /// the start, on joining and on `resync`, otherwise changed by `progressUpdate`.
    public struct Progress: HostMessage {
        public static let type = "progress"
        /// Every team's row.
        public var teams: [TeamProgress]
        /// The version of these rows, which the `progressUpdate`s that follow continue (PROTOCOL.md §6.0).
        public var seq: Int?
        /// In a hall's cut copy only (PROTOCOL.md §6.0.1): how many teams the whole progress has.
        public var total: Int?

        /// Creates the message.
        public init(teams: [TeamProgress], seq: Int? = nil, total: Int? = nil) {
            self.teams = teams
            self.seq = seq
            self.total = total
        }

        public func line(for reader: Perspective) -> String? {
            "Progress: " + teams.map(\.summary).joined(separator: " · ")
                + Wording.moreTeams(shown: teams.count, total: total)
        }
    }

    /// The rows that changed since the last `progress`/`progressUpdate` (PROTOCOL.md §6.0, §6.8).
    public typealias ProgressUpdate = KeptListDelta<Progress>

    /// Who solved which station and when (operators only).
    public struct StationSolved: HostMessage {
        public static let type = "stationSolved"
        /// The team.
        public var team: String
        /// The station's place on its route.
        public var station: Int
        /// How many the hunt has.
        public var of: Int
        /// The station's name.
        public var name: String
        /// Hunt time of the solve, ms.
        public var elapsedMs: Int64
        /// The team's penalties then, ms.
        public var penaltiesMs: Int64

        /// Creates the message.
        public init(team: String, station: Int, of: Int, name: String, elapsedMs: Int64, penaltiesMs: Int64) {
            self.team = team
            self.station = station
            self.of = of
            self.name = name
            self.elapsedMs = elapsedMs
            self.penaltiesMs = penaltiesMs
        }

        public func line(for reader: Perspective) -> String? {
            "\(Wording.clock(elapsedMs))  \(team) solved \(name) (\(station)/\(of))"
        }
    }

    /// One team's line in a hunt ranking.
    public struct Ranked: Codable, Sendable, Equatable {
        /// The team.
        public var team: String
        /// Its rank (equal stations and time share one).
        public var rank: Int
        /// Stations solved.
        public var stations: Int
        /// Hunt time of its last solve plus penalties, ms.
        public var totalMs: Int64
        /// Its penalties, ms.
        public var penaltiesMs: Int64
        /// Whether it found every station.
        public var finished: Bool

        /// Creates a line.
        public init(team: String, rank: Int, stations: Int, totalMs: Int64, penaltiesMs: Int64, finished: Bool) {
            self.team = team
            self.rank = rank
            self.stations = stations
            self.totalMs = totalMs
            self.penaltiesMs = penaltiesMs
            self.finished = finished
        }

        /// `#1 Red 5 stations 12:34`.
        public var summary: String {
            "#\(rank) \(team) \(Wording.count(stations, "station")) \(Wording.clock(totalMs))"
        }
    }

    /// One run in a hunt's hall of fame.
    public struct Fame: Codable, Sendable, Equatable {
        /// Its place, 1-based.
        public var place: Int
        /// The team.
        public var team: String
        /// Its total time, penalties included, ms.
        public var totalMs: Int64
        /// The day it was run.
        public var date: String
        /// The penalties in its total, ms.
        public var penaltiesMs: Int64?

        /// Creates an entry.
        public init(place: Int, team: String, totalMs: Int64, date: String, penaltiesMs: Int64? = nil) {
            self.place = place
            self.team = team
            self.totalMs = totalMs
            self.date = date
            self.penaltiesMs = penaltiesMs
        }
    }

    /// The hunt is over: the ranking and the hunt's hall of fame, this game's finishers included.
    public struct Scoreboard: HostMessage {
        public static let type = "scoreboard"
        /// Always true.
        public var final = true
        /// The ranking, best first.
        public var ranking: [Ranked]
        /// The hunt's best finished runs ever, fastest first.
        public var hallOfFame: [Fame]
        /// True when the hunt clock ran out; absent when every team finished or the organiser ended it.
        public var timeUp: Bool?
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the message.
        public init(ranking: [Ranked], hallOfFame: [Fame], timeUp: Bool? = nil) {
            self.ranking = ranking
            self.hallOfFame = hallOfFame
            self.timeUp = timeUp == true ? true : nil
        }

        public func line(for reader: Perspective) -> String? {
            let fame = hallOfFame.prefix(3).map { "#\($0.place) \($0.team) \(Wording.clock($0.totalMs))" }
            return "=== \(timeUp == true ? "Time's up! " : "")Hunt over: "
                + ranking.map(\.summary).joined(separator: " · ")
                + Wording.moreTeams(shown: ranking.count, total: total) + " ==="
                + (fame.isEmpty ? "" : "\nHall of fame: " + fame.joined(separator: " · "))
        }
    }

    /// The ranking as it stands, on request.
    public struct Scores: HostMessage {
        public static let type = "scores"
        /// Whether the hunt is over.
        public var final: Bool
        /// The ranking, best first.
        public var ranking: [Ranked]
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the message.
        public init(final: Bool, ranking: [Ranked]) {
            self.final = final
            self.ranking = ranking
        }

        public func line(for reader: Perspective) -> String? {
            "Standings: " + ranking.map(\.summary).joined(separator: " · ")
                + Wording.moreTeams(shown: ranking.count, total: total)
        }
    }

    /// The hunt clock runs again.
    public struct Resumed: HostMessage {
        public static let type = "resumed"
        /// The hunt clock's time left.
        public var remainingMs: Int64
        /// The hunt clock's end, host ms.
        public var deadline: Int64

        /// Creates the message.
        public init(remainingMs: Int64, deadline: Int64) {
            self.remainingMs = remainingMs
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            "The hunt continues: \(Wording.minutes(remainingMs)) left."
        }
    }

    /// Everything the host sends during a hunt.
    public enum Message: DecodedFamily {
        case intro(Intro)
        case clue(Clue)
        case puzzle(OutsiderWire.Puzzle)
        case question(Question)
        case wrong(Wrong)
        case hint(Hint)
        case solved(Solved)
        case progress(Progress)
        case progressUpdate(ProgressUpdate)
        case stationSolved(StationSolved)
        case scoreboard(Scoreboard)
        case scores(Scores)
        case resumed(Resumed)

        /// The family's table: one entry per message type.
        public static let decoder = FamilyDecoder<Message>([
            member(Intro.self, Message.intro), member(Clue.self, Message.clue),
            member(OutsiderWire.Puzzle.self, Message.puzzle), member(Question.self, Message.question),
            member(Wrong.self, Message.wrong), member(Hint.self, Message.hint), member(Solved.self, Message.solved),
            member(Progress.self, Message.progress), member(ProgressUpdate.self, Message.progressUpdate),
            member(StationSolved.self, Message.stationSolved),
            member(Scoreboard.self, Message.scoreboard), member(Scores.self, Message.scores),
            member(Resumed.self, Message.resumed),
        ])

        public var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .clue(let message): message
            case .puzzle(let message): message
            case .question(let message): message
            case .wrong(let message): message
            case .hint(let message): message
            case .solved(let message): message
            case .progress(let message): message
            case .progressUpdate(let message): message
            case .stationSolved(let message): message
            case .scoreboard(let message): message
            case .scores(let message): message
            case .resumed(let message): message
            }
        }
    }

    /// What a team does in a hunt.
    public enum Action: GameAction {
        /// Types the code posted at a station.
        case checkIn(String)
        /// Picks a word of the station's puzzle.
        case pick(OutsiderWire.Choice)
        /// Answers the station's question (or names a puzzle word).
        case answer(String)
        /// Asks for the station's next hint, for its cost.
        case hint

        public static let types = ["checkin", "pick", "answer", "hint"]

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            switch request.type {
            case "checkin": return .checkIn(try fields.requiredString("code", limit: 32))
            case "pick": return .pick(try OutsiderWire.Choice.decode(fields))
            case "answer": return .answer(try fields.requiredString("text"))
            case "hint": return .hint
            default: throw fields.error(.unknownType, "The station hunt has no \"\(request.type)\".")
            }
        }

        public var request: PlayRequest {
            switch self {
            case .checkIn(let code): PlayRequest(type: "checkin", fields: ["code": .string(code)])
            case .pick(let choice): PlayRequest(type: "pick", fields: choice.fields)
            case .answer(let text): PlayRequest(type: "answer", fields: ["text": .string(text)])
            case .hint: PlayRequest(type: "hint")
            }
        }

        public var pressedAt: Int64? { nil }

        public static func parse(text line: String) -> TextAction<Action>? {
            let (verb, rest) = splitCommand(line)
            if rest.isEmpty, let number = Int(verb), (1...4).contains(number) { return .action(.pick(.number(number))) }
            switch verb {
            case "checkin", "check-in", "check", "code":
                let code = rest.hasPrefix("in ") ? String(rest.dropFirst(3)) : rest
                guard !code.isEmpty else { return .usage("checkin CODE   (the code posted at the station)") }
                return .action(.checkIn(code))
            case "hint":
                return rest.isEmpty ? .action(.hint) : nil
            case "a", "answer":
                guard !rest.isEmpty else { return .usage("answer YOUR ANSWER   (or just type it at a question)") }
                return .action(.answer(rest))
            case "pick", "p":
                guard !rest.isEmpty else { return .usage("pick 1-4   or   pick WORD") }
                return .action(.pick(OutsiderWire.Choice.parse(rest)))
            default:
                return nil
            }
        }

        public static let textHelp = [
            "  checkin CODE     at a station: type the code posted there",
            "  1 2 3 4          a station's puzzle: pick the odd one out (or type the word)",
            "  a TEXT           a station's question: your answer (or just type it)",
            "  hint             the station's next hint (adds time)",
        ]
    }
}

extension Wording {
    /// What a team at a hunt station may type besides its answer: `hint` (with what hints cost), and `/` commands.
    public static func huntCommands(_ hintCosts: [Int]) -> String {
        guard let first = hintCosts.first else { return "Commands now start with / (/help, /scores)." }
        let later = hintCosts.dropFirst().map { "+\($0) s" }
        let costs = ["+\(first) s"] + (later.isEmpty ? [] : ["then " + later.joined(separator: ", ")])
        return "`hint` shows a hint (\(costs.joined(separator: ", "))); other commands now start with /."
    }

    /// `12:34` or `1:02:03` for a time in milliseconds (rounded down to the second).
    public static func clock(_ milliseconds: Int64) -> String { DurationText.clock(milliseconds) }

    /// `45 minutes`, `1 minute`, or `30 s` under a minute, rounded up.
    public static func minutes(_ milliseconds: Int64) -> String {
        milliseconds < 60_000 ? seconds(milliseconds) : count(Int((milliseconds + 59_999) / 60_000), "minute")
    }
}

extension HuntWire.Progress: KeptList {
    /// The rows that changed: teams that solved, were penalised, took a hint or joined (PROTOCOL.md §6.8).
    public static let deltaType = "progressUpdate"
    /// The changed rows, as `teams`.
    public static let deltaItemsKey = "teams"

    /// The rows.
    public var items: [HuntWire.TeamProgress] { teams }

    /// This progress with `items` as its rows.
    public func holding(_ items: [HuntWire.TeamProgress]) -> HuntWire.Progress {
        HuntWire.Progress(teams: items, seq: seq, total: total)
    }

    /// `Progress: Red 2/5 (+0:30)`. No team leaves a hunt.
    public static func line(for items: [HuntWire.TeamProgress], count: Int, reader: Perspective) -> String? {
        "Progress: " + items.map(\.summary).joined(separator: " · ")
    }
}
