import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw WebSocket client of the host for the end-to-end tests: it upgrades with a handshake it writes itself,
/// masks what it sends, and reads the host's frames one by one, so a test can send any frame, broken ones too.
///
/// Text frames are protocol-1 JSON messages; waits take the first match and leave the others pending.
public final class WebSocketTestClient {
    /// One frame from the host.
    public struct Frame: Equatable, Sendable {
        /// Whether FIN was set.
        public var fin: Bool
        /// The opcode.
        public var opcode: UInt8
        /// The payload.
        public var payload: [UInt8]
    }

    /// The connected socket.
    public let socket: Socket
    /// The host's `101` head, as text.
    public let handshake: String
    private var buffer: [UInt8] = []
    /// Frames received and not yet taken.
    public private(set) var frames: [Frame] = []
    /// Text messages received and not yet taken by a wait.
    public private(set) var pending: [String] = []
    /// Every byte received after the handshake.
    public private(set) var transcript: [UInt8] = []
    /// Whether the host closed the TCP connection.
    public private(set) var isClosed = false
    /// Whether pings from the host are answered (as a browser does); the test of a silent page turns it off.
    public var answersPings = true
    /// The resume token from the welcome, when joined through `join`.
    public var token: String?

    /// The mask every frame of this client uses (any four bytes do; fixed so transcripts repeat).
    public static let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    /// The text of an upgrade request for `path` with `key`, `Host: host`, and `Origin` when given.
    public static func upgradeRequest(
        host: String, path: String = "/ws", key: String = "dGhlIHNhbXBsZSBub25jZQ==", origin: String? = nil,
        version: String = "13"
    ) -> String {
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(version)\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        return request + "\r\n"
    }

