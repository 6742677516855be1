import Foundation
import Host
import Protocol
import Rules

/// An `Outlet` that keeps what the host wrote, per connection and with the clock when it was written, and which
/// connections it closed. Like the transport, it lets a turn's bytes out only when the core settles the turn
/// (`TurnOutput`): committed, held while the journal cannot save, or sent ahead of held bytes.
package final class RecordingOutlet: Outlet, TurnOutput {
    package var output: [SessionID: [(at: Int64, bytes: [UInt8])]] = [:]
    package var closing: [SessionID] = []
    package private(set) var closed: Set<SessionID> = []
    /// The host's clock, read when bytes are written.
    package var clock: () -> Int64 = { 0 }
    /// This turn's bytes and those held behind the journal, in order per connection.
    private var fresh: [(id: SessionID, at: Int64, bytes: [UInt8])] = []
    private var held: [(id: SessionID, at: Int64, bytes: [UInt8])] = []

    package func send(_ bytes: [UInt8], to id: SessionID) {
        guard !closed.contains(id) else { return }
        fresh.append((id, clock(), bytes))
    }

    package var hasPendingOutput: Bool { !fresh.isEmpty || !held.isEmpty }

    package func commitOutput() {
        for chunk in held + fresh { output[chunk.id, default: []].append((chunk.at, chunk.bytes)) }
        held = []
        fresh = []
    }

    package func holdOutput() {
        held += fresh
        fresh = []
    }

    package func commitOutputAheadOfHeld() {
        for chunk in fresh { output[chunk.id, default: []].append((chunk.at, chunk.bytes)) }
        fresh = []
    }

    package func close(_ id: SessionID, afterFlush: Bool) {
        guard !closed.contains(id) else { return }
        closed.insert(id)
        closing.append(id)
    }

    /// Takes everything written to `id` so far.
    package func take(_ id: SessionID) -> [(at: Int64, bytes: [UInt8])] {
        defer { output[id] = [] }
        return output[id] ?? []
    }
}

/// The host without sockets, like swift-nio's `EmbeddedChannel`: lines in, messages out, a clock moved by hand.
///
/// Each call is one turn of the host's loop: the input, then whatever is due, then closes are reported.
package final class EmbeddedHost {
    package var now: Int64 = 1_000
    package let outlet = RecordingOutlet()
    package let core: HostCore
    package let data = TemporaryDirectory()
    private var nextID = 1
    private var rng: SplitMix64
    package var consoleLines: [String] = []

    /// A host with `options` (fairness off unless asked: presses count when they arrive) and a fixed seed.
    package init(
        options: HostOptions = EmbeddedHost.defaultOptions, catalog: ModeCatalog = .standard, room: String = "ROOM",
        adminKey: String = "secret-key", seed: UInt64 = 7
    ) throws {
        rng = SplitMix64(seed: seed)
        let storage = try Storage(directory: data.path, log: Logger(level: .error) { _ in })
        var clockSource: () -> Int64 = { 0 }
        var randomSource: () -> UInt64 = { 0 }
        var console: (String) -> Void = { _ in }
        let environment = HostEnvironment(
            now: { clockSource() }, random: { randomSource() }, log: Logger(level: .error) { _ in },
            consoleOutput: { console($0) }, showStatus: { _ in })
        core = try HostCore(
            options: options, environment: environment, storage: storage, outlet: outlet, roomCode: room,
            adminKey: adminKey, port: 4747, catalog: catalog)
        try storage.startJournal(room: room, adminKey: adminKey, at: now)
        clockSource = { [unowned self] in now }
        outlet.clock = clockSource
        randomSource = { [unowned self] in rng.next() }
        console = { [unowned self] in consoleLines.append($0) }
    }

    package static var defaultOptions: HostOptions {
        var options = HostOptions()
        options.isFairnessEnabled = false
        options.isDiscoveryEnabled = false
        options.revealSeconds = 5
        return options
    }

    /// A new connection.
    package func connect(peer: String = "127.0.0.1") -> EmbeddedConnection {
        let id = SessionID(value: nextID)
        nextID += 1
        core.opened(id, peer: peer)
        turn()
        return EmbeddedConnection(id: id, host: self)
    }

    /// Ends one turn of the loop: due work, the closes the outlet was asked for, then the journal's group commit
    /// before the turn's output is let out (as `Server.flush`).
    package func turn() {
        core.runDueWork()
        while !outlet.closing.isEmpty {
            let closing = outlet.closing
            outlet.closing = []
            for id in closing { core.closed(id, reason: "closed by the host") }
        }
        core.settleTurn(outlet)
        core.renewClockLeaseIfDue()
    }

    /// Moves the clock by `milliseconds`, running every deadline on the way at its own instant.
    package func advance(by milliseconds: Int64) {
        let target = now + milliseconds
        while core.nextDeadline <= target, core.nextDeadline > now {
            now = core.nextDeadline
            turn()
        }
        now = target
        turn()
    }

    /// A line typed on the host's console; returns what the console printed.
    @discardableResult
    package func console(_ line: String) -> [String] {
        consoleLines = []
        core.console(line)
        turn()
        return consoleLines
    }

    /// A player who joined with JSON (and took in the lobby, welcome and catch-up).
    package func player(_ name: String, team: String) throws -> EmbeddedConnection {
        let connection = connect()
        connection.send(["type": "hello", "room": "ROOM", "name": .string(name), "team": .string(team)])
        guard connection.nextUnread("welcome") != nil else { throw EmbeddedError.missing("welcome") }
        return connection
    }

    /// A board or operator that joined with JSON.
    package func watcher(_ role: Role) throws -> EmbeddedConnection {
        let connection = connect()
        var hello: JSONObject = ["type": "hello", "room": "ROOM", "role": .string(role.rawValue)]
        if role == .admin { hello["key"] = "secret-key" }
        connection.send(hello)
        guard connection.nextUnread("welcome") != nil else { throw EmbeddedError.missing("welcome") }
        return connection
    }
}

