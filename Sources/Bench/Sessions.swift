import Foundation
import Net
import Protocol
import TestSupport

/// Which floor relay: the bench's own Swift one (on the project's `Net` code) or the C one (`CFloorRelay`).
enum FloorLanguage: String {
    case swift, c
}

/// What every part of a run shares: options, the host binary, the temporary folder, progress output.
final class BenchContext {
    let options: BenchOptions
    let hostBinary: String
    let ownBinary: String
    let folder: String
    let dataFolder: String
    private var childCount = 0

    init(options: BenchOptions, hostBinary: String) {
        self.options = options
        self.hostBinary = hostBinary
        ownBinary = BuiltProducts.currentExecutable
        folder = NSTemporaryDirectory() + "partyline-bench-" + UUID().uuidString.prefix(8)
        dataFolder = folder + "/data"
        try? FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
    }

    /// Progress on stderr: always the section headers, details with --verbose.
    func say(_ text: String, detail: Bool = false) {
        guard !detail || options.isVerbose else { return }
        FileHandle.standardError.write(Data(("bench: " + text + "\n").utf8))
    }

    func nextLogPath(_ name: String) -> String {
        childCount += 1
        return folder + "/\(childCount)-\(name).log"
    }

    /// Starts a floor relay (this executable with --floor-relay, or --c-floor-relay for the one written in C).
    func startFloor(_ language: FloorLanguage = .swift) throws -> ServerProcess {
        switch language {
        case .swift:
            return try ServerProcess(
                ownBinary, ["--floor-relay"], name: "floor relay", standardError: .file(nextLogPath("floor")))
        case .c:
            return try ServerProcess(
                ownBinary, ["--c-floor-relay"], name: "C floor relay", standardError: .file(nextLogPath("c-floor")))
        }
    }

    /// Starts a host on 127.0.0.1 with the bench's data folder (fresh room each time) and the given extra flags.
    func startHost(maxClients: Int, fsync: Bool = true, extra: [String] = []) throws -> HostProcess {
        var arguments = [
            "--no-console", "--fresh", "--max-clients", String(maxClients), "--connection-rate", "0",
            "--rate", "1000000",
        ]
        if !fsync { arguments.append("--no-fsync") }
        arguments += extra
        return try HostProcess(
            arguments, data: dataFolder, logLevel: "warning", executable: hostBinary,
            standardError: .file(nextLogPath("host")))
    }

