import Foundation
import Net
import Protocol
import TestSupport
import Testing

@testable import Client

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The party's problems with the real `partyline` against a real host over TCP: a player whose client ends comes
/// back, typing an answer early costs nothing, and the Queen's number stays off the screen until asked for.
@Suite("Party-ready: the real client against a real host", .timeLimit(.minutes(10)))
struct PartyReadyEndToEndTests {
    @Test func aKilledClientStartedAgainComesBackAsTheSamePlayerAndQuitFreesTheName() throws {
        let state = TemporaryDirectory()
        let host = try HostProcess.forClients()
        let admin = try host.admin()
        let bob = try host.join("Bob", team: "Blue")
        let cy = try host.join("Cy", team: "Green")
        defer { _ = cy }
        let arguments = ["127.0.0.1:\(host.port)", "--name", "Ann", "--team", "Red", "--room", host.room]
        let ann = try startClient(arguments, stateHome: state.path)
        defer { ann.stop() }
        try ann.waitForLine(containing: "joined room \(host.room) as Ann (Red)")
        try admin.send(["type": "start", "game": "queen", "chooseSeconds": 60, "id": 1])
        let round = try admin.waitFor("round")
        let queen = try #require(round["queen"]?.stringValue)
        let before =
            try queen == "Ann"
            ? ann.waitForLine(containing: "YOU are the Queen") : ann.waitForLine(containing: "Your secret number")

        // Killed (a crash, a closed laptop): started again with the same name, it is the same player.
        #expect(ann.stop(signal: SIGKILL) != 0)
        _ = try bob.waitForState(Lobby.self) { lobby in
            lobby.players.contains { $0.name == "Ann" && $0.connected == false }
        }
        let again = try startClient(arguments, stateHome: state.path)
        defer { again.stop() }
        try again.waitForLine(containing: "joined room \(host.room) as Ann (Red)")
        #expect(again.lines.contains { $0.contains("Coming back as Ann (Red)") })
        if queen == "Ann" {
            try again.waitForLine(containing: "YOU are the Queen")
        } else {
            #expect(try again.waitForLine(containing: "Your secret number") == before, "the same secret number")
        }
        try admin.send(["type": "status", "id": 2])
        let players = try admin.waitFor("status")["players"]?.arrayValue ?? []
        #expect(players.filter { $0["name"] == "Ann" }.count == 1)
        #expect(players.first { $0["name"] == "Ann" }?["connected"] == true)
        #expect(players.count == 3, "no second identity")

        // The place is kept where only this user can read it.
        let file = state.path + "/partyline/places.json"
        var info = stat()
        #expect(stat(file, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)

        // A deliberate quit says goodbye: the name is free at once.
        again.send("/quit")  // the slash: a choosing Queen's bare lines are her order
        #expect(again.waitForExit() == 0)
        let someoneElse = try host.join("Ann", team: "Blue")
        #expect(someoneElse.token != nil)
    }

    @Test func typingAnAnswerBeforeBuzzingOnTheFullScreenCostsNothing() throws {
        let host = try HostProcess.forClients()
        let terminal = try PseudoTerminal(width: 80, height: 24)
        let ann = try startClient(
            ["127.0.0.1:\(host.port)", "--name", "Ann", "--team", "Red", "--room", host.room],
            terminal: terminal.childHandle)
        defer { ann.stop() }
        terminal.closeChildSide()
        try terminal.waitFor("the lobby") { $0.contains("Waiting for the organiser") }
        let rita = try host.join("Rita", team: "Red")
        _ = try host.join("Bob", team: "Blue")
        let admin = try host.admin()
        try admin.send(["type": "start", "game": "shaky", "questions": 1, "questionSeconds": 30])
        let question = try rita.waitFor("question")
        let text = try #require(question["text"]?.stringValue)
        try terminal.waitFor("the question") { $0.contains(String(text.prefix(30))) }

        terminal.type("napoleon bonaparte is")
        let meanwhile = admin.collect(for: 1.0).compactMap { $0["type"]?.stringValue }
        #expect(!meanwhile.contains("buzzed"), "the space did not buzz")
        #expect(!rita.collect(for: 0.2).contains { $0["type"] == "hint" }, "the s did not shake")
        try terminal.waitFor("the draft") { $0.contains("Draft answer › napoleon bonaparte is") }

        terminal.type("\r")  // Enter with a draft buzzes and keeps the draft
        #expect(try admin.waitFor("buzzed")["order"] == ["Red"])
        try terminal.waitFor("the turn with the draft ready") {
            $0.contains("YOUR TURN") && $0.contains("Your answer › napoleon bonaparte is")
        }
        terminal.type("\r")
        let result = try admin.waitFor("result")
        #expect(result["team"] == "Red")
        #expect(result["correct"] == false)
    }

    @Test func theQueensNumberIsHiddenUntilAskedForAndThenSmall() throws {
        let host = try HostProcess.forClients()
        let terminal = try PseudoTerminal(width: 80, height: 24)
        let ann = try startClient(
            ["127.0.0.1:\(host.port)", "--name", "Ann", "--team", "Ann", "--room", host.room],
            terminal: terminal.childHandle)
        defer { ann.stop() }
        terminal.closeChildSide()
        try terminal.waitFor("the lobby") { $0.contains("Waiting for the organiser") }
        var others: [String: TestClient] = [:]
        for name in ["Bob", "Cy", "Dee"] { others[name] = try host.join(name, team: name) }
        let admin = try host.admin()
        try admin.send(["type": "start", "game": "queen", "countdownSeconds": 1, "chooseSeconds": 60, "id": 1])
        var round = try admin.waitFor("round")
        if round["queen"] == "Ann" {
            // Ann rules first; with four players the next Queen is someone else.
            try terminal.waitFor("the library") { $0.contains("You are the Queen") }
            terminal.type("o")
            terminal.type("No. 1 waves\r")
            _ = try admin.waitFor("revealed")
            try admin.send(["type": "next", "id": 2])
            round = try admin.waitFor("round") { $0["number"] == 2 }
        }
        let number = try #require(round["number"]?.intValue)
        var taken = Set<Int64>()
        for (name, client) in others where round["queen"]?.stringValue != name {
            taken.insert(try client.waitFor("secret") { $0["round"] == .int(number) }["number"]?.intValue ?? 0)
        }
        let mine = try #require(Set<Int64>([1, 2, 3]).subtracting(taken).first)

        let hidden = try terminal.waitFor("the hidden number") {
            $0.contains("Round \(number)") && $0.contains("Your secret number is hidden")
        }
        #expect(!hidden.contains("No. \(mine)"))
        #expect(!hidden.contains("keep it to yourself!"), "no big number under a heading")
        terminal.type("h")
        let shown = try terminal.waitFor("the number after h") { $0.contains("Your number:  No. \(mine)") }
        let big = try #require(ScreenRenderer.letterRows(String(mine), fixedCount: 0, style: .big, width: 79))
        let glyph = ScreenText.encode(big[2], isStyled: false, isColorEnabled: false).trimmingCharacters(
            in: .whitespaces)
        #expect(!shown.contains(glyph), "small, not in big digits")
        try terminal.waitFor("the number to hide again") { !$0.contains("No. \(mine)") }
    }
}
