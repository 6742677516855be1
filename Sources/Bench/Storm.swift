import Foundation
import Net
import Protocol
import TestSupport

/// Buzz storms: `players` in `teams` all press within `windowMs` (what an easy question does to a big room), with
/// fair buzzing and journal fsync on. Each client follows the buzz order as a client does (`buzzed` whole, then
/// `buzzedUpdate`s, PROTOCOL.md §6.0); a storm is done for a client when it holds every team.
struct StormRun {
    let context: BenchContext
    var options: BenchOptions { context.options }

    /// The settle window on loopback: the host's floor of 10 ms (the kernel's round trip there is far below it).
    static let loopbackSettleMs = 10.0

    /// The targets of the issue (#16) for the two named storms: bytes per client, KiB.
    static func byteTarget(_ spec: StormSpec) -> Double? {
        switch (spec.players, spec.teams, spec.windowMs) {
        case (1000, 100, 200): return 16
        case (200, 200, 100): return 24
        default: return nil
        }
    }

    func run(report: Report) {
        var runs: [JSONValue] = []
        for spec in options.storms { runs.append(storm(spec, report: report)) }
        var section: JSONObject = ["runs": .array(runs), "fsync": true, "hostFairness": true]
        // Beside the buzz storm, the busiest moment of each newer mode.
        let modes = ModeStormRun(context: context)
        section["fly"] = modes.fly(options.flyStorm, report: report)
        section["words"] = modes.words(options.wordsStorm, report: report)
        // And those of Odd One Out and the station hunt.
        let lists = OutsiderHuntStormRun(context: context)
        section["outsider"] = lists.outsider(options.outsiderStorm, report: report)
        section["hunt"] = lists.hunt(options.huntStorm, report: report)
        report.sections["storm"] = .object(section)
    }

