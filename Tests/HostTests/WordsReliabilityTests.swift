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

/// Compound words survives a SIGKILL: `--resume` brings back hands, lockouts, bingo cards with their marked cells,
/// tokens and done tiles, exactly as the players last saw them.
@Suite("Compound words after a crash", .timeLimit(.minutes(10)))
struct WordsReliabilityTests {
    /// Reconnects a player with its resume token and returns the connection after its welcome.
    static func comeBack(_ player: TestClient, to host: HostProcess) throws -> TestClient {
        let again = try host.connect()
        try again.send(["type": "hello", "room": .string(host.room), "resume": .string(player.token ?? "")])
        _ = try again.waitFor("welcome")
        again.token = player.token
        return again
    }

    /// A message without its clock-relative fields, for comparing before and after a restart.
    static func withoutClock(_ message: JSONValue) -> JSONValue {
        guard var object = message.objectValue else { return message }
        object["ms"] = nil
        return .object(object)
    }

    @Test func handsLockoutsCardsTokensAndDoneTilesComeBackAfterSIGKILL() throws {
        let data = TemporaryDirectory()
        var host = try HostProcess(["--rate", "10000"], data: data.path)
        var ann = try host.join("Ann", team: "Red")
        var bob = try host.join("Bob", team: "Blue")
        var admin = try host.admin()

        // The card race: Red right once, then wrong — its hand lost a card and it is locked out for a minute.
        try admin.send(["type": "start", "game": "words", "exercise": "cards", "lockoutSeconds": 60, "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        var hand = try ann.waitFor("hand")
        try ann.send(["type": "pick", "choice": .int(Int64(try #require(try WordsGameTests.card(in: hand))))])
        hand = try ann.waitFor("hand") { $0["number"] == 2 }
        try ann.send([
            "type": "pick", "choice": .int(Int64(try #require(try WordsGameTests.card(in: hand, correct: false)))),
        ])
        let lockedHand = try ann.waitFor("hand") { $0["number"] == 2 }
        let lockout = try ann.waitFor("lockout") { $0["team"] == "Red" }
        let blueHand = try bob.waitFor("hand")
        host.stop(signal: SIGKILL)

        host = try HostProcess(["--resume", "--rate", "10000"], data: data.path)
        ann = try Self.comeBack(ann, to: host)
        bob = try Self.comeBack(bob, to: host)
        #expect(try ann.waitFor("progress") { $0["team"] == "Red" }["done"] == 1)
        #expect(try ann.waitFor("hand") == lockedHand, "the hand with its missing card")
        let lockedAgain = try ann.waitFor("lockout")
        #expect(lockedAgain["deadline"] == lockout["deadline"], "the lockout ends when it would have")
        #expect((1...60_000).contains(lockedAgain["ms"]?.intValue ?? 0))
        #expect(try bob.waitFor("hand") == blueHand)
        try ann.send([
            "type": "pick", "choice": .int(Int64(try #require(try WordsGameTests.card(in: lockedHand)))), "id": 2,
        ])
        #expect(try ann.waitFor("error") { $0["re"] == 2 }["code"] == "locked_out")

        // Bingo: marked cells and a lockout survive.
        admin = try host.admin()
        try admin.send(["type": "end", "id": 3])
        _ = try admin.waitFor("ok") { $0["re"] == 3 }
        try admin.send(["type": "start", "game": "words", "exercise": "bingo", "lockoutSeconds": 60, "id": 4])
        _ = try admin.waitFor("ok") { $0["re"] == 4 }
        var card = try ann.waitFor("card") { $0["team"] == "Red" }
        for _ in 0..<3 {
            let cell = try #require(try Self.cell(of: card))
            try ann.send(["type": "pick", "cell": .int(Int64(cell))])
            card = try ann.waitFor("card") { $0["team"] == "Red" }
        }
        let wrongCell = try #require(try Self.cell(of: card, correct: false))
        try ann.send(["type": "pick", "cell": .int(Int64(wrongCell))])
        let cardBefore = try ann.waitFor("card") { $0["team"] == "Red" }
        #expect(cardBefore["cells"]?.arrayValue?.filter { $0["marked"] == true }.count == 3)
        let bingoLockout = try ann.waitFor("lockout") { $0["team"] == "Red" && $0["ms"] != 0 }
        host.stop(signal: SIGKILL)

        host = try HostProcess(["--resume", "--rate", "10000"], data: data.path)
        ann = try Self.comeBack(ann, to: host)
        #expect(try ann.waitFor("card") { $0["team"] == "Red" } == cardBefore, "marked cells and options as they were")
        #expect(try ann.waitFor("lockout")["deadline"] == bingoLockout["deadline"])

        // The board: tokens, done tiles, the last roll and a fork waiting for the team.
        admin = try host.admin()
        try admin.send(["type": "end", "id": 5])
        _ = try admin.waitFor("ok") { $0["re"] == 5 }
        try admin.send(["type": "start", "game": "words", "exercise": "board", "lockoutSeconds": 0, "id": 6])
        _ = try admin.waitFor("ok") { $0["re"] == 6 }
        _ = try ann.waitFor("moved") { $0["team"] == "Red" }
        // Answer, roll and walk until three tiles are done and the token waits at a fork.
        var done: Set<Int64> = []
        var moved = JSONValue.null
        var isAnswering = true
        for _ in 0..<200 {
            if isAnswering {
                hand = try ann.waitFor("hand") { $0["team"] == "Red" }
                try ann.send(["type": "pick", "choice": .int(Int64(try #require(try WordsGameTests.card(in: hand))))])
                done.insert(try ann.waitFor("tile") { $0["team"] == "Red" }["tile"]?.intValue ?? 0)
                try ann.send(["type": "roll"])
                _ = try ann.waitFor("rolled") { $0["team"] == "Red" }
            }
            moved = try ann.waitFor("moved") { $0["team"] == "Red" }
            let choices = moved["choices"]?.arrayValue ?? []
            if !choices.isEmpty {
                if done.count >= 3 { break }
                try ann.send(["type": "move", "tile": choices[0]["tile"] ?? 0])
                isAnswering = false
            } else if done.contains(moved["tile"]?.intValue ?? 0) {
                try ann.send(["type": "roll"])
                _ = try ann.waitFor("rolled") { $0["team"] == "Red" }
                isAnswering = false
            } else {
                isAnswering = true
            }
        }
        #expect(done.count >= 3 && !(moved["choices"]?.arrayValue ?? []).isEmpty, "no fork after three tiles")
        let tilesBefore = ann.transcriptText.components(separatedBy: "\n").filter {
            $0.contains("\"type\":\"tile\",\"team\":\"Red\"")
        }
        #expect(tilesBefore.count == done.count)
        host.stop(signal: SIGKILL)

        host = try HostProcess(["--resume", "--rate", "10000"], data: data.path)
        let back = try Self.comeBack(ann, to: host)
        #expect(try back.waitFor("progress") { $0["team"] == "Red" }["done"] == .int(Int64(done.count)))
        for line in tilesBefore {
            let tile = try JSONParsing.parse(line)
            #expect(
                try back.waitFor("tile") { $0["team"] == "Red" } == tile,
                "done tile \(tile["tile"] ?? .null) is still done")
        }
        let movedAgain = try back.waitFor("moved") { $0["team"] == "Red" }
        #expect(movedAgain["tile"] == moved["tile"] && movedAgain["choices"] == moved["choices"])
        #expect(movedAgain["steps"] == moved["steps"])
        // The team goes on from the fork where it stopped.
        try back.send(["type": "move", "tile": moved["choices"]?.arrayValue?.last?["tile"] ?? 0, "id": 7])
        _ = try back.waitFor("ok") { $0["re"] == 7 }
        host.stop()
    }

    /// A cell of the bingo card holding a correct (or wrong) option of its word.
    static func cell(of card: JSONValue, correct: Bool = true) throws -> Int? {
        let entry = try WordsGameTests.entry(card["word"]?.stringValue ?? "")
        let cells = card["cells"]?.arrayValue ?? []
        return cells.indices.first {
            cells[$0]["marked"] == false && cells[$0]["text"]?.stringValue.map(entry.isCorrect) == correct
        }
    }
}
