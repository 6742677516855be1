import DelayLine
import Foundation
import Net
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Let Me Fly's formula, written out again here so that the host's numbers are checked against it, not against
/// the code that produced them.
enum FlyFormula {
    /// The meter in permille at `press` for a sweep from `sweepStart` with `period`.
    static func power(press: Int64, sweepStart: Int64, period: Int64) -> Int64 {
        guard press > sweepStart else { return 0 }
        let phase = (press - sweepStart) % period
        return (min(phase, period - phase) * 2000 + period / 2) / period
    }

    /// t = 2v/g in ms, v = power × 20 m/s.
    static func airMs(power: Int64, topSpeed: Double = 20) -> Int64 {
        Int64((2 * (Double(power) / 1000 * topSpeed) / 9.81 * 1000).rounded())
    }

    /// h = ½ · g · (t/2)², in mm.
    static func heightMm(airMs: Int64) -> Int64 {
        let half = Double(airMs) / 2000
        return Int64((0.5 * 9.81 * half * half * 1000).rounded())
    }

    /// clean / fumbled / dropped for a catch `offset` ms from the landing with a window of `window` ms.
    static func quality(offset: Int64?, window: Int64) -> String {
        guard let offset else { return "dropped" }
        return abs(offset) <= window ? "clean" : abs(offset) <= 2 * window ? "fumbled" : "dropped"
    }

    /// Height × multiplier × (1 + 10 % × streak), rounded half up; half for a fumble; 0 for a drop.
    static func points(heightMm: Int64, multiplier: Double, streakBefore: Int64, quality: String) -> Int64 {
        let product = heightMm * Int64((multiplier * 100).rounded()) * (100 + 10 * streakBefore)
        switch quality {
        case "clean": return (product + 5_000_000) / 10_000_000
        case "fumbled": return (product + 10_000_000) / 20_000_000
        default: return 0
        }
    }
}

/// A clock-syncing player and what the test knows of its clock.
struct FlyPlayer {
    let client: SyncClient
    let name: String

    init(_ name: String, team: String, host: HostProcess, socket: Socket? = nil, clockOffset: Int64) throws {
        self.name = name
        let hello: JSONObject = [
            "type": "hello", "protocol": 1, "room": .string(host.room), "name": .string(name),
            "team": .string(team), "role": "player", "clock": true,
        ]
        if let socket {
            client = try SyncClient(socket: socket, hello: hello, clockOffset: clockOffset)
        } else {
            client = try SyncClient(port: host.port, hello: hello, clockOffset: clockOffset)
        }
    }

    /// The host's estimate of this client's clock minus the host clock.
    var offset: Int64 { client.syncState.last?["offset"]?.intValue ?? 0 }

    /// The host clock now, as this client's clock and the host's offset say.
    var hostNow: Int64 { client.clock() - offset }

    /// Sleeps until the host clock reads `hostTime` (as far as this client can tell).
    func sleep(untilHost hostTime: Int64) {
        while true {
            let left = hostTime - hostNow
            if left <= 0 { return }
            if left > 2 { usleep(UInt32((left - 1) * 1000)) }
        }
    }

    /// Presses `type` (throw or catch) at host time `hostTime`, stamped with this client's clock then.
    func press(_ type: String, atHost hostTime: Int64, forgedBy lie: Int64 = 0) throws {
        sleep(untilHost: hostTime)
        try client.send(["type": .string(type), "t": .int(hostTime + offset - lie)])
    }

