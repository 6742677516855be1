import Foundation
import Net
import Protocol
import TestSupport

/// Durations of one `fdatasync` after appending a buzz's journal line, on the file system of the host's journal: the
/// durable path's floor is the relay plus one of these, since no host may send a journaled outcome sooner.
final class SyncProbe {
    private let fd: Int32
    /// The bytes appended before each sync: about one buzz's journal line.
    static let lineBytes = 128
    private let line = [UInt8](repeating: 0x61, count: SyncProbe.lineBytes - 1) + [0x0A]

    init(folder: String) throws {
        fd = open(folder + "/fsync-probe", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw BenchError("cannot open the fsync probe in \(folder): errno \(errno)") }
    }

    deinit { close(fd) }

    /// Appends one line and syncs it; returns the milliseconds taken.
    func measure() -> Double {
        let start = MonotonicClock.nanoseconds()
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        #if canImport(Darwin)
            _ = fsync(fd)
        #else
            _ = fdatasync(fd)
        #endif
        return Double(MonotonicClock.nanoseconds() - start) / 1e6
    }
}

/// Buzz fan-out: one client buzzes (or, on the floor, writes a line); the time until every client has read the `buzzed` line.
///
/// On the host, each question takes `buzzesPerQuestion` buzzes from different teams in turn, as a real question does:
/// the first goes out whole (a fresh order), the second whole too (a list of two), the later ones as deltas
/// (PROTOCOL.md §6.0): the first buzz and the deltas are reported as two paths beside the same floor.
struct FanoutRun {
    let context: BenchContext
    var options: BenchOptions { context.options }
    var rounds: Int { options.warmupBuzzes + options.buzzes }
    /// Buzzes by different teams within one question on the host (the third on are deltas).
    static let buzzesPerQuestion = 4

    /// The per-buzz figures of one series: time from the write to the last client's read, and to the median client's.
    struct Series {
        var last: [Double] = []
        var median: [Double] = []
        /// The later buzzes of a question (third on: the delta path), to the last client's read.
        var delta: [Double] = []
        var cycle: [Double] = []
        /// One `fdatasync` measured right after each measured round (the C floor's durable twin).
        var fsync: [Double] = []
        var setupSeconds = 0.0
        var hostCPUSeconds: Double?
        var failure: String?

        /// Each round's relay time plus the fdatasync measured with it: the durable path's floor.
        var durable: [Double] { zip(last, fsync).map { $0 + $1 } }

        var json: JSONValue {
            var object: JSONObject = [
                "allClientsMs": Summary(last).json, "medianClientMs": Summary(median).json,
                "setupSeconds": .double(rounded(setupSeconds)),
            ]
            if !cycle.isEmpty { object["cycleMs"] = Summary(cycle).json }
            if !delta.isEmpty { object["deltaAllClientsMs"] = Summary(delta).json }
            if !fsync.isEmpty { object["fsyncMs"] = Summary(fsync).json }
            if let hostCPUSeconds { object["hostCPUSecondsPerRound"] = .double(rounded(hostCPUSeconds)) }
            if let failure { object["failure"] = .string(failure) }
            return .object(object)
        }
    }

    /// The line the floor relays: shaped like the host's `buzzed` for one team, so both paths carry the same bytes.
    static func floorLine(team: String) -> [UInt8] {
        ShakyWire.Buzzed(
            entries: [ShakyWire.BuzzEntry(team: team, offsetMs: 0, uncertaintyMs: 0, tie: false)],
            remainingMs: 3_600_000, deadline: 3_601_234
        ).encodedLine()
    }

