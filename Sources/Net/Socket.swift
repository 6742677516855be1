#if canImport(Glibc)
    import Glibc
    import CSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong with a socket call: the two expected outcomes kept apart from real failures.
public enum SocketError: Error, Equatable, CustomStringConvertible {
    /// Nothing to read or no room to write now; try again when the poller says so.
    case wouldBlock
    /// The peer closed or reset the connection.
    case disconnected
    /// A real failure: the call that failed and its errno.
    case failed(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .wouldBlock: return "would block"
        case .disconnected: return "disconnected"
        case .failed(let call, let code): return "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// The error for the current `errno` after `call` failed.
    public static func current(_ call: String) -> SocketError {
        let code = errno
        switch code {
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        case ECONNRESET, EPIPE, ENOTCONN, ECONNABORTED, ETIMEDOUT: return .disconnected
        default: return .failed(call: call, errno: code)
        }
    }
}

/// An owned socket file descriptor; `close()` must be called exactly once.
public struct Socket: Hashable, Sendable {
    /// The raw descriptor.
    public let fd: Int32

    /// Wraps an existing descriptor.
    public init(fd: Int32) { self.fd = fd }

    #if canImport(Glibc)
        /// SOCK_STREAM, spelled the same on Linux and Darwin.
        public static let streamType = Int32(SOCK_STREAM.rawValue)
        /// SOCK_DGRAM, spelled the same on Linux and Darwin.
        public static let datagramType = Int32(SOCK_DGRAM.rawValue)
    #else
        /// SOCK_STREAM, spelled the same on Linux and Darwin.
        public static let streamType = SOCK_STREAM
        /// SOCK_DGRAM, spelled the same on Linux and Darwin.
        public static let datagramType = SOCK_DGRAM
    #endif

    /// Creates a non-blocking TCP listener bound to `address:port` (port 0 picks a free one).
    public static func makeListener(address: String, port: UInt16, backlog: Int32 = 1024) throws(SocketError) -> Socket
    {
        let socket = try makeSocket(type: streamType)
        var one: Int32 = 1
        setsockopt(socket.fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        do throws(SocketError) {
            try socket.bind(address: address, port: port)
            guard listen(socket.fd, backlog) == 0 else { throw SocketError.current("listen") }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Creates a non-blocking UDP socket bound to `address:port`, able to broadcast.
    ///
    /// With `isShared`, several processes on one machine may bind the same port (SO_REUSEPORT), as
    /// clients listening for discovery beacons do; every one of them receives the broadcasts.
    public static func makeDatagram(address: String, port: UInt16, isShared: Bool = false) throws(SocketError) -> Socket
    {
        let socket = try makeSocket(type: datagramType)
        var one: Int32 = 1
        setsockopt(socket.fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(socket.fd, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size))
        if isShared { setsockopt(socket.fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size)) }
        do throws(SocketError) {
            try socket.bind(address: address, port: port)
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Starts a non-blocking TCP connect to `address`; `isConnected` is true when it finished at once,
    /// otherwise wait for writability and read `pendingError()`.
    public static func connectNonBlocking(to address: sockaddr_in) throws(SocketError) -> (
        socket: Socket, isConnected: Bool
    ) {
        let socket = try makeSocket(type: streamType)
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(socket.fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var target = address
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glue.connect(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result == 0 { return (socket, true) }
        if errno == EINPROGRESS || errno == EINTR { return (socket, false) }
        let error = SocketError.failed(call: "connect", errno: errno)
        socket.close()
        throw error
    }

    /// The outcome of a non-blocking connect once the socket is writable: 0, or the errno it failed with.
    public func pendingError() -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }

    private static func makeSocket(type: Int32) throws(SocketError) -> Socket {
        let fd = Glue.socket(AF_INET, type, 0)
        guard fd >= 0 else { throw SocketError.current("socket") }
        let socket = Socket(fd: fd)
        do throws(SocketError) {
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Connects a blocking TCP client socket (used by tests and tools, never by the loop), from the local address
    /// `source` when given (such as 127.0.0.2, to look like another machine to a host on loopback).
    public static func connectBlocking(host: String, port: UInt16, from source: String? = nil) throws(SocketError)
        -> Socket
    {
        let fd = Glue.socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw SocketError.current("socket") }
        if let source {
            var local = try makeAddress(source, 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glue.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let error = SocketError.current("bind(\(source))")
                Glue.close(fd)
                throw error
            }
        }
        var address = try makeAddress(host, port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glue.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = SocketError.current("connect")
            Glue.close(fd)
            throw error
        }
        return Socket(fd: fd)
    }

    public static func makeAddress(_ host: String, _ port: UInt16) throws(SocketError) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let text = host.isEmpty || host == "*" ? "0.0.0.0" : (host == "localhost" ? "127.0.0.1" : host)
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else {
            throw SocketError.failed(call: "inet_pton(\(host))", errno: EINVAL)
        }
        return address
    }

    private func bind(address: String, port: UInt16) throws(SocketError) {
        var socketAddress = try Socket.makeAddress(address, port)
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glue.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw SocketError.current("bind") }
    }

    /// The local port this socket is bound to.
    public func localPort() throws(SocketError) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SocketError.current("getsockname") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Sets `O_NONBLOCK`.
    public func setNonBlocking() throws(SocketError) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SocketError.current("fcntl") }
    }

    /// Turns on TCP keepalive (with short probes where the platform allows) and disables Nagle's delay.
    public func configureStream(keepAliveSeconds: Int32) {
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Glibc)
            var idle = keepAliveSeconds
            var interval: Int32 = 10
            var count: Int32 = 3
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, &idle, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, &interval, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, &count, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Accepts one pending connection, non-blocking, returning it with the peer's IPv4 address text.
    public func accept() throws(SocketError) -> (Socket, String) {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let client = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glue.accept(fd, $0, &length) }
        }
        guard client >= 0 else { throw SocketError.current("accept") }
        let socket = Socket(fd: client)
        do throws(SocketError) {
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw error
        }
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return (socket, Socket.addressText(address))
    }

