import Foundation
import Protocol

/// A real `partyline-host` on an ephemeral loopback port, with its room, its operator key and helpers that connect
/// test clients to it.
public final class HostProcess: ServerProcess {
    /// The room code from the ready line.
    public private(set) var room = ""
    /// The operator's key from the ready line.
    public private(set) var adminKey = ""
    /// The data folder the host uses.
    public let data: String
    /// Whether `data` was made for this host and is removed with it.
    private let ownsData: Bool
    /// This host's place among the hosts the tests run at once, given back when it stops.
    private let slot = HostSlot()

    /// Starts the host on port 0 of `bind` (loopback unless told) with the data folder `data` (a fresh one, removed
    /// afterwards, when nil), LAN discovery off unless `discovery`, logging at `logLevel`, then `arguments`; waits
    /// for its ready line. `launchPrefix` starts it through `ip netns exec …` (see `ChildProcess`); `environment` is
    /// added to this process's.
    public init(
        _ arguments: [String] = [], data: String? = nil, discovery: Bool = false, logLevel: String = "debug",
        bind: String = "127.0.0.1", executable: String? = nil, launchPrefix: [String] = [],
        standardError: ErrorDestination = .pipe, environment: [String: String] = [:]
    ) throws {
        let folder = data ?? (NSTemporaryDirectory() + "partyline-host-" + UUID().uuidString)
        self.data = folder
        ownsData = data == nil
        var all = ["--port", "0", "--bind", bind, "--data", folder, "--log-level", logLevel]
        if !discovery { all.append("--no-discovery") }
        all += arguments
        try super.init(
            executable ?? BuiltProducts.path("partyline-host"), all, name: "partyline-host", environment: environment,
            launchPrefix: launchPrefix, standardError: standardError)
        guard let room = readyFields["room"], let key = readyFields["admin-key"] else {
            stop(signal: SIGKILL)
            throw HarnessError("the host's ready line has no room or admin key: \(readyFields)")
        }
        self.room = room
        self.adminKey = key
    }

    /// Stops the host as `ChildProcess.stop` does and gives its slot to the next test's host.
    @discardableResult
    public override func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = Patience.generous) -> Int32 {
        defer { slot.release() }
        return super.stop(signal: signal, timeout: timeout)
    }

    deinit {
        stop(timeout: 3)
        if ownsData { try? FileManager.default.removeItem(atPath: data) }
    }

    /// Types a line at the host's console (its stdin).
    public func console(_ line: String) { send(line) }

    /// Everything the host wrote to stderr so far.
    public func errorOutput() -> String { errorText }

    /// Connects a test client (no hello sent), from the local address `source` when given.
    public func connect(from source: String? = nil) throws -> TestClient { try TestClient(port: port, from: source) }

    /// Connects (from `source` when given) and joins as a player of `team`, with `extra` hello fields; keeps the
    /// resume token.
    public func join(_ name: String, team: String, extra: JSONObject = [:], from source: String? = nil) throws
        -> TestClient
    {
        let client = try connect(from: source)
        var hello: JSONObject = [
            "type": "hello", "protocol": 1, "room": .string(room), "name": .string(name),
            "team": .string(team), "role": "player",
        ]
        for member in extra { hello[member.key] = member.value }
        try client.send(hello)
        let welcome = try client.waitFor("welcome")
        client.token = welcome["token"]?.stringValue
        return client
    }

    /// Connects and joins as the operator.
    public func admin() throws -> TestClient {
        let client = try connect()
        try client.send(["type": "hello", "room": .string(room), "role": "admin", "key": .string(adminKey)])
        _ = try client.waitFor("welcome")
        return client
    }

    /// Connects and joins as a board.
    public func board() throws -> TestClient {
        let client = try connect()
        try client.send(["type": "hello", "room": .string(room), "role": "board"])
        _ = try client.waitFor("welcome")
        return client
    }
}
