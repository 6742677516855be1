import DelayLine
import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Shaky Words game between two clock-syncing players, Red and Blue, each on its own link of a packet-level delay
/// line (so the kernel's TCP sees the delay), with the operator on an undelayed link; for the fairness tests and
/// the bench's fairness section.
///
/// The host runs in the delay line's host namespace, bound to every address there; each player's clock reads
/// differently (monotonic ms plus a constant), so the host has to estimate each offset.
///
/// What is timed (the host, the delay line, the players' readers and the thread that presses) runs at real-time
/// priority (`RealTime`), so other work on a busy machine does not delay it; what the machine still adds is measured
/// per trial (`Disturbance`), and a trial it disturbed is void and played again (`trial`).
public final class FairnessMatch {
    /// Red's clock: monotonic ms plus this.
    public static let redClockOffset: Int64 = 123_456
    /// Blue's clock: monotonic ms plus this.
    public static let blueClockOffset: Int64 = 7_654_321

    /// The namespaces and links (Red's is link 0, Blue's link 1, the operator's link 2).
    public let network: DelayedNetwork
    /// The host, in the network's host namespace.
    public let host: HostProcess
    /// The operator (no clock sync).
    public let admin: SyncClient
    /// Red, on link 0.
    public let red: SyncClient
    /// Blue, on link 1.
    public let blue: SyncClient
    /// The question the next trial plays.
    public private(set) var question = 1

    /// Trials found void so far, in the order played: a busy machine disturbed their timing beyond
    /// `Disturbance.limit`, so each was played again (see `trial`).
    public private(set) var voidTrials: [Trial] = []
    /// How many trials may be void before the match gives up: the game's questions kept for replaying them.
    public let voidBudget: Int
    /// The game's questions: those asked for and the reserve for void trials.
    private let questionCount: Int

    /// Builds the network, starts a host with `hostArguments` (after a fast journal and a high rate limit), joins
    /// the operator and both players (Red holding each sync reply `redHoldsSyncReplies` ms while claiming it
    /// answered at once), lets the sync burst land and starts a game of `questions` questions that waits for the
    /// operator between them, plus as many again (at least 8, at most 500 in all) for void trials to be replayed.
    public init(
        red redLink: DelayedNetwork.LinkDelay, blue blueLink: DelayedNetwork.LinkDelay, redHoldsSyncReplies: Int64 = 0,
        questions: Int, hostArguments: [String] = [], seed: UInt64 = 1, executable: String? = nil,
        standardError: ErrorDestination = .pipe
    ) throws {
        let network = try DelayedNetwork(links: [redLink, blueLink, .symmetric(0)], seed: seed)
        voidBudget = max(0, min(max(8, questions), 500 - questions))
        questionCount = questions + voidBudget
        var opened: [SyncClient] = []
        do {
            let host = try HostProcess(
                ["--no-fsync", "--rate", "1000", "--idle-timeout", "3600", "--no-console"] + hostArguments,
                logLevel: "info", bind: "0.0.0.0", executable: executable, launchPrefix: network.hostLaunchPrefix,
                standardError: standardError)
            // Measured, the host should wait for no other work on the machine (its own work takes as long as ever).
            RealTime.raise(process: host.pid, to: RealTime.hostPriority)
            let room = JSONValue.string(host.room)
            let port = host.port
            func join(_ hello: JSONObject, link: Int, clock: Int64 = 0, holds: Int64 = 0) throws -> SyncClient {
                let client = try SyncClient(
                    socket: network.connect(link: link, port: port), hello: hello, clockOffset: clock,
                    syncReplyDelay: holds)
                opened.append(client)
                return client
            }
            func player(_ name: String, _ team: String) -> JSONObject {
                [
                    "type": "hello", "protocol": 1, "room": room, "name": .string(name), "team": .string(team),
                    "role": "player", "clock": true,
                ]
            }
            let admin = try join(
                ["type": "hello", "room": room, "role": "admin", "key": .string(host.adminKey)], link: 2)
            let red = try join(
                player("Rita", "Red"), link: 0, clock: FairnessMatch.redClockOffset, holds: redHoldsSyncReplies)
            let blue = try join(player("Bo", "Blue"), link: 1, clock: FairnessMatch.blueClockOffset)
            // Their readers time the turn and answer the probes: no other work on the machine should delay them.
            for reader in [red.readerThread, blue.readerThread].compactMap({ $0 }) {
                RealTime.raise(thread: reader, to: RealTime.pressPriority)
            }
            // The burst: a probe at once, five more 100 ms apart; the last replies (held ones too) still travel.
            try red.waitForSyncs(6)
            try blue.waitForSyncs(6)
            usleep(UInt32(max(0, redHoldsSyncReplies) + 300) * 1000)
            try admin.send([
                "type": "start", "game": "shaky", "questions": .number(questionCount), "difficulty": "mixed",
                "questionSeconds": 3600, "afterBuzzSeconds": 3600, "answerSeconds": 3600, "revealSeconds": 0, "id": 1,
            ])
            _ = try admin.waitFor("ok") { $0["re"] == 1 }
            (self.network, self.host, self.admin, self.red, self.blue) = (network, host, admin, red, blue)
        } catch {
            for client in opened { client.close() }
            network.close()
            throw error
        }
    }

