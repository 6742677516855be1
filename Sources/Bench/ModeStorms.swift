import Foundation
import Net
import Protocol

/// The busiest moments of Let Me Fly and Compound words, beside the buzz storm: first a tenth more players (or teams)
/// join the running game one by one — the roster that grows (`gameUpdate`, PROTOCOL.md §6.0) — then everyone plays
/// at once. Reported like the storm: bytes per client p50/max, total bytes, host CPU, and when the moment was over
/// at every client.
struct ModeStormRun {
    let context: BenchContext

    /// The host's flags for a mode storm: as the buzz storm (fair presses, fsync on), with an output cap a host that
    /// re-sends whole rosters cannot hit.
    static let hostFlags = ["--idle-timeout", "3600", "--fairness", "on", "--max-output-kb", "65536"]

    // MARK: Let Me Fly

    /// Rooms of more players than this at the start play Let Me Fly in a hall (the host's `GameRoom.fullLobbyLimit`).
    static let hallThreshold = 200
    /// A hall round's budget per client in bytes (issue #28).
    static let hallBytesBudget = 32 * 1024
    /// A hall round's budget in host CPU-seconds.
    static let hallCPUBudget = 1.0

    /// A round of Let Me Fly: `spec.players` in `spec.teams` teams (and a tenth more who join mid-round) each throw
    /// once at a seeded random moment of the window and press catch when their phone should land (computed from the
    /// meter as the host reads it, PROTOCOL.md §6.6). Done at a client when it has the round's `roundOver`.
    func fly(_ spec: StormSpec, report: Report) -> JSONValue {
        let late = max(1, spec.players / 10)
        let title = "Let Me Fly round \(spec.text)"
        context.say(
            "Let Me Fly: \(spec.players) players in \(spec.teams) teams, \(late) join late, throw within "
                + "\(spec.windowMs) ms")
        var object: JSONObject = [
            "players": .number(spec.players), "teams": .number(spec.teams), "windowMs": .number(spec.windowMs),
            "lateJoiners": .number(late),
        ]
        do {
            let session = try HostSession(
                context: context, capacity: spec.players + late, maxClients: max(2000, spec.players + late + 100),
                extra: ModeStormRun.hostFlags)
            defer { session.close() }
            let pool = session.pool
            let teamSize = (spec.players + spec.teams - 1) / spec.teams
            // Players take part in clock sync and stamp their presses, as real clients do (PROTOCOL.md §9), so a
            // catch is judged at its press, not at when a busy host read it.
            try session.joinPlayers(spec.players, teamSize: teamSize, prefix: "F", clock: true)
            StormRun.waitForQuiet(pool, quiet: 0.3)
            session.clearAdminInbox()
            // This process's clock minus the host's, so that the meter's sweep is read as the host set it.
            let offset = try ModeStormRun.hostClockOffset(session)
            let topSpeed = 20.0
            let periodMs = 1600.0
            try session.request([
                "type": "start", "game": "fly", "rounds": 2, "roundSeconds": 600, "breakSeconds": 0,
                "periodMs": .number(Int(periodMs)), "topSpeed": .number(Int(topSpeed)),
            ])
            // Where the meter's sweep started, on this process's clock: when the operator read the round opening.
            guard
                pool.tally.wait(
                    timeout: 10,
                    until: { tally in
                        tally.inbox[session.adminSlot ?? 0].contains { ModeStormRun.isType("round", $0.body) }
                    })
            else { throw BenchError("the round did not open") }
            let opened = pool.takeInbox(session.adminSlot ?? 0).first { ModeStormRun.isType("round", $0.body) }!
            // Where the host started the sweep (its `sweepStart`, on this process's clock); else when it was read.
            let sweepStart =
                (try? JSONParsing.parse(opened.body))?["sweepStart"]?.doubleValue.map { Int64(($0 + offset) * 1e6) }
                ?? opened.at
            StormRun.waitForQuiet(pool, quiet: 0.3)

            // The roster grows: a tenth more players join the running round one by one.
            let early = session.players.map(\.slot)
            let rosterBefore = pool.tally.locked { tally in early.map { tally.bytesBySlot[$0] } }
            var slots = early
            for index in 0..<late {
                slots.append(
                    try ModeStormRun.join(
                        session, name: "FL" + String(format: "%04d", index),
                        team: String(format: "Team%03d", index % session.teamCount), clock: true))
            }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            let rosterAfter = pool.tally.locked { tally in early.map { tally.bytesBySlot[$0] } }
            let rosterBytes = Summary(zip(rosterAfter, rosterBefore).map { Double($0 - $1) })
            object["lateJoinBytesPerClient"] = rosterBytes.json
            session.clearAdminInbox()

            // Everyone throws once within the window and catches as the phone lands.
            pool.tally.count(.roundOver, goal: 1)
            var generator = SplitMix64Bench(seed: 0xF1_0000 + UInt64(spec.players))
            let throwAt = slots.map { _ in Double(generator.next() % UInt64(spec.windowMs * 1000)) / 1000 }
            let before = pool.tally.locked { tally in slots.map { tally.bytesBySlot[$0] } }
            let allBefore = pool.tally.locked { $0.bytesReceived }
            let cpuBefore = session.host.cpuSeconds()
            let start = MonotonicClock.nanoseconds()
            // (due in ns, slot, is a catch), in time order; catches join as their throws are sent.
            var pending = zip(slots, throwAt).map { (start + Int64($0.1 * 1e6), $0.0, false) }
            pending.sort { $0.0 < $1.0 }
            var lastPress = start
            while !pending.isEmpty {
                let (due, slot, isCatch) = pending.removeFirst()
                // A sleep shorter than a few ms overshoots on a busy machine: such presses go at once (stamped then).
                let left = due - MonotonicClock.nanoseconds()
                if left > 2_000_000 { usleep(UInt32(left / 1000)) }
                let stamp = MonotonicClock.milliseconds()  // the clock the sync replies read
                try pool.send(slot, ["type": .string(isCatch ? "catch" : "throw"), "t": .number(Int(stamp))])
                lastPress = MonotonicClock.nanoseconds()
                guard !isCatch else { continue }
                let airMs = ModeStormRun.airMilliseconds(
                    elapsedMs: Double(lastPress - sweepStart) / 1e6, periodMs: periodMs, topSpeed: topSpeed)
                let landing = lastPress + Int64(airMs * 1e6)
                let index = pending.firstIndex { $0.0 > landing } ?? pending.endIndex
                pending.insert((landing, slot, true), at: index)
            }
            let finished = pool.tally.wait(timeout: 30) { $0.countReached >= slots.count }
            let doneAt = pool.tally.locked { tally in slots.map { tally.countedGoalAt[$0] } }.filter { $0 != 0 }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            let cpu = cpuBefore.flatMap { before in session.host.cpuSeconds().map { $0 - before } }
            let (after, allAfter, closed) = pool.tally.locked { tally in
                (slots.map { tally.bytesBySlot[$0] }, tally.bytesReceived, tally.closedCount)
            }
            var qualities: [String: Int] = [:]
            var hallCounts: JSONValue?
            for line in pool.takeInbox(session.adminSlot ?? 0) {
                if ModeStormRun.isType("caught", line.body),
                    let quality = (try? JSONParsing.parse(line.body))?["quality"]?.stringValue
                {
                    qualities[quality, default: 0] += 1
                } else if ModeStormRun.isType("flyTally", line.body) {
                    hallCounts = try? JSONParsing.parse(line.body)  // a hall's operator gets counts, not catches
                }
            }
            if qualities.isEmpty, let hallCounts {
                for quality in ["clean", "fumbled", "dropped"] {
                    if let count = hallCounts[quality]?.intValue { qualities[quality] = Int(count) }
                }
            }
            var catches = JSONObject()
            for (quality, count) in qualities.sorted(by: { $0.key < $1.key }) { catches[quality] = .number(count) }
            object["catches"] = .object(catches)
            try record(
                object: &object, title: title, moment: "roundOver", clients: slots.count, finished: finished,
                doneAt: doneAt, start: start, lastPress: lastPress,
                perClient: zip(after, before).map { Double($0 - $1) },
                total: allAfter - allBefore, cpu: cpu, closed: closed, lateBytes: rosterBytes, late: late,
                lateWhat: "players join mid-round", report: report)
            // More than 200 players at the start: the game is laid out for a hall (PROTOCOL.md §6.6), whose round
            // is held to 32 KiB per client and 1 host CPU-second.
            if spec.players > ModeStormRun.hallThreshold {
                object["hall"] = true
                let worst = zip(after, before).map { $0 - $1 }.max() ?? 0
                if worst > ModeStormRun.hallBytesBudget {
                    report.problems.append(
                        "\(title): a hall round cost a client \(worst / 1024) KiB "
                            + "(budget \(ModeStormRun.hallBytesBudget / 1024) KiB)"
                    )
                }
                if let cpu, cpu > ModeStormRun.hallCPUBudget {
                    report.problems.append(
                        "\(title): a hall round took \(String(format: "%.2f", cpu)) host CPU-s (budget 1)")
                }
            }
        } catch {
            failed(&object, title: title, error: error, report: report)
        }
        return .object(object)
    }

