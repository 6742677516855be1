import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// An `nc` player across a host restart (issue #27): the goodbye says how to come back, and joining again with the
/// same name from the same computer works after the restart as README promises.
@Suite("Text players: a host restart, a locked room, a challenge (issue #27)")
struct TextRestartTests {
    @Test func theGoodbyeSaysHowToComeBackAndTheSameComputerJoinsByNameAfterARestart() throws {
        let first = try EmbeddedHost()
        let nc = first.connect(peer: "10.0.0.5")
        nc.send(line: "join ROOM Ann Red")
        let welcome = nc.text()
        let code = try #require(
            welcome.split(separator: "\n").first { $0.hasPrefix("Your rejoin code: ") }?
                .dropFirst("Your rejoin code: ".count).prefix { $0 != " " })
        _ = try first.player("Bob", team: "Blue")
        first.console("start shaky 3 easy")
        _ = nc.text()
        // The organiser stops the host (Ctrl-C): the goodbye is no farewell for ever.
        first.core.shutDown()
        first.turn()
        let goodbye = nc.text()
        #expect(goodbye.contains("rejoin Ann \(code)"), "\(goodbye)")
        first.core.storage.syncJournal()

        // Started again with --resume: the same computer joins by name and is back in its place.
        let second = try EmbeddedHost()
        second.advance(by: first.now - second.now)
        second.core.adopt(try JournalReplay.load(path: first.core.storage.journalPath))
        let again = second.connect(peer: "10.0.0.5")
        again.send(line: "join ROOM Ann Red")
        let back = again.text()
        #expect(back.contains("Welcome, Ann! You play for team Red."), "\(back)")
        #expect(!back.contains("is taken"), "\(back)")
        // Another computer still cannot take the name.
        let stranger = second.connect(peer: "10.0.0.9")
        stranger.send(line: "join ROOM Bob Blue")
        #expect(stranger.text().contains("The name \"Bob\" is taken"))
    }

    /// A newcomer to a locked room who types a pick at `nc` reads that they play in the next game, not that their
    /// team does not exist (issue #27).
    @Test func aLockedRoomsNewcomerIsToldTheyPlayTheNextGame() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("lock")
        host.console("start outsider 3")
        let yan = host.connect()
        yan.send(line: "join ROOM Yan Orange")
        #expect(yan.text().contains("the room is locked: you play in the next game"))
        yan.send(line: "2")
        let reply = yan.text()
        #expect(reply.contains("you play in the next one"), "\(reply)")
        #expect(!reply.contains("There is no team called"), "\(reply)")
        // Nothing waits for their answer: a command needs no /.
        yan.send(line: "scores")
        #expect(yan.text().contains("Scores: "))
    }

    /// A Let Me Fly challenge to a player already higher says so, instead of passing silently (issue #27).
    @Test func aChallengeToSomeoneAlreadyHigherSaysSo() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let cid = host.connect()
        cid.send(line: "join ROOM Cid Green")
        host.console("start fly 3 round-seconds=30 break-seconds=0")
        /// Throws `who`'s phone now and catches it at its landing.
        func throwAndCatch(_ who: String, _ player: EmbeddedConnection) throws {
            player.send(["type": "throw"])
            guard case .inAir(let thrown)? = try FlyModeTests.game(host).game.player(named: who)?.turn else {
                Issue.record("\(who)'s phone is not up")
                return
            }
            host.advance(by: thrown.landsAt.milliseconds - host.now)
            player.send(["type": "catch"])
        }
        host.advance(by: 800)  // full power for Bob
        try throwAndCatch("Bob", bob)
        host.advance(by: 1_600 - (host.now % 1_600) + 400)  // a quarter of the sweep for Ann: lower
        try throwAndCatch("Ann", ann)
        _ = cid.text()
        ann.send(["type": "challenge", "player": "Bob"])
        let challenged = try bob.expect("challenged")
        #expect(challenged["bestM"] != nil, "\(challenged)")
        #expect(
            (try? JSONCoding.decode(FlyWire.Challenged.self, from: challenged))?.line(
                for: Perspective(team: "Blue", name: "Bob"))?
                .contains("Your best is already") == true)
        let line = cid.text()
        #expect(line.contains("Bob's best is already"), "\(line)")
    }

    /// The Queen's reveal says the order again with the names in it (issue #27).
    @Test func theQueensRevealRestatesTheOrderWithNames() throws {
        let host = try EmbeddedHost()
        var players: [String: EmbeddedConnection] = [:]
        for (name, team) in [("Ann", "Red"), ("Bob", "Blue"), ("Cid", "Green")] {
            players[name] = try host.player(name, team: team)
        }
        host.console("start queen")
        let round = try #require((host.core.room.game as? QueenHost)?.game.currentRound)
        try #require(players[round.queen]).send(["type": "command", "text": "No. {1} hops on one leg"])
        host.advance(by: 30_000)
        let board = try #require(players.first { $0.key != round.queen }?.value)
        let revealed = try board.expect("revealed")
        let order = try #require(revealed["order"]?.stringValue, "\(revealed)")
        let holders = round.numbers.filter { order.contains("No. \($0.value) (\($0.key))") }
        #expect(holders.count == 1 && order.hasSuffix("hops on one leg"), "\(order)")
        let decoded = try JSONCoding.decode(QueenWire.Revealed.self, from: revealed)
        #expect(decoded.line(for: Perspective())?.contains("The order: No. ") == true)
    }
}
