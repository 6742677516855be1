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
