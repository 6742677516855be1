// The messages of the session layer: joining, replies, the operator's status and feed, and the family a client
// reads them by. The lobby, clocks, listings and discovery have files of their own; game modes add their own
// families (see `GameWire`). PROTOCOL.md §6.1 and §6.4 document every field.

/// You joined: the room, your role and, for players, who you are.
public struct Welcome: HostMessage {
    public static let type = "welcome"
    /// The room code.
    public var room: String
    /// The role granted.
    public var role: Role
    /// The host clock now (ms).
    public var hostTime: Int64
    /// The player's id (`p1`, …), players only.
    public var player: String?
    /// The player's name, players only.
    public var name: String?
    /// The player's team as stored, players only.
    public var team: String?
    /// The resume token (secret), players only.
    public var token: String?
    /// The running game's wire name, only while one runs.
    public var game: String?
    /// The player's short rejoin code (secret, for `rejoin NAME CODE` in text mode), players only.
    public var code: String?

    /// Creates a welcome.
    public init(
        room: String, role: Role, hostTime: Int64, player: String? = nil, name: String? = nil, team: String? = nil,
        token: String? = nil, game: String? = nil, code: String? = nil
    ) {
        self.room = room
        self.role = role
        self.hostTime = hostTime
        self.player = player
        self.name = name
        self.team = team
        self.token = token
        self.game = game
        self.code = code
    }

    public func line(for reader: Perspective) -> String? {
        switch role {
        case .player:
            let welcome = "Welcome, \(name ?? "")! You play for team \(team ?? "")."
            guard let code else { return welcome + " (If you drop, type: resume \(room) \(token ?? ""))" }
            return welcome + "\nYour rejoin code: \(code)   (if you drop, type: rejoin \(name ?? "NAME") \(code))"
        case .admin: return "You are the operator of room \(room)."
        case .board: return "You are watching room \(room)."
        }
    }
}

/// A request was refused: a stable code and a sentence for people.
public struct ErrorReply: HostMessage {
    public static let type = "error"
    /// Why, as a code (PROTOCOL.md §12).
    public var code: ErrorCode
    /// What was wrong, for people.
    public var message: String
    /// For a refusal that holds a while (`code_locked`): the time it still holds, in ms when sent; nil otherwise.
    public var remainingMs: Int64?
    /// For a refusal that holds a while: when it ends, host ms (§9); nil otherwise.
    public var deadline: Int64?
    /// The tiles (ids) a board editor's refused `save` is about, to mark on its grid; absent otherwise.
    public var tiles: [Int]?
    /// The paths ([tile id, tile id]) a board editor's refused `save` is about; absent otherwise.
    public var paths: [[Int]]?

    /// Creates an error reply; a lasting refusal gives its `deadline` (host ms) and the time left until it.
    public init(_ code: ErrorCode, _ message: String, remainingMs: Int64? = nil, deadline: Int64? = nil) {
        self.code = code
        self.message = message
        self.remainingMs = remainingMs
        self.deadline = deadline
    }

    public func line(for reader: Perspective) -> String? { "! " + message }
}

/// A request succeeded.
public struct OkReply: HostMessage {
    public static let type = "ok"
    /// What was done (operator commands).
    public var message: String?
    /// The id of a pack or command the request created.
    public var created: String?

    /// Creates an acknowledgement.
    public init(message: String? = nil, created: String? = nil) {
        self.message = message
        self.created = created
    }

    public func line(for reader: Perspective) -> String? { message }
}

/// Information for people.
public struct Notice: HostMessage {
    public static let type = "notice"
    /// The text.
    public var message: String

    /// Creates a notice.
    public init(_ message: String) { self.message = message }

    public func line(for reader: Perspective) -> String? { "* " + message }
}

/// The host is about to close this connection.
public struct Closing: HostMessage {
    public static let type = "closing"
    /// Why the connection closes.
    public enum Code: String, Codable, Sendable {
        /// The client said bye.
        case bye
        /// The player joined again from another connection.
        case replaced
        /// Nothing was heard for the idle timeout.
        case idle
        /// The host is stopping.
        case shutdown
    }

    /// Why, as a code.
    public var code: Code
    /// Why, for people.
    public var reason: String

