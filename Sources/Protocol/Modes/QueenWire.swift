/// The Queen's game on the wire (PROTOCOL.md §6.3): secret numbers, the Queen's order, the reveal.
public enum QueenWire: GameWire {
    public static let name = "queen"
    public static let title = "The Queen's game"
    public static let startGrammar = StartGrammar(
        game: name,
        options: [
            .number(
                "maxPlayers", 3...30, default: 9, help: "most players in one game", houseRule: "--queen-max-players"),
            .number(
                "countdownSeconds", 0...600, default: 5, help: "countdown before the reveal",
                houseRule: "--queen-countdown-seconds"),
            .number(
                "chooseSeconds", 1...3600, default: 60, help: "time the Queen has to pick a command",
                houseRule: "--queen-choose-seconds"),
            .number(
                "autoNextSeconds", 0...3600, default: 0, note: "off",
                help: "seconds after the reveal before the next deal; 0 waits for next"),
            .list("kinds", note: "all", help: "which library commands this game may use, by kind"),
            .list("difficulties", note: "all", help: "which library commands this game may use, by difficulty"),
        ],
        example: "start queen countdown-seconds=5 kinds=citizen-to-all")

    /// A Queen's game started.
    public struct Intro: GameIntro {
        public static let type = "game"
        public static let gameName = QueenWire.name
        /// Always `queen`.
        public var game = QueenWire.name
        /// The players dealt in at the start.
        public var players: [String]

        /// Creates the intro.
        public init(players: [String]) { self.players = players }

        public func line(for reader: Perspective) -> String? {
            "=== The Queen's game! Players: \(players.joined(separator: ", ")) ==="
        }
    }

    /// A round was dealt.
    public struct Round: HostMessage {
        public static let type = "round"
        /// The round's number.
        public var number: Int
        /// The Queen.
        public var queen: String
        /// Everyone dealt in, the Queen included, in roster order.
        public var players: [String]
        /// The SHA-256 commitment to the deal (PROTOCOL.md §11).
        public var commitment: String
        /// The Queen's time left to choose; null when not choosing.
        @Nullable public var chooseMs: Int64?
        /// When the Queen's time to choose ends (host ms); null when not choosing.
        @Nullable public var deadline: Int64?

        /// Creates the message.
        public init(
            number: Int, queen: String, players: [String], commitment: String, chooseMs: Int64?, deadline: Int64?
        ) {
            self.number = number
            self.queen = queen
            self.players = players
            self.commitment = commitment
            self.chooseMs = chooseMs
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            let who =
                reader.name == queen
                ? "YOU are the Queen! Type your order, naming numbers as No. 1, No. 2 … (each line you type now"
                    + " is your order; commands start with /: /commands [TEXT] browses the library, /pick ID uses one)."
                : "The Queen is \(queen)."
            return "--- Round \(number) --- \(who) Commitment: \(commitment)"
        }
    }

    /// A citizen's secret number this round (to that player only).
    public struct Secret: HostMessage {
        public static let type = "secret"
        /// The number.
        public var number: Int
        /// The round.
        public var round: Int

        /// Creates the message.
        public init(number: Int, round: Int) {
            self.number = number
            self.round = round
        }

        public func line(for reader: Perspective) -> String? {
            ">>> Your secret number: \(number) <<< (tell nobody; type number to see it again)"
        }
    }

    /// The Queen's command, placeholders filled.
    public struct Order: HostMessage {
        public static let type = "order"
        /// The Queen.
        @Nullable public var queen: String?
        /// The command as everyone reads it.
        public var text: String
        /// The numbers named: those drawn for `{1}`, `{2}` … in placeholder order (`targets[0]` filled `{1}`), then
        /// those the Queen named as written ("No. 2"), in order of mention.
        public var targets: [Int]
        /// Until the reveal, ms.
        public var revealInMs: Int64
        /// The reveal, host ms.
        public var deadline: Int64

        /// Creates the message.
        public init(queen: String?, text: String, targets: [Int], revealInMs: Int64, deadline: Int64) {
            self.queen = queen
            self.text = text
            self.targets = targets
            self.revealInMs = revealInMs
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            "The Queen commands: \(text) (reveal in \(Wording.seconds(revealInMs)))"
        }
    }

    /// Who held which number, in number order: a JSON object whose members keep that order.
    public struct Numbers: Codable, Sendable, Equatable {
        /// Name and number, in the order sent.
        public var entries: [(name: String, number: Int)]

