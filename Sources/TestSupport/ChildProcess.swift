import Foundation
import Net

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads what a descriptor delivers within a time limit, without threads.
public struct DescriptorReader {
    /// The descriptor read (a pipe, a socket or a pseudo-terminal).
    public let fd: Int32
    /// Everything read so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the other end closed.
    public private(set) var isClosed = false

    /// Reads from `fd`, which stays open (its owner closes it).
    public init(fd: Int32) { self.fd = fd }

    /// Reads whatever arrives within `milliseconds` (one read).
    public mutating func pump(milliseconds: Int32) {
        guard !isClosed else { return }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glue.recvOrRead(fd, $0.baseAddress, $0.count) }
        if count <= 0 {
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            isClosed = true
            return
        }
        bytes += chunk[0..<count]
    }

    /// Reads everything there is to read now, without waiting.
    public mutating func pumpAvailable() {
        var before = -1
        while bytes.count != before && !isClosed {
            before = bytes.count
            pump(milliseconds: 0)
        }
    }

    /// Everything read so far, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Where a child's standard error goes.
public enum ErrorDestination {
    /// A pipe this side reads (`errorText`).
    case pipe
    /// Nowhere.
    case discard
    /// A file, created empty.
    case file(String)
    /// A handle the caller owns (a pseudo-terminal).
    case handle(FileHandle)
}

/// A child process with piped stdin and stdout that the test or the bench drives line by line; stopped when it goes
/// away, and killed by `killAll()` (the bench's interrupt handler).
public class ChildProcess {
    /// The process.
    public let process = Process()
    /// What errors call it.
    public let name: String
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var reader: DescriptorReader
    private var errorReader: DescriptorReader
    private let errorFile: String?
    /// How many complete stdout lines the waits have consumed.
    private var consumed = 0

