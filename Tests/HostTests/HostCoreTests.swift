import Foundation
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// End-to-end tests of the host core over real TCP against the real `partyline-host` process.
@Suite("Host core over TCP", .timeLimit(.minutes(10)))
struct HostCoreTests {
    @Test func playersJoinTwoTeamsAndEveryoneSeesTheLobby() throws {
        let host = try HostProcess()
        let ann = try host.join("Ann", team: "Red")
        let bob = try host.join("Bob", team: "Blue")
        let cy = try host.join("Cy", team: "réd")  // the same team, whatever the case and accents
        // The lobby is whole once, then its changes (`lobbyUpdate`): followed as a client does.
        let lobby = try ann.waitForState(Lobby.self) { $0.players.count == 3 }
        #expect(lobby.teams == ["Red", "Blue"])
        #expect(lobby.players.contains { $0.name == "Cy" && $0.team == "Red" && $0.connected })
        _ = try bob.waitForState(Lobby.self) { $0.players.count == 3 }
        _ = try cy.waitForState(Lobby.self) { $0.players.count == 3 }
        host.stop()
    }

    @Test func namesThatDifferOnlyInCaseOrAccentsAreTaken() throws {
        let host = try HostProcess()
        _ = try host.join("Zoë", team: "Red")
        let client = try host.connect()
        try client.send(["type": "hello", "room": .string(host.room), "name": "ZOE", "team": "Blue", "id": 1])
        #expect(try client.waitFor("error") { $0["re"] == 1 }["code"] == "name_taken")
        try client.send(["type": "hello", "room": .string(host.room), "name": "Zed", "team": "!!!", "id": 2])
        #expect(try client.waitFor("error") { $0["re"] == 2 }["code"] == "bad_name")
        host.stop()
    }

    @Test func adminNeedsTheKey() throws {
        let host = try HostProcess()
        let intruder = try host.connect()
        try intruder.send(["type": "hello", "room": .string(host.room), "role": "admin", "key": "guess", "id": 3])
        let error = try intruder.waitFor("error")
        #expect(error["code"] == "bad_key")
        #expect(error["re"] == 3)
        let player = try host.join("Ann", team: "Red")
        try player.send(["type": "start", "game": "shaky", "id": 4])
        let forbidden = try player.waitFor("error")
        #expect(forbidden["code"] == "forbidden")
        let admin = try host.admin()
        try admin.send(["type": "status", "id": 5])
        let status = try admin.waitFor("status")
        #expect(status["re"] == 5)
        #expect(status["room"] == .string(host.room))
        host.stop()
    }

    @Test func wrongRoomAndTakenNameGetClearErrorsAndTheConnectionMayRetry() throws {
        let host = try HostProcess()
        _ = try host.join("Ann", team: "Red")
        let client = try host.connect()
        try client.send(["type": "hello", "room": "ZZZZ", "name": "Bob", "team": "Blue"])
        let wrongRoom = try client.waitFor("error")
        #expect(wrongRoom["code"] == "wrong_room")
        #expect(wrongRoom["message"]?.stringValue?.contains("ZZZZ") == true)
        try client.send(["type": "hello", "room": .string(host.room), "name": "ann", "team": "Blue"])
        let taken = try client.waitFor("error")
        #expect(taken["code"] == "name_taken")
        try client.send(["type": "hello", "room": .string(host.room.lowercased()), "name": "Bob", "team": "Blue"])
        let welcome = try client.waitFor("welcome")
        #expect(welcome["name"] == "Bob")
        host.stop()
    }

