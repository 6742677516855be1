import Foundation
import Protocol
import Rules
import TestSupport
import Testing

/// Reward characters over real TCP: picked by a JSON player and a person at `nc`, grown by right cards in a card
/// race, kept in the data folder when the host stops and starts again with a fresh room, and listed for the
/// teacher by `partyline-host history` (the game's rewards, `--rewards` and its `--csv`).
@Suite("Rewards: characters across games and host restarts", .timeLimit(.minutes(10)))
struct RewardsGameTests {
    /// Plays `count` right cards of Red's hands as Ann, returning the `character` message after each.
    static func playRight(_ count: Int, as ann: TestClient) throws -> [JSONValue] {
        var progress: [JSONValue] = []
        for _ in 0..<count {
            let hand = try ann.waitFor("hand") { $0["team"] == "Red" }
            let card = try #require(try WordsGameTests.card(in: hand))
            try ann.send(["type": "pick", "choice": .int(Int64(card))])
            _ = try ann.waitFor("result") { $0["team"] == "Red" && $0["correct"] == true }
            progress.append(try ann.waitFor("character"))
        }
        return progress
    }

    @Test func aCharacterGrowsWithRightAnswersAndOutlivesTheHost() throws {
        let data = TemporaryDirectory(prefix: "partyline-rewards-")
        let host = try HostProcess(["--rate", "10000", "--fresh"], data: data.path)
        let (admin, ann, bob, board) = try WordsGameTests.twoTeams(host)

        // Ann asks where she stands (nothing picked), is refused a character that does not exist, picks the fox.
        try ann.send(["type": "character", "id": 1])
        _ = try ann.waitFor("ok") { $0["re"] == 1 }
        let none = try ann.waitFor("character")
        #expect(none["character"] == .null && none["stage"] == 0 && none["next"] == .null)
        #expect(none["choices"] == ["fox", "owl", "frog", "bear", "robot"])
        try ann.send(["type": "character", "character": "dragon", "id": 2])
        let refused = try ann.waitFor("error") { $0["re"] == 2 }
        #expect(refused["code"] == "bad_choice" && refused["message"]?.stringValue?.contains("fox, owl") == true)
        try ann.send(["type": "character", "character": "Fox", "id": 3])
        _ = try ann.waitFor("ok") { $0["re"] == 3 }
        let fox = try ann.waitFor("character")
        #expect(fox["character"] == "fox" && fox["stage"] == 1 && fox["next"] == 3 && fox["picked"] == true)
        #expect(fox["canChange"] == true && fox["rightAnswers"] == 0)
        // Bob at nc asks, then types his pick; a board has no character.
        try bob.send(line: "character")
        _ = try bob.waitForText("Pick a character that grows with your right answers: type character NAME")
        try bob.send(line: "character owl")
        _ = try bob.waitForText(
            "Your character is the owl: stage 1 of 4, 0 right answers. 3 more right answers to grow.")
        try board.send(["type": "character", "character": "fox", "id": 4])
        #expect(try board.waitFor("error") { $0["re"] == 4 }["code"] == "forbidden")

        // A card race: Ann's three right cards grow the fox (the third says so, to her and the teacher); Bob's
        // right cards grow his owl, which he reads as one line.
        try admin.send([
            "type": "start", "game": "words", "exercise": "cards", "list": "en", "level": 1, "lockoutSeconds": 0,
            "id": 5,
        ])
        _ = try admin.waitFor("ok") { $0["re"] == 5 }
        let counted = try Self.playRight(3, as: ann)
        #expect(counted.map { $0["rightAnswers"] } == [1, 2, 3])
        #expect(counted.map { $0["stage"] } == [1, 1, 2])
        #expect(counted.map { $0["grew"] } == [nil, nil, true])
        #expect(counted[2]["upgrade"] == "a scarf" && counted[2]["next"] == 10 && counted[2]["canChange"] == false)
        let feed = try admin.waitFor("feed") { $0["text"]?.stringValue?.hasPrefix("Ann's fox grew") == true }
        #expect(feed["text"]?.stringValue?.contains("stage 2 of 4") == true)
        for _ in 0..<3 {
            let line = try bob.waitForText(">>> Your word (")
            let (word, cards) = try #require(WordsGameTests.textHand(line))
            let entry = try WordsGameTests.entry(word)
            try bob.send(line: String(try #require(cards.first { entry.isCorrect($0.value) }).key))
            _ = try bob.waitForText("✔ Blue (Bob): \(word) + ")
        }
        _ = try bob.waitForText("Your owl grew: stage 2 of 4, with a scarf! 7 more right answers to grow.")
        // Grown, the fox stays Ann's.
        try ann.send(["type": "character", "character": "owl", "id": 6])
        #expect(try ann.waitFor("error") { $0["re"] == 6 }["code"] == "already_picked")
        // No other player hears of Ann's character.
        #expect(!bob.transcriptText.contains("fox grew") && !board.transcriptText.contains("\"type\":\"character\""))
        try admin.send(["type": "end", "id": 7])
        _ = try board.waitFor("scoreboard")
        host.stop()

        // The next evening: a fresh room on the same data folder still knows Ann's fox.
        let again = try HostProcess(["--fresh"], data: data.path)
        let ann2 = try again.join("Ann", team: "Green")
        try ann2.send(["type": "character"])
        let kept = try ann2.waitFor("character")
        #expect(kept["character"] == "fox" && kept["stage"] == 2 && kept["rightAnswers"] == 3)
        #expect(kept["canChange"] == false && kept["next"] == 10)
        again.stop()

        // The teacher's history: the game's rewards, every player's character, and the spreadsheet.
        let tool = BuiltProducts.path("partyline-host")
        let list = try ChildProcess.run(tool, ["history", "--data", data.path])
        // (The test ends its card race with `end`, so the line also says the organiser ended it.)
        #expect(
            list.output.contains(" · grew: Ann's fox (stage 2), Bob's owl (stage 2)  (ended by the organiser)  ["),
            "\(list.output)")
        let game = try ChildProcess.run(tool, ["history", "1", "--data", data.path])
        #expect(game.output.contains("Rewards (characters grown by right answers):"), "\(game.output)")
        #expect(game.output.contains("Ann: fox, 3 right answers, stage 2 of 4 (reached stage 2)"), "\(game.output)")
        #expect(game.output.contains("Bob: owl, 3 right answers, stage 2 of 4 (reached stage 2)"), "\(game.output)")
        let all = try ChildProcess.run(tool, ["history", "--rewards", "--data", data.path])
        #expect(all.terminationStatus == 0, "\(all.errors)")
        #expect(all.output.contains("Ann: fox, stage 2 of 4, 3 right answers; 7 more to grow"), "\(all.output)")
        #expect(all.output.contains("stage 2 (a scarf)") && all.output.contains("in words"), "\(all.output)")
        let csv = try ChildProcess.run(tool, ["history", "--rewards", "--csv", "--data", data.path])
        let rows = csv.output.split(whereSeparator: \.isNewline).map(String.init)
        #expect(rows.first == "player,character,stage,upgrade,afterRightAnswers,date,game", "\(csv.output)")
        #expect(rows.contains { $0.hasPrefix("Ann,fox,1,a little one,0,") })
        #expect(rows.contains { $0.hasPrefix("Ann,fox,2,a scarf,3,") && $0.hasSuffix(",words") }, "\(csv.output)")
        #expect(rows.contains { $0.hasPrefix("Bob,owl,2,a scarf,3,") })
    }

    @Test func theCountGoesOnWhenTheHostIsStoppedAndResumedMidGame() throws {
        let data = TemporaryDirectory(prefix: "partyline-rewards-")
        let host = try HostProcess(["--rate", "10000", "--fresh"], data: data.path)
        let admin = try host.admin()
        let ann = try host.join("Ann", team: "Red")
        try ann.send(["type": "character", "character": "bear"])
        #expect(try ann.waitFor("character")["picked"] == true)
        try admin.send([
            "type": "start", "game": "words", "exercise": "cards", "list": "en", "level": 1, "lockoutSeconds": 0,
            "id": 1,
        ])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        #expect(try Self.playRight(1, as: ann).map { $0["rightAnswers"] } == [1])
        let token = try #require(ann.token)
        let room = host.room
        host.stop()

        // The same game, resumed: the count (not a growth, so written when the host stopped) goes on to the growth.
        let again = try HostProcess(["--rate", "10000", "--resume"], data: data.path)
        #expect(again.room == room)
        let back = try again.connect()
        try back.send(["type": "hello", "room": .string(room), "resume": .string(token)])
        _ = try back.waitFor("welcome")
        let counted = try Self.playRight(2, as: back)
        #expect(counted.map { $0["rightAnswers"] } == [2, 3])
        #expect(counted.last?["grew"] == true && counted.last?["stage"] == 2)
        again.stop()
    }

    @Test func aRewardsFileThatCannotBeReadIsKeptBesideAndTheEveningGoesOn() throws {
        let data = TemporaryDirectory(prefix: "partyline-rewards-")
        try FileManager.default.createDirectory(atPath: data.path + "/rewards", withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: data.path + "/rewards/players.json"))
        let host = try HostProcess(["--fresh"], data: data.path)
        let ann = try host.join("Ann", team: "Red")
        try ann.send(["type": "character", "character": "bear", "id": 1])
        _ = try ann.waitFor("ok") { $0["re"] == 1 }
        #expect(try ann.waitFor("character")["character"] == "bear")
        host.stop()
        #expect(host.errorOutput().contains("could not be read"), "the operator is told")
        #expect(FileManager.default.fileExists(atPath: data.path + "/rewards/players.json.broken-1"))
        let book = try JSONCoding.decode(
            RewardBook.self,
            from: Array(try Data(contentsOf: URL(fileURLWithPath: data.path + "/rewards/players.json"))))
        #expect(book.players["ann"]?.character == "bear")
    }
}
