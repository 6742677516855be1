import Foundation
import Net
import Protocol

/// The busiest moments of Odd One Out and the station hunt, beside the buzz storm: every team locks in a pick, or
/// solves a station, within a short window. Each client follows the list that grows (`lockedIn` or `progress`, then
/// their updates, PROTOCOL.md §6.0) by `seq`; the moment is over at a client when its list holds every team. Reported
/// like the storm: bytes per client p50/max, total bytes, host CPU, and when every client had the whole list.
struct OutsiderHuntStormRun {
    let context: BenchContext

    /// The host's flags: as the buzz storm (fair presses, fsync on), with an output cap a host that re-sends whole
    /// lists cannot hit.
    static let hostFlags = ["--idle-timeout", "3600", "--fairness", "on", "--max-output-kb", "65536"]

    /// The hunt the solve storm plays, written to the bench's data folder: a question at the first station (answer
    /// `yes`), and a second station so that solving the first does not end a team's hunt.
    static let huntJSON = """
        {"id":"bench","name":"Bench hunt","stations":[
        {"name":"Hall","clue":"Where the bench starts","code":"HALL",
         "question":{"text":"What is the opposite of no?","answer":"yes"}},
        {"name":"Desk","clue":"Where the bench ends","code":"DESK",
         "question":{"text":"What is the opposite of start?","answer":"finish"}}]}
        """

    /// An Odd One Out round: `spec.players` in `spec.teams` teams each press a pick at a seeded random moment of the
    /// window (a team's first counts, the others hear so), with fair picking. One more team joins and never picks,
    /// so the round stays open and the figures are the lock-ins' alone. Done at a client when it holds every team's
    /// lock-in.
    func outsider(_ spec: StormSpec, report: Report) -> JSONValue {
        let title = "Odd One Out lock-ins \(spec.text)"
        context.say(
            "Odd One Out: \(spec.players) players in \(spec.teams) teams press a pick within \(spec.windowMs) ms")
        var object: JSONObject = [
            "players": .number(spec.players), "teams": .number(spec.teams), "windowMs": .number(spec.windowMs),
        ]
        do {
            let session = try HostSession(
                context: context, capacity: spec.players + 1, maxClients: max(2000, spec.players + 100),
                extra: OutsiderHuntStormRun.hostFlags)
            defer { session.close() }
            let pool = session.pool
            let teamSize = (spec.players + spec.teams - 1) / spec.teams
            try session.joinPlayers(spec.players, teamSize: teamSize, prefix: "O")
            try OutsiderHuntStormRun.joinIdle(session)
            try session.request([
                "type": "start", "game": "outsider", "rounds": 1, "packs": ["animals"], "roundSeconds": 600,
                "revealSeconds": 0,
            ])
            pool.tally.setQuestionGoal(1)
            guard pool.tally.wait(timeout: 60, until: { $0.questionReached >= spec.players }) else {
                throw BenchError("not every player saw the round's words")
            }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            session.clearAdminInbox()
            pool.tally.expectLists(of: spec.teams)
            let slots = session.players.map(\.slot)
            var generator = SplitMix64Bench(seed: 0x0DD_0000 + UInt64(spec.players))
            let schedule = slots.map { slot in
                (slot: slot, at: Double(generator.next() % UInt64(spec.windowMs * 1000)) / 1000)
            }
            .sorted { $0.at < $1.at }
            let pick = JSONEncoding.encodeLine(.object(["type": "pick", "choice": 1]))
            try measure(
                spec, title: title, moment: "every lock-in", session: session, slots: slots,
                presses: schedule.map { ($0.slot, $0.at, pick) }, into: &object, report: report)
        } catch {
            failed(&object, title: title, error: error, report: report)
        }
        return .object(object)
    }

    /// A station hunt: `spec.players` in `spec.teams` teams have checked in at their first station; one player of
    /// each team types its answer at a seeded random moment of the window, and every team's row of everyone's
    /// progress changes. Done at a client when its progress has every team past the first station.
    func hunt(_ spec: StormSpec, report: Report) -> JSONValue {
        let title = "Station hunt solves \(spec.text)"
        context.say(
            "Station hunt: \(spec.players) players in \(spec.teams) teams, every team solves within \(spec.windowMs) ms"
        )
        var object: JSONObject = [
            "players": .number(spec.players), "teams": .number(spec.teams), "windowMs": .number(spec.windowMs),
        ]
        do {
            let folder = context.dataFolder + "/hunts"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try OutsiderHuntStormRun.huntJSON.write(toFile: folder + "/bench.json", atomically: true, encoding: .utf8)
            let session = try HostSession(
                context: context, capacity: spec.players, maxClients: max(2000, spec.players + 100),
                extra: OutsiderHuntStormRun.hostFlags)
            defer { session.close() }
            let pool = session.pool
            let teamSize = (spec.players + spec.teams - 1) / spec.teams
            try session.joinPlayers(spec.players, teamSize: teamSize, prefix: "H")
            try session.request(["type": "start", "game": "hunt", "hunt": "bench", "order": "fixed", "minutes": 600])
            StormRun.waitForQuiet(pool, quiet: 0.3)
            // One player of each team checks in; the whole team gets the station's question.
            var answering: [Int] = []
            for team in 0..<session.teamCount {
                guard let first = session.players.first(where: { $0.team == team }) else { continue }
                answering.append(first.slot)
                try pool.send(first.slot, ["type": "checkin", "code": "HALL"])
            }
            pool.tally.setQuestionGoal(1)
            guard pool.tally.wait(timeout: 60, until: { $0.questionReached >= spec.players }) else {
                throw BenchError("not every team checked in")
            }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            session.clearAdminInbox()
            // In a hall (more than 200 players) a player's progress holds the first 10 teams and their own
            // (PROTOCOL.md §6.0.1): the moment is then the top of the table solved at every client.
            let isHall = spec.players > 200
            pool.tally.expectLists(of: isHall ? min(10, session.teamCount) : session.teamCount)
            var generator = SplitMix64Bench(seed: 0x4A7_0000 + UInt64(spec.players))
            let schedule = answering.map { slot in
                (slot: slot, at: Double(generator.next() % UInt64(spec.windowMs * 1000)) / 1000)
            }
            .sorted { $0.at < $1.at }
            let answer = JSONEncoding.encodeLine(.object(["type": "answer", "text": "yes"]))
            try measure(
                spec, title: title, moment: isHall ? "the top ten's solves" : "every team's solve", session: session,
                slots: session.players.map(\.slot), presses: schedule.map { ($0.slot, $0.at, answer) },
                into: &object, report: report)
        } catch {
            failed(&object, title: title, error: error, report: report)
        }
        return .object(object)
    }

