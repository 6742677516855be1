/// A game mode's vocabulary on the wire: its name, what the host tells clients, what players send.
///
/// Both ends build and read the mode's messages through these types (isowords' `SharedModels`), so the host, the
/// client, text mode and the tests cannot disagree about a field.
public protocol GameWire {
    /// What the host sends while this game runs (its intro is the `game` message).
    associatedtype Message: MessageFamily
    /// What players send.
    associatedtype Action: GameAction
    /// The mode's wire name (`shaky`), the `game` field of `start` and of the intro.
    static var name: String { get }
    /// The mode's name for people ("Shaky Words").
    static var title: String { get }
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

    /// The `game` field of an intro message, read without knowing the mode.
    public static func gameName(of object: JSONObject) -> String? {
        guard object["type"]?.stringValue == "game" else { return nil }
        return object["game"]?.stringValue
    }
}

/// Splits a typed line into its first word (lower-cased) and the rest (trimmed).
public func splitCommand(_ line: String) -> (verb: String, rest: String) {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndControls)
    guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (trimmed.lowercased(), "") }
    return (
        String(trimmed[..<space]).lowercased(), String(trimmed[space...]).trimmingCharacters(in: .whitespacesAndControls)
    )
}
