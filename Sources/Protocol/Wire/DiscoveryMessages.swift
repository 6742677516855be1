// What a host says about itself on the LAN, and what a client asks (UDP discovery, PROTOCOL.md §15).

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
