import Foundation
import Protocol
import TestSupport
import Testing

/// A whole Shaky Words game over real TCP, with every client's bytes captured for the secrecy check.
@Suite("Shaky Words over TCP", .timeLimit(.minutes(10)))
struct ShakyGameTests {
    static let questions: [(difficulty: String, text: String, answer: String)] = [
        ("medium", "Which ringed planet is the sixth from the Sun?", "Saturn"),
        ("easy", "Which grey animal has a trunk and large ears?", "Elephant"),
        ("hard", "What do we call a mountain that can erupt with lava?", "Volcano"),
    ]

    /// Creates a custom pack through the admin protocol and returns its id.
    static func makePack(_ admin: TestClient) throws -> String {
        try admin.send(["type": "packs", "action": "create", "name": "End to end", "id": 1])
        let created = try admin.waitFor("ok") { $0["re"] == 1 }
        #expect(created["message"]?.stringValue?.contains("end-to-end") == true)
        for (index, question) in questions.enumerated() {
            try admin.send([
                "type": "packs", "action": "add", "pack": "end-to-end", "id": .number(10 + index),
                "question": [
                    "difficulty": .string(question.difficulty), "text": .string(question.text),
                    "answer": .string(question.answer),
                ],
            ])
            _ = try admin.waitFor("ok") { $0["re"] == .number(10 + index) }
        }
        return "end-to-end"
    }

