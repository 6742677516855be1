import Dispatch
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal: raw mode, the alternate screen and the window size. Every change is undone by `restore()`.
enum Terminal {
    /// The terminal settings before the client changed them, read once at the first use (before raw mode).
    static let original: termios? = {
        var settings = termios()
        return tcgetattr(STDIN_FILENO, &settings) == 0 ? settings : nil
    }()

    /// Enters the full-screen mode: raw keys, no echo, alternate screen, hidden cursor.
    static func enter() {
        guard var raw = original else { return }
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        Output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
        atexit { Terminal.restore() }
    }

    /// Leaves the full screen and restores the original terminal settings (safe to call more than once).
    static func restore() {
        guard var settings = original else { return }
        var current = termios()
        // already restored (the loop's own exit, then atexit): nothing to do
        if tcgetattr(STDIN_FILENO, &current) == 0, current.c_lflag & tcflag_t(ICANON) != 0 { return }
        Output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    /// The window size in columns and rows (80×24 when unknown).
    static func size() -> (width: Int, height: Int) {
        TerminalSize.of(STDOUT_FILENO) ?? (80, 24)
    }
}

/// Writing to stdout and stderr without buffering (lines reach pipes at once).
enum Output {
    /// Writes all of `text` to `fd`; false when the reader is gone.
    @discardableResult
    static func write(_ text: String, to fd: Int32 = STDOUT_FILENO) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    usleep(1000)
                    continue
                }
                return false
            }
            offset += written
        }
        bytes.removeAll()
        return true
    }

    /// Writes one line of text to stdout, made safe to show first (`TerminalText.sanitized`).
    @discardableResult
    static func line(_ text: String) -> Bool { write(TerminalText.sanitized(text) + "\n") }

    /// Writes one line of text to stderr, made safe to show first.
    static func error(_ text: String) { write(TerminalText.sanitized(text) + "\n", to: STDERR_FILENO) }

    private static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(fd, pointer, count)
        #else
            return Darwin.write(fd, pointer, count)
        #endif
    }
}

/// Signals delivered as bytes on a pipe the event loop watches (the self-pipe trick): no shared state.
final class SignalPipe {
    /// The end the loop reads; each byte is a signal number.
    let readFD: Int32
    private let writeFD: Int32
    private var sources: [DispatchSourceSignal] = []

    /// Watches `signals` (their default actions are turned off).
    init(signals: [Int32]) {
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        readFD = fds[0]
        writeFD = fds[1]
        if readFD >= 0 {
            _ = fcntl(readFD, F_SETFL, O_NONBLOCK)
            _ = fcntl(writeFD, F_SETFL, O_NONBLOCK)
        }
        let target = writeFD
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var byte = UInt8(truncatingIfNeeded: number)
                #if canImport(Glibc)
                    _ = Glibc.write(target, &byte, 1)
                #else
                    _ = Darwin.write(target, &byte, 1)
                #endif
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The signals that arrived since the last call.
    func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var result: [Int32] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glue.recvOrRead(readFD, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            result += buffer.prefix(count).map { Int32($0) }
        }
        return result
    }
}

/// Addresses and connections the client makes (TCP to the host, UDP for discovery).
enum Network {
    /// The IPv4 address of `host` (a dotted address, `localhost` or a name looked up with getaddrinfo).
    static func resolve(_ host: String, port: UInt16) -> sockaddr_in? {
        if let address = try? Socket.makeAddress(host, port) { return address }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Socket.streamType
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if entry.pointee.ai_family == AF_INET, let raw = entry.pointee.ai_addr {
                var address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                address.sin_port = port.bigEndian
                return address
            }
            cursor = entry.pointee.ai_next
        }
        return nil
    }

    /// Starts a non-blocking TCP connect; `isConnected` is true when it finished at once.
    static func startConnect(to address: sockaddr_in) throws(SocketError) -> (socket: Socket, isConnected: Bool) {
        try Socket.connectNonBlocking(to: address)
    }

    /// The outcome of a non-blocking connect once the socket is writable: 0 or the errno.
    static func connectError(of socket: Socket) -> Int32 { socket.pendingError() }

    /// A non-blocking UDP socket for discovery; `port` 0 picks one. `isShared` lets several clients bind the beacon port.
    static func datagramSocket(port: UInt16, isShared: Bool) throws(SocketError) -> Socket {
        try Socket.makeDatagram(address: "0.0.0.0", port: port, isShared: isShared)
    }

    /// The text of an errno.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