    /// This process's monotonic milliseconds minus the host clock, from the quickest of a few `ping`s: the host read
    /// its clock between our send and the reply's arrival.
    static func hostClockOffset(_ session: HostSession) throws -> Double {
        var best: (width: Double, offset: Double)?
        for _ in 0..<10 {
            let sent = Double(MonotonicClock.nanoseconds()) / 1e6
            let pong = try session.request(["type": "ping"])
            let arrived = Double(session.lastReplyAt) / 1e6
            guard let hostTime = pong["hostTime"]?.doubleValue else { continue }
            if best == nil || arrived - sent < best!.width { best = (arrived - sent, (sent + arrived) / 2 - hostTime) }
        }
        guard let best else { throw BenchError("no pong carried hostTime") }
        return best.offset
    }

    /// A phone's time in the air, ms, for a throw `elapsedMs` after the sweep started (PROTOCOL.md §6.6).
    static func airMilliseconds(elapsedMs: Double, periodMs: Double, topSpeed: Double) -> Double {
        let phase = elapsedMs.truncatingRemainder(dividingBy: periodMs) / periodMs
        let power = 1 - abs(2 * phase - 1)
        return (2 * power * topSpeed / 9.81 * 1000).rounded()
    }

    // MARK: Compound words

    /// A card race: `spec.players` in `spec.teams` teams (and a tenth more teams, of one player, formed mid-game);
    /// each team plays a card (the first, second… by team) at a seeded random moment of the window: a `result` for
    /// everyone, then a `progress` or a `lockout`, and the team's next hand. Done at a client when it has every
    /// team's `result`.
    func words(_ spec: StormSpec, report: Report) -> JSONValue {
        let late = max(1, spec.teams / 10)
        let title = "Compound words card race \(spec.text)"
        context.say(
            "Compound words: \(spec.players) players in \(spec.teams) teams, \(late) teams form late, every "
                + "team plays within \(spec.windowMs) ms")
        var object: JSONObject = [
            "players": .number(spec.players), "teams": .number(spec.teams), "windowMs": .number(spec.windowMs),
            "lateTeams": .number(late),
        ]
        do {
            let session = try HostSession(
                context: context, capacity: spec.players + late, maxClients: max(2000, spec.players + late + 100),
                extra: ModeStormRun.hostFlags)
            defer { session.close() }
            let pool = session.pool
            let teamSize = (spec.players + spec.teams - 1) / spec.teams
            try session.joinPlayers(spec.players, teamSize: teamSize, prefix: "W")
            StormRun.waitForQuiet(pool, quiet: 0.3)
            try session.request(["type": "start", "game": "words", "exercise": "cards", "list": "en", "level": 1])
            StormRun.waitForQuiet(pool, quiet: 0.3)

            // The team list grows: a tenth more teams form mid-game, one player each, one by one.
            let early = session.players.map(\.slot)
            let rosterBefore = pool.tally.locked { tally in early.map { tally.bytesBySlot[$0] } }
            var slots = early
            var pickers: [Int] = []  // one player of each team
            for team in 0..<session.teamCount {
                if let first = session.players.first(where: { $0.team == team }) { pickers.append(first.slot) }
            }
            for index in 0..<late {
                let slot = try ModeStormRun.join(
                    session, name: "WL" + String(format: "%04d", index), team: "Late" + String(format: "%03d", index))
                slots.append(slot)
                pickers.append(slot)
            }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            let rosterAfter = pool.tally.locked { tally in early.map { tally.bytesBySlot[$0] } }
            let rosterBytes = Summary(zip(rosterAfter, rosterBefore).map { Double($0 - $1) })
            object["lateJoinBytesPerClient"] = rosterBytes.json

            // Every team plays a card within the window.
            pool.tally.count(.result, goal: pickers.count)
            var generator = SplitMix64Bench(seed: 0xC0_0000 + UInt64(spec.players))
            let schedule = pickers.enumerated().map { index, slot in
                (slot: slot, card: index % 4 + 1, at: Double(generator.next() % UInt64(spec.windowMs * 1000)) / 1000)
            }.sorted { $0.at < $1.at }
            let before = pool.tally.locked { tally in slots.map { tally.bytesBySlot[$0] } }
            let allBefore = pool.tally.locked { $0.bytesReceived }
            let cpuBefore = session.host.cpuSeconds()
            let start = MonotonicClock.nanoseconds()
            var lastPress = start
            for pick in schedule {
                let left = start + Int64(pick.at * 1e6) - MonotonicClock.nanoseconds()
                if left > 0 { usleep(UInt32(left / 1000)) }
                try pool.send(pick.slot, ["type": "pick", "choice": .number(pick.card)])
                lastPress = MonotonicClock.nanoseconds()
            }
            let finished = pool.tally.wait(timeout: 30) { $0.countReached >= slots.count }
            let doneAt = pool.tally.locked { tally in slots.map { tally.countedGoalAt[$0] } }.filter { $0 != 0 }
            StormRun.waitForQuiet(pool, quiet: 0.3)
            let cpu = cpuBefore.flatMap { before in session.host.cpuSeconds().map { $0 - before } }
            let (after, allAfter, closed) = pool.tally.locked { tally in
                (slots.map { tally.bytesBySlot[$0] }, tally.bytesReceived, tally.closedCount)
            }
            try record(
                object: &object, title: title, moment: "every team's result", clients: slots.count, finished: finished,
                doneAt: doneAt, start: start, lastPress: lastPress,
                perClient: zip(after, before).map { Double($0 - $1) },
                total: allAfter - allBefore, cpu: cpu, closed: closed, lateBytes: rosterBytes, late: late,
                lateWhat: "teams form mid-game", report: report)
        } catch {
            failed(&object, title: title, error: error, report: report)
        }
        return .object(object)
    }