    @Test func aWholeGameWithThreeTeamsOneInTextMode() throws {
        let host = try HostProcess(["--reveal-seconds", "1"])
        let admin = try host.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let red = try host.join("Ann", team: "Red")
        let red2 = try host.join("Abe", team: "Red")
        let blue = try host.join("Bob", team: "Blue")
        let green = try host.connect()  // a person at nc
        _ = try green.waitForText("join ROOM NAME TEAM")
        try green.send(line: "join \(host.room) Gil Green")
        _ = try green.waitForText("Welcome, Gil")
        let board = try host.board()
        _ = try board.waitFor("lobby") { ($0["players"]?.arrayValue?.count ?? 0) == 4 }

        try admin.send([
            "type": "start", "game": "shaky", "questions": 3, "difficulty": "mixed", "packs": [.string(pack)],
            "questionSeconds": 30, "answerSeconds": 20, "revealSeconds": 1, "id": 99,
        ])
        _ = try admin.waitFor("ok") { $0["re"] == 99 }

        // Question 1: Red and Blue buzz; Red answers wrong, Blue right.
        let q1 = try red.waitFor("question")
        #expect(q1["number"] == 1)
        #expect(q1["of"] == 3)
        let first = try #require(ShakyGameTests.questions.first { $0.text == q1["text"]?.stringValue })
        let letters = try #require(q1["letters"]?.stringValue)
        #expect(letters.sorted() == first.answer.uppercased().sorted())
        #expect(q1["remainingMs"]?.intValue ?? 0 > 25_000)
        _ = try blue.waitFor("question")
        _ = try green.waitForText("Question 1/3")
        _ = try board.waitFor("question")
        try red2.send(["type": "buzz", "id": 1])
        let buzzed = try blue.waitFor("buzzed")
        #expect(buzzed["order"] == ["Red"])
        #expect((buzzed["remainingMs"]?.intValue ?? 0) <= 20_000)  // the first buzz cuts the clock to 20 s
        let turn = try board.waitFor("turn")  // after the settle window, Red is on turn
        #expect(turn["team"] == "Red")
        try blue.send(["type": "buzz"])
        _ = try red.waitFor("buzzed") { $0["order"] == ["Red", "Blue"] }
        try red.send(["type": "buzz", "id": 2])
        #expect(try red.waitFor("error") { $0["re"] == 2 }["code"] == "already_buzzed")
        try blue.send(["type": "answer", "text": "Jupiter", "id": 3])
        #expect(try blue.waitFor("error") { $0["re"] == 3 }["code"] == "not_your_turn")
        try red.send(["type": "answer", "text": "Jupiter"])
        let wrong = try board.waitFor("result")
        #expect(wrong["team"] == "Red")
        #expect(wrong["correct"] == false)
        #expect(try board.waitFor("turn")["team"] == "Blue")
        try blue.send(["type": "answer", "text": .string("  \(first.answer.lowercased())! ")])
        let right = try board.waitFor("result") { $0["correct"] == true }
        #expect(right["team"] == "Blue")
        let points1 = right["points"]?.intValue ?? 0
        #expect(points1 > 0)
        let reveal1 = try red.waitFor("reveal")
        #expect(reveal1["answer"] == .string(first.answer))

        // Question 2: Green buzzes from nc and types a small misspelling; Red shakes first.
        let q2 = try red.waitFor("question") { $0["number"] == 2 }
        let second = try #require(ShakyGameTests.questions.first { $0.text == q2["text"]?.stringValue })
        try red.send(["type": "shake", "id": 5])
        let hint = try red.waitFor("hint")
        #expect(hint["letters"]?.stringValue?.first == second.answer.uppercased().first)
        #expect((hint["points"]?.intValue ?? 0) < (q2["points"]?.intValue ?? 0))
        _ = try red2.waitFor("hint")  // every terminal of the team
        try green.send(line: "b")
        _ = try green.waitForText("Your turn, team Green")
        let answer = second.answer.count >= 5 ? ShakyGameTests.transposed(second.answer) : second.answer
        try green.send(line: answer)
        let greenRight = try board.waitFor("result") { $0["correct"] == true }
        #expect(greenRight["team"] == "Green")
        _ = try green.waitForText("The answer was: \(second.answer)")

        // Question 3: nobody buzzes; the operator skips it.
        let q3 = try blue.waitFor("question") { $0["number"] == 3 }
        let third = try #require(ShakyGameTests.questions.first { $0.text == q3["text"]?.stringValue })
        _ = try admin.waitFor("question") { $0["number"] == 3 }
        try admin.send(["type": "next", "id": 7])
        let reveal3 = try board.waitFor("reveal") { $0["number"] == 3 }
        #expect(reveal3["scorer"] == .null)
        #expect(reveal3["answer"] == .string(third.answer))
        let scoreboard = try board.waitFor("scoreboard")
        #expect(scoreboard["final"] == true)
        let ranking = scoreboard["ranking"]?.arrayValue ?? []
        #expect(ranking.count == 3)
        #expect(ranking.first { $0["team"] == "Red" }?["score"] == 0)
        #expect(ranking.first { $0["team"] == "Red" }?["rank"] == 3)
        #expect(ranking.allSatisfy { ($0["correct"]?.intValue ?? -1) >= 0 })
        _ = try green.waitForText("Final scoreboard")
        for client in [red, red2, blue, admin] { _ = try client.waitFor("scoreboard") }

        // Every event each client received, in order (session chatter aside).
        func events(_ client: TestClient) -> [String] {
            client.transcriptText.split(separator: "\n").compactMap { line in
                (try? JSONParsing.parse(String(line)))?["type"]?.stringValue
            }.filter {
                ![
                    "lobby", "lobbyUpdate", "teams", "teamsUpdate", "ok", "welcome", "ping", "sync", "pong", "status",
                    "packs",
                ].contains($0)
            }
        }
        let game = ["game", "question", "buzzed", "turn", "buzzed"]
        let firstQuestionEnd = ["result", "turn", "result", "reveal"]
        let secondQuestion = ["question", "buzzed", "turn", "result", "reveal"]
        let lastQuestion = ["question", "reveal", "scoreboard"]
        #expect(events(board) == game + firstQuestionEnd + secondQuestion + lastQuestion)
        #expect(events(blue) == game + ["error"] + firstQuestionEnd + secondQuestion + lastQuestion)
        #expect(
            events(red) == game + ["error"] + firstQuestionEnd + [
                "question", "hint", "buzzed", "turn", "result", "reveal",
            ] + lastQuestion)
        #expect(
            events(red2) == game + firstQuestionEnd + ["question", "hint", "buzzed", "turn", "result", "reveal"]
                + lastQuestion)

        // Secrecy: no answer reaches any client before the reveal of its question; hints only to their team.
        for (name, client) in [
            ("red", red), ("red2", red2), ("blue", blue), ("green", green), ("board", board), ("admin", admin),
        ] {
            // The operator's feed shows each answer to the quizmaster on purpose; nothing else may.
            let text = client.transcriptText.split(separator: "\n").filter { !$0.contains(#""type":"feed""#) }
                .joined(separator: "\n").lowercased()
            for question in ShakyGameTests.questions {
                guard let revealAt = ShakyGameTests.revealIndex(in: text, answer: question.answer.lowercased()) else {
                    Issue.record("\(name) never saw the reveal of \(question.answer)")
                    continue
                }
                let firstMention = text.range(of: question.answer.lowercased())?.lowerBound
                #expect(
                    firstMention == nil || firstMention! >= revealAt, "\(name) saw \(question.answer) before its reveal"
                )
            }
            if client !== red && client !== red2 {
                #expect(!client.transcriptText.contains("\"hint\""), "\(name) received another team's hint")
                #expect(!client.transcriptText.contains("Hint:"), "\(name) received another team's hint")
            }
        }
        host.stop()
    }

    /// Swaps two letters in the middle: a misspelling the forgiving judge accepts.
    static func transposed(_ word: String) -> String {
        var characters = Array(word)
        characters.swapAt(characters.count / 2, characters.count / 2 + 1)
        return String(characters)
    }

    /// Where the reveal of `answer` starts in a transcript (JSON or text).
    static func revealIndex(in text: String, answer: String) -> String.Index? {
        text.range(of: "\"type\":\"reveal\"", options: [], range: nil).flatMap { _ in
            text.ranges(of: "\"answer\":\"\(answer)\"").first?.lowerBound
        } ?? text.range(of: "the answer was: \(answer)")?.lowerBound
    }

    @Test func startIsRefusedWhenThePacksHoldTooFewQuestions() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let ann = try host.join("Ann", team: "Red")  // kept connected: only teams with someone present play
        try admin.send([
            "type": "start", "game": "shaky", "questions": 10, "difficulty": "hard", "packs": [.string(pack)], "id": 2,
        ])
        let error = try admin.waitFor("error") { $0["re"] == 2 }
        #expect(error["code"] == "not_enough_questions")
        #expect(error["message"]?.stringValue?.contains("1") == true)
        withExtendedLifetime(ann) {}
        host.stop()
    }

    @Test func aPlayerJoiningDuringAPauseSeesTheClockAsItStood() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        let red = try host.join("Ann", team: "Red")
        try admin.send(["type": "start", "game": "shaky", "questions": 1, "questionSeconds": 30, "id": 1])
        _ = try red.waitFor("question")
        try admin.send(["type": "pause", "id": 2])
        _ = try red.waitFor("paused")
        usleep(1_500_000)
        let late = try host.join("Bob", team: "Red")
        let question = try late.waitFor("question")
        #expect((question["remainingMs"]?.intValue ?? 0) > 29_000, "the clock kept running while paused: \(question)")
        _ = try late.waitFor("paused")
        host.stop()
    }

    @Test func startNeedsATeam() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        try admin.send(["type": "start", "game": "shaky", "id": 2])
        #expect(try admin.waitFor("error") { $0["re"] == 2 }["code"] == "no_teams")
        host.stop()
    }
}
