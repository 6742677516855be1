import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Pause and continue are the seam's, not the modes': every mode, the test-only coin toss too, stops every clock
/// on `pause` and gives each back its time on `continue`, with no pause code of its own.
@Suite("Pause and continue, the same in every mode")
struct PauseTests {
    /// How each mode is started (the coin toss is the mode written only from README's recipe).
    static let starts = [
        "shaky 3 easy", "queen", "words cards en 1", "fly 2 round-seconds=30", "outsider 2 easy animals",
        "hunt office fixed 10", "coin 2",
    ]

    /// Game messages that arrived on `connection` since `index` (the session's keep-alive and clock probes aside).
    static func gameMessages(_ connection: EmbeddedConnection, since index: Int) -> [String] {
        connection.received[index...].compactMap { $0["type"]?.stringValue }.filter {
            !["ping", "pong", "sync"].contains($0)
        }
    }

    @Test(arguments: starts)
    func aPauseFreezesEveryClockAndContinueGivesItsTimeBack(start: String) throws {
        let host = try EmbeddedHost(catalog: .withCoinToss)
        try host.addOfficeHunt()
        var ann = Watcher(
            try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red", catalog: .withCoinToss)
        let others = try ["Bob", "Cid", "Dee"].map { try host.player($0, team: $0) }
        var board = Watcher(try host.watcher(.board), role: .board, catalog: .withCoinToss)
        #expect(host.console("start \(start)").first?.hasPrefix("Started") == true, "start \(start)")
        host.advance(by: 1_000)
        let game = try #require(host.core.room.game, "the game of `start \(start)` runs")
        let remaining = game.status.nextDeadline.map { $0.milliseconds - host.now }

        #expect(host.console("pause").first?.hasPrefix("Paused") == true)
        #expect(game.status.isPaused)
        #expect(game.status.nextDeadline == nil, "no deadline is pending while paused")
        board.update()
        #expect(board.state.isPaused, "the board shows PAUSED")
        let pausedAt = try #require(game.status.pausedAt)
        #expect(board.state.pausedAtHost == pausedAt.milliseconds, "the board froze its clocks where the host did")
        let frozen = board.screen()
        let received = board.connection.received.count

        // Over 13 minutes, every clock of every mode would have run out (the connections keep alive meanwhile).
        for _ in 0..<20 {
            host.advance(by: 40_000)
            for connection in [ann.connection, board.connection] + others { connection.send(["type": "pong"]) }
        }
        #expect(!game.status.isFinished, "no clock ran out during the pause")
        #expect(game.status.isPaused)
        board.update()
        #expect(Self.gameMessages(board.connection, since: received) == [], "nothing happened during the pause")
        #expect(board.screen() == frozen, "the board's clocks stood still:\n\(difference(board.screen(), frozen))")
        try CatchUpTests.check(
            host, board: &board, player: &ann, phase: "a paused `\(start)`", catalog: .withCoinToss)
        #expect(board.screen() == frozen, "a joiner during the pause sees the frozen time")

        let beforeContinue = board.connection.received.count
        host.console("continue")
        #expect(!game.status.isPaused)
        #expect(
            game.status.nextDeadline.map { $0.milliseconds - host.now } == remaining, "every clock has its time back")
        board.update()
        #expect(!board.state.isPaused, "the board's PAUSED ends with the continue")
        #expect(Self.gameMessages(board.connection, since: beforeContinue).contains("resumed"))
    }
}