    deinit { finish() }

    /// One question's presses and what the host made of them.
    public struct Trial: Sendable {
        /// One entry of the final `buzzed`.
        public struct Entry: Sendable {
            /// The team.
            public var team: String
            /// The estimated press relative to the first entry's, ms.
            public var offsetMs: Int64
            /// ± ms on the estimated press.
            public var uncertaintyMs: Int64
            /// Whether the entry is part of a tie group.
            public var isTied: Bool
        }

        /// Blue's press minus Red's on the common clock, ms (positive: Red pressed first).
        public var trueGap: Int64
        /// What a busy machine did to the trial's timing; a void trial (`Disturbance.isVoid`) does not count.
        public var disturbance = Disturbance()
        /// The team put on turn.
        public var winner: String
        /// The two entries, in the host's order.
        public var entries: [Entry]
        /// From the first press to the moment its presser read the `turn`, ms (its link's round trip, the settle
        /// window and the host's turn of the loop).
        public var turnAfterFirstPress: Double

        /// `team`'s entry.
        public func entry(_ team: String) -> Entry? { entries.first { $0.team == team } }

        /// Whether any entry is marked as tied.
        public var isTied: Bool { entries.contains { $0.isTied } }

        /// The team that truly pressed first (nil: at the same millisecond).
        public var trulyFirst: String? { trueGap > 0 ? "Red" : trueGap < 0 ? "Blue" : nil }

        /// The host's estimate of Blue's press minus Red's, ms.
        public var estimatedGap: Int64 { (entry("Blue")?.offsetMs ?? 0) - (entry("Red")?.offsetMs ?? 0) }

        /// How far the estimated gap is from the true one, ms (positive: Red's lead overestimated).
        public var error: Int64 { estimatedGap - trueGap }

        /// The two presses' uncertainties together, ms.
        public var combinedUncertainty: Int64 { entries.reduce(0) { $0 + $1.uncertaintyMs } }

        /// Whether the true gap lies within the combined uncertainty of the estimates (1 ms of clock rounding
        /// allowed): what "never confidently wrong" needs.
        public var isTruthInside: Bool { abs(error) <= combinedUncertainty + 1 }

        /// Whether the truly earlier press got the turn without a tie mark.
        public var isRightUntied: Bool { trulyFirst != nil && winner == trulyFirst && !isTied }

        /// Whether the truly later press was put first without a tie mark: the failure fair buzzing must avoid.
        public var isConfidentlyWrong: Bool { trulyFirst != nil && entries.first?.team != trulyFirst && !isTied }
    }

