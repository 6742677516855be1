import Foundation
import Net
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test step that did not happen in time, or a process that misbehaved.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where SwiftPM put the built executables: beside the test binary (Linux) or the test bundle (macOS).
enum Products {
    static var directory: URL {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL,
                          Bundle.main.bundleURL.deletingLastPathComponent()]
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("partyline").path) {
            return candidate
        }
        return candidates[0]
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// Reads what a descriptor delivers within a time limit, without threads.
struct DescriptorReader {
    let fd: Int32
    private(set) var bytes: [UInt8] = []
    private(set) var isClosed = false

    init(fd: Int32) { self.fd = fd }

    /// Reads whatever arrives within `milliseconds`.
    mutating func pump(milliseconds: Int32) {
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

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A child process with piped stdin and stdout, killed when the test ends.
final class Child {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var reader: DescriptorReader
    private var errorReader: DescriptorReader
    /// How many complete stdout lines the waits have consumed.
    private var consumed = 0

    init(_ executable: String, _ arguments: [String], stdin: FileHandle? = nil, stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws {
        process.executableURL = URL(fileURLWithPath: Products.path(executable))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TERM"] = "xterm"
        process.environment = environment
        process.standardInput = stdin ?? input
        process.standardOutput = stdout ?? output
        process.standardError = stderr ?? errors
        reader = DescriptorReader(fd: output.fileHandleForReading.fileDescriptor)
        errorReader = DescriptorReader(fd: errors.fileHandleForReading.fileDescriptor)
        try process.run()
    }

    deinit { stop() }

    /// Everything written to stdout so far.
    var transcript: String { reader.text }

    /// Everything written to stderr so far.
    var errorText: String {
        errorReader.pump(milliseconds: 0)
        return errorReader.text
    }

    /// Complete stdout lines so far.
    var lines: [String] { transcript.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the next stdout line (after those already consumed) that satisfies `predicate`.
    @discardableResult
    func waitForLine(_ what: String, timeout: TimeInterval = 10, where predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let all = lines
            if let index = all.indices.dropFirst(consumed).first(where: { predicate(all[$0]) }) {
                consumed = index + 1
                return all[index]
            }
            guard Date() < deadline, !reader.isClosed else {
                throw HarnessError("no \(what) within \(timeout) s; stdout so far:\n\(transcript)\nstderr:\n\(errorText)")
            }
            reader.pump(milliseconds: 50)
        }
    }

    /// Waits for a stdout line containing `text`.
    @discardableResult
    func waitForLine(containing text: String, timeout: TimeInterval = 10) throws -> String {
        try waitForLine("a line with \"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits for the process to end; nil when it did not within `timeout`.
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            reader.pump(milliseconds: 20)
        }
        if process.isRunning { return nil }
        process.waitUntilExit()
        reader.pump(milliseconds: 0)
        return process.terminationStatus
    }

    /// Ends the process (SIGTERM, then SIGKILL).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A real `partyline-host` on an ephemeral loopback port.
final class HostUnderTest {
    let child: Child
    let port: UInt16
    let room: String
    let adminKey: String
    let data: String

    init(discovery: Bool = false) throws {
        data = NSTemporaryDirectory() + "partyline-client-test-" + UUID().uuidString
        var arguments = ["--port", "0", "--data", data, "--no-console", "--fresh", "--bind", "127.0.0.1"]
        if !discovery { arguments.append("--no-discovery") }
        child = try Child("partyline-host", arguments, stderr: FileHandle.nullDevice)
        let ready = try child.waitForLine(containing: "ready ", timeout: 15)
        var fields: [String: String] = [:]
        for part in ready.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let port = fields["port"].flatMap(UInt16.init), let room = fields["room"], let key = fields["admin-key"] else {
            throw HarnessError("bad ready line: \(ready)")
        }
        self.port = port
        self.room = room
        adminKey = key
    }

    deinit {
        child.stop()
        try? FileManager.default.removeItem(atPath: data)
    }

    /// A raw JSON connection that joined with `hello` (fields added to type and room).
    func connect(_ hello: JSONObject) throws -> RawClient {
        let client = try RawClient(port: port)
        var message: JSONObject = ["type": "hello", "room": .string(room)]
        for member in hello { message[member.key] = member.value }
        try client.send(message)
        _ = try client.waitFor("welcome")
        return client
    }

    func player(_ name: String, team: String) throws -> RawClient {
        try connect(["name": .string(name), "team": .string(team)])
    }

    func admin() throws -> RawClient {
        try connect(["role": "admin", "key": .string(adminKey)])
    }
}

/// A blocking JSON connection to the host, as a second player or the operator.
final class RawClient {
    let socket: Socket
    private var buffer: [UInt8] = []
    private(set) var messages: [JSONValue] = []

    init(port: UInt16) throws {
        socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
    }

    deinit { socket.close() }

    func send(_ message: JSONObject) throws {
        let bytes = JSONEncoding.encodeLine(.object(message))
        let written = bytes.withUnsafeBytes { Glue.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == bytes.count else { throw HarnessError("send failed") }
    }

    /// Reads for up to `milliseconds`.
    func pump(milliseconds: Int32) {
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            if let value = try? JSONParsing.parse(line) { messages.append(value) }
        }
    }

    /// Waits for the next message of `type` (consuming everything before it) that satisfies `predicate`.
    @discardableResult
    func waitFor(_ type: String, timeout: TimeInterval = 10, where predicate: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = messages.firstIndex(where: { $0["type"]?.stringValue == type && predicate($0) }) {
                let message = messages[index]
                messages.removeSubrange(...index)
                return message
            }
            guard Date() < deadline else { throw HarnessError("no \(type) within \(timeout) s; got \(messages.map(\.description))") }
            pump(milliseconds: 50)
        }
    }
}

/// A TCP relay between the client and the host whose connections the test can cut.
///
/// It runs on its own thread with its state local to that thread; the test talks to it only through a pipe
/// (`c` cuts every connection, `q` stops it), so nothing mutable is shared.
final class CuttableProxy {
    let port: UInt16
    private let controlFD: Int32
    private let thread: Thread

    init(to target: UInt16) throws {
        let listener = try Socket.makeListener(address: "127.0.0.1", port: 0)
        port = try listener.localPort()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HarnessError("pipe failed") }
        controlFD = fds[1]
        let readFD = fds[0]
        let listenerFD = listener.fd
        thread = Thread { CuttableProxy.run(listenerFD: listenerFD, controlFD: readFD, target: target) }
        thread.start()
    }

    /// Closes every relayed connection at once, as a flaky network would.
    func cut() {
        var byte = UInt8(ascii: "c")
        _ = write(controlFD, &byte, 1)
    }

    deinit {
        var byte = UInt8(ascii: "q")
        _ = write(controlFD, &byte, 1)
        close(controlFD)
    }

    private static func run(listenerFD: Int32, controlFD: Int32, target: UInt16) {
        var pairs: [(Int32, Int32)] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        func closeAll() {
            for (a, b) in pairs {
                shutdown(a, Int32(SHUT_RDWR))
                shutdown(b, Int32(SHUT_RDWR))
                close(a)
                close(b)
            }
            pairs = []
        }
        defer {
            closeAll()
            close(listenerFD)
            close(controlFD)
        }
        while true {
            var descriptors = [pollfd(fd: listenerFD, events: Int16(POLLIN), revents: 0), pollfd(fd: controlFD, events: Int16(POLLIN), revents: 0)]
            for (a, b) in pairs {
                descriptors.append(pollfd(fd: a, events: Int16(POLLIN), revents: 0))
                descriptors.append(pollfd(fd: b, events: Int16(POLLIN), revents: 0))
            }
            guard poll(&descriptors, nfds_t(descriptors.count), 1000) >= 0 else { continue }
            if descriptors[1].revents != 0 {
                var command: UInt8 = 0
                if read(controlFD, &command, 1) <= 0 || command == UInt8(ascii: "q") { return }
                closeAll()
                continue
            }
            if descriptors[0].revents != 0 {
                let accepted = accept(listenerFD, nil, nil)
                if accepted >= 0 {
                    _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL, 0) & ~O_NONBLOCK)
                    if let upstream = try? Socket.connectBlocking(host: "127.0.0.1", port: target) {
                        pairs.append((accepted, upstream.fd))
                    } else {
                        close(accepted)
                    }
                }
            }
            var broken: Set<Int32> = []
            for descriptor in descriptors.dropFirst(2) where descriptor.revents != 0 {
                guard let pair = pairs.first(where: { $0.0 == descriptor.fd || $0.1 == descriptor.fd }) else { continue }
                let other = pair.0 == descriptor.fd ? pair.1 : pair.0
                let count = buffer.withUnsafeMutableBytes { recv(descriptor.fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 {
                    broken.insert(pair.0)
                    continue
                }
                _ = buffer.withUnsafeBytes { send(other, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            }
            for fd in broken {
                guard let index = pairs.firstIndex(where: { $0.0 == fd }) else { continue }
                close(pairs[index].0)
                close(pairs[index].1)
                pairs.remove(at: index)
            }
        }
    }
}
