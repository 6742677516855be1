import Foundation
import Net
import Protocol

/// Join storm, idle scale and deadline accuracy.
struct ScaleRuns {
    let context: BenchContext
    var options: BenchOptions { context.options }

    // MARK: Join storm

    /// `clients` connect and say hello at once; time until all are welcomed and all know that everyone is in (a
    /// lobby message whose head count is all of them); bytes each received.
    func joinStorm(report: Report) -> JSONValue {
        let clients = options.joinStormClients
        context.say("join storm: \(clients) clients")
        var object: JSONObject = ["clients": .number(clients)]
        var allWelcomed: Double?
        do {
            let session = try HostSession(
                context: context, capacity: clients, maxClients: max(2000, clients + 100), withAdmin: false)
            defer { session.close() }
            let pool = session.pool
            pool.tally.locked { $0.fullLobbyPlayers = clients }
            let teams = max(2, (clients + options.teamSize - 1) / options.teamSize)
            let cpuBefore = session.host.cpuSeconds()
            let start = MonotonicClock.nanoseconds()
            for index in 0..<clients {
                let slot = try pool.open(isTarget: true)
                try pool.send(
                    slot,
                    [
                        "type": "hello", "room": .string(session.room),
                        "name": .string("S" + String(format: "%05d", index)),
                        "team": .string(String(format: "Team%03d", index % teams)),
                    ])
            }
            let sent = MonotonicClock.nanoseconds()
            let timeout = options.isQuick ? 30.0 : 180.0
            let finished = pool.tally.wait(timeout: timeout) { tally in
                (0..<clients).allSatisfy {
                    (tally.welcomeAt[$0] != 0 && tally.fullLobbyAt[$0] != 0) || tally.closedAt[$0] != 0
                }
            }
            let end = MonotonicClock.nanoseconds()
            // Lobby changes after the last join (a hall's team sizes come at most every 2 s) are counted too.
            usleep(2_200_000)
            let (welcomes, lobbies, closed, bytes, lastError, perClient) = pool.tally.locked { tally in
                (
                    (0..<clients).map { tally.welcomeAt[$0] }, (0..<clients).map { tally.fullLobbyAt[$0] },
                    tally.closedCount, tally.bytesReceived, tally.lastError,
                    (0..<clients).map { Double(tally.bytesBySlot[$0]) }
                )
            }
            let welcomeMs = welcomes.filter { $0 != 0 }.map { Double($0 - start) / 1e6 }
            let lobbyMs = lobbies.filter { $0 != 0 }.map { Double($0 - start) / 1e6 }
            let isComplete = welcomeMs.count == clients && lobbyMs.count == clients
            if welcomeMs.count == clients { allWelcomed = welcomeMs.max()! / 1000 }
            object["connectAndHelloSeconds"] = .double(rounded(Double(sent - start) / 1e9))
            object["welcomedClients"] = .number(welcomeMs.count)
            object["fullLobbyClients"] = .number(lobbyMs.count)
            object["closedByHost"] = .number(closed)
            object["complete"] = .bool(isComplete)
            object["allWelcomedSeconds"] = allWelcomed.map { .double(rounded($0)) } ?? .null
            object["allFullLobbySeconds"] = lobbyMs.count == clients ? .double(rounded(lobbyMs.max()! / 1000)) : .null
            object["welcomeMs"] = Summary(welcomeMs).json
            object["fullLobbyMs"] = Summary(lobbyMs).json
            object["waitedSeconds"] = .double(rounded(Double(end - start) / 1e9))
            object["bytesReceived"] = .number(bytes)
            object["bytesPerClient"] = Summary(perClient).json
            var cpu: Double?
            if let before = cpuBefore, let after = session.host.cpuSeconds() {
                cpu = after - before
                object["hostCPUSeconds"] = .double(rounded(after - before))
            }
            let perClientSummary = Summary(perClient)
            report.add(
                TableRow(
                    measure: "Join storm \(clients): bytes per client p50/max, total; host CPU",
                    value: String(
                        format: "%.1f / %.1f KiB, %.2f MB; %.2f CPU-s",
                        perClientSummary.p50 / 1024, perClientSummary.max / 1024,
                        Double(bytes) / 1e6, cpu ?? .nan)))
            if !finished {
                report.problems.append(
                    "join storm: not finished after \(Int(timeout)) s (\(welcomeMs.count) welcomed, \(lobbyMs.count) with the full lobby, \(closed) closed by the host)"
                )
            }
            if closed > 0 {
                report.problems.append(
                    "join storm: the host closed \(closed) of \(clients) connections; last error seen: \(lastError.isEmpty ? "none (closed silently)" : lastError)"
                )
            }
            let status = report.check(
                "join storm, \(clients) clients: all welcomed", value: allWelcomed, limit: 1, unit: "s"
            ).statusText
            report.add(
                TableRow(
                    measure: "Join storm \(clients): all welcomed / all know everyone is in",
                    value: (allWelcomed.map { String(format: "%.3f s", $0) }
                        ?? "incomplete (\(welcomeMs.count) welcomed)") + " / "
                        + (lobbyMs.count == clients
                            ? String(format: "%.3f s", lobbyMs.max()! / 1000) : "incomplete (\(lobbyMs.count))")
                        + (closed > 0 ? ", \(closed) cut off" : ""),
                    target: "all welcomed ≤ 1 s", status: status))
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("join storm: \(error)")
            report.check("join storm, \(clients) clients: all welcomed", value: nil, limit: 1, unit: "s")
            report.add(
                TableRow(measure: "Join storm \(clients)", value: "failed", target: "all welcomed ≤ 1 s", status: "n/a")
            )
        }
        return .object(object)
    }

