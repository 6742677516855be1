/// The one rule for text that people's terminals show: names, teams, commands, questions, answers, pack and list
/// names, hunt and word content — anything that came from a person or a file and is shown to someone else.
///
/// A terminal obeys some characters instead of showing them: C0 and C1 controls (ESC starts sequences that move
/// the cursor, wipe the screen or set the window title), bidi overrides and isolates (which reorder what follows),
/// line and paragraph separators, byte-order marks, zero-width joiners and other invisible format characters. None
/// of them belongs in a name or a question.
///
/// The rule is applied twice:
/// - **where text enters** (the network, the console, a CSV or JSON file): `problem(in:)` finds the first character
///   that is not allowed, and the caller refuses the text with a clear error built from it, such as
///   `problem.refusal("A player name")` — "A player name may not contain control characters or invisible
///   formatting (it has an escape character, U+001B)";
/// - **where text is written to a terminal** (the host's console and log, text-mode connections, the client's
///   screen): `sanitized(_:)` drops whole escape sequences and every character that is not allowed, so text that
///   got in some other way (an old file, a newer peer) is shown inert.
///
/// Every content kind calls these two functions; none keeps a list of its own.
public enum TerminalText {
    /// Why a character may not be shown on a terminal.
    public enum Kind: Sendable, Equatable {
        /// ESC (U+001B), which starts terminal escape sequences.
        case escape
        /// Another C0 or C1 control character, or DEL.
        case control
        /// A line or paragraph break where the text must fit on one line.
        case lineBreak
        /// A character that changes the direction of the text around it (bidi overrides, embeddings, isolates).
        case direction
        /// An invisible format character: zero-width joiners and spaces, byte-order marks, soft hyphens, tags.
        case invisible
    }

    /// The first character of a text that a terminal must not be given.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The character.
        public let scalar: Unicode.Scalar
        /// What kind of character it is.
        public let kind: Kind
        /// Its position in the text, counted in Unicode scalars from 1.
        public let position: Int

        /// The character in words, with its code point: "an escape character, U+001B".
        public var description: String {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let what =
                switch kind {
                case .escape: "an escape character"
                case .control: scalar == "\t" ? "a tab" : "a control character"
                case .lineBreak: "a line break"
                case .direction: "a text-direction control"
                case .invisible: "an invisible formatting character"
                }
            return "\(what), \(code)"
        }