    /// One storm on a fresh host; returns its JSON.
    private func storm(_ spec: StormSpec, report: Report) -> JSONValue {
        context.say("buzz storm: \(spec.players) players in \(spec.teams) teams press within \(spec.windowMs) ms")
        var object: JSONObject = [
            "players": .number(spec.players), "teams": .number(spec.teams), "windowMs": .number(spec.windowMs),
            "webSocket": .bool(options.isWebSocket),
        ]
        let title = "Buzz storm \(spec.text)" + (options.isWebSocket ? " (WebSocket clients)" : "")
        do {
            let session = try HostSession(
                context: context, capacity: spec.players, maxClients: max(2000, spec.players + 100),
                // An output cap high enough for a host that sends the whole order on every buzz (about 1.3 MB per
                // client at 200 teams), so the "before" host is measured rather than cut off.
                extra: ["--idle-timeout", "3600", "--fairness", "on", "--max-output-kb", "65536"], followsOrders: true,
                webSocket: options.isWebSocket)
            defer { session.close() }
            try session.ensurePack(questions: 2)
            let teamSize = (spec.players + spec.teams - 1) / spec.teams
            try session.joinPlayers(spec.players, teamSize: teamSize, prefix: "S")
            guard session.teamCount == spec.teams else {
                throw BenchError(
                    "\(spec.players) players in teams of \(teamSize) make \(session.teamCount) teams, not \(spec.teams)"
                )
            }
            try session.startShaky(
                questions: 2,
                settings: [
                    "questionSeconds": 3600, "afterBuzzSeconds": 3600, "answerSeconds": 3600, "revealSeconds": 0,
                ])
            let pool = session.pool
            pool.tally.setQuestionGoal(1)
            guard pool.tally.wait(timeout: 60, until: { $0.questionReached >= spec.players }) else {
                throw BenchError("not every player saw the question")
            }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            session.clearAdminInbox()
            pool.tally.expectOrders(of: spec.teams)
            let slots = session.players.map(\.slot)
            pool.tally.locked { $0.tracedSlot = slots.first ?? -1 }
            let bytesBefore = pool.tally.locked { tally in slots.map { tally.bytesBySlot[$0] } }
            let allBytesBefore = pool.tally.locked { $0.bytesReceived }
            // Each player presses once, at a random moment of the window (seeded: the same storm every run).
            var generator = SplitMix64Bench(seed: 0x5EED_0000 + UInt64(spec.players))
            let schedule = slots.map { slot in
                (slot: slot, at: Double(generator.next() % UInt64(spec.windowMs * 1000)) / 1000)
            }
            .sorted { $0.at < $1.at }
            let buzz = JSONEncoding.encodeLine(.object(["type": "buzz"]))
            let cpuBefore = session.host.cpuSeconds()
            let start = MonotonicClock.nanoseconds()
            var lastPress = start
            for press in schedule {
                let due = start + Int64(press.at * 1e6)
                // Sleep, not spin: on a small machine a spinning driver would take the host's CPU.
                let left = due - MonotonicClock.nanoseconds()
                if left > 0 { usleep(UInt32(left / 1000)) }
                try pool.send(press.slot, buzz)
                lastPress = MonotonicClock.nanoseconds()
            }
            let finished = pool.tally.wait(timeout: 30) { $0.orderCompleteCount >= spec.players }
            let completions = pool.tally.locked { tally in slots.map { tally.orderCompleteAt[$0] } }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            let cpuAfter = session.host.cpuSeconds()
            let (bytesAfter, allBytesAfter, gaps, messages, closed) = pool.tally.locked { tally in
                (
                    slots.map { tally.bytesBySlot[$0] }, tally.bytesReceived, tally.orderGaps, tally.orderMessages,
                    tally.closedCount
                )
            }
            let perClient = zip(bytesAfter, bytesBefore).map { Double($0 - $1) }
            let completeAt = completions.filter { $0 != 0 }
            let complete = completeAt.count == spec.players
            let lastComplete = completeAt.max().map { Double($0 - start) / 1e6 }
            let afterLastPress = completeAt.max().map { Double($0 - lastPress) / 1e6 }
            let bytes = Summary(perClient)
            let cpu = cpuBefore.flatMap { before in cpuAfter.map { $0 - before } }
            object["complete"] = .bool(complete && finished)
            object["completeClients"] = .number(completeAt.count)
            object["pressSpanMs"] = .double(rounded(Double(lastPress - start) / 1e6))
            object["allCompleteMs"] = lastComplete.map { .double(rounded($0)) } ?? .null
            object["afterLastPressMs"] = afterLastPress.map { .double(rounded($0)) } ?? .null
            object["completeMs"] = Summary(completeAt.map { Double($0 - start) / 1e6 }).json
            object["bytesPerClient"] = bytes.json
            object["totalBytes"] = .number(allBytesAfter - allBytesBefore)
            object["orderMessages"] = .number(messages)
            // One client's order messages: ms after the first press, whole or delta, entries it then held.
            object["firstClientOrders"] = .array(
                pool.tally.locked { tally in
                    tally.firstClientOrders.map { trace in
                        .array([
                            .double(rounded(Double(trace.at - start) / 1e6)),
                            .string(trace.isWhole ? "whole" : "delta"),
                            .number(trace.entries),
                        ])
                    }
                })
            object["orderGaps"] = .number(gaps)
            object["closedByHost"] = .number(closed)
            object["hostCPUSeconds"] = cpu.map { .double(rounded($0)) } ?? .null
            if !complete || !finished {
                report.problems.append(
                    "\(title): \(completeAt.count) of \(spec.players) clients had the whole order after 30 s")
            }
            if gaps > 0 { report.problems.append("\(title): \(gaps) order messages did not follow (gaps)") }
            let timeLimit = StormRun.loopbackSettleMs + 100
            let timeCheck = report.check(
                "\(title): complete order after the last press", value: complete ? afterLastPress : nil,
                limit: timeLimit,
                unit: "ms")
            report.add(
                TableRow(
                    measure: "\(title): whole order at every client, after the last press (after the first)",
                    value: complete
                        ? "\(formatMilliseconds(afterLastPress ?? 0)) ms (\(formatMilliseconds(lastComplete ?? 0)) ms)"
                        : "incomplete (\(completeAt.count) of \(spec.players))",
                    target: "≤ settle (\(Int(StormRun.loopbackSettleMs)) ms) + 100 ms", status: timeCheck.statusText))
            var byteStatus = ""
            var byteTargetText = ""
            if let target = StormRun.byteTarget(spec) {
                byteStatus =
                    report.check("\(title): bytes per client, max", value: bytes.max / 1024, limit: target, unit: "KiB")
                    .statusText
                byteTargetText = "≤ \(Int(target)) KiB per client"
            }
            report.add(
                TableRow(
                    measure: "\(title): bytes per client p50/max, total; host CPU",
                    value: String(
                        format: "%.1f / %.1f KiB, %.2f MB; %.2f CPU-s", bytes.p50 / 1024, bytes.max / 1024,
                        Double(allBytesAfter - allBytesBefore) / 1e6, cpu ?? .nan),
                    target: byteTargetText, status: byteStatus))
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("\(title): \(error)")
            report.check("\(title): complete order after the last press", value: nil, limit: 110, unit: "ms")
            report.add(TableRow(measure: title, value: "failed", target: "", status: "n/a"))
        }
        return .object(object)
    }

    /// Waits until nothing but keepalives arrived for `quiet` seconds (at most 10 s).
    static func waitForQuiet(_ pool: ClientPool, quiet: Double) {
        let started = MonotonicClock.nanoseconds()
        while true {
            let last = pool.tally.locked { $0.lastReceiveAt }
            let now = MonotonicClock.nanoseconds()
            if Double(now - last) / 1e9 > quiet || Double(now - started) / 1e9 > 10 { return }
            usleep(20_000)
        }
    }
}

/// A small seeded generator for the storm's press times (the bench does not depend on Rules).
struct SplitMix64Bench {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
