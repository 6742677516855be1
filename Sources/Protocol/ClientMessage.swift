/// The version of the wire protocol this build speaks; `hello` carries the client's.
public let wireProtocolVersion = 1

/// What a connection wants to be in the room.
public enum Role: String, Sendable, Hashable, CaseIterable, Codable {
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
    /// A rejoin code from an earlier `welcome`: with `name` (and no `resume`) it comes back as that player, as
    /// text mode's `rejoin NAME CODE` does, from any device.
    public var code: String?

    /// Creates a hello.
    public init(
        protocolVersion: Int = wireProtocolVersion, room: String, name: String, team: String = "",
        role: Role = .player, key: String? = nil, resume: String? = nil, isSyncing: Bool = false, code: String? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.room = room
        self.name = name
        self.team = team
        self.role = role
        self.key = key
        self.resume = resume
        self.isSyncing = isSyncing
        self.code = code
    }
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

/// A game action as it arrived: its `type` and fields, decoded by the running game's `GameAction` type.
public struct PlayRequest: Equatable, Sendable {
    /// The message type (`buzz`, `pick`, …).
    public var type: String
    /// Every other field of the message (without `type` and `id`).
    public var fields: JSONObject

    /// Creates a request.
    public init(type: String, fields: JSONObject = JSONObject()) {
        self.type = type
        self.fields = fields
    }

    /// The wire object: `type` first, then the fields.
    public var json: JSONValue {
        var object: JSONObject = ["type": .string(type)]
        for member in fields where member.key != "type" { object.append(member.key, member.value) }
        return .object(object)
    }
}

/// Everything a client may ask of the host, decoded and checked for shape (not for authority).
///
/// Session and operator messages are listed here; a game's own actions arrive as `play` and are decoded by
/// the running game's `GameAction` type, so a new mode adds its actions without touching this list.
public enum ClientMessage: Equatable, Sendable {
    case hello(Hello)
    /// Asks for a `pong`; `clientTime` is echoed back when given.
    case ping(clientTime: Int64?)
    case sync(SyncReply)
    /// A game action (`buzz`, `answer`, `pick`, …), for the running game to decode.
    case play(PlayRequest)
    /// Starts a game (`shaky`, `queen`, …) with game-specific options.
    case start(game: String, options: JSONObject)
    case next
    case pause
    case resume
    case end
    case kick(name: String)
    /// Lets a kicked name (and its address) back in.
    case unban(name: String)
    /// Removes the players who have been away a while (`everyone`: all who are away, however briefly).
    case tidy(everyone: Bool)
    /// Closes the running game to newcomers (they wait in the lobby for the next game), or opens it again.
    case lock(Bool)
    /// Edits or reads the Queen's command library: `action` plus its fields.
    case library(action: String, fields: JSONObject)
    /// Edits or reads the quiz packs: `action` plus its fields.
    case packs(action: String, fields: JSONObject)
    /// A request to one of the host's operator tools (a game's content or records): its `type`, `action` and fields.
    case tool(type: String, action: String, fields: JSONObject)
    /// An operator's console line, run as if typed on the host's console (replies come back as messages).
    case console(line: String)
    case status
    case scores
    case bye
    /// Answers the host's keepalive `ping`.
    case pong
    /// Asks for the whole of a growing state (by the `type` of its whole message) after a missed delta.
    case resync(state: String)
    /// A player picks their reward character (`fox`), or with nil asks where theirs stands.
    case character(String?)

    /// The `type` names of the session's own messages, for help texts and errors.
    public static let typeNames = [
        "hello", "ping", "sync", "start", "next", "pause", "continue", "end", "kick", "unban", "tidy", "lock", "unlock",
        "library", "packs", "console", "status", "scores", "bye", "pong", "resync", "character",
    ]

