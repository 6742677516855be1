import Foundation
import Protocol
import TestSupport
import Testing

/// The Queen's game over real TCP: secret numbers reach their owners only, and the deal is provably fair.
@Suite("Queen's game over TCP", .timeLimit(.minutes(10)))
struct QueenGameTests {
    /// The documented canonical encoding, rebuilt here from PROTOCOL.md rather than taken from the host.
    static func commitment(room: String, round: Int, salt: String, numbers: [String: Int]) -> String {
        var lines = ["partyline-deal-v1", "room=\(room)", "round=\(round)", "salt=\(salt)"]
        for (name, number) in numbers.sorted(by: { $0.value < $1.value }) { lines.append("\(number)=\(name)") }
        return SHA256.hexString(SHA256.hash(Array(lines.joined(separator: "\n").utf8)))
    }

    @Test func threeRoundsWithFivePlayersOneInTextModeAndABoard() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        var players: [String: TestClient] = [:]
        for name in ["Ann", "Bob", "Cy", "Dee"] { players[name] = try host.join(name, team: name) }
        let text = try host.connect()
        _ = try text.waitForText("join ROOM NAME TEAM")
        try text.send(line: "join \(host.room) Eve")
        _ = try text.waitForText("Welcome, Eve")
        let board = try host.board()
        _ = try board.waitFor("lobby") { ($0["players"]?.arrayValue?.count ?? 0) == 5 }

        try admin.send(["type": "start", "game": "queen", "countdownSeconds": 1, "chooseSeconds": 30, "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        var previousQueen: String?
        for roundNumber in 1...3 {
            let round = try board.waitFor("round") { $0["number"] == .number(roundNumber) }
            let queen = try #require(round["queen"]?.stringValue)
            let commitment = try #require(round["commitment"]?.stringValue)
            #expect(commitment.count == 64)
            if let previousQueen { #expect(queen != previousQueen, "the same Queen twice in a row with 5 players") }
            previousQueen = queen

            // Every citizen gets exactly one number, its own; the Queen gets none.
            var dealt: [String: Int] = [:]
            for (name, client) in players {
                _ = try client.waitFor("round") { $0["number"] == .number(roundNumber) }
                if name == queen { continue }
                let secret = try client.waitFor("secret")
                dealt[name] = Int(secret["number"]?.intValue ?? 0)
            }
            if queen != "Eve" {
                let line = try text.waitForText("Your secret number")
                dealt["Eve"] = Int(line.split(separator: " ").compactMap { Int($0) }.first ?? 0)
            } else {
                _ = try text.waitForText("YOU are the Queen")
            }
            #expect(Set(dealt.values) == Set(1...4))

            // The Queen orders.
            if queen == "Eve" {
                try text.send(line: "order No. {1} must sing a song to No. {2}")
            } else {
                let client = try #require(players[queen])
                try client.send(["type": "command", "text": "No. {1} must sing a song to No. {2}", "id": 5])
                _ = try client.waitFor("ok") { $0["re"] == 5 }
            }
            // A citizen cannot command.
            let citizen = try #require(players.first { $0.key != queen }?.value)
            try citizen.send(["type": "command", "template": "b01", "id": 6])
            let refusal = try citizen.waitFor("error") { $0["re"] == 6 }
            #expect(["not_queen", "wrong_phase"].contains(refusal["code"]?.stringValue ?? ""))

            let order = try board.waitFor("order")
            let targets = order["targets"]?.arrayValue?.compactMap { $0.intValue.map(Int.init) } ?? []
            #expect(targets.count == 2 && Set(targets).count == 2)
            #expect(order["text"]?.stringValue == "No. \(targets[0]) must sing a song to No. \(targets[1])")

            let revealed = try board.waitFor("revealed")
            let salt = try #require(revealed["salt"]?.stringValue)
            var numbers: [String: Int] = [:]
            for member in revealed["numbers"]?.objectValue ?? JSONObject() {
                numbers[member.key] = Int(member.value.intValue ?? 0)
            }
            #expect(numbers == dealt, "the reveal matches what each player was dealt")
            #expect(
                QueenGameTests.commitment(room: host.room, round: roundNumber, salt: salt, numbers: numbers)
                    == commitment)
            var tampered = numbers
            if let a = tampered.keys.sorted().first, let b = tampered.keys.sorted().last {
                (tampered[a], tampered[b]) = (tampered[b], tampered[a])
                #expect(
                    QueenGameTests.commitment(room: host.room, round: roundNumber, salt: salt, numbers: tampered)
                        != commitment)
            }
            let targetNames = revealed["targets"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(targetNames == targets.compactMap { number in numbers.first { $0.value == number }?.key })
            for client in players.values { _ = try client.waitFor("revealed") }
            _ = try text.waitForText("Reveal:")
            if roundNumber < 3 {
                try admin.send(["type": "next", "id": .number(100 + roundNumber)])
                _ = try admin.waitFor("ok") { $0["re"] == .number(100 + roundNumber) }
            }
        }

        // Byte capture: before each reveal nobody saw anyone else's number.
        for (name, client) in players {
            let transcript = client.transcriptText
            var secretsPerRound: [Int: Int] = [:]
            for line in transcript.split(separator: "\n") where line.contains("\"type\":\"secret\"") {
                let value = try JSONParsing.parse(String(line))
                secretsPerRound[Int(value["round"]?.intValue ?? 0), default: 0] += 1
            }
            #expect(secretsPerRound.values.allSatisfy { $0 == 1 }, "\(name) got more than its own number in a round")
            // Between two reveals (after the end of the previous reveal line) no deal may appear.
            for (index, segment) in transcript.components(separatedBy: "\"type\":\"revealed\"").dropLast().enumerated()
            {
                let afterPreviousReveal = index == 0 ? Substring(segment) : segment.drop { $0 != "\n" }
                #expect(!afterPreviousReveal.contains("\"numbers\""), "\(name) saw the deal before the reveal")
            }
        }
        #expect(!board.transcriptText.contains("\"type\":\"secret\""))
        #expect(!admin.transcriptText.contains("\"type\":\"secret\""))
        #expect(text.transcriptText.components(separatedBy: "Your secret number").count - 1 <= 3)
        host.stop()
    }

    @Test func tooFewPlayersIsRefusedClearly() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        _ = try host.join("Ann", team: "A")
        _ = try host.join("Bob", team: "B")
        try admin.send(["type": "start", "game": "queen", "id": 1])
        let error = try admin.waitFor("error") { $0["re"] == 1 }
        #expect(error["code"] == "too_few_players")
        #expect(error["message"]?.stringValue?.contains("3") == true)
        host.stop()
    }

