import Foundation
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash recovery from the journal, atomic files, limits and refusals, against the real host process.
@Suite("Reliability and security", .timeLimit(.minutes(10)))
struct ReliabilityTests {
    @Test func aHostKilledMidQuestionComesBackWithTheSameRoomScoresAndQuestion() throws {
        let data = TemporaryDirectory()
        let first = try HostProcess(["--reveal-seconds", "1"], data: data.path)
        let admin = try first.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let red = try first.join("Ann", team: "Red")
        let blue = try first.join("Bob", team: "Blue")
        try admin.send([
            "type": "start", "game": "shaky", "questions": 2, "packs": [.string(pack)], "questionSeconds": 60,
            "answerSeconds": 60, "revealSeconds": 1, "id": 1,
        ])
        let q1 = try red.waitFor("question")
        let answer1 = try #require(ShakyGameTests.questions.first { $0.text == q1["text"]?.stringValue }?.answer)
        try red.send(["type": "buzz"])
        _ = try red.waitFor("turn") { $0["team"] == "Red" }
        try red.send(["type": "answer", "text": .string(answer1)])
        let reveal1 = try red.waitFor("reveal")
        let redScore = reveal1["scores"]?.arrayValue?.first { $0["team"] == "Red" }?["score"]?.intValue ?? 0
        #expect(redScore > 0)
        let q2 = try blue.waitFor("question") { $0["number"] == 2 }
        let answer2 = try #require(ShakyGameTests.questions.first { $0.text == q2["text"]?.stringValue }?.answer)
        try blue.send(["type": "buzz"])
        _ = try blue.waitFor("turn") { $0["team"] == "Blue" }
        first.stop(signal: SIGKILL)

        let second = try HostProcess(["--resume", "--reveal-seconds", "1"], data: data.path)
        #expect(second.room == first.room)
        #expect(second.adminKey == first.adminKey)
        let blueAgain = try second.connect()
        try blueAgain.send(["type": "hello", "room": .string(second.room), "resume": .string(blue.token ?? "")])
        let welcome = try blueAgain.waitFor("welcome")
        #expect(welcome["name"] == "Bob")
        let question = try blueAgain.waitFor("question")
        #expect(question["number"] == 2)
        #expect(question["text"] == q2["text"])
        #expect(question["letters"] == q2["letters"])  // same seed, same scramble
        #expect((question["remainingMs"]?.intValue ?? 0) > 10_000)  // the buzz clock restarts where the journal left it
        #expect(try blueAgain.waitFor("turn")["team"] == "Blue")
        let redAgain = try second.connect()
        try redAgain.send(["type": "hello", "room": .string(second.room), "resume": .string(red.token ?? "")])
        _ = try redAgain.waitFor("welcome")
        try redAgain.send(["type": "scores", "id": 4])
        let scores = try redAgain.waitFor("scores") { $0["re"] == 4 }
        #expect(scores["ranking"]?.arrayValue?.first { $0["team"] == "Red" }?["score"]?.intValue == redScore)
        try blueAgain.send(["type": "answer", "text": .string(answer2)])
        let board = try redAgain.waitFor("scoreboard")
        let ranking = board["ranking"]?.arrayValue ?? []
        #expect(ranking.first { $0["team"] == "Red" }?["score"]?.intValue == redScore)
        #expect((ranking.first { $0["team"] == "Blue" }?["score"]?.intValue ?? 0) > 0)
        second.stop()
        let history = try HostProcess.runHistory(data: data.path)
        #expect(history.contains("shaky"))
    }

