// The messages of the session layer: joining, replies, the lobby, clock sync, the operator's listings.
// Game modes add their own families (see `GameWire`). PROTOCOL.md §6.1 and §6.4 document every field.

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

/// One person in a lobby list.
public struct LobbyEntry: ListItem {
    /// The player's name.
    public var name: String
    /// The player's team.
    public var team: String
    /// Whether the player is connected now.
    public var connected: Bool
    /// In a `lobbyUpdate` only, where the player goes when not at the end (PROTOCOL.md §6.0).
    public var at: Int?

    /// Creates an entry.
    public init(name: String, team: String, connected: Bool, at: Int? = nil) {
        self.name = name
        self.team = team
        self.connected = connected
        self.at = at
    }

    /// Names are unique in a room.
    public var key: String { name }
}

/// Who is in the room.
public struct Lobby: HostMessage {
    public static let type = "lobby"
    /// The room code.
    public var room: String
    /// Players in the room (all of them, also when `players` lists only some).
    public var count: Int
    /// The players listed, in join order.
    public var players: [LobbyEntry]
    /// The teams, in order of first appearance.
    public var teams: [String]
    /// True when not everyone is listed (a player in a hall-sized room sees its own team).
    public var truncated: Bool?
    /// The version of this list, which the `lobbyUpdate`s that follow continue (PROTOCOL.md §6.0).
    public var seq: Int?

    /// Creates a lobby message.
    public init(
        room: String, count: Int, players: [LobbyEntry], teams: [String], truncated: Bool? = nil, seq: Int? = nil
    ) {
        self.room = room
        self.count = count
        self.players = players
        self.teams = teams
        self.truncated = truncated
        self.seq = seq
    }

    /// `Lobby: Red: Ann, Cid (away) | Blue: Bob`.
    public static func summary(players: [LobbyEntry], teams: [String]) -> String {
        let order = teams.isEmpty ? Array(Set(players.map(\.team))).sorted() : teams
        let parts = order.map { team in
            "\(team): "
                + players.filter { $0.team.lowercased() == team.lowercased() }
                .map { $0.name + ($0.connected ? "" : " (away)") }.joined(separator: ", ")
        }
        return "Lobby: " + (parts.isEmpty ? "nobody yet" : parts.joined(separator: " | "))
    }

    public func line(for reader: Perspective) -> String? { Lobby.summary(players: players, teams: teams) }
}

extension Lobby: GrowingState {
    public var items: [LobbyEntry] { players }

    public func delta(seq: Int, changed: [LobbyEntry], removed: [String]) -> LobbyUpdate {
        LobbyUpdate(room: room, count: count, players: changed, removed: removed, seq: seq)
    }

    public func updated(items: [LobbyEntry], by delta: LobbyUpdate) -> Lobby {
        // Teams keep their order; a team with nobody left goes (unless this list shows only some players).
        var seen = Set<String>()
        var present: [String] = []
        for item in items where seen.insert(item.team.lowercased()).inserted { present.append(item.team) }
        let isPresent = { (team: String) in present.contains { $0.lowercased() == team.lowercased() } }
        let kept = teams.filter { truncated == true || isPresent($0) }
        let added = present.filter { team in !kept.contains { $0.lowercased() == team.lowercased() } }
        return Lobby(
            room: room, count: delta.count, players: items, teams: kept + added, truncated: truncated, seq: seq)
    }
}

/// What changed in the lobby since the last lobby message (a delta of `lobby`, PROTOCOL.md §6.0).
public struct LobbyUpdate: StateDelta {
    public static let type = "lobbyUpdate"
    public static let stateType = Lobby.type
    /// The room code.
    public var room: String
    /// Players in the room.
    public var count: Int
    /// New or changed players.
    public var players: [LobbyEntry]
    /// Names of players who left.
    public var removed: [String]
    /// The lobby's version after this change.
    public var seq: Int?

    /// Creates a lobby delta.
    public init(room: String, count: Int, players: [LobbyEntry], removed: [String], seq: Int? = nil) {
        self.room = room
        self.count = count
        self.players = players
        self.removed = removed
        self.seq = seq
    }

    public var changed: [LobbyEntry] { players }

    /// `Lobby, 12 players: Zed (Blue) is here · Ann (Red) is away · Bo left`.
    public func line(for reader: Perspective) -> String? {
        let parts =
            players.map { "\($0.name) (\($0.team)) is \($0.connected ? "here" : "away")" }
            + removed.map { "\($0) left" }
        guard !parts.isEmpty else { return nil }
        return "Lobby, \(Wording.count(count, "player")): " + parts.joined(separator: " · ")
    }
}

