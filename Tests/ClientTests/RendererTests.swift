import Protocol
import Testing

@testable import Client

/// The sizes every view is checked at: a classic terminal and a big one.
let screenSizes: [(width: Int, height: Int)] = [(80, 24), (120, 40)]

/// Renders plain text (no escapes) and checks the frame's shape: exactly `height` lines, none wider than `width`.
func screen(_ state: ClientState, _ size: (width: Int, height: Int), now: Int64 = 10_100) -> [String] {
    let lines = render(state, width: size.width, height: size.height, now: now, options: .plainText)
    #expect(lines.count == size.height)
    for line in lines {
        #expect(ScreenText.width(of: line) <= size.width, "too wide at \(size.width): \(line)")
    }
    return lines
}

/// The styled frame's visible text has the same shape as the plain one.
func checkStyled(_ state: ClientState, _ size: (width: Int, height: Int), now: Int64 = 10_100) {
    let styled = render(state, width: size.width, height: size.height, now: now, options: RenderOptions())
    #expect(styled.count == size.height)
    for line in styled { #expect(ScreenText.width(of: ScreenText.stripEscapes(line)) <= size.width) }
    #expect(styled.contains { $0.contains("\u{1B}[") })
}

extension Array where Element == String {
    var text: String { joined(separator: "\n") }
}

/// Whether the letters appear on screen in one of the renderer's letter styles (rows may carry trailing blanks).
func showsLetters(_ letters: String, in lines: [String], width: Int) -> Bool {
    for style in ScreenRenderer.LetterStyle.allCases {
        guard let rows = ScreenRenderer.letterRows(letters, fixedCount: 0, style: style, width: width) else { continue }
        let texts = rows.map { ScreenText.encode($0, isStyled: false, isColorEnabled: false) }
        if texts.allSatisfy({ row in lines.contains { $0.hasPrefix(row) } }) { return true }
    }
    return false
}

@Suite("The full-screen renderer")
struct RendererTests {
    static let questionState = Fixtures.state([Fixtures.welcome, Fixtures.lobby, Fixtures.shakyGame, Fixtures.question])

    @Test(arguments: [0, 1])
    func questionShowsLettersClockAndScores(sizeIndex: Int) {
        let size = screenSizes[sizeIndex]
        let lines = screen(RendererTests.questionState, size, now: 10_100)
        let text = lines.text
        #expect(text.contains("Which Egyptian sky god had the head of a falcon?"))
        #expect(text.contains("Question 3 of 10"))
        #expect(showsLetters("SROHU", in: lines, width: size.width))
        // host deadline 39 000 = client 40 000; at 10 100 that is 29.9 s
        #expect(text.contains("Buzz clock   29.9 s"))
        #expect(text.contains("#1  Red"))
        #expect(text.contains("[Space]/[Enter] buzz"))
        #expect(lines[0].contains("room ABCD · Ann (Red)"))
        checkStyled(RendererTests.questionState, size)
    }

    @Test func theClockCountsDownBetweenFrames() {
        let early = screen(RendererTests.questionState, screenSizes[0], now: 10_100).text
        let later = screen(RendererTests.questionState, screenSizes[0], now: 12_400).text
        #expect(early.contains("29.9 s"))
        #expect(later.contains("27.6 s"))
    }

    @Test func bigLettersWhenTheyFitAndBoxesOrSpacingWhenNot() throws {
        let big = try #require(ScreenRenderer.letterRows("HORUS", fixedCount: 0, style: .big, width: 80))
        #expect(big.count == BigFont.height)
        #expect(
            ScreenRenderer.letterRows(String(repeating: "A", count: 20), fixedCount: 0, style: .big, width: 80) == nil)
        let boxed = try #require(ScreenRenderer.letterRows("NEW YORK", fixedCount: 0, style: .boxed, width: 80))
        #expect(ScreenText.encode(boxed[1], isStyled: false, isColorEnabled: false).contains("│ N │ │ E │ │ W │"))
        let spaced = try #require(
            ScreenRenderer.letterRows(String(repeating: "Z", count: 30), fixedCount: 0, style: .spaced, width: 80))
        #expect(ScreenText.width(of: spaced[0]) <= 80)
        // a long answer on a narrow screen still fits
        let state = Fixtures.state([
            Fixtures.welcome, Fixtures.shakyGame,
            Fixtures.question.replacingOccurrences(of: "SROHU", with: "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG"),
        ])
        let lines = screen(state, (40, 24))
        #expect(lines.text.contains("T H E"))
    }

    @Test(arguments: [0, 1])
    func buzzOrderShowsMargins(sizeIndex: Int) {
        let state = Fixtures.state([
            Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.buzzed, Fixtures.turnBlue,
        ])
        let text = screen(state, screenSizes[sizeIndex]).text
        #expect(text.contains("Red +0 ms · Blue +37 ms ±4"))
        #expect(text.contains("Answering    Blue"))
        #expect(!text.contains("YOUR TURN"))
    }

    @Test(arguments: [0, 1])
    func yourTurnShowsTheAnswerLineAndHint(sizeIndex: Int) {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.buzzed, Fixtures.turnRed, Fixtures.hint,
        ])
        for character in "hor" { _ = state.handle(.character(character), at: 10_100) }
        let lines = screen(state, screenSizes[sizeIndex])
        let text = lines.text
        #expect(text.contains("YOUR TURN"))
        #expect(text.contains("answer clock 59.9 s"))  // host 69 000 = client 70 000, seen at 10 100
        #expect(text.contains("Your answer › hor"))
        #expect(text.contains("1 letter in place"))
        #expect(text.contains("225 points"))
        #expect(showsLetters("HSOUR", in: lines, width: screenSizes[sizeIndex].width))
        checkStyled(state, screenSizes[sizeIndex])
    }

    @Test(arguments: [0, 1])
    func revealShowsTheAnswerAndNextClock(sizeIndex: Int) {
        let state = Fixtures.state([
            Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.buzzed, Fixtures.wrongRed,
            Fixtures.reveal,
        ])
        let lines = screen(state, screenSizes[sizeIndex], now: 10_100)
        let text = lines.text
        #expect(text.contains("the answer was"))
        #expect(showsLetters("HORUS", in: lines, width: screenSizes[sizeIndex].width))
        #expect(text.contains("Blue scored 300 points"))
        #expect(text.contains("✘ Red: wrong."))
        #expect(text.contains("Next question in"))
    }

    @Test(arguments: [0, 1])
    func finalScoreboardRanksTeams(sizeIndex: Int) throws {
        let state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.final])
        let lines = screen(state, screenSizes[sizeIndex])
        let text = lines.text
        #expect(text.contains("FINAL SCOREBOARD"))
        let blue = try #require(lines.firstIndex { $0.contains("#1  Blue") && $0.contains("900 points") })
        let red = try #require(lines.firstIndex { $0.contains("#2  Red") && $0.contains("450 points") })
        #expect(blue < red)
        #expect(lines[red].contains("your team"))
        #expect(text.contains("Blue wins!"))
    }

    @Test(arguments: [0, 1])
    func aCitizenSeesOnlyTheirOwnNumber(sizeIndex: Int) throws {
        let size = screenSizes[sizeIndex]
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid"), Fixtures.secret,
        ])
        let hidden = screen(state, size, now: 10_100)
        #expect(hidden.text.contains("Your secret number is hidden: hold h to see it"))
        #expect(hidden.text.contains("Cid is choosing an order"))
        // hidden: neither in big digits nor as text
        for digit in ["1", "2"] {
            let rows = try #require(ScreenRenderer.letterRows(digit, fixedCount: 0, style: .big, width: size.width))
            #expect(!hidden.contains(ScreenText.encode(rows[1], isStyled: false, isColorEnabled: false)))
            #expect(!hidden.text.contains("No. \(digit)"))
        }
        // h shows it, small, for a moment; then it hides again
        #expect(state.handle(.character("h"), at: 10_100).isEmpty)
        let lines = screen(state, size, now: 10_200)
        let text = lines.text
        #expect(text.contains("Your number:  No. 2"))
        let digitRows = try #require(ScreenRenderer.letterRows("2", fixedCount: 0, style: .big, width: size.width))
        #expect(!lines.contains(ScreenText.encode(digitRows[1], isStyled: false, isColorEnabled: false)), "small")
        #expect(!text.contains("No. 1"))  // nobody else's
        #expect(!screen(state, size, now: 13_200).text.contains("No. 2"))
        // the board shows no secret at all
        let board = Fixtures.state(
            role: .board, name: "", team: "", [Fixtures.queenGame, Fixtures.round(queen: "Cid")])
        let boardText = screen(board, size).text
        #expect(boardText.contains("Each citizen sees only their own secret number."))
        #expect(!boardText.contains("Your secret number"))
    }

    @Test(arguments: [0, 1])
    func theQueenBrowsesTheLibrary(sizeIndex: Int) {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Ann"), Fixtures.library,
        ])
        _ = state.handle(.down, at: 10_100)
        let text = screen(state, screenSizes[sizeIndex]).text
        #expect(text.contains("You are the Queen!"))
        #expect(text.contains("b12"))
        #expect(text.contains("No. {1} sings to Queen Ann."))  // {queen} filled in
        #expect(text.contains("▶ b16"))
        #expect(text.contains("Time to choose"))
        #expect(!text.contains("Your secret number"))
    }

    @Test(arguments: [0, 1])
    func theRevealIsVerifiedOrLoudlyWarned(sizeIndex: Int) {
        let verified = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid"), Fixtures.secret,
            Fixtures.order, Fixtures.revealed,
        ])
        let text = screen(verified, screenSizes[sizeIndex]).text
        #expect(text.contains("No. 1 = Bob"))
        #expect(text.contains("No. 2 = Ann"))
        #expect(text.contains("✔ deal verified"))
        let tampered = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid", numbers: ["Bob": 2, "Ann": 1]),
            Fixtures.order, Fixtures.revealed,
        ])
        let warning = screen(tampered, screenSizes[sizeIndex]).text
        #expect(warning.contains("WARNING: the deal does NOT match"))
        #expect(!warning.contains("deal verified"))
    }

    @Test func theCountdownTellsTheTargets() {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid"), Fixtures.secret, Fixtures.order,
        ])
        let hidden = screen(state, screenSizes[0], now: 16_000).text
        #expect(hidden.contains("No. 2 must sing to No. 1"))
        #expect(hidden.contains("hold h to see it and whether you must act"))
        #expect(!hidden.contains("That's you"))
        #expect(hidden.contains("Reveal in  5.0 s"))  // host 20 000 = client 21 000
        _ = state.handle(.character("h"), at: 16_000)
        #expect(screen(state, screenSizes[0], now: 16_000).text.contains("No. 2   That's you — you must act!"))
    }

    @Test(arguments: [0, 1])
    func theBoardShowsTheRoomToJoin(sizeIndex: Int) {
        var state = Fixtures.state(
            role: .board, name: "", team: "",
            [
                #"{"type":"welcome","room":"ABCD","role":"board","hostTime":9000}"#, Fixtures.lobby,
            ])
        state.hostAddress = "192.168.1.20"
        let lines = screen(state, screenSizes[sizeIndex])
        #expect(lines.text.contains("partyline 192.168.1.20 --room ABCD"))
        #expect(showsLetters("ABCD", in: lines, width: screenSizes[sizeIndex].width))
        #expect(lines.text.contains("Bob (away)"))
    }

    @Test func reconnectingIsShownNotACrash() {
        var state = RendererTests.questionState
        state.link = .reconnecting(attempt: 2, nextAttemptAt: 10_600)
        let text = screen(state, screenSizes[0]).text
        #expect(text.contains("reconnecting…"))
        #expect(text.contains("Which Egyptian sky god"))
    }

    @Test func helpAndQuitConfirmation() {
        var state = RendererTests.questionState
        _ = state.handle(.character("?"), at: 10_100)
        #expect(screen(state, screenSizes[0]).text.contains("Space or Enter   buzz"))
        _ = state.handle(.character("x"), at: 10_100)
        _ = state.handle(.character("q"), at: 10_100)
        #expect(screen(state, screenSizes[0]).text.contains("Leave the game? Press y"))
    }

    @Test func tinyAndOddSizesNeverOverflow() {
        let state = Fixtures.state([
            Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.buzzed, Fixtures.turnRed,
        ])
        for size in [(20, 6), (33, 10), (1, 1), (200, 60)] {
            let lines = render(state, width: size.0, height: size.1, now: 10_100, options: .plainText)
            #expect(lines.count == size.1)
            #expect(lines.allSatisfy { ScreenText.width(of: $0) <= size.0 })
        }
    }

    @Test func noColorKeepsBoldButDropsColours() {
        let lines = render(
            RendererTests.questionState, width: 80, height: 24, now: 10_100,
            options: RenderOptions(isColorEnabled: false, isStyled: true))
        let all = lines.joined()
        #expect(all.contains("\u{1B}[1"))
        #expect(!all.contains(";3"))
        #expect(!all.contains("[3"))
    }
}