        /// Creates the list, ordered by number.
        public init(_ numbers: [String: Int]) {
            entries = numbers.sorted { $0.value < $1.value }.map { (name: $0.key, number: $0.value) }
        }

        /// Every name with its number.
        public var dictionary: [String: Int] {
            Dictionary(entries.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            entries = try container.allKeys.map {
                (name: $0.stringValue, number: try container.decode(Int.self, forKey: $0))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for entry in entries { try container.encode(entry.number, forKey: Key(stringValue: entry.name)) }
        }

        public static func == (lhs: Numbers, rhs: Numbers) -> Bool {
            lhs.entries.map(\.name) == rhs.entries.map(\.name) && lhs.entries.map(\.number) == rhs.entries.map(\.number)
        }
    }

    /// The reveal: who held which number, and the salt that opens the commitment.
    public struct Revealed: HostMessage {
        public static let type = "revealed"
        /// The round.
        public var round: Int
        /// Name → number, ordered by number.
        public var numbers: Numbers
        /// The names that must act, in placeholder order.
        public var targets: [String]
        /// The deal's salt (32 hex digits).
        public var salt: String
        /// The commitment, recomputed from these values.
        public var commitment: String
        /// Until the automatic next deal; null when waiting for `next`.
        @Nullable public var nextInMs: Int64?
        /// When the automatic next deal comes (host ms); null when waiting for `next`.
        @Nullable public var deadline: Int64?
        /// The Queen's order again with the names in it ("No. 2 (Ana) tells everyone a joke."); absent without one.
        public var order: String?

        /// Creates the message.
        public init(
            round: Int, numbers: [String: Int], targets: [String], salt: String, commitment: String, nextInMs: Int64?,
            deadline: Int64?, order: String? = nil
        ) {
            self.round = round
            self.numbers = Numbers(numbers)
            self.targets = targets
            self.salt = salt
            self.commitment = commitment
            self.nextInMs = nextInMs
            self.deadline = deadline
            self.order = order
        }

        /// `text` with each "No. N" followed by whoever held N: "No. 2 (Ana) tells everyone a joke.".
        public static func named(_ text: String, numbers: [String: Int]) -> String {
            let names = Dictionary(numbers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            var result = ""
            var rest = Substring(text)
            while let mark = rest.range(of: "No. ") {
                result += rest[..<mark.upperBound]
                rest = rest[mark.upperBound...]
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                result += digits
                rest = rest.dropFirst(digits.count)
                if let number = Int(digits), let name = names[number] { result += " (\(name))" }
            }
            return result + rest
        }

        public func line(for reader: Perspective) -> String? {
            let shown = numbers.entries.map { "No. \($0.number) = \($0.name)" }.joined(separator: ", ")
            return "Reveal: \(shown). Must act: \(targets.isEmpty ? "nobody" : targets.joined(separator: ", "))."
                + (order.map { " The order: \($0)" } ?? "")
        }
    }

    /// The game is over.
    public struct Ended: HostMessage {
        public static let type = "ended"
        /// Always `queen`.
        public var game = QueenWire.name
        /// Why, for people ("3 rounds played.").
        public var reason: String

        /// Creates the message.
        public init(reason: String) { self.reason = reason }

        public func line(for reader: Perspective) -> String? { "=== Game over. \(reason) ===" }
    }

    /// One player's reigns as Queen.
    public struct Reign: Codable, Sendable, Equatable {
        /// The player.
        public var player: String
        /// Rounds reigned as Queen.
        public var score: Int

        /// Creates the entry.
        public init(player: String, score: Int) {
            self.player = player
            self.score = score
        }
    }

    /// The standings on request: rounds each player reigned.
    public struct Scores: HostMessage {
        public static let type = "scores"
        /// Whether the game is over.
        public var final: Bool
        /// Always `queen`.
        public var game = QueenWire.name
        /// Rounds played.
        public var rounds: Int
        /// Every player with their reigns.
        public var ranking: [Reign]

        /// Creates the message.
        public init(final: Bool, rounds: Int, ranking: [Reign]) {
            self.final = final
            self.rounds = rounds
            self.ranking = ranking
        }

        public func line(for reader: Perspective) -> String? {
            let shown = ranking.map { "\($0.player) \($0.score)" }.joined(separator: " · ")
            return "Rounds as Queen: " + (shown.isEmpty ? "none yet" : shown)
        }
    }

    /// The clocks run again.
    public struct Resumed: HostMessage {
        public static let type = "resumed"
        /// Left on whichever clock runs in this phase; null if none.
        @Nullable public var remainingMs: Int64?

        /// Creates the message.
        public init(remainingMs: Int64?) { self.remainingMs = remainingMs }

        public func line(for reader: Perspective) -> String? { "The game continues." }
    }

    /// Everything the host sends during the Queen's game.
    public enum Message: DecodedFamily {
        case intro(Intro)
        case round(Round)
        case secret(Secret)
        case order(Order)
        case revealed(Revealed)
        case ended(Ended)
        case scores(Scores)
        case resumed(Resumed)

        /// The family's table: one entry per message type.
        public static let decoder = FamilyDecoder<Message>([
            member(Intro.self, Message.intro), member(Round.self, Message.round), member(Secret.self, Message.secret),
            member(Order.self, Message.order), member(Revealed.self, Message.revealed),
            member(Ended.self, Message.ended), member(Scores.self, Message.scores),
            member(Resumed.self, Message.resumed),
        ])

        public var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .round(let message): message
            case .secret(let message): message
            case .order(let message): message
            case .revealed(let message): message
            case .ended(let message): message
            case .scores(let message): message
            case .resumed(let message): message
            }
        }
    }