/// One team's size in a hall-sized room.
public struct TeamSize: ListItem {
    /// The team.
    public var team: String
    /// Its players, connected or not.
    public var players: Int
    /// In a `teamsUpdate` only, where the team goes when not at the end.
    public var at: Int?

    /// Creates a team size.
    public init(team: String, players: Int, at: Int? = nil) {
        self.team = team
        self.players = players
        self.at = at
    }

    public var key: String { team }
}

/// In a hall-sized room, the size of every team, for players (who get only their own team's `lobby`).
public struct TeamSizes: GrowingState {
    public static let type = "teams"
    /// The room code.
    public var room: String
    /// Players in the room.
    public var count: Int
    /// Every team with its size, in order of first appearance.
    public var teams: [TeamSize]
    /// The version of this list, which the `teamsUpdate`s that follow continue.
    public var seq: Int?

    /// Creates the message.
    public init(room: String, count: Int, teams: [TeamSize], seq: Int? = nil) {
        self.room = room
        self.count = count
        self.teams = teams
        self.seq = seq
    }

    public var items: [TeamSize] { teams }

    public func delta(seq: Int, changed: [TeamSize], removed: [String]) -> TeamSizesUpdate {
        TeamSizesUpdate(room: room, count: count, teams: changed, removed: removed, seq: seq)
    }

    public func updated(items: [TeamSize], by delta: TeamSizesUpdate) -> TeamSizes {
        TeamSizes(room: room, count: delta.count, teams: items, seq: seq)
    }

    /// `1204 players in 100 teams: Red 12 · Blue 9 · …`.
    public func line(for reader: Perspective) -> String? {
        "\(Wording.count(count, "player")) in \(Wording.count(teams.count, "team")): "
            + teams.map { "\($0.team) \($0.players)" }.joined(separator: " · ")
    }
}

/// What changed in the team sizes (a delta of `teams`); sent at most every 2 seconds.
public struct TeamSizesUpdate: StateDelta {
    public static let type = "teamsUpdate"
    public static let stateType = TeamSizes.type
    /// The room code.
    public var room: String
    /// Players in the room.
    public var count: Int
    /// Teams whose size changed, and new teams.
    public var teams: [TeamSize]
    /// Teams with nobody left.
    public var removed: [String]
    /// The version after this change.
    public var seq: Int?

    /// Creates the delta.
    public init(room: String, count: Int, teams: [TeamSize], removed: [String], seq: Int? = nil) {
        self.room = room
        self.count = count
        self.teams = teams
        self.removed = removed
        self.seq = seq
    }

    public var changed: [TeamSize] { teams }
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

/// The answer to a client's `ping`.
public struct Pong: HostMessage {
    public static let type = "pong"
    /// The host clock now (ms).
    public var hostTime: Int64
    /// The client's `t`, echoed.
    public var t: Int64?
    /// The request's `id`, echoed (as well as `re`).
    public var id: JSONValue?

    /// Creates a pong.
    public init(hostTime: Int64, t: Int64? = nil, id: JSONValue? = nil) {
        self.hostTime = hostTime
        self.t = t
        self.id = id
    }

    public func line(for reader: Perspective) -> String? { "pong" }
}

/// The host's keepalive probe; a client answers with `{"type":"pong"}`.
public struct KeepalivePing: HostMessage {
    public static let type = "ping"
    /// The probe's id (`k1`, `k2`, …).
    public var id: String
    /// The host clock now (ms).
    public var hostTime: Int64

    /// Creates a keepalive probe.
    public init(id: String, hostTime: Int64) {
        self.id = id
        self.hostTime = hostTime
    }
}

/// A clock-sync probe (PROTOCOL.md §9); the client answers at once with its own stamps.
public struct SyncProbe: HostMessage {
    public static let type = "sync"
    /// The probe's sequence number.
    public var n: Int64
    /// The host's send time.
    public var h: Int64
    /// Once measured: client clock minus host clock, ms.
    public var offset: Int64?
    /// Once measured: the median round trip, ms.
    public var rtt: Int64?
    /// Once measured: ± ms on the offset.
    public var uncertainty: Int64?

