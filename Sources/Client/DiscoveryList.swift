import Protocol

/// A host found on the LAN.
struct DiscoveredHost: Equatable, Sendable {
    /// The host's name (its computer name or `--name`).
    var name: String
    /// The IPv4 address the answer came from.
    var address: String
    /// The host's TCP port.
    var port: UInt16
    /// The room code.
    var room: String
    /// Players in the room.
    var players: Int
    /// The running game, if any.
    var game: String?
    /// Client ms when it was last heard.
    var lastHeardAt: Int64

    /// `ABCD at 192.168.1.20:4747 — Living room, 3 players, playing shaky`.
    var summary: String {
        "room \(room) at \(address):\(port) — \(name), \(players) player\(players == 1 ? "" : "s")"
            + (game.map { ", playing \($0)" } ?? ", in the lobby")
    }
}

/// The hosts heard on the LAN: discovery answers and beacons in (with timestamps), the live list out.
///
/// A pure value: entries are keyed by host name, port and room (one host heard on loopback and on
/// its LAN address is listed once) and vanish when not heard for `staleAfter` ms (three missed beacons).
struct DiscoveryList: Equatable, Sendable {
    /// How long an entry lives without being heard again: three beacons of 1.5 s.
    static let staleAfter: Int64 = 4500

    private(set) var entries: [DiscoveredHost] = []

    /// Creates an empty list.
    init() {}

    /// What the client asks when `count` hosts answered: with one there is nothing to choose between.
    static func joinQuestion(hostCount count: Int) -> String {
        count == 1
            ? "Join it? [Enter = yes, r = search again, or an address]: "
            : "Join which host? [1-\(count), Enter = 1, r = search again, or an address]: "
    }

    /// The probe a client sends to find hosts.
    static var probe: [UInt8] {
        DiscoveryProbe().datagram
    }

    /// Takes in one datagram from `address` at client time `now`; returns whether it described a host.
    @discardableResult
    mutating func receive(_ datagram: [UInt8], from address: String, at now: Int64) -> Bool {
        guard case .object(let object)? = try? JSONParsing.parse(datagram), let beacon = DiscoveryBeacon.decode(object),
            let validPort = UInt16(exactly: beacon.port), validPort > 0, !beacon.room.isEmpty,
            beacon.protocol == wireProtocolVersion
        else { return false }
        let host = DiscoveredHost(
            name: beacon.name, address: address, port: validPort, room: beacon.room, players: beacon.players,
            game: beacon.game, lastHeardAt: now)
        if let index = entries.firstIndex(where: {
            $0.name == host.name && $0.port == host.port && $0.room == host.room
        }) {
            let keptAddress = entries[index].address
            entries[index] = host
            // keep the first address heard unless the new one is a LAN address replacing loopback
            if !(keptAddress.hasPrefix("127.") && !address.hasPrefix("127.")) { entries[index].address = keptAddress }
        } else {
            entries.append(host)
        }
        return true
    }

    /// The hosts heard within the last `staleAfter` ms before `now`, in the order first found.
    func hosts(at now: Int64) -> [DiscoveredHost] {
        entries.filter { now - $0.lastHeardAt <= DiscoveryList.staleAfter }
    }

    /// Forgets stale entries.
    mutating func prune(at now: Int64) {
        entries = hosts(at: now)
    }
}