    // MARK: One by one

    /// `--joins` players join one at a time, each waiting for its welcome, in teams of `--team-size`: all the lobby
    /// traffic each player's connection receives (welcome included), until it is quiet.
    func joinOneByOne(report: Report) -> JSONValue {
        let count = options.joinsOneByOne
        let teams = max(2, (count + options.teamSize - 1) / options.teamSize)
        context.say("joins one by one: \(count) players in \(teams) teams")
        var object: JSONObject = ["players": .number(count), "teams": .number(teams)]
        let title = "\(count) joins one by one"
        let target = 16.0
        do {
            let session = try HostSession(
                context: context, capacity: count, maxClients: max(2000, count + 100), withAdmin: false)
            defer { session.close() }
            let pool = session.pool
            let cpuBefore = session.host.cpuSeconds()
            let start = MonotonicClock.nanoseconds()
            var slots: [Int] = []
            for index in 0..<count {
                let slot = try pool.open(isTarget: true)
                slots.append(slot)
                try pool.send(
                    slot,
                    [
                        "type": "hello", "room": .string(session.room),
                        "name": .string("J" + String(format: "%05d", index)),
                        "team": .string(String(format: "Team%03d", index % teams)),
                    ])
                guard pool.tally.wait(timeout: 30, until: { $0.welcomeAt[slot] != 0 || $0.closedAt[slot] != 0 }),
                    pool.tally.locked({ $0.closedAt[slot] == 0 })
                else {
                    let lastError = pool.tally.locked { $0.lastError }
                    throw BenchError("player \(index + 1) was not welcomed; last error: \(lastError)")
                }
            }
            let joinSeconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
            // Quiet for 2.2 s: the last coalesced lobby change and a hall's last team sizes (every 2 s) are in.
            while true {
                let last = pool.tally.locked { $0.lastReceiveAt }
                if Double(MonotonicClock.nanoseconds() - last) / 1e9 > 2.2 { break }
                usleep(50_000)
            }
            let cpu = cpuBefore.flatMap { before in session.host.cpuSeconds().map { $0 - before } }
            let (perClient, total, closed) = pool.tally.locked { tally in
                (slots.map { Double(tally.bytesBySlot[$0]) }, tally.bytesReceived, tally.closedCount)
            }
            let summary = Summary(perClient)
            object["joinSeconds"] = .double(rounded(joinSeconds))
            object["bytesPerClient"] = summary.json
            object["totalBytes"] = .number(total)
            object["closedByHost"] = .number(closed)
            object["hostCPUSeconds"] = cpu.map { .double(rounded($0)) } ?? .null
            if closed > 0 { report.problems.append("\(title): the host closed \(closed) connections") }
            let check =
                count == 1000
                ? report.check(
                    "\(title): lobby bytes per player, mean", value: summary.mean / 1024, limit: target, unit: "KiB")
                : nil
            report.add(
                TableRow(
                    measure: "\(title): lobby bytes per player mean/p50/max, total; joined in; host CPU",
                    value: String(
                        format: "%.1f / %.1f / %.1f KiB, %.2f MB; %.1f s; %.2f CPU-s",
                        summary.mean / 1024, summary.p50 / 1024, summary.max / 1024,
                        Double(total) / 1e6, joinSeconds, cpu ?? .nan),
                    target: check == nil ? "" : "mean ≤ \(Int(target)) KiB",
                    status: check?.statusText ?? ""))
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("\(title): \(error)")
            report.add(TableRow(measure: title, value: "failed"))
        }
        return .object(object)
    }

