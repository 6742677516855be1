import Protocol
import Testing

@testable import Client

@Suite("ClientState applies host messages")
struct ClientStateTests {
    @Test func welcomeKeepsTheTokenAndEstimatesTheClock() {
        let state = Fixtures.state([Fixtures.welcome, Fixtures.lobby])
        #expect(state.link == .joined)
        #expect(state.token == "tok123")
        #expect(state.playerID == "p1")
        #expect(state.clock.offset == 1000)
        #expect(!state.clock.isMeasured)
        #expect(state.lobby.count == 2)
        #expect(state.lobby[1] == LobbyPlayer(name: "Bob", team: "Blue", isConnected: false))
        #expect(state.teams == ["Red", "Blue"])
    }

    @Test func syncIsAnsweredAndItsOffsetKept() {
        var state = Fixtures.state([Fixtures.welcome])
        let actions = state.apply(
            Fixtures.json(#"{"type":"sync","n":4,"h":12345,"offset":-250,"rtt":6,"uncertainty":2}"#), at: 50_000)
        #expect(actions == [.syncReply(sequence: 4, hostSent: 12345, receivedAt: 50_000)])
        #expect(state.clock.offset == -250)
        #expect(state.clock.isMeasured)
        #expect(state.clock.uncertainty == 2)
        // a later probe without an offset does not undo the measurement
        _ = state.apply(Fixtures.json(#"{"type":"sync","n":5,"h":99999}"#), at: 50_100)
        #expect(state.clock.offset == -250)
    }

    @Test func largeRoomsMergeLobbyUpdatesIntoTheList() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.lobby])
        _ = state.apply(
            Fixtures.json(
                #"{"type":"lobbyUpdate","room":"ABCD","count":3,"players":[{"name":"Bob","team":"Blue","connected":true},{"name":"Cy","team":"Green","connected":true}],"removed":["Ann"]}"#
            ), at: 1)
        #expect(state.lobby.map(\.name) == ["Bob", "Cy"])
        #expect(state.lobby.first?.isConnected == true)
        #expect(state.teams == ["Blue", "Green"])
    }

    @Test func keepaliveIsAnsweredWithPong() {
        var state = Fixtures.state([Fixtures.welcome])
        let actions = state.apply(Fixtures.json(#"{"type":"ping","id":"k1","hostTime":5}"#), at: 1)
        #expect(actions.compactMap(sent).map(\.typeName) == ["pong"])
    }

    @Test func deadlinesConvertWithTheOffset() throws {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        let shaky = try #require(state.shaky)
        #expect(shaky.buzzDeadline == 39_000)
        // host 39 000 is client 40 000; at client 30 000 ten seconds remain
        #expect(state.remaining(until: shaky.buzzDeadline, now: 30_000) == 10_000)
        _ = state.apply(Fixtures.json(#"{"type":"sync","n":1,"h":1,"offset":2000}"#), at: 30_000)
        #expect(state.remaining(until: shaky.buzzDeadline, now: 30_000) == 11_000)
        #expect(state.remaining(until: shaky.buzzDeadline, now: 99_000) == 0)
    }

    @Test func pauseFreezesClocksAndResumeRestartsThem() throws {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        _ = state.apply(Fixtures.json(#"{"type":"paused"}"#), at: 20_000)  // host 19 000: 20 s left
        let deadline = state.shaky?.buzzDeadline
        #expect(state.remaining(until: deadline, now: 25_000) == 20_000)
        #expect(state.remaining(until: deadline, now: 35_000) == 20_000)
        _ = state.apply(
            Fixtures.json(#"{"type":"resumed","buzzRemainingMs":20000,"answerRemainingMs":null,"nextInMs":null}"#),
            at: 40_000)
        #expect(!state.isPaused)
        #expect(state.remaining(until: state.shaky?.buzzDeadline, now: 45_000) == 15_000)
    }

    @Test func aShakyQuestionPlaysThrough() throws {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.lobby, Fixtures.shakyGame, Fixtures.question])
        #expect(state.shaky?.phase == .question)
        #expect(state.shaky?.question?.letters == "SROHU")
        #expect(state.shaky?.standings.map(\.team) == ["Red", "Blue"])

        let buzzActions = state.apply(Fixtures.json(Fixtures.buzzed), at: 11_000)
        #expect(buzzActions == [.bell])
        #expect(state.shaky?.buzzOrder.map(\.team) == ["Red", "Blue"])
        #expect(state.shaky?.buzzOrder[1] == BuzzEntry(team: "Blue", offsetMs: 37, uncertaintyMs: 4, isTied: false))

        let turnActions = state.apply(Fixtures.json(Fixtures.turnRed), at: 11_100)
        #expect(turnActions == [.bell])
        #expect(state.isMyTurn)

        _ = state.apply(Fixtures.json(Fixtures.hint), at: 11_200)
        #expect(state.shaky?.question?.letters == "HSOUR")
        #expect(state.shaky?.question?.fixedCount == 1)
        #expect(state.shaky?.question?.points == 225)

        _ = state.apply(Fixtures.json(Fixtures.wrongRed), at: 11_300)
        #expect(!state.isMyTurn)
        #expect(state.shaky?.results.last?.isCorrect == false)
        _ = state.apply(Fixtures.json(Fixtures.turnBlue), at: 11_400)
        #expect(!state.isMyTurn)
        #expect(state.shaky?.turnTeam == "Blue")

        _ = state.apply(Fixtures.json(Fixtures.reveal), at: 12_000)
        #expect(state.shaky?.phase == .reveal)
        #expect(state.shaky?.reveal?.answer == "Horus")
        #expect(state.shaky?.standings.first == Standing(team: "Blue", score: 300, rank: 1, correct: 1))
        #expect(state.remaining(until: state.shaky?.reveal?.nextAt, now: 12_000) == 5000)

        // the next question starts clean
        _ = state.apply(
            Fixtures.json(Fixtures.question.replacingOccurrences(of: #""number":3"#, with: #""number":4"#)), at: 13_000)
        #expect(state.shaky?.buzzOrder.isEmpty == true)
        #expect(state.shaky?.results.isEmpty == true)
        #expect(state.shaky?.question?.fixedCount == 0)

        _ = state.apply(Fixtures.json(Fixtures.final), at: 14_000)
        #expect(state.shaky?.phase == .finished)
        #expect(state.shaky?.standings.map(\.score) == [900, 450])
        #expect(!state.isGameRunning)
    }

    @Test func aResumedSnapshotKeepsTheScores() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.reveal])
        // reconnect: welcome with a game, then the snapshot's game message
        _ = state.apply(
            Fixtures.json(Fixtures.welcome.replacingOccurrences(of: "}", with: #","game":"shaky"}"#)), at: 20_000)
        _ = state.apply(Fixtures.json(Fixtures.shakyGame), at: 20_010)
        #expect(state.shaky?.standings.first?.score == 300)
        #expect(state.shaky?.reveal?.answer == "Horus")
    }

    @Test func welcomeWithoutAGameClearsAStaleOne() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        _ = state.apply(Fixtures.json(Fixtures.welcome), at: 30_000)
        #expect(state.game == nil)
    }

    @Test func kickedClosesTheLink() {
        var state = Fixtures.state([Fixtures.welcome])
        _ = state.apply(
            Fixtures.json(#"{"type":"error","code":"kicked","message":"The operator removed you from the room."}"#),
            at: 1)
        #expect(state.link == .closed("The operator removed you from the room."))
        #expect(state.notice?.isError == true)
    }

    @Test func theQueensDealIsVerifiedAtTheReveal() throws {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid"), Fixtures.secret, Fixtures.order,
        ])
        #expect(state.queen?.secret == 2)
        #expect(state.queen?.phase == .countdown)
        #expect(state.queen?.order?.targets == [2, 1])
        _ = state.apply(Fixtures.json(Fixtures.revealed), at: 30_000)
        let revealed = try #require(state.queen?.revealed)
        #expect(revealed.verification == .verified)
        #expect(revealed.numbers.map(\.name) == ["Bob", "Ann"])
    }

    @Test func aChangedDealIsCaught() throws {
        // the commitment was for Bob = 2, Ann = 1, but the reveal says Bob = 1, Ann = 2
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid", numbers: ["Bob": 2, "Ann": 1]),
        ])
        _ = state.apply(Fixtures.json(Fixtures.revealed), at: 30_000)
        #expect(state.queen?.revealed?.verification == .mismatch)
        #expect(EventText.line(for: Fixtures.json(Fixtures.revealed), in: state)?.contains("WARNING") == true)
    }

    @Test func aDealNeverSeenCannotBeVerified() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.queenGame])
        _ = state.apply(Fixtures.json(Fixtures.revealed), at: 30_000)
        #expect(state.queen?.revealed?.verification == .unknown)
    }

    @Test func theQueenLoadsTheLibraryWhenHerRoundStarts() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.queenGame])
        let actions = state.apply(Fixtures.json(Fixtures.round(queen: "Ann")), at: 20_000)
        #expect(actions.contains(.bell))
        let library = actions.compactMap(sent).first { $0.typeName == "library" }
        #expect(library?["action"]?.stringValue == "list")
        #expect(state.isChoosingQueen)
        _ = state.apply(Fixtures.json(Fixtures.library), at: 20_100)
        #expect(state.library.map(\.id) == ["b12", "b16"])
        #expect(state.ui.panel == nil)  // the Queen browses in the body, not a panel
    }

    @Test func plainLinesReadLikeTheHostsTextMode() {
        let state = Fixtures.state([
            Fixtures.welcome, Fixtures.lobby, Fixtures.shakyGame, Fixtures.question, Fixtures.buzzed,
        ])
        #expect(EventText.joined(state, isResume: false) == "joined room ABCD as Ann (Red)")
        #expect(EventText.line(for: Fixtures.json(Fixtures.lobby), in: state) == "Lobby: Red: Ann | Blue: Bob (away)")
        #expect(
            EventText.line(for: Fixtures.json(Fixtures.buzzed), in: state)?.hasPrefix(
                "Buzz order: Red +0 ms · Blue +37 ms ±4") == true)
        let question = EventText.line(for: Fixtures.json(Fixtures.question), in: state) ?? ""
        #expect(question.contains("S R O H U"))
        #expect(question.contains("30 s"))
        #expect(EventText.line(for: Fixtures.json(#"{"type":"sync","n":1,"h":2}"#), in: state) == nil)
        #expect(EventText.line(for: Fixtures.json(Fixtures.turnRed), in: state)?.hasPrefix(">>> Your turn") == true)
    }
}