    /// The wire object of this message (the inverse of `ClientMessageDecoding`).
    public var json: JSONValue {
        func with(_ type: String, _ fields: JSONObject) -> JSONValue {
            var object: JSONObject = ["type": .string(type)]
            for member in fields where member.key != "type" {
                object.append(member.key, member.value)
            }
            return .object(object)
        }
        switch self {
        case .hello(let hello): return hello.json
        case .ping(let clientTime):
            var object: JSONObject = ["type": "ping"]
            if let clientTime { object["t"] = .int(clientTime) }
            return .object(object)
        case .sync(let reply):
            return [
                "type": "sync", "n": .int(reply.sequence), "h": .int(reply.hostSent), "c1": .int(reply.clientReceived),
                "c2": .int(reply.clientSent),
            ]
        case .play(let request): return request.json
        case .start(let game, let options):
            return with("start", JSONObject(dictionaryLiteral: ("game", .string(game))).merging(options))
        case .next: return ["type": "next"]
        case .pause: return ["type": "pause"]
        case .resume: return ["type": "continue"]
        case .end: return ["type": "end"]
        case .kick(let name): return ["type": "kick", "name": .string(name)]
        case .unban(let name): return ["type": "unban", "name": .string(name)]
        case .tidy(let everyone): return everyone ? ["type": "tidy", "all": true] : ["type": "tidy"]
        case .lock(let isLocked): return ["type": isLocked ? "lock" : "unlock"]
        case .library(let action, let fields):
            return with("library", JSONObject(dictionaryLiteral: ("action", .string(action))).merging(fields))
        case .packs(let action, let fields):
            return with("packs", JSONObject(dictionaryLiteral: ("action", .string(action))).merging(fields))
        case .tool(let type, let action, let fields):
            return with(type, JSONObject(dictionaryLiteral: ("action", .string(action))).merging(fields))
        case .console(let line): return ["type": "console", "line": .string(line)]
        case .status: return ["type": "status"]
        case .scores: return ["type": "scores"]
        case .bye: return ["type": "bye"]
        case .pong: return ["type": "pong"]
        case .resync(let state): return ["type": "resync", "state": .string(state)]
        case .character(let id?): return ["type": "character", "character": .string(id)]
        case .character(nil): return ["type": "character"]
        }
    }
}

extension JSONObject {
    /// This object followed by `other`'s members whose keys it does not have yet.
    public func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for member in other where result[member.key] == nil { result.append(member.key, member.value) }
        return result
    }
}

extension Hello {
    /// The `hello` wire object.
    public var json: JSONValue {
        var object: JSONObject = ["type": "hello", "protocol": .int(Int64(protocolVersion)), "room": .string(room)]
        if role == .player || !name.isEmpty { object["name"] = .string(name) }
        if role == .player { object["team"] = .string(team) }
        object["role"] = .string(role.rawValue)
        if let key { object["key"] = .string(key) }
        if let resume { object["resume"] = .string(resume) }
        if let code { object["code"] = .string(code) }
        object["clock"] = .bool(isSyncing)
        return .object(object)
    }
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
    /// Most UTF-8 bytes in one character (grapheme cluster) of a field: a flag is 8, an emoji with a skin tone 8,
    /// a keycap 7; more is a letter piled with marks.
    public static let characterBytes = 32
}

/// Turns one wire line into a `ClientEnvelope`, or a `ProtocolError` saying exactly what is wrong.
public enum ClientMessageDecoding {
    /// Decodes a line (without its terminator); `actions` are the game action types the host knows, `tools` its
    /// operator tools' request types.
    public static func decode(line: [UInt8], actions: Set<String>, tools: Set<String> = [])
        -> Result<ClientEnvelope, ProtocolError>
    {
        let value: JSONValue
        do {
            value = try JSONParsing.parse(line)
        } catch {
            return .failure(
                ProtocolError(.badJSON, "That line is not valid JSON (\(error.reason) at byte \(error.offset))."))
        }
        return decode(value, actions: actions, tools: tools)
    }

