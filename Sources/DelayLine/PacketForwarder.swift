import Foundation
import Net

#if canImport(Glibc)
    import CSystem
    import Glibc
#endif

/// One thread that moves raw IP packets between pairs of TUN devices, holding each packet for its direction's
/// delay: the kernels at both ends see a slow network, not a slow application.
public final class PacketForwarder: @unchecked Sendable {
    /// Two TUN devices joined into one link, and the delay of each direction.
    public struct Link {
        /// The host namespace's end (packets read here travel down, to the client).
        public var hostSide: Int32
        /// The client namespace's end (packets read here travel up, to the host).
        public var clientSide: Int32
        /// Host → client.
        public var down: OneWayDelay
        /// Client → host.
        public var up: OneWayDelay
    }

    /// Packets forwarded and dropped so far, per link and direction.
    public struct Counts: Equatable, Sendable {
        /// Host → client packets delivered.
        public var down = 0
        /// Client → host packets delivered.
        public var up = 0
        /// Packets the receiving device would not take (its queue was full).
        public var dropped = 0
    }

    /// How much later than scheduled the forwarder has moved packets: what a busy machine adds to the links'
    /// configured delays (a starved forwarder reads a packet late, and so releases it late).
    public struct Lateness: Equatable, Sendable {
        /// The most any packet left after its scheduled release, ns.
        public var worstRelease: Int64 = 0
        /// The longest the forwarding thread waited for a CPU at one of its wakes (by a packet to read or one due
        /// to leave), ns; nil where the kernel does not say (`RunQueue`). A packet read at that wake was read this
        /// much late at most.
        public var waitedForCPU: Int64?

        /// Creates a record of lateness (none by default).
        public init(worstRelease: Int64 = 0, waitedForCPU: Int64? = nil) {
            self.worstRelease = worstRelease
            self.waitedForCPU = waitedForCPU
        }

        /// At most this much delay was added to any one packet beyond its link's schedule, ns: a packet is read
        /// late only while the thread waits for a CPU, and released late by `worstRelease` at most (the two may
        /// overlap, so this errs on the side of more).
        public var added: Int64 { worstRelease + (waitedForCPU ?? 0) }
    }

    /// One direction: where packets come from and go to, and those waiting to leave (in release order).
    private struct Direction {
        let source: Int32
        let destination: Int32
        var schedule: DelaySchedule
        var waiting: [(release: Int64, packet: [UInt8])] = []
        var head = 0

        var nextRelease: Int64? { head < waiting.count ? waiting[head].release : nil }
    }

    private let lock = NSLock()
    private var counts: [Counts]
    private let wake: Int32
    private let finished = DispatchSemaphore(value: 0)
    private var isStopped = false
    private let descriptors: [Int32]
    /// The forwarding thread's schedstat file (`RunQueue`), and the worst release and wait for a CPU at one wake
    /// since lateness was last taken.
    private var schedulerStatistics: Int32?
    private var worstRelease: Int64 = 0
    private var worstWait: Int64 = 0

    /// Starts forwarding between the links' devices; the forwarder owns and finally closes their descriptors.
    public init(links: [Link], seed: UInt64) throws {
        #if canImport(Glibc)
            wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard wake >= 0 else { throw DelayLineError("eventfd failed: \(String(cString: strerror(errno)))") }
        #else
            throw DelayLineError("the packet delay line needs Linux")
        #endif
        counts = Array(repeating: Counts(), count: links.count)
        descriptors = links.flatMap { [$0.hostSide, $0.clientSide] }
        var directions: [Direction] = []
        for (index, link) in links.enumerated() {
            let base = seed &+ UInt64(index) &* 0x1_0000
            directions.append(
                Direction(
                    source: link.hostSide, destination: link.clientSide,
                    schedule: DelaySchedule(link.down, seed: base &+ 1)))
            directions.append(
                Direction(
                    source: link.clientSide, destination: link.hostSide,
                    schedule: DelaySchedule(link.up, seed: base &+ 2)))
        }
        let prepared = directions
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            // Released late, a packet carries more delay than its link's: the forwarder goes before other work.
            _ = RealTime.raiseCurrentThread(to: RealTime.forwarderPriority)
            let statistics = RunQueue.openForCurrentThread()
            lock.withLock { schedulerStatistics = statistics }
            started.signal()
            forward(prepared, statistics: statistics)
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.name = "packet delay line"
        thread.start()
        started.wait()
    }

