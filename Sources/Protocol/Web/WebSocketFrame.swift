/// WebSocket frames (RFC 6455 §5): the opcodes, the close codes, and the encoder for both ends.
public enum WebSocketFrame {
    /// The continuation of a fragmented message.
    public static let continuation: UInt8 = 0x0
    /// A text frame (UTF-8).
    public static let text: UInt8 = 0x1
    /// A binary frame (refused by the host with 1003).
    public static let binary: UInt8 = 0x2
    /// The close control frame.
    public static let close: UInt8 = 0x8
    /// The ping control frame.
    public static let ping: UInt8 = 0x9
    /// The pong control frame.
    public static let pong: UInt8 = 0xA

    /// The longest payload a control frame may carry.
    public static let maximumControlPayload = 125

    /// Appends a frame header to `output`: FIN as given, no reserved bits, the length in the shortest of its
    /// 7-, 16- or 64-bit forms, and the masking key when one is given (clients mask, servers do not).
    public static func appendHeader(
        opcode: UInt8, length: Int, fin: Bool = true, mask: [UInt8]? = nil, reserved: UInt8 = 0,
        into output: inout [UInt8]
    ) {
        output.append((fin ? 0x80 : 0) | (reserved & 0x7) << 4 | opcode & 0x0F)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if length < 126 {
            output.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            output.append(maskBit | 126)
            output.append(UInt8(truncatingIfNeeded: length >> 8))
            output.append(UInt8(truncatingIfNeeded: length))
        } else {
            output.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
            }
        }
        if let mask { output.append(contentsOf: mask.prefix(4)) }
    }

    /// A whole frame: its header, then `payload` (masked with `mask` when one is given).
    public static func encode(
        opcode: UInt8, payload: some Collection<UInt8>, fin: Bool = true, mask: [UInt8]? = nil, reserved: UInt8 = 0
    ) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(payload.count + 14)
        appendHeader(opcode: opcode, length: payload.count, fin: fin, mask: mask, reserved: reserved, into: &frame)
        if let mask {
            for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
        } else {
            frame.append(contentsOf: payload)
        }
        return frame
    }

    /// A close frame's payload: the code in two bytes, then the reason (cut to fit 125 bytes on a character
    /// boundary).
    public static func closePayload(code: UInt16, reason: String = "") -> [UInt8] {
        var reasonBytes = Array(reason.utf8)
        while reasonBytes.count > maximumControlPayload - 2 {
            reasonBytes.removeLast()
            while let last = reasonBytes.last, last & 0xC0 == 0x80 { reasonBytes.removeLast() }
            if let last = reasonBytes.last, last >= 0xC0 { reasonBytes.removeLast() }
        }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes
    }
}

/// The close codes of RFC 6455 §7.4.1 the host sends, and which codes a peer may send.
public enum WebSocketCloseCode {
    /// The purpose is fulfilled.
    public static let normal: UInt16 = 1000
    /// The host is stopping (or the page is leaving).
    public static let goingAway: UInt16 = 1001
    /// The peer broke the protocol.
    public static let protocolError: UInt16 = 1002
    /// A kind of data the host does not take (binary).
    public static let unsupportedData: UInt16 = 1003
    /// Text that is not UTF-8.
    public static let invalidPayload: UInt16 = 1007
    /// A policy was broken (too many messages, a reader too slow).
    public static let policyViolation: UInt16 = 1008
    /// A message too big to take.
    public static let messageTooBig: UInt16 = 1009
    /// The host failed.
    public static let internalError: UInt16 = 1011

    /// Whether a peer may send `code` in a close frame (1000–1003, 1007–1014, 3000–4999; never 1004–1006 or 1015).
    public static func isValid(_ code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}

/// Checks UTF-8 a byte at a time (Unicode 15 table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF),
/// so a text message is refused at its first bad byte even when a character is split across frames.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current character.
    private var needed = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validator at a character boundary.
    public init() {}

    /// Whether the bytes so far end on a character boundary.
    public var isAtBoundary: Bool { needed == 0 }

