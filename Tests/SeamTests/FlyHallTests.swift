import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Let Me Fly in a hall (more than `GameRoom.fullLobbyLimit` players): each player gets their own and their team's
/// throws and catches, the live board of the top catches (`flyBoard`, a growing state) and the round's counts
/// (`flyTally`), and rankings cut to their top and the team, so what a round costs a client stays flat as the hall
/// grows. Bytes are deterministic: no durations are measured.
@Suite("Let Me Fly in a hall")
struct FlyHallTests {
    static let players = 400
    static let teams = 40
    /// Half the target for a 1,000-player round (32 KiB per client): a hall round's cost per client does not
    /// grow with the hall (about 9 KiB here), while a party's grows by ~1.3 KB a player (~500 KiB at this size).
    static let budget = 16 * 1024

    /// `F000` … `F399` in `Team00` … `Team39` (ten each, by index modulo the teams).
    static func name(_ index: Int) -> String { ModeGrowingStateTests.name("F", index) }
    static func team(_ index: Int) -> String { "Team" + String(100 + index % teams).dropFirst() }

    /// The players join in groups of fifty, one turn each (the room becomes a hall on the way).
    static func hall(_ host: EmbeddedHost) -> [EmbeddedConnection] {
        var connections: [EmbeddedConnection] = []
        for group in stride(from: 0, to: players, by: 50) {
            connections += ModeGrowingStateTests.joinInOneTurn(
                host, (group..<(group + 50)).map { (name($0), team($0)) })
        }
        return connections
    }

    /// `player`'s rank in the game now.
    static func rank(of player: String, _ game: FlyHost) -> Int {
        game.game.standings.first { $0.player == player }?.rank ?? 0
    }

    /// A round: everyone throws (five per turn, 2 ms apart); every seventh player lets the phone drop, the others
    /// catch it as it lands. Returns the host's game.
    static func playRound(_ host: EmbeddedHost, _ connections: [EmbeddedConnection]) throws -> FlyHost {
        host.advance(by: 700)  // the meter near 90 %
        for group in stride(from: 0, to: connections.count, by: 5) {
            for connection in connections[group..<(group + 5)] { connection.post(["type": "throw"]) }
            host.turn()
            host.advance(by: 2)
        }
        let game = try ModeGrowingStateTests.fly(host)
        var landings: [(at: Int64, index: Int)] = []
        for (index, player) in game.game.players.enumerated() {
            if case .inAir(let thrown) = player.turn { landings.append((thrown.landsAt.milliseconds, index)) }
        }
        #expect(landings.count == connections.count, "everyone threw")
        for landing in landings.sorted(by: { $0.at < $1.at }) where landing.index % 7 != 0 {
            if landing.at > host.now { host.advance(by: landing.at - host.now) }
            connections[landing.index].post(["type": "catch"])
        }
        host.turn()
        host.advance(by: 3000)  // the dropped phones are called, the round ends
        return game
    }

    @Test func aHallRoundCostsEachClientLessThan16KiBAndEachPlayerSeesTheirOwnTeamAndTheTop() throws {
        let host = try EmbeddedHost()
        let connections = Self.hall(host)
        var board = Watcher(try host.watcher(.board), role: .board)
        let admin = try host.watcher(.admin)
        // Two watching players (the first of Team00 and of Team01) keep a client's state.
        var ann = Watcher(connections[0], role: .player, name: Self.name(0), team: Self.team(0))
        var bob = Watcher(connections[1], role: .player, name: Self.name(1), team: Self.team(1))
        // A hall's boards and operators get the whole lobby at most every 250 ms: the joins' last change (and the
        // watchers' own first list) goes out before the round, so the round's bytes are the round's alone.
        host.advance(by: GameRoom.hallSpectatorLobbyInterval + 50)
        ann.update()
        bob.update()
        board.update()
        _ = admin.drain()
        for connection in connections.dropFirst(2) { _ = connection.drain() }
        host.console("start fly 2 round-seconds=600 break-seconds=0")
        let game = try Self.playRound(host, connections)
        #expect(game.isHall)
        #expect(game.game.phase == .between, "the round is over")
        let results = game.game.results
        #expect(results.count == Self.players)
        #expect(results.filter { $0.quality == .dropped }.count == (Self.players + 6) / 7)

        // Bytes: every player, the board and the operator within the budget; every player got something of
        // their own (a round costs a party of this size ~1.3 KB a player, 500 KB each).
        for (index, connection) in connections.enumerated().dropFirst(2) {
            let sent = connection.unreadBytes
            #expect(sent <= Self.budget, "bytes to \(Self.name(index)): \(sent), budget \(Self.budget)")
        }
        for connection in [board.connection, admin] {
            #expect(connection.unreadBytes <= Self.budget, "bytes to a watcher: \(connection.unreadBytes)")
        }
        let perPlayer = connections.dropFirst(2).map(\.unreadBytes)
        print(
            "fly hall of \(Self.players): max \(perPlayer.max() ?? 0) bytes per player, "
                + "board \(board.connection.unreadBytes), operator \(admin.unreadBytes)"
        )

        // Each player: their own throw and catch, their team's and nobody else's.
        for connection in connections.dropFirst(2).prefix(40) {
            let index = connections.firstIndex { $0 === connection }!
            let messages = connection.drain()
            let thrown = messages.filter { $0["type"] == "thrown" }.compactMap { $0["player"]?.stringValue }
            let caught = messages.filter { $0["type"] == "caught" }.compactMap { $0["player"]?.stringValue }
            let mates = (0..<Self.players).filter { $0 % Self.teams == index % Self.teams }.map(Self.name)
            #expect(Set(thrown) == Set(mates) && thrown.count == mates.count, "\(Self.name(index)) saw its team throw")
            #expect(Set(caught) == Set(mates), "\(Self.name(index)) saw its team's phones come down")
            #expect(messages.contains { $0["type"] == "flyBoard" }, "the board came whole")
            let over = try #require(messages.last { $0["type"] == "roundOver" })
            #expect(over["count"] == .int(Int64(Self.players)))
            let ranked = over["ranking"]?.arrayValue?.compactMap { $0["player"]?.stringValue } ?? []
            #expect(ranked.contains(Self.name(index)) && ranked.count <= 10 + mates.count)
        }

        // Followed as a client does: no gap, the board as the host has it, the player's own result shown.
        ann.update()
        bob.update()
        board.update()
        let top = FlyHall.board(results).map(\.player)
        for watcher in [ann, bob, board] {
            #expect(watcher.state.awaitingResync.isEmpty, "no delta was missed")
            let view = try ModeGrowingStateTests.flyView(watcher)
            #expect(view.isHall && view.board?.rows.map(\.player) == top, "the live board follows the host")
            #expect(view.tally?.thrown == Self.players)
        }
        let annView = try ModeGrowingStateTests.flyView(ann)
        #expect(annView.players.count == Self.players / Self.teams, "Ann's roster is her team")
        #expect(annView.flights.contains { $0.player == Self.name(0) && $0.result?.quality == "dropped" })
        #expect(try ModeGrowingStateTests.flyView(board).players.count == Self.players, "a board lists everyone")
        // The player's screen at 80×24 shows the board, the counts and their own ranking line.
        let screen = ann.screen(width: 80, height: 24)
        #expect(screen.count <= 24 && screen.allSatisfy { ScreenText.width(of: $0) <= 80 }, "\(screen)")
        let text = screen.joined(separator: "\n")
        #expect(text.contains("Highest catches") && text.contains("400/400 thrown"), "\(text)")
        #expect(text.contains("#\(Self.rank(of: Self.name(0), game))  \(Self.name(0))"), "Ann's own line: \(text)")
        #expect(text.contains("of 400 players"), "\(text)")
    }