    // MARK: Shared

    /// Sends `presses` (slot, seconds after the start, line) on time, waits until every client of `slots` holds
    /// the whole list, and writes the figures into `object` and the report's table.
    private func measure(
        _ spec: StormSpec, title: String, moment: String, session: HostSession, slots: [Int],
        presses: [(slot: Int, at: Double, line: [UInt8])], into object: inout JSONObject, report: Report
    ) throws {
        let pool = session.pool
        let before = pool.tally.locked { tally in slots.map { tally.bytesBySlot[$0] } }
        let (allBefore, messagesBefore, gapsBefore) = pool.tally.locked {
            ($0.bytesReceived, $0.listMessages, $0.listGaps)
        }
        let cpuBefore = session.host.cpuSeconds()
        let start = MonotonicClock.nanoseconds()
        var lastPress = start
        for press in presses {
            // Sleep, not spin: on a small machine a spinning driver would take the host's CPU.
            let left = start + Int64(press.at * 1e6) - MonotonicClock.nanoseconds()
            if left > 0 { usleep(UInt32(left / 1000)) }
            try pool.send(press.slot, press.line)
            lastPress = MonotonicClock.nanoseconds()
        }
        let finished = pool.tally.wait(timeout: 30) { $0.listCompleteCount >= slots.count }
        let doneAt = pool.tally.locked { tally in slots.map { tally.listCompleteAt[$0] } }.filter { $0 != 0 }
        StormRun.waitForQuiet(pool, quiet: 0.3)
        let cpu = cpuBefore.flatMap { before in session.host.cpuSeconds().map { $0 - before } }
        let (after, allAfter, messages, gaps, closed) = pool.tally.locked { tally in
            (
                slots.map { tally.bytesBySlot[$0] }, tally.bytesReceived, tally.listMessages - messagesBefore,
                tally.listGaps - gapsBefore, tally.closedCount
            )
        }
        let complete = finished && doneAt.count == slots.count
        let lastDone = doneAt.max().map { Double($0 - start) / 1e6 }
        let afterLastPress = doneAt.max().map { Double($0 - lastPress) / 1e6 }
        let bytes = Summary(zip(after, before).map { Double($0 - $1) })
        object["complete"] = .bool(complete)
        object["completeClients"] = .number(doneAt.count)
        object["pressSpanMs"] = .double(rounded(Double(lastPress - start) / 1e6))
        object["allCompleteMs"] = lastDone.map { .double(rounded($0)) } ?? .null
        object["afterLastPressMs"] = afterLastPress.map { .double(rounded($0)) } ?? .null
        object["bytesPerClient"] = bytes.json
        object["totalBytes"] = .number(allAfter - allBefore)
        object["listMessages"] = .number(messages)
        object["listGaps"] = .number(gaps)
        object["closedByHost"] = .number(closed)
        object["hostCPUSeconds"] = cpu.map { .double(rounded($0)) } ?? .null
        if !complete {
            report.problems.append("\(title): \(doneAt.count) of \(slots.count) clients had \(moment) after 30 s")
        }
        if gaps > 0 { report.problems.append("\(title): \(gaps) list messages did not follow (gaps)") }
        if closed > 0 { report.problems.append("\(title): the host closed \(closed) connections") }
        report.add(
            TableRow(
                measure: "\(title): \(moment) at every client, after the last press (after the first)",
                value: complete
                    ? "\(formatMilliseconds(afterLastPress ?? 0)) ms (\(formatMilliseconds(lastDone ?? 0)) ms)"
                    : "incomplete (\(doneAt.count) of \(slots.count))"))
        report.add(
            TableRow(
                measure: "\(title): bytes per client p50/max, total; host CPU",
                value: String(
                    format: "%.1f / %.1f KiB, %.2f MB; %.2f CPU-s", bytes.p50 / 1024, bytes.max / 1024,
                    Double(allAfter - allBefore) / 1e6, cpu ?? .nan)))
    }

    /// A player of a team of their own who never plays (Odd One Out's round then waits for them).
    private static func joinIdle(_ session: HostSession) throws {
        let pool = session.pool
        let slot = try pool.open(isTarget: false)
        try pool.send(slot, ["type": "hello", "room": .string(session.room), "name": "Idle", "team": "Idle team"])
        guard pool.tally.wait(timeout: 30, until: { $0.welcomeAt[slot] != 0 || $0.closedAt[slot] != 0 }),
            pool.tally.locked({ $0.closedAt[slot] == 0 })
        else { throw BenchError("the idle player was not welcomed; last error: \(pool.tally.locked { $0.lastError })") }
    }

    private func failed(_ object: inout JSONObject, title: String, error: Error, report: Report) {
        object["failure"] = .string("\(error)")
        report.problems.append("\(title): \(error)")
        report.add(TableRow(measure: title, value: "failed"))
    }
}