    @Test func aDroppedPlayerResumesWithItsToken() throws {
        let host = try HostProcess()
        let watcher = try host.join("Watcher", team: "Blue")
        var ann: TestClient? = try host.join("Ann", team: "Red")
        let token = try #require(ann?.token)
        #expect(token.count == 32)
        ann = nil  // drops the connection
        _ = try watcher.waitForState(Lobby.self) { lobby in
            lobby.players.contains { $0.name == "Ann" && $0.connected == false }
        }
        let again = try host.connect()
        try again.send(["type": "hello", "room": .string(host.room), "resume": .string(token)])
        let welcome = try again.waitFor("welcome")
        #expect(welcome["name"] == "Ann")
        #expect(welcome["team"] == "Red")
        let lobby = try watcher.waitForState(Lobby.self) { lobby in
            lobby.players.contains { $0.name == "Ann" && $0.connected == true }
        }
        #expect(lobby.players.filter { $0.name == "Ann" }.count == 1)
        let impostor = try host.connect()
        try impostor.send(["type": "hello", "room": .string(host.room), "resume": "00000000000000000000000000000000"])
        #expect(try impostor.waitFor("error")["code"] == "bad_token")
        host.stop()
    }

    @Test func badInputGetsErrorsAndTheSameConnectionThenJoins() throws {
        let host = try HostProcess()
        let client = try host.connect()
        try client.send(line: "{\"type\":\"hello\",")
        #expect(try client.waitFor("error")["code"] == "bad_json")
        try client.send(
            raw: Array(repeating: UInt8(ascii: "{"), count: 1) + Array(repeating: UInt8(ascii: "x"), count: 100 * 1024)
                + [0x0A])
        #expect(try client.waitFor("error")["code"] == "line_too_long")
        try client.send(raw: [0x7B, 0x00, 0x01, 0xC3, 0x28, 0xFE, 0x80, 0x0A])
        #expect(try client.waitFor("error")["code"] == "bad_json")
        try client.send(line: "[1,2,3]")
        #expect(try client.waitFor("error")["code"] == "bad_json")
        try client.send(["type": "teleport", "id": "x"])
        let unknown = try client.waitFor("error")
        #expect(unknown["code"] == "unknown_type")
        #expect(unknown["re"] == "x")
        try client.send(["type": "buzz"])
        #expect(try client.waitFor("error")["code"] == "not_joined")
        try client.send(["type": "hello", "room": .string(host.room), "name": "Ann", "team": 7])
        #expect(try client.waitFor("error")["code"] == "bad_field")
        try client.send(["type": "ping", "id": 7])
        let pong = try client.waitFor("pong")
        #expect(pong["re"] == 7)
        #expect(pong["hostTime"]?.intValue != nil)
        try client.send(["type": "hello", "room": .string(host.room), "name": "Ann", "team": "Red"])
        #expect(try client.waitFor("welcome")["name"] == "Ann")
        host.stop()
    }

    @Test func binaryFirstLineThenJSONStillJoins() throws {
        let host = try HostProcess()
        let client = try host.connect()
        try client.send(raw: [0x00, 0x01, 0x02, 0xFF, 0xFB, 0x01, 0x9C, 0x0A])
        _ = try client.nextLine()
        try client.send(["type": "hello", "room": .string(host.room), "name": "Bin", "team": "Red"])
        #expect(try client.waitFor("welcome")["name"] == "Bin")
        host.stop()
    }

    @Test func aTextModeConnectionSeesHowToJoinAndPlainText() throws {
        let host = try HostProcess()
        let person = try host.connect()
        // Unasked: the banner comes by itself to a connection that sends nothing (how soon is the bench's business).
        let banner = try person.waitForText("join ROOM NAME TEAM")
        #expect(!banner.hasPrefix("{"))
        // telnet negotiation bytes in front of the command are stripped
        try person.send(raw: [255, 251, 31, 255, 253, 3] + Array("join \(host.room.lowercased()) Tex Green\r\n".utf8))
        _ = try person.waitForText("Welcome, Tex")
        try person.send(line: "scores")
        try person.send(line: "buzz")
        _ = try person.waitForText("No game is running")
        let player = try host.join("Ann", team: "Red")
        _ = try player.waitFor("lobby")
        _ = try person.waitForText("Ann")
        // The welcome showed a short rejoin code on its own line; with it the person comes back from anywhere.
        let lines = person.transcriptText.split(separator: "\r\n")
        let codeLine = try #require(lines.first { $0.hasPrefix("Your rejoin code: ") })
        let code = try #require(codeLine.split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(codeLine.contains("rejoin Tex \(code)"))
        let back = try host.connect()
        _ = try back.waitForText("rejoin NAME CODE")
        try back.send(line: "rejoin Tex \(code)")
        _ = try back.waitForText("Welcome, Tex")
        _ = try person.waitForText("You joined again from another connection")
        // A goodbye frees the name at once.
        try back.send(line: "quit")
        #expect(back.waitForClose())
        let again = try host.connect()
        try again.send(line: "join \(host.room) Tex Blue")
        _ = try again.waitForText("Welcome, Tex! You play for team Blue")
        let text = person.transcriptText
        #expect(!text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("{") }, "text mode got JSON: \(text)")
        host.stop()
    }

