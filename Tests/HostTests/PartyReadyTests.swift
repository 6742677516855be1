import Foundation
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The party's problems against the real host over TCP: an answer that is a command word, the Queen's order written
/// the natural way, and an `nc` player stranded by a host restart.
@Suite("Party-ready: the real host", .timeLimit(.minutes(10)))
struct PartyReadyTests {
    /// A text-mode (`nc`) player who joined; returns the connection and the rejoin code the welcome showed.
    static func ncPlayer(_ host: HostProcess, _ name: String, team: String) throws -> (TestClient, String) {
        let nc = try host.connect()
        _ = try nc.waitForText("join ROOM NAME TEAM")
        try nc.send(line: "join \(host.room) \(name) \(team)")
        _ = try nc.waitForText("Welcome, \(name)!")
        let line = try nc.waitForText("Your rejoin code: ")
        let code = try #require(line.split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(line.contains("rejoin \(name) \(code)"))
        return (nc, code)
    }

    @Test func onTurnTheAnswerPackIsAnAnswerNotACommand() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        let nc = try host.connect()
        _ = try nc.waitForText("join ROOM NAME TEAM")
        try nc.send(line: "join \(host.room) Nia Red")
        _ = try nc.waitForText("Welcome, Nia!")
        // A pack of one question whose answer is not "pack": the built-in packs ask for a group of wolves, and a
        // right answer would be a pass of this test for the wrong reason and a failure of its "wrong." line.
        try admin.send(["type": "packs", "action": "create", "name": "Herds", "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        let question: JSONValue = ["difficulty": "easy", "text": "What do we call a group of cows?", "answer": "Herd"]
        try admin.send(["type": "packs", "action": "add", "pack": "herds", "question": question, "id": 2])
        _ = try admin.waitFor("ok") { $0["re"] == 2 }
        try admin.send([
            "type": "start", "game": "shaky", "packs": ["herds"], "difficulty": "mixed", "questions": 1,
            "questionSeconds": 30,
            "answerSeconds": 30,
        ])
        _ = try nc.waitForText("Question 1/1")
        try nc.send(line: "b")
        let turn = try nc.waitForText(">>> Your turn, team Red!")
        #expect(turn.contains("commands start with /"))
        try nc.send(line: "pack")  // a group of wolves
        let result = try admin.waitFor("result")
        #expect(result["team"] == "Red")
        _ = try nc.waitForText("✘ Red: wrong.")
        #expect(!nc.transcriptText.contains("Only the operator"))
        host.stop()
    }

    @Test func aNaturalNo2OrderReachesThePlayerHoldingNumber2() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        var players: [String: TestClient] = [:]
        for name in ["Ann", "Bob", "Cy", "Dee"] { players[name] = try host.join(name, team: name) }
        try admin.send(["type": "start", "game": "queen", "countdownSeconds": 1, "chooseSeconds": 60, "id": 1])
        let round = try admin.waitFor("round")
        let queen = try #require(round["queen"]?.stringValue)
        var holders: [Int64: String] = [:]
        for (name, client) in players where name != queen {
            holders[try #require(client.waitFor("secret")["number"]?.intValue)] = name
        }
        try players[queen]!.send(["type": "command", "text": "No. 2 sings to no 1", "id": 5])
        _ = try players[queen]!.waitFor("ok") { $0["re"] == 5 }
        let order = try admin.waitFor("order")
        #expect(order["text"] == "No. 2 sings to no 1")
        #expect(order["targets"] == [2, 1])
        let revealed = try admin.waitFor("revealed")
        #expect(revealed["targets"] == .array([holders[2]!, holders[1]!].map { .string($0) }))
        // A number nobody holds is refused with a hint.
        try admin.send(["type": "next", "id": 2])
        let next = try admin.waitFor("round") { $0["number"] == 2 }
        let nextName = try #require(next["queen"]?.stringValue)
        let nextQueen = try #require(players[nextName])
        try nextQueen.send(["type": "command", "text": "No. 7 hops", "id": 6])
        let refusal = try nextQueen.waitFor("error") { $0["re"] == 6 }
        #expect(refusal["code"] == "bad_placeholder")
        #expect(refusal["message"]?.stringValue?.contains("No. 1 to No. 3") == true)
        host.stop()
    }

    @Test func anNcPlayerComesBackWithTheShortCodeAfterAHostRestart() throws {
        let data = TemporaryDirectory()
        let first = try HostProcess([], data: data.path)
        let admin = try first.admin()
        let (nc, code) = try PartyReadyTests.ncPlayer(first, "Ann", team: "Red")
        #expect(code.count == 7)
        _ = try first.join("Bob", team: "Blue")
        try admin.send(["type": "start", "game": "shaky", "questions": 2, "questionSeconds": 60, "id": 1])
        let question = try nc.waitForText("Question 1/2")
        first.stop(signal: SIGKILL)

        let second = try HostProcess(["--resume"], data: data.path)
        #expect(second.room == first.room)
        // From another computer the name is taken: the refusal says how its owner comes back.
        let stranger = try second.connect(from: "127.0.0.2")
        _ = try stranger.waitForText("rejoin NAME CODE")
        try stranger.send(line: "join \(second.room) Ann Red")
        let taken = try stranger.waitForText("is taken")
        #expect(taken.contains("rejoin Ann CODE"))
        // From the computer she joined from, her name alone brings her back, after the restart too (issue #27).
        let back = try second.connect()
        let banner = try back.waitForText("rejoin NAME CODE")
        #expect(banner.contains("Back again"))
        try back.send(line: "join \(second.room) Ann Red")
        _ = try back.waitForText("Welcome, Ann! You play for team Red.")
        // the same player: the question as Red saw it
        let again = try back.waitForText("Question 1/2")
        #expect(again.split(separator: ":").first == question.split(separator: ":").first)
        #expect(again.contains(question.components(separatedBy: "Letters: ")[1].components(separatedBy: "  ·")[0]))
        // And the short code works from anywhere.
        try stranger.send(line: "rejoin Ann \(code)")
        _ = try stranger.waitForText("Welcome, Ann! You play for team Red.")
        second.stop()
    }
}
