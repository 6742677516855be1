/// A game mode's vocabulary on the wire: its name, what the host tells clients, what players send.
///
/// Both ends build and read the mode's messages through these types (isowords' `SharedModels`), so the host, the
/// client, text mode and the tests cannot disagree about a field.
public protocol GameWire: SendableMetatype {
    /// What the host sends while this game runs (its intro is the `game` message).
    associatedtype Message: MessageFamily
    /// What players send.
    associatedtype Action: GameAction
    /// What the operator may ask of the running game beyond next, pause, continue and end (a quizmaster's verdict).
    associatedtype Command: GameAction = NoCommands
    /// The mode's wire name (`shaky`), the `game` field of `start` and of the intro.
    static var name: String { get }
    /// The mode's name for people ("Shaky Words").
    static var title: String { get }
    /// How the mode reads the words after `start NAME`.
    static var startGrammar: StartGrammar { get }
}

/// The player actions of one game mode (client → host), each decoded and encoded here.
public protocol GameAction: Sendable, Equatable {
    /// The `type`s of the mode's actions.
    static var types: [String] { get }
    /// Decodes a request whose `type` is one of `types`, with clear errors for bad fields.
    static func decode(_ request: PlayRequest) throws(ProtocolError) -> Self
    /// Reads a command typed in text mode (`b`, `pick b01`); nil when the line is none of the mode's commands.
    static func parse(text line: String) -> TextAction<Self>?
    /// The mode's commands as text-mode help lines (`  b or buzz   claim the right to answer`).
    static var textHelp: [String] { get }
    /// The wire request.
    var request: PlayRequest { get }
    /// The client's monotonic clock at the key press, for actions judged by press time (stamped like a buzz).
    var pressedAt: Int64? { get }
}

/// The operator commands of a mode that has none beyond the shared steering.
public enum NoCommands: GameAction {
    public static let types: [String] = []
    public static let textHelp: [String] = []

    public static func decode(_ request: PlayRequest) throws(ProtocolError) -> NoCommands {
        throw ProtocolError(.unknownType, "This game takes no \"\(request.type)\" from the operator.")
    }

    public static func parse(text line: String) -> TextAction<NoCommands>? { nil }

    public var request: PlayRequest { PlayRequest(type: "") }
    public var pressedAt: Int64? { nil }
}

/// What a typed line meant to a game mode.
public enum TextAction<Action: Sendable & Equatable>: Sendable, Equatable {
    /// A complete action.
    case action(Action)
    /// One of the mode's commands, used wrongly: the usage to show.
    case usage(String)
}

/// The `game` message that opens every mode: which game started (each mode adds its own fields).
public protocol GameIntro: HostMessage {
    /// The mode's wire name, which the intro's `game` field must carry.
    static var gameName: String { get }
    /// The `game` field.
    var game: String { get }
}

extension GameIntro {
    /// Decodes the intro only when it names this mode's game.
    public static func decode(_ object: JSONObject) -> Self? {
        guard object["type"]?.stringValue == type,
            let intro = try? JSONCoding.decode(Self.self, from: .object(object))
        else { return nil }
        return intro.game == gameName ? intro : nil
    }

}

/// Which game an intro (`game`) message opens, read without knowing the mode; nil for any other message.
public func introducedGame(in object: JSONObject) -> String? {
    guard object["type"]?.stringValue == "game" else { return nil }
    return object["game"]?.stringValue
}

/// Splits a typed line into its first word (lower-cased) and the rest (trimmed).
public func splitCommand(_ line: String) -> (verb: String, rest: String) {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndControls)
    guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (trimmed.lowercased(), "") }
    return (
        String(trimmed[..<space]).lowercased(),
        String(trimmed[space...]).trimmingCharacters(in: .whitespacesAndControls)
    )
}

/// How a game reads the words after `start NAME` typed on the console, in text mode or on the client's `:` line:
/// `start shaky 10 mixed science,animals` is a count, a difficulty and a pack list. `key=value` words are read
/// the same way for every game.
public struct StartGrammar: Sendable {
    /// The option a bare whole number sets (`questions`, `rounds`), if any.
    public var count: String?
    /// Options chosen by one of their words (`difficulty`: easy, medium, hard, mixed).
    public var choices: [(key: String, values: [String])]
    /// Words that switch an option on (`strict` → `strict: true`).
    public var flags: [String: String]
    /// The option any other word sets, and whether it is a comma list (`packs`) or one word (`hunt`).
    public var rest: (key: String, isList: Bool)?
    /// Options whose `key=value` form is a comma list (`kinds=a,b`).
    public var listKeys: Set<String>
    /// The usage line for help and mistakes: `start shaky [QUESTIONS] [easy|medium|hard|mixed] [PACK,PACK…]`.
    public var usage: String
    /// A typical start, shown under the usage in the console's help: `start queen countdown-seconds=5`.
    public var example: String?
    /// The game's declared options, from which `init(game:options:example:)` derived the rest; the host reads and
    /// checks `start` options by them.
    public var options: [StartOption] = []

    /// Creates a grammar.
    public init(
        count: String? = nil, choices: [(key: String, values: [String])] = [], flags: [String: String] = [:],
        rest: (key: String, isList: Bool)? = nil, listKeys: Set<String> = [], usage: String, example: String? = nil
    ) {
        self.example = example
        self.count = count
        self.choices = choices
        self.flags = flags
        self.rest = rest
        self.listKeys = listKeys.union(rest.map { $0.isList ? [$0.key] : [] } ?? [])
        self.usage = usage
    }

    /// The option one positional word sets, or nil when this game has no place for it.
    public func read(_ word: String) -> (key: String, value: JSONValue)? {
        let lowered = word.lowercased()
        if let count, let number = Int64(word) { return (count, .int(number)) }
        for choice in choices where choice.values.contains(lowered) { return (choice.key, .string(lowered)) }
        if let flag = flags[lowered] { return (flag, .bool(true)) }
        guard let rest else { return nil }
        return rest.isList
            ? (rest.key, .array(word.split(separator: ",").map { .string(String($0)) })) : (rest.key, .string(word))
    }
}

/// The `start` grammars of the games one side knows, by wire name and alias.
public struct StartGrammars: Sendable {
    private var grammars: [String: StartGrammar] = [:]
    private var usages: [String] = []

    /// No games: `start` words other than `key=value` are refused with a general usage.
    public init() {}

    /// Adds a game under its names (wire name first).
    public mutating func add(_ grammar: StartGrammar, names: [String]) {
        for name in names { grammars[name.lowercased()] = grammar }
        usages.append(grammar.usage)
    }

    /// The grammar for a game name or alias.
    public func grammar(for name: String) -> StartGrammar? { grammars[name.lowercased()] }

    /// Every game's usage line.
    public var usage: String { usages.isEmpty ? "start GAME [key=value …]" : usages.joined(separator: "\n") }
}
