import Common
import Testing

/// The one rule for text shown on terminals: what is refused where text enters, what is removed where it is shown.
@Suite struct TerminalTextTests {
    /// Characters a terminal obeys instead of showing, with the kind the rule gives each.
    static let refused: [(String, TerminalText.Kind)] = [
        ("\u{1B}", .escape), ("\u{07}", .control), ("\u{00}", .control), ("\u{7F}", .control),
        ("\u{9B}", .control), ("\u{9D}", .control), ("\t", .control), ("\n", .lineBreak), ("\r", .lineBreak),
        ("\u{85}", .lineBreak), ("\u{2028}", .lineBreak), ("\u{2029}", .lineBreak), ("\u{202E}", .direction),
        ("\u{202A}", .direction), ("\u{2066}", .direction), ("\u{2069}", .direction), ("\u{200F}", .direction),
        ("\u{061C}", .direction), ("\u{FEFF}", .invisible), ("\u{200B}", .invisible), ("\u{200D}", .invisible),
        ("\u{2060}", .invisible), ("\u{00AD}", .invisible), ("\u{E0041}", .invisible), ("\u{3164}", .invisible),
    ]

    @Test(arguments: 0..<refused.count)
    func everyControlAndInvisibleCharacterIsRefusedByName(index: Int) throws {
        let (character, kind) = TerminalTextTests.refused[index]
        let problem = try #require(TerminalText.problem(in: "Ann" + character + "a"))
        #expect(problem.kind == kind)
        #expect(problem.position == 4)
        #expect(problem.scalar == character.unicodeScalars.first)
        #expect(problem.refusal("A player name").hasPrefix("A player name "))
        #expect(problem.refusal("A player name").contains("U+"))
    }

    @Test func ordinaryTextOfEveryScriptPasses() {
        for text in [
            "Ann", "Équipe Rouge", "Zoë & Jürgen", "東京チーム", "Команда", "فريق", "😀 Team", "No. {1} must wave!",
            "a'b-c.d (e) [f] {g} ~ ^ | \\ ` @ # $ % *", "Ünïcödé — “quotes” … ½",
        ] {
            #expect(TerminalText.problem(in: text) == nil, "\(text)")
            #expect(TerminalText.sanitized(text) == text, "\(text)")
        }
        #expect(TerminalText.problem(in: "two\nlines", allowingLineBreaks: true) == nil)
        #expect(TerminalText.problem(in: "two\r\nlines", allowingLineBreaks: true)?.kind == .lineBreak)
    }

    @Test func refusalsReadAsSentences() throws {
        let escape = try #require(TerminalText.problem(in: "x\u{1B}[2J"))
        #expect(
            escape.refusal("A player name")
                == "A player name may not contain control characters, escape sequences or invisible formatting "
                + "(it has an escape character, U+001B).")
        let override = try #require(TerminalText.problem(in: "Ann\u{202E}"))
        #expect(override.description == "a text-direction control, U+202E")
        let lineBreak = try #require(TerminalText.problem(in: "one\u{2028}two"))
        #expect(lineBreak.refusal("The question") == "The question must fit on one line (it has a line break, U+2028).")
    }

    @Test func sanitizingRemovesWholeEscapeSequences() {
        let cases: [(String, String)] = [
            ("\u{1B}]0;pwned\u{07}Hello", "Hello"),  // window title (OSC … BEL)
            ("\u{1B}]2;pwned\u{1B}\\Hello", "Hello"),  // window title (OSC … ST)
            ("a\u{1B}[2J\u{1B}[H\u{1B}[3Jb", "ab"),  // wipe the screen, home the cursor
            ("red \u{1B}[1;31mbold\u{1B}[0m", "red bold"),  // colours
            ("\u{1B}[?1049h\u{1B}[?25lx", "x"),  // alternate screen, hidden cursor
            ("\u{1B}Pq#0;2;0;0;0\u{1B}\\done", "done"),  // DCS (sixel)
            ("\u{1B}7\u{1B}8\u{1B}c\u{1B}(Bok", "ok"),  // save, restore, reset, charset
            ("\u{9B}2Jx\u{9D}0;t\u{9C}y", "xy"),  // the same as C1 controls
            ("open \u{1B}]0;never closed\nnext line", "open \nnext line"),  // an open string ends at the line
            ("\u{1B}]0;t\u{1B}[2Jafter", "after"),  // a string ended by another sequence
            ("tail \u{1B}", "tail "), ("tail \u{1B}[12", "tail "),
        ]
        for (input, expected) in cases {
            let shown = TerminalText.sanitized(input)
            #expect(shown == expected, "\(input.debugDescription)")
            #expect(TerminalText.problem(in: shown, allowingLineBreaks: true) == nil, "\(input.debugDescription)")
        }
    }

    @Test func sanitizingDropsInvisiblesAndKeepsOrFoldsLineBreaks() {
        #expect(TerminalText.sanitized("A\u{202E}nn\u{200D}\u{FEFF}") == "Ann")
        #expect(TerminalText.sanitized("one\r\ntwo\rthree\u{2028}four\nfive") == "one\ntwo\nthree\nfour\nfive")
        #expect(TerminalText.sanitized("one\r\ntwo\nthree", keepingLineBreaks: false) == "one two three")
        #expect(TerminalText.sanitized("a\tb\u{07}c\u{00}d\u{7F}") == "a bcd")
    }

    @Test func sanitizedTextNeverHoldsAnythingTheRuleRefuses() {
        var state: UInt64 = 0x5EED
        func nextRandom() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pieces = [
            "\u{1B}", "[", "]", "0", ";", "2", "J", "\u{07}", "\\", "P", "\u{9B}", "\u{9C}", "\u{9D}", "\n", "\r",
            "a", "é", "😀", "\u{202E}", "\u{200D}", "\u{2028}", " ", "\t", "m", "?", "(", "B",
        ]
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int(nextRandom() % 24) { text += pieces[Int(nextRandom() % UInt64(pieces.count))] }
            let shown = TerminalText.sanitized(text)
            #expect(TerminalText.problem(in: shown, allowingLineBreaks: true) == nil, "\(text.debugDescription)")
            let oneLine = TerminalText.sanitized(text, keepingLineBreaks: false)
            #expect(TerminalText.problem(in: oneLine) == nil, "\(text.debugDescription)")
        }
    }
}