    /// Plays one question as `attempt` does, and again while a busy machine voids it (`Disturbance.isVoid`; the void
    /// attempts join `voidTrials`). Throws, saying the machine was too busy to measure, once more than `voidBudget`
    /// trials were void.
    public func trial(gap: Int64, redBackdate: Int64 = 0) throws -> Trial {
        while true {
            let trial = try attempt(gap: gap, redBackdate: redBackdate)
            guard trial.disturbance.isVoid else { return trial }
            voidTrials.append(trial)
            if voidTrials.count > voidBudget {
                throw Disturbance.tooBusy(voidTrials.map(\.disturbance), measuring: "fair buzzing")
            }
        }
    }

    /// Plays one question: Red presses at T (a millisecond boundary ~10 ms after both saw the question) and Blue at
    /// T + `gap` ms (Blue first when negative); each stamps its press with its own clock, Red's stamp backdated by
    /// `redBackdate` ms. Reads the turn and the final order, then the operator moves on. The trial's `disturbance`
    /// is measured from the first sleep to the final order; whether it counts is the caller's to decide.
    public func attempt(gap: Int64, redBackdate: Int64 = 0) throws -> Trial {
        let number = Int64(question)
        guard question <= questionCount else {
            throw HarnessError("the match's \(questionCount) questions are used up")
        }
        for player in [blue, red] {
            _ = try player.waitFor("question") { $0["number"]?.intValue == number }
            // TCP keeps order: whatever is left of the last question arrived before this one. Nobody pressed yet.
            player.drain()
        }
        let start = (MonotonicClock.nanoseconds() / 1_000_000 + 10) * 1_000_000
        let (first, second) = gap >= 0 ? (red, blue) : (blue, red)
        let watch = DisturbanceWatch(network: network, hostPID: host.pid)
        let (firstAt, secondAt) = try RealTime.run(at: RealTime.pressPriority) {
            watch.sleep(until: start)
            let firstAt = try press(first, backdate: first === red ? redBackdate : 0, watch: watch)
            watch.sleep(until: start + abs(gap) * 1_000_000)
            return (firstAt, try press(second, backdate: second === red ? redBackdate : 0, watch: watch))
        }
        let turn = try first.waitForTimed("turn")
        let buzzed = try first.waitFor("buzzed") { ($0["entries"]?.arrayValue?.count ?? 0) == 2 }
        let disturbance = watch.finish()
        try admin.send(["type": "next", "id": .int(2 * number)])
        try admin.send(["type": "next", "id": .int(2 * number + 1)])
        _ = try admin.waitFor("ok") { $0["re"]?.intValue == 2 * number + 1 }
        admin.drain()
        question += 1
        let entries = (buzzed["entries"]?.arrayValue ?? []).map { entry in
            Trial.Entry(
                team: entry["team"]?.stringValue ?? "?", offsetMs: entry["offsetMs"]?.intValue ?? 0,
                uncertaintyMs: entry["uncertaintyMs"]?.intValue ?? 0, isTied: entry["tie"] == true)
        }
        let (redAt, blueAt) = first === red ? (firstAt, secondAt) : (secondAt, firstAt)
        return Trial(
            trueGap: blueAt - redAt, disturbance: disturbance, winner: turn.message["team"]?.stringValue ?? "?",
            entries: entries, turnAfterFirstPress: Double(turn.at - start) / 1e6)
    }

    /// Sends `player`'s buzz stamped now on its clock less `backdate`; returns the true press, monotonic ms.
    private func press(_ player: SyncClient, backdate: Int64, watch: DisturbanceWatch) throws -> Int64 {
        try watch.press { now in try player.send(["type": "buzz", "t": .int(now + player.clockOffset - backdate)]) }
    }

    /// Closes the connections, stops the host and removes the network; idempotent.
    public func finish() {
        for client in [red, blue, admin] { client.close() }
        host.stop(timeout: 3)
        network.close()
    }

    /// Sleeps, then spins for the last millisecond, until the monotonic clock reads `target` ns.
    public static func sleep(until target: Int64) {
        while true {
            let left = target - MonotonicClock.nanoseconds()
            if left <= 0 { return }
            if left > 1_500_000 { usleep(UInt32((left - 1_000_000) / 1000)) }
        }
    }
}

@available(*, unavailable)
extension FairnessMatch: Sendable {}