    func removeFolder() {
        guard !options.isKeepingData else {
            say("kept the data folder and logs in \(folder)")
            return
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A running host with a client pool, an operator connection and helpers for the admin protocol.
final class HostSession {
    let context: BenchContext
    let host: HostProcess
    let pool: ClientPool
    let room: String
    let adminKey: String
    /// The operator's slot, or nil when the session has none.
    private(set) var adminSlot: Int?
    private var requestNumber = 0
    /// Monotonic nanoseconds when the last reply to `request` was read.
    private(set) var lastReplyAt: Int64 = 0
    /// Player slots with their team index, in join order.
    private(set) var players: [(slot: Int, team: Int)] = []
    private(set) var teamCount = 0

    init(
        context: BenchContext, capacity: Int, maxClients: Int, fsync: Bool = true, extra: [String] = [],
        withAdmin: Bool = true, followsOrders: Bool = false, webSocket: Bool = false
    ) throws {
        self.context = context
        host = try context.startHost(maxClients: maxClients, fsync: fsync, extra: extra)
        room = host.room
        adminKey = host.adminKey
        do {
            pool = try ClientPool(
                port: host.port, capacity: capacity + 1, readerCount: context.options.readers,
                followsOrders: followsOrders, webSocket: webSocket)
        } catch {
            host.stop()
            throw error
        }
        if withAdmin {
            do {
                let slot = try pool.open(isTarget: false, isKeeping: true)
                adminSlot = slot
                try pool.send(
                    slot, ["type": "hello", "room": .string(room), "role": "admin", "key": .string(adminKey)])
                guard pool.tally.wait(timeout: 10, until: { $0.welcomeAt[slot] != 0 }) else {
                    throw BenchError("the operator was not welcomed")
                }
            } catch {
                close()
                throw error
            }
        }
    }

    /// Stops the host and closes every client.
    func close() {
        pool.close()
        host.stop()
    }

    /// Sends an operator request and waits for its reply (`ok`, `error`, or the requested message).
    @discardableResult
    func request(_ message: JSONObject, timeout: Double = 30, allowError: Bool = false) throws -> JSONValue {
        guard let slot = adminSlot else { throw BenchError("this session has no operator") }
        requestNumber += 1
        let id = "bench\(requestNumber)"
        var message = message
        message["id"] = .string(id)
        try pool.send(slot, message)
        var found: JSONValue?
        let deadline = Date().addingTimeInterval(timeout)
        while found == nil {
            let ok = pool.tally.wait(timeout: max(0, deadline.timeIntervalSinceNow)) { tally in
                tally.inbox[slot].contains {
                    $0.kind != .question && $0.kind != .reveal && $0.kind != .buzzed && Self.mentions(id, $0.body)
                }
            }
            guard ok else { throw BenchError("no reply to \(JSONValue.object(message)) within \(timeout) s") }
            pool.tally.locked { tally in
                if let index = tally.inbox[slot].firstIndex(where: {
                    Self.mentions(id, $0.body) && (try? JSONParsing.parse($0.body))?["re"] == .string(id)
                }) {
                    found = try? JSONParsing.parse(tally.inbox[slot][index].body)
                    lastReplyAt = tally.inbox[slot][index].at
                    tally.inbox[slot].remove(at: index)
                }
            }
        }
        if !allowError, found?["type"]?.stringValue == "error" {
            throw BenchError("the host refused \(JSONValue.object(message)): \(found!)")
        }
        return found!
    }

    private static func mentions(_ id: String, _ body: [UInt8]) -> Bool {
        let needle = Array("\"re\":\"\(id)\"".utf8)
        guard body.count >= needle.count else { return false }
        return body.firstRange(of: needle) != nil
    }

    /// Drops the operator's kept lines (between rounds).
    func clearAdminInbox() {
        if let slot = adminSlot { _ = pool.takeInbox(slot) }
    }

    /// Joins `count` players in teams of `teamSize` (at least two teams), a few at a time; returns the seconds it took.
    ///
    /// With a `budget` (seconds) joining stops early once the budget is spent; `progress` hears (players, seconds).
    @discardableResult
    func joinPlayers(
        _ count: Int, teamSize: Int, prefix: String = "P", timeout: Double = 600, budget: Double? = nil,
        clock: Bool = false, progress: (Int, Double) -> Void = { _, _ in }
    ) throws -> Double {
        let teams = max(2, (count + teamSize - 1) / teamSize)
        teamCount = teams
        let start = MonotonicClock.nanoseconds()
        func elapsed() -> Double { Double(MonotonicClock.nanoseconds() - start) / 1e9 }
        var joined = 0
        while joined < count {
            if let budget, elapsed() > budget { break }
            // Each join sends the whole lobby to every joined connection: keep the per-turn output
            // under the host's --max-output-kb (1 MiB) by joining fewer at once as the room grows.
            let batch = max(1, min(64, min(count - joined, 8000 / max(1, joined))))
            var slots: [Int] = []
            for offset in 0..<batch {
                let index = joined + offset
                let slot = try pool.open(isTarget: true)
                let team = index % teams
                players.append((slot, team))
                slots.append(slot)
                var hello: JSONObject = [
                    "type": "hello", "room": .string(room), "name": .string(prefix + String(format: "%05d", index)),
                    "team": .string(String(format: "Team%03d", team)),
                ]
                if clock { hello["clock"] = true }  // takes part in clock sync (the pool answers the probes)
                try pool.send(slot, hello)
            }
            let welcomed = pool.tally.wait(timeout: timeout) { tally in
                slots.allSatisfy { tally.welcomeAt[$0] != 0 || tally.closedAt[$0] != 0 }
            }
            let closed = pool.tally.locked { tally in slots.filter { tally.closedAt[$0] != 0 }.count }
            guard welcomed, closed == 0 else {
                throw BenchError(
                    "joining players \(joined + 1)…\(joined + batch) failed (\(closed) closed); last error: \(pool.tally.locked { $0.lastError })"
                )
            }
            joined += batch
            progress(joined, elapsed())
            if joined % 200 < batch {
                context.say(
                    "  \(joined)/\(count) players joined (\(String(format: "%.1f", elapsed())) s)", detail: true)
            }
        }
        return elapsed()
    }

    /// Makes sure the data folder has a custom pack `bench` with at least `count` questions.
    func ensurePack(questions count: Int) throws {
        let list = try request(["type": "packs", "action": "list"])
        let existing = list["packs"]?.arrayValue?.first { $0["id"]?.stringValue == "bench" }
        var have = Int(existing?["questions"]?.intValue ?? 0)
        if existing == nil {
            let reply = try request(["type": "packs", "action": "create", "name": "Bench"])
            guard reply["message"]?.stringValue?.contains("bench") == true else {
                throw BenchError("the new pack did not get the id bench: \(reply)")
            }
        }
        // Pipelined: send every `add`, then collect the replies.
        guard let slot = adminSlot else { return }
        var ids: [String] = []
        while have < count {
            requestNumber += 1
            let id = "bench\(requestNumber)"
            ids.append(id)
            try pool.send(
                slot,
                [
                    "type": "packs", "action": "add", "pack": "bench", "id": .string(id),
                    "question": [
                        "difficulty": "easy", "text": .string("Bench question \(have + 1): which word is shown?"),
                        "answer": .string("Bench" + HostSession.letters(have)),
                    ],
                ])
            have += 1
        }
        guard !ids.isEmpty else { return }
        let last = ids.last!
        guard
            pool.tally.wait(
                timeout: 120, until: { tally in tally.inbox[slot].contains { Self.mentions(last, $0.body) } })
        else {
            throw BenchError("adding questions to the bench pack timed out")
        }
        let lines = pool.takeInbox(slot)
        if let refusal = lines.first(where: { $0.kind == .error }) {
            throw BenchError("adding a question was refused: \(String(decoding: refusal.body, as: UTF8.self))")
        }
    }

    /// A distinct run of lowercase letters for question `index` (answers must differ and be words).
    static func letters(_ index: Int) -> String {
        var value = index
        var text = ""
        repeat {
            text.append(Character(UnicodeScalar(UInt8(97 + value % 26))))
            value /= 26
        } while value > 0
        return text + "x"
    }

    /// Starts Shaky Words with the bench pack.
    func startShaky(questions: Int, settings: JSONObject) throws {
        var message: JSONObject = [
            "type": "start", "game": "shaky", "questions": .number(questions), "packs": ["bench"],
        ]
        for member in settings { message[member.key] = member.value }
        try request(message)
    }

    /// Ends the running game, if any.
    func endGame() throws {
        try request(["type": "end"], allowError: true)
    }
}
