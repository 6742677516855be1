import DelayLine
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

/// Takes timed samples across a delayed network and takes again any that a busy machine disturbed: a sample counts
/// only if neither the test's thread nor the delay line was kept from a CPU, or released a packet late, by more
/// than `limit` all told while it was taken. Whether a sample counts never depends on the delay it measured.
struct UndisturbedSamples {
    /// The most a sample may be disturbed and still count, ns: 2 ms, the most the tests' bounds allow a delay above
    /// the configured one (a delay line that added more than that would fail them on its own).
    static let limit: Int64 = 2_000_000
    /// How many samples a test may find disturbed before it gives up: the machine is too busy to measure.
    static let voidBudget = 20

    let network: DelayedNetwork
    /// Samples found disturbed and taken again so far.
    private(set) var void = 0
    /// The worst disturbance of a void sample, ns.
    private(set) var worstVoid: Int64 = 0

    init(_ network: DelayedNetwork) { self.network = network }

    /// Runs `measure` (on the calling thread, raised to real-time priority) until it is undisturbed; returns what it
    /// measured. Throws, saying the machine was too busy, once more than `voidBudget` samples were void.
    mutating func take(_ measure: () throws -> Int64) throws -> Int64 {
        while true {
            let network = self.network
            let (value, disturbance) = try RealTime.run(at: RealTime.pressPriority) { () throws -> (Int64, Int64) in
                _ = network.takeLateness()
                let waitedBefore = RunQueue.waitedByCurrentThread() ?? 0
                let value = try measure()
                let waited = (RunQueue.waitedByCurrentThread() ?? 0) - waitedBefore
                return (value, waited + network.takeLateness().added)
            }
            if disturbance <= UndisturbedSamples.limit { return value }
            void += 1
            worstVoid = max(worstVoid, disturbance)
            guard void <= UndisturbedSamples.voidBudget else {
                throw PeerError(
                    "The machine was too busy to measure the delay line: \(void) samples were void, each delayed by "
                        + "more than \(UndisturbedSamples.limit / 1_000_000) ms waiting for a CPU or a late release "
                        + "(worst \(worstVoid / 1_000_000) ms). Run again on a quieter machine.")
            }
        }
    }
}
