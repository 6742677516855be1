import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One big room of the loop probe: `players` in `teams` teams (written `P/T`, such as `10000/1000`).
struct RoomSpec: Equatable {
    var players: Int
    var teams: Int

    /// `10000/1000`.
    var text: String { "\(players)/\(teams)" }

    /// The option value `P/T`: 2…20000 players in 2…players teams.
    static var option: OptionValue<RoomSpec> {
        OptionValue<RoomSpec>(
            placeholder: "P/T", expectation: "players/teams, such as 10000/1000 (2 or more teams)",
            read: { text in
                let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
                guard parts.count == 2, let players = parts[0], let teams = parts[1],
                    (2...20_000).contains(players), (2...players).contains(teams)
                else { return nil }
                return RoomSpec(players: players, teams: teams)
            }, write: { $0.text }, acceptedExamples: ["2/2", "20000/1000"],
            refusedExamples: ["x", "1/1", "10/11", "10/2/5"])
    }
}

/// A connection of its own that sends `ping` every `intervalMs` and times each `pong`: how long a connection waits
/// for the host's loop while the room does something big (issue 29: no connection may wait more than 100 ms).
///
/// It never joins (a `ping` needs no hello), so it costs the host nothing but its pings. One thread writes the pings
/// on time, another reads the pongs (each echoes the ping's `t`, its sequence number here).
final class LoopProber: @unchecked Sendable {
    private let socket: Socket
    private let intervalMs: Int
    private let lock = NSLock()
    /// Monotonic ns each ping was written, by sequence number (index).
    private var sentAt: [Int64] = []
    /// Monotonic ns each pong was read (0: not yet), by sequence number.
    private var answeredAt: [Int64] = []
    private var isStopped = false
    private var threads = 0

    /// Connects to the host on loopback `port`.
    init(port: UInt16, intervalMs: Int = 10) throws {
        do {
            socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
        } catch {
            throw BenchError("the loop prober could not connect: \(error)")
        }
        var one: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        self.intervalMs = intervalMs
    }

    /// Starts pinging and reading.
    func start() {
        let writer = Thread { [self] in writeLoop() }
        writer.name = "loop-prober-writer"
        let reader = Thread { [self] in readLoop() }
        reader.name = "loop-prober-reader"
        lock.withLock { threads = 2 }
        writer.start()
        reader.start()
    }

    /// Stops the threads (waiting for them) and closes the connection.
    func stop() {
        lock.withLock { isStopped = true }
        _ = shutdown(socket.fd, Int32(SHUT_RDWR))
        let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
        while lock.withLock({ threads }) > 0 && MonotonicClock.nanoseconds() < deadline { usleep(5_000) }
        socket.close()
    }

    /// The next ping's sequence number: a step's pings are those from its first to the next step's first.
    var mark: Int { lock.withLock { sentAt.count } }

    /// Waits (up to `timeout` s) until every ping before `end` is answered.
    func waitForAnswers(before end: Int, timeout: Double) {
        let deadline = MonotonicClock.nanoseconds() + Int64(timeout * 1e9)
        while MonotonicClock.nanoseconds() < deadline {
            let done = lock.withLock { answeredAt.prefix(end).allSatisfy { $0 != 0 } }
            if done { return }
            usleep(5_000)
        }
    }

    /// The round trips (ms) of the pings `range`, and how many are still unanswered (each counted as waiting until
    /// now, so that a stalled loop shows).
    func roundTrips(_ range: Range<Int>) -> (times: [Double], unanswered: Int) {
        let now = MonotonicClock.nanoseconds()
        return lock.withLock {
            var times: [Double] = []
            var unanswered = 0
            for index in range where index < sentAt.count {
                if answeredAt[index] == 0 { unanswered += 1 }
                let end = answeredAt[index] == 0 ? now : answeredAt[index]
                times.append(Double(end - sentAt[index]) / 1e6)
            }
            return (times, unanswered)
        }
    }

    private func writeLoop() {
        defer { lock.withLock { threads -= 1 } }
        var next = MonotonicClock.nanoseconds()
        while !lock.withLock({ isStopped }) {
            let sequence = lock.withLock {
                sentAt.append(MonotonicClock.nanoseconds())
                answeredAt.append(0)
                return sentAt.count - 1
            }
            let line = Array("{\"type\":\"ping\",\"t\":\(sequence)}\n".utf8)
            let written = line.withUnsafeBytes { Glue.send(socket.fd, $0.baseAddress, $0.count, sendFlags) }
            if written != line.count { return }  // the host is gone or the socket is full: stop probing
            next += Int64(intervalMs) * 1_000_000
            let left = next - MonotonicClock.nanoseconds()
            if left > 0 { usleep(UInt32(left / 1000)) } else { next = MonotonicClock.nanoseconds() }
        }
    }