    /// Takes one byte; false when the bytes so far can no longer be UTF-8.
    public mutating func take(_ byte: UInt8) -> Bool {
        if needed > 0 {
            guard byte >= lower && byte <= upper else { return false }
            needed -= 1
            lower = 0x80
            upper = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: needed = 1
        case 0xE0: (needed, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: needed = 2
        case 0xED: (needed, upper) = (2, 0x9F)
        case 0xF0: (needed, lower) = (3, 0x90)
        case 0xF1...0xF3: needed = 3
        case 0xF4: (needed, upper) = (3, 0x8F)
        default: return false
        }
        return true
    }
}

/// Reads the frames a WebSocket client sends (RFC 6455 §5), fed in chunks of any size, and says what they mean.
///
/// Every rule is checked as early as the bytes allow: unmasked frames, reserved bits, unknown opcodes, fragmented
/// or over-long control frames, a continuation with no message or a new message inside one end the connection
/// with 1002; binary data with 1003; text that is not UTF-8 (even split across fragments) with 1007, at its first
/// bad byte; a message over `maximumMessageLength` with 1009 at the header that would pass the limit, before any of
/// its payload is held. After a close or a failure it reads nothing more.
public struct WebSocketDecoder: Sendable {
    /// What the frames said.
    public enum Event: Equatable, Sendable {
        /// A whole text message, its fragments joined (valid UTF-8).
        case text([UInt8])
        /// A ping, with its payload (to echo in the pong).
        case ping([UInt8])
        /// A pong.
        case pong([UInt8])
        /// The peer closes, with its code (nil: none given) and reason.
        case close(code: UInt16?, reason: String)
        /// The peer broke the protocol: close with `code`, saying `reason`.
        case failure(code: UInt16, reason: String)
    }

    private enum Stage: Sendable {
        case header
        case payload(remaining: Int)
        case done
    }

    /// The longest message taken, in bytes, all fragments together.
    public let maximumMessageLength: Int
    private var stage = Stage.header
    private var header: [UInt8] = []
    private var opcode: UInt8 = 0
    private var isFinal = false
    private var mask: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    private var maskIndex = 0
    /// Whether a fragmented text message is in progress.
    private var isInMessage = false
    private var message: [UInt8] = []
    private var control: [UInt8] = []
    private var utf8 = UTF8Validator()

    /// Creates a decoder that takes messages up to `maximumMessageLength` bytes.
    public init(maximumMessageLength: Int) {
        self.maximumMessageLength = maximumMessageLength
    }

    /// Whether the decoder stopped (after a close or a failure).
    public var isDone: Bool {
        if case .done = stage { return true }
        return false
    }

    /// Bytes of an unfinished message or frame held now.
    public var heldByteCount: Int { header.count + message.count + control.count }

