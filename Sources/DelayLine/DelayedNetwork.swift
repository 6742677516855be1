import Foundation
import Net

#if canImport(Glibc)
    import CSystem
    import Glibc
#endif

/// A packet-level test network: the host's namespace joined to one client namespace per link through TUN devices,
/// with a forwarder delaying every packet per direction, so TCP itself sees the delay, as on a real network.
///
/// Link `k` (counting from 0) joins host address `10.201.(k+1).1` to client address `10.201.(k+1).2`. Start the
/// host inside with `launchPrefix` (`ip netns exec …`), bound to 0.0.0.0 there; open client sockets with
/// `connect(link:port:)`. Nothing leaves these namespaces. Needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN),
/// `/dev/net/tun` and iproute2; `unavailableReason` says what is missing. `close()` (or deinit) removes everything,
/// and the next network sweeps away namespaces left by a test process that died.
public final class DelayedNetwork: @unchecked Sendable {
    /// What one link delays.
    public struct LinkDelay: Equatable, Sendable, CustomStringConvertible {
        /// Host → client.
        public var down: OneWayDelay
        /// Client → host.
        public var up: OneWayDelay

        /// A link with its own delay each way.
        public init(down: OneWayDelay, up: OneWayDelay) {
            self.down = down
            self.up = up
        }

        /// The same delay both ways.
        public static func symmetric(_ milliseconds: Double, jitter: Double = 0) -> LinkDelay {
            LinkDelay(down: OneWayDelay(milliseconds, jitter: jitter), up: OneWayDelay(milliseconds, jitter: jitter))
        }

        public var description: String { down == up ? "\(down) each way" : "\(down) down / \(up) up" }
    }

    /// The host's namespace.
    public let hostNamespace: NetworkNamespace
    /// One namespace per link, for its clients.
    public let clientNamespaces: [NetworkNamespace]
    /// The links' delays, in link order.
    public let links: [LinkDelay]
    private let forwarder: PacketForwarder

    nonisolated(unsafe) private static var serial = 0
    private static let serialLock = NSLock()

    /// Why this machine cannot build a delayed network (not root, no TUN device, no `ip`), or nil when it can.
    public static var unavailableReason: String? {
        #if canImport(Glibc)
            if geteuid() != 0 { return "the packet-level delay line needs root (network namespaces and TUN devices)" }
            if access("/dev/net/tun", R_OK | W_OK) != 0 { return "the packet-level delay line needs /dev/net/tun" }
            if !FileManager.default.isExecutableFile(atPath: NetworkNamespace.ipTool) {
                return "the packet-level delay line needs iproute2's ip"
            }
            return nil
        #else
            return "the packet-level delay line needs Linux network namespaces"
        #endif
    }

    /// Builds the namespaces, devices and addresses for `links` and starts forwarding (jitter seeded by `seed`).
    public init(links: [LinkDelay], seed: UInt64 = 1) throws {
        if let reason = DelayedNetwork.unavailableReason { throw DelayLineError(reason) }
        guard !links.isEmpty, links.count <= 200 else { throw DelayLineError("a delayed network has 1…200 links") }
        NetworkNamespace.sweepAbandoned()
        let number = DelayedNetwork.serialLock.withLock {
            DelayedNetwork.serial += 1
            return DelayedNetwork.serial
        }
        self.links = links
        var made: [NetworkNamespace] = []
        var devices: [Int32] = []
        do {
            let host = try NetworkNamespace(suffix: "\(number)-host")
            made.append(host)
            var clients: [NetworkNamespace] = []
            var pairs: [PacketForwarder.Link] = []
            for (index, delay) in links.enumerated() {
                let client = try NetworkNamespace(suffix: "\(number)-c\(index)")
                made.append(client)
                clients.append(client)
                let hostDevice = try host.run { try DelayedNetwork.openTUN("plh\(index)") }
                devices.append(hostDevice)
                let clientDevice = try client.run { try DelayedNetwork.openTUN("plc\(index)") }
                devices.append(clientDevice)
                let subnet = "10.201.\(index + 1)"
                try host.ip(["addr", "add", "\(subnet).1/24", "dev", "plh\(index)"])
                try host.ip(["link", "set", "plh\(index)", "up"])
                try client.ip(["addr", "add", "\(subnet).2/24", "dev", "plc\(index)"])
                try client.ip(["link", "set", "plc\(index)", "up"])
                pairs.append(
                    PacketForwarder.Link(
                        hostSide: hostDevice, clientSide: clientDevice,
                        down: delay.down, up: delay.up))
            }
            forwarder = try PacketForwarder(links: pairs, seed: seed)
            hostNamespace = host
            clientNamespaces = clients
        } catch {
            for fd in devices { Glue.close(fd) }
            for namespace in made { namespace.remove() }
            throw error
        }
    }

    deinit { close() }

    /// Stops forwarding, kills what still runs in the namespaces and removes them; idempotent.
    public func close() {
        forwarder.stop()
        for namespace in clientNamespaces { namespace.remove() }
        hostNamespace.remove()
    }

    /// The host's address on link `link`, as its clients reach it.
    public func hostAddress(link: Int) -> String { "10.201.\(link + 1).1" }

    /// A client's address on link `link`, as the host sees it.
    public func clientAddress(link: Int) -> String { "10.201.\(link + 1).2" }

    /// The command prefix that starts a program in the host's namespace (`ip netns exec …`).
    public var hostLaunchPrefix: [String] { hostNamespace.launchPrefix }

    /// Packets forwarded so far, per link.
    public var forwarded: [PacketForwarder.Counts] { forwarder.forwarded }

    /// How late the forwarder has moved packets since the last call (or since the network was built), and starts
    /// counting afresh: what a busy machine added to the links' delays.
    public func takeLateness() -> PacketForwarder.Lateness { forwarder.takeLateness() }

    /// Opens a blocking TCP connection from link `link`'s client namespace to the host's `port` there.
    public func connect(link: Int, port: UInt16) throws -> Socket {
        let address = hostAddress(link: link)
        return try clientNamespaces[link].run { () throws -> Socket in
            try Socket.connectBlocking(host: address, port: port)
        }
    }

    /// Runs `body` on a thread in link `link`'s client namespace (sockets it opens stay there).
    public func inClientNamespace<T>(link: Int, _ body: @escaping @Sendable () throws -> T) throws -> T {
        try clientNamespaces[link].run(body)
    }

    /// Runs `body` on a thread in the host's namespace (a listener it opens stays there).
    public func inHostNamespace<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        try hostNamespace.run(body)
    }

    /// Opens /dev/net/tun in the calling thread's namespace as a new non-blocking TUN device `name`.
    static func openTUN(_ name: String) throws -> Int32 {
        #if canImport(Glibc)
            let fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw DelayLineError("cannot open /dev/net/tun: \(String(cString: strerror(errno)))") }
            guard partyline_attach_tun(fd, name) == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw DelayLineError("cannot create TUN device \(name): \(reason)")
            }
            return fd
        #else
            throw DelayLineError("TUN devices need Linux")
        #endif
    }
}