    /// Decodes a parsed JSON value; `actions` are the game action types the host knows, `tools` its operator
    /// tools' request types.
    public static func decode(_ value: JSONValue, actions: Set<String>, tools: Set<String> = [])
        -> Result<ClientEnvelope, ProtocolError>
    {
        guard case .object(let object) = value else {
            return .failure(ProtocolError(.badJSON, "Each line must be one JSON object, not \(value.kindName)."))
        }
        var id: JSONValue? = object["id"]
        if let candidate = id {
            switch candidate {
            case .int, .string, .double: break
            default: id = nil
            }
        }
        guard let typeValue = object["type"] else {
            return .failure(ProtocolError(.badField, "The message has no \"type\" field.", id: id))
        }
        guard case .string(let type) = typeValue else {
            return .failure(ProtocolError(.badField, "\"type\" must be a string, not \(typeValue.kindName).", id: id))
        }
        let fields = MessageFields(object: object, id: id)
        do throws(ProtocolError) {
            let message: ClientMessage
            if let session = try fields.sessionMessage(ofType: type) {
                message = session
            } else if actions.contains(type) {
                message = .play(PlayRequest(type: type, fields: fields.fields(without: ["type", "id"])))
            } else if tools.contains(type) {
                message = .tool(
                    type: type, action: try fields.requiredString("action", limit: 32),
                    fields: fields.fields(without: ["type", "id", "action"]))
            } else {
                let shown = type.count > 32 ? String(type.prefix(32)) + "…" : type
                let known = (ClientMessage.typeNames + actions.sorted() + tools.sorted()).joined(separator: ", ")
                throw fields.error(.unknownType, "Unknown message type \"\(shown)\". Known types: \(known).")
            }
            return .success(ClientEnvelope(id: id, message: message))
        } catch {
            return .failure(error)
        }
    }
}

/// Reads the fields of one client message with clear errors; game actions decode their own fields with it.
public struct MessageFields: Sendable {
    /// The message's members.
    public let object: JSONObject
    /// The request id, echoed as `re` in errors.
    public let id: JSONValue?

    /// Reads the fields of `object`.
    public init(object: JSONObject, id: JSONValue? = nil) {
        self.object = object
        self.id = id
    }

    /// Reads the fields of a game action.
    public init(_ request: PlayRequest) { self.init(object: request.fields) }

    /// An error about this message.
    public func error(_ code: ErrorCode, _ message: String) -> ProtocolError { ProtocolError(code, message, id: id) }

    /// The string `key`: nil when absent or null and not `required`; longer than `limit` characters is refused.
    public func string(_ key: String, required: Bool = true, limit: Int = FieldLimits.text) throws(ProtocolError)
        -> String?
    {
        guard let value = object[key], value != .null else {
            if required { throw error(.badField, "\"\(key)\" is missing.") }
            return nil
        }
        guard case .string(let text) = value else {
            throw error(.badField, "\"\(key)\" must be a string, not \(value.kindName).")
        }
        // Characters are counted as people see them (grapheme clusters: a flag is one, PROTOCOL.md §5); a cap per
        // character stops a "character" built of thousands of marks.
        guard text.count <= limit else { throw error(.badField, "\"\(key)\" is longer than \(limit) characters.") }
        guard text.allSatisfy({ $0.utf8.count <= FieldLimits.characterBytes }) else {
            throw error(
                .badField,
                "\"\(key)\" has a character built of too many marks (over \(FieldLimits.characterBytes) bytes).")
        }
        return text
    }

    /// The required string `key`.
    public func requiredString(_ key: String, limit: Int = FieldLimits.text) throws(ProtocolError) -> String {
        try string(key, required: true, limit: limit)!
    }