    @Test func aClientThatNeverReadsIsCutOffWhileOthersKeepReceiving() throws {
        let host = try HostProcess(["--rate", "1000000", "--max-output-kb", "64"])
        let sluggard = try host.join("Slow", team: "Red")
        let other = try host.join("Fast", team: "Blue")
        let ping = Array(#"{"type":"ping","id":123456789}"#.utf8) + [0x0A]
        var batch: [UInt8] = []
        for _ in 0..<2000 { batch.append(contentsOf: ping) }
        var cut = false
        for _ in 0..<200 where !cut {
            do { try sluggard.send(raw: batch) } catch { cut = true }
            usleep(1000)
        }
        try other.send(["type": "ping", "id": 1])
        #expect(try other.waitFor("pong")["re"] == 1)
        let lobby = try other.waitFor("lobby") { lobby in
            lobby["players"]?.arrayValue?.contains { $0["name"] == "Slow" && $0["connected"] == false } == true
        }
        #expect(lobby["type"] == "lobby")
        host.stop()
        #expect(host.errorOutput().contains("stopped reading"))
    }

    @Test func anHTTPRequestOfAnotherMethodGets405AndIsClosed() throws {
        let host = try HostProcess()
        let browser = try host.connect()
        try browser.send(raw: Array("POST / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(browser.waitForClose())
        let text = browser.transcriptText
        #expect(text.hasPrefix("HTTP/1.1 405"))
        #expect(text.contains("Allow: GET, HEAD"))
        #expect(text.contains("Partyline"))
        host.stop()
    }

    @Test func theExtraConnectionOverMaxClientsGetsAnError() throws {
        let host = try HostProcess(["--max-clients", "2"])
        let first = try host.connect()
        let second = try host.connect()
        for (index, client) in [first, second].enumerated() {  // both are taken in before the third knocks
            try client.send(["type": "ping", "id": .int(Int64(index))])
            _ = try client.waitFor("pong")
        }
        let third = try host.connect()
        let error = try third.waitFor("error")
        #expect(error["code"] == "full")
        #expect(third.waitForClose())
        host.stop()
    }

    @Test func sigtermTellsClientsAndExitsCleanly() throws {
        let host = try HostProcess()
        let ann = try host.join("Ann", team: "Red")
        host.console("start shaky 1 easy")
        _ = try ann.waitFor("question")
        let status = host.stop(signal: SIGTERM)
        #expect(status == 0)
        #expect(try ann.waitFor("closing")["reason"]?.stringValue?.isEmpty == false)
        #expect(
            host.errorOutput().contains("Starting the host again brings the game back where it stood."),
            "stopped mid-game, the organiser learns the game is not lost")
    }

    @Test func theConsoleRunsTheShow() throws {
        let host = try HostProcess([], data: nil)
        let ann = try host.join("Ann", team: "Red")
        host.console("start shaky 1 easy question-seconds=30")
        _ = try ann.waitFor("question")
        host.console("kick Ann")
        #expect(try ann.waitFor("error")["code"] == "kicked")
        #expect(ann.waitForClose())
        let again = try host.connect()
        try again.send(["type": "hello", "room": .string(host.room), "resume": .string(ann.token ?? "")])
        #expect(try again.waitFor("error")["code"] == "bad_token")
        host.stop()
    }
}