    deinit { stop() }

    /// Packets forwarded so far, per link.
    public var forwarded: [Counts] { lock.withLock { counts } }

    /// How late the forwarder has been since the last call (or since it started), and starts counting afresh.
    public func takeLateness() -> Lateness {
        lock.withLock {
            defer { (worstRelease, worstWait) = (0, 0) }
            return Lateness(worstRelease: worstRelease, waitedForCPU: schedulerStatistics == nil ? nil : worstWait)
        }
    }

    /// Stops the thread and closes every device (which removes them); idempotent.
    public func stop() {
        let shouldStop = lock.withLock {
            defer { isStopped = true }
            return !isStopped
        }
        guard shouldStop else { return }
        #if canImport(Glibc)
            var one: UInt64 = 1
            _ = write(wake, &one, 8)
            finished.wait()
            close(wake)
            for fd in descriptors { close(fd) }
            lock.withLock {
                if let fd = schedulerStatistics { close(fd) }
                schedulerStatistics = nil
            }
        #endif
    }

    #if canImport(Glibc)
        private func forward(_ initial: [Direction], statistics: Int32?) {
            var directions = initial
            var waited = statistics.flatMap(RunQueue.waited(descriptor:)) ?? 0
            var polled = directions.map { pollfd(fd: $0.source, events: Int16(POLLIN), revents: 0) }
            polled.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                if let statistics, let total = RunQueue.waited(descriptor: statistics) {
                    // How long this wake waited for a CPU: what the packets it reads and releases were held up by.
                    if total > waited { lock.withLock { worstWait = max(worstWait, total - waited) } }
                    waited = total
                }
                let now = MonotonicClock.nanoseconds()
                var nextRelease = Int64.max
                for index in directions.indices {
                    release(&directions[index], link: index / 2, isDown: index % 2 == 0, now: now)
                    if let next = directions[index].nextRelease { nextRelease = min(nextRelease, next) }
                }
                for index in polled.indices { polled[index].revents = 0 }
                let timeout = nextRelease == .max ? -1 : max(0, nextRelease - MonotonicClock.nanoseconds())
                let ready = partyline_poll_nanoseconds(&polled, nfds_t(polled.count), timeout)
                if ready < 0 && errno != EINTR { return }
                if polled[polled.count - 1].revents != 0 { return }
                for index in directions.indices where polled[index].revents & Int16(POLLIN) != 0 {
                    receive(&directions[index], buffer: &buffer)
                }
            }
        }

        /// Reads every packet waiting at the direction's source and schedules it.
        private func receive(_ direction: inout Direction, buffer: inout [UInt8]) {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(direction.source, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                let arrival = MonotonicClock.nanoseconds()
                direction.waiting.append((direction.schedule.release(arrivedAt: arrival), Array(buffer[0..<count])))
            }
        }

        /// Writes the direction's packets that are due by `now`.
        private func release(_ direction: inout Direction, link: Int, isDown: Bool, now: Int64) {
            var delivered = 0
            var dropped = 0
            var latest: Int64 = 0
            while direction.head < direction.waiting.count, direction.waiting[direction.head].release <= now {
                let packet = direction.waiting[direction.head].packet
                latest = max(latest, now - direction.waiting[direction.head].release)
                direction.head += 1
                let written = packet.withUnsafeBytes { write(direction.destination, $0.baseAddress, $0.count) }
                if written == packet.count { delivered += 1 } else { dropped += 1 }
            }
            if direction.head > 256 && direction.head * 2 > direction.waiting.count {
                direction.waiting.removeFirst(direction.head)
                direction.head = 0
            }
            guard delivered + dropped > 0 else { return }
            lock.withLock {
                if isDown { counts[link].down += delivered } else { counts[link].up += delivered }
                counts[link].dropped += dropped
                worstRelease = max(worstRelease, latest)
            }
        }
    #else
        private func forward(_ initial: [Direction], statistics: Int32?) {}
    #endif
}