    /// Feeds bytes and returns what they completed, in order; a `close` or `failure` is always last.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
        var events: [Event] = []
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch stage {
            case .done:
                return events
            case .header:
                header.append(bytes[index])
                index = bytes.index(after: index)
                if let event = readHeader() {
                    events.append(event)
                    if case .failure = event { return events }
                }
            case .payload(let remaining):
                let available = bytes.distance(from: index, to: bytes.endIndex)
                let count = min(remaining, available)
                let end = bytes.index(index, offsetBy: count)
                if let failure = takePayload(bytes[index..<end]) {
                    events.append(failure)
                    return events
                }
                index = end
                stage = .payload(remaining: remaining - count)
                if remaining == count, let event = endFrame() {
                    events.append(event)
                    if case .failure = event { return events }
                    if case .close = event { return events }
                }
            }
        }
        return events
    }

    private mutating func fail(_ code: UInt16, _ reason: String) -> Event {
        stage = .done
        message = []
        control = []
        header = []
        return .failure(code: code, reason: reason)
    }

    /// Reads the header once enough of it has arrived; an event when the frame was empty or broke a rule.
    private mutating func readHeader() -> Event? {
        guard header.count >= 2 else { return nil }
        let first = header[0]
        let second = header[1]
        if header.count == 2 {
            // Everything the first two bytes can tell is checked before the rest of the header is awaited.
            if first & 0x70 != 0 { return fail(WebSocketCloseCode.protocolError, "reserved bits set") }
            let code = first & 0x0F
            let final = first & 0x80 != 0
            switch code {
            case WebSocketFrame.continuation:
                guard isInMessage else {
                    return fail(WebSocketCloseCode.protocolError, "continuation without a message")
                }
            case WebSocketFrame.text:
                guard !isInMessage else {
                    return fail(WebSocketCloseCode.protocolError, "new message inside a message")
                }
            case WebSocketFrame.binary:
                return fail(WebSocketCloseCode.unsupportedData, "binary messages are not taken; send JSON text")
            case WebSocketFrame.close, WebSocketFrame.ping, WebSocketFrame.pong:
                guard final else { return fail(WebSocketCloseCode.protocolError, "fragmented control frame") }
                guard second & 0x7F <= 125 else {
                    return fail(WebSocketCloseCode.protocolError, "control frame over 125 bytes")
                }
            default:
                return fail(WebSocketCloseCode.protocolError, "unknown opcode \(code)")
            }
            guard second & 0x80 != 0 else { return fail(WebSocketCloseCode.protocolError, "unmasked client frame") }
        }
        let shortLength = Int(second & 0x7F)
        let lengthBytes = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
        guard header.count == 2 + lengthBytes + 4 else { return nil }
        var length = shortLength
        if lengthBytes > 0 {
            if lengthBytes == 8 && header[2] & 0x80 != 0 {
                return fail(WebSocketCloseCode.protocolError, "frame length with its top bit set")
            }
            length = 0
            for byte in header[2..<(2 + lengthBytes)] {
                // A length past any limit stops growing here; it is refused just below.
                length = length > Int.max >> 9 ? Int.max >> 1 : length << 8 | Int(byte)
            }
        }
        opcode = first & 0x0F
        isFinal = first & 0x80 != 0
        let keyStart = 2 + lengthBytes
        mask = (header[keyStart], header[keyStart + 1], header[keyStart + 2], header[keyStart + 3])
        maskIndex = 0
        header.removeAll(keepingCapacity: true)
        if opcode < 8 {
            if length > maximumMessageLength - message.count {
                return fail(
                    WebSocketCloseCode.messageTooBig, "message longer than \(maximumMessageLength / 1024) KiB")
            }
            isInMessage = true
            message.reserveCapacity(message.count + length)
        }
        stage = .payload(remaining: length)
        return length == 0 ? endFrame() : nil
    }

    /// Unmasks payload bytes into the message or control buffer; a failure when text stops being UTF-8.
    private mutating func takePayload(_ bytes: some Collection<UInt8>) -> Event? {
        let isControl = opcode >= 8
        for byte in bytes {
            let key: UInt8
            switch maskIndex & 3 {
            case 0: key = mask.0
            case 1: key = mask.1
            case 2: key = mask.2
            default: key = mask.3
            }
            maskIndex &+= 1
            let plain = byte ^ key
            if isControl {
                control.append(plain)
            } else {
                guard utf8.take(plain) else {
                    return fail(WebSocketCloseCode.invalidPayload, "text that is not UTF-8")
                }
                message.append(plain)
            }
        }
        return nil
    }

    /// A frame's payload is complete: what it means.
    private mutating func endFrame() -> Event? {
        stage = .header
        switch opcode {
        case WebSocketFrame.ping:
            defer { control.removeAll(keepingCapacity: true) }
            return .ping(control)
        case WebSocketFrame.pong:
            defer { control.removeAll(keepingCapacity: true) }
            return .pong(control)
        case WebSocketFrame.close:
            let payload = control
            control = []
            guard payload.count != 1 else { return fail(WebSocketCloseCode.protocolError, "close frame of one byte") }
            guard payload.count >= 2 else {
                stage = .done
                return .close(code: nil, reason: "")
            }
            let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard WebSocketCloseCode.isValid(code) else {
                return fail(WebSocketCloseCode.protocolError, "close code \(code) is not allowed")
            }
            guard let reason = String(validating: payload[2...], as: UTF8.self) else {
                return fail(WebSocketCloseCode.invalidPayload, "close reason that is not UTF-8")
            }
            stage = .done
            return .close(code: code, reason: reason)
        default:
            guard isFinal else { return nil }
            guard utf8.isAtBoundary else {
                return fail(WebSocketCloseCode.invalidPayload, "text that ends inside a character")
            }
            isInMessage = false
            let whole = message
            message = []
            return .text(whole)
        }
    }
}
