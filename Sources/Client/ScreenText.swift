import Protocol

/// How a run of text looks on the screen.
struct Style: Equatable, Sendable {
    /// A terminal colour (the 8 standard ones).
    enum Color: UInt8, Sendable {
        case black = 0
        case red, green, yellow, blue, magenta, cyan, white
    }

    var isBold = false
    var isDim = false
    var isInverse = false
    var color: Color?
    /// Underlined: a mark that stays without colour (NO_COLOR).
    var isUnderlined = false
    /// A background colour, drawn in its bright shade (the QR code's white); like `color`, only with colours on.
    var background: Color?

    static let plain = Style()
    static let bold = Style(isBold: true)
    static let dim = Style(isDim: true)
    static func colored(_ color: Color, bold: Bool = false) -> Style { Style(isBold: bold, color: color) }

    /// The SGR escape that switches to this style from the default (empty for plain).
    func escape(isColorEnabled: Bool) -> String {
        var codes: [String] = []
        if isBold { codes.append("1") }
        if isDim { codes.append("2") }
        if isInverse { codes.append("7") }
        if isUnderlined { codes.append("4") }
        if isColorEnabled, let color { codes.append("3\(color.rawValue)") }
        if isColorEnabled, let background { codes.append("10\(background.rawValue)") }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// One styled run of text.
struct Span: Equatable, Sendable {
    var text: String
    var style: Style

    init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// One screen row: styled runs, left to right.
typealias Row = [Span]

/// Terminal column widths and the small text helpers the renderer needs.
enum ScreenText {
    /// Columns `character` takes in a terminal (see `TerminalText.columns(of:)`).
    static func width(of character: Character) -> Int { TerminalText.columns(of: character) }

    /// Columns `text` takes.
    static func width(of text: String) -> Int { TerminalText.columns(of: text) }

    /// Columns a row takes.
    static func width(of row: Row) -> Int { row.reduce(0) { $0 + width(of: $1.text) } }

    /// `text` cut to at most `columns` columns, ending in `…` when cut.
    static func truncate(_ text: String, to columns: Int) -> String { TerminalText.truncated(text, toColumns: columns) }

    /// A row cut to at most `columns` columns.
    static func truncate(_ row: Row, to columns: Int) -> Row {
        guard width(of: row) > columns else { return row }
        var result: Row = []
        var left = columns
        for span in row {
            let w = width(of: span.text)
            if w <= left {
                result.append(span)
                left -= w
            } else {
                if left > 0 { result.append(Span(truncate(span.text, to: left), span.style)) }
                break
            }
        }
        return result
    }

    /// Words of `text` wrapped into lines of at most `columns` columns (long words are cut).
    static func wrap(_ text: String, to columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let word = String(word)
                if line.isEmpty {
                    line = truncate(word, to: columns)
                } else if width(of: line) + 1 + width(of: word) <= columns {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = truncate(word, to: columns)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` with every ANSI escape sequence (CSI and OSC) removed: what a person reads.
    static func stripEscapes(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            switch iterator.next() {
            case "["?: while let next = iterator.next(), !(0x40...0x7E).contains(next.value) {}
            case "]"?: while let next = iterator.next(), next != "\u{07}" {}
            default: break
            }
        }
        return String(result)
    }

    /// The row as terminal text, with SGR escapes when `isColorEnabled` or a style needs them.
    ///
    /// Each span's text is shown inert (`TerminalText.sanitized`): whatever a host or another player sent, the only
    /// escapes that reach the terminal are the renderer's own.
    static func encode(_ row: Row, isStyled: Bool, isColorEnabled: Bool) -> String {
        var output = ""
        for span in row {
            let escape = isStyled ? span.style.escape(isColorEnabled: isColorEnabled) : ""
            let text = TerminalText.sanitized(span.text, keepingLineBreaks: false)
            if escape.isEmpty {
                output += text
            } else {
                output += escape + text + "\u{1B}[0m"
            }
        }
        return output
    }

    /// `27.3 s` (tenths below a minute), `1:05` above.
    /// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }

    /// A running clock, or what it means once it reached zero (`time's up`), never `0.0 s`.
    static func countdown(_ milliseconds: Int64) -> String { milliseconds > 0 ? clock(milliseconds) : "time's up" }

    static func clock(_ milliseconds: Int64) -> String {
        let value = max(0, milliseconds)
        if value >= 60_000 {
            let seconds = (value + 999) / 1000
            let rest = seconds % 60
            return "\(seconds / 60):\(rest < 10 ? "0" : "")\(rest)"
        }
        let tenths = (value + 99) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A bar `width` columns wide filled to `fraction`.
    static func bar(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