    /// Starts `executable` with `arguments` and `environment` added to this process's; stdin and stdout are pipes
    /// unless handles are given, stderr goes to `standardError`.
    ///
    /// A `launchPrefix` runs it through another program that then replaces itself with it, keeping the process id
    /// (`ip netns exec NAME`: the child lives in that network namespace).
    public init(
        _ executable: String, _ arguments: [String], name: String? = nil, environment: [String: String] = [:],
        launchPrefix: [String] = [], standardInput: FileHandle? = nil, standardOutput: FileHandle? = nil,
        standardError: ErrorDestination = .pipe
    ) throws {
        self.name = name ?? URL(fileURLWithPath: executable).lastPathComponent
        let command = launchPrefix + [executable] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // The child's stdin stays open while this object lives: the floor relay exits when it closes.
        process.standardInput = standardInput ?? input
        process.standardOutput = standardOutput ?? output
        var errorFile: String?
        switch standardError {
        case .pipe: process.standardError = errors
        case .discard: process.standardError = FileHandle.nullDevice
        case .file(let path):
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: path) ?? FileHandle.nullDevice
            errorFile = path
        case .handle(let handle): process.standardError = handle
        }
        self.errorFile = errorFile
        reader = DescriptorReader(fd: output.fileHandleForReading.fileDescriptor)
        errorReader = DescriptorReader(fd: errors.fileHandleForReading.fileDescriptor)
        do {
            try ProcessLaunch.serialized { try process.run() }
        } catch {
            throw HarnessError("cannot start \(executable): \(error)")
        }
        ChildProcess.registry.add(process.processIdentifier)
    }

    deinit { stop(timeout: 3) }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Everything written to stdout so far (as far as the waits have read).
    public var transcript: String { reader.text }

    /// Everything written to stderr so far: the pipe's text, or the file's.
    public var errorText: String {
        if let errorFile { return (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }
        errorReader.pumpAvailable()
        return errorReader.text
    }

    /// Complete stdout lines so far.
    public var lines: [String] {
        transcript.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Writes `line` and a newline to the child's stdin.
    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the next stdout line (after those already consumed) that satisfies `predicate`.
    @discardableResult
    public func waitForLine(
        _ what: String, timeout: TimeInterval = Patience.generous, where predicate: (String) -> Bool
    ) throws
        -> String
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let all = lines
            if let index = all.indices.dropFirst(consumed).first(where: { predicate(all[$0]) }) {
                consumed = index + 1
                return all[index]
            }
            guard Date() < deadline, !reader.isClosed else {
                throw HarnessError(
                    "no \(what) from \(name) within \(timeout) s; stdout so far:\n\(transcript)\n"
                        + "stderr:\n\(errorText.suffix(2000))")
            }
            reader.pump(milliseconds: 50)
        }
    }

    /// Waits for a stdout line containing `text`.
    @discardableResult
    public func waitForLine(containing text: String, timeout: TimeInterval = Patience.generous) throws -> String {
        try waitForLine("a line with \"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits for a stderr line (the host's console) containing `text`, after the last one this found; returns it.
    @discardableResult
    public func waitForErrorLine(containing text: String, timeout: TimeInterval = Patience.generous) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let all = errorText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            if let index = all.indices.dropFirst(errorLinesConsumed).first(where: { all[$0].contains(text) }) {
                errorLinesConsumed = index + 1
                return all[index]
            }
            guard Date() < deadline else {
                throw HarnessError(
                    "no stderr line with \"\(text)\" from \(name) within \(timeout) s; stderr so far:\n"
                        + errorText.suffix(3000))
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
    private var errorLinesConsumed = 0

    /// Waits for the process to end; its exit status, or nil when it did not end within `timeout`.
    public func waitForExit(timeout: TimeInterval = Patience.generous) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            reader.pump(milliseconds: 20)
        }
        if process.isRunning { return nil }
        process.waitUntilExit()
        reader.pump(milliseconds: 0)
        ChildProcess.registry.remove(pid)
        return process.terminationStatus
    }

    /// Sends `signal`, waits up to `timeout` seconds (then kills), and returns the exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = Patience.generous) -> Int32 {
        if process.isRunning { kill(pid, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        ChildProcess.registry.remove(pid)
        return process.terminationStatus
    }

    /// What a child that ran to its end wrote, and how it ended.
    public struct Finished {
        /// The exit status.
        public let terminationStatus: Int32
        /// Everything it wrote to stdout.
        public let output: String
        /// Everything it wrote to stderr.
        public let errors: String
    }

    /// Runs `executable` to its end (killed after `timeout` seconds), reading its stdout and stderr as it goes.
    public static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300) throws
        -> Finished
    {
        let child = try ChildProcess(executable, arguments)
        let deadline = Date().addingTimeInterval(timeout)
        while child.process.isRunning && Date() < deadline {
            child.reader.pump(milliseconds: 10)
            child.errorReader.pump(milliseconds: 0)
        }
        let status = child.stop(timeout: 0)
        child.reader.pumpAvailable()
        child.errorReader.pumpAvailable()
        return Finished(terminationStatus: status, output: child.reader.text, errors: child.errorReader.text)
    }

    /// Resident memory in bytes (VmRSS of /proc/PID/status; Linux only).
    public func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let number = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first
                .flatMap { Int($0) }
            return number.map { $0 * 1024 }
        }
        return nil
    }

    /// User plus system CPU seconds used so far (utime + stime of /proc/PID/stat; Linux only).
    public func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": field 3 is the state; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Kills every child still running (for an interrupt handler: nothing is left behind).
    public static func killAll() { registry.killAll() }

    private static let registry = Registry()

    /// The children still running.
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var pids: Set<Int32> = []

        func add(_ pid: Int32) { lock.withLock { _ = pids.insert(pid) } }
        func remove(_ pid: Int32) { lock.withLock { _ = pids.remove(pid) } }

        func killAll() {
            lock.withLock {
                for pid in pids { kill(pid, SIGKILL) }
                pids.removeAll()
            }
        }
    }
}

/// A server child (the host, the bench's floor relay) that announced itself with `ready port=<P> key=value…` on
/// stdout.
public class ServerProcess: ChildProcess {
    /// The `key=value` fields of the ready line (`port`, `room`, `admin-key`).
    public private(set) var readyFields: [String: String] = [:]
    /// The TCP port it listens on.
    public private(set) var port: UInt16 = 0

    /// Starts the server as `ChildProcess` does and waits up to `readyTimeout` seconds for its ready line.
    public init(
        _ executable: String, _ arguments: [String], name: String? = nil,
        environment: [String: String] = [:], launchPrefix: [String] = [], standardError: ErrorDestination = .pipe,
        readyTimeout: TimeInterval = 2 * Patience.generous
    ) throws {
        try super.init(
            executable, arguments, name: name, environment: environment, launchPrefix: launchPrefix,
            standardError: standardError)
        let line = (try? waitForLine("a ready line", timeout: readyTimeout) { $0.hasPrefix("ready ") }) ?? ""
        for part in line.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { readyFields[String(pair[0])] = String(pair[1]) }
        }
        guard let port = readyFields["port"].flatMap(UInt16.init) else {
            let errors = errorText.suffix(600)
            stop(signal: SIGKILL)
            throw HarnessError(
                "\(name ?? executable) did not print a ready line (got \"\(line)\"); "
                    + "its stderr: \(errors)")
        }
        self.port = port
    }
}
