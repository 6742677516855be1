import Foundation
import Protocol
import Testing

@testable import Host
@testable import Rules

/// The work a hall's press costs the loop, counted rather than timed (#28: a Let Me Fly round of 1,100 players within
/// one host CPU-second): the settle window is kept as the players' clocks change instead of walking them all per
/// press, and an event of Let Me Fly changes the players it touches in place, putting them back when it is refused.
@Suite("A hall's per-press work")
struct HallWorkTests {
    /// A clock whose widest recent round trip is `milliseconds` (its backdate allowance, with no kernel figure).
    static func clock(roundTrip milliseconds: Int64) -> ClockEstimator {
        var clock = ClockEstimator()
        clock.add(ClockSample(hostSent: 0, clientReceived: 0, clientSent: 0, hostReceived: milliseconds))
        return clock
    }

    /// What walking every connected player's clock (the old way) says the settle window is.
    static func walked(_ sessions: Sessions) -> Int64 {
        let widest = sessions.playerSessions.values.compactMap { sessions.sessions[$0]?.clock.backdateAllowance }.max()
        return min(PressEstimate.maximumBackdate, max(10, widest ?? 0))
    }

    @Test("the settle window follows the players' clocks through joins, drops, replacements and changes")
    func settleWindowFollowsClocks() throws {
        let host = try EmbeddedHost()
        let sessions = host.core.sessions
        #expect(sessions.settleWindow() == 10, "nobody measured: the floor")
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let annSession = try #require(sessions.sessions[ann.id])
        let bobSession = try #require(sessions.sessions[bob.id])
        annSession.clock = HallWorkTests.clock(roundTrip: 40)
        #expect(sessions.settleWindow() == 40)
        bobSession.clock = HallWorkTests.clock(roundTrip: 90)
        #expect(sessions.settleWindow() == 90)
        bobSession.clock = HallWorkTests.clock(roundTrip: 500)
        #expect(sessions.settleWindow() == PressEstimate.maximumBackdate, "capped")
        bobSession.clock.notePathRoundTrip(25)
        #expect(sessions.settleWindow() == 40, "the kernel's path round trip caps Bob's; Ann's is the widest")
        #expect(sessions.settleWindow() == HallWorkTests.walked(sessions))

        // Ann comes back on another connection: her old one no longer counts, her new one does once measured.
        let token = try #require(ann.received.first { $0["type"] == "welcome" }?["token"]?.stringValue)
        let again = host.connect()
        again.send(["type": "hello", "room": "ROOM", "resume": .string(token)])
        _ = try again.expect("welcome")
        #expect(sessions.settleWindow() == 25, "Ann's replaced connection left the tally")
        #expect(sessions.settleWindow() == HallWorkTests.walked(sessions))
        try #require(sessions.sessions[again.id]).clock = HallWorkTests.clock(roundTrip: 60)
        #expect(sessions.settleWindow() == 60)

        // A dropped player's clock no longer counts; a board's never did.
        again.drop()
        #expect(sessions.settleWindow() == 25)
        let board = try host.watcher(.board)
        try #require(sessions.sessions[board.id]).clock = HallWorkTests.clock(roundTrip: 120)
        #expect(sessions.settleWindow() == 25)
        bob.drop()
        #expect(sessions.settleWindow() == 10)
        #expect(sessions.settleWindow() == HallWorkTests.walked(sessions))
    }

    @Test("a roster's copy changed in a few places leaves the original as it was, and finds players by name")
    func rosterCopiesAreValues() throws {
        let players = (0..<150).map { FlyPlayer(name: "P\($0)", team: "T\($0 % 2)", earned: []) }
        let before = FlyRoster(players)
        var roster = before
        roster[1].score = 40
        roster[1].streak = 2
        roster[130].turn = .missed
        roster.append(FlyPlayer(name: "New", team: "T0", earned: []))
        #expect(roster.index(named: "new") == 150)
        #expect(before.index(named: "NEW") == nil, "the original has no new player")
        #expect(before[1].score == 0 && before[130].turn == players[130].turn && before.count == 150)
        #expect(roster[1].score == 40 && roster[130].turn == .missed && roster.count == 151)
        #expect(roster.index(named: "p130") == 130)
        let decoded = try JSONCoding.decode(FlyRoster.self, from: JSONCoding.bytes(roster))
        #expect(decoded == roster && decoded.index(named: "p149") == 149)
        #expect(try JSONCoding.bytes(before) == JSONCoding.bytes(players), "the same JSON as the plain list")
    }

    @Test("a refused Let Me Fly event leaves the game as it was, and the next one plays on")
    func refusedEventChangesNothing() throws {
        let entrants = (0..<300).map { FlyEntrant(name: "F\($0)", team: "T\($0 % 30)", earned: []) }
        var game = try LetMeFly(entrants: entrants, settings: FlySettings())
        let start = Instant(milliseconds: 10_000)
        _ = try game.apply(.start, at: start)
        let thrown = try game.apply(
            .throwPhone(player: "F7", pressedAt: start.advanced(byMilliseconds: 300)), at: start)
        #expect(!thrown.isEmpty)
        let before = game
        #expect(throws: RuleError.self) {
            try game.apply(.throwPhone(player: "F7", pressedAt: start.advanced(byMilliseconds: 400)), at: start)
        }
        #expect(throws: RuleError.self) {
            try game.apply(.catchPhone(player: "F8", pressedAt: start), at: start)
        }
        #expect(throws: RuleError.self) {
            try game.apply(.addPlayer(FlyEntrant(name: "f7", team: "T1", earned: [])), at: start)
        }
        #expect(game == before)
        #expect(game.players.count == 300)
        _ = try game.apply(.addPlayer(FlyEntrant(name: "Late", team: "T1", earned: [])), at: start)
        #expect(game.player(named: "LATE")?.team == "T1")
        #expect(game.players.count == 301)
    }
}