    /// Times one write on `writer` until all `clients` targets have a `buzzed` line; appends to `series` (the first
    /// buzz of a question) or to its deltas (`isDelta`).
    private func timeOneBuzz(
        pool: ClientPool, writer: Int, bytes: [UInt8], clients: Int, isMeasured: Bool,
        into series: inout Series, isDelta: Bool = false
    ) throws {
        usleep(2000)  // let the previous round's acknowledgements settle, the same for host and floor
        pool.tally.arm(.buzzed)
        let start = MonotonicClock.nanoseconds()
        try pool.send(writer, bytes)
        guard pool.tally.wait(timeout: 30, until: { $0.arrivedTargets >= clients }) else {
            let (arrived, closed) = pool.tally.locked { ($0.arrivedTargets, $0.closedCount) }
            throw BenchError(
                "only \(arrived) of \(clients) clients saw the buzz within 30 s (\(closed) connections closed)")
        }
        let arrivals: [Int64] = pool.tally.locked { tally in
            (0..<pool.count).filter { tally.isTarget[$0] }.map { tally.arrivals[$0] }.sorted()
        }
        guard isMeasured, let last = arrivals.last else { return }
        if isDelta {
            series.delta.append(Double(last - start) / 1e6)
            return
        }
        series.last.append(Double(last - start) / 1e6)
        series.median.append(Double(arrivals[arrivals.count / 2] - start) / 1e6)
    }

    /// One server under test for one size: the floor relay or a host (fsync on or off), with its own clients.
    final class Contender {
        enum Kind {
            case floor(ServerProcess, FloorLanguage)
            case host(HostSession, fsync: Bool)
        }
        let kind: Kind
        let pool: ClientPool
        /// Whether the host's clients speak WebSocket (as phones do).
        let isWebSocket: Bool
        var series = Series()
        var cpuBefore: Double?
        init(kind: Kind, pool: ClientPool, isWebSocket: Bool = false) {
            self.kind = kind
            self.pool = pool
            self.isWebSocket = isWebSocket
        }

        var session: HostSession? { if case .host(let session, _) = kind { return session } else { return nil } }

        func close() {
            switch kind {
            case .floor(let relay, _):
                pool.close()
                relay.stop()
            case .host(let session, _):
                session.close()
            }
        }
    }

    /// A floor: one of the bench's relays with `clients` connections.
    func makeFloor(clients: Int, language: FloorLanguage) throws -> Contender {
        let started = MonotonicClock.nanoseconds()
        let relay = try context.startFloor(language)
        let pool: ClientPool
        do {
            pool = try ClientPool(port: relay.port, capacity: clients, readerCount: options.readers)
        } catch {
            relay.stop()
            throw error
        }
        let contender = Contender(kind: .floor(relay, language), pool: pool)
        do {
            for _ in 0..<clients { try pool.open(isTarget: true) }
            guard pool.tally.wait(timeout: 60, until: { $0.welcomeCount >= clients }) else {
                throw BenchError("the relay did not greet every client")
            }
        } catch {
            contender.close()
            throw error
        }
        contender.series.setupSeconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
        return contender
    }

    /// A host with `clients` players in teams and an operator, a game of one question per round started; its
    /// clients speak WebSocket when `webSocket` is set.
    func makeHost(clients: Int, fsync: Bool, webSocket: Bool = false) throws -> Contender {
        let started = MonotonicClock.nanoseconds()
        let session = try HostSession(
            context: context, capacity: clients, maxClients: max(2000, clients + 100), fsync: fsync,
            extra: ["--idle-timeout", "3600", "--fairness", options.isHostFairnessOn ? "on" : "off"],
            webSocket: webSocket)
        let contender = Contender(kind: .host(session, fsync: fsync), pool: session.pool, isWebSocket: webSocket)
        do {
            try session.ensurePack(questions: rounds + 1)
            // Enough teams for every buzz of a question to be a different team's (8 clients: 4 teams of 2).
            let teamSize = min(options.teamSize, max(1, clients / FanoutRun.buzzesPerQuestion))
            try session.joinPlayers(clients, teamSize: teamSize)
            contender.series.setupSeconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
            try session.startShaky(
                questions: rounds + 1,
                settings: [
                    "questionSeconds": 3600, "afterBuzzSeconds": 3600,
                    "answerSeconds": 3600, "revealSeconds": 0,
                ])
            session.pool.tally.setQuestionGoal(1)
            guard session.pool.tally.wait(timeout: 60, until: { $0.questionReached >= clients }) else {
                throw BenchError("not every player saw the first question")
            }
        } catch {
            contender.close()
            throw error
        }
        contender.cpuBefore = session.host.cpuSeconds()
        return contender
    }