    // MARK: Idle scale

    /// `--idle` connected, joined, idle clients: host memory and CPU; plus how far joining them as players gets.
    func idleScale(report: Report) {
        let clients = options.idleClients
        var object: JSONObject = [
            "clients": .number(clients), "role": "board", "idleSeconds": .double(options.idleSeconds),
        ]
        context.say("idle scale: \(clients) boards")
        var rssMB: Double?
        var cpu: Double?
        do {
            let session = try HostSession(
                context: context, capacity: clients, maxClients: max(12000, clients + 100), withAdmin: false)
            defer { session.close() }
            let pool = session.pool
            usleep(300_000)
            let baseline = session.host.residentBytes() ?? 0
            let start = MonotonicClock.nanoseconds()
            var joined = 0
            while joined < clients {
                let batch = min(500, clients - joined)
                var slots: [Int] = []
                for _ in 0..<batch {
                    let slot = try pool.open(isTarget: true)
                    slots.append(slot)
                    try pool.send(slot, ["type": "hello", "room": .string(session.room), "role": "board"])
                }
                guard
                    pool.tally.wait(
                        timeout: 300,
                        until: { tally in slots.allSatisfy { tally.welcomeAt[$0] != 0 || tally.closedAt[$0] != 0 } })
                else {
                    throw BenchError("boards \(joined + 1)…\(joined + batch) were not welcomed within 300 s")
                }
                joined += batch
                if joined % 2000 == 0 { context.say("  \(joined)/\(clients) boards joined", detail: true) }
            }
            let joinSeconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
            // Wait until the lobby broadcasts the joins caused have all been read.
            let quietStart = MonotonicClock.nanoseconds()
            while true {
                let last = pool.tally.locked { $0.lastReceiveAt }
                let now = MonotonicClock.nanoseconds()
                if now - last > 1_000_000_000 || now - quietStart > 300_000_000_000 { break }
                usleep(100_000)
            }
            let settleSeconds = Double(MonotonicClock.nanoseconds() - quietStart) / 1e9
            let closed = pool.tally.locked { $0.closedCount }
            let resident = session.host.residentBytes() ?? 0
            let cpuBefore = session.host.cpuSeconds() ?? 0
            let (pingsBefore, bytesBefore) = pool.tally.locked { ($0.pingCount, $0.bytesReceived) }
            usleep(UInt32(options.idleSeconds * 1_000_000))
            let cpuAfter = session.host.cpuSeconds() ?? 0
            let (pingsAfter, bytesAfter) = pool.tally.locked { ($0.pingCount, $0.bytesReceived) }
            let residentAfter = session.host.residentBytes() ?? 0
            rssMB = Double(resident) / 1_048_576
            cpu = cpuAfter - cpuBefore
            object["joinSeconds"] = .double(rounded(joinSeconds))
            object["settleSeconds"] = .double(rounded(settleSeconds))
            object["closedByHost"] = .number(closed)
            object["baselineRSSBytes"] = .number(baseline)
            object["rssBytes"] = .number(resident)
            object["rssBytesAfterIdle"] = .number(residentAfter)
            object["rssMB"] = .double(rounded(rssMB!))
            object["bytesPerConnection"] = .number((resident - baseline) / max(1, clients))
            object["hostCPUSeconds"] = .double(rounded(cpu!))
            object["pingsDuringIdle"] = .number(pingsAfter - pingsBefore)
            object["bytesReceivedDuringIdle"] = .number(bytesAfter - bytesBefore)
            if closed > 0 { report.problems.append("idle scale: the host closed \(closed) connections") }
            report.add(
                TableRow(
                    measure: "Idle \(clients) boards: joined in / host RSS / per connection",
                    value: String(
                        format: "%.1f s / %.1f MB / %d B", joinSeconds, rssMB!, (resident - baseline) / max(1, clients))
                ))
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("idle scale: \(error)")
        }
        let memoryLimit = 150.0  // the target is for 10,000 clients; smaller runs are held to it too
        let cpuLimit = 0.1 * options.idleSeconds / 10
        let memory = report.check("idle \(clients): host RSS", value: rssMB, limit: memoryLimit, unit: "MB")
        let processor = report.check(
            "idle \(clients): host CPU over \(options.idleSeconds) s", value: cpu, limit: cpuLimit, unit: "s")
        report.add(
            TableRow(
                measure: "Idle \(clients): host RSS", value: rssMB.map { String(format: "%.1f MB", $0) } ?? "failed",
                target: String(format: "≤ %.0f MB", memoryLimit), status: memory.statusText))
        report.add(
            TableRow(
                measure: "Idle \(clients): host CPU over \(formatSeconds(options.idleSeconds))",
                value: cpu.map { String(format: "%.2f s", $0) } ?? "failed",
                target: String(format: "< %.2g s", cpuLimit), status: processor.statusText))
        object["playerJoin"] = playerJoinProbe(report: report)
        report.sections["idle"] = .object(object)
    }

