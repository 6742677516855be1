import Foundation
import Net
import Protocol
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Fairness error: how well the host's press-time estimates (PROTOCOL.md §9) recover the true gap between two
// presses when one team sits behind a slow, jittery link. See BENCHMARKS.md, section 5.

/// Fairness error: Red (behind a delay proxy) presses `gap` ms before Blue (direct); how far the host's estimated
/// gap is from the true one, and how often Red is put first.
struct FairnessRun {
    let context: BenchContext
    var options: BenchOptions { context.options }

    /// One configuration: a one-way delay for Red and whether the host runs fair buzzing.
    struct Setting {
        var delay: Double
        var isFair: Bool
        /// Jitter: an eighth of the delay, at least 1 ms (none without delay).
        var jitter: Double { delay == 0 ? 0 : max(1, delay / 8) }
    }

    /// What the trials of one setting found.
    struct Outcome {
        var setting: Setting
        var trials = 0
        /// Fresh hosts and connections the trials were spread over.
        var connections = 0
        /// Estimated gap (Blue − Red) minus the true gap, per completed trial, ms.
        var errors: [Double] = []
        var trueGaps: [Double] = []
        var orderRight = 0
        var ties = 0
        /// Red's press to the two-entry `buzzed` read by Blue, ms (the settle window shows here).
        var announced: [Double] = []
        var redProbe: JSONValue?
        var blueProbe: JSONValue?
        var seconds = 0.0
        var failure: String?

        var absoluteErrors: [Double] { errors.map(abs) }