    @Test func aLateJoinerOfAHallCatchesUpWithItsTeamAndTheBoardAndFollowsWithoutAResync() throws {
        let host = try EmbeddedHost()
        let connections = Self.hall(host)
        host.console("start fly 2 round-seconds=600 break-seconds=0")
        host.advance(by: 700)
        for group in stride(from: 0, to: 100, by: 5) {
            for connection in connections[group..<(group + 5)] { connection.post(["type": "throw"]) }
            host.turn()
            host.advance(by: 2)
        }
        let game = try ModeGrowingStateTests.fly(host)
        var landings: [(at: Int64, index: Int)] = []
        for (index, player) in game.game.players.enumerated() {
            if case .inAir(let thrown) = player.turn { landings.append((thrown.landsAt.milliseconds, index)) }
        }
        for landing in landings.sorted(by: { $0.at < $1.at }).prefix(50) {
            if landing.at > host.now { host.advance(by: landing.at - host.now) }
            connections[landing.index].post(["type": "catch"])
        }
        host.advance(by: 1500)  // the board and the counts go out
        let team = Self.team(3)
        var late = Watcher(try host.player("Zed", team: team), role: .player, name: "Zed", team: team)
        var board = Watcher(try host.watcher(.board), role: .board)
        late.update()
        board.update()
        let mates = (0..<Self.players).filter { $0 % Self.teams == 3 }.map(Self.name)
        let view = try ModeGrowingStateTests.flyView(late)
        #expect(view.isHall && view.players == mates + ["Zed"], "the newcomer holds its team's roster")
        #expect(view.board?.rows.map(\.player) == FlyHall.board(game.game.results).map(\.player))
        #expect(!view.flights.isEmpty && view.flights.allSatisfy { mates.contains($0.player) }, "its team's throws")
        #expect(try ModeGrowingStateTests.flyView(board).players.count == Self.players + 1)
        // The rest of the round: every phone still up comes down (caught or dropped); both follow without a gap.
        for connection in connections.dropFirst(100).prefix(100) { connection.post(["type": "throw"]) }
        host.turn()
        host.advance(by: 6000)
        late.update()
        board.update()
        for watcher in [late, board] {
            #expect(watcher.state.awaitingResync.isEmpty, "no delta was missed")
            let followed = try ModeGrowingStateTests.flyView(watcher).board?.rows.map(\.player)
            #expect(followed == FlyHall.board(game.game.results).map(\.player))
        }
        #expect(game.game.results.count == 200)
    }

    @Test func aRoomOfTwoHundredIsStillAPartyWhereEveryoneSeesEveryThrow() throws {
        let host = try EmbeddedHost()
        var connections: [EmbeddedConnection] = []
        for group in stride(from: 0, to: 200, by: 50) {
            connections += ModeGrowingStateTests.joinInOneTurn(
                host, (group..<(group + 50)).map { (Self.name($0), Self.team($0)) })
        }
        host.console("start fly 1 round-seconds=600")
        for connection in connections { _ = connection.drain() }
        connections[3].post(["type": "throw"])
        host.turn()
        let game = try ModeGrowingStateTests.fly(host)
        #expect(!game.isHall)
        #expect(connections[0].drain().contains { $0["type"] == "thrown" && $0["player"] == "F003" })
    }
}
