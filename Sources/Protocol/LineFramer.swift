/// Splits a byte stream into lines: `\n`, `\r\n` and bare `\r` all end a line, blank lines are
/// dropped, telnet IAC negotiation is stripped, and a line longer than the limit is reported once
/// and discarded up to its end without losing the framing of what follows.
///
/// It is a pure value: feed it bytes in chunks of any size (one byte at a time is fine) and it
/// yields the same lines.
public struct LineFramer: Sendable {
    /// What the framer found in the bytes fed to it.
    public enum Output: Equatable, Sendable {
        /// A complete, non-blank line without its terminator.
        case line([UInt8])
        /// A line grew past the limit; its bytes up to the next line end are dropped.
        case lineTooLong(limit: Int)
    }

    private enum TelnetState: Sendable {
        case data, command, option, subnegotiation, subnegotiationCommand
    }

    /// The longest line accepted, in bytes, not counting its terminator.
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var isDiscarding = false
    private var lastWasCarriageReturn = false
    private var telnet = TelnetState.data
    /// Whether any telnet negotiation bytes were seen: a sign of a person on a telnet client.
    public private(set) var hasSeenTelnet = false

    /// The default limit on the wire: 16 KiB.
    public static let defaultMaximumLineLength = 16 * 1024

    /// Creates a framer that accepts lines up to `maximumLineLength` bytes.
    public init(maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// The bytes of an unfinished line held so far.
    public var pendingByteCount: Int { buffer.count }

    /// Feeds `bytes` and returns every line (or over-long report) they complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Output] {
        var outputs: [Output] = []
        for byte in bytes { consume(byte, into: &outputs) }
        return outputs
    }

    private mutating func consume(_ byte: UInt8, into outputs: inout [Output]) {
        switch telnet {
        case .data:
            break
        case .command:
            switch byte {
            case 255:
                telnet = .data
                append(255, into: &outputs)  // IAC IAC is a literal 255
            case 251...254: telnet = .option  // WILL, WONT, DO, DONT take one option byte
            case 250: telnet = .subnegotiation
            default: telnet = .data  // a two-byte command such as NOP, AYT or GA
            }
            return
        case .option:
            telnet = .data
            return
        case .subnegotiation:
            if byte == 255 { telnet = .subnegotiationCommand }
            return
        case .subnegotiationCommand:
            telnet = byte == 240 ? .data : .subnegotiation  // IAC SE ends it
            return
        }
        switch byte {
        case 255:
            telnet = .command
            hasSeenTelnet = true
        case 0x0A:
            if lastWasCarriageReturn {
                lastWasCarriageReturn = false  // the LF of a CRLF
            } else {
                endLine(into: &outputs)
            }
        case 0x0D:
            endLine(into: &outputs)
            lastWasCarriageReturn = true
        case 0x00 where lastWasCarriageReturn:
            break  // telnet sends CR NUL for a bare carriage return
        default:
            lastWasCarriageReturn = false
            append(byte, into: &outputs)
        }
    }

    private mutating func append(_ byte: UInt8, into outputs: inout [Output]) {
        lastWasCarriageReturn = false
        if isDiscarding { return }
        if buffer.count >= maximumLineLength {
            isDiscarding = true
            buffer.removeAll(keepingCapacity: false)
            outputs.append(.lineTooLong(limit: maximumLineLength))
            return
        }
        buffer.append(byte)
    }

    private mutating func endLine(into outputs: inout [Output]) {
        if isDiscarding {
            isDiscarding = false
        } else if !buffer.isEmpty {
            if !buffer.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { outputs.append(.line(buffer)) }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
