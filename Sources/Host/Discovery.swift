import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// LAN discovery: answers `discover` probes on the host's UDP port and sends a beacon every 1.5 s
/// to the broadcast address (and loopback) on the beacon port. See PROTOCOL.md, "Discovery".
final class Discovery {
    /// Where beacons go: the well-known port clients listen on.
    static let beaconPort: UInt16 = 4748
    let socket: Socket
    private(set) var nextBeaconAt: Int64 = 0
    private let log: Logger
    private var lastSummary: [UInt8] = Array("{}".utf8)
    private let targets: [sockaddr_in]

    init(bindAddress: String, port: UInt16, log: Logger) throws(SocketError) {
        socket = try Socket.makeDatagram(address: bindAddress, port: port)
        self.log = log
        targets = [
            try Socket.makeAddress("255.255.255.255", Discovery.beaconPort),
            try Socket.makeAddress("127.0.0.1", Discovery.beaconPort),
        ]
    }

    /// Answers every pending probe with the host's summary.
    func receive() {
        while true {
            guard let (datagram, sender) = try? socket.receiveDatagram() else { return }
            guard DiscoveryProbe.isProbe(datagram) else { continue }
            try? socket.send(datagram: lastSummary, to: sender)
        }
    }

    /// Sends a beacon when one is due; `summary` describes the host.
    func beaconIfDue(now: Int64, summary: DiscoveryBeacon) {
        lastSummary = JSONEncoding.encode(summary.json)
        guard now >= nextBeaconAt else { return }
        nextBeaconAt = now + 1500
        let bytes = lastSummary
        for target in targets {
            do {
                try socket.send(datagram: bytes, to: target)
            } catch {
                log.debug("Discovery beacon not sent: \(error)")
            }
        }
    }
}