    /// One buzz on one contender: the floor relays a line; on the host a player buzzes, then the operator
    /// moves on (`next` twice: end the question, open the next) and every player sees the new question.
    func runRound(_ contender: Contender, round: Int, clients: Int, teams: Int, syncProbe: SyncProbe?) throws {
        let isMeasured = round >= options.warmupBuzzes
        switch contender.kind {
        case .floor(_, let language):
            let team = round % teams
            try timeOneBuzz(
                pool: contender.pool, writer: team, bytes: FanoutRun.floorLine(team: String(format: "Team%03d", team)),
                clients: clients, isMeasured: isMeasured, into: &contender.series)
            if isMeasured, language == .c, let syncProbe { contender.series.fsync.append(syncProbe.measure()) }
        case .host(let session, _):
            // Player index i is in team i % teams, so players `round`, `round + 1`, … (mod teams) are of different
            // teams: a different team opens each question, and the others follow it.
            for turn in 0..<min(FanoutRun.buzzesPerQuestion, session.teamCount) {
                let buzzer = session.players[(round + turn) % session.teamCount].slot
                try timeOneBuzz(
                    pool: session.pool, writer: buzzer, bytes: FanoutRun.buzzLine, clients: clients,
                    isMeasured: isMeasured && turn != 1, into: &contender.series, isDelta: turn >= 2)
            }
            let cycleStart = MonotonicClock.nanoseconds()
            try session.request(["type": "next"])
            try session.request(["type": "next"])
            session.pool.tally.setQuestionGoal(round + 2)
            guard session.pool.tally.wait(timeout: 120, until: { $0.questionReached >= clients }) else {
                throw BenchError("not every player saw question \(round + 2)")
            }
            if isMeasured { contender.series.cycle.append(Double(MonotonicClock.nanoseconds() - cycleStart) / 1e6) }
            session.clearAdminInbox()
        }
    }

    static let buzzLine = JSONEncoding.encodeLine(.object(["type": "buzz"]))

