import Foundation
import Protocol
import TestSupport
import Testing

/// The organiser's console over real TCP and the real host's stdin and stderr (#18).
@Suite("The organiser runs the show, end to end", .timeLimit(.minutes(10)))
struct OrganiserEndToEndTests {
    /// Reads the answer of the open question from the console's feed line ("… — answer: Gravity").
    static func answerFromFeed(_ host: HostProcess) throws -> String {
        let line = try host.waitForErrorLine(containing: " — answer: ")
        return String(line[line.range(of: " — answer: ")!.upperBound...])
    }

    /// Where a JSON transcript first mentions `text` (case-insensitive), and where the first reveal starts.
    static func positions(of text: String, in transcript: String) -> (mention: Int?, reveal: Int?) {
        let lower = transcript.lowercased()
        let mention = lower.range(of: text.lowercased()).map {
            lower.distance(from: lower.startIndex, to: $0.lowerBound)
        }
        let reveal = lower.range(of: #""type":"reveal""#).map {
            lower.distance(from: lower.startIndex, to: $0.lowerBound)
        }
        return (mention, reveal)
    }

    @Test func theConsoleSeesTheAnswerAndATypedAnswerThatNoPlayerReceives() throws {
        let host = try HostProcess(["--reveal-seconds", "0"])
        let ann = try host.join("Ann", team: "Red")
        let bob = try host.join("Bob", team: "Blue")
        let nc = try host.connect()
        try nc.send(line: "join \(host.room) Cy Green")
        _ = try nc.waitForText("Welcome")
        // An answer no other text contains, so any mention of it before the reveal is a leak.
        host.console("pack create Organiser")
        host.console("pack add organiser easy | Which word means a foolishly idealistic act? | Quixotry")
        try host.waitForErrorLine(containing: "Added")
        host.console("start shaky 1 easy organiser")
        let answer = try Self.answerFromFeed(host)
        #expect(answer == "Quixotry")
        _ = try ann.waitFor("question")
        try ann.send(["type": "buzz"])
        _ = try ann.waitFor("turn")
        try ann.send(["type": "answer", "text": "zebra crossing"])
        let verdict = try host.waitForErrorLine(containing: "zebra crossing")
        #expect(verdict.contains("Red answered \"zebra crossing\": wrong"), "\(verdict)")
        _ = try bob.waitFor("result")
        host.console("next")
        for client in [ann, bob] { _ = try client.waitFor("reveal") }
        _ = try nc.waitForText("The answer was")
        for (name, client) in [("Ann", ann), ("Bob", bob)] {
            let seen = Self.positions(of: answer, in: client.transcriptText)
            let reveal = try #require(seen.reveal, "\(name) saw no reveal")
            #expect(
                seen.mention.map { $0 >= reveal } ?? true,
                "\(name) saw \(answer) before the reveal: \(client.transcriptText.prefix(reveal))")
            #expect(!client.transcriptText.contains("zebra crossing"), "\(name) received Red's typed answer")
        }
        let text = nc.transcriptText.lowercased()
        let revealAt = try #require(text.range(of: "the answer was")?.lowerBound)
        #expect(text.range(of: answer.lowercased()).map { $0.lowerBound >= revealAt } ?? true)
        #expect(!text.contains("zebra crossing"))
    }

    @Test func acceptChangesTheScoreEveryoneSeesAndSurvivesAKill() throws {
        let data = TemporaryDirectory(prefix: "partyline-organiser-")
        let first = try HostProcess(["--reveal-seconds", "0"], data: data.path)
        let ann = try first.join("Ann", team: "Red")
        let bob = try first.join("Bob", team: "Blue")
        first.console("start shaky 2 easy")
        _ = try ann.waitFor("question")
        try ann.send(["type": "buzz"])
        _ = try ann.waitFor("turn")
        try ann.send(["type": "answer", "text": "Napolean the long way round"])
        _ = try bob.waitFor("result") { $0["team"] == "Red" && $0["correct"] == false }
        first.console("next")
        _ = try bob.waitFor("reveal")
        first.console("accept Red")
        let overruled = try bob.waitFor("overruled")
        #expect(overruled["team"] == "Red")
        #expect(overruled["points"] == 100)
        _ = try ann.waitFor("overruled")
        first.stop(signal: SIGKILL)

        let second = try HostProcess(["--resume", "--reveal-seconds", "0"], data: data.path)
        let back = try second.connect()
        try back.send(["type": "hello", "room": .string(second.room), "resume": .string(bob.token ?? ""), "id": 1])
        _ = try back.waitFor("welcome")
        try back.send(["type": "scores", "id": 2])
        let scores = try back.waitFor("scores") { $0["re"] == 2 }
        let red = scores["ranking"]?.arrayValue?.first { $0["team"] == "Red" }
        #expect(red?["score"] == 100, "the overrule survived the kill: \(scores)")
    }

    @Test func judgingByHandHoldsTheVerdictUntilTheQuizmasterGivesIt() throws {
        let host = try HostProcess(["--judge", "manual", "--reveal-seconds", "0"])
        let ann = try host.join("Ann", team: "Red")
        let board = try host.board()
        host.console("start shaky 1 easy")
        let answer = try Self.answerFromFeed(host)
        _ = try ann.waitFor("question")
        try ann.send(["type": "buzz"])
        _ = try ann.waitFor("turn")
        try ann.send(["type": "answer", "text": .string(answer)])
        _ = try board.waitFor("judging")
        try host.waitForErrorLine(containing: "accept Red")
        let meanwhile = board.collect(for: 0.5).compactMap { $0["type"]?.stringValue }
        #expect(!meanwhile.contains("result"), "no verdict before the quizmaster's")
        host.console("accept Red")
        let result = try board.waitFor("result")
        #expect(result["correct"] == true)
        #expect(try board.waitFor("reveal")["scorer"] == "Red")
    }

    @Test func aKickedNameAndAddressCannotRejoinUntilUnbannedEvenAfterARestart() throws {
        let data = TemporaryDirectory(prefix: "partyline-bans-")
        let first = try HostProcess(data: data.path)
        let cid = try first.join("Cid", team: "Red", from: "127.0.0.2")
        _ = try first.join("Ann", team: "Blue")
        first.console("kick cid")
        #expect(try cid.waitFor("error")["code"] == "kicked")
        #expect(cid.waitForClose())
        first.console("lock")
        try first.waitForErrorLine(containing: "locked")
        first.stop(signal: SIGKILL)
        // The bar and the lock are journaled: a restarted host keeps both.
        let host = try HostProcess(["--resume"], data: data.path)
        host.console("status")
        try host.waitForErrorLine(containing: "locked")
        func hello(_ name: String, from source: String) throws -> JSONValue {
            let client = try host.connect(from: source)
            try client.send(["type": "hello", "room": .string(host.room), "name": .string(name), "team": "Red"])
            while true {
                let reply = try JSONParsing.parse(try client.nextLine())
                if ["welcome", "error"].contains(reply["type"]?.stringValue) { return reply }
            }
        }
        #expect(try hello("Cedric", from: "127.0.0.2")["code"] == "banned", "the address is barred")
        #expect(try hello("CID", from: "127.0.0.1")["code"] == "banned", "the name is barred, in any case")
        #expect(try hello("Dee", from: "127.0.0.1")["type"] == "welcome", "the host's own machine is never barred")
        host.console("unban Cid")
        try host.waitForErrorLine(containing: "Cid may join again")
        #expect(try hello("Cid", from: "127.0.0.2")["type"] == "welcome")
    }

    @Test func tidyAndANewGameLeaveNoGhostTeams() throws {
        let host = try HostProcess()
        let ann = try host.join("Ann", team: "Red")
        do { _ = try host.join("Bob", team: "Blue") }  // drops at once: Bob is away, keeping his place
        _ = try ann.waitForState(Lobby.self) { lobby in
            lobby.players.contains { $0.name == "Bob" && $0.connected == false }
        }
        host.console("start shaky 1")
        let game = try ann.waitFor("game")
        #expect(!game.description.contains("Blue"), "an away team does not play: \(game)")
        host.console("end")
        _ = try ann.waitFor("scoreboard")
        host.console("tidy")
        try host.waitForErrorLine(containing: "Kept Bob: away for less than two minutes")
        host.console("tidy!")
        try host.waitForErrorLine(containing: "Removed 1 player who was away: Bob.")
        _ = try ann.waitForState(Lobby.self) { lobby in !lobby.players.contains { $0.name == "Bob" } }
        // Bob's place is gone: the name is free for someone else, on the team they choose.
        let newcomer = try host.join("Bob", team: "Green")
        #expect(newcomer.token != nil)
    }

    @Test func twoGamesRepeatNoQuestionAndTheCSVHoldsEveryTypedAnswer() throws {
        let host = try HostProcess(["--reveal-seconds", "0"])
        let ann = try host.join("Ann", team: "Red")
        var asked: [[String]] = []
        for _ in 0..<2 {
            host.console("start shaky 3 easy animals")
            var texts: [String] = []
            for number in 1...3 {
                let question = try ann.waitFor("question") { $0["number"]?.intValue == Int64(number) }
                texts.append(question["text"]?.stringValue ?? "")
                try ann.send(["type": "buzz"])
                _ = try ann.waitFor("turn")
                try ann.send(["type": "answer", "text": .string("guess \(asked.count)-\(number)")])
                _ = try ann.waitFor("reveal") { $0["number"]?.intValue == Int64(number) }
                host.console("next")
            }
            _ = try ann.waitFor("scoreboard")
            asked.append(texts)
        }
        #expect(Set(asked[0]).isDisjoint(with: asked[1]), "\(asked)")
        host.console("quit")
        #expect(host.waitForExit() == 0)

        let csv = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "1", "--csv", "--data", host.data]
        ).output
        let rows = csv.split(whereSeparator: \.isNewline)
        #expect(rows.count == 4, "a header and one row per typed answer: \(csv)")
        // history numbers tonight's games from the first: game 1 is the first played, game 2 the second.
        for number in 1...3 { #expect(csv.contains("guess 0-\(number)"), "\(csv)") }
        let second = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "2", "--csv", "--data", host.data]
        ).output
        for number in 1...3 { #expect(second.contains("guess 1-\(number)"), "\(second)") }
    }
}
