import Protocol
import Testing

@testable import Client

/// What the screen says is true now: notices end with their phase, closed clocks read as closed, clocks stop while
/// the host is unreachable, and letters in place are marked without colour.
@Suite("Status always true")
struct StatusTruthTests {
    @Test func aNoticeEndsWithThePhaseItBelongsTo() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        let refusal = #"{"type":"error","code":"already_buzzed","message":"Your team already buzzed."}"#
        _ = state.apply(Fixtures.json(refusal), at: 10_100)
        #expect(state.visibleNotice(now: 10_200)?.text == "Your team already buzzed.")
        _ = state.apply(Fixtures.json(Fixtures.reveal), at: 10_300)
        #expect(state.visibleNotice(now: 10_400) == nil, "no \"already buzzed\" on the reveal")

        // A notice given during the game is gone on the final scoreboard.
        _ = state.apply(Fixtures.json(#"{"type":"notice","message":"The operator paused the game."}"#), at: 10_500)
        #expect(state.visibleNotice(now: 10_600) != nil)
        _ = state.apply(Fixtures.json(Fixtures.final), at: 10_700)
        #expect(state.visibleNotice(now: 10_800) == nil)

        // Ended while paused: the final scoreboard is not "paused".
        var ended = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        _ = ended.apply(Fixtures.json(#"{"type":"paused","at":9500}"#), at: 10_500)
        #expect(screen(ended, screenSizes[0]).first?.contains("PAUSED") == true)
        _ = ended.apply(Fixtures.json(Fixtures.final), at: 10_600)
        #expect(screen(ended, screenSizes[0]).first?.contains("PAUSED") == false)

        // Notices still time out within a phase (errors 10 s, others 6 s).
        _ = state.apply(Fixtures.json(#"{"type":"notice","message":"Thanks!"}"#), at: 20_000)
        #expect(state.visibleNotice(now: 25_900) != nil)
        #expect(state.visibleNotice(now: 26_100) == nil)
    }

    @Test func aNoteAboutTheConnectionOutlivesTheCatchUp() {
        var state = Fixtures.state([Fixtures.welcome])
        state.setNotice("Reconnected — you kept your place.", isError: false, at: 10_000, isLasting: true)
        _ = state.apply(Fixtures.json(Fixtures.shakyGame), at: 10_010)
        _ = state.apply(Fixtures.json(Fixtures.question), at: 10_020)
        #expect(state.visibleNotice(now: 10_100)?.text == "Reconnected — you kept your place.")
    }

    @Test func aClosedClockIsNotShownAsZero() {
        let state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        // host deadline 39 000 = client 40 000
        let closed = screen(state, screenSizes[0], now: 40_500).text
        #expect(closed.contains("Buzz clock   time's up"))
        #expect(!closed.contains("0.0 s"))
    }

    @Test func theLastQuestionDoesNotAnnounceANextOne() {
        let last = Fixtures.reveal.replacingOccurrences(of: #""last":false"#, with: #""last":true"#)
        let state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, last])
        let text = screen(state, screenSizes[0]).text
        #expect(text.contains("Final scores in"))
        #expect(!text.contains("Next question"))
        let line = state.game.flatMap { game in
            Fixtures.json(last).objectValue.flatMap { game.line(for: $0, in: state) }
        }
        #expect(line?.contains("Final scores in") == true && line?.contains("Next question") == false)
    }

    @Test func clocksStopWhileTheHostIsUnreachable() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        #expect(screen(state, screenSizes[0], now: 10_100).text.contains("Buzz clock   29.9 s"))
        state.lostHost(at: 10_100, attempt: 1, nextAttemptAt: 10_300)
        let frozen = screen(state, screenSizes[0], now: 20_100).text
        #expect(frozen.contains("Buzz clock   29.9 s  (stopped: the host is unreachable)"))
        // back: the welcome measures the clock again and the catch-up brings the true deadline
        _ = state.apply(Fixtures.json(Fixtures.welcome), at: 20_200)
        #expect(state.unreachableSince == nil)
    }

    @Test func aForgivenMisspellingIsSaidOnTheRevealToo() {
        let right = #"{"type":"result","team":"Blue","correct":true,"points":300,"timedOut":false,"misspelled":true}"#
        let state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, right, Fixtures.reveal])
        #expect(screen(state, screenSizes[0]).text.contains("(a small misspelling was forgiven)"))
    }

    @Test func lettersInPlaceAreMarkedWithoutColour() throws {
        // Two of five letters in place: every style marks them in plain text, not only in green.
        let boxed = try #require(ScreenRenderer.letterRows("HOSRU", fixedCount: 2, style: .boxed, width: 80))
        let middle = ScreenText.encode(boxed[1], isStyled: false, isColorEnabled: false)
        #expect(middle.contains("║ H ║ ║ O ║ │ S │"))
        let spaced = try #require(ScreenRenderer.letterRows("HOSRU", fixedCount: 2, style: .spaced, width: 80))
        #expect(ScreenText.encode(spaced[0], isStyled: false, isColorEnabled: false).contains("[H] [O] S R U"))
        let big = try #require(ScreenRenderer.letterRows("HOSRU", fixedCount: 2, style: .big, width: 80))
        #expect(big.count == BigFont.height + 1, "a bar under the letters in place")
        #expect(ScreenText.encode(big[BigFont.height], isStyled: false, isColorEnabled: false).contains("▀"))
        // With styles but no colour they are underlined too.
        let styled = ScreenText.encode(spaced[0], isStyled: true, isColorEnabled: false)
        #expect(styled.contains("\u{1B}[1;4m"))
        // A revealed answer (all in place) is not marked.
        let answer = try #require(ScreenRenderer.letterRows("HORUS", fixedCount: Int.max, style: .spaced, width: 80))
        #expect(!ScreenText.encode(answer[0], isStyled: false, isColorEnabled: false).contains("["))
        // Text mode brackets them as well.
        #expect(ShakyWire.markedLetters("HOSRU", fixed: 2) == "[H] [O] S R U")
    }
}
