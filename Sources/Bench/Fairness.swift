import DelayLine
import Foundation
import Net
import Protocol
import TestSupport

// Fair buzzing on the packet delay line: how often the truly earlier press comes first, how often the host marks a
// tie, whether it is ever confidently wrong, how far its estimates are from the truth, and how long the head of
// the queue waits. See BENCHMARKS.md, section 5.

/// One fairness setting: Red's and Blue's links, the gaps between their presses, and what Red does.
struct FairnessSetting {
    typealias Link = DelayedNetwork.LinkDelay

    /// The name `--fairness-settings` uses.
    var name: String
    /// What the table calls it.
    var label: String
    var red: Link
    var blue: Link
    /// Blue's press minus Red's, ms, taken in turn (positive: Red first).
    var gaps: [Int64]
    var isFair = true
    /// How long Red holds each sync reply while claiming it answered at once, ms.
    var redHolds: Int64 = 0
    /// How far Red backdates its stamps, ms.
    var redBackdate: Int64 = 0

    /// The settle window of a trial with gap `gap` whose first presser read its turn `turn` ms after pressing: that
    /// less the first presser's mean round trip, when its press surely arrived first (it opens the window); else nil.
    func settleWindow(gap: Int64, turn: Double) -> Double? {
        let (first, other) = gap >= 0 ? (red, blue) : (blue, red)
        let latestFirst = first.up.milliseconds + first.up.jitter
        let earliestOther = other.up.milliseconds - other.up.jitter + Double(abs(gap))
        guard earliestOther > latestFirst else { return nil }
        return turn - first.up.milliseconds - first.down.milliseconds
    }

    /// Every setting, in the order they run: fair buzzing on slow, lopsided and LAN links, arrival order for
    /// comparison, and a client that holds its sync replies and backdates its presses beside an honest one.
    static func all(gap: Int64) -> [FairnessSetting] {
        let direct = Link.symmetric(0)
        let five = Link.symmetric(5)
        func oneWay(_ down: Double, _ up: Double, jitter: Double = 0) -> Link {
            Link(down: OneWayDelay(down, jitter: jitter), up: OneWayDelay(up, jitter: jitter))
        }
        return [
            FairnessSetting(
                name: "slow", label: "Red 80 ± 10 ms each way, Blue direct, Red first", red: .symmetric(80, jitter: 10),
                blue: direct, gaps: [gap]),
            FairnessSetting(
                name: "down80", label: "Red 80 down / 5 up, Blue direct, ±\(gap)", red: oneWay(80, 5), blue: direct,
                gaps: [gap, -gap]),
            FairnessSetting(
                name: "up80", label: "Red 5 down / 80 up, Blue direct, ±\(gap)", red: oneWay(5, 80), blue: direct,
                gaps: [gap, -gap]),
            FairnessSetting(
                name: "lan", label: "LAN: both 5 ± 2 each way, ±\(gap)", red: .symmetric(5, jitter: 2),
                blue: .symmetric(5, jitter: 2), gaps: [gap, -gap]),
            FairnessSetting(
                name: "lan-split", label: "LAN: Red 8/2, Blue 2/8 (± 2), ±\(gap)", red: oneWay(8, 2, jitter: 2),
                blue: oneWay(2, 8, jitter: 2), gaps: [gap, -gap]),
            FairnessSetting(
                name: "off", label: "fairness off: Red 80 ± 10, Blue direct, Red first",
                red: .symmetric(80, jitter: 10), blue: direct, gaps: [gap], isFair: false),
            FairnessSetting(
                name: "honest", label: "both 5 ms, Blue first, honest", red: five, blue: five, gaps: [-gap]),
            FairnessSetting(
                name: "cheat", label: "both 5 ms, Blue first, Red holds syncs 100 ms + backdates 500", red: five,
                blue: five, gaps: [-gap], redHolds: 100, redBackdate: 500),
        ]
    }

    /// The names `--fairness-settings` accepts, in running order.
    static let names = all(gap: 1).map(\.name)
}

/// Runs the fairness settings on the packet delay line (each block of trials on a fresh network, host and
/// connections) and reports them.
struct FairnessRun {
    let context: BenchContext
    var options: BenchOptions { context.options }