    /// Creates a probe.
    public init(n: Int64, h: Int64, offset: Int64? = nil, rtt: Int64? = nil, uncertainty: Int64? = nil) {
        self.n = n
        self.h = h
        self.offset = offset
        self.rtt = rtt
        self.uncertainty = uncertainty
    }
}

/// Every clock stands still: the operator paused the game, or the host cannot save (`reason` then says so).
public struct Paused: HostMessage {
    public static let type = "paused"
    /// When the clocks stopped (host ms), so a viewer joining later freezes them at the same instant.
    public var at: Int64?
    /// Why, when it is not the operator's pause ("The host cannot save: disk full — the game is paused. …").
    public var reason: String?

    /// Creates the message.
    public init(at: Int64? = nil, reason: String? = nil) {
        self.at = at
        self.reason = reason
    }

    public func line(for reader: Perspective) -> String? { reason.map { "*** " + $0 } ?? "Paused by the operator." }
}

/// One command of the Queen's library.
public struct LibraryEntry: Codable, Sendable, Equatable {
    /// Its id (`b01`… built-in, `u1`… the operator's).
    public var id: String
    /// Its text with placeholders.
    public var text: String
    /// Who it is for (`citizenToCitizen`, …).
    public var kind: String
    /// `mild`, `medium` or `bold`.
    public var difficulty: String
    /// Whether it ships with the host.
    public var builtin: Bool
    /// Whether the operator hid it.
    public var hidden: Bool

    /// Creates an entry.
    public init(id: String, text: String, kind: String, difficulty: String, builtin: Bool, hidden: Bool) {
        self.id = id
        self.text = text
        self.kind = kind
        self.difficulty = difficulty
        self.builtin = builtin
        self.hidden = hidden
    }
}

/// The Queen's commands (reply to `library` `list` or `search`).
public struct LibraryListing: HostMessage {
    public static let type = "library"
    /// The commands, sorted by text.
    public var commands: [LibraryEntry]

    /// Creates a listing.
    public init(commands: [LibraryEntry]) { self.commands = commands }

    public func line(for reader: Perspective) -> String? {
        guard !commands.isEmpty else { return "No commands match." }
        return (["Commands:"] + commands.map { "  \($0.id)  \($0.text)" }).joined(separator: "\n")
    }
}

/// One quiz pack in a listing.
public struct PackEntry: Codable, Sendable, Equatable {
    /// The pack's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host (read-only).
    public var builtin: Bool
    /// How many questions it has.
    public var questions: Int
    /// How many are easy.
    public var easy: Int
    /// How many are medium.
    public var medium: Int
    /// How many are hard.
    public var hard: Int

    /// Creates an entry.
    public init(id: String, name: String, builtin: Bool, questions: Int, easy: Int, medium: Int, hard: Int) {
        self.id = id
        self.name = name
        self.builtin = builtin
        self.questions = questions
        self.easy = easy
        self.medium = medium
        self.hard = hard
    }
}

/// The quiz packs (reply to `packs` `list`).
public struct PackListing: HostMessage {
    public static let type = "packs"
    /// The packs.
    public var packs: [PackEntry]

    /// Creates a listing.
    public init(packs: [PackEntry]) { self.packs = packs }

    public func line(for reader: Perspective) -> String? {
        let rows = packs.map {
            "  \($0.id)  \($0.name)  \(Wording.count($0.questions, "question"))\($0.builtin ? " (built-in)" : "")"
        }
        return (["Quiz packs:"] + rows).joined(separator: "\n")
    }
}

/// One question of a pack, with its answer (operators only).
public struct PackQuestion: Codable, Sendable, Equatable {
    /// `easy`, `medium` or `hard`.
    public var difficulty: String
    /// The question.
    public var text: String
    /// The answer.
    public var answer: String

    /// Creates a question.
    public init(difficulty: String, text: String, answer: String) {
        self.difficulty = difficulty
        self.text = text
        self.answer = answer
    }
}

/// One pack with its questions and answers (reply to `packs` `show`).
public struct PackDetail: HostMessage {
    public static let type = "pack"
    /// The pack's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host.
    public var builtin: Bool
    /// Its questions.
    public var questions: [PackQuestion]

    /// Creates a pack detail.
    public init(id: String, name: String, builtin: Bool, questions: [PackQuestion]) {
        self.id = id
        self.name = name
        self.builtin = builtin
        self.questions = questions
    }

    public func line(for reader: Perspective) -> String? {
        let rows = questions.enumerated().map { index, question in
            "  \(index + 1). [\(question.difficulty)] \(question.text) → \(question.answer)"
        }
        return (["Pack \(id): \(name)"] + rows).joined(separator: "\n")
    }
}

/// The messages of the session layer, as a client reads them.
public enum SessionMessage: MessageFamily {
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