    /// Presses `type` at host time `hostTime` on `network` as a timed trial: at real-time priority, stamped with
    /// the clock read at the press (less `lie` ms); waits for the host's `reply` and returns it with what a busy
    /// machine did to the press's timing, measured from just before the press (`Disturbance`).
    ///
    /// A press due before it can be made (a time the host's own messages led to) fails the test: that is the
    /// host's doing, not the machine's, and must not pass for a disturbed trial.
    func timedPress(
        _ type: String, atHost hostTime: Int64, forgedBy lie: Int64 = 0, reply: String, network: DelayedNetwork,
        host: HostProcess
    ) throws -> (reply: JSONValue, disturbance: Disturbance) {
        let lead = hostTime - hostNow
        guard lead >= 10 else {
            throw HarnessError("the \(type) was due at host time \(hostTime), \(-lead) ms ago: too late to press it")
        }
        sleep(untilHost: hostTime - 5)
        let watch = DisturbanceWatch(network: network, hostPID: host.pid)
        let target = (hostTime + offset - client.clockOffset) * 1_000_000  // on the monotonic clock, ns
        try RealTime.run(at: RealTime.pressPriority) {
            watch.sleep(until: target)
            _ = try watch.press { now in
                try client.send(["type": .string(type), "t": .int(now + client.clockOffset - lie)])
            }
        }
        let answer = try client.waitFor(reply)
        return (answer, watch.finish())
    }
}

/// Let Me Fly end to end over real TCP: three players (one at nc) play two rounds with presses the test times and
/// stamps; every number every client receives is checked against the formula.
@Suite("Let Me Fly over TCP", .serialized, .timeLimit(.minutes(10)))
struct FlyGameTests {
    /// A `thrown` or `caught` as every JSON client must have received it.
    static func take(_ type: String, of player: String, from clients: [SyncClient], board: TestClient) throws
        -> JSONValue
    {
        let seen = try board.waitFor(type) { $0["player"]?.stringValue == player }
        for client in clients {
            #expect(try client.waitFor(type) { $0["player"]?.stringValue == player } == seen)
        }
        return seen
    }