    /// Connects to 127.0.0.1:`port` and upgrades (with `Origin: http://127.0.0.1:port`), sending the request in
    /// pieces of `chunk` bytes when given; throws unless the host answers `101`.
    public init(port: UInt16, chunk: Int? = nil, timeout: TimeInterval = 10) throws {
        socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
        let request = Array(
            Self.upgradeRequest(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)").utf8)
        if let chunk {
            for start in stride(from: 0, to: request.count, by: chunk) {
                try Self.write(request[start..<min(start + chunk, request.count)], to: socket)
            }
        } else {
            try Self.write(request[...], to: socket)
        }
        let deadline = Date().addingTimeInterval(timeout)
        var head: [UInt8] = []
        while true {
            if let end = Self.headEnd(in: head) {
                buffer = Array(head[end...])
                head = Array(head[..<end])
                break
            }
            guard Date() < deadline else { throw HarnessError("no handshake answer within \(timeout) s") }
            guard let bytes = Self.read(socket, timeout: deadline.timeIntervalSinceNow) else {
                throw HarnessError("the host closed during the handshake: \(String(decoding: head, as: UTF8.self))")
            }
            head += bytes
        }
        handshake = String(decoding: head, as: UTF8.self)
        guard handshake.hasPrefix("HTTP/1.1 101 ") else { throw HarnessError("the upgrade was refused: \(handshake)") }
        transcript = buffer
        parseFrames()
    }

    deinit { socket.close() }

    /// Where the head ends (after its empty line) in `bytes`, when it does.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Writes all of `bytes`.
    static func write(_ bytes: ArraySlice<UInt8>, to socket: Socket) throws {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { pointer in
                Glue.send(socket.fd, pointer.baseAddress, pointer.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw HarnessError("send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Bytes that arrive within `timeout` seconds (empty when none did); nil once the peer closed.
    static func read(_ socket: Socket, timeout: TimeInterval) -> [UInt8]? {
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout * 1000)))
        guard ready > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { return [] }
        guard count > 0 else { return nil }
        return Array(chunk[0..<count])
    }

    // MARK: Sending

    /// Sends bytes as they are (a hand-made frame, broken ones included).
    public func send(raw bytes: [UInt8]) throws { try Self.write(bytes[...], to: socket) }

    /// Sends one masked frame.
    public func send(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true) throws {
        try send(
            raw: WebSocketFrame.encode(opcode: opcode, payload: payload, fin: fin, mask: masked ? Self.mask : nil))
    }

    /// Sends a text message in one frame.
    public func send(text: String) throws { try send(opcode: WebSocketFrame.text, payload: Array(text.utf8)) }

    /// Sends a JSON message in one text frame, without a newline.
    public func send(_ message: JSONObject) throws {
        var line = JSONEncoding.encodeLine(.object(message))
        if line.last == 0x0A { line.removeLast() }
        try send(opcode: WebSocketFrame.text, payload: line)
    }

    /// Sends a `hello` as a player of `team` and waits for the welcome (keeping the token).
    @discardableResult
    public func join(room: String, name: String, team: String) throws -> JSONValue {
        try send([
            "type": "hello", "protocol": 1, "room": .string(room), "name": .string(name), "team": .string(team),
            "role": "player",
        ])
        let welcome = try waitFor("welcome")
        token = welcome["token"]?.stringValue
        return welcome
    }

    // MARK: Receiving

    /// Reads what arrives within `timeout` seconds; false once the host closed the TCP connection.
    @discardableResult
    public func pump(timeout: TimeInterval) -> Bool {
        guard !isClosed else { return false }
        guard let bytes = Self.read(socket, timeout: timeout) else {
            isClosed = true
            return false
        }
        transcript += bytes
        buffer += bytes
        parseFrames()
        return true
    }

    /// Splits the buffer into the host's (unmasked) frames: text frames become pending messages, pings are
    /// answered when `answersPings`, every frame is kept in `frames`.
    private func parseFrames() {
        while buffer.count >= 2 {
            let first = buffer[0]
            let second = buffer[1]
            var length = Int(second & 0x7F)
            var offset = 2
            if length == 126 {
                guard buffer.count >= 4 else { return }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                offset = 4
            } else if length == 127 {
                guard buffer.count >= 10 else { return }
                length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            if second & 0x80 != 0 { offset += 4 }  // a host never masks; a test sees it in `frames` anyway
            guard buffer.count >= offset + length else { return }
            let frame = Frame(
                fin: first & 0x80 != 0, opcode: first & 0x0F, payload: Array(buffer[offset..<(offset + length)]))
            buffer.removeFirst(offset + length)
            frames.append(frame)
            if frame.opcode == WebSocketFrame.text { pending.append(String(decoding: frame.payload, as: UTF8.self)) }
            if frame.opcode == WebSocketFrame.ping && answersPings {
                try? send(opcode: WebSocketFrame.pong, payload: frame.payload)
            }
        }
    }

    /// Waits for a JSON message of `type` that satisfies `predicate`; messages of other types stay pending.
    @discardableResult
    public func waitFor(
        _ type: String, timeout: TimeInterval = 10, where predicate: (JSONValue) -> Bool = { _ in true }
    ) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var scanned = 0
        while true {
            while scanned < pending.count {
                if let value = try? JSONParsing.parse(pending[scanned]), value["type"]?.stringValue == type,
                    predicate(value)
                {
                    pending.remove(at: scanned)
                    return value
                }
                scanned += 1
            }
            guard Date() < deadline else {
                throw HarnessError(
                    "no \(type) message within \(timeout) s; pending: \(pending.suffix(6).joined(separator: " | "))")
            }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.count == scanned {
                throw HarnessError("connection closed while waiting for \(type)")
            }
        }
    }

    /// Waits for the first frame with `opcode` and takes it (with the frames before it).
    public func waitForFrame(_ opcode: UInt8, timeout: TimeInterval = 10) throws -> Frame {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = frames.firstIndex(where: { $0.opcode == opcode }) {
                let frame = frames[index]
                frames.removeFirst(index + 1)
                return frame
            }
            guard Date() < deadline else { throw HarnessError("no frame with opcode \(opcode) within \(timeout) s") }
            if !pump(timeout: deadline.timeIntervalSinceNow) && !frames.contains(where: { $0.opcode == opcode }) {
                throw HarnessError("connection closed while waiting for opcode \(opcode); frames: \(frames)")
            }
        }
    }

    /// Waits for the host's close frame and returns its code (nil when it has none).
    public func waitForCloseFrame(timeout: TimeInterval = 10) throws -> UInt16? {
        let frame = try waitForFrame(WebSocketFrame.close, timeout: timeout)
        guard frame.payload.count >= 2 else { return nil }
        return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
    }

    /// Waits until the host closes the TCP connection; false when it is still open after `timeout` seconds.
    public func waitForTCPClose(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline { if !pump(timeout: 0.2) { return true } }
        return false
    }
}