    private static let decoder = FamilyDecoder<SessionMessage>([
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
    ])

    public static var types: [String] { decoder.types }

    public static func decode(_ object: JSONObject) -> SessionMessage? { decoder.decode(object) }

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
        }
    }
}

/// What a host says about itself on the LAN (UDP discovery, PROTOCOL.md §15): beacons and answers to probes.
public struct DiscoveryBeacon: HostMessage {
    public static let type = "host"
    /// The protocol version the host speaks.
    public var `protocol` = wireProtocolVersion
    /// The host's name (the computer's, or `--name`).
    public var name: String
    /// The TCP port players connect to.
    public var port: Int
    /// The room code.
    public var room: String
    /// Players in the room.
    public var players: Int
    /// The running game's wire name, or null.
    @Nullable public var game: String?

    /// Creates a beacon.
    public init(name: String, port: Int, room: String, players: Int, game: String?) {
        self.name = name
        self.port = port
        self.room = room
        self.players = players
        self.game = game
    }
}

/// A client looking for hosts on the LAN (UDP discovery, PROTOCOL.md §15); hosts answer with a `DiscoveryBeacon`.
public struct DiscoveryProbe: Codable, Sendable, Equatable {
    /// The wire `type`.
    public static let type = "discover"
    /// The protocol version the client speaks.
    public var `protocol` = wireProtocolVersion

    /// Creates a probe.
    public init() {}

    /// The datagram.
    public var datagram: [UInt8] {
        var object: JSONObject = ["type": .string(Self.type)]
        for member in (try? JSONCoding.encode(self))?.objectValue ?? JSONObject() {
            object.append(member.key, member.value)
        }
        return JSONEncoding.encode(.object(object))
    }

    /// Whether `datagram` is a probe.
    public static func isProbe(_ datagram: [UInt8]) -> Bool {
        (try? JSONParsing.parse(datagram))?["type"]?.stringValue == type
    }
}

/// One item of a content kind in a listing (a station hunt, a word list, a puzzle pack…).
public struct ContentItem: Codable, Sendable, Equatable {
    /// Its id.
    public var id: String
    /// Its name for people.
    public var name: String
    /// Whether it ships with the host (read-only).
    public var builtin: Bool
    /// A few words about its size ("5 stations", "3 levels, 73 words").
    public var summary: String

    /// Creates an item.
    public init(id: String, name: String, builtin: Bool, summary: String) {
        self.id = id
        self.name = name
        self.builtin = builtin
        self.summary = summary
    }
}

/// The items of one content kind (reply to `{"type":KIND,"action":"list"}` or `KIND list` on the console).
public struct ContentListing: HostMessage {
    public static let type = "contents"
    /// The content kind's request type (`hunts`, `words`, `boards`, `puzzles`).
    public var kind: String
    /// The items, built-in first.
    public var items: [ContentItem]

    /// Creates a listing.
    public init(kind: String, items: [ContentItem]) {
        self.kind = kind
        self.items = items
    }

    public func line(for reader: Perspective) -> String? {
        guard !items.isEmpty else { return "No \(kind) yet." }
        // Columns line up (an id or name longer than its cap runs over instead of widening every row).
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        let idWidth = min(24, items.map(\.id.count).max() ?? 0)
        let nameWidth = min(32, items.map(\.name.count).max() ?? 0)
        let rows = items.map {
            "  \(padded($0.id, idWidth))  \(padded($0.name, nameWidth))  \($0.summary)\($0.builtin ? " (built-in)" : "")"
        }
        return ([kind.prefix(1).uppercased() + kind.dropFirst() + ":"] + rows).joined(separator: "\n")
    }
}

/// One item of a content kind in full, as its JSON file holds it (operators only: it may hold answers and codes).
public struct ContentDetail: HostMessage {
    public static let type = "content"
    /// The content kind's request type.
    public var kind: String
    /// The item's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host.
    public var builtin: Bool
    /// The item as its JSON file holds it.
    public var item: JSONValue
    /// The item for people, one line each.
    public var lines: [String]

    /// Creates a detail.
    public init(kind: String, id: String, name: String, builtin: Bool, item: JSONValue, lines: [String]) {
        self.kind = kind
        self.id = id
        self.name = name
        self.builtin = builtin
        self.item = item
        self.lines = lines
    }

    public func line(for reader: Perspective) -> String? {
        (["\(id): \(name)\(builtin ? " (built-in)" : "")"] + lines.map { "  " + $0 }).joined(separator: "\n")
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
