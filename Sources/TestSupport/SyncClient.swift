import DelayLine
import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A player connection with its own clock that answers the host's clock-sync probes from its reader thread.
///
/// Its clock is the monotonic clock plus `clockOffset`, so every client reads a different time and the host has
/// to estimate each offset. Probes are answered the moment they arrive (receipt time taken right after `recv`);
/// every other message waits in an inbox for `waitFor`.
public final class SyncClient: @unchecked Sendable {
    /// How far this client's clock is from the monotonic clock, in ms.
    public let clockOffset: Int64
    private let socket: Socket
    private let condition = NSCondition()
    private let writeLock = NSLock()
    private var inbox: [(at: Int64, message: JSONValue)] = []
    private var isOpen = true
    private var answeredProbes = 0
    private var lastProbe: JSONValue?
    private var readerThreadID: Int32?
    /// A cheat for tests: hold every sync reply this long while claiming it was sent at once (`c1 = c2`).
    private let syncReplyDelay: Int64

    /// Connects to `port` on loopback, sends `hello` and waits for `welcome`.
    public convenience init(port: UInt16, hello: JSONObject, clockOffset: Int64 = 0, syncReplyDelay: Int64 = 0) throws {
        let socket: Socket
        do {
            socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
        } catch {
            throw HarnessError("connecting a fairness client failed: \(error)")
        }
        try self.init(socket: socket, hello: hello, clockOffset: clockOffset, syncReplyDelay: syncReplyDelay)
    }

    /// Takes over an already connected blocking `socket` (one opened in another network namespace, say), sends
    /// `hello` and waits for `welcome`; the socket is closed with the client.
    public init(socket: Socket, hello: JSONObject, clockOffset: Int64 = 0, syncReplyDelay: Int64 = 0) throws {
        self.socket = socket
        self.syncReplyDelay = syncReplyDelay
        self.clockOffset = clockOffset
        var one: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let thread = Thread { [self] in readLoop() }
        thread.stackSize = 1 << 20
        thread.start()
        try send(hello)
        _ = try waitFor("welcome")
    }

    deinit { socket.close() }

    /// This client's clock: monotonic milliseconds shifted by `clockOffset`.
    public func clock() -> Int64 { MonotonicClock.milliseconds() + clockOffset }

    /// Ends the connection (the reader thread then ends too).
    public func close() { _ = Glue.shutdown(socket.fd, Int32(SHUT_RDWR)) }

    /// Sends a JSON message as one line (safe from any thread).
    public func send(_ message: JSONObject) throws {
        let bytes = JSONEncoding.encodeLine(.object(message))
        try writeLock.withLock {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Glue.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw HarnessError("a fairness client's send failed: errno \(errno)") }
                offset += written
            }
        }
    }

    /// The thread that reads this connection and answers its probes (a kernel thread id), for a timed test to raise
    /// its priority (`RealTime`); nil where unknown.
    public var readerThread: Int32? { condition.withLock { readerThreadID } }

    /// How many probes were answered, and the latest probe (it carries the host's `offset`, `rtt`, `uncertainty`).
    public var syncState: (answered: Int, last: JSONValue?) { condition.withLock { (answeredProbes, lastProbe) } }

    /// Waits until at least `count` probes were answered.
    public func waitForSyncs(_ count: Int, timeout: Double = Patience.generous) throws {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while answeredProbes < count {
            guard isOpen, condition.wait(until: deadline) || answeredProbes >= count else {
                throw HarnessError("only \(answeredProbes) of \(count) sync probes arrived within \(timeout) s")
            }
        }
    }

    /// Waits for a message of `type` matching `predicate`; other messages stay in the inbox.
    @discardableResult
    public func waitFor(
        _ type: String, timeout: Double = Patience.generous, where predicate: (JSONValue) -> Bool = { _ in true }
    )
        throws -> JSONValue
    {
        try waitForTimed(type, timeout: timeout, where: predicate).message
    }

    /// Buzzes now, stamping the press with this client's clock less `lie` ms (a forged, earlier press).
    public func buzz(forgedBy lie: Int64 = 0) throws {
        try send(["type": "buzz", "t": .int(clock() - lie)])
    }

    /// Waits for a message of `type` matching `predicate`; returns it with the monotonic ns it was read.
    /// Other messages stay in the inbox.
    public func waitForTimed(
        _ type: String, timeout: Double = Patience.generous, where predicate: (JSONValue) -> Bool = { _ in true }
    )
        throws -> (at: Int64, message: JSONValue)
    {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let matches = { (entry: (at: Int64, message: JSONValue)) in
                entry.message["type"]?.stringValue == type && predicate(entry.message)
            }
            if let index = inbox.firstIndex(where: matches) {
                return inbox.remove(at: index)
            }
            guard isOpen else { throw HarnessError("a fairness client's connection closed while waiting for \(type)") }
            if !condition.wait(until: deadline) {
                let recent = inbox.suffix(4).map(\.message.description).joined(separator: " | ")
                throw HarnessError("no \(type) message within \(timeout) s; last received: \(recent)")
            }
        }
    }

    /// Forgets every message received so far, except those of type `kept`.
    public func drain(keeping kept: String? = nil) {
        condition.withLock { inbox.removeAll { kept == nil || $0.message["type"]?.stringValue != kept } }
    }

    private func readLoop() {
        let thread = RunQueue.currentThreadID()
        condition.withLock { readerThreadID = thread }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
            let receivedAt = MonotonicClock.nanoseconds()
            let received = receivedAt / 1_000_000 + clockOffset
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(contentsOf: chunk[0..<count])
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                guard let message = try? JSONParsing.parse(line) else { continue }
                if message["type"]?.stringValue == "sync", let sequence = message["n"], let hostSent = message["h"] {
                    if syncReplyDelay > 0 {
                        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(syncReplyDelay))) {
                            [self] in
                            let sent = clock()
                            try? send([
                                "type": "sync", "n": sequence, "h": hostSent, "c1": .int(sent), "c2": .int(sent),
                            ])
                        }
                    } else {
                        try? send([
                            "type": "sync", "n": sequence, "h": hostSent, "c1": .int(received), "c2": .int(clock()),
                        ])
                    }
                    condition.withLock {
                        answeredProbes += 1
                        lastProbe = message
                        condition.broadcast()
                    }
                } else if message["type"]?.stringValue == "ping" {
                    try? send(["type": "pong"])
                } else {
                    condition.withLock {
                        inbox.append((receivedAt, message))
                        condition.broadcast()
                    }
                }
            }
        }
        condition.withLock {
            isOpen = false
            condition.broadcast()
        }
    }
}