    @Test func aHostKilledMidQueenRoundDealsTheSameNumbersAfterRestart() throws {
        let data = TemporaryDirectory()
        let first = try HostProcess([], data: data.path)
        let admin = try first.admin()
        var clients: [String: TestClient] = [:]
        for name in ["Ann", "Bob", "Cy", "Dee"] { clients[name] = try first.join(name, team: name) }
        try admin.send(["type": "start", "game": "queen", "countdownSeconds": 1, "chooseSeconds": 60, "id": 1])
        let round = try admin.waitFor("round")
        let queen = try #require(round["queen"]?.stringValue)
        var numbers: [String: Int64] = [:]
        for (name, client) in clients where name != queen {
            numbers[name] = try client.waitFor("secret")["number"]?.intValue
        }
        first.stop(signal: SIGKILL)

        let second = try HostProcess(["--resume"], data: data.path)
        var again: [String: TestClient] = [:]
        for (name, client) in clients {
            let connection = try second.connect()
            try connection.send(["type": "hello", "room": .string(second.room), "resume": .string(client.token ?? "")])
            _ = try connection.waitFor("welcome")
            let snapshotRound = try connection.waitFor("round")
            #expect(snapshotRound["commitment"] == round["commitment"])
            if name != queen { #expect(try connection.waitFor("secret")["number"]?.intValue == numbers[name]) }
            again[name] = connection
        }
        try again[queen]!.send(["type": "command", "text": "No. {1} waves at No. {2}"])
        let revealed = try again[queen]!.waitFor("revealed")
        for (name, number) in numbers { #expect(revealed["numbers"]?[name]?.intValue == number) }
        second.stop()
    }

    @Test func aTornLastRecordLoadsAndSaysSoWhileDamageElsewhereIsRefused() throws {
        let data = TemporaryDirectory()
        let first = try HostProcess([], data: data.path)
        _ = try first.join("Ann", team: "Red")
        _ = try first.join("Bob", team: "Blue")
        first.stop(signal: SIGKILL)
        let journal = data.path + "/journal.jsonl"
        let whole = try #require(FileManager.default.contents(atPath: journal))
        var torn = whole
        torn.append(Data("0badf00d {\"k\":\"join\",\"pla".utf8))
        #expect(FileManager.default.createFile(atPath: journal, contents: torn))
        let second = try HostProcess(["--resume"], data: data.path)
        #expect(second.room == first.room)
        let admin = try second.admin()
        try admin.send(["type": "status", "id": 1])
        let status = try admin.waitFor("status")
        #expect(status["players"]?.arrayValue?.count == 2)
        second.stop()
        #expect(second.errorOutput().contains("cut short"))

        var lines = String(decoding: whole, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        lines[1] = "12345678 {\"k\":\"join\"}"  // a checksum that does not match
        #expect(FileManager.default.createFile(atPath: journal, contents: Data(lines.joined(separator: "\n").utf8)))
        let refused = try ChildProcess.run(
            BuiltProducts.path("partyline-host"),
            ["--port", "0", "--data", data.path, "--resume", "--no-discovery", "--no-console"])
        #expect(refused.terminationStatus != 0)
        let message = refused.errors
        #expect(message.contains("damaged at line"))
    }

    @Test func packFilesAreNeverHalfWrittenWhenTheHostIsKilledWhileSaving() throws {
        let data = TemporaryDirectory()
        for attempt in 0..<3 {
            let host = try HostProcess(["--rate", "100000"], data: data.path)
            let admin = try host.admin()
            if attempt == 0 {
                try admin.send(["type": "packs", "action": "create", "name": "Churn", "id": 1])
                _ = try admin.waitFor("ok")
            }
            var batch: [UInt8] = []
            for index in 0..<400 {
                let question: JSONValue = [
                    "difficulty": "easy",
                    "text": .string("Question \(attempt)-\(index) about \(String(repeating: "x", count: 200))?"),
                    "answer": .string("Answer\(index % 7)z"),
                ]
                batch += JSONEncoding.encodeLine([
                    "type": "packs", "action": "add", "pack": "churn", "question": question,
                ])
            }
            try admin.send(raw: batch)
            usleep(useconds_t(30_000 + attempt * 20_000))
            host.stop(signal: SIGKILL)
            let packs = try FileManager.default.contentsOfDirectory(atPath: data.path + "/packs").filter {
                $0.hasSuffix(".json") && !$0.hasPrefix(".")
            }
            for file in packs {
                let bytes = try #require(FileManager.default.contents(atPath: data.path + "/packs/" + file))
                #expect((try? JSONParsing.parse(Array(bytes))) != nil, "\(file) is not whole JSON after a kill")
            }
        }
    }

    @Test func aFloodOfMessagesIsRateLimitedThenClosed() throws {
        let host = try HostProcess(["--rate", "20"])
        let flooder = try host.join("Flo", team: "Red")
        let bystander = try host.join("Bea", team: "Blue")
        var batch: [UInt8] = []
        for index in 0..<60 { batch += JSONEncoding.encodeLine(["type": "ping", "id": .number(index)]) }
        try flooder.send(raw: batch)
        let limited = try flooder.waitFor("error") { $0["code"] == "rate_limited" }
        #expect(limited["message"]?.stringValue?.contains("20") == true)
        var closed = false
        for _ in 0..<40 where !closed {
            do { try flooder.send(raw: batch) } catch { closed = true }
            closed = closed || !flooder.pump(timeout: 0.05)
            usleep(50_000)
        }
        #expect(closed || flooder.waitForClose())
        try bystander.send(["type": "ping", "id": 1])
        #expect(try bystander.waitFor("pong")["re"] == 1)
        host.stop()
    }

    @Test func buzzSpamCannotChangeATeamsPlace() throws {
        let host = try HostProcess(["--rate", "1000"])
        let admin = try host.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let red = try host.join("Ann", team: "Red")
        let blue = try host.join("Bob", team: "Blue")
        try admin.send(["type": "start", "game": "shaky", "questions": 1, "packs": [.string(pack)], "id": 1])
        _ = try red.waitFor("question")
        try red.send(["type": "buzz"])
        _ = try blue.waitFor("turn") { $0["team"] == "Red" }
        var spam: [UInt8] = []
        for _ in 0..<50 { spam += JSONEncoding.encodeLine(["type": "buzz"]) }
        try blue.send(raw: spam)
        try red.send(raw: spam)
        let order = try admin.waitFor("buzzed") { $0["order"] == ["Red", "Blue"] }
        #expect(order["order"] == ["Red", "Blue"])
        let later = admin.collect(for: 0.5).filter { $0["type"] == "buzzed" }
        #expect(later.allSatisfy { $0["order"] == ["Red"] || $0["order"] == ["Red", "Blue"] })  // places never change
        host.stop()
    }

    @Test func aSilentConnectionIsClosedAndItsPlayerShownDisconnected() throws {
        let host = try HostProcess(["--idle-timeout", "2"])
        let silent = try host.join("Sid", team: "Red")
        let talker = try host.join("Tia", team: "Blue")
        // The talker answers keepalive pings; the silent one never does.
        var sawDisconnect = false
        let deadline = Date().addingTimeInterval(6)
        while Date() < deadline && !sawDisconnect {
            for message in talker.collect(for: 0.3) {
                if message["type"] == "ping" { try talker.send(["type": "pong"]) }
                if message["type"] == "lobby",
                    message["players"]?.arrayValue?.contains(where: { $0["name"] == "Sid" && $0["connected"] == false })
                        == true
                {
                    sawDisconnect = true
                }
            }
        }
        #expect(sawDisconnect)
        #expect(silent.waitForClose())
        let again = try host.connect()
        try again.send(["type": "hello", "room": .string(host.room), "resume": .string(silent.token ?? "")])
        #expect(try again.waitFor("welcome")["name"] == "Sid")
        host.stop()
    }

    @Test func everyOperatorActionNeedsTheAdminKey() throws {
        let host = try HostProcess()
        let player = try host.join("Ann", team: "Red")
        let board = try host.board()
        let requests: [JSONObject] = [
            ["type": "start", "game": "shaky"], ["type": "next"], ["type": "pause"], ["type": "continue"],
            ["type": "end"],
            ["type": "kick", "name": "Ann"], ["type": "status"],
            ["type": "library", "action": "add", "text": "No. {1} sings"],
            ["type": "library", "action": "hide", "commandId": "b01"],
            ["type": "packs", "action": "create", "name": "Mine"], ["type": "packs", "action": "list"],
        ]
        for (index, request) in requests.enumerated() {
            for client in [player, board] {
                var message = request
                message["id"] = .number(index)
                try client.send(message)
                #expect(try client.waitFor("error") { $0["re"] == .number(index) }["code"] == "forbidden", "\(request)")
            }
        }
        try board.send(["type": "buzz", "id": 99])
        #expect(try board.waitFor("error") { $0["re"] == 99 }["code"] == "forbidden")
        host.stop()
    }
}

extension HostProcess {
    /// Runs `partyline-host history` on a data folder and returns what it printed.
    static func runHistory(data: String) throws -> String {
        try ChildProcess.run(BuiltProducts.path("partyline-host"), ["history", "--data", data]).output
    }
}