    /// Creates a closing message.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public func line(for reader: Perspective) -> String? { "*** " + reason }
}

/// The operator's overview.
public struct StatusReport: HostMessage {
    public static let type = "status"
    /// The room code.
    public var room: String
    /// The TCP port.
    public var port: Int
    /// Open TCP connections.
    public var connections: Int
    /// Everyone in the room.
    public var players: [LobbyEntry]
    /// The running game's wire name, or null.
    @Nullable public var game: String?
    /// One readable line.
    public var summary: String

    /// Creates a status report.
    public init(room: String, port: Int, connections: Int, players: [LobbyEntry], game: String?, summary: String) {
        self.room = room
        self.port = port
        self.connections = connections
        self.players = players
        self.game = game
        self.summary = summary
    }

    public func line(for reader: Perspective) -> String? { summary }
}

/// The messages of the session layer, as a client reads them.
public enum SessionMessage: DecodedFamily {
    case welcome(Welcome)
    case error(ErrorReply)
    case ok(OkReply)
    case notice(Notice)
    case closing(Closing)
    case lobby(Lobby)
    case lobbyUpdate(LobbyUpdate)
    case teams(TeamSizes)
    case teamsUpdate(TeamSizesUpdate)
    case status(StatusReport)
    case pong(Pong)
    case ping(KeepalivePing)
    case sync(SyncProbe)
    case paused(Paused)
    case library(LibraryListing)
    case packs(PackListing)
    case pack(PackDetail)
    case contents(ContentListing)
    case content(ContentDetail)
    case feed(FeedLine)
    case character(CharacterProgress)

    /// The family's table: one entry per message type.
    public static let decoder = FamilyDecoder<SessionMessage>([
        member(Welcome.self, SessionMessage.welcome), member(ErrorReply.self, SessionMessage.error),
        member(OkReply.self, SessionMessage.ok), member(Notice.self, SessionMessage.notice),
        member(Closing.self, SessionMessage.closing), member(Lobby.self, SessionMessage.lobby),
        member(LobbyUpdate.self, SessionMessage.lobbyUpdate), member(TeamSizes.self, SessionMessage.teams),
        member(TeamSizesUpdate.self, SessionMessage.teamsUpdate), member(StatusReport.self, SessionMessage.status),
        member(Pong.self, SessionMessage.pong), member(KeepalivePing.self, SessionMessage.ping),
        member(SyncProbe.self, SessionMessage.sync), member(Paused.self, SessionMessage.paused),
        member(LibraryListing.self, SessionMessage.library), member(PackListing.self, SessionMessage.packs),
        member(PackDetail.self, SessionMessage.pack), member(ContentListing.self, SessionMessage.contents),
        member(ContentDetail.self, SessionMessage.content), member(FeedLine.self, SessionMessage.feed),
        member(CharacterProgress.self, SessionMessage.character),
    ])

    public var message: any HostMessage {
        switch self {
        case .welcome(let message): message
        case .error(let message): message
        case .ok(let message): message
        case .notice(let message): message
        case .closing(let message): message
        case .lobby(let message): message
        case .lobbyUpdate(let message): message
        case .teams(let message): message
        case .teamsUpdate(let message): message
        case .status(let message): message
        case .pong(let message): message
        case .ping(let message): message
        case .sync(let message): message
        case .paused(let message): message
        case .library(let message): message
        case .packs(let message): message
        case .pack(let message): message
        case .contents(let message): message
        case .content(let message): message
        case .feed(let message): message
        case .character(let message): message
        }
    }
}

/// One line of the game as the operator follows it (the quizmaster's feed): questions with their answers, buzzes,
/// every typed answer with its verdict. Operators only — it may say what players must not see yet.
public struct FeedLine: HostMessage {
    public static let type = "feed"
    /// The line.
    public var text: String
    /// Whether it is a detail the console shows dimmed.
    public var secondary: Bool?

    /// Creates a feed line.
    public init(_ text: String, isSecondary: Bool = false) {
        self.text = text
        secondary = isSecondary ? true : nil
    }

    public func line(for reader: Perspective) -> String? { "· " + text }
}
