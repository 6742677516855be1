import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong driving the browser, in plain words (with the page's console when it helps).
public struct BrowserError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates an error that says `description`.
    public init(_ description: String) { self.description = description }
}

/// One DevTools protocol event: the session it came from (nil for the browser), its method and its parameters.
public struct DevToolsEvent: Sendable {
    /// The session the event belongs to, nil for browser-level events.
    public let sessionID: String?
    /// The event's name, such as `Page.loadEventFired`.
    public let method: String
    /// The event's parameters (an empty object when it had none).
    public let params: JSONValue
}

/// The DevTools protocol over one end of a socket pair whose other end the browser reads as fd 3 and writes as
/// fd 4 (`--remote-debugging-pipe`): JSON messages separated by NUL bytes, read by one thread, waited for under a
/// condition.
final class DevToolsConnection: @unchecked Sendable {
    /// How many recent events each session keeps for `waitForEvent`.
    static let eventsKept = 4000

    private let fd: Int32
    private let condition = NSCondition()
    private let writeLock = NSLock()
    private var nextID = 1
    private var replies: [Int: JSONValue] = [:]
    /// Recent events by session ("" for the browser), each with its number in that session's stream.
    private var events: [String: [(number: Int, event: DevToolsEvent)]] = [:]
    private var eventCounts: [String: Int] = [:]
    private var listeners: [String: @Sendable (DevToolsEvent) -> Void] = [:]
    private var closed = false
    private var unreadable = 0

    /// Starts reading `fd` (a connected stream socket this object owns and closes).
    init(fd: Int32) {
        self.fd = fd
        let thread = Thread { [self] in readLoop() }
        thread.name = "devtools-reader"
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { Glue.close(fd) }

    /// Whether the browser's end closed (it exited or crashed).
    var isClosed: Bool { condition.withLock { closed } }

    /// Ends the connection; the browser exits when it sees its pipe close.
    func shutdown() { _ = Glue.shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends a command without waiting for its reply; returns its id.
    @discardableResult
    func post(_ method: String, _ params: JSONObject = [:], session: String? = nil) throws -> Int {
        let id = condition.withLock {
            defer { nextID += 1 }
            return nextID
        }
        var message: JSONObject = ["id": .int(Int64(id)), "method": .string(method), "params": .object(params)]
        if let session { message.append("sessionId", .string(session)) }
        var bytes = JSONEncoding.encode(.object(message))
        bytes.append(0)
        try writeLock.withLock {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { pointer in
                    #if canImport(Glibc)
                        Glue.send(fd, pointer.baseAddress, pointer.count, Int32(MSG_NOSIGNAL))
                    #else
                        Glue.send(fd, pointer.baseAddress, pointer.count, 0)
                    #endif
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw BrowserError("the browser's pipe is closed (\(method) not sent)") }
                offset += written
            }
        }
        return id
    }

    /// Sends a command and waits up to `timeout` seconds for its result; a protocol error is thrown.
    @discardableResult
    func send(_ method: String, _ params: JSONObject = [:], session: String? = nil, timeout: TimeInterval = 30)
        throws -> JSONValue
    {
        let id = try post(method, params, session: session)
        let deadline = Date().addingTimeInterval(timeout)
        let reply: JSONValue = try condition.withLock {
            while true {
                if let reply = replies.removeValue(forKey: id) { return reply }
                guard !closed else { throw BrowserError("the browser closed its pipe while \(method) was waiting") }
                if !condition.wait(until: deadline) && replies[id] == nil {
                    throw BrowserError("no reply to \(method) within \(timeout) s")
                }
            }
        }
        if let error = reply["error"] {
            let message = error["message"]?.stringValue ?? error.description
            let data = error["data"]?.stringValue.map { " (\($0))" } ?? ""
            throw BrowserError("\(method) failed: \(message)\(data)")
        }
        return reply["result"] ?? .object([:])
    }

    /// How many events `session` (nil: the browser) has received so far: a mark for `waitForEvent(after:)`.
    func eventCount(session: String?) -> Int { condition.withLock { eventCounts[session ?? ""] ?? 0 } }

    /// Waits for an event `method` of `session` numbered `after` or later that satisfies `predicate`.
    func waitForEvent(
        _ method: String, session: String?, after mark: Int, timeout: TimeInterval,
        where predicate: (DevToolsEvent) -> Bool = { _ in true }
    ) throws -> DevToolsEvent {
        let deadline = Date().addingTimeInterval(timeout)
        let key = session ?? ""
        return try condition.withLock {
            while true {
                let found = events[key]?.first { entry in
                    entry.number >= mark && entry.event.method == method && predicate(entry.event)
                }
                if let found { return found.event }
                guard !closed else { throw BrowserError("the browser closed its pipe while waiting for \(method)") }
                if !condition.wait(until: deadline) {
                    throw BrowserError("no \(method) event within \(timeout) s")
                }
            }
        }
    }

    /// Waits up to `timeout` seconds for any new event of `session` after `mark` (a pause that ends early).
    func waitForAnyEvent(session: String?, after mark: Int, timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.withLock {
            while (eventCounts[session ?? ""] ?? 0) <= mark && !closed {
                if !condition.wait(until: deadline) { return }
            }
        }
    }

    /// Calls `listener` on the reader thread for every event of `session` (replacing any earlier one).
    func listen(session: String, _ listener: @escaping @Sendable (DevToolsEvent) -> Void) {
        condition.withLock { listeners[session] = listener }
    }

    /// Forgets `session`'s events and listener.
    func forget(session: String) {
        condition.withLock {
            listeners[session] = nil
            events[session] = nil
        }
    }

    private func readLoop() {
        var buffer: [UInt8] = []
        var scanned = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glue.recvOrRead(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(contentsOf: chunk[0..<count])
            while let end = buffer[scanned...].firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                scanned = 0
                deliver(message)
            }
            scanned = buffer.count
        }
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    private func deliver(_ bytes: [UInt8]) {
        guard let message = try? JSONParsing.parse(bytes) else {
            // Deeper than the house reader allows, say: a reply still ends its command's wait, with an error.
            if let id = Self.leadingID(bytes) {
                let text = String(decoding: bytes.prefix(300), as: UTF8.self)
                let error: JSONValue = ["message": .string("the browser's reply could not be read: \(text)")]
                condition.withLock {
                    replies[id] = ["id": .int(Int64(id)), "error": error]
                    condition.broadcast()
                }
            } else {
                condition.withLock { unreadable += 1 }
            }
            return
        }
        if let id = message["id"]?.intValue {
            condition.withLock {
                replies[Int(id)] = message
                condition.broadcast()
            }
            return
        }
        guard let method = message["method"]?.stringValue else { return }
        let session = message["sessionId"]?.stringValue
        let event = DevToolsEvent(sessionID: session, method: method, params: message["params"] ?? .object([:]))
        let key = session ?? ""
        let listener: (@Sendable (DevToolsEvent) -> Void)? = condition.withLock {
            let number = eventCounts[key] ?? 0
            eventCounts[key] = number + 1
            events[key, default: []].append((number, event))
            if let count = events[key]?.count, count > Self.eventsKept {
                events[key]?.removeFirst(count - Self.eventsKept / 2)
            }
            condition.broadcast()
            return listeners[key]
        }
        listener?(event)
    }

    /// The `id` of a reply that starts `{"id":N,` (as the browser writes them), for replies that do not parse.
    static func leadingID(_ bytes: [UInt8]) -> Int? {
        let prefix = Array("{\"id\":".utf8)
        guard bytes.starts(with: prefix) else { return nil }
        let digits = bytes.dropFirst(prefix.count).prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