    // MARK: Shared

    /// Whether a line is a message of `type` (the host writes `type` first).
    static func isType(_ type: String, _ body: [UInt8]) -> Bool {
        body.starts(with: Array("{\"type\":\"\(type)\"".utf8))
    }

    /// One player joins the running game and is welcomed; returns its slot.
    static func join(_ session: HostSession, name: String, team: String, clock: Bool = false) throws -> Int {
        let pool = session.pool
        let slot = try pool.open(isTarget: true)
        var hello: JSONObject = [
            "type": "hello", "room": .string(session.room), "name": .string(name), "team": .string(team),
        ]
        if clock { hello["clock"] = true }
        try pool.send(slot, hello)
        guard pool.tally.wait(timeout: 30, until: { $0.welcomeAt[slot] != 0 || $0.closedAt[slot] != 0 }),
            pool.tally.locked({ $0.closedAt[slot] == 0 })
        else { throw BenchError("\(name) was not welcomed; last error: \(pool.tally.locked { $0.lastError })") }
        return slot
    }

    /// Writes a mode storm's figures into `object` and the report's table.
    private func record(
        object: inout JSONObject, title: String, moment: String, clients: Int, finished: Bool, doneAt: [Int64],
        start: Int64, lastPress: Int64, perClient: [Double], total: Int, cpu: Double?, closed: Int, lateBytes: Summary,
        late: Int, lateWhat: String, report: Report
    ) throws {
        let complete = finished && doneAt.count == clients
        let lastDone = doneAt.max().map { Double($0 - start) / 1e6 }
        let afterLastPress = doneAt.max().map { Double($0 - lastPress) / 1e6 }
        let bytes = Summary(perClient)
        object["complete"] = .bool(complete)
        object["completeClients"] = .number(doneAt.count)
        object["pressSpanMs"] = .double(rounded(Double(lastPress - start) / 1e6))
        object["allCompleteMs"] = lastDone.map { .double(rounded($0)) } ?? .null
        object["afterLastPressMs"] = afterLastPress.map { .double(rounded($0)) } ?? .null
        object["bytesPerClient"] = bytes.json
        object["totalBytes"] = .number(total)
        object["closedByHost"] = .number(closed)
        object["hostCPUSeconds"] = cpu.map { .double(rounded($0)) } ?? .null
        if !complete {
            report.problems.append("\(title): \(doneAt.count) of \(clients) clients had \(moment) after 30 s")
        }
        if closed > 0 { report.problems.append("\(title): the host closed \(closed) connections") }
        report.add(
            TableRow(
                measure: "\(title): \(moment) at every client, after the last press (after the first)",
                value: complete
                    ? "\(formatMilliseconds(afterLastPress ?? 0)) ms (\(formatMilliseconds(lastDone ?? 0)) ms)"
                    : "incomplete (\(doneAt.count) of \(clients))"))
        report.add(
            TableRow(
                measure: "\(title): bytes per client p50/max, total; host CPU",
                value: String(
                    format: "%.1f / %.1f KiB, %.2f MB; %.2f CPU-s", bytes.p50 / 1024, bytes.max / 1024,
                    Double(total) / 1e6, cpu ?? .nan)))
        report.add(
            TableRow(
                measure: "\(title): \(late) \(lateWhat) one by one, bytes per earlier client p50/max",
                value: String(format: "%.1f / %.1f KiB", lateBytes.p50 / 1024, lateBytes.max / 1024)))
    }

    private func failed(_ object: inout JSONObject, title: String, error: Error, report: Report) {
        object["failure"] = .string("\(error)")
        report.problems.append("\(title): \(error)")
        report.add(TableRow(measure: title, value: "failed"))
    }
}
