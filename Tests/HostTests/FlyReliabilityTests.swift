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

/// The host clock as a test sees it from a `ping`: on loopback the round trip is well under a millisecond.
struct HostClockReading {
    /// Host ms minus the test's monotonic ms.
    let offset: Int64

    init(_ client: TestClient) throws {
        let before = MonotonicClock.milliseconds()
        try client.send(["type": "ping", "id": "clock"])
        let pong = try client.waitFor("pong") { $0["re"] == "clock" }
        let after = MonotonicClock.milliseconds()
        offset = try #require(pong["hostTime"]?.intValue) - (before + after) / 2
    }

    var now: Int64 { MonotonicClock.milliseconds() + offset }

    /// Sleeps until the host clock reads `hostTime`.
    func sleep(until hostTime: Int64) {
        while now < hostTime { usleep(UInt32(max(200, min(20_000, (hostTime - now - 1) * 1000)))) }
    }
}

/// Let Me Fly survives SIGKILL: `--resume` keeps every throw already scored, the streaks, the achievements and even
/// the phone that was in the air (it hangs until its thrower is back, then flies on as long as it had left).
@Suite("Let Me Fly: crash and resume", .timeLimit(.minutes(10)))
struct FlyReliabilityTests {
    @Test func aHostKilledWithAPhoneInTheAirKeepsThrowsStreaksAndAchievements() throws {
        let data = TemporaryDirectory()
        let first = try HostProcess([], data: data.path)
        let admin = try first.admin()
        let ann = try first.join("Ann", team: "Red")
        let bob = try first.join("Bob", team: "Blue")
        try admin.send(["type": "start", "game": "fly", "rounds": 3, "roundSeconds": 8, "breakSeconds": 1, "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        try ann.send(["type": "phone", "choice": "brick"])
        var clock = try HostClockReading(ann)

        // Presses are timed by the test's own sleep, so a loaded machine may make them late: each is aimed where
        // lateness changes nothing checked. A throw at 98 % on the falling sweep stays between 10 and 20 m (no
        // full power) for 200 ms of lateness; a catch 40 ms after the landing with the old brick's 250 ms window
        // stays clean, and never perfect, for 210 ms.
        // Round 1: Ann's catch is clean, streak 1, three achievements; Bob drops his.
        let start1 = try #require(try ann.waitFor("round") { $0["number"] == 1 }["sweepStart"]?.intValue)
        clock.sleep(until: start1 + 1600 + 816)
        try ann.send(["type": "throw"])
        let up1 = try ann.waitFor("thrown") { $0["player"] == "Ann" }
        try bob.send(["type": "throw"])
        clock.sleep(until: try #require(up1["landsAt"]?.intValue) + 40)
        try ann.send(["type": "catch"])
        let down1 = try ann.waitFor("caught") { $0["player"] == "Ann" }
        #expect(down1["quality"] == "clean" && down1["streak"] == 1)
        let points1 = try #require(down1["points"]?.intValue)
        #expect(try ann.waitFor("caught") { $0["player"] == "Bob" }["quality"] == "dropped")
        _ = try ann.waitFor("roundOver") { $0["number"] == 1 }
        // Every achievement of the round was sent before its end, so all of them are among the lines read by now.
        var earned: [String] = []
        while let achievement = try? ann.waitFor("achievement", timeout: 0) {
            earned.append(achievement["id"]?.stringValue ?? "")
        }
        // Aimed at 10–20 m (firstCatch, club5, club10); a machine that made the press very late may have moved it
        // along the sweep, so the clubs and full power are those of the throw as the host judged it.
        let height1 = try #require(up1["heightM"]?.doubleValue)
        let power1 = try #require(up1["power"]?.intValue)
        var expected: Set<String> = ["firstCatch"]
        for (club, metres) in [("club5", 5.0), ("club10", 10.0), ("club20", 20.0)] where height1 >= metres {
            expected.insert(club)
        }
        // Full power is 99 % of the meter: a throw shown as 99 % (rounded) may be either side of it.
        if power1 >= 100 || (power1 == 99 && earned.contains("fullPower")) { expected.insert("fullPower") }
        #expect(Set(earned) == expected && earned.count == expected.count, "earned \(earned) at \(height1) m")

        // Round 2: Ann's phone goes up, and the host is killed while it is in the air.
        let round2 = try ann.waitFor("round") { $0["number"] == 2 }
        let start2 = try #require(round2["sweepStart"]?.intValue)
        clock.sleep(until: start2 + 1600 + 816)
        try ann.send(["type": "throw"])
        let up2 = try ann.waitFor("thrown") { $0["player"] == "Ann" }
        first.stop(signal: SIGKILL)

        let second = try HostProcess(["--resume"], data: data.path)
        // Ann takes longer to come back than her phone had left to fly: it hangs until she is back, as in a pause.
        let board = try second.board()
        let boardClock = try HostClockReading(board)
        let landing2 = try #require(up2["landsAt"]?.intValue)
        boardClock.sleep(until: landing2 + 1500)
        let annAgain = try second.connect()
        try annAgain.send(["type": "hello", "room": .string(second.room), "resume": .string(ann.token ?? "")])
        _ = try annAgain.waitFor("welcome")
        let scores = try annAgain.waitFor("scores")
        let annLine = scores["ranking"]?.arrayValue?.first { $0["player"] == "Ann" }
        #expect(annLine?["score"]?.intValue == points1, "the scored throw is kept")
        #expect(annLine?["streak"] == 1, "and the streak")
        #expect(annLine?["phone"] == "brick")
        #expect(scores["ranking"]?.arrayValue?.first { $0["player"] == "Bob" }?["score"] == 0)
        #expect(try annAgain.waitFor("round")["number"] == 2)
        let stillUp = try annAgain.waitFor("thrown") { $0["player"] == "Ann" }
        #expect(stillUp["heightM"] == up2["heightM"] && stillUp["airMs"] == up2["airMs"], "the same throw")
        let notice = try annAgain.waitFor("notice") { $0["message"]?.stringValue?.contains("still in the air") == true }
        #expect(notice["message"]?.stringValue?.hasPrefix("Your phone is still in the air and comes down in ") == true)
        let moved = try board.waitFor("thrown") { $0["player"] == "Ann" && $0["landsAt"] != up2["landsAt"] }
        #expect(moved["landsAt"] == stillUp["landsAt"], "boards see the landing move")

        // It flies on from her return with at least 3 s to go: Ann catches it at its new landing, with the bonus.
        clock = try HostClockReading(annAgain)
        let landsAt = try #require(stillUp["landsAt"]?.intValue)
        #expect(clock.now < landsAt, "the phone is still up after the restart")
        clock.sleep(until: landsAt + 40)
        try annAgain.send(["type": "catch"])
        let down2 = try annAgain.waitFor("caught") { $0["player"] == "Ann" }
        #expect(down2["quality"] == "clean")
        #expect(down2["streak"] == 2, "the streak went on from before the crash")
        let height = try #require(up2["heightM"]?.doubleValue)
        #expect(down2["points"]?.intValue == Int64((height * 0.8 * 1.1 + 0.000_001).rounded()), "+10 % for the streak")
        #expect(down2["score"]?.intValue == points1 + (down2["points"]?.intValue ?? 0))
        let again = annAgain.collect(for: 0.5).filter { $0["type"] == "achievement" && $0["player"] == "Ann" }
        #expect(again.isEmpty, "achievements earned before the crash are not earned again: \(again)")

        // On disk: Ann's achievements and both rounds' throws, once each.
        let bytes = try #require(FileManager.default.contents(atPath: data.path + "/fly/records.json"))
        let records = try JSONParsing.parse(Array(bytes))
        let annEarned = records["achievements"]?["ann"]?["earned"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(Set(annEarned ?? []) == expected)
        let throwsKept = records["records"]?.arrayValue ?? []
        #expect(throwsKept.filter { $0["player"] == "Ann" }.count == 2)
        #expect(throwsKept.filter { $0["player"] == "Bob" }.count == 1)
        second.stop()
    }
}
