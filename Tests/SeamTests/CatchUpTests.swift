import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// A client as the real one keeps it: a connection and the state its messages built.
struct Watcher {
    var connection: EmbeddedConnection
    var state: ClientState

    init(
        _ connection: EmbeddedConnection, role: Role, name: String = "", team: String = "",
        catalog: ScreenCatalog = .standard
    ) {
        self.connection = connection
        state = ClientState(role: role, room: "ROOM", name: name, team: team)
        state.catalog = catalog
    }

    /// Takes in everything that arrived, each at the moment it arrived (client and host clocks agree in-process).
    mutating func update() {
        for (message, at) in connection.drainTimed() { _ = state.apply(message, at: at) }
    }

    /// The screen as the person sees it, without the scrolling event list and the passing notice.
    func screen(width: Int = 80, height: Int = 30) -> [String] {
        var shown = state
        shown.recent = []
        shown.notice = nil
        return render(shown, width: width, height: height, now: connection.host.now, options: .plainText)
    }
}

/// The rows where two screens differ, for a readable failure.
func difference(_ lhs: [String], _ rhs: [String]) -> String {
    zip(lhs, rhs).enumerated().filter { $0.element.0 != $0.element.1 }
        .map { "row \($0.offset):\n  \($0.element.0)\n  \($0.element.1)" }.joined(separator: "\n")
}

/// Catch-up equals live: a viewer who joins (or comes back) at any phase sees exactly what a viewer who was there
/// all along sees — points, clocks, next-in, the teams — because both are built by the same functions.
@Suite("Catch-up equals live, in-process")
struct CatchUpTests {
    /// Compares a board that was there with one that joins now, and a player with the same player coming back.
    static func check(
        _ host: EmbeddedHost, board: inout Watcher, player: inout Watcher, phase: String,
        catalog: ScreenCatalog = .standard, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        board.update()
        player.update()
        var late = Watcher(try host.watcher(.board), role: .board, catalog: catalog)
        late.update()
        #expect(
            late.screen() == board.screen(),
            "a board joining during \(phase):\n\(difference(late.screen(), board.screen()))",
            sourceLocation: sourceLocation)
        #expect(late.state.game != nil, "the late board sees the game during \(phase)", sourceLocation: sourceLocation)
        // The same player on a new connection, with its token: the old screen is the live one.
        let token = try #require(player.state.token)
        let back = host.connect()
        back.send(["type": "hello", "room": "ROOM", "resume": .string(token)])
        var returned = Watcher(
            back, role: .player, name: player.state.name, team: player.state.team, catalog: catalog)
        returned.update()
        #expect(
            returned.screen() == player.screen(),
            "a player coming back during \(phase):\n\(difference(returned.screen(), player.screen()))",
            sourceLocation: sourceLocation)
        // The real client keeps its state across a reconnect and takes in the catch-up on top.
        player.connection = back
        player.update()
        #expect(
            player.screen() == returned.screen(),
            "catch-up on top of a live view, \(phase):\n\(difference(player.screen(), returned.screen()))",
            sourceLocation: sourceLocation)
    }

    @Test func shakyWordsAtEveryPhase() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        var board = Watcher(try host.watcher(.board), role: .board)
        host.console("start shaky 3 easy")
        let game = try #require(host.core.room.game as? ShakyHost)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "an open question")

        host.advance(by: 2_000)
        ann.connection.send(["type": "shake"])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a question after a shake")

        ann.connection.send(["type": "buzz"])
        bob.send(["type": "buzz"])
        host.advance(by: 500)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a team on turn")

        ann.connection.send(["type": "answer", "text": "certainly not this"])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the next team on turn after a wrong answer")

        host.console("pause")
        host.advance(by: 3_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a paused question")
        host.console("continue")

        let answer = try #require(game.record.questions.first?.answer)
        bob.send(["type": "answer", "text": .string(answer)])
        host.advance(by: 1_200)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a reveal")
        let reveal = try #require(board.connection.received.last { $0["type"] == "reveal" })
        #expect(reveal["points"]?.intValue ?? 0 > 0, "the reveal carries the points won")

        host.console("accept Red")  // the quizmaster also counts Red's wrong answer right
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a reveal after an overrule")
        #expect(ann.screen().joined().contains("✔ Red counted right by the quizmaster, +75"))
        host.console("reject Blue")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a reveal after two overrules")
        #expect(ann.screen().joined().contains("✔ Red scored 75 points (the quizmaster's verdict)"))
        #expect(ann.screen().joined().contains("✘ Blue: wrong."))

        host.advance(by: 5_000)
        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the final scoreboard")
    }

    @Test func theQueensGameAtEveryPhase() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Ann"), role: .player, name: "Ann", team: "Ann")
        var players = [ann.connection]
        for name in ["Bob", "Cid", "Dee"] { players.append(try host.player(name, team: name)) }
        var board = Watcher(try host.watcher(.board), role: .board)
        host.console("start queen auto-next-seconds=10")
        let game = try #require(host.core.room.game as? QueenHost)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the Queen choosing")

        host.console("pause")
        host.advance(by: 4_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a paused deal")
        host.console("continue")

        let queen = try #require(game.game.queen)
        let queenConnection =
            queen == "Ann" ? ann.connection : players[["Ann", "Bob", "Cid", "Dee"].firstIndex(of: queen)!]
        queenConnection.send(["type": "command", "text": "No. {1} sings to No. {2}"])
        host.advance(by: 1_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the countdown")

        host.advance(by: 5_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the reveal")
        let revealed = try #require(board.connection.received.last { $0["type"] == "revealed" })
        #expect(revealed["nextInMs"]?.intValue != nil, "the reveal says when the next deal comes")

        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the end")
    }
}
