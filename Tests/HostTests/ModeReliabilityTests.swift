import Foundation
import Protocol
import Rules
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Odd One Out and the station hunt come back from the journal after the real host is killed mid-game.
@Suite("Crash recovery of Odd One Out and the hunt", .timeLimit(.minutes(10)))
struct ModeReliabilityTests {
    /// Rejoins `client`'s player on `host` with its resume token.
    static func rejoin(_ client: TestClient, on host: HostProcess) throws -> TestClient {
        let again = try host.connect()
        try again.send(["type": "hello", "room": .string(host.room), "resume": .string(client.token ?? "")])
        _ = try again.waitFor("welcome")
        again.token = client.token
        return again
    }

    @Test func aHostKilledMidRoundKeepsTheRoundAndThePicksAlreadyLockedIn() throws {
        let data = try OutsiderGameTests.dataFolder()
        let first = try HostProcess(["--reveal-seconds", "1"], data: data.path)
        let admin = try first.admin()
        let red = try first.join("Ann", team: "Red")
        let blue = try first.join("Bob", team: "Blue")
        try admin.send([
            "type": "start", "game": "outsider", "rounds": 2, "packs": ["e2e"], "roundSeconds": 60, "id": 1,
        ])
        let puzzle = try red.waitFor("puzzle")
        let round = try OutsiderGameTests.identify(puzzle)
        try red.send(["type": "pick", "choice": .number(round.number)])
        try blue.waitForState(OutsiderWire.LockedIn.self) { $0.teams.map(\.team) == ["Red"] }
        first.stop(signal: SIGKILL)

        let second = try HostProcess(["--resume", "--reveal-seconds", "1"], data: data.path)
        #expect(second.room == first.room)
        let redAgain = try ModeReliabilityTests.rejoin(red, on: second)
        let again = try redAgain.waitFor("puzzle")
        #expect(again["words"] == puzzle["words"], "the same round, the same order")
        #expect(again["number"] == 1)
        #expect((again["remainingMs"]?.intValue ?? 0) > 30_000, "the round clock goes on from the journal")
        #expect(try redAgain.waitFor("picked")["choice"] == .number(round.number))
        #expect(try redAgain.waitForState(OutsiderWire.LockedIn.self).teams.map(\.team) == ["Red"])
        let blueAgain = try ModeReliabilityTests.rejoin(blue, on: second)
        try blueAgain.waitForState(OutsiderWire.LockedIn.self)
        #expect(!blueAgain.transcriptText.contains("\"picked\""), "Red's pick stays Red's")
        try blueAgain.send(["type": "pick", "choice": .number(round.number % 4 + 1)])
        let reveal = try redAgain.waitFor("reveal")
        let results = reveal["results"]?.arrayValue ?? []
        #expect(results.map { $0["team"] } == ["Red", "Blue"])
        #expect(results.first?["correct"] == true)
        #expect((results.first?["points"]?.intValue ?? 0) > 0)
        #expect(reveal["outsider"] == .string(round.outsider))
        second.stop()
    }

    @Test func aHostKilledMidHuntKeepsEachTeamsStationTimePenaltiesAndWrongCodes() throws {
        let (data, _) = try HuntGameTests.dataFolder()
        let first = try HostProcess([], data: data.path)
        let admin = try first.admin()
        let red = try first.join("Ann", team: "Red")
        let green = try first.join("Gil", team: "Green")
        try admin.send(["type": "start", "game": "hunt", "hunt": "office", "minutes": 30, "id": 1])
        let started = try red.waitFor("game")
        _ = try red.waitFor("clue")
        try red.send(["type": "checkin", "code": "FRDG"])
        let puzzle = try red.waitFor("puzzle")
        try red.send(["type": "hint"])
        _ = try red.waitFor("hint")
        try red.send(["type": "pick", "choice": .number(try HuntGameTests.number(of: "blue", in: puzzle))])
        _ = try red.waitFor("wrong")
        for attempt in 1...3 {
            try green.send(["type": "checkin", "code": "NOPE", "id": .number(attempt)])
            #expect(try green.waitFor("error") { $0["re"] == .number(attempt) }["code"] == "wrong_code")
        }
        let before = try red.waitFor("progress") { $0["teams"]?.arrayValue?.first?["penaltiesMs"] == 50_000 }
        #expect(before["teams"]?.arrayValue?.first?["team"] == "Red")
        let clock = try HostClockReading(red)
        let leftAtTheStop = try #require(started["deadline"]?.intValue) - clock.now
        first.stop(signal: SIGKILL)

        // The players take 4 s to come back (a board watches meanwhile): the hunt clock waits for them.
        let second = try HostProcess(["--resume"], data: data.path)
        let held = try second.waitForErrorLine(containing: "waiting for the first player back after the restart")
        #expect(!held.contains("WAITING FOR YOU"), "the operator has nothing to do: \(held)")
        let board = try second.board()
        let boardClock = try HostClockReading(board)
        boardClock.sleep(until: boardClock.now + 4000)
        let redAgain = try ModeReliabilityTests.rejoin(red, on: second)
        let intro = try redAgain.waitFor("game")
        #expect((intro["remainingMs"]?.intValue ?? 0) > 25 * 60_000)
        #expect((intro["remainingMs"]?.intValue ?? .max) < 30 * 60_000, "the hunt clock went on")
        // What was left at the stop is left at the return, less at most the journal's clock lease (1 s) and the
        // time the rejoin itself takes; the 4 s nobody could play are not charged.
        let left = try #require(intro["remainingMs"]?.intValue)
        #expect(left > leftAtTheStop - 2500, "\(left) ms left after the restart, \(leftAtTheStop) ms at the stop")
        let progress = try redAgain.waitFor("progress")
        #expect(progress["teams"]?.arrayValue?.first { $0["team"] == "Red" }?["penaltiesMs"] == 50_000)
        #expect(try redAgain.waitFor("puzzle") == puzzle, "checked in at the same station, the same words")
        #expect(try redAgain.waitFor("hint")["text"] == "Think of paint.")
        // Green's three wrong codes still count: two more lock its check-ins.
        let greenAgain = try ModeReliabilityTests.rejoin(green, on: second)
        #expect(try greenAgain.waitFor("clue")["station"] == 1)
        try greenAgain.send(["type": "checkin", "code": "NOPE", "id": 4])
        #expect(
            try greenAgain.waitFor("error") { $0["re"] == 4 }["message"]?.stringValue?.contains("1 try left") == true)
        try greenAgain.send(["type": "checkin", "code": "NOPE", "id": 5])
        #expect(try greenAgain.waitFor("error") { $0["re"] == 5 }["code"] == "code_locked")
        try greenAgain.send(["type": "checkin", "code": "FRDG", "id": 6])
        #expect(try greenAgain.waitFor("error") { $0["re"] == 6 }["code"] == "code_locked")
        // Red solves where it stood; its time and penalties carried over.
        try redAgain.send(["type": "answer", "text": "dog"])
        let solved = try redAgain.waitFor("solved")
        #expect(solved["penaltiesMs"] == 50_000)
        #expect((solved["elapsedMs"]?.intValue ?? 0) > 0)
        #expect(try redAgain.waitFor("clue")["station"] == 2)
        second.stop()
    }
}
