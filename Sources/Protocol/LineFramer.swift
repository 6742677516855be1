/// Splits a byte stream into lines: `\n`, `\r\n` and bare `\r` all end a line, blank lines are
/// dropped, telnet IAC negotiation is stripped, and a line longer than the limit is reported once
/// and discarded up to its end without losing the framing of what follows.
///
/// A line end always ends a line, whatever byte precedes it: a stray 0xFF (IAC) or an unfinished option
/// negotiation right before it is dropped, not allowed to swallow it. A telnet subnegotiation (`IAC SB … IAC SE`)
/// is bounded: one still open at a line end or after `maximumSubnegotiationLength` bytes is reported
/// (`unfinishedSubnegotiation`) and its line dropped, so a connection can never be left deaf.
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
        /// A telnet subnegotiation did not end (`IAC SE`) before a line end or its length limit; it and the rest of
        /// its line are dropped.
        case unfinishedSubnegotiation
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
    private var subnegotiationLength = 0
    /// Whether any telnet negotiation bytes were seen: a sign of a person on a telnet client.
    public private(set) var hasSeenTelnet = false

    /// The default limit on the wire: 16 KiB.
    public static let defaultMaximumLineLength = 16 * 1024
    /// The longest telnet subnegotiation taken in, in bytes (a terminal type or a window size is far shorter).
    public static let maximumSubnegotiationLength = 64

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
        let isLineEnd = byte == 0x0A || byte == 0x0D
        switch telnet {
        case .data:
            break
        case .command where isLineEnd, .option where isLineEnd:
            telnet = .data  // a stray IAC, or a negotiation cut short: the line end still ends the line
        case .command:
            switch byte {
            case 255:
                telnet = .data
                append(255, into: &outputs)  // IAC IAC is a literal 255
            case 251...254: telnet = .option  // WILL, WONT, DO, DONT take one option byte
            case 250:
                telnet = .subnegotiation
                subnegotiationLength = 0
            default: telnet = .data  // a two-byte command such as NOP, AYT or GA
            }
            return
        case .option:
            telnet = .data
            return
        case .subnegotiation, .subnegotiationCommand:
            subnegotiationLength += 1
            if isLineEnd || subnegotiationLength > LineFramer.maximumSubnegotiationLength {
                // Never finished: report it, drop its line, and read on as data from here.
                telnet = .data
                outputs.append(.unfinishedSubnegotiation)
                buffer.removeAll(keepingCapacity: true)
                isDiscarding = true
                if !isLineEnd { return }
                break
            }
            if telnet == .subnegotiationCommand {
                telnet = byte == 240 ? .data : .subnegotiation  // IAC SE ends it
            } else if byte == 255 {
                telnet = .subnegotiationCommand
            }
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
