/// Odd One Out on the wire (PROTOCOL.md §6.5): four words, three share something, the fastest right pick scores most.
public enum OutsiderWire: GameWire {
    public static let name = "outsider"
    public static let title = "Odd One Out"
    public static let startGrammar = StartGrammar(
        game: name,
        options: [
            .number("rounds", 1...200, default: 10, help: "number of rounds (one puzzle each)", bareWord: "ROUNDS"),
            .choice(
                "difficulty", ["easy", "medium", "hard", "mixed"], default: "mixed",
                help: "which puzzles to draw (mixed spreads evenly)", isBare: true),
            .list(
                "packs",
                note: "every built-in puzzle pack (`animals`, `food`, `geography`, `science`, `sport`, `words`)",
                help: "where puzzles come from", bareWord: "PACK,PACK…"),
            .number("roundSeconds", 3...600, default: 20, help: "round clock"),
            .number(
                "revealSeconds", 0...3600, default: 5, help: "pause after a reveal; 0 waits for next",
                houseRule: "--reveal-seconds"),
            .list("teams", note: "the teams with a player connected", help: "who plays"),
        ])

    /// A game of Odd One Out started.
    public struct Intro: GameIntro {
        public static let type = "game"
        public static let gameName = OutsiderWire.name
        /// Always `outsider`.
        public var game = OutsiderWire.name
        /// The teams playing.
        public var teams: [String]
        /// How many rounds.
        public var rounds: Int
        /// Seconds per round.
        public var roundSeconds: Int
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the intro.
        public init(teams: [String], rounds: Int, roundSeconds: Int) {
            self.teams = teams
            self.rounds = rounds
            self.roundSeconds = roundSeconds
        }

        public func line(for reader: Perspective) -> String? {
            "=== Odd One Out! \(Wording.count(rounds, "round")) of \(roundSeconds) s. "
                + "Teams: \(teams.joined(separator: ", "))\(Wording.moreTeams(shown: teams.count, total: total)). "
                + "Pick the word that does not belong: 1-4 or the word. ==="
        }
    }

    /// Four words, one of which does not belong: a round of Odd One Out, or a hunt station's puzzle.
    public struct Puzzle: HostMessage {
        public static let type = "puzzle"
        /// The round's (or the team's station's) number, 1-based.
        public var number: Int
        /// How many rounds (or stations) there are.
        public var of: Int
        /// The four words, in the order picks number them (1-4).
        public var words: [String]
        /// A category hint (the puzzle pack's name); absent in a hunt.
        public var category: String?
        /// `easy`, `medium` or `hard`; absent in a hunt.
        public var difficulty: String?
        /// Points for a right pick made at once; absent in a hunt.
        public var points: Int?
        /// The round clock's time left when sent; absent in a hunt.
        public var remainingMs: Int64?
        /// The round clock's end, host ms; absent in a hunt.
        public var deadline: Int64?
        /// How many hints the station has; only in a hunt.
        public var hints: Int?
        /// What each hint costs, in seconds, in order; only in a hunt.
        public var hintCosts: [Int]?

        /// Creates a puzzle message.
        public init(
            number: Int, of: Int, words: [String], category: String? = nil, difficulty: String? = nil,
            points: Int? = nil, remainingMs: Int64? = nil, deadline: Int64? = nil, hints: Int? = nil,
            hintCosts: [Int]? = nil
        ) {
            self.number = number
            self.of = of
            self.words = words
            self.category = category
            self.difficulty = difficulty
            self.points = points
            self.remainingMs = remainingMs
            self.deadline = deadline
            self.hints = hints
            self.hintCosts = hintCosts
        }

        /// `1 dog · 2 green · 3 red · 4 blue`.
        public var numberedWords: String {
            words.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: " · ")
        }

