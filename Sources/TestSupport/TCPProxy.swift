import Foundation
import Net
import Rules

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on 127.0.0.1 between test clients and the host: it can delay every byte it forwards by a one-way delay
/// ± jitter, per direction, and cut every connection at once as a flaky network would.
///
/// Each accepted connection gets its own connection to the target. A chunk read from one side is released to the
/// other at `max(previous release, arrival + delay + jitter)`: jitter varies the latency but never reorders bytes,
/// as TCP would not. One thread per direction; the jitter comes from a seeded generator, so runs repeat.
public final class TCPProxy {
    /// The port clients connect to.
    public let port: UInt16
    private let relay: Relay

    /// Listens on an ephemeral loopback port and forwards to `127.0.0.1:targetPort` with `delay` ± `jitter` ms each
    /// way (none by default); `seed` varies the jitter.
    public init(to targetPort: UInt16, delay: Double = 0, jitter: Double = 0, seed: UInt64 = 0) throws {
        relay = try Relay(targetPort: targetPort, delay: delay, jitter: jitter, seed: seed)
        port = relay.port
    }

    deinit { relay.stop() }

    /// Closes every connection it relays now (new ones are still accepted and relayed).
    public func cut() { relay.cut() }

    /// Stops accepting, closes every relayed connection and waits briefly for its threads to end.
    public func stop() { relay.stop() }
}

/// The proxy's threads and sockets, shared by its threads and its handle.
private final class Relay: @unchecked Sendable {
    /// The port clients connect to.
    let port: UInt16
    private let targetPort: UInt16
    private let listener: Socket
    private let delayMilliseconds: Double
    private let jitterMilliseconds: Double
    private let lock = NSLock()
    private var isStopped = false
    private var sockets: [Socket] = []
    private var connectionCount: UInt64 = 0
    private var runningThreads = 0
    private let seed: UInt64

    init(targetPort: UInt16, delay: Double, jitter: Double, seed: UInt64) throws {
        self.seed = seed
        self.targetPort = targetPort
        delayMilliseconds = delay
        jitterMilliseconds = jitter
        do {
            listener = try Socket.makeListener(address: "127.0.0.1", port: 0)
            port = try listener.localPort()
        } catch {
            throw HarnessError("the proxy cannot listen: \(error)")
        }
        startThread { $0.acceptLoop() }
    }

    /// Shuts every relayed connection down; their threads then end.
    func cut() {
        let current = lock.withLock { sockets }
        for socket in current { _ = Glue.shutdown(socket.fd, Int32(SHUT_RDWR)) }
    }

    /// Stops accepting, closes every relayed connection and waits briefly for the threads to end.
    func stop() {
        let toClose: [Socket] = lock.withLock {
            guard !isStopped else { return [] }
            isStopped = true
            return sockets
        }
        for socket in toClose { _ = Glue.shutdown(socket.fd, Int32(SHUT_RDWR)) }
        // A descriptor is closed only once no thread can touch it again: closed under a running thread, its number
        // could be another test's new socket by the time that thread reads or writes it.
        let deadline = Date().addingTimeInterval(Patience.generous)
        while lock.withLock({ runningThreads > 0 }) && Date() < deadline { usleep(5_000) }
        guard lock.withLock({ runningThreads == 0 }) else { return }  // left open rather than closed under a thread
        lock.withLock {
            for socket in sockets { socket.close() }
            sockets.removeAll()
        }
        listener.close()
    }

    private var stopped: Bool { lock.withLock { isStopped } }

    private func startThread(_ body: @escaping @Sendable (Relay) -> Void) {
        lock.withLock { runningThreads += 1 }
        let thread = Thread { [self] in
            body(self)
            lock.withLock { runningThreads -= 1 }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func acceptLoop() {
        while !stopped {
            var descriptor = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            guard let (client, _) = try? listener.accept() else { continue }
            guard let upstream = try? Socket.connectBlocking(host: "127.0.0.1", port: targetPort) else {
                client.close()
                continue
            }
            for socket in [client, upstream] {
                var one: Int32 = 1
                setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                let flags = fcntl(socket.fd, F_GETFL, 0)
                _ = fcntl(socket.fd, F_SETFL, flags & ~O_NONBLOCK)  // writes block; reads go through poll
            }
            let number: UInt64 = lock.withLock {
                sockets += [client, upstream]
                connectionCount += 1
                return connectionCount
            }
            startThread { $0.pump(from: client, to: upstream, seed: number &* 2) }
            startThread { $0.pump(from: upstream, to: client, seed: number &* 2 &+ 1) }
        }
    }

    /// Forwards `source` to `destination` with the delay, until either side closes or the proxy stops.
    private func pump(from source: Socket, to destination: Socket, seed: UInt64) {
        var random = SplitMix64(seed: 0x5EED_0000 &+ (self.seed << 20) &+ seed)
        var queue: [(release: Int64, bytes: [UInt8])] = []
        var lastRelease: Int64 = 0
        var isSourceOpen = true
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !stopped && (isSourceOpen || !queue.isEmpty) {
            let now = MonotonicClock.nanoseconds()
            if let head = queue.first, head.release <= now {
                queue.removeFirst()
                guard Self.writeAll(head.bytes, to: destination) else { break }
                continue
            }
            var timeout: Int32 = 50
            if let head = queue.first {
                // Wake a little early and spin the rest, so releases are not late by a scheduler tick.
                let left = head.release - now
                timeout = left > 1_500_000 ? Int32(clamping: (left - 1_000_000) / 1_000_000) : 0
            }
            guard isSourceOpen else {
                usleep(timeout > 0 ? UInt32(timeout) * 1000 : 100)
                continue
            }
            var descriptor = pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, timeout) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { Glue.recv(source.fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                isSourceOpen = false
                continue
            }
            let arrival = MonotonicClock.nanoseconds()
            let jitter =
                jitterMilliseconds > 0 ? Double.random(in: -jitterMilliseconds...jitterMilliseconds, using: &random) : 0
            let release = max(lastRelease, arrival + Int64((delayMilliseconds + jitter) * 1_000_000))
            lastRelease = release
            queue.append((release, Array(chunk[0..<count])))
        }
        _ = Glue.shutdown(destination.fd, Int32(SHUT_WR))  // pass the end of stream on
    }

    private static func writeAll(_ bytes: [UInt8], to socket: Socket) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glue.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