    /// What the trials of one setting found.
    struct Outcome {
        var setting: FairnessSetting
        /// Trials asked for.
        var planned: Int
        var trials: [FairnessMatch.Trial] = []
        /// Trials a busy machine disturbed beyond `Disturbance.limit`, each played again (not in `trials`).
        var void: [FairnessMatch.Trial] = []
        /// Fresh networks, hosts and connections the trials were spread over.
        var connections = 0
        var redProbe: JSONValue?
        var blueProbe: JSONValue?
        var seconds = 0.0
        var failure: String?

        func count(_ include: (FairnessMatch.Trial) -> Bool) -> Int { trials.filter(include).count }

        /// The truly earlier press first, tied or not.
        var earlierFirst: Int { count { $0.trulyFirst != nil && $0.entries.first?.team == $0.trulyFirst } }
        var rightUntied: Int { count(\.isRightUntied) }
        var tied: Int { count(\.isTied) }
        var confidentlyWrong: Int { count(\.isConfidentlyWrong) }
        var truthOutside: Int { count { !$0.isTruthInside } }
        var absoluteErrors: [Double] { trials.map { Double(abs($0.error)) }.sorted() }
        var turns: [Double] { trials.map(\.turnAfterFirstPress).sorted() }
        var uncertainties: [Double] { trials.map { Double($0.combinedUncertainty) }.sorted() }
        /// The settle windows, where the trials show them (`FairnessSetting.settleWindow`).
        var settleWindows: [Double]? {
            let windows = trials.map { setting.settleWindow(gap: $0.trueGap, turn: $0.turnAfterFirstPress) }
            guard !windows.isEmpty, windows.allSatisfy({ $0 != nil }) else { return nil }
            return windows.compactMap { $0 }.sorted()
        }

        var json: JSONValue {
            let signed = trials.map { Double($0.error) }.sorted()
            let absolute = absoluteErrors
            func link(_ link: DelayedNetwork.LinkDelay) -> JSONValue {
                .object([
                    "downMs": .double(link.down.milliseconds), "downJitterMs": .double(link.down.jitter),
                    "upMs": .double(link.up.milliseconds), "upJitterMs": .double(link.up.jitter),
                ])
            }
            func view(_ probe: JSONValue?) -> JSONValue {
                guard let probe else { return .null }
                return .object(["rtt": probe["rtt"] ?? .null, "uncertainty": probe["uncertainty"] ?? .null])
            }
            var object: JSONObject = [
                "name": .string(setting.name), "red": link(setting.red), "blue": link(setting.blue),
                "gapsMs": .array(setting.gaps.map { .int($0) }), "fairness": .bool(setting.isFair),
                "redHoldsSyncRepliesMs": .int(setting.redHolds), "redBackdateMs": .int(setting.redBackdate),
                "trials": .number(planned), "completed": .number(trials.count), "void": .number(void.count),
                "worstVoidMs": void.map(\.disturbance.worst).max().map { .double(rounded(Double($0) / 1e6)) } ?? .null,
                "connections": .number(connections),
                "earlierFirst": .number(earlierFirst), "rightUntied": .number(rightUntied), "tied": .number(tied),
                "confidentlyWrong": .number(confidentlyWrong), "truthOutside": .number(truthOutside),
                "absErrorMs": .object([
                    "p50": .double(Summary.percentile(absolute, 0.50)),
                    "p95": .double(Summary.percentile(absolute, 0.95)), "max": .double(absolute.last ?? 0),
                ]),
                "signedErrorMs": .object([
                    "min": .double(signed.first ?? 0), "p50": .double(Summary.percentile(signed, 0.50)),
                    "max": .double(signed.last ?? 0),
                    "mean": .double(rounded(signed.isEmpty ? 0 : signed.reduce(0, +) / Double(signed.count))),
                ]),
                "combinedUncertaintyMs": Summary(uncertainties).json,
                "turnAfterFirstPressMs": Summary(turns).json,
                "settleWindowMs": settleWindows.map { Summary($0).json } ?? .null,
                "hostViewOfRed": view(redProbe), "hostViewOfBlue": view(blueProbe),
                "seconds": .double(rounded(seconds)),
            ]
            if let failure { object["failure"] = .string(failure) }
            return .object(object)
        }
    }

