import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Looks for hosts on the LAN: probes the discovery port (broadcast and loopback) and listens for beacons.
final class DiscoveryScanner {
    /// The UDP port hosts send beacons to.
    static let beaconPort: UInt16 = 4748
    /// How often probes are repeated while scanning (as often as the beacons).
    static let probeInterval: Int64 = 1500

    let probePort: UInt16
    private(set) var list = DiscoveryList()
    private let poller: Poller
    private let probeSocket: Socket?
    private let beaconSocket: Socket?
    private var nextProbeAt: Int64 = 0

    /// Opens the sockets; either may fail (no beacons when another program holds the port without sharing it).
    init(probePort: UInt16) throws(SocketError) {
        self.probePort = probePort
        poller = try Poller()
        probeSocket = try? Network.datagramSocket(port: 0, isShared: false)
        beaconSocket = try? Network.datagramSocket(port: DiscoveryScanner.beaconPort, isShared: true)
        for socket in [probeSocket, beaconSocket].compactMap({ $0 }) { try? poller.add(socket.fd, interest: .read) }
    }

    deinit {
        probeSocket?.close()
        beaconSocket?.close()
    }

    /// Scans for `milliseconds`, then returns the live list.
    func scan(for milliseconds: Int64) -> [DiscoveredHost] {
        let end = MonotonicClock.milliseconds() + milliseconds
        while true {
            let now = MonotonicClock.milliseconds()
            if now >= end { break }
            if now >= nextProbeAt {
                sendProbes()
                nextProbeAt = now + DiscoveryScanner.probeInterval
            }
            let wait = Int32(clamping: max(1, min(end, nextProbeAt) - now))
            guard let ready = try? poller.wait(timeoutMilliseconds: wait) else { break }
            for readiness in ready where !poller.isWakeUp(readiness.fd) { receive(on: readiness.fd) }
        }
        return list.hosts(at: MonotonicClock.milliseconds())
    }

    private func sendProbes() {
        guard let probeSocket else { return }
        for target in ["255.255.255.255", "127.0.0.1"] {
            if let address = try? Socket.makeAddress(target, probePort) {
                try? probeSocket.send(datagram: DiscoveryList.probe, to: address)
            }
        }
    }

    private func receive(on fd: Int32) {
        guard let socket = [probeSocket, beaconSocket].compactMap({ $0 }).first(where: { $0.fd == fd }) else { return }
        while let (datagram, sender) = try? socket.receiveDatagram() {
            list.receive(datagram, from: Socket.addressText(sender), at: MonotonicClock.milliseconds())
        }
    }

    /// Asks one host for its summary (to learn its room code); nil when it does not answer within `timeout` ms.
    static func ask(_ address: sockaddr_in, timeout: Int64 = 700) -> DiscoveredHost? {
        guard let socket = try? Network.datagramSocket(port: 0, isShared: false) else { return nil }
        defer { socket.close() }
        var list = DiscoveryList()
        let end = MonotonicClock.milliseconds() + timeout
        var nextSend: Int64 = 0
        while true {
            let now = MonotonicClock.milliseconds()
            if now >= end { return nil }
            if now >= nextSend {
                try? socket.send(datagram: DiscoveryList.probe, to: address)
                nextSend = now + 250
            }
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(clamping: max(1, min(end, nextSend) - now)))
            while let (datagram, sender) = try? socket.receiveDatagram() {
                if list.receive(datagram, from: Socket.addressText(sender), at: now) { return list.entries.first }
            }
        }
    }
}
