import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking connection to the host that reads lines on demand and records every byte it receives.
///
/// Waits take the first matching line and leave the others pending for later waits.
public final class TestClient {
    /// The connected socket.
    public let socket: Socket
    private var buffer: [UInt8] = []
    /// Every byte received, for secrecy checks.
    public private(set) var transcript: [UInt8] = []
    /// Lines received and not yet taken by a wait.
    public private(set) var pending: [String] = []
    /// The resume token from the welcome, when joined through `HostProcess.join`.
    public var token: String?
    /// Whether the host closed the connection.
    public private(set) var isClosed = false

    /// Connects to 127.0.0.1:`port`, from the local address `source` when given (127.0.0.2 looks like another
    /// machine to the host).
    public init(port: UInt16, from source: String? = nil) throws {
        socket = try Socket.connectBlocking(host: "127.0.0.1", port: port, from: source)
    }

    deinit { socket.close() }

    /// Sends `bytes` as they are.
    public func send(raw bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { pointer in
                Glue.send(socket.fd, pointer.baseAddress, pointer.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw HarnessError("send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Sends a text line (text mode).
    public func send(line: String) throws { try send(raw: Array((line + "\n").utf8)) }

    /// Sends a JSON message as one line.
    public func send(_ message: JSONObject) throws { try send(raw: JSONEncoding.encodeLine(.object(message))) }

    /// Reads what arrives within `timeout` seconds into `pending`; returns false once the host closed.
    @discardableResult
    public func pump(timeout: TimeInterval) -> Bool {
        guard !isClosed else { return false }
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout * 1000)))
        guard ready > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { return true }
        if count <= 0 {
            isClosed = true
            return false
        }
        transcript.append(contentsOf: chunk[0..<count])
        buffer.append(contentsOf: chunk[0..<count])
        while let newline = buffer.firstIndex(of: 0x0A) {
            var line = Array(buffer[..<newline])
            if line.last == 0x0D { line.removeLast() }
            buffer.removeSubrange(...newline)
            pending.append(String(decoding: line, as: UTF8.self))
        }
        return true
    }

    /// The next line, waiting up to `timeout` seconds.
    public func nextLine(timeout: TimeInterval = Patience.generous) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while pending.isEmpty {
            guard Date() < deadline else { throw HarnessError("no line within \(timeout) s") }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty {
                throw HarnessError("connection closed")
            }
        }
        return pending.removeFirst()
    }

    /// Waits for a JSON message of `type` that satisfies `predicate`; messages of other types stay pending.
    @discardableResult
    public func waitFor(
        _ type: String, timeout: TimeInterval = Patience.generous,
        where predicate: (JSONValue) -> Bool = { _ in true }
    ) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var scanned = 0
        while true {
            while scanned < pending.count {
                let line = pending[scanned]
                if let value = try? JSONParsing.parse(line), value["type"]?.stringValue == type, predicate(value) {
                    pending.remove(at: scanned)
                    return value
                }
                scanned += 1
            }
            guard Date() < deadline else {
                throw HarnessError(
                    "no \(type) message within \(timeout) s; pending: \(pending.suffix(6).joined(separator: " | "))")
            }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty {
                throw HarnessError("connection closed while waiting for \(type)")
            }
        }
    }

    /// The growing states followed by `waitForState`, by the type of their whole message.
    private var followed: [String: any GrowingState] = [:]

    /// Waits until the growing state `State` (PROTOCOL.md §6.0) — its last whole message with the deltas since
    /// applied, as a client follows them — satisfies `predicate`, and returns it. That state's messages are taken
    /// from the pending lines in order; a delta that does not follow is an error (a test sees no gaps).
    @discardableResult
    public func waitForState<State: GrowingState>(
        _ state: State.Type, timeout: TimeInterval = Patience.generous, where predicate: (State) -> Bool = { _ in true }
    ) throws -> State {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var index = 0
            while index < pending.count {
                guard let object = (try? JSONParsing.parse(pending[index]))?.objectValue,
                    let type = object["type"]?.stringValue, type == State.type || type == State.Delta.type
                else {
                    index += 1
                    continue
                }
                pending.remove(at: index)
                let held = followed[State.type] as? State
                if let whole = State.decode(object) {
                    followed[State.type] = whole
                } else if let delta = State.Delta.decode(object) {
                    switch State.follow(held, with: delta) {
                    case .updated(let next): followed[State.type] = next
                    case .stale: break
                    case .gap:
                        let holding = held.map { "\($0)" } ?? "nothing"
                        throw HarnessError("\(type) \(object) does not follow \(holding)")
                    }
                }
                if let current = followed[State.type] as? State, predicate(current) { return current }
            }
            guard Date() < deadline else {
                let holding = followed[State.type].map { "\($0)" } ?? "none"
                throw HarnessError("no \(State.type) as wanted within \(timeout) s; holding \(holding)")
            }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty {
                throw HarnessError("connection closed while waiting for \(State.type)")
            }
        }
    }

    /// Waits for a text line containing `fragment`, dropping the lines before it.
    public func waitForText(_ fragment: String, timeout: TimeInterval = Patience.generous) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while !pending.isEmpty {
                let line = pending.removeFirst()
                if line.contains(fragment) { return line }
            }
            guard Date() < deadline else {
                let tail = transcriptText.split(separator: "\n").suffix(6).joined(separator: " ⏎ ")
                throw HarnessError("no line containing \"\(fragment)\" within \(timeout) s; the last lines: \(tail)")
            }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty {
                throw HarnessError("connection closed while waiting for \"\(fragment)\"")
            }
        }
    }

    /// Every JSON message that arrives within `duration` seconds (with those pending), taking them all.
    public func collect(for duration: TimeInterval) -> [JSONValue] {
        let deadline = Date().addingTimeInterval(duration)
        while Date() < deadline { if !pump(timeout: deadline.timeIntervalSinceNow) { break } }
        defer { pending.removeAll() }
        return pending.compactMap { try? JSONParsing.parse($0) }
    }

    /// Waits until the host closes the connection; false when it did not within `timeout` seconds.
    public func waitForClose(timeout: TimeInterval = Patience.generous) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline { if !pump(timeout: 0.2) { return true } }
        return false
    }

    /// The transcript as text.
    public var transcriptText: String { String(decoding: transcript, as: UTF8.self) }
}
