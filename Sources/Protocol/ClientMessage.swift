/// The version of the wire protocol this build speaks; `hello` carries the client's.
public let wireProtocolVersion = 1

/// What a connection wants to be in the room.
public enum Role: String, Sendable, Hashable, CaseIterable {
    /// Plays for a team (Shaky Words) or as themselves (Queen's game).
    case player
    /// A read-only spectator screen, such as a projector.
    case board
    /// The operator: may start games, skip, pause, kick and edit libraries; needs the admin key.
    case admin
}

/// A client's `hello`: who it is and where it wants to be.
public struct Hello: Equatable, Sendable {
    /// The protocol version the client speaks.
    public var protocolVersion: Int
    /// The room code it was told.
    public var room: String
    /// The player's display name (players only; boards and admins may leave it empty).
    public var name: String
    /// The team the player plays for; empty means "a team of one, named after me".
    public var team: String
    /// The role asked for.
    public var role: Role
    /// The admin key, for `admin`.
    public var key: String?
    /// A resume token from an earlier `welcome`, to reattach a dropped player.
    public var resume: String?
    /// Whether the client takes part in clock sync (`sync` messages); text-mode connections do not.
    public var isSyncing: Bool

    /// Creates a hello.
    public init(protocolVersion: Int = wireProtocolVersion, room: String, name: String, team: String = "",
                role: Role = .player, key: String? = nil, resume: String? = nil, isSyncing: Bool = false) {
        self.protocolVersion = protocolVersion
        self.room = room
        self.name = name
        self.team = team
        self.role = role
        self.key = key
        self.resume = resume
        self.isSyncing = isSyncing
    }
}

/// The Queen's choice of command: a library template or her own words.
public enum CommandChoice: Equatable, Sendable {
    /// A library command by id.
    case template(String)
    /// Her own text with `{1}`, `{2}`, … and `{queen}` placeholders.
    case text(String)
}

/// A client's answer to the host's clock-sync probe: the host's stamp echoed with the client's own.
public struct SyncReply: Equatable, Sendable {
    /// The probe's sequence number.
    public var sequence: Int64
    /// The host's send time, echoed.
    public var hostSent: Int64
    /// The client's monotonic time when the probe arrived.
    public var clientReceived: Int64
    /// The client's monotonic time when this reply left.
    public var clientSent: Int64

    /// Creates a reply.
    public init(sequence: Int64, hostSent: Int64, clientReceived: Int64, clientSent: Int64) {
        self.sequence = sequence
        self.hostSent = hostSent
        self.clientReceived = clientReceived
        self.clientSent = clientSent
    }
}

/// Everything a client may ask of the host, decoded and checked for shape (not for authority).
public enum ClientMessage: Equatable, Sendable {
    case hello(Hello)
    /// Asks for a `pong`; `clientTime` is echoed back when given.
    case ping(clientTime: Int64?)
    case sync(SyncReply)
    /// Buzzes; `pressedAt` is the client's monotonic ms at the key press, when it knows it.
    case buzz(pressedAt: Int64?)
    case answer(String)
    case shake
    /// Starts a game (`shaky`, `queen`, …) with game-specific options.
    case start(game: String, options: JSONObject)
    case next
    case pause
    case resume
    case end
    case kick(name: String)
    case command(CommandChoice, save: Bool)
    /// Edits or reads the Queen's command library: `action` plus its fields.
    case library(action: String, fields: JSONObject)
    /// Edits or reads the quiz packs: `action` plus its fields.
    case packs(action: String, fields: JSONObject)
    case status
    case scores
    case bye
    /// Answers the host's keepalive `ping`.
    case pong

    /// The `type` names clients may send, for help texts and errors.
    public static let typeNames = ["hello", "ping", "sync", "buzz", "answer", "shake", "start", "next", "pause",
                                   "continue", "end", "kick", "command", "library", "packs", "status", "scores", "bye", "pong"]
}

/// A request as it arrived: the message and the `id` the client wants echoed as `re`.
public struct ClientEnvelope: Equatable, Sendable {
    /// The client's request id, if any (a number or a string).
    public var id: JSONValue?
    /// The decoded message.
    public var message: ClientMessage

    /// Creates an envelope.
    public init(id: JSONValue?, message: ClientMessage) {
        self.id = id
        self.message = message
    }
}