    private func readLoop() {
        defer { lock.withLock { threads -= 1 } }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pending: [UInt8] = []
        let marker = Array("\"t\":".utf8)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return
            }
            let now = MonotonicClock.nanoseconds()
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[..<newline]
                if line.starts(with: Array("{\"type\":\"pong\"".utf8)),
                    let at = line.firstRange(of: marker)
                {
                    let digits = line[at.upperBound...].prefix { $0 >= 0x30 && $0 <= 0x39 }
                    if let sequence = Int(String(decoding: digits, as: UTF8.self)) {
                        lock.withLock {
                            if sequence < answeredAt.count && answeredAt[sequence] == 0 { answeredAt[sequence] = now }
                        }
                    }
                }
                pending.removeSubrange(...newline)
            }
        }
    }
}

/// "No connection waits more than 100 ms for the loop at 1,000 teams or 10,000 players" (issue 29): for each
/// `--loop-rooms` room, a prober pings every 10 ms while the operator starts Odd One Out, reveals, ends; starts the
/// station hunt, ends; and 100 more players join. Each step: the probe's round trips p50/p99/max (pings sent from
/// the step's request until the clients were quiet), unanswered pings, and the host CPU; the floor is the same probe
/// against the same room, idle, before the first step.
struct LoopProbeRun {
    let context: BenchContext

    /// The target: no ping waits longer than this for the loop (ms).
    static let targetMs = 100.0

    /// Runs every room of `--loop-rooms`.
    func run(report: Report) {
        var rooms: [JSONValue] = []
        for spec in context.options.loopRooms { rooms.append(run(spec, report: report)) }
        report.sections["loop"] = .array(rooms)
    }

    private func run(_ spec: RoomSpec, report: Report) -> JSONValue {
        let joins = context.options.loopJoins
        let title = "Loop probe \(spec.text)"
        context.say("Loop probe: \(spec.players) players in \(spec.teams) teams; a ping every 10 ms throughout")
        var object: JSONObject = ["players": .number(spec.players), "teams": .number(spec.teams)]
        var steps: [JSONValue] = []
        do {
            let folder = context.dataFolder + "/hunts"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try OutsiderHuntStormRun.huntJSON.write(toFile: folder + "/bench.json", atomically: true, encoding: .utf8)
            let session = try HostSession(
                context: context, capacity: spec.players + joins + 1, maxClients: spec.players + joins + 200,
                extra: ["--idle-timeout", "3600", "--max-output-kb", "65536"])
            defer { session.close() }
            let teamSize = (spec.players + spec.teams - 1) / spec.teams
            let joinSeconds = try session.joinPlayers(spec.players, teamSize: teamSize, prefix: "L")
            object["joinSeconds"] = .double(rounded(joinSeconds))
            StormRun.waitForQuiet(session.pool, quiet: 0.3)
            let prober = try LoopProber(port: session.host.port)
            prober.start()
            defer { prober.stop() }
            var floor: Summary?
            func step(_ name: String, _ action: () throws -> Void) throws {
                let first = prober.mark
                let cpuBefore = session.host.cpuSeconds()
                try action()
                StormRun.waitForQuiet(session.pool, quiet: 0.3)
                let end = prober.mark
                prober.waitForAnswers(before: end, timeout: 10)
                let cpu = cpuBefore.flatMap { before in session.host.cpuSeconds().map { $0 - before } }
                let (times, unanswered) = prober.roundTrips(first..<end)
                let summary = Summary(times)
                if floor == nil { floor = summary }
                steps.append(
                    .object([
                        "step": .string(name), "roundTripMs": summary.json, "unanswered": .number(unanswered),
                        "hostCPUSeconds": cpu.map { .double(rounded($0)) } ?? .null,
                    ]))
                let isMet = summary.max <= LoopProbeRun.targetMs && unanswered == 0
                report.add(
                    TableRow(
                        measure: "\(title): \(name): probe p50 / p99 / max; host CPU",
                        value: String(
                            format: "%@ / %@ / %@ ms; %.2f CPU-s", formatMilliseconds(summary.p50),
                            formatMilliseconds(summary.p99), formatMilliseconds(summary.max), cpu ?? .nan),
                        floor: floor.map { "\(formatMilliseconds($0.p50)) / \(formatMilliseconds($0.p99))" } ?? "",
                        target: "max ≤ 100 ms", status: isMet ? "met" : "MISSED"))
                if !isMet {
                    report.problems.append(
                        "\(title): \(name): a ping waited \(formatMilliseconds(summary.max)) ms for the loop"
                            + (unanswered > 0 ? " (\(unanswered) unanswered)" : ""))
                }
            }
            try step("idle (the floor)") { usleep(500_000) }
            try step("start Odd One Out") {
                try session.request([
                    "type": "start", "game": "outsider", "rounds": 1, "packs": ["animals"], "roundSeconds": 600,
                    "revealSeconds": 0,
                ])
            }
            try step("reveal") { try session.request(["type": "next"]) }
            try step("end") { try session.request(["type": "end"]) }
            try step("start the hunt") {
                try session.request([
                    "type": "start", "game": "hunt", "hunt": "bench", "order": "fixed", "minutes": 600,
                ])
            }
            try step("end the hunt") { try session.request(["type": "end"]) }
            try step("\(joins) more joins") {
                try session.joinPlayers(joins, teamSize: teamSize, prefix: "M")
            }
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("\(title): \(error)")
            report.add(TableRow(measure: title, value: "failed"))
        }
        object["steps"] = .array(steps)
        return .object(object)
    }
}