        public func line(for reader: Perspective) -> String? {
            if let points {
                let category = self.category.map { "\($0), " } ?? ""
                // A catch-up after the round closed has no time left to show, and nothing to type.
                guard let remainingMs else {
                    return "Round \(number)/\(of) (\(category)\(points) points), closed: \(numberedWords)"
                }
                let how = reader.team == nil ? "" : "  Type 1-4 or the word (commands now start with /)."
                return "Round \(number)/\(of) (\(category)\(points) points): which is the odd one out?  "
                    + "\(numberedWords)  · \(Wording.seconds(remainingMs))\(how)"
            }
            return "Station \(number)/\(of): which is the odd one out?  \(numberedWords)  "
                + "Type 1-4 or the word; a wrong pick adds time. " + Wording.huntCommands(hintCosts ?? [])
        }
    }

    /// Your team's pick was taken (to that team only).
    public struct Picked: HostMessage {
        public static let type = "picked"
        /// The word's number, 1-4.
        public var choice: Int
        /// The word.
        public var word: String

        /// Creates the message.
        public init(choice: Int, word: String) {
            self.choice = choice
            self.word = word
        }

        public func line(for reader: Perspective) -> String? { "Your team picked \(choice) (\(word)). It is final." }
    }

    /// One team's lock-in: its place in press order, never what it picked.
    public struct LockIn: ListItem {
        /// The team.
        public var team: String
        /// Its place among this round's picks, 1-based.
        public var position: Int
        /// In a `lockedInUpdate` only, where the entry goes when not at the end (PROTOCOL.md §6.0).
        public var at: Int?

        /// Creates an entry.
        public init(team: String, position: Int, at: Int? = nil) {
            self.team = team
            self.position = position
            self.at = at
        }

        /// A team locks in once per round.
        public var key: String { team }

        /// `Blue (2nd)`, `Your team (1st)`.
        public func summary(for reader: Perspective) -> String {
            (reader.isMine(team: team) ? "Your team" : team) + " (\(Wording.ordinal(position)))"
        }

        /// `Blue locked in (2nd).`, `Your team locked in (1st).`
        public func line(for reader: Perspective) -> String {
            (reader.isMine(team: team) ? "Your team" : team) + " locked in (\(Wording.ordinal(position)))."
        }
    }

    /// Who has locked in this round, in press order (never what they picked): a growing state (PROTOCOL.md §6.0),
    /// whole at a round's first lock-in, on joining and on `resync`, otherwise changed by `lockedInUpdate`.
    public struct LockedIn: HostMessage {
        public static let type = "lockedIn"
        /// The teams that locked in, in press order.
        public var teams: [LockIn]
        /// The version of this list, which the `lockedInUpdate`s that follow continue (PROTOCOL.md §6.0).
        public var seq: Int?

        /// Creates the message.
        public init(teams: [LockIn], seq: Int? = nil) {
            self.teams = teams
            self.seq = seq
        }

        /// `Red locked in (1st).` for the first; `Locked in: Your team (1st) · Blue (2nd).` for more.
        public func line(for reader: Perspective) -> String? {
            if teams.count == 1 { return teams[0].line(for: reader) }
            guard !teams.isEmpty else { return nil }
            return "Locked in: " + teams.map { $0.summary(for: reader) }.joined(separator: " · ") + "."
        }
    }

    /// Teams that locked in since the last `lockedIn`/`lockedInUpdate` (PROTOCOL.md §6.0, §6.7).
    public typealias LockedInUpdate = KeptListDelta<LockedIn>

    /// How one team's round went.
    public struct Result: Codable, Sendable, Equatable {
        /// The team.
        public var team: String
        /// The word it picked, 1-4; null when it did not pick.
        @Nullable public var choice: Int?
        /// That word; null when it did not pick.
        @Nullable public var word: String?
        /// Whether it picked the outsider.
        public var correct: Bool
        /// Points won.
        public var points: Int
        /// From the round's opening to its press, ms; null when it did not pick.
        @Nullable public var ms: Int64?

        /// Creates a result.
        public init(team: String, choice: Int?, word: String?, correct: Bool, points: Int, ms: Int64?) {
            self.team = team
            self.choice = choice
            self.word = word
            self.correct = correct
            self.points = points
            self.ms = ms
        }

        /// `Red ✔ dog +90 (4.0 s)`.
        public var summary: String {
            guard let word else { return "\(team) —" }
            let seconds = ms.map { " (\($0 / 1000).\($0 % 1000 / 100) s)" } ?? ""
            return "\(team) \(correct ? "✔" : "✘") \(word)\(correct ? " +\(points)" : "")\(seconds)"
        }
    }

    /// The round is over: the outsider, what linked the others, how each team did.
    public struct Reveal: HostMessage {
        public static let type = "reveal"
        /// The round's number.
        public var number: Int
        /// The word that did not belong.
        public var outsider: String
        /// What the other three share.
        public var link: String
        /// Every team: those who picked in press order, then the others.
        public var results: [Result]
        /// The standings after this round.
        public var scores: [ShakyWire.Standing]
        /// Until the next round or the final scoreboard; null when the operator decides.
        @Nullable public var nextInMs: Int64?
        /// When that comes, host ms; null when the operator decides.
        @Nullable public var deadline: Int64?
        /// Whether this was the last round.
        public var last: Bool
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the message.
        public init(
            number: Int, outsider: String, link: String, results: [Result], scores: [ShakyWire.Standing],
            nextInMs: Int64?, deadline: Int64?, last: Bool
        ) {
            self.number = number
            self.outsider = outsider
            self.link = link
            self.results = results
            self.scores = scores
            self.nextInMs = nextInMs
            self.deadline = deadline
            self.last = last
        }

        public func line(for reader: Perspective) -> String? {
            let waiting =
                last ? " The quizmaster will show the final scores." : " Waiting for the quizmaster's next round…"
            let next =
                nextInMs.map { " " + (last ? "Final scores in" : "Next round in") + " \(Wording.seconds($0))." }
                ?? waiting
            return "The odd one out was: \(outsider) (the others: \(link)). "
                + results.map(\.summary).joined(separator: " · ") + ". Scores: "
                + ShakyWire.Standing.summary(scores) + Wording.moreTeams(shown: scores.count, total: total) + "." + next
        }
    }

    /// The clocks run again.
    public struct Resumed: HostMessage {
        public static let type = "resumed"
        /// The round clock's time left, if a round is open.
        @Nullable public var remainingMs: Int64?
        /// Until the next round, during a reveal.
        @Nullable public var nextInMs: Int64?

        /// Creates the message.
        public init(remainingMs: Int64?, nextInMs: Int64?) {
            self.remainingMs = remainingMs
            self.nextInMs = nextInMs
        }

        public func line(for reader: Perspective) -> String? { "The game continues." }
    }

    /// Everything the host sends during Odd One Out.
    public enum Message: DecodedFamily {
        case intro(Intro)
        case puzzle(Puzzle)
        case picked(Picked)
        case lockedIn(LockedIn)
        case lockedInUpdate(LockedInUpdate)
        case reveal(Reveal)
        case scoreboard(ShakyWire.Scoreboard)
        case scores(ShakyWire.Scores)
        case resumed(Resumed)

        /// The family's table: one entry per message type.
        public static let decoder = FamilyDecoder<Message>([
            member(Intro.self, Message.intro), member(Puzzle.self, Message.puzzle), member(Picked.self, Message.picked),
            member(LockedIn.self, Message.lockedIn), member(LockedInUpdate.self, Message.lockedInUpdate),
            member(Reveal.self, Message.reveal),
            member(ShakyWire.Scoreboard.self, Message.scoreboard), member(ShakyWire.Scores.self, Message.scores),
            member(Resumed.self, Message.resumed),
        ])

        public var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .puzzle(let message): message
            case .picked(let message): message
            case .lockedIn(let message): message
            case .lockedInUpdate(let message): message
            case .reveal(let message): message
            case .scoreboard(let message): message
            case .scores(let message): message
            case .resumed(let message): message
            }
        }
    }

    /// Which word a pick names: its number as shown (1-4) or the word itself.
    public enum Choice: Sendable, Equatable {
        /// The word's number, 1-4.
        case number(Int)
        /// The word as typed (compared ignoring case and accents).
        case word(String)

        /// Reads `choice` (1-4) or `word` from a `pick`'s fields.
        static func decode(_ fields: MessageFields) throws(ProtocolError) -> Choice {
            if let number = try fields.integer("choice") {
                guard (1...4).contains(number) else {
                    throw fields.error(.badField, "\"choice\" must be 1, 2, 3 or 4 (the word's number), not \(number).")
                }
                return .number(Int(number))
            }
            guard let word = try fields.string("word", required: false, limit: 64) else {
                throw fields.error(.badField, "A pick needs \"choice\" (1-4) or \"word\".")
            }
            return .word(word)
        }

        /// The fields of a `pick` naming this choice.
        var fields: JSONObject {
            switch self {
            case .number(let number): ["choice": .int(Int64(number))]
            case .word(let word): ["word": .string(word)]
            }
        }

        /// Reads a typed choice: `2`, or a word.
        public static func parse(_ text: String) -> Choice {
            if let number = Int(text), (1...4).contains(number) { return .number(number) }
            return .word(text)
        }
    }

    /// What a team does in Odd One Out.
    public enum Action: GameAction {
        /// Picks a word; `pressedAt` is the client's clock at the key press, when it knows it (like `buzz.t`).
        case pick(Choice, pressedAt: Int64?)

        public static let types = ["pick"]

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            guard request.type == "pick" else {
                throw fields.error(.unknownType, "Odd One Out has no \"\(request.type)\".")
            }
            return .pick(try Choice.decode(fields), pressedAt: try fields.integer("t"))
        }

        public var request: PlayRequest {
            guard case .pick(let choice, let pressedAt) = self else { return PlayRequest(type: "pick") }
            var fields = choice.fields
            if let pressedAt { fields["t"] = .int(pressedAt) }
            return PlayRequest(type: "pick", fields: fields)
        }

        public var pressedAt: Int64? {
            guard case .pick(_, let pressedAt) = self else { return nil }
            return pressedAt
        }

        public static func parse(text line: String) -> TextAction<Action>? {
            let (verb, rest) = splitCommand(line)
            if rest.isEmpty, let number = Int(verb), (1...4).contains(number) {
                return .action(.pick(.number(number), pressedAt: nil))
            }
            guard verb == "pick" || verb == "p" else { return nil }
            guard !rest.isEmpty else { return .usage("pick 1-4   or   pick WORD   (or just type 1-4 or the word)") }
            return .action(.pick(Choice.parse(rest), pressedAt: nil))
        }

        public static let textHelp = [
            "  1 2 3 4          pick the odd one out by its number (or type the word)"
        ]
    }
}

extension Wording {
    /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
    public static func ordinal(_ number: Int) -> String {
        let tens = number % 100
        let suffix =
            (11...13).contains(tens) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}

extension OutsiderWire.LockedIn: KeptList {
    /// Teams that locked in since the last `lockedIn` or `lockedInUpdate` (PROTOCOL.md §6.7).
    public static let deltaType = "lockedInUpdate"
    /// The new lock-ins, as `teams`.
    public static let deltaItemsKey = "teams"

    /// The lock-ins.
    public var items: [OutsiderWire.LockIn] { teams }

    /// This list with `items` as its lock-ins.
    public func holding(_ items: [OutsiderWire.LockIn]) -> OutsiderWire.LockedIn {
        OutsiderWire.LockedIn(teams: items, seq: seq)
    }

    /// `Blue locked in (2nd). Green locked in (3rd).` A lock-in is final: no team leaves the list of its round.
    public static func line(for items: [OutsiderWire.LockIn], count: Int, reader: Perspective) -> String? {
        items.map { $0.line(for: reader) }.joined(separator: " ")
    }
}