/// A request the host could not accept as sent, with a wire error code and a clear message.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The wire `code` (see PROTOCOL.md).
    public var code: ErrorCode
    /// A sentence saying what was wrong.
    public var message: String
    /// The request id, when it could be read, to echo as `re`.
    public var id: JSONValue?

    /// Creates an error.
    public init(_ code: ErrorCode, _ message: String, id: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// Limits on field sizes, shared by host checks and documentation.
public enum FieldLimits {
    /// Longest player or team name, in characters.
    public static let name = 24
    /// Longest answer or command text, in characters.
    public static let text = 200
    /// Longest room code.
    public static let room = 12
}

/// Turns one wire line into a `ClientEnvelope`, or a `ProtocolError` saying exactly what is wrong.
public enum ClientMessageDecoding {
    /// Decodes a line (without its terminator).
    public static func decode(line: [UInt8]) -> Result<ClientEnvelope, ProtocolError> {
        let value: JSONValue
        do {
            value = try JSONParsing.parse(line)
        } catch {
            return .failure(ProtocolError(.badJSON, "That line is not valid JSON (\(error.reason) at byte \(error.offset))."))
        }
        return decode(value)
    }

    /// Decodes a parsed JSON value.
    public static func decode(_ value: JSONValue) -> Result<ClientEnvelope, ProtocolError> {
        guard case .object(let object) = value else {
            return .failure(ProtocolError(.badJSON, "Each line must be one JSON object, not \(value.kindName)."))
        }
        var id: JSONValue? = object["id"]
        if let candidate = id {
            switch candidate {
            case .int, .string: break
            case .double: break
            default: id = nil
            }
        }
        guard let typeValue = object["type"] else {
            return .failure(ProtocolError(.badField, "The message has no \"type\" field.", id: id))
        }
        guard case .string(let type) = typeValue else {
            return .failure(ProtocolError(.badField, "\"type\" must be a string, not \(typeValue.kindName).", id: id))
        }
        var reader = FieldReader(object: object, id: id)
        do {
            let message = try reader.message(ofType: type)
            return .success(ClientEnvelope(id: id, message: message))
        } catch {
            return .failure(error)
        }
    }
}

private struct FieldReader {
    let object: JSONObject
    let id: JSONValue?

    func error(_ code: ErrorCode, _ message: String) -> ProtocolError { ProtocolError(code, message, id: id) }

    func string(_ key: String, required: Bool = true, limit: Int = FieldLimits.text) throws(ProtocolError) -> String? {
        guard let value = object[key], value != .null else {
            if required { throw error(.badField, "\"\(key)\" is missing.") }
            return nil
        }
        guard case .string(let text) = value else { throw error(.badField, "\"\(key)\" must be a string, not \(value.kindName).") }
        // Characters are counted as people see them; the byte cap stops a "character" built of thousands of marks.
        guard text.count <= limit, text.utf8.count <= limit * 4 else {
            throw error(.badField, "\"\(key)\" is longer than \(limit) characters.")
        }
        return text
    }

    func integer(_ key: String) throws(ProtocolError) -> Int64? {
        guard let value = object[key], value != .null else { return nil }
        guard let number = value.intValue else {
            // A fraction or an out-of-range number is shown as sent: "not a number" would confuse.
            let shown = value.doubleValue != nil ? String(describing: value) : value.kindName
            throw error(.badField, "\"\(key)\" must be a whole number, not \(shown).")
        }
        return number
    }

    func requiredInteger(_ key: String) throws(ProtocolError) -> Int64 {
        guard let number = try integer(key) else { throw error(.badField, "\"\(key)\" is missing.") }
        return number
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw error(.badField, "\"\(key)\" must be true or false, not \(value.kindName).") }
        return flag
    }

    func fields(without keys: Set<String>) -> JSONObject {
        var result = JSONObject()
        for member in object where !keys.contains(member.key) { result.append(member.key, member.value) }
        return result
    }

    mutating func message(ofType type: String) throws(ProtocolError) -> ClientMessage {
        switch type {
        case "hello":
            let version = try integer("protocol") ?? Int64(wireProtocolVersion)
            guard version == Int64(wireProtocolVersion) else {
                throw error(.badVersion, "This host speaks protocol \(wireProtocolVersion); the client speaks \(version). Update the client.")
            }
            let roleText = try string("role", required: false, limit: 16) ?? "player"
            guard let role = Role(rawValue: roleText) else {
                throw error(.badField, "\"role\" must be player, board or admin, not \"\(roleText)\".")
            }
            let room = try string("room", required: false, limit: FieldLimits.room) ?? ""
            let name = try string("name", required: false, limit: FieldLimits.name) ?? ""
            let team = try string("team", required: false, limit: FieldLimits.name) ?? ""
            return .hello(Hello(protocolVersion: Int(version), room: room, name: name, team: team, role: role,
                                key: try string("key", required: false, limit: 128),
                                resume: try string("resume", required: false, limit: 128),
                                isSyncing: try bool("clock") ?? false))
        case "ping":
            return .ping(clientTime: try integer("t"))
        case "sync":
            return .sync(SyncReply(sequence: try requiredInteger("n"), hostSent: try requiredInteger("h"),
                                   clientReceived: try requiredInteger("c1"), clientSent: try requiredInteger("c2")))
        case "buzz":
            return .buzz(pressedAt: try integer("t"))
        case "answer":
            return .answer(try string("text")!)
        case "shake":
            return .shake
        case "start":
            let game = try string("game", limit: 32)!
            return .start(game: game, options: fields(without: ["type", "id", "game"]))
        case "next": return .next
        case "pause": return .pause
        case "continue", "resume": return .resume
        case "end": return .end
        case "kick": return .kick(name: try string("name", limit: FieldLimits.name)!)
        case "command":
            let save = try bool("save") ?? false
            if let template = try string("template", required: false, limit: 64) {
                return .command(.template(template), save: save)
            }
            guard let text = try string("text", required: false) else {
                throw error(.badField, "A command needs \"template\" (a library id) or \"text\" (your own words).")
            }
            return .command(.text(text), save: save)
        case "library":
            return .library(action: try string("action", limit: 32)!, fields: fields(without: ["type", "id", "action"]))
        case "packs":
            return .packs(action: try string("action", limit: 32)!, fields: fields(without: ["type", "id", "action"]))
        case "status": return .status
        case "scores": return .scores
        case "bye", "quit": return .bye
        case "pong": return .pong
        default:
            let shown = type.count > 32 ? String(type.prefix(32)) + "…" : type
            throw error(.unknownType, "Unknown message type \"\(shown)\". Known types: \(ClientMessage.typeNames.joined(separator: ", ")).")
        }
    }
}