    @Test func theLibraryPersistsAcrossARestart() throws {
        let data = TemporaryDirectory()
        do {
            let host = try HostProcess([], data: data.path)
            let admin = try host.admin()
            try admin.send([
                "type": "library", "action": "add", "text": "No. {1} hums the Café song to No. {2}",
                "kind": "citizenToCitizen", "difficulty": "mild", "id": 1,
            ])
            let added = try admin.waitFor("ok") { $0["re"] == 1 }
            #expect(added["message"]?.stringValue?.contains("u1") == true)
            try admin.send(["type": "library", "action": "add", "text": "No. {1} tells No. {2} a riddle", "id": 2])
            _ = try admin.waitFor("ok") { $0["re"] == 2 }
            try admin.send([
                "type": "library", "action": "edit", "commandId": "u2", "text": "No. {1} tells No. {2} a long riddle",
                "id": 3,
            ])
            _ = try admin.waitFor("ok") { $0["re"] == 3 }
            try admin.send(["type": "library", "action": "hide", "commandId": "b01", "id": 4])
            _ = try admin.waitFor("ok") { $0["re"] == 4 }
            try admin.send(["type": "library", "action": "edit", "commandId": "b02", "text": "x {1}", "id": 5])
            #expect(try admin.waitFor("error") { $0["re"] == 5 }["code"] == "read_only")
            let player = try host.join("Ann", team: "A")
            try player.send(["type": "library", "action": "delete", "commandId": "u1", "id": 6])
            #expect(try player.waitFor("error") { $0["re"] == 6 }["code"] == "forbidden")
            #expect(host.stop() == 0)
        }
        let host = try HostProcess(["--fresh"], data: data.path)
        let admin = try host.admin()
        try admin.send(["type": "library", "action": "search", "text": "cafe", "id": 1])
        let found = try admin.waitFor("library") { $0["re"] == 1 }
        let commands = found["commands"]?.arrayValue ?? []
        #expect(commands.count == 1)
        #expect(commands.first?["id"] == "u1")
        try admin.send(["type": "library", "action": "list", "id": 2])
        let list = try admin.waitFor("library") { $0["re"] == 2 }
        let texts = list["commands"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(texts.contains("No. {1} tells No. {2} a long riddle"))
        #expect(!(list["commands"]?.arrayValue ?? []).contains { $0["id"] == "b01" })
        #expect(texts == texts.sorted { $0.lowercased() < $1.lowercased() } || texts.count > 60)
        try admin.send(["type": "library", "action": "delete", "commandId": "u1", "id": 3])
        _ = try admin.waitFor("ok") { $0["re"] == 3 }
        host.stop()
    }
}

/// Secrets across reconnects: a player who drops and comes back sees its own number again, and nobody else's.
@Suite("Queen's secrets across reconnects", .timeLimit(.minutes(10)))
struct QueenReconnectSecrecyTests {
    @Test func aResumedPlayerAndALateBoardSeeOnlyWhatTheyMay() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        var clients: [String: TestClient] = [:]
        for name in ["Ann", "Bob", "Cy", "Dee"] { clients[name] = try host.join(name, team: name) }
        try admin.send(["type": "start", "game": "queen", "countdownSeconds": 1, "chooseSeconds": 60, "id": 1])
        let round = try admin.waitFor("round")
        let queen = try #require(round["queen"]?.stringValue)
        let citizen = try #require(clients.keys.sorted().first { $0 != queen })
        let number = try #require(clients[citizen]?.waitFor("secret")["number"])
        let token = try #require(clients[citizen]?.token)
        clients[citizen] = nil  // the citizen drops mid-round
        let back = try host.connect()
        try back.send(["type": "hello", "room": .string(host.room), "resume": .string(token)])
        _ = try back.waitFor("welcome")
        #expect(try back.waitFor("secret")["number"] == number)
        let lateBoard = try host.board()
        _ = try lateBoard.waitFor("round")
        try clients[queen]!.send(["type": "command", "text": "No. {1} bows to No. {2}"])
        _ = try back.waitFor("revealed")
        _ = try lateBoard.waitFor("revealed")
        for client in [back, lateBoard] {
            let beforeReveal = client.transcriptText.components(separatedBy: "\"type\":\"revealed\"")[0]
            let secrets = beforeReveal.components(separatedBy: "\"type\":\"secret\"").count - 1
            #expect(secrets == (client === back ? 1 : 0))
            #expect(!beforeReveal.contains("\"numbers\""))
        }
        host.stop()
    }
}