    /// The whole number `key`, nil when absent or null (PROTOCOL.md §5).
    public func integer(_ key: String) throws(ProtocolError) -> Int64? {
        guard let value = object[key], value != .null else { return nil }
        if let number = value.intValue { return number }
        guard let real = value.doubleValue else {
            throw error(.badField, "\"\(key)\" must be a whole number, not \(value.kindName).")
        }
        // A fraction or an out-of-range number is shown as sent: "not a number" would confuse.
        guard real.rounded() == real else { throw error(.badField, "\"\(key)\" must be a whole number, not \(value).") }
        // Whole, but written with an exponent (1e16) or beyond what 64 bits hold (2^63 and up, -2^63 - 1 and
        // down). -2^63 itself arrives as an int; a double equal to it is a number below it rounded up (-2^63 - 1).
        guard real > -0x1p63, real < 0x1p63 else {
            throw error(.badField, "\"\(key)\" is out of range: \(value) is not between \(Int64.min) and \(Int64.max).")
        }
        return Int64(real)
    }

    /// The required whole number `key`.
    public func requiredInteger(_ key: String) throws(ProtocolError) -> Int64 {
        guard let number = try integer(key) else { throw error(.badField, "\"\(key)\" is missing.") }
        return number
    }

    /// The Boolean `key`, nil when absent or null.
    public func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard case .bool(let flag) = value else {
            throw error(.badField, "\"\(key)\" must be true or false, not \(value.kindName).")
        }
        return flag
    }

    /// Every member except `keys`.
    public func fields(without keys: Set<String>) -> JSONObject {
        var result = JSONObject()
        for member in object where !keys.contains(member.key) { result.append(member.key, member.value) }
        return result
    }

    /// The session or operator message of `type`, or nil when `type` is not one of them.
    func sessionMessage(ofType type: String) throws(ProtocolError) -> ClientMessage? {
        switch type {
        case "hello":
            let version = try integer("protocol") ?? Int64(wireProtocolVersion)
            guard version == Int64(wireProtocolVersion) else {
                throw error(
                    .badVersion,
                    "This host speaks protocol \(wireProtocolVersion); the client speaks \(version). Update the client."
                )
            }
            let roleText = try string("role", required: false, limit: 16) ?? "player"
            guard let role = Role(rawValue: roleText) else {
                throw error(.badField, "\"role\" must be player, board or admin, not \"\(roleText)\".")
            }
            let room = try string("room", required: false, limit: FieldLimits.room) ?? ""
            let name = try string("name", required: false, limit: FieldLimits.name) ?? ""
            let team = try string("team", required: false, limit: FieldLimits.name) ?? ""
            return .hello(
                Hello(
                    protocolVersion: Int(version), room: room, name: name, team: team, role: role,
                    key: try string("key", required: false, limit: 128),
                    resume: try string("resume", required: false, limit: 128), isSyncing: try bool("clock") ?? false,
                    code: try string("code", required: false, limit: 32)))
        case "ping":
            return .ping(clientTime: try integer("t"))
        case "sync":
            return .sync(
                SyncReply(
                    sequence: try requiredInteger("n"), hostSent: try requiredInteger("h"),
                    clientReceived: try requiredInteger("c1"), clientSent: try requiredInteger("c2")))
        case "start":
            let game = try requiredString("game", limit: 32)
            return .start(game: game, options: fields(without: ["type", "id", "game"]))
        case "next": return .next
        case "pause": return .pause
        case "continue", "resume": return .resume
        case "end": return .end
        case "kick": return .kick(name: try requiredString("name", limit: FieldLimits.name))
        case "unban": return .unban(name: try requiredString("name", limit: FieldLimits.name))
        case "tidy": return .tidy(everyone: try bool("all") ?? false)
        case "lock": return .lock(true)
        case "unlock": return .lock(false)
        case "library":
            return .library(
                action: try requiredString("action", limit: 32), fields: fields(without: ["type", "id", "action"]))
        case "packs":
            return .packs(
                action: try requiredString("action", limit: 32), fields: fields(without: ["type", "id", "action"]))
        case "console": return .console(line: try requiredString("line"))
        case "status": return .status
        case "scores": return .scores
        case "bye", "quit": return .bye
        case "pong": return .pong
        case "resync": return .resync(state: try requiredString("state", limit: 32))
        case "character": return .character(try string("character", required: false, limit: 32))
        default: return nil
        }
    }
}