    /// The Queen's choice of command: a library template or her own words.
    public enum CommandChoice: Equatable, Sendable {
        /// A library command by id.
        case template(String)
        /// Her own text with `{1}`, `{2}`, … and `{queen}` placeholders, or numbers named as written ("No. 2").
        case text(String)
    }

    /// What a player does in the Queen's game: the Queen gives her order; a citizen asks for their number again.
    public enum Action: GameAction {
        /// The Queen's command; `save` also adds her own text to the library.
        case command(CommandChoice, save: Bool)
        /// Send me my secret number again (answered with `secret`, to this player only).
        case showNumber

        public static let types = ["command", "number"]

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            if request.type == "number" { return .showNumber }
            guard request.type == "command" else {
                throw fields.error(.unknownType, "The Queen's game has no \"\(request.type)\".")
            }
            let save = try fields.bool("save") ?? false
            if let template = try fields.string("template", required: false, limit: 64) {
                return .command(.template(template), save: save)
            }
            guard let text = try fields.string("text", required: false) else {
                throw fields.error(
                    .badField, "A command needs \"template\" (a library id) or \"text\" (your own words).")
            }
            return .command(.text(text), save: save)
        }

        public var request: PlayRequest {
            switch self {
            case .command(.template(let id), let save):
                return PlayRequest(type: "command", fields: ["template": .string(id), "save": .bool(save)])
            case .command(.text(let text), let save):
                return PlayRequest(type: "command", fields: ["text": .string(text), "save": .bool(save)])
            case .showNumber:
                return PlayRequest(type: "number")
            }
        }

        public var pressedAt: Int64? { nil }

        public static func parse(text line: String) -> TextAction<Action>? {
            let (verb, rest) = splitCommand(line)
            switch verb {
            case "pick", "c":
                let words = rest.split(separator: " ")
                guard words.count == 1 else { return .usage("pick COMMAND-ID   (see: commands)") }
                return .action(.command(.template(String(words[0])), save: false))
            case "order", "say":
                guard !rest.isEmpty else { return .usage("order TEXT   e.g. order No. 1 must sing to No. 2") }
                return .action(.command(.text(rest), save: false))
            case "number", "secret":
                return rest.isEmpty ? .action(.showNumber) : nil
            default: return nil
            }
        }

        /// What a line the choosing Queen types means: `order TEXT` or `pick ID` as they say, any other line her
        /// own order as written (so an order may start with "Say …").
        public static func order(typed line: String) -> Action {
            let verb = splitCommand(line).verb
            if verb == "order" || verb == "pick", case .action(let action)? = parse(text: line) { return action }
            return .command(.text(line.trimmingCharacters(in: .whitespacesAndControls)), save: false)
        }

        public static let textHelp = [
            "  commands [TEXT]  list or search the Queen's commands",
            "  pick ID          as Queen: use a library command",
            "  order TEXT       as Queen: your own command, e.g. order No. 1 must sing to No. 2",
            "  number           your secret number again (only you see it)",
        ]
    }
}
