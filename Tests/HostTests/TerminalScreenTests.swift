import Testing

@testable import TestSupport

/// The terminal model the console tests read the screen with: each escape it knows, scrolling inside a region, and
/// that how the bytes are cut into writes never changes the screen.
@Suite("Terminal screen model")
struct TerminalScreenTests {
    /// A screen of `rows` by `columns` fed `bytes` in one piece.
    private func screen(_ bytes: String, rows: Int = 5, columns: Int = 10) -> TerminalScreen {
        var screen = TerminalScreen(rows: rows, columns: columns)
        screen.feed(bytes)
        return screen
    }

    @Test func textIsDrawnWhereTheCursorIsAndWrapsAtTheEdge() {
        var screen = screen("abc")
        #expect(screen.row(1) == "abc")
        #expect(screen.cursor == .init(row: 1, column: 4))
        screen.feed("defghij")
        #expect(screen.cursor == .init(row: 1, column: 10), "the last column waits to wrap")
        screen.feed("k")
        #expect(screen.lines == ["abcdefghij", "k", "", "", ""])
        #expect(screen.text == "abcdefghij\nk\n\n\n")
        #expect(screen.rows == 5 && screen.columns == 10)
    }

    @Test func carriageReturnLineFeedBackspaceAndTab() {
        let screen = screen("abc\rX\nY\u{8}Z\r\n\tT")
        #expect(screen.lines.prefix(3) == ["Xbc", " Z", "        T"], "LF goes down without going left")
        #expect(screen.cursor == .init(row: 3, column: 10))
    }

    @Test func utf8WideCharactersAndCombiningMarks() {
        let screen = screen("é東x\r\ne\u{301}!\r\n東京東京東京")
        #expect(screen.row(1) == "é東x")
        #expect(screen.cell(row: 1, column: 3).character == nil, "a wide character takes two columns")
        #expect(screen.cell(row: 1, column: 4).character == "x")
        #expect(screen.row(2) == "e\u{301}!")
        #expect(screen.row(3) == "東京東京東", "the sixth does not fit and wraps")
        #expect(screen.row(4) == "京")
    }

    @Test func absoluteAndRelativeCursorMoves() {
        var screen = screen("\u{1B}[3;4HA")
        #expect(screen.cursor == .init(row: 3, column: 5))
        screen.feed("\u{1B}[2;2fB\u{1B}[HC")
        #expect(screen.lines.prefix(3) == ["C", " B", "   A"])
        screen.feed("\u{1B}[2B\u{1B}[3CD\u{1B}[AE\u{1B}[2DF\u{1B}[7GG")
        #expect(screen.row(2) == " B  FEG")
        #expect(screen.row(3) == "   AD")
        screen.feed("\u{1B}[99;99H")
        #expect(screen.cursor == .init(row: 5, column: 10), "moves stop at the edges")
        screen.feed("\u{1B}[99A\u{1B}[99D")
        #expect(screen.cursor == .init(row: 1, column: 1))
    }

    @Test func erasingLinesAndTheScreen() {
        let full = "0123456789\r\n0123456789\r\n0123456789\r\n0123456789"
        var screen = screen(full + "\u{1B}[1;4H\u{1B}[K\u{1B}[2;4H\u{1B}[0K\u{1B}[3;4H\u{1B}[1K\u{1B}[4;4H\u{1B}[2K")
        #expect(screen.lines.prefix(4) == ["012", "012", "    456789", ""])
        screen = self.screen(full + "\u{1B}[2;5H\u{1B}[J")
        #expect(screen.lines.prefix(4) == ["0123456789", "0123", "", ""])
        screen = self.screen(full + "\u{1B}[2;5H\u{1B}[2J")
        #expect(screen.text == "\n\n\n\n")
        #expect(screen.cursor == .init(row: 2, column: 5), "erasing the screen leaves the cursor")
    }

    @Test func linesScrollInsideTheRegionOnly() {
        var screen = screen("top\u{1B}[5;1Hbottom\u{1B}[2;4r")
        #expect(screen.scrollRegion == 2...4)
        #expect(screen.cursor == .init(row: 1, column: 1), "setting a region homes the cursor")
        screen.feed("\u{1B}[2;1Ha\r\nb\r\nc\r\nd\r\ne")
        #expect(screen.lines == ["top", "c", "d", "e", "bottom"])
        screen.feed("\u{1B}[5;1H\r\n\r\n\u{1B}[2Klast")
        #expect(screen.lines == ["top", "c", "d", "e", "last"], "below the region the screen does not scroll")
        screen.feed("\u{1B}[r")
        #expect(screen.scrollRegion == 1...5)
        screen.feed("\u{1B}[5;1H\nnew")
        #expect(screen.lines == ["c", "d", "e", "last", "new"], "after a reset the whole screen scrolls")
        screen.feed("\u{1B}[2;3r\u{1B}[2;1H\u{1B}M")
        #expect(screen.lines == ["c", "", "d", "last", "new"], "a reverse index at the top scrolls down")
    }

