#if canImport(Glibc)
    import Glibc
    import CSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// Readiness the loop cares about for one descriptor.
public struct Interest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Data to read, a connection to accept, or the peer's end-of-file.
    public static let read = Interest(rawValue: 1)
    /// Room to write.
    public static let write = Interest(rawValue: 2)
}

/// One readiness report from the poller.
public struct Readiness: Sendable {
    /// The descriptor that is ready.
    public var fd: Int32
    /// Readable (or closed by the peer: the next read tells).
    public var isReadable: Bool
    /// Writable.
    public var isWritable: Bool
    /// The descriptor reported an error or hang-up.
    public var isHangUp: Bool
}

/// Waits for readiness on many descriptors at once: epoll on Linux, kqueue on Darwin.
///
/// The loop sleeps in `wait(timeoutMilliseconds:)` until a descriptor is ready or the timeout
/// (the next game deadline) passes: nothing is polled in a busy loop.
public final class Poller {
    #if canImport(Glibc)
        private let epoll: Int32
        private var events: [epoll_event]
    #else
        private let queue: Int32
        private var events: [kevent]
        private var writeInterest: Set<Int32> = []
    #endif
    private let wakeReader: Int32
    private let wakeWriter: Int32

    /// Creates a poller with room for `capacity` reports per wait.
    public init(capacity: Int = 1024) throws(SocketError) {
        #if canImport(Glibc)
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { throw SocketError.current("epoll_create1") }
            events = Array(repeating: epoll_event(), count: capacity)
            let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard wake >= 0 else { throw SocketError.current("eventfd") }
            wakeReader = wake
            wakeWriter = wake
        #else
            queue = kqueue()
            guard queue >= 0 else { throw SocketError.current("kqueue") }
            events = Array(repeating: kevent(), count: capacity)
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw SocketError.current("pipe") }
            wakeReader = fds[0]
            wakeWriter = fds[1]
            _ = fcntl(wakeReader, F_SETFL, O_NONBLOCK)
            _ = fcntl(wakeWriter, F_SETFL, O_NONBLOCK)
        #endif
        try add(wakeReader, interest: .read)
    }

    deinit {
        #if canImport(Glibc)
            Glue.close(epoll)
            Glue.close(wakeReader)
        #else
            Glue.close(queue)
            Glue.close(wakeReader)
            Glue.close(wakeWriter)
        #endif
    }

    /// A handle other threads (a console reader, a signal source) use to wake the loop.
    public var waker: Waker { Waker(fd: wakeWriter) }

    /// Whether `fd` is the poller's own wake-up descriptor.
    public func isWakeUp(_ fd: Int32) -> Bool { fd == wakeReader }

    /// Drains pending wake-ups.
    public func drainWakeUps() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ Glue.recvOrRead(wakeReader, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Starts watching `fd`.
    public func add(_ fd: Int32, interest: Interest) throws(SocketError) {
        #if canImport(Glibc)
            var event = epoll_event()
            event.events = Poller.mask(interest)
            event.data.fd = fd
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else { throw SocketError.current("epoll_ctl(add)") }
        #else
            try change(fd, filter: Int16(EVFILT_READ), flags: UInt16(EV_ADD))
            if interest.contains(.write) { try modify(fd, interest: interest) }
        #endif
    }

    /// Changes what `fd` is watched for.
    public func modify(_ fd: Int32, interest: Interest) throws(SocketError) {
        #if canImport(Glibc)
            var event = epoll_event()
            event.events = Poller.mask(interest)
            event.data.fd = fd
            guard epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) == 0 else { throw SocketError.current("epoll_ctl(mod)") }
        #else
            let wantsWrite = interest.contains(.write)
            guard wantsWrite != writeInterest.contains(fd) else { return }
            try change(fd, filter: Int16(EVFILT_WRITE), flags: UInt16(wantsWrite ? EV_ADD : EV_DELETE))
            if wantsWrite { writeInterest.insert(fd) } else { writeInterest.remove(fd) }
        #endif
    }

    /// Stops watching `fd` (call before closing it).
    public func remove(_ fd: Int32) {
        #if canImport(Glibc)
            var event = epoll_event()
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
        #else
            try? change(fd, filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE))
            if writeInterest.remove(fd) != nil {
                try? change(fd, filter: Int16(EVFILT_WRITE), flags: UInt16(EV_DELETE))
            }
        #endif
    }

    /// Whether a report is waiting now (a `wait` would return at once), without taking it: one `poll` of the
    /// epoll or kqueue descriptor, which is readable while any of its descriptors is ready.
    public var hasReadyReports: Bool {
        #if canImport(Glibc)
            var entry = pollfd(fd: epoll, events: Int16(POLLIN), revents: 0)
        #else
            var entry = pollfd(fd: queue, events: Int16(POLLIN), revents: 0)
        #endif
        return poll(&entry, 1, 0) > 0
    }

    /// Sleeps until something is ready or `timeoutMilliseconds` pass (-1: no timeout), then reports readiness.
    public func wait(timeoutMilliseconds: Int32) throws(SocketError) -> ArraySlice<Readiness> {
        #if canImport(Glibc)
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
            }
            if count < 0 {
                if errno == EINTR { return [] }
                throw SocketError.current("epoll_wait")
            }
            var result: [Readiness] = []
            result.reserveCapacity(Int(count))
            for index in 0..<Int(count) {
                let event = events[index]
                let bits = event.events
                result.append(
                    Readiness(
                        fd: event.data.fd,
                        isReadable: bits & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                        isWritable: bits & EPOLLOUT.rawValue != 0,
                        isHangUp: bits & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0))
            }
            return result[...]
        #else
            var timeout = timespec(
                tv_sec: Int(timeoutMilliseconds / 1000), tv_nsec: Int(timeoutMilliseconds % 1000) * 1_000_000)
            let count = events.withUnsafeMutableBufferPointer {
                kevent(queue, nil, 0, $0.baseAddress, Int32($0.count), timeoutMilliseconds < 0 ? nil : &timeout)
            }
            if count < 0 {
                if errno == EINTR { return [] }
                throw SocketError.current("kevent")
            }
            var merged: [Int32: Readiness] = [:]
            for index in 0..<Int(count) {
                let event = events[index]
                let fd = Int32(event.ident)
                var readiness = merged[fd] ?? Readiness(fd: fd, isReadable: false, isWritable: false, isHangUp: false)
                if event.filter == Int16(EVFILT_READ) { readiness.isReadable = true }
                if event.filter == Int16(EVFILT_WRITE) { readiness.isWritable = true }
                if event.flags & UInt16(EV_ERROR) != 0 { readiness.isHangUp = true }
                merged[fd] = readiness
            }
            return Array(merged.values)[...]
        #endif
    }

    #if canImport(Glibc)
        private static func mask(_ interest: Interest) -> UInt32 {
            var bits: UInt32 = EPOLLRDHUP.rawValue
            if interest.contains(.read) { bits |= EPOLLIN.rawValue }
            if interest.contains(.write) { bits |= EPOLLOUT.rawValue }
            return bits
        }
    #else
        private func change(_ fd: Int32, filter: Int16, flags: UInt16) throws(SocketError) {
            var event = kevent(ident: UInt(fd), filter: filter, flags: flags, fflags: 0, data: 0, udata: nil)
            guard kevent(queue, &event, 1, nil, 0, nil) >= 0 else { throw SocketError.current("kevent(change)") }
        }
    #endif
}

/// A thread-safe handle that wakes a `Poller` from another thread or a signal handler.
public struct Waker: Sendable {
    let fd: Int32

    /// Wakes the poller's `wait` (async-signal-safe: one `write`).
    public func wake() {
        #if canImport(Glibc)
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { Glibc.write(fd, $0.baseAddress, 8) }
        #else
            var one: UInt8 = 1
            _ = Darwin.write(fd, &one, 1)
        #endif
    }
}

extension Glue {
    /// `read(2)` on a non-socket descriptor.
    public static func recvOrRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.read(fd, buffer, count)
        #else
            return Darwin.read(fd, buffer, count)
        #endif
    }
}

/// Monotonic time, immune to wall-clock changes.
public enum MonotonicClock {
    /// Milliseconds on the monotonic clock.
    public static func milliseconds() -> Int64 { nanoseconds() / 1_000_000 }

    /// Nanoseconds on the monotonic clock.
    public static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
