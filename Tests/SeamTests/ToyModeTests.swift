import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The recipe works: a mode added by following README's "Adding a game mode" plays end to end in-process.
@Suite("A toy mode added by the recipe")
struct ToyModeTests {
    @Test func coinTossPlaysFromStartToScoreboardOverTheSeam() throws {
        let host = try EmbeddedHost(catalog: .withCoinToss)
        let ann = try host.player("Ann", team: "Red")
        var bob = Watcher(try host.player("Bob", team: "Blue"), role: .player, name: "Bob", team: "Blue")
        bob.state.catalog = .withCoinToss
        // a nc player, to show text mode reads the mode's own commands
        let cleo = host.connect()
        cleo.send(line: "join ROOM Cleo Green")
        #expect(cleo.text().contains("Welcome, Cleo"))

        #expect(host.console("start coin 2") == ["Started Coin toss."])
        bob.update()
        #expect(bob.state.game is CoinView)
        #expect(bob.state.isGameRunning)
        #expect(bob.screen().contains { $0.contains("Round 1: heads or tails?") })

        ann.send(["type": "call", "side": "heads"])
        // The client's keys come from the mode's view.
        let press = bob.state.handle(.character("t"), at: host.now)
        guard case .send(let call)? = press.first else {
            Issue.record("t did not send a call: \(press)")
            return
        }
        bob.connection.send(call.objectValue ?? [:])
        cleo.send(line: "heads")
        bob.update()
        let coin = try #require(bob.state.game as? CoinView)
        #expect(coin.round == 2, "everyone called, so the coin flipped and round 2 opened")
        #expect(coin.scores.map(\.score).reduce(0, +) >= 1, "at least one side was right")
        #expect(cleo.text().contains("It is"))

        // Nobody calls in round 2: the clock flips the coin and ends the game.
        host.advance(by: 10_000)
        bob.update()
        let over = try #require(bob.state.game as? CoinView)
        #expect(over.isOver)
        #expect(!bob.state.isGameRunning)
        #expect(host.core.room.game == nil)

        // Wrong input in the mode's vocabulary gets the mode's clear error, and the connection keeps working.
        host.console("start coin 1")
        ann.send(["type": "call", "side": "edge", "id": 9])
        let refusal = try ann.expect("error")
        #expect(refusal["code"] == "bad_field")
        #expect(refusal["re"] == 9)
        ann.send(["type": "buzz"])
        #expect(try ann.expect("error")["code"] == "wrong_game")
    }

    @Test func theToyModeJournalsAndReplaysLikeTheBuiltInOnes() throws {
        let host = try EmbeddedHost(catalog: .withCoinToss)
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start coin 3")
        ann.send(["type": "call", "side": "tails"])
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath, catalog: .withCoinToss)
        let game = try #require(replayed.game as? CoinHost)
        let live = try #require(host.core.room.game as? CoinHost)
        #expect(game.game == live.game, "the journal replays to exactly the state the players saw")
        #expect(game.game.calls["Red"] == .tails)
    }
}
