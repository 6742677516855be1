import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Odd One Out's lock-ins and the hunt's progress are growing states (PROTOCOL.md §6.0): a storm of lock-ins or
/// solves costs each connection about one entry per team, and a client that misses an update heals.
@Suite("Odd One Out's lock-ins and the hunt's progress: whole once, then deltas")
struct OutsiderHuntGrowingStateTests {
    /// `T000`, `T001`, ….
    static func name(_ index: Int) -> String { "T" + String(index + 1000).dropFirst() }

    /// A host with `teams` players, one per team, fair picking on, and a long round of Odd One Out open; `idle`
    /// teams more join that never pick, so the round stays open while the others lock in.
    static func oddOneOut(teams: Int, idle: Int = 1) throws -> (EmbeddedHost, [EmbeddedConnection], String) {
        var options = EmbeddedHost.defaultOptions
        options.isFairnessEnabled = true
        let host = try EmbeddedHost(options: options)
        var players: [EmbeddedConnection] = []
        for index in 0..<(teams + idle) { players.append(try host.player(name(index), team: name(index))) }
        #expect(host.console("start outsider 1 easy animals round-seconds=600").first == "Started Odd One Out.")
        let game = try #require(host.core.room.game as? OutsiderHost)
        let outsider = try #require(game.record.puzzles.first?.puzzle.outsider)
        return (host, Array(players.prefix(teams)), outsider)
    }

    /// The lock-ins the host's game holds, in press order.
    static func hostLockIns(_ host: EmbeddedHost) throws -> [String] {
        try #require(host.core.room.game as? OutsiderHost).game.lockedPicks.map(\.team)
    }

    /// A scripted storm: 100 teams pick the same word, five per turn of the loop, 2 ms apart, fair picking on (each
    /// settle window announces its picks together). Bytes are deterministic, so each connection's share is held to
    /// a budget that grows with the teams, not their square.
    @Test func aHundredTeamLockInStormCostsEachClientAboutOneEntryPerTeam() throws {
        let teams = 100
        let (host, players, outsider) = try Self.oddOneOut(teams: teams)
        var board = Watcher(try host.watcher(.board), role: .board)
        board.update()
        for player in players { _ = player.drain() }
        for group in stride(from: 0, to: teams, by: 5) {
            for player in players[group..<(group + 5)] { player.post(["type": "pick", "word": .string(outsider)]) }
            host.turn()
            host.advance(by: 2)
        }
        host.advance(by: 200)  // every settle window has passed
        #expect(try Self.hostLockIns(host).count == teams)
        // A lock-in is about 32 bytes; an update's own fields about 60, a player's own `picked` about 50. The list
        // whole twice, an update per settle window: 1 KiB + 48 bytes a team. (Sending the whole list at every
        // lock-in would cost about 32 × 100² / 2 = 160 KB.)
        let budget = 1024 + 48 * teams
        let sent = (players + [board.connection]).map(\.unreadBytes)
        #expect(sent.allSatisfy { $0 <= budget }, "bytes per connection: max \(sent.max() ?? 0), budget \(budget)")
        #expect(sent.allSatisfy { $0 >= 28 * teams }, "every connection got every lock-in: min \(sent.min() ?? 0)")
        // What the board got adds up to the host's list, with no gap, and never says what anyone picked.
        let received = board.connection.drainTimed()
        #expect(!received.contains { $0.message.description.contains(outsider) }, "the outsider leaked")
        var asked: [ClientAction] = []
        for (message, at) in received { asked += board.state.apply(message, at: at) }
        #expect(!asked.contains { if case .send = $0 { true } else { false } }, "no gap: \(asked)")
        #expect((board.state.game as? OutsiderView)?.locked.map(\.team) == (try Self.hostLockIns(host)))
        let types = received.compactMap { $0.message["type"]?.stringValue }
        #expect(types.filter { $0 == "lockedIn" }.count == 2, "whole for the first two lock-ins only: \(types)")
    }

    @Test func theBytesPerClientGrowLinearlyWithTheTeams() throws {
        /// What the busiest connection received during a storm of `teams` lock-ins.
        func busiest(teams: Int) throws -> Int {
            let (host, players, outsider) = try Self.oddOneOut(teams: teams)
            let board = try host.watcher(.board)
            for player in players { _ = player.drain() }
            _ = board.drain()
            for group in stride(from: 0, to: teams, by: 5) {
                for player in players[group..<min(teams, group + 5)] {
                    player.post(["type": "pick", "word": .string(outsider)])
                }
                host.turn()
                host.advance(by: 2)
            }
            host.advance(by: 200)
            return (players + [board]).map(\.unreadBytes).max() ?? 0
        }
        // One budget line for every size: the bytes follow the teams (sending the whole list at each lock-in would
        // follow their square: 160 teams would cost about 400 KB).
        for teams in [20, 40, 80, 160] {
            let bytes = try busiest(teams: teams)
            #expect(bytes <= 512 + 48 * teams, "\(teams) teams: \(bytes) bytes")
            #expect(bytes >= 28 * teams, "\(teams) teams: \(bytes) bytes, fewer than one entry per team")
        }
    }