    /// Runs every size. The floor and the hosts (fsync on, off) are all up at once and take turns buzz by buzz,
    /// in a rotating order, so that noise from other work on the machine falls on all of them alike.
    func run(report: Report, keepSessionWithClients keptClients: Int?) -> HostSession? {
        var runs: [JSONValue] = []
        var kept: HostSession?
        for clients in options.sizes {
            let teams = max(2, (clients + options.teamSize - 1) / options.teamSize)
            context.say(
                "buzz fan-out, \(clients) clients in \(teams) teams: floor and host (journal fsync \(options.fsync.rawValue)), interleaved"
            )
            var floorFailures: [FloorLanguage: String] = [:]
            var contenders: [Contender] = []
            for language in [FloorLanguage.swift, .c] {
                do {
                    contenders.append(try makeFloor(clients: clients, language: language))
                } catch {
                    floorFailures[language] = "\(error)"
                }
            }
            let syncProbe = try? SyncProbe(folder: context.dataFolder)
            var hostFailures: [Bool: String] = [:]
            for fsync in options.fsync.settings {
                do {
                    context.say("  setting up the host with fsync \(fsync ? "on" : "off")", detail: true)
                    contenders.append(try makeHost(clients: clients, fsync: fsync))
                } catch {
                    hostFailures[fsync] = "\(error)"
                }
            }
            var webSocketFailure: String?
            if options.isWebSocket {
                do {
                    context.say("  setting up the host with WebSocket clients (fsync on)", detail: true)
                    contenders.append(try makeHost(clients: clients, fsync: true, webSocket: true))
                } catch {
                    webSocketFailure = "\(error)"
                }
            }
            for round in 0..<rounds {
                for index in contenders.indices {
                    let contender = contenders[(index + round) % contenders.count]
                    guard contender.series.failure == nil else { continue }
                    do {
                        try runRound(contender, round: round, clients: clients, teams: teams, syncProbe: syncProbe)
                    } catch {
                        contender.series.failure = "\(error)"
                    }
                }
                if round % 50 == 49 { context.say("  \(round + 1)/\(rounds) buzzes", detail: true) }
            }
            for contender in contenders {
                if let session = contender.session, let before = contender.cpuBefore,
                    let after = session.host.cpuSeconds()
                {
                    contender.series.hostCPUSeconds = (after - before) / Double(rounds)
                }
            }
            func floor(_ language: FloorLanguage) -> Series {
                let found = contenders.first { contender in
                    if case .floor(_, let value) = contender.kind { return value == language } else { return false }
                }
                return found?.series ?? Series(failure: floorFailures[language] ?? "not run")
            }
            let swiftFloor = floor(.swift)
            let cFloor = floor(.c)
            func p99(_ values: [Double], _ series: Series) -> Double? {
                series.failure == nil ? Summary(values).p99 : nil
            }
            func cell(_ values: [Double], _ series: Series) -> String {
                let summary = Summary(values)
                guard series.failure == nil else { return "failed" }
                return [summary.p50, summary.p99, summary.max].map(formatMilliseconds).joined(separator: " / ") + " ms"
            }
            var hostRuns: [JSONValue] = []
            for fsync in options.fsync.settings {
                let contender = contenders.first {
                    if case .host(_, let value) = $0.kind { return value == fsync && !$0.isWebSocket }
                    return false
                }
                let series = contender?.series ?? Series(failure: hostFailures[fsync] ?? "not run")
                // The floor beside the host: the C relay, plus one fdatasync of a journal line when the host syncs.
                let floorValues = fsync ? cFloor.durable : cFloor.last
                let hostP99 = p99(series.last, series)
                let ratio = hostP99.flatMap { value in p99(floorValues, cFloor).map { value / $0 } }
                let swiftRatio = hostP99.flatMap { value in p99(swiftFloor.last, swiftFloor).map { value / $0 } }
                var entry = series.json.objectValue!
                entry["fsync"] = .bool(fsync)
                entry["ratioP99"] = ratio.map { .double(rounded($0)) } ?? .null
                entry["ratioP99SwiftFloor"] = swiftRatio.map { .double(rounded($0)) } ?? .null
                hostRuns.append(.object(entry))
                let name = "buzz fan-out p99, \(clients) clients, fsync \(fsync ? "on" : "off")"
                // The target is for the durable path (#16); without fsync the ratio is shown, not held to it.
                let check = fsync ? report.check(name + " (host/floor)", value: ratio, limit: 1.5, unit: "ratio") : nil
                report.add(
                    TableRow(
                        measure: "Buzz fan-out p50/p99/max, \(clients) clients (fsync \(fsync ? "on" : "off"))",
                        value: cell(series.last, series),
                        floor: (fsync ? "C+sync " : "C ") + cell(floorValues, cFloor),
                        ratio: formatRatio(ratio) + " (Swift floor \(formatRatio(swiftRatio)))",
                        target: fsync ? "p99 ≤ 1.5× floor" : "", status: check?.statusText ?? ""))
                if let failure = series.failure { report.problems.append("\(name): \(failure)") }
                // The later buzzes of a question: the delta path, against the same floor.
                let deltaP99 = p99(series.delta, series)
                let deltaRatio = deltaP99.flatMap { value in p99(floorValues, cFloor).map { value / $0 } }
                if let deltaRatio { entry["deltaRatioP99"] = .double(rounded(deltaRatio)) }
                hostRuns[hostRuns.count - 1] = .object(entry)
                let deltaCheck =
                    fsync
                    ? report.check(
                        "buzz fan-out p99, later buzzes (deltas), \(clients) clients, fsync on (host/floor)",
                        value: deltaRatio, limit: 1.5, unit: "ratio") : nil
                report.add(
                    TableRow(
                        measure:
                            "Buzz fan-out p50/p99/max, later buzzes of a question (deltas), \(clients) clients "
                            + "(fsync \(fsync ? "on" : "off"))",
                        value: cell(series.delta, series),
                        floor: (fsync ? "C+sync " : "C ") + cell(floorValues, cFloor),
                        ratio: formatRatio(deltaRatio),
                        target: fsync ? "p99 ≤ 1.5× floor" : "", status: deltaCheck?.statusText ?? ""))
            }
            if options.isWebSocket {
                // WebSocket clients (fsync on) against the TCP clients of the same host configuration, same run.
                let tcp = contenders.first { if case .host(_, true) = $0.kind { !$0.isWebSocket } else { false } }
                let web = contenders.first { $0.isWebSocket }
                let series = web?.series ?? Series(failure: webSocketFailure ?? "not run")
                let tcpSeries = tcp?.series ?? Series(failure: "not run")
                var entry = series.json.objectValue!
                entry["fsync"] = true
                entry["webSocket"] = true
                for (name, values, tcpValues) in [
                    ("first", series.last, tcpSeries.last), ("delta", series.delta, tcpSeries.delta),
                ] {
                    let ratio = p99(values, series).flatMap { value in p99(tcpValues, tcpSeries).map { value / $0 } }
                    entry[name == "first" ? "ratioP99ToTCP" : "deltaRatioP99ToTCP"] =
                        ratio.map { .double(rounded($0)) } ?? .null
                    let check = report.check(
                        "WebSocket fan-out p99, \(name == "first" ? "first buzz" : "later buzzes"), \(clients) "
                            + "clients (WebSocket/TCP)", value: ratio, limit: 1.2, unit: "ratio")
                    report.add(
                        TableRow(
                            measure: "WebSocket clients: buzz fan-out p50/p99/max, "
                                + (name == "first" ? "first buzz" : "later buzzes (deltas)")
                                + ", \(clients) clients (fsync on)",
                            value: cell(values, series), floor: "TCP " + cell(tcpValues, tcpSeries),
                            ratio: formatRatio(ratio), target: "p99 ≤ 1.2× TCP", status: check.statusText))
                }
                hostRuns.append(.object(entry))
                if let failure = series.failure {
                    report.problems.append("WebSocket fan-out, \(clients) clients: \(failure)")
                }
            }
            let floorCells = [(swiftFloor.last, swiftFloor), (cFloor.last, cFloor), (cFloor.fsync, cFloor)].map {
                $1.failure != nil
                    ? "failed" : "\(formatMilliseconds(Summary($0).p50))/\(formatMilliseconds(Summary($0).p99))"
            }
            report.add(
                TableRow(
                    measure: "Floors p50/p99, \(clients) clients: Swift relay / C relay / fdatasync",
                    value: floorCells.joined(separator: " · ") + " ms"))
            for (language, series) in [("Swift", swiftFloor), ("C", cFloor)] {
                if let failure = series.failure {
                    report.problems.append("\(language) floor, \(clients) clients: \(failure)")
                }
            }
            runs.append(
                .object([
                    "clients": .number(clients), "teams": .number(teams), "floor": swiftFloor.json,
                    "cFloor": cFloor.json,
                    "durableFloorMs": Summary(cFloor.durable).json, "fsyncProbeBytes": .number(SyncProbe.lineBytes),
                    "host": .array(hostRuns),
                ]))
            for contender in contenders {
                if kept == nil, clients == keptClients, case .host(let session, true) = contender.kind,
                    contender.series.failure == nil, !contender.isWebSocket
                {
                    kept = session
                } else {
                    contender.close()
                }
            }
        }
        report.sections["fanout"] = .object([
            "buzzes": .number(options.buzzes), "warmup": .number(options.warmupBuzzes),
            "teamSize": .number(options.teamSize),
            "interleaved": true, "hostFairness": .bool(options.isHostFairnessOn), "runs": .array(runs),
        ])
        return kept
    }
}
