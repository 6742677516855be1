import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Natural batching of growing states (PROTOCOL.md §6.0): a host that keeps up sends each change at the end of the
/// turn that made it, however many connections it has; only while it is behind do changes gather, for 40 ms at most.
@Suite("Growing states: batching only under load")
struct NaturalBatchingTests {
    /// A Shaky Words question with `teams` one-player teams, a board, and `idle` more connections that never say
    /// hello (so the host holds more than 256 connections).
    static func crowdedQuestion(teams: Int, idle: Int) throws -> (EmbeddedHost, [EmbeddedConnection], Watcher) {
        let (host, players) = try GrowingStateTests.storm(teams: teams, fairness: false)
        for _ in 0..<idle { _ = host.connect() }
        var board = Watcher(try host.watcher(.board), role: .board)
        board.update()
        return (host, players, board)
    }

    /// The buzz-order messages the board received since the last call, with when they were written (the board takes
    /// in every message).
    static func orderMessages(_ board: inout Watcher) -> [(type: String, at: Int64, message: JSONValue)] {
        var order: [(type: String, at: Int64, message: JSONValue)] = []
        for (message, at) in board.connection.drainTimed() {
            _ = board.state.apply(message, at: at)
            guard let type = message["type"]?.stringValue, type == "buzzed" || type == "buzzedUpdate" else { continue }
            order.append((type, at, message))
        }
        return order
    }

    @Test func anIdleCrowdedHostSendsEachDeltaInTheTurnOfTheBuzz() throws {
        let (host, players, watcher) = try Self.crowdedQuestion(teams: 5, idle: 300)
        var board = watcher
        #expect(host.core.sessions.sessions.count > 256)
        for (index, player) in players.enumerated() {
            let before = host.now
            player.send(["type": "buzz"])  // one turn; the clock does not move
            let sent = Self.orderMessages(&board)
            #expect(sent.count == 1, "buzz \(index + 1): one order message in the buzz's own turn, got \(sent.count)")
            #expect(sent.allSatisfy { $0.at == before }, "written in the same turn, not a window later")
            if index >= 2 {
                #expect(sent.first?.type == "buzzedUpdate", "a later buzz of the question is a delta")
            }
        }
        #expect(try GrowingStateTests.hostOrder(host).count == players.count)
    }

    @Test func aHostThatIsBehindGathersChangesForAtMostFortyMilliseconds() throws {
        let (host, players, watcher) = try Self.crowdedQuestion(teams: 6, idle: 0)
        var board = watcher
        for player in players[0..<3] { player.send(["type": "buzz"]) }
        _ = Self.orderMessages(&board)
        // Output still queued: the next buzzes wait and gather.
        var isBehind = true
        host.core.room.isBehind = { isBehind }
        let start = host.now
        players[3].send(["type": "buzz"])
        host.advance(by: 10)
        players[4].send(["type": "buzz"])
        #expect(Self.orderMessages(&board).isEmpty, "nothing goes out while the host is behind and it is fresh")
        host.advance(by: 40)
        let gathered = Self.orderMessages(&board)
        #expect(gathered.count == 1, "the two buzzes went out as one message: \(gathered.map(\.type))")
        #expect(gathered.first?.type == "buzzedUpdate")
        #expect(gathered.first?.message["entries"]?.arrayValue?.count == 2)
        #expect(gathered.allSatisfy { $0.at <= start + GameRoom.maximumStaleness }, "never staler than the bound")
        // Caught up: the next buzz goes out in its own turn again.
        isBehind = false
        let before = host.now
        players[5].send(["type": "buzz"])
        let next = Self.orderMessages(&board)
        #expect(next.count == 1 && next.first?.at == before)
        // And what the board holds is the host's order.
        #expect((board.state.game as? ShakyView)?.buzzOrder.map(\.team) == (try GrowingStateTests.hostOrder(host)))
    }

    /// A turn that took longer than the bound (a hall's start) does not make its own states stale: while input
    /// waits, they go out in the next turn, after that input; states noted in an earlier turn keep the bound.
    @Test func aLongTurnsStatesWaitOneTurnForTheInputBehindIt() throws {
        let (host, players, watcher) = try Self.crowdedQuestion(teams: 5, idle: 0)
        var board = watcher
        for player in players[0..<3] { player.send(["type": "buzz"]) }
        _ = Self.orderMessages(&board)
        host.core.room.isBehind = { true }
        // One turn that began now and lasted 100 ms: a buzz read at its start, the due work at its end.
        host.core.room.turnStartedAt = host.now
        host.core.received(Array(#"{"type":"buzz"}"#.utf8), from: players[3].id)
        host.now += 100
        host.turn()
        #expect(Self.orderMessages(&board).isEmpty, "noted in this turn: it waits for the input behind it")
        // The next turn: the state is older than the turn, and staler than the bound, so it goes out although the
        // host is still behind.
        host.core.room.turnStartedAt = host.now + 1
        host.now += 1
        host.turn()
        let sent = Self.orderMessages(&board)
        #expect(sent.count == 1 && sent.first?.message["entries"]?.arrayValue?.count == 1, "\(sent.map(\.type))")
    }

    @Test func aHostThatIsBehindSendsAGatheredChangeAsSoonAsItCatchesUp() throws {
        let (host, players, watcher) = try Self.crowdedQuestion(teams: 5, idle: 0)
        var board = watcher
        for player in players[0..<3] { player.send(["type": "buzz"]) }
        _ = Self.orderMessages(&board)
        var isBehind = true
        host.core.room.isBehind = { isBehind }
        players[3].send(["type": "buzz"])
        players[4].send(["type": "buzz"])
        #expect(Self.orderMessages(&board).isEmpty)
        isBehind = false
        let before = host.now
        host.turn()  // the output drained: the next turn sends what gathered
        let sent = Self.orderMessages(&board)
        #expect(sent.count == 1 && sent.first?.at == before)
        #expect(sent.first?.message["entries"]?.arrayValue?.count == 2)
    }
}