        var json: JSONValue {
            let sorted = absoluteErrors.sorted()
            let signed = errors.sorted()
            var object: JSONObject = [
                "delayMs": .double(setting.delay), "jitterMs": .double(setting.jitter), "fairness": .bool(setting.isFair),
                "trials": .number(trials), "completed": .number(errors.count), "connections": .number(connections),
                "trueGapMs": Summary(trueGaps).json,
                "absErrorMs": .object(["p50": .double(rounded(Summary.percentile(sorted, 0.50))),
                                       "p95": .double(rounded(Summary.percentile(sorted, 0.95))),
                                       "max": .double(rounded(sorted.last ?? 0)),
                                       "mean": .double(rounded(sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)))]),
                "signedErrorMs": .object(["min": .double(rounded(signed.first ?? 0)),
                                          "p50": .double(rounded(Summary.percentile(signed, 0.50))),
                                          "max": .double(rounded(signed.last ?? 0)),
                                          "mean": .double(rounded(signed.isEmpty ? 0 : signed.reduce(0, +) / Double(signed.count)))]),
                "orderRight": .number(orderRight), "ties": .number(ties),
                "announcedMs": Summary(announced).json,
                "seconds": .double(rounded(seconds)),
            ]
            func view(_ probe: JSONValue?) -> JSONValue {
                guard let probe else { return .null }
                return .object(["rtt": probe["rtt"] ?? .null, "uncertainty": probe["uncertainty"] ?? .null])
            }
            object["hostViewOfRed"] = view(redProbe)
            object["hostViewOfBlue"] = view(blueProbe)
            if let failure { object["failure"] = .string(failure) }
            return .object(object)
        }
    }

    /// Sleeps, then spins for the last millisecond, until the monotonic clock reads `target` ns.
    static func sleep(until target: Int64) {
        while true {
            let left = target - MonotonicClock.nanoseconds()
            if left <= 0 { return }
            if left > 1_500_000 { usleep(UInt32((left - 1_000_000) / 1000)) }
        }
    }

    /// Runs every setting and adds the section, its table rows and its problems to `report`.
    func run(report: Report) {
        var settings = options.fairnessDelays.map { Setting(delay: $0, isFair: true) }
        if let unfair = options.fairnessOffDelay { settings.append(Setting(delay: unfair, isFair: false)) }
        var runs: [JSONValue] = []
        for setting in settings {
            context.say("fairness: Red behind \(Int(setting.delay)) ± \(formatMilliseconds(setting.jitter)) ms one way, Blue direct, "
                        + "Red presses \(options.fairnessGapMs) ms first; \(options.fairnessTrials) trials, fairness \(setting.isFair ? "on" : "off")")
            let outcome = measure(setting)
            runs.append(outcome.json)
            let sorted = outcome.absoluteErrors.sorted()
            let label = "Fairness error (abs) p50/p95/max, Red +\(Int(setting.delay))±\(formatMilliseconds(setting.jitter)) ms"
                + (setting.isFair ? "" : " (fairness off)")
            let value: String
            if outcome.errors.isEmpty {
                value = "failed"
            } else {
                value = "\(formatMilliseconds(Summary.percentile(sorted, 0.5))) / \(formatMilliseconds(Summary.percentile(sorted, 0.95))) / "
                    + "\(formatMilliseconds(sorted.last ?? 0)) ms; Red first \(outcome.orderRight)/\(outcome.errors.count), \(outcome.ties) tied"
            }
            report.add(TableRow(measure: label, value: value))
            if let failure = outcome.failure {
                report.problems.append("fairness, Red +\(Int(setting.delay)) ms, fairness \(setting.isFair ? "on" : "off"): \(failure)")
            }
        }
        report.sections["fairness"] = .object([
            "gapMs": .number(options.fairnessGapMs), "trials": .number(options.fairnessTrials),
            "trialsPerConnection": .number(options.fairnessTrialsPerConnection),
            "redClockOffsetMs": .int(FairnessRun.redClockOffset), "blueClockOffsetMs": .int(FairnessRun.blueClockOffset),
            "runs": .array(runs)])
    }

    static let redClockOffset: Int64 = 123_456
    static let blueClockOffset: Int64 = 7_654_321

    /// Runs the setting's trials in blocks of `fairnessTrialsPerConnection`, each block on a fresh host with a fresh
    /// proxy (its own jitter draws) and fresh clients, so the trials sample several clock-offset estimates, not one.
    func measure(_ setting: Setting) -> Outcome {
        var outcome = Outcome(setting: setting)
        let began = MonotonicClock.nanoseconds()
        var remaining = options.fairnessTrials
        var block: UInt64 = 0
        while remaining > 0 && outcome.failure == nil {
            let trials = min(remaining, options.fairnessTrialsPerConnection)
            block += 1
            measureBlock(setting, trials: trials, seed: block &* 1000 &+ UInt64(setting.delay), into: &outcome)
            outcome.connections += 1
            remaining -= trials
        }
        outcome.seconds = Double(MonotonicClock.nanoseconds() - began) / 1e9
        return outcome
    }

    /// One host, one proxy, Red through it and Blue direct; `trials` questions with a press pair each.
    func measureBlock(_ setting: Setting, trials: Int, seed: UInt64, into outcome: inout Outcome) {
        let session: HostSession
        do {
            session = try HostSession(context: context, capacity: 0, maxClients: 64, fsync: false,
                                      extra: ["--idle-timeout", "3600", "--fairness", setting.isFair ? "on" : "off"])
        } catch {
            outcome.failure = "\(error)"
            return
        }
        defer { session.close() }
        var proxy: TCPProxy?
        var clients: [SyncClient] = []
        defer {
            for client in clients { client.close() }
            proxy?.stop()
        }
        do {
            let slow = try TCPProxy(to: session.host.port, delay: setting.delay, jitter: setting.jitter, seed: seed)
            proxy = slow
            func hello(_ name: String, _ team: String) -> JSONObject {
                ["type": "hello", "protocol": 1, "room": .string(session.room), "name": .string(name), "team": .string(team),
                 "role": "player", "clock": true]
            }
            let red = try SyncClient(port: slow.port, hello: hello("Rita", "Red"), clockOffset: FairnessRun.redClockOffset)
            clients.append(red)
            let blue = try SyncClient(port: session.host.port, hello: hello("Bo", "Blue"), clockOffset: FairnessRun.blueClockOffset)
            clients.append(blue)
            // The burst: a probe at once, five more 100 ms apart.
            try red.waitForSyncs(6, timeout: 10)
            try blue.waitForSyncs(6, timeout: 10)
            try session.request(["type": "start", "game": "shaky", "questions": .number(trials + 1), "revealSeconds": 0,
                                 "questionSeconds": 3600, "afterBuzzSeconds": 3600, "answerSeconds": 3600])
            let gapNanoseconds = Int64(options.fairnessGapMs) * 1_000_000
            for number in 1...trials {
                outcome.trials += 1
                try blue.waitFor("question", timeout: 10) { $0["number"]?.intValue == Int64(number) }
                // Press on a millisecond boundary, so each stamp is the press instant exactly (clocks are in ms).
                let now = MonotonicClock.nanoseconds()
                let press = (now / 1_000_000 + 10) * 1_000_000
                FairnessRun.sleep(until: press)
                let redStamp = red.clock()
                try red.send(["type": "buzz", "t": .int(redStamp)])
                FairnessRun.sleep(until: press + gapNanoseconds)
                let blueStamp = blue.clock()
                try blue.send(["type": "buzz", "t": .int(blueStamp)])
                let (seenAt, buzzed) = try blue.waitForTimed("buzzed", timeout: 10) { ($0["entries"]?.arrayValue?.count ?? 0) == 2 }
                let entries = buzzed["entries"]?.arrayValue ?? []
                func offset(_ team: String) -> Int64? { entries.first { $0["team"]?.stringValue == team }?["offsetMs"]?.intValue }
                guard let redOffset = offset("Red"), let blueOffset = offset("Blue") else {
                    throw BenchError("a buzzed without both teams' offsets: \(buzzed)")
                }
                // The truth in common monotonic ms: each stamp minus its client's clock offset.
                let trueGap = Double((blueStamp - FairnessRun.blueClockOffset) - (redStamp - FairnessRun.redClockOffset))
                outcome.trueGaps.append(trueGap)
                outcome.errors.append(Double(blueOffset - redOffset) - trueGap)
                if entries.first?["team"]?.stringValue == "Red" { outcome.orderRight += 1 }
                if entries.contains(where: { $0["tie"] == true }) { outcome.ties += 1 }
                outcome.announced.append(Double(seenAt - press) / 1e6)
                // End the question and open the next one.
                try session.request(["type": "next"])
                try session.request(["type": "next"])
                session.clearAdminInbox()
                red.drain()
                blue.drain(keeping: "question")
            }
            outcome.redProbe = red.syncState.last
            outcome.blueProbe = blue.syncState.last
        } catch {
            outcome.failure = "\(error)"
        }
    }
}
