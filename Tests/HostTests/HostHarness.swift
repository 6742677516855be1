import Foundation
import Net
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where SwiftPM put the built executables: beside the test bundle.
enum BuiltProducts {
    static var directory: URL {
        #if canImport(Darwin)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("partyline-host").path) {
            return candidate
        }
        return candidates[0]
    }

    static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A temporary folder removed when the test ends.
final class TemporaryDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "partyline-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A real `partyline-host` process on an ephemeral loopback port.
final class HostProcess {
    let process = Process()
    let port: UInt16
    let room: String
    let adminKey: String
    let data: String
    private let errorPipe = Pipe()
    private let inputPipe = Pipe()

    /// Starts the host with `arguments` (port, data and console flags are added) and waits for its ready line.
    init(_ arguments: [String] = [], data: String? = nil, keepOwnData: TemporaryDirectory? = nil) throws {
        let folder = data ?? (NSTemporaryDirectory() + "partyline-host-" + UUID().uuidString)
        self.data = folder
        process.executableURL = BuiltProducts.executable("partyline-host")
        process.arguments = ["--port", "0", "--bind", "127.0.0.1", "--data", folder, "--no-discovery", "--log-level", "debug"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        process.standardInput = inputPipe
        try process.run()
        let handle = output.fileHandleForReading
        var line = ""
        let deadline = Date().addingTimeInterval(15)
        while !line.hasSuffix("\n") && Date() < deadline {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += String(decoding: byte, as: UTF8.self)
        }
        var fields: [String: String] = [:]
        for part in line.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        guard line.hasPrefix("ready "), let port = fields["port"].flatMap(UInt16.init), let room = fields["room"], let key = fields["admin-key"] else {
            process.terminate()
            throw HarnessError("host did not print a ready line; got \"\(line)\"")
        }
        self.port = port
        self.room = room
        self.adminKey = key
    }

    /// Types a line at the host's console.
    func console(_ line: String) {
        inputPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends `signal` and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        return process.terminationStatus
    }

    /// Everything the host wrote to stderr so far (after it stopped).
    func errorOutput() -> String {
        String(decoding: errorPipe.fileHandleForReading.availableData, as: UTF8.self)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Connects a test client.
    func connect() throws -> TestClient { try TestClient(port: port) }

    /// Connects and joins as a player.
    func join(_ name: String, team: String, extra: JSONObject = [:]) throws -> TestClient {
        let client = try connect()
        var hello: JSONObject = ["type": "hello", "protocol": 1, "room": .string(room), "name": .string(name), "team": .string(team), "role": "player"]
        for member in extra { hello[member.key] = member.value }
        try client.send(hello)
        let welcome = try client.waitFor("welcome")
        client.token = welcome["token"]?.stringValue
        return client
    }

    /// Connects and joins as the operator.
    func admin() throws -> TestClient {
        let client = try connect()
        try client.send(["type": "hello", "room": .string(room), "role": "admin", "key": .string(adminKey)])
        _ = try client.waitFor("welcome")
        return client
    }

    /// Connects and joins as a board.
    func board() throws -> TestClient {
        let client = try connect()
        try client.send(["type": "hello", "room": .string(room), "role": "board"])
        _ = try client.waitFor("welcome")
        return client
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A blocking test connection that records every byte it receives.
final class TestClient {
    let socket: Socket
    private var buffer: [UInt8] = []
    /// Every byte received, for secrecy checks.
    private(set) var transcript: [UInt8] = []
    /// Lines received and not yet consumed by `waitFor`/`nextLine`.
    private(set) var pending: [String] = []
    var token: String?
    var isClosed = false

    init(port: UInt16) throws {
        socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
    }

    deinit { socket.close() }

    func send(raw bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { pointer in
                Glue.send(socket.fd, pointer.baseAddress, pointer.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw HarnessError("send failed: errno \(errno)") }
            offset += written
        }
    }

    func send(line: String) throws { try send(raw: Array((line + "\n").utf8)) }

    func send(_ message: JSONObject) throws { try send(raw: JSONEncoding.encodeLine(.object(message))) }

    /// Reads what arrives within `timeout` seconds into `pending`; returns false once the host closed.
    @discardableResult
    func pump(timeout: TimeInterval) -> Bool {
        guard !isClosed else { return false }
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout * 1000)))
        guard ready > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { isClosed = true; return false }
        transcript.append(contentsOf: chunk[0..<count])
        buffer.append(contentsOf: chunk[0..<count])
        while let newline = buffer.firstIndex(of: 0x0A) {
            var line = Array(buffer[..<newline])
            if line.last == 0x0D { line.removeLast() }
            buffer.removeSubrange(...newline)
            pending.append(String(decoding: line, as: UTF8.self))
        }
        return true
    }

    /// The next line, waiting up to `timeout`.
    func nextLine(timeout: TimeInterval = 5) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while pending.isEmpty {
            guard Date() < deadline else { throw HarnessError("no line within \(timeout) s") }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty { throw HarnessError("connection closed") }
        }
        return pending.removeFirst()
    }

    /// Waits for a JSON message of `type`; messages of other types stay pending for later waits.
    func waitFor(_ type: String, timeout: TimeInterval = 5, where predicate: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var scanned = 0
        while true {
            while scanned < pending.count {
                let line = pending[scanned]
                if let value = try? JSONParsing.parse(line), value["type"]?.stringValue == type, predicate(value) {
                    pending.remove(at: scanned)  // other messages stay pending for later waits
                    return value
                }
                scanned += 1
            }
            guard Date() < deadline else {
                throw HarnessError("no \(type) message within \(timeout) s; pending: \(pending.suffix(6).joined(separator: " | "))")
            }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty { throw HarnessError("connection closed while waiting for \(type)") }
        }
    }

    /// Waits for a text line containing `fragment`.
    func waitForText(_ fragment: String, timeout: TimeInterval = 5) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while !pending.isEmpty {
                let line = pending.removeFirst()
                if line.contains(fragment) { return line }
            }
            guard Date() < deadline else { throw HarnessError("no line containing \"\(fragment)\" within \(timeout) s") }
            if !pump(timeout: deadline.timeIntervalSinceNow) && pending.isEmpty { throw HarnessError("connection closed while waiting for \"\(fragment)\"") }
        }
    }

    /// Collects every JSON message that arrives within `duration`.
    func collect(for duration: TimeInterval) -> [JSONValue] {
        let deadline = Date().addingTimeInterval(duration)
        while Date() < deadline { if !pump(timeout: deadline.timeIntervalSinceNow) { break } }
        defer { pending.removeAll() }
        return pending.compactMap { try? JSONParsing.parse($0) }
    }

    /// Waits until the host closes the connection.
    func waitForClose(timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline { if !pump(timeout: 0.2) { return true } }
        return false
    }

    /// The transcript as text.
    var transcriptText: String { String(decoding: transcript, as: UTF8.self) }
}
