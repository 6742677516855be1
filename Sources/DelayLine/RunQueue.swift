import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How long threads waited for a CPU while ready to run (Linux's scheduler statistics, `run_delay` of
/// `/proc/…/schedstat`): what a busy machine adds to a timed measurement, whatever the measured code does.
///
/// A thread's own work, sleep or blocking does not count; only the time it could have run but another task had
/// the CPU. Unknown (nil) where the kernel keeps no such statistics (not Linux, or built without `SCHED_INFO`).
public enum RunQueue {
    /// The run-queue wait of the thread whose schedstat file is open at `descriptor`, ns.
    static func waited(descriptor: Int32) -> Int64? {
        #if canImport(Glibc)
            var buffer = [UInt8](repeating: 0, count: 96)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            // "<ns on the CPU> <ns waiting for it> <time slices>"
            let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
            return fields.count >= 2 ? Int64(fields[1]) : nil
        #else
            return nil
        #endif
    }

    /// Opens the calling thread's schedstat file; the descriptor keeps naming this thread wherever it is read.
    static func openForCurrentThread() -> Int32? {
        #if canImport(Glibc)
            let fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
            return fd >= 0 ? fd : nil
        #else
            return nil
        #endif
    }

    /// The calling thread's id as the kernel numbers threads (what `/proc/<pid>/task` lists), or nil if unknown.
    public static func currentThreadID() -> Int32? {
        #if canImport(Glibc)
            var buffer = [CChar](repeating: 0, count: 64)
            // "/proc/thread-self" links to "<pid>/task/<tid>".
            let count = buffer.withUnsafeMutableBufferPointer { readlink("/proc/thread-self", $0.baseAddress!, 63) }
            guard count > 0 else { return nil }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let last = target.split(separator: "/").last else { return nil }
            return Int32(last)
        #else
            return nil
        #endif
    }

    /// How long the calling thread has waited for a CPU since it started, ns (nil: unknown).
    public static func waitedByCurrentThread() -> Int64? {
        guard let fd = openForCurrentThread() else { return nil }
        defer { close(fd) }
        return waited(descriptor: fd)
    }

    /// How long each thread of process `pid` has waited for a CPU since it started, ns, by thread id (empty when
    /// unknown or the process is gone).
    public static func waitedByThreads(ofProcess pid: Int32) -> [Int32: Int64] {
        let directory = "/proc/\(pid)/task"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [:] }
        var waits: [Int32: Int64] = [:]
        for name in names {
            guard let thread = Int32(name) else { continue }
            let fd = open("\(directory)/\(name)/schedstat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if let wait = waited(descriptor: fd) { waits[thread] = wait }
        }
        return waits
    }

    /// A process's run-queue wait from the moment this watch was made: the sum over its threads (a thread that
    /// started since counts from its start; one that ended stops counting).
    public struct ProcessWatch: Sendable {
        /// The process watched.
        public let pid: Int32
        private let start: [Int32: Int64]

        /// Starts watching process `pid`.
        public init(pid: Int32) {
            self.pid = pid
            start = RunQueue.waitedByThreads(ofProcess: pid)
        }

        /// The process's threads' run-queue wait since the watch was made, ns (nil: the kernel does not say).
        public func waited() -> Int64? {
            guard !start.isEmpty else { return nil }
            return RunQueue.waitedByThreads(ofProcess: pid).reduce(0) { sum, entry in
                sum + max(0, entry.value - (start[entry.key] ?? 0))
            }
        }
    }
}

/// First-in-first-out real-time scheduling (Linux `SCHED_FIFO`) for the timed parts of a measurement: a thread at
/// such a priority takes a CPU from every ordinary task the moment it is ready, so a machine busy with other work
/// (compilers, other tests) no longer delays it; its own work takes as long as ever.
///
/// Needs root (CAP_SYS_NICE), as the delay line does; without it every call does nothing and says so. The kernel
/// keeps 5 % of each second for ordinary tasks whatever real-time threads do.
public enum RealTime {
    /// The delay line's forwarding thread: above everything else a measurement runs, so it is never kept waiting.
    public static let forwarderPriority: Int32 = 30
    /// The host under measurement: above the test's own timed thread, below the delay line.
    public static let hostPriority: Int32 = 20
    /// A test thread while it sleeps until and sends a timed press: the lowest, so its last-millisecond spin never
    /// keeps the host or the delay line from a CPU.
    public static let pressPriority: Int32 = 10

    /// The calling thread's scheduling before `raiseCurrentThread`, for `restore`.
    public struct Previous: Sendable {
        let policy: Int32
        let priority: Int32
    }

    /// Moves the calling thread to `SCHED_FIFO` at `priority`; returns its scheduling before, or nil if the kernel
    /// refused (the thread is unchanged).
    public static func raiseCurrentThread(to priority: Int32) -> Previous? {
        #if canImport(Glibc)
            var policy: Int32 = 0
            var before = sched_param()
            guard pthread_getschedparam(pthread_self(), &policy, &before) == 0 else { return nil }
            var raised = sched_param(sched_priority: priority)
            guard pthread_setschedparam(pthread_self(), SCHED_FIFO, &raised) == 0 else { return nil }
            return Previous(policy: policy, priority: before.sched_priority)
        #else
            return nil
        #endif
    }

    /// Gives the calling thread back the scheduling `raiseCurrentThread` returned.
    public static func restore(_ previous: Previous?) {
        #if canImport(Glibc)
            guard let previous else { return }
            var parameters = sched_param(sched_priority: previous.priority)
            _ = pthread_setschedparam(pthread_self(), previous.policy, &parameters)
        #endif
    }

    /// Runs `body` with the calling thread raised to `priority` (see `raiseCurrentThread`), then lowers it again.
    public static func run<T>(at priority: Int32, _ body: () throws -> T) rethrows -> T {
        let previous = raiseCurrentThread(to: priority)
        defer { restore(previous) }
        return try body()
    }

    /// Moves thread `thread` (a kernel thread id, as `RunQueue.currentThreadID` gives) to `SCHED_FIFO` at
    /// `priority`; returns whether the kernel agreed.
    @discardableResult
    public static func raise(thread: Int32, to priority: Int32) -> Bool {
        #if canImport(Glibc)
            var parameters = sched_param(sched_priority: priority)
            return sched_setscheduler(thread, SCHED_FIFO, &parameters) == 0
        #else
            return false
        #endif
    }

    /// Moves every thread of process `pid` to `SCHED_FIFO` at `priority` (threads it starts later inherit it);
    /// returns whether the kernel agreed for all of them.
    @discardableResult
    public static func raise(process pid: Int32, to priority: Int32) -> Bool {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
            return false
        }
        return threads.compactMap { Int32($0) }.allSatisfy { raise(thread: $0, to: priority) }
    }
}
