import Foundation
import Protocol
import Rules

/// Who a message from a game is for. The host routes each message; secrets are addressed narrowly.
enum Audience: Equatable {
    /// Every joined connection: players, boards and operators.
    case everyone
    /// Every terminal of one team.
    case team(String)
    /// One player's terminals, by player id.
    case player(String)
    /// One player's terminals, by name (names are unique in a room).
    case playerNamed(String)
    /// Boards and operators: everyone who is not playing.
    case spectators
    /// Everyone except one player (used when that player gets a private variant).
    case everyoneExcept(player: String)
}

/// One message a game wants sent, with its audience.
struct Outgoing {
    var audience: Audience
    var message: JSONValue
}

/// What a player did, as the host hands it to the game being played.
enum PlayerAction {
    case buzz(PressEstimate, settleMilliseconds: Int64)
    case answer(String)
    case shake
    case command(CommandChoice, save: Bool)
}

/// What the operator asked of the running game.
enum OperatorAction: String, Codable {
    case next, pause, resume, end
}

/// Who is looking, for catch-up views (a player rejoining mid-question sees their own team's letters).
struct Viewer {
    var playerID: String?
    var name: String?
    var team: String?
    var role: Role
}

/// What a game mode needs from the host when it starts.
struct GameContext {
    var room: Room
    var options: HostOptions
    var packs: PackLibrary
    var commands: CommandLibrary
    var seed: UInt64
}

/// A game mode as the host runs it: the mapping between a pure Rules mode and the wire.
///
/// Adding a mode is a Rules file plus one type conforming to this, registered in `GameCatalog`.
/// Every change goes through `record`, so the journal holds exactly the events to replay.
protocol HostedGame: AnyObject {
    /// The wire name (`shaky`, `queen`).
    var name: String { get }
    /// When the game next wants `tick`.
    var nextDeadline: Instant? { get }
    /// Whether the game is over (the host then closes it and writes the game log).
    var isFinished: Bool { get }
    /// One line for the operator's status view.
    var statusLine: String { get }
    /// The record that, with the journaled events, recreates the game.
    var startRecord: JSONValue { get }
    /// Where the game sends each accepted Rules event, as JSON text, before it is announced (the journal).
    var record: ([UInt8], Instant) -> Void { get set }

    /// Announces the start.
    func start(at now: Instant) -> [Outgoing]
    /// Applies a player's action.
    func perform(_ action: PlayerAction, by player: Player, at now: Instant) throws(RuleError) -> [Outgoing]
    /// Applies an operator's command.
    func operate(_ action: OperatorAction, at now: Instant) throws(RuleError) -> [Outgoing]
    /// Advances clocks.
    func tick(at now: Instant) -> [Outgoing]
    /// A player joined the room mid-game.
    func playerJoined(_ player: Player, at now: Instant) -> [Outgoing]
    /// A player was removed from the room (kicked or expired).
    func playerRemoved(_ player: Player, at now: Instant) -> [Outgoing]
    /// The messages that bring a (re)joining connection up to date, as that viewer may see it.
    func snapshot(for viewer: Viewer, at now: Instant) -> [JSONValue]
    /// Re-applies a journaled event (effects discarded).
    func replay(_ event: JSONValue, at now: Instant) throws
    /// What a typed line that is no command means for this player now (an answer on turn, the Queen's order), if anything.
    func interpretFreeText(_ text: String, from player: Player) -> PlayerAction?
    /// The current standings as a message, if the game keeps score.
    var scores: JSONValue? { get }
    /// The readable record of the finished game, for the game log.
    var gameLog: JSONValue { get }
}

/// The modes the host can start, by wire name.
enum GameCatalog {
    /// Creates a new game from a `start` request.
    static func make(game: String, options: JSONObject, context: GameContext) throws(RuleError) -> any HostedGame {
        switch game.lowercased() {
        case "shaky", "shakywords", "shaky-words": return try ShakyHost.make(options: options, context: context)
        case "queen", "queens", "king": return try QueenHost.make(options: options, context: context)
        default: throw RuleError(.unknownGame, "There is no game \"\(game)\". Games: shaky (Shaky Words), queen (Queen's game).")
        }
    }

    /// Recreates a game from its journaled start record.
    static func restore(game: String, record: JSONValue) throws -> any HostedGame {
        switch game {
        case "shaky": return try ShakyHost.restore(record: record)
        case "queen": return try QueenHost.restore(record: record)
        default: throw RuleError(.unknownGame, "The journal names an unknown game \"\(game)\".")
        }
    }
}

/// Bridges Codable values (Rules events, start records) to and from `JSONValue`.
enum CodableBridge {
    static func json(_ value: some Encodable) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let json = try? JSONParsing.parse(Array(data)) else { return .null }
        return json
    }

    /// The JSON text of `value`, straight from the encoder (the journal's hot path: no round trip through `JSONValue`).
    static func bytes(_ value: some Encodable) -> [UInt8] {
        (try? Array(JSONEncoder().encode(value))) ?? Array("null".utf8)
    }

    static func value<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(JSONEncoding.encode(json)))
    }
}

/// Reads typed start options with clear errors.
struct StartOptions {
    let fields: JSONObject

    func integer(_ key: String, default value: Int, in range: ClosedRange<Int>) throws(RuleError) -> Int {
        guard let field = fields[key] else { return value }
        guard let number = field.intValue, range.contains(Int(number)) else {
            throw RuleError(.badOption, "\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return Int(number)
    }

    func bool(_ key: String, default value: Bool) throws(RuleError) -> Bool {
        guard let field = fields[key] else { return value }
        guard let flag = field.boolValue else { throw RuleError(.badOption, "\"\(key)\" must be true or false.") }
        return flag
    }

    func string(_ key: String) throws(RuleError) -> String? {
        guard let field = fields[key] else { return nil }
        guard let text = field.stringValue else { throw RuleError(.badOption, "\"\(key)\" must be a string.") }
        return text
    }

    func strings(_ key: String) throws(RuleError) -> [String]? {
        guard let field = fields[key] else { return nil }
        if let text = field.stringValue { return text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        guard let array = field.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
            throw RuleError(.badOption, "\"\(key)\" must be a list of names.")
        }
        return array.compactMap(\.stringValue)
    }
}