    @Test func aBoardThatDropsALockInUpdateAsksForTheWholeListAndEndsWithTheRightOne() throws {
        let (host, players, outsider) = try Self.oddOneOut(teams: 8)
        var lossy = Watcher(try host.watcher(.board), role: .board)
        lossy.update()
        var dropped: JSONValue?
        var resyncs: [JSONValue] = []
        for player in players {
            player.send(["type": "pick", "word": .string(outsider)])
            host.advance(by: 100)  // each lock-in settles on its own
            for (message, at) in lossy.connection.drainTimed() {
                if dropped == nil, message["type"] == "lockedInUpdate" {
                    dropped = message
                    continue
                }
                for action in lossy.state.apply(message, at: at) {
                    guard case .send(let request) = action else { continue }
                    if request["type"] == "resync" { resyncs.append(request) }
                    lossy.connection.send(request.objectValue ?? [:])
                }
            }
        }
        #expect(dropped != nil, "a lockedInUpdate was dropped")
        #expect(resyncs == [["type": "resync", "state": "lockedIn"]], "one resync healed the gap")
        #expect((lossy.state.game as? OutsiderView)?.locked.map(\.team) == (try Self.hostLockIns(host)))
        #expect(try Self.hostLockIns(host).count == 8)
    }

    @Test func aNewRoundsFirstLockInGoesOutWholeAndALateResyncNeverReturnsTheOldList() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let cy = try host.player("Cy", team: "Gold")
        host.console("start outsider 2 easy animals reveal-seconds=1")
        for player in [ann, bob, cy] {
            player.send(["type": "pick", "choice": 1])
            host.advance(by: 100)
        }
        host.advance(by: 1_500)  // the reveal, then round 2
        _ = ann.drain()
        ann.send(["type": "resync", "state": "lockedIn"])
        #expect(!ann.types().contains("lockedIn"), "round 1's list ended with its round")
        bob.send(["type": "pick", "choice": 2])
        host.advance(by: 100)
        let whole = try #require(ann.drain().last { $0["type"] == "lockedIn" })
        #expect(whole["teams"]?.arrayValue?.map { $0["team"] } == ["Blue"])
    }

    // MARK: The hunt

    /// A scripted storm: 100 teams check in at their first station and solve it, five teams per turn of the loop.
    /// Each solve changes one row of everyone's progress, so each connection's share grows with the teams.
    @Test func aHundredTeamSolveStormCostsEachClientAboutOneRowPerTeam() throws {
        let teams = 100
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        var players: [EmbeddedConnection] = []
        for index in 0..<teams { players.append(try host.player(Self.name(index), team: Self.name(index))) }
        host.console("start hunt office fixed 45")
        var board = Watcher(try host.watcher(.board), role: .board)
        board.update()
        for player in players { player.send(["type": "checkin", "code": "FRDG"]) }
        for player in players { _ = player.drain() }
        for group in stride(from: 0, to: teams, by: 5) {
            for player in players[group..<(group + 5)] { player.post(["type": "answer", "text": "dog"]) }
            host.turn()
            host.advance(by: 1_000)
        }
        let hunt = try #require(host.core.room.game as? HuntHost)
        #expect(hunt.game.progress.allSatisfy { $0.stations == 1 })
        // A row is about 100 bytes, an update's own fields about 60; a team's own `solved` and next `clue` about
        // 250. An update per turn of five solves: 1 KiB + 400 bytes a team. (The whole progress at every solve
        // would cost about 100 × 100² = 1 MB.)
        let budget = 1024 + 400 * teams
        let sent = (players + [board.connection]).map(\.unreadBytes)
        #expect(sent.allSatisfy { $0 <= budget }, "bytes per connection: max \(sent.max() ?? 0), budget \(budget)")
        #expect(sent.allSatisfy { $0 >= 95 * teams }, "every connection got every row: min \(sent.min() ?? 0)")
        let received = board.connection.drainTimed()
        #expect(!received.contains { $0.message.description.contains("FRDG") }, "a check-in code leaked")
        var asked: [ClientAction] = []
        for (message, at) in received { asked += board.state.apply(message, at: at) }
        #expect(!asked.contains { if case .send = $0 { true } else { false } }, "no gap: \(asked)")
        let rows = try #require(board.state.game as? HuntView).progress
        #expect(rows.count == teams && rows.allSatisfy { $0.station == 1 })
        #expect(received.filter { $0.message["type"] == "progress" }.isEmpty, "the board followed by updates only")
    }
}