    /// Joins idle players one small batch at a time until `--player-join-budget` runs out: the lobby makes it quadratic.
    private func playerJoinProbe(report: Report) -> JSONValue {
        let goal = options.idleClients
        context.say(
            "idle scale: joining up to \(goal) players one by one for at most \(formatSeconds(options.playerJoinBudgetSeconds))"
        )
        var object: JSONObject = ["goal": .number(goal), "budgetSeconds": .double(options.playerJoinBudgetSeconds)]
        do {
            let session = try HostSession(
                context: context, capacity: goal, maxClients: max(12000, goal + 100), withAdmin: false)
            defer { session.close() }
            var milestones: [JSONValue] = []
            var next = 100
            var lastCount = 0
            var lastSeconds = 0.0
            let cpuBefore = session.host.cpuSeconds() ?? 0
            try session.joinPlayers(
                goal, teamSize: options.teamSize, prefix: "I", budget: options.playerJoinBudgetSeconds
            ) { count, seconds in
                lastCount = count
                lastSeconds = seconds
                if count >= next {
                    let bytes = session.pool.tally.locked { $0.bytesReceived }
                    milestones.append(
                        .object([
                            "players": .number(count), "seconds": .double(rounded(seconds)),
                            "bytesReceived": .number(bytes),
                        ]))
                    next = next < 1000 ? next * 2 : next + 1000
                }
            }
            let bytes = session.pool.tally.locked { $0.bytesReceived }
            object["players"] = .number(lastCount)
            object["seconds"] = .double(rounded(lastSeconds))
            object["bytesReceived"] = .number(bytes)
            object["hostCPUSeconds"] = .double(rounded((session.host.cpuSeconds() ?? 0) - cpuBefore))
            object["milestones"] = .array(milestones)
            var summary = String(format: "%d in %.1f s", lastCount, lastSeconds)
            if lastCount > 0 && lastCount < goal {
                // Fit t ∝ n^k between the milestone nearest half the players and the end (k ≥ 2: every join reaches everyone).
                let points = milestones.compactMap { milestone -> (Double, Double)? in
                    guard let players = milestone["players"]?.doubleValue,
                        let seconds = milestone["seconds"]?.doubleValue, seconds > 0
                    else { return nil }
                    return (players, seconds)
                }
                let half = points.filter { $0.0 < Double(lastCount) * 0.8 }.min {
                    abs($0.0 - Double(lastCount) / 2) < abs($1.0 - Double(lastCount) / 2)
                }
                var exponent = 2.0
                if let half, lastSeconds > half.1 {
                    exponent = max(2, log(lastSeconds / half.1) / log(Double(lastCount) / half.0))
                }
                let estimate = lastSeconds * pow(Double(goal) / Double(lastCount), exponent)
                object["growthExponent"] = .double(rounded(exponent))
                object["extrapolatedSecondsForGoal"] = .double(rounded(estimate))
                summary += String(format: "; all %d ≈ %.0f s (t ∝ n^%.1f)", goal, estimate, exponent)
            } else if lastCount == goal {
                // Everyone joined as a player: measure the idle host with players too.
                let quietStart = MonotonicClock.nanoseconds()
                while true {
                    let last = session.pool.tally.locked { $0.lastReceiveAt }
                    let now = MonotonicClock.nanoseconds()
                    if now - last > 1_000_000_000 || now - quietStart > 300_000_000_000 { break }
                    usleep(100_000)
                }
                let resident = session.host.residentBytes() ?? 0
                let cpuStart = session.host.cpuSeconds() ?? 0
                let pingsBefore = session.pool.tally.locked { $0.pingCount }
                usleep(UInt32(options.idleSeconds * 1_000_000))
                let cpu = (session.host.cpuSeconds() ?? 0) - cpuStart
                object["idleRSSBytes"] = .number(resident)
                object["idleHostCPUSeconds"] = .double(rounded(cpu))
                object["idlePings"] = .number(session.pool.tally.locked { $0.pingCount } - pingsBefore)
                summary +=
                    String(format: "; idle: %.1f MB, %.2f CPU-s in ", Double(resident) / 1_048_576, cpu)
                    + formatSeconds(options.idleSeconds)
            }
            object["rssBytes"] = .number(session.host.residentBytes() ?? 0)
            report.add(TableRow(measure: "Idle players joined one by one", value: summary))
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("player join probe: \(error)")
        }
        return .object(object)
    }

