import Foundation
import Net
import Protocol
import TestSupport

/// The bench's WebSocket clients (PROTOCOL.md §13a): the upgrade, masked text frames out, server frames in.
///
/// A WebSocket client of the pool speaks what a phone's page speaks: one JSON message per text frame each way,
/// a pong for each ping frame; its bytes (frame headers included) are counted like a TCP client's.
enum WebSocketClients {
    /// The mask of every frame the bench sends (any four bytes do).
    static let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    /// Upgrades a connected blocking socket to a WebSocket on `/ws`; returns the bytes read past the answer's head.
    static func upgrade(_ socket: Socket, port: UInt16, timeout: TimeInterval = 30) throws -> [UInt8] {
        let request = WebSocketTestClient.upgradeRequest(
            host: "127.0.0.1:\(port)", key: "YmVuY2ggY2xpZW50IGtleQ==", origin: "http://127.0.0.1:\(port)")
        var bytes = Array(request.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glue.send(socket.fd, $0.baseAddress, $0.count, sendFlags) }
            guard written > 0 else { throw BenchError("the WebSocket upgrade could not be written: errno \(errno)") }
            bytes = bytes.dropFirst(written)
        }
        var head: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = headEnd(in: head) {
                guard head.starts(with: Array("HTTP/1.1 101 ".utf8)) else {
                    throw BenchError("the upgrade was refused: \(String(decoding: head[..<end], as: UTF8.self))")
                }
                return Array(head[end...])
            }
            guard Date() < deadline else { throw BenchError("no WebSocket handshake answer within \(timeout) s") }
            var entry = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 100)
            let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { throw BenchError("the host closed during the WebSocket handshake") }
            if count > 0 { head += chunk[0..<count] }
        }
    }

    /// Where an HTTP head ends (after its empty line) in `bytes`, when it does.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// `bytes` (JSON lines) as masked text frames, one per line, without the newlines.
    static func frames(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            output += WebSocketFrame.encode(opcode: WebSocketFrame.text, payload: line, mask: mask)
        }
        return output
    }
}

/// One WebSocket connection's incoming frames, read as they arrive in pieces (unmasked server frames).
final class FrameReader {
    /// Bytes read with the handshake's answer, handed over with the first read.
    var leftover: [UInt8] = []
    private var header: [UInt8] = []
    private var remaining = 0
    private var opcode: UInt8 = 0
    private var isFinal = false
    /// The payload of a control frame (a ping's, to echo in the pong).
    private var control: [UInt8] = []
    /// The opcode of the message whose fragments are arriving.
    private var messageOpcode: UInt8 = 0

    /// Reads `bytes`: text payload goes to `text`, each message's end to `end`, each ping's payload to `ping`.
    func feed(
        _ bytes: UnsafeRawBufferPointer, text: (UnsafeRawBufferPointer) -> Void, end: () -> Void,
        ping: ([UInt8]) -> Void
    ) {
        var offset = 0
        while offset < bytes.count {
            if remaining == 0 && !isReadingPayload {
                header.append(bytes[offset])
                offset += 1
                guard let length = headerLength() else { continue }
                let first = header[0]
                isFinal = first & 0x80 != 0
                opcode = first & 0x0F
                if opcode != WebSocketFrame.continuation && opcode < 0x8 { messageOpcode = opcode }
                remaining = length
                header.removeAll(keepingCapacity: true)
                isReadingPayload = true
                if remaining == 0 { frameEnded(end: end, ping: ping) }
                continue
            }
            let take = min(remaining, bytes.count - offset)
            let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)])
            if opcode >= 0x8 {
                control.append(contentsOf: piece)
            } else if messageOpcode == WebSocketFrame.text {
                text(piece)
            }
            offset += take
            remaining -= take
            if remaining == 0 { frameEnded(end: end, ping: ping) }
        }
    }

    private var isReadingPayload = false

    private func frameEnded(end: () -> Void, ping: ([UInt8]) -> Void) {
        isReadingPayload = false
        if opcode >= 0x8 {
            if opcode == WebSocketFrame.ping { ping(control) }
            control.removeAll(keepingCapacity: true)
        } else if isFinal && messageOpcode == WebSocketFrame.text {
            end()
        }
    }

    /// The payload length once the header is complete (server frames carry no mask); nil while it is not.
    private func headerLength() -> Int? {
        guard header.count >= 2 else { return nil }
        let short = Int(header[1] & 0x7F)
        switch short {
        case 126:
            guard header.count >= 4 else { return nil }
            return Int(header[2]) << 8 | Int(header[3])
        case 127:
            guard header.count >= 10 else { return nil }
            return header[2..<10].reduce(0) { $0 << 8 | Int($1) }
        default:
            return short
        }
    }
}