    public static func addressText(_ address: sockaddr_in) -> String {
        var copy = address.sin_addr
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads up to `buffer.count` bytes; 0 bytes read means the peer closed (`.disconnected`).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> Int {
        let count = Glue.recv(fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 { return count }
        if count == 0 { throw .disconnected }
        if errno == EINTR { throw .wouldBlock }
        throw SocketError.current("recv")
    }

    /// Writes as much of `bytes` as the kernel takes now, without raising SIGPIPE; returns the count written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SocketError) -> Int {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0  // SO_NOSIGPIPE is set on accepted sockets instead
        #endif
        let count = Glue.send(fd, bytes.baseAddress, bytes.count, flags)
        if count >= 0 { return count }
        if errno == EINTR { throw .wouldBlock }
        throw SocketError.current("send")
    }

    /// Sends one datagram to `address:port`.
    public func send(datagram: [UInt8], to address: sockaddr_in) throws(SocketError) {
        var target = address
        let result = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glue.sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result >= 0 else { throw SocketError.current("sendto") }
    }

    /// Receives one datagram, with its sender.
    public func receiveDatagram(maximumLength: Int = 2048) throws(SocketError) -> ([UInt8], sockaddr_in) {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glue.recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard count >= 0 else { throw SocketError.current("recvfrom") }
        return (Array(buffer.prefix(count)), address)
    }

    /// Shuts down the sending side (the peer reads end-of-file after what was sent).
    public func shutdownWrite() {
        _ = Glue.shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the descriptor.
    public func close() {
        _ = Glue.close(fd)
    }
}

/// The C calls whose Swift names clash with `Socket`'s methods, reached from file scope.
public enum Glue {
    public static func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        sysSocket(domain, type, proto)
    }
    public static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        sysBind(fd, address, length)
    }
    public static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        sysConnect(fd, address, length)
    }
    public static func accept(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int32 {
        sysAccept(fd, address, length)
    }
    public static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        sysRecv(fd, buffer, count, flags)
    }
    public static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        sysSend(fd, buffer, count, flags)
    }
    public static func sendto(
        _ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32,
        _ address: UnsafePointer<sockaddr>, _ length: socklen_t
    ) -> Int {
        sysSendto(fd, buffer, count, flags, address, length)
    }
    public static func recvfrom(
        _ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32,
        _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int {
        sysRecvfrom(fd, buffer, count, flags, address, length)
    }
    public static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 { sysShutdown(fd, how) }
    @discardableResult public static func close(_ fd: Int32) -> Int32 { sysClose(fd) }
}

private func sysSocket(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { socket(a, b, c) }
private func sysBind(_ a: Int32, _ b: UnsafePointer<sockaddr>, _ c: socklen_t) -> Int32 { bind(a, b, c) }
private func sysConnect(_ a: Int32, _ b: UnsafePointer<sockaddr>, _ c: socklen_t) -> Int32 { connect(a, b, c) }
private func sysAccept(_ a: Int32, _ b: UnsafeMutablePointer<sockaddr>, _ c: UnsafeMutablePointer<socklen_t>) -> Int32 {
    accept(a, b, c)
}
private func sysRecv(_ a: Int32, _ b: UnsafeMutableRawPointer?, _ c: Int, _ d: Int32) -> Int { recv(a, b, c, d) }
private func sysSend(_ a: Int32, _ b: UnsafeRawPointer?, _ c: Int, _ d: Int32) -> Int { send(a, b, c, d) }
private func sysSendto(
    _ a: Int32, _ b: UnsafeRawPointer?, _ c: Int, _ d: Int32, _ e: UnsafePointer<sockaddr>, _ f: socklen_t
) -> Int {
    sendto(a, b, c, d, e, f)
}
private func sysRecvfrom(
    _ a: Int32, _ b: UnsafeMutableRawPointer?, _ c: Int, _ d: Int32,
    _ e: UnsafeMutablePointer<sockaddr>, _ f: UnsafeMutablePointer<socklen_t>
) -> Int {
    recvfrom(a, b, c, d, e, f)
}
private func sysShutdown(_ a: Int32, _ b: Int32) -> Int32 { shutdown(a, b) }
private func sysClose(_ a: Int32) -> Int32 { close(a) }