    @Test func savedCursorComesBackWithItsAttributes() {
        var screen = screen("\u{1B}[2;3H\u{1B}[1m\u{1B}7\u{1B}[0m\u{1B}[5;1Hx\u{1B}8y")
        #expect(screen.row(2) == "  y")
        #expect(screen.cell(row: 2, column: 3).attributes == .bold)
        #expect(screen.cell(row: 5, column: 1).attributes == [])
        screen.feed("\u{1B}[4;4H\u{1B}[s\u{1B}[1;1Hz\u{1B}[uw")
        #expect(screen.row(4) == "   w")
        #expect(screen.row(1) == "z")
    }

    @Test func graphicRenditionIsKeptPerCell() {
        let screen = screen("\u{1B}[1ma\u{1B}[2mb\u{1B}[22;7mc\u{1B}[38;5;1;4md\u{1B}[0me\u{1B}[1;31mf\u{1B}[mg")
        let attributes = (1...7).map { screen.cell(row: 1, column: $0).attributes }
        #expect(
            attributes == [
                .bold, [.bold, .dim], .reverse, [.reverse, .underline], [], .bold, [],
            ])
        #expect(screen.row(1) == "abcdefg")
    }

    @Test func theAlternateScreenGivesTheMainScreenBack() {
        var screen = screen("main\u{1B}[2;3H")
        screen.feed("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[Halt")
        #expect(screen.isAlternateScreen)
        #expect(screen.text == "alt\n\n\n\n")
        screen.feed("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        #expect(!screen.isAlternateScreen)
        #expect(screen.text == "main\n\n\n\n")
        #expect(screen.cursor == .init(row: 2, column: 3))
    }

    @Test func unknownSequencesAreIgnoredSafely() {
        let screen = screen(
            "\u{1B}[?2004h\u{1B}]0;title\u{07}A\u{1B}]8;;http://x\u{1B}\\B\u{1B}(BC\u{1B}[5 qD\u{1B}Pq#0\u{1B}\\E"
                + "\u{1B}[>1uF\u{1B}[38:2::1:2:3mG\u{1B}[999999999999999999999CH\u{1B}[1;1H\u{1B}Z")
        #expect(screen.row(1) == "ABCDEFG  H")
        var runaway = TerminalScreen(rows: 2, columns: 10)
        runaway.feed("\u{1B}[" + String(repeating: "1;", count: 10_000) + "mok")
        #expect(runaway.row(1) == "ok", "a sequence of any length ends and is ignored")
    }

    @Test func resizingKeepsTheTopLeftAndResetsTheRegion() {
        var screen = screen("abc\u{1B}[2;4r\u{1B}[5;10H")
        screen.resize(rows: 3, columns: 2)
        #expect(screen.lines == ["ab", "", ""])
        #expect(screen.scrollRegion == 1...3)
        #expect(screen.cursor == .init(row: 3, column: 2))
    }

    /// Everything above, in one stream.
    private static let everything =
        "abc\rX\nY\u{8}Z\t東é\u{301}\u{1B}[3;4HA\u{1B}[2;2fB\u{1B}[2B\u{1B}[3CD\u{1B}[AE\u{1B}[7GG\u{1B}[1;4H\u{1B}[K"
        + "\u{1B}[2;4r\u{1B}[2;1Ha\r\nb\r\nc\r\nd\u{1B}[r\u{1B}[1m\u{1B}7\u{1B}[0m\u{1B}[5;1Hx\u{1B}8y\u{1B}[s"
        + "\u{1B}]0;title\u{07}\u{1B}]8;;u\u{1B}\\\u{1B}[38;5;1;4md\u{1B}[0m\u{1B}[?1049h\u{1B}[2Jalt\u{1B}[?1049l"
        + "\u{1B}[ue\u{1B}[2;5H\u{1B}[J東京東京東京東\u{1B}M\u{1B}[1K"

    @Test func everySplitIntoTwoWritesGivesTheSameScreen() {
        let bytes = Array(Self.everything.utf8)
        var whole = TerminalScreen(rows: 5, columns: 10)
        whole.feed(bytes)
        #expect(whole.text != "\n\n\n\n", "the stream draws something")
        for cut in 0...bytes.count {
            var split = TerminalScreen(rows: 5, columns: 10)
            split.feed(bytes[..<cut])
            split.feed(bytes[cut...])
            #expect(split.text == whole.text, "cut after byte \(cut)")
            #expect(split.cursor == whole.cursor, "cut after byte \(cut)")
            #expect(split.scrollRegion == whole.scrollRegion, "cut after byte \(cut)")
            let cells = (1...5).flatMap { row in (1...10).map { split.cell(row: row, column: $0) } }
            let wholeCells = (1...5).flatMap { row in (1...10).map { whole.cell(row: row, column: $0) } }
            #expect(cells == wholeCells, "cut after byte \(cut)")
        }
        var byteByByte = TerminalScreen(rows: 5, columns: 10)
        for byte in bytes { byteByByte.feed([byte]) }
        #expect(byteByByte.text == whole.text && byteByByte.cursor == whole.cursor)
    }
}