    // MARK: Deadlines

    /// How late deadlines fire with `--clock-clients` players connected (questionSeconds 1, revealSeconds 1, no buzzes).
    func clockAccuracy(report: Report, session existing: HostSession?) {
        let clients = options.clockClients
        let cycles = options.clockCycles
        context.say("deadline accuracy: \(clients) clients, \(cycles) question+reveal cycles")
        var object: JSONObject = [
            "clients": .number(clients), "cycles": .number(cycles), "questionSeconds": 1, "revealSeconds": 1,
        ]
        var fireP99: Double?
        do {
            let session: HostSession
            if let existing {
                session = existing
                try session.endGame()
            } else {
                session = try HostSession(
                    context: context, capacity: clients, maxClients: max(2000, clients + 100),
                    extra: ["--idle-timeout", "3600"])
                try session.ensurePack(questions: cycles + 2)
                try session.joinPlayers(clients, teamSize: options.teamSize)
            }
            defer { session.close() }
            guard let admin = session.adminSlot else { throw BenchError("no operator") }
            let pool = session.pool
            try session.ensurePack(questions: cycles + 2)
            let offset = try hostClockOffset(session)
            object["clockOffsetUncertaintyMs"] = .double(rounded(offset.width))
            session.clearAdminInbox()
            let baseQuestions = pool.tally.locked { tally in
                session.players.map { tally.questionCount[$0.slot] }.min() ?? 0
            }
            let baseReveals = pool.tally.locked { tally in session.players.map { tally.revealCount[$0.slot] }.min() ?? 0
            }
            try session.startShaky(
                questions: cycles + 2,
                settings: [
                    "questionSeconds": 1, "revealSeconds": 1, "afterBuzzSeconds": 1,
                    "answerSeconds": 1,
                ])
            var lastQuestion: [Int64] = []
            var lastReveal: [Int64] = []
            let targets = session.players.map(\.slot)
            for index in 1...(cycles + 1) {
                pool.tally.setQuestionGoal(baseQuestions + index)
                guard pool.tally.wait(timeout: 10, until: { $0.questionReached >= targets.count }) else {
                    throw BenchError("question \(index) did not reach every client")
                }
                lastQuestion.append(pool.tally.locked { tally in targets.map { tally.lastQuestionAt[$0] }.max() ?? 0 })
                guard index <= cycles else { break }
                pool.tally.setRevealGoal(baseReveals + index)
                guard pool.tally.wait(timeout: 10, until: { $0.revealReached >= targets.count }) else {
                    throw BenchError("reveal \(index) did not reach every client")
                }
                lastReveal.append(pool.tally.locked { tally in targets.map { tally.lastRevealAt[$0] }.max() ?? 0 })
            }
            try session.endGame()
            let lines = pool.takeInbox(admin)
            let questions = lines.filter { $0.kind == .question }.compactMap {
                line -> (at: Int64, opened: Int64, deadline: Int64)? in
                guard case .object(let object)? = try? JSONParsing.parse(line.body),
                    let question = ShakyWire.Question.decode(object), let deadline = question.deadline,
                    let remaining = question.remainingMs
                else { return nil }
                return (line.at, deadline - remaining, deadline)
            }
            let reveals = lines.filter { $0.kind == .reveal }.map(\.at)
            guard questions.count >= cycles + 1, reveals.count >= cycles else {
                throw BenchError(
                    "the operator saw \(questions.count) questions and \(reveals.count) reveals, expected \(cycles + 1) and \(cycles)"
                )
            }
            // Host clock = local monotonic ms − offset. Deadlines are host-clock ms.
            func hostMs(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e6 - offset.value }
            var fire: [Double] = []
            var revealSeenAdmin: [Double] = []
            var revealSeenAll: [Double] = []
            var questionDeliveryAdmin: [Double] = []
            var questionDeliveryAll: [Double] = []
            for cycle in 0..<cycles {
                let question = questions[cycle]
                let following = questions[cycle + 1]
                fire.append(Double(following.opened - question.opened - 2000))
                revealSeenAdmin.append(hostMs(reveals[cycle]) - Double(question.deadline))
                revealSeenAll.append(hostMs(lastReveal[cycle]) - Double(question.deadline))
                questionDeliveryAdmin.append(hostMs(following.at) - Double(following.opened))
                questionDeliveryAll.append(hostMs(lastQuestion[cycle + 1]) - Double(following.opened))
            }
            fireP99 = Summary(fire).p99
            object["fireLateMs"] = Summary(fire).json
            object["revealSeenLateMs"] = .object([
                "operator": Summary(revealSeenAdmin).json, "lastClient": Summary(revealSeenAll).json,
            ])
            object["questionDeliveryMs"] = .object([
                "operator": Summary(questionDeliveryAdmin).json, "lastClient": Summary(questionDeliveryAll).json,
            ])
            let fireSummary = Summary(fire)
            let seen = Summary(revealSeenAll)
            let check = report.check(
                "deadlines, \(clients) clients: fire late p99 (two deadlines per cycle)", value: fireP99, limit: 5,
                unit: "ms")
            report.add(
                TableRow(
                    measure: "Deadline fire late p50/p99, \(clients) clients (per cycle of 2)",
                    value: "\(formatMilliseconds(fireSummary.p50)) / \(formatMilliseconds(fireSummary.p99)) ms",
                    target: "p99 ≤ 5 ms", status: check.statusText))
            report.add(
                TableRow(
                    measure: "Deadline → reveal at last client p50/p99",
                    value: "\(formatMilliseconds(seen.p50)) / \(formatMilliseconds(seen.p99)) ms"))
        } catch {
            object["failure"] = .string("\(error)")
            report.problems.append("deadline accuracy: \(error)")
            report.check(
                "deadlines, \(clients) clients: fire late p99 (two deadlines per cycle)", value: nil, limit: 5,
                unit: "ms")
            report.add(
                TableRow(
                    measure: "Deadline fire late, \(clients) clients", value: "failed", target: "p99 ≤ 5 ms",
                    status: "n/a"))
        }
        report.sections["clock"] = .object(object)
    }

    /// The host clock's offset from this process's monotonic milliseconds, from `ping`s: an interval, narrowed per sample.
    private func hostClockOffset(_ session: HostSession) throws -> (value: Double, width: Double) {
        // hostTime = floor(host's monotonic ms) − origin, read between our send and the reply's arrival:
        // offset ∈ [send − hostTime − 1, arrival − hostTime]; intersecting many samples pins it down.
        var low = -Double.infinity
        var high = Double.infinity
        for _ in 0..<20 {
            let sent = Double(MonotonicClock.nanoseconds()) / 1e6
            let pong = try session.request(["type": "ping"])
            let arrived = Double(session.lastReplyAt) / 1e6
            guard let hostTime = pong["hostTime"]?.doubleValue else { continue }
            low = max(low, sent - hostTime - 1)
            high = min(high, arrived - hostTime)
        }
        guard low.isFinite, high.isFinite else { throw BenchError("no pong carried hostTime") }
        if low > high { return (high, 0) }
        return ((low + high) / 2, high - low)
    }
}

func formatSeconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
}
