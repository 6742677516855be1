import Foundation
import Net
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server the bench started (the host or the floor relay): its ready line, its pid, its /proc figures.
final class ChildProcess {
    let process = Process()
    /// The `key=value` fields of the child's ready line (`port`, `room`, `admin-key`).
    let fields: [String: String]
    let port: UInt16
    let name: String

    /// Starts `executable` with `arguments`, its stderr going to `logPath`, and waits for `ready port=…` on stdout.
    init(name: String, executable: String, arguments: [String], logPath: String) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        // The child's stdin stays open while the bench runs: the floor relay exits when it closes.
        process.standardInput = Pipe()
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath) ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError("cannot start \(executable): \(error)")
        }
        ChildRegistry.shared.add(process.processIdentifier)
        let fd = output.fileHandleForReading.fileDescriptor
        var line: [UInt8] = []
        let deadline = MonotonicClock.milliseconds() + 20_000
        while line.last != 0x0A && MonotonicClock.milliseconds() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else {
                if !process.isRunning { break }
                continue
            }
            var byte: UInt8 = 0
            if read(fd, &byte, 1) != 1 { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var fields: [String: String] = [:]
        for part in text.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard text.hasPrefix("ready "), let port = fields["port"].flatMap(UInt16.init) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw BenchError("\(name) did not print a ready line (got \"\(text)\"); its stderr: \(log.suffix(600))")
        }
        self.fields = fields
        self.port = port
    }

    var pid: Int32 { process.processIdentifier }

    /// Resident memory in bytes (VmRSS of /proc/PID/status).
    func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let number = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first.flatMap { Int($0) }
            return number.map { $0 * 1024 }
        }
        return nil
    }

    /// User plus system CPU seconds used so far (utime + stime of /proc/PID/stat).
    func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": field 3 is the state; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Stops the child with SIGTERM (SIGKILL after 10 s) and waits for it.
    func stop() {
        if process.isRunning { kill(pid, SIGTERM) }
        let deadline = MonotonicClock.milliseconds() + 10_000
        while process.isRunning && MonotonicClock.milliseconds() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        ChildRegistry.shared.remove(pid)
    }
}

/// The children still running, killed if the bench is interrupted.
final class ChildRegistry: @unchecked Sendable {
    static let shared = ChildRegistry()
    private let lock = NSLock()
    private var pids: Set<Int32> = []

    func add(_ pid: Int32) { lock.withLock { _ = pids.insert(pid) } }
    func remove(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }

    /// Kills every child still registered (on SIGINT/SIGTERM).
    func killAll() {
        lock.withLock {
            for pid in pids { kill(pid, SIGKILL) }
            pids.removeAll()
        }
    }
}

/// The path of the running executable.
func ownExecutablePath() -> String {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if length > 0 {
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
}
