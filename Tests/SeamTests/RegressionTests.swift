import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Problems found while documenting the protocol against the code, each held by a test.
@Suite("Regressions found by the protocol review")
struct RegressionTests {
    @Test func aTeamReformedInAnotherCaseStillPlaysAsItself() throws {
        var options = EmbeddedHost.defaultOptions
        options.resumeWindowSeconds = 1
        let host = try EmbeddedHost(options: options)
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start shaky 2")
        ann.send(["type": "bye"])
        host.advance(by: 2_500)  // Ann's resume window ends: team Red has nobody left in the room
        #expect(host.core.room.room.player(named: "Ann") == nil)
        let cid = try host.player("Cid", team: "red")
        cid.send(["type": "buzz", "id": 1])
        #expect(try cid.expect("ok")["re"] == 1, "the game knows the team as Red; the buzz counts for it")
    }

    @Test func aBoardJoiningWhileTheFirstBuzzSettlesDoesNotSeeIt() throws {
        var options = EmbeddedHost.defaultOptions
        options.isFairnessEnabled = true
        let host = try EmbeddedHost(options: options)
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        host.console("start shaky 1")
        ann.send(["type": "buzz"])
        let board = try host.watcher(.board)
        #expect(!board.types().contains("buzzed"), "the order is private until the head has settled")
        #expect(!bob.types().contains("buzzed"))
        host.advance(by: 200)
        #expect(try board.expect("buzzed")["order"] == ["Red"])
    }

    @Test func aPlayerAwayAtTheStartOfTheQueensGameIsDealtInWhenBack() throws {
        let host = try EmbeddedHost()
        var connections: [String: EmbeddedConnection] = [:]
        for name in ["Ann", "Bob", "Cid", "Dee"] { connections[name] = try host.player(name, team: name) }
        let welcome = connections["Dee"]!.received.first { $0["type"] == "welcome" }
        let token = try #require(welcome?["token"]?.stringValue)
        connections["Dee"]!.drop()
        host.console("start queen")
        let game = try #require(host.core.room.game as? QueenHost)
        #expect(!game.game.players.contains("Dee"))
        let back = host.connect()
        back.send(["type": "hello", "room": "ROOM", "resume": .string(token)])
        #expect(game.game.players.contains("Dee"), "Dee is dealt in from the next deal")
        #expect(!back.types().contains("notice"), "no confusing notice for a returning player")
    }

    @Test func anOperatorOnATextConnectionCanContinueAPausedGame() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let operatorText = host.connect()
        operatorText.send(line: "admin ROOM secret-key")
        host.console("start shaky 1")
        operatorText.send(line: "pause")
        #expect(host.core.room.game?.statusLine.contains("paused") == true)
        operatorText.send(line: "resume")
        #expect(host.core.room.game?.statusLine.contains("paused") == false, "resume is continue for an operator")
        operatorText.send(line: "help")
        #expect(operatorText.text().contains("quit (you leave; the game goes on)"))
    }

    @Test func aBoardGetsTheLobbyOnceWhenItJoins() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let board = try host.watcher(.board)
        #expect(board.types().filter { $0 == "lobby" }.count == 1)
    }

    @Test func startReadsEveryPackWord() {
        var games = StartGrammars()
        games.add(ShakyWire.startGrammar, names: ["shaky"])
        #expect(
            TextCommandParsing.parse("start shaky 3 science,animals zzz", games: games)
                == .message(.start(game: "shaky", options: ["questions": 3, "packs": ["science", "animals", "zzz"]])))
    }
}