    @Test func threePlayersOneAtNcPlayTwoRoundsAndEveryNumberFollowsTheFormula() throws {
        let host = try HostProcess(["--no-fsync", "--rate", "1000"])
        let admin = try host.admin()
        let ann = try FlyPlayer("Ann", team: "Red", host: host, clockOffset: 123_456)
        let bob = try FlyPlayer("Bob", team: "Blue", host: host, clockOffset: 7_654_321)
        let cleo = try host.connect()
        _ = try cleo.waitForText("join ROOM NAME TEAM")
        try cleo.send(line: "join \(host.room) Cleo Red")
        _ = try cleo.waitForText("Welcome, Cleo")
        let board = try host.board()
        try ann.client.waitForSyncs(6)
        try bob.client.waitForSyncs(6)
        let players = [ann.client, bob.client]

        try admin.send(["type": "start", "game": "fly", "rounds": 2, "roundSeconds": 7, "breakSeconds": 1, "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        let phones = try board.waitFor("phones")["list"]?.arrayValue ?? []
        func phone(_ id: String) -> (multiplier: Double, window: Int64) {
            let entry = phones.first { $0["id"]?.stringValue == id }
            return (entry?["multiplier"]?.doubleValue ?? 0, entry?["catchWindowMs"]?.intValue ?? 0)
        }
        try ann.client.send(["type": "phone", "choice": "flagship"])
        try bob.client.send(["type": "phone", "choice": "pro"])
        try cleo.send(line: "phone brick")
        _ = try board.waitFor("picked") { $0["player"] == "Cleo" }
        #expect(try cleo.waitForText("You will throw the brick").contains("brick"))

        var scores: [String: Int64] = [:]
        var streaks: [String: Int64] = [:]
        /// Checks a throw and its catch against the formula; returns the points.
        func check(
            _ thrown: JSONValue, _ caught: JSONValue, round: JSONValue, phoneID: String, aimedAt: Int64?,
            typedPower: Int64? = nil
        ) throws {
            let player = try #require(thrown["player"]?.stringValue)
            let sweepStart = try #require(round["sweepStart"]?.intValue)
            let period = try #require(round["periodMs"]?.intValue)
            let air = try #require(thrown["airMs"]?.intValue)
            let landsAt = try #require(thrown["landsAt"]?.intValue)
            let press = landsAt - air
            // A press judged at its stamp lands where it was aimed; one a busy machine sent late (its stamp then
            // outside what the network allows) counts at its arrival, later, never earlier.
            if let aimedAt { #expect(press >= aimedAt - 2, "\(player) pressed at \(press), aimed at \(aimedAt)") }
            let power = typedPower ?? FlyFormula.power(press: press, sweepStart: sweepStart, period: period)
            #expect(air == FlyFormula.airMs(power: power), "\(player): air time from power \(power) ‰")
            let height = FlyFormula.heightMm(airMs: air)
            #expect(thrown["heightM"]?.doubleValue == Double(height) / 1000, "\(player): h = ½·g·(t/2)²")
            #expect(thrown["power"]?.intValue == (power + 5) / 10)
            #expect(thrown["phone"]?.stringValue == phoneID)
            #expect(caught["heightM"] == thrown["heightM"])
            let (multiplier, window) = phone(phoneID)
            let offset = caught["offsetMs"]?.intValue
            let quality = FlyFormula.quality(offset: offset, window: window)
            let off = offset.map(String.init) ?? "–"
            #expect(caught["quality"]?.stringValue == quality, "\(player) caught \(off) ms off")
            let points = FlyFormula.points(
                heightMm: height, multiplier: multiplier, streakBefore: streaks[player] ?? 0, quality: quality)
            #expect(caught["points"]?.intValue == points, "\(player): points by the formula")
            scores[player, default: 0] += points
            #expect(caught["score"]?.intValue == scores[player])
            if quality == "clean" {
                if height > 5000 { streaks[player, default: 0] += 1 }
            } else {
                streaks[player] = 0
            }
            #expect(caught["streak"]?.intValue == streaks[player] ?? 0)
        }

        // Round 1. Ann at 80 % caught 20 ms late (clean), Bob at 70 % caught 165 ms early (a fumble with the pro's
        // ±110 ms), Cleo at nc throws by typing t (95 %) and catches on her CATCH NOW line (her c counts 250 ms
        // before it arrives).
        let round1 = try board.waitFor("round") { $0["number"] == 1 }
        for client in players { #expect(try client.waitFor("round") { $0["number"] == 1 } == round1) }
        let start1 = try #require(round1["sweepStart"]?.intValue)
        let annAim = start1 + 1600 + 640
        try ann.press("throw", atHost: annAim)
        let annUp = try FlyGameTests.take("thrown", of: "Ann", from: players, board: board)
        try bob.press("throw", atHost: start1 + 1600 + 1040)
        let bobUp = try FlyGameTests.take("thrown", of: "Bob", from: players, board: board)
        ann.sleep(untilHost: start1 + 1600 + 1400)
        try cleo.send(line: "t")
        let cleoUp = try FlyGameTests.take("thrown", of: "Cleo", from: players, board: board)
        #expect(try cleo.waitForText(">>> Up it goes").contains("type c + Enter when you read CATCH NOW"))
        // The catches, each at its moment, in time order (a stamp sent late would be clamped to its arrival).
        let annCatch = try #require(annUp["landsAt"]?.intValue) + 20
        let bobCatch = try #require(bobUp["landsAt"]?.intValue) - 165
        let cleoCatch = try #require(cleoUp["landsAt"]?.intValue)
        for (at, who) in [(annCatch, "Ann"), (bobCatch, "Bob"), (cleoCatch, "Cleo")].sorted(by: { $0.0 < $1.0 }) {
            #expect(ann.hostNow < at - 5, "the test is in time for \(who)'s catch at \(at)")
            switch who {
            case "Ann": try ann.press("catch", atHost: at)
            case "Bob": try bob.press("catch", atHost: at)
            default:
                _ = try cleo.waitForText("CATCH NOW")
                try cleo.send(line: "c")
            }
        }
        let annDown = try FlyGameTests.take("caught", of: "Ann", from: players, board: board)
        let bobDown = try FlyGameTests.take("caught", of: "Bob", from: players, board: board)
        let cleoDown = try FlyGameTests.take("caught", of: "Cleo", from: players, board: board)
        try check(annUp, annDown, round: round1, phoneID: "flagship", aimedAt: annAim)
        try check(bobUp, bobDown, round: round1, phoneID: "pro", aimedAt: start1 + 2640)
        try check(cleoUp, cleoDown, round: round1, phoneID: "brick", aimedAt: nil, typedPower: 950)
        // Each catch is judged at its stamp, unless the machine made the test send it late (then it only counts
        // later, and `check` holds its points to the formula for the offset it got).
        func judgedAtStamp(_ caught: JSONValue, aimedOffset: Int64) throws -> Bool {
            let offset = try #require(caught["offsetMs"]?.intValue)
            #expect(offset >= aimedOffset - 2, "\(caught["player"] ?? .null)'s catch counted earlier than it was made")
            return abs(offset - aimedOffset) <= 2
        }
        let annThrewOnTime = abs((annUp["landsAt"]?.intValue ?? 0) - (annUp["airMs"]?.intValue ?? 0) - annAim) <= 2
        let annOnTime = try judgedAtStamp(annDown, aimedOffset: 20) && annThrewOnTime
        if annOnTime { #expect(annDown["quality"] == "clean") }
        if try judgedAtStamp(bobDown, aimedOffset: -165) { #expect(bobDown["quality"] == "fumbled") }
        // A typed catch counts 250 ms before it arrives, and it cannot arrive before the CATCH NOW line was sent.
        let cleoOffset = try #require(cleoDown["offsetMs"]?.intValue)
        #expect(
            cleoOffset >= -252 && cleoOffset <= 500, "Cleo's c, typed on her cue, counted \(cleoOffset) ms off")
        let over1 = try board.waitFor("roundOver") { $0["number"] == 1 }
        #expect(over1["missed"] == [])

        // Round 2. Ann (streak 1: +10 %) at full power, caught 10 ms early; Bob never catches (a drop after 1 s);
        // Cleo never throws (the round's clock runs out).
        let round2 = try board.waitFor("round") { $0["number"] == 2 }
        let start2 = try #require(round2["sweepStart"]?.intValue)
        try ann.press("throw", atHost: start2 + 800)
        let annUp2 = try FlyGameTests.take("thrown", of: "Ann", from: players, board: board)
        try bob.press("throw", atHost: start2 + 1200)
        let bobUp2 = try FlyGameTests.take("thrown", of: "Bob", from: players, board: board)
        try ann.press("catch", atHost: try #require(annUp2["landsAt"]?.intValue) - 10)
        let annDown2 = try FlyGameTests.take("caught", of: "Ann", from: players, board: board)
        // Ann's full-power throw of round 2 is the highest catch of the game when it is judged at its stamps.
        let annThrew2OnTime =
            abs((annUp2["landsAt"]?.intValue ?? 0) - (annUp2["airMs"]?.intValue ?? 0) - (start2 + 800)) <= 2
        let ann2OnTime = try judgedAtStamp(annDown2, aimedOffset: -10) && annThrew2OnTime
        let bobDown2 = try FlyGameTests.take("caught", of: "Bob", from: players, board: board)
        try check(annUp2, annDown2, round: round2, phoneID: "flagship", aimedAt: start2 + 800)
        try check(bobUp2, bobDown2, round: round2, phoneID: "pro", aimedAt: start2 + 1200)
        #expect(bobDown2["quality"] == "dropped" && bobDown2["offsetMs"] == .null)
        #expect(try board.waitFor("timeUp")["missed"] == ["Cleo"])

        // The end: players ranked by points, teams by their players' sums, the same for everyone.
        let final = try board.waitFor("scoreboard")
        for client in players { #expect(try client.waitFor("scoreboard") == final) }
        let ranking = final["ranking"]?.arrayValue ?? []
        for entry in ranking {
            let name = entry["player"]?.stringValue ?? ""
            #expect(entry["score"]?.intValue == scores[name] ?? 0, "\(name)'s final score")
        }
        // Ann leads when her first round was judged at its stamps (round 1 alone outscores Bob's and Cleo's best).
        if annOnTime { #expect(ranking.first?["player"] == "Ann") }
        let teams = final["teams"]?.arrayValue ?? []
        let red = teams.first { $0["team"] == "Red" }?["score"]?.intValue
        #expect(red == (scores["Ann"] ?? 0) + (scores["Cleo"] ?? 0))
        #expect(teams.first { $0["team"] == "Blue" }?["score"]?.intValue == scores["Bob"] ?? 0)
        let allTime = try board.waitFor("leaderboard") { $0["scope"] == "allTime" }
        if ann2OnTime { #expect(allTime["players"]?.arrayValue?.first?["player"] == "Ann") }

        // The nc player read every throw and catch as text.
        let text = try cleo.waitForText("=== Final scoreboard") + cleo.transcriptText
        for caught in [annDown, bobDown, annDown2] {
            let who = caught["player"]?.stringValue ?? ""
            let points = caught["points"]?.intValue ?? -1
            let said =
                caught["quality"] == "dropped"
                ? "\(who) dropped it"
                : "\(who) \(caught["quality"] == "clean" ? "caught it cleanly" : "fumbled the catch")"
            #expect(text.contains(said), "nc read \(said)")
            if points > 0 { #expect(text.contains("+\(points) points"), "nc read \(who)'s points") }
        }
        #expect(text.contains("You caught it cleanly") || text.contains("You fumbled") || text.contains("You dropped"))
        #expect(text.contains("Time is up for round 2. No throw: Cleo."))
        host.stop()
        let history = try ChildProcess.run(BuiltProducts.path("partyline-host"), ["history", "--data", host.data])
        #expect(history.output.contains("fly"), "the game log is listed by history")
        // The records from the command line: all time, and tonight as the journal says the evening began.
        let printed = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "--fly", "--data", host.data])
        #expect(printed.terminationStatus == 0, "\(printed.errors)")
        #expect(printed.output.contains("All-time — players") && !printed.output.contains("Tonight"))
        let annRanked = try #require(ranking.first { $0["player"] == "Ann" })
        let row = printed.output.split(separator: "\n").first { $0.contains(" Ann ") }
        #expect(row?.contains(FlyWire.heightText(annRanked["bestM"]?.doubleValue ?? 0)) == true, "\(printed.output)")
        let tonight = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "--fly", "tonight", "--data", host.data])
        #expect(tonight.output.contains("Tonight (since ") && tonight.output.contains("Ann"), "\(tonight.output)")
        let wrong = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "--fly", "yesterday", "--data", host.data])
        #expect(wrong.terminationStatus != 0 && wrong.errors.contains(#"There is no leaderboard "yesterday""#))
    }
}

/// Throws and catches are judged like buzzes: a stamp maps through the measured clock offset, so a player far away
/// is not punished for latency, and a forged stamp gains at most what it gains a buzzer (bounded by the path's
/// round trip, never more than `PressEstimate.maximumBackdate`).
///
/// On the packet delay line, so that the kernel's TCP sees the delay the host bounds presses by (an application
/// proxy would hide it, and the host rightly gives no credit for a delay it cannot see; see `FairnessTests`).
@Suite(
    "Let Me Fly: presses judged like buzzes on the packet delay line", .serialized, .timeLimit(.minutes(10)),
    .enabled(
        if: DelayedNetwork.unavailableReason == nil,
        Comment(
            rawValue: "Skipped: \(DelayedNetwork.unavailableReason ?? ""); run the tests as root to include them.")))
struct FlyFairnessTests {
    /// Rounds kept for playing again a round a busy machine disturbed (`Disturbance`); past them the test fails,
    /// saying the machine was too busy to measure.
    static let spareRounds = 4

    @Test func latencyIsForgivenButAForgedStampGainsNoMoreThanABuzzWould() throws {
        // Rita 40 ± 10 ms each way; the operator on an undelayed link.
        let network = try DelayedNetwork(links: [.symmetric(40, jitter: 10), .symmetric(0)])
        defer { network.close() }
        let host = try HostProcess(
            ["--no-fsync", "--rate", "1000", "--no-console"], bind: "0.0.0.0", launchPrefix: network.hostLaunchPrefix)
        RealTime.raise(process: host.pid, to: RealTime.hostPriority)
        let admin = try SyncClient(
            socket: network.connect(link: 1, port: host.port),
            hello: ["type": "hello", "room": .string(host.room), "role": "admin", "key": .string(host.adminKey)])
        defer { admin.close() }
        let far = try FlyPlayer(
            "Rita", team: "Red", host: host, socket: network.connect(link: 0, port: host.port), clockOffset: 123_456)
        defer { far.client.close() }
        if let reader = far.client.readerThread { RealTime.raise(thread: reader, to: RealTime.pressPriority) }
        try far.client.waitForSyncs(6)
        usleep(300_000)  // the last sync replies still travel
        try admin.send([
            "type": "start", "game": "fly", "rounds": .number(2 + Self.spareRounds), "roundSeconds": 6,
            "breakSeconds": 1, "id": 1,
        ])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        try far.client.send(["type": "phone", "choice": "flagship"])  // ±70 ms: clean; ±140 ms: fumbled
        let bound = PressEstimate.maximumBackdate

        // A press a busy machine disturbed says nothing about the host: its checks are skipped and the next round
        // plays the round again.
        var void: [Disturbance] = []
        func undisturbed(_ disturbance: Disturbance) throws -> Bool {
            guard disturbance.isVoid else { return true }
            void.append(disturbance)
            guard void.count <= Self.spareRounds else {
                throw Disturbance.tooBusy(void, measuring: "Let Me Fly's presses")
            }
            return false
        }
        func nextRoundStart() throws -> Int64 {
            let round = try far.client.waitFor("round")
            guard let start = round["sweepStart"]?.intValue else { throw HarnessError("a round without sweepStart") }
            return start
        }
        func landing(_ thrown: JSONValue) throws -> Int64 {
            guard let landsAt = thrown["landsAt"]?.intValue else { throw HarnessError("no landsAt: \(thrown)") }
            return landsAt
        }

        // Honest: pressed at the landing 40 ms away, the stamp makes it a clean catch.
        while true {
            let start = try nextRoundStart()
            let (up, throwing) = try far.timedPress(
                "throw", atHost: start + 1600 + 200, reply: "thrown", network: network, host: host)
            if !throwing.isVoid {
                #expect(abs((up["landsAt"]?.intValue ?? 0) - (up["airMs"]?.intValue ?? 0) - (start + 1800)) <= 20)
            }
            let (down, catching) = try far.timedPress(
                "catch", atHost: try landing(up), reply: "caught", network: network, host: host)
            guard try undisturbed(throwing), try undisturbed(catching) else { continue }
            #expect(down["quality"] == "clean", "a catch pressed on time counts on time, latency or not: \(down)")
            #expect(abs(down["offsetMs"]?.intValue ?? 999) <= 50)
            break
        }

        // A throw stamped 5 s before it was pressed: the press moves back at most the bound. Its catch, pressed
        // 400 ms late but stamped exactly at the landing: still dropped, as a late buzz stays late.
        while true {
            let start = try nextRoundStart()
            let pressedAt = start + 1600 + 300
            let (up, throwing) = try far.timedPress(
                "throw", atHost: pressedAt, forgedBy: 5_000, reply: "thrown", network: network, host: host)
            let landsAt = try landing(up)
            if !throwing.isVoid {
                let counted = landsAt - (up["airMs"]?.intValue ?? 0)
                #expect(
                    counted >= pressedAt - bound - 10,
                    "backdated \(pressedAt - counted) ms; a buzz may gain \(bound) at most")
                #expect(counted <= pressedAt + 100, "and never later than it arrived")
            }
            let (down, catching) = try far.timedPress(
                "catch", atHost: landsAt + 400, forgedBy: 400, reply: "caught", network: network, host: host)
            guard try undisturbed(throwing), try undisturbed(catching) else { continue }
            let offset = try #require(down["offsetMs"]?.intValue)
            #expect(offset >= 400 - bound - 10, "the forged catch moved back \(400 - offset) ms")
            #expect(down["quality"] == "dropped", "a late catch stays late: \(down)")
            break
        }
        print("Let Me Fly on the delay line: \(void.count) rounds void (played again)")
        host.stop()
    }
}