/// One embedded connection: what it sent and what it received, as JSON messages or text lines.
package final class EmbeddedConnection {
    package let id: SessionID
    package unowned let host: EmbeddedHost
    private var pending: [UInt8] = []
    /// Every JSON message received so far, in order.
    package private(set) var received: [JSONValue] = []
    /// When each message of `received` arrived, on the host's clock.
    package private(set) var arrivals: [Int64] = []
    /// Where `drain` and `expect` each stopped reading (they read independently).
    private var drained = 0
    private var expected = 0

    package init(id: SessionID, host: EmbeddedHost) {
        self.id = id
        self.host = host
    }

    /// Sends one JSON message (one turn of the host's loop).
    package func send(_ message: JSONObject) { send(line: JSONValue.object(message).description) }

    /// Sends one typed line.
    package func send(line: String) {
        host.core.received(Array(line.utf8), from: id)
        host.turn()
    }

    /// The connection drops without a goodbye (a laptop closed, Wi-Fi lost): the player is away, keeping their place.
    package func drop() {
        host.core.closed(id, reason: "the connection dropped")
        host.turn()
    }

    /// Whether the host closed this connection.
    package var isClosed: Bool { host.outlet.closed.contains(id) }

    private func collect() {
        for chunk in host.outlet.take(id) {
            pending += chunk.bytes
            while let end = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<end])
                pending.removeSubrange(...end)
                if let value = try? JSONParsing.parse(line) {
                    received.append(value)
                    arrivals.append(chunk.at)
                }
                textLines.append(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .newlines))
            }
        }
    }

    /// Every line received so far, as text (for text-mode connections).
    package private(set) var textLines: [String] = []

    /// The messages that arrived since the last call.
    package func drain() -> [JSONValue] { drainTimed().map(\.message) }

    /// The messages that arrived since the last call, with when each arrived.
    package func drainTimed() -> [(message: JSONValue, at: Int64)] {
        collect()
        defer { drained = received.count }
        return (drained..<received.count).map { (received[$0], arrivals[$0]) }
    }

    /// The next unread message of `type`, skipping others (the tests' `expect` reads on from there); nil when none
    /// arrived.
    package func nextUnread(_ type: String) -> JSONValue? {
        collect()
        while expected < received.count {
            let message = received[expected]
            expected += 1
            if message["type"]?.stringValue == type { return message }
        }
        return nil
    }

    /// The types of the messages that arrived since the last call.
    package func types() -> [String] { drain().compactMap { $0["type"]?.stringValue } }

    /// The text lines that arrived since the last call (text mode).
    package func text() -> String {
        collect()
        defer { textRead = textLines.count }
        return textLines[textRead...].joined(separator: "\n")
    }
    private var textRead = 0
}

/// What an embedded connection did not receive.
package enum EmbeddedError: Error, CustomStringConvertible {
    /// No unread message of this type arrived.
    case missing(String)

    /// "no welcome arrived".
    package var description: String {
        switch self {
        case .missing(let type): "no \(type) arrived"
        }
    }
}
