import Foundation
import Net
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP peer for these tests: sends and receives 8-byte monotonic timestamps.
struct Peer {
    let socket: Socket

    init(_ socket: Socket) {
        self.socket = socket
        let flags = fcntl(socket.fd, F_GETFL, 0)
        _ = fcntl(socket.fd, F_SETFL, flags & ~O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends the monotonic clock's nanoseconds now.
    func sendStamp() throws {
        var stamp = MonotonicClock.nanoseconds()
        guard Glue.send(socket.fd, &stamp, 8, 0) == 8 else { throw PeerError("send failed: errno \(errno)") }
    }

    /// Receives one stamp; returns how long ago (ns) it was taken.
    func receiveStampAge() throws -> Int64 {
        var stamp: Int64 = 0
        var received = 0
        while received < 8 {
            let count = withUnsafeMutableBytes(of: &stamp) {
                Glue.recv(socket.fd, $0.baseAddress! + received, 8 - received, 0)
            }
            guard count > 0 else { throw PeerError("receive failed: errno \(errno)") }
            received += count
        }
        return MonotonicClock.nanoseconds() - stamp
    }
}

/// A failed send or receive of a test peer.
struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