    /// Runs every chosen setting and adds the section, its table rows and its problems to `report`.
    func run(report: Report) {
        if let reason = DelayedNetwork.unavailableReason {
            context.say("fairness: skipped, \(reason)")
            report.sections["fairness"] = .object(["skipped": .string(reason)])
            report.add(TableRow(measure: "Fair buzzing (packet delay line)", value: "skipped: \(reason)"))
            return
        }
        let gap = Int64(options.fairnessGapMs)
        let settings = FairnessSetting.all(gap: gap).filter { options.fairnessSettings.contains($0.name) }
        var runs: [JSONValue] = []
        for setting in settings {
            context.say("fairness: \(setting.label); \(options.fairnessTrials) trials")
            let outcome = measure(setting)
            runs.append(outcome.json)
            report.add(TableRow(measure: "Fair buzzing: \(setting.label)", value: FairnessRun.summary(outcome)))
            if let failure = outcome.failure {
                report.problems.append("fairness, \(setting.label): \(failure)")
            }
        }
        report.sections["fairness"] = .object([
            "gapMs": .number(options.fairnessGapMs), "trials": .number(options.fairnessTrials),
            "trialsPerConnection": .number(options.fairnessTrialsPerConnection),
            "voidLimitMs": .double(Double(Disturbance.limit) / 1e6),
            "redClockOffsetMs": .int(FairnessMatch.redClockOffset),
            "blueClockOffsetMs": .int(FairnessMatch.blueClockOffset), "runs": .array(runs),
        ])
    }

    /// The table's cell: order, ties, errors, the wait for the turn and the void trials.
    static func summary(_ outcome: Outcome) -> String {
        let count = outcome.trials.count
        guard count > 0 else { return "failed" }
        let errors = outcome.absoluteErrors
        func percentile(_ values: [Double], _ fraction: Double) -> String {
            formatMilliseconds(Summary.percentile(values, fraction))
        }
        return "earlier first \(outcome.earlierFirst)/\(count) (untied \(outcome.rightUntied)), tied \(outcome.tied), "
            + "wrong untied \(outcome.confidentlyWrong), truth outside ± \(outcome.truthOutside); error "
            + "\(percentile(errors, 0.5))/\(percentile(errors, 0.95))/\(formatMilliseconds(errors.last ?? 0)) ms, "
            + "± \(percentile(outcome.uncertainties, 0.5)) ms; "
            + "turn \(percentile(outcome.turns, 0.5)) ms after the first press"
            + (outcome.settleWindows.map { " (settle ≈ \(percentile($0, 0.5)) ms)" } ?? "")
            + "; void \(outcome.void.count) (machine busy, played again)"
    }

    /// Runs the setting's trials in blocks of `fairnessTrialsPerConnection`, each on a fresh network (its own jitter
    /// draws), host and connections, so the trials sample several clock-offset estimates, not one.
    func measure(_ setting: FairnessSetting) -> Outcome {
        var outcome = Outcome(setting: setting, planned: options.fairnessTrials)
        let began = MonotonicClock.nanoseconds()
        var remaining = options.fairnessTrials
        var block: UInt64 = 0
        while remaining > 0 && outcome.failure == nil {
            let trials = min(remaining, options.fairnessTrialsPerConnection)
            block += 1
            do {
                let match = try FairnessMatch(
                    red: setting.red, blue: setting.blue, redHoldsSyncReplies: setting.redHolds, questions: trials + 1,
                    hostArguments: ["--fairness", setting.isFair ? "on" : "off"], seed: block,
                    executable: context.hostBinary, standardError: .file(context.nextLogPath("host")))
                defer {
                    outcome.void += match.voidTrials
                    match.finish()
                }
                outcome.connections += 1
                for _ in 0..<trials {
                    let gap = setting.gaps[outcome.trials.count % setting.gaps.count]
                    outcome.trials.append(try match.trial(gap: gap, redBackdate: setting.redBackdate))
                }
                outcome.redProbe = match.red.syncState.last
                outcome.blueProbe = match.blue.syncState.last
            } catch {
                outcome.failure = "\(error)"
            }
            remaining -= trials
        }
        outcome.seconds = Double(MonotonicClock.nanoseconds() - began) / 1e9
        return outcome
    }
}