        /// The refusal for `subject` ("A player name", "The question"): "A player name may not contain control
        /// characters or invisible formatting (it has an escape character, U+001B)."
        public func refusal(_ subject: String) -> String {
            let rule =
                kind == .lineBreak
                ? "must fit on one line"
                : "may not contain control characters, escape sequences or invisible formatting"
            return "\(subject) \(rule) (it has \(self))."
        }
    }

    /// The first character of `text` a terminal must not be given, or nil when all of it may be shown.
    /// `allowingLineBreaks` lets `\n` through (for text that may span lines); CR, U+2028 and U+2029 never are.
    public static func problem(in text: String, allowingLineBreaks: Bool = false) -> Problem? {
        if isPlainASCII(text, allowingLineBreaks: allowingLineBreaks) { return nil }
        var position = 0
        for scalar in text.unicodeScalars {
            position += 1
            if let kind = kind(of: scalar), !(allowingLineBreaks && scalar == "\n") {
                return Problem(scalar: scalar, kind: kind, position: position)
            }
        }
        return nil
    }

    /// Whether `scalar` may be shown on a terminal as part of one line of text.
    public static func isShowable(_ scalar: Unicode.Scalar) -> Bool { kind(of: scalar) == nil }

    /// `text` as a terminal may show it: escape sequences (CSI, OSC, DCS and the like, by ESC or as C1 controls) are
    /// removed whole, tabs become spaces, other controls and invisible or direction-changing characters are dropped.
    /// Line breaks (`\n`, CR LF, U+2028, U+2029) become `\n` when `keepingLineBreaks`, else a space.
    public static func sanitized(_ text: String, keepingLineBreaks: Bool = true) -> String {
        if isPlainASCII(text, allowingLineBreaks: keepingLineBreaks) { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B:
                pending = skipEscapeSequence(introducedBy: next(), next)
            case 0x9B:
                pending = skipControlSequence(next)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                pending = skipString(next)
            case 0x0A, 0x2028, 0x2029:
                result.append(keepingLineBreaks ? "\n" : " ")
            case 0x0D:
                let following = next()
                if following != "\n" { pending = following }
                result.append(keepingLineBreaks ? "\n" : " ")
            case 0x09:
                result.append(" ")
            default:
                if kind(of: scalar) == nil { result.append(scalar) }
            }
        }
        return String(result)
    }

    // MARK: Classification

    /// Printable ASCII (and `\n` when allowed) needs no further look: the common case.
    private static func isPlainASCII(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.utf8.allSatisfy { byte in (byte >= 0x20 && byte < 0x7F) || (allowingLineBreaks && byte == 0x0A) }
    }

    /// Why `scalar` may not be shown, or nil when it may.
    private static func kind(of scalar: Unicode.Scalar) -> Kind? {
        switch scalar.value {
        case 0x1B: return .escape
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return .lineBreak
        case 0x00...0x1F, 0x7F...0x9F: return .control
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return .direction
        // Hangul fillers and the like: letters by category, blank on screen.
        case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x180E: return .invisible
        default: break
        }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .surrogate: return .invisible
        default: return nil
        }
    }

    // MARK: Escape sequences

    /// Skips what follows an ESC, starting with `introducer`: a CSI (`ESC [`), a string (`ESC ]`, `ESC P`, `ESC X`,
    /// `ESC ^`, `ESC _`) or one more character (`ESC 7`, `ESC ( B`…). Returns a character read ahead that is not part
    /// of the sequence.
    private static func skipEscapeSequence(
        introducedBy introducer: Unicode.Scalar?, _ next: () -> Unicode.Scalar?
    ) -> Unicode.Scalar? {
        guard let introducer else { return nil }
        switch introducer {
        case "[": return skipControlSequence(next)
        case "]", "P", "X", "^", "_": return skipString(next)
        default:
            // Intermediate bytes (`ESC ( B`), then one final byte; anything else is not part of it.
            var scalar: Unicode.Scalar? = introducer
            while let current = scalar, (0x20...0x2F).contains(current.value) { scalar = next() }
            guard let final = scalar else { return nil }
            return (0x30...0x7E).contains(final.value) ? nil : final
        }
    }

    /// Skips a control sequence's parameters and intermediates up to its final byte (0x40–0x7E); a character that
    /// cannot be part of it ends it and is returned to be read again.
    private static func skipControlSequence(_ next: () -> Unicode.Scalar?) -> Unicode.Scalar? {
        while let scalar = next() {
            switch scalar.value {
            case 0x20...0x3F: continue
            case 0x40...0x7E: return nil
            default: return scalar
            }
        }
        return nil
    }

    /// Skips an OSC, DCS, SOS, PM or APC string up to its terminator (BEL, ESC \ or ST); a line break or another
    /// control ends it too, so a string left open cannot swallow the rest of the text.
    private static func skipString(_ next: () -> Unicode.Scalar?) -> Unicode.Scalar? {
        while let scalar = next() {
            switch scalar.value {
            case 0x07, 0x9C: return nil
            case 0x1B:
                let following = next()
                return following == "\\" ? nil : skipEscapeSequence(introducedBy: following, next)
            case 0x00...0x1F, 0x7F...0x9F: return scalar
            default: continue
            }
        }
        return nil
    }
}

extension TerminalText {
    /// Columns `character` takes in a terminal: 0 for combining marks, 2 for wide East Asian and emoji, else 1.
    public static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD,
    ]

    /// Columns `text` takes in a terminal.
    public static func columns(of text: String) -> Int { text.reduce(0) { $0 + columns(of: $1) } }

    /// `text` cut to at most `width` columns, ending in `…` when cut.
    public static func truncated(_ text: String, toColumns width: Int) -> String {
        guard width > 0 else { return "" }
        guard columns(of: text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let taken = columns(of: character)
            if used + taken > width - 1 { break }
            result.append(character)
            used += taken
        }
        return result + "…"
    }
}
