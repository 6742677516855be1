/// A small model of a VT100/xterm screen for tests: feed it the bytes a program wrote to its terminal, in any
/// chunks, and read back what the screen shows, so a test asserts on the screen rather than on how a writer thread
/// happened to batch its escapes.
///
/// It knows what Partyline's host console and client renderer write: UTF-8 text (a `Character` per cell, a wide one
/// taking two columns), CR, LF, BS, HT, cursor moves (`CUP`, `HVP`, `CUU`/`CUD`/`CUF`/`CUB`, `CHA`, `VPA`, `CNL`,
/// `CPL`), erasing (`EL`, `ED`, `ECH`), scrolling inside a region (`DECSTBM`, `IND`, `RI`, `NEL`, `SU`, `SD`, `IL`,
/// `DL`), `ICH`/`DCH`, save and restore of the cursor (`ESC 7`/`ESC 8`, `CSI s`/`CSI u`), SGR bold, dim, underline
/// and reverse, the alternate screen (`?1049`, `?1047`, `?47`) and autowrap the way xterm does it. Everything else
/// (colours, other modes, OSC, DCS, charset designations) is consumed and ignored.
///
/// Rows and columns are numbered from 1, as in the escapes themselves.
public struct TerminalScreen: Sendable {
    /// Cell attributes kept from SGR.
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        /// An attribute with this raw bit.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// SGR 1.
        public static let bold = Attributes(rawValue: 1)
        /// SGR 2.
        public static let dim = Attributes(rawValue: 2)
        /// SGR 4.
        public static let underline = Attributes(rawValue: 4)
        /// SGR 7.
        public static let reverse = Attributes(rawValue: 8)
    }

    /// One cell of the grid.
    public struct Cell: Sendable, Hashable {
        /// What the cell shows; nil for the right half of a wide character.
        public var character: Character?
        /// How it is drawn.
        public var attributes: Attributes
        /// An empty cell.
        public static let blank = Cell(character: " ", attributes: [])
    }

    /// A cursor position, 1-based.
    public struct Position: Sendable, Hashable, CustomStringConvertible {
        /// The row, 1 at the top.
        public var row: Int
        /// The column, 1 at the left.
        public var column: Int
        /// A position at `row`, `column`.
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
        /// `row;column`, as in the escape that moves there.
        public var description: String { "\(row);\(column)" }
    }

    /// The number of rows.
    public private(set) var rows: Int
    /// The number of columns.
    public private(set) var columns: Int
    /// Where the next character goes.
    public var cursor: Position { Position(row: row + 1, column: column + 1) }
    /// Whether the alternate screen is showing.
    public private(set) var isAlternateScreen = false
    /// The scroll region's top and bottom rows, 1-based.
    public var scrollRegion: ClosedRange<Int> { (top + 1)...(bottom + 1) }

    private var grid: [[Cell]]
    private var savedMainGrid: [[Cell]]?
    private var row = 0
    private var column = 0
    /// Set after a character was written in the last column: the next one wraps first (xterm's pending wrap).
    private var wrapPending = false
    private var attributes: Attributes = []
    private var top = 0
    private var bottom: Int
    private var saved: SavedCursor?
    private var savedBeforeAlternate: SavedCursor?
    private var parser = ParserState.ground
    private var utf8: [UInt8] = []
    private var utf8Expected = 0

    private struct SavedCursor: Sendable {
        var row: Int
        var column: Int
        var attributes: Attributes
        var wrapPending: Bool
    }

    private enum ParserState: Sendable {
        case ground
        case escape
        /// After an ESC intermediate such as `(` in `ESC ( B`: one more byte ends it.
        case escapeIntermediate
        case csi(String)
        /// OSC, DCS, SOS, PM or APC: ignored up to BEL or ST.
        case string
        case stringEscape
    }

    /// An empty screen of `rows` by `columns`, the cursor at the top left.
    public init(rows: Int = 24, columns: Int = 80) {
        precondition(rows > 0 && columns > 0)
        self.rows = rows
        self.columns = columns
        bottom = rows - 1
        grid = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
    }

    // MARK: Reading

    /// Row `index` (1-based) as text, trailing spaces trimmed.
    public func row(_ index: Int) -> String {
        var text = ""
        for cell in grid[index - 1] { if let character = cell.character { text.append(character) } }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The cell at `row`, `column` (1-based).
    public func cell(row: Int, column: Int) -> Cell { grid[row - 1][column - 1] }

    /// Every row as text, trailing spaces trimmed.
    public var lines: [String] { (1...rows).map { row($0) } }

    /// Every row as text joined by newlines (trailing spaces trimmed on each row).
    public var text: String { lines.joined(separator: "\n") }

    // MARK: Feeding

    /// Takes `string`'s UTF-8 bytes as written to the terminal.
    public mutating func feed(_ string: String) { feed(Array(string.utf8)) }

    /// Takes bytes written to the terminal; an escape or a character cut between two calls is finished by the next.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { take(byte) }
    }

    /// Changes the size as a terminal window does (xterm keeps the top left, the region resets, the cursor clamps).
    public mutating func resize(rows newRows: Int, columns newColumns: Int) {
        precondition(newRows > 0 && newColumns > 0)
        func fit(_ old: [[Cell]]) -> [[Cell]] {
            (0..<newRows).map { index in
                var line = index < old.count ? old[index] : []
                line = Array(line.prefix(newColumns))
                line += Array(repeating: .blank, count: newColumns - line.count)
                return line
            }
        }
        grid = fit(grid)
        savedMainGrid = savedMainGrid.map(fit)
        rows = newRows
        columns = newColumns
        top = 0
        bottom = rows - 1
        row = min(row, rows - 1)
        column = min(column, columns - 1)
        wrapPending = false
    }

    private mutating func take(_ byte: UInt8) {
        switch parser {
        case .ground:
            takeText(byte)
        case .escape:
            parser = .ground
            escape(byte)
        case .escapeIntermediate:
            if byte == 0x1B { parser = .escape } else if byte >= 0x30 || byte < 0x20 { parser = .ground }
        case .csi(var sequence):
            switch byte {
            case 0x1B: parser = .escape
            case 0x18, 0x1A: parser = .ground  // CAN, SUB: the sequence is abandoned
            case 0x20...0x3F:
                // A runaway sequence is cut off rather than grown without end.
                if sequence.utf8.count < 256 { sequence.append(Character(Unicode.Scalar(byte))) }
                parser = .csi(sequence)
            case 0x40...0x7E:
                parser = .ground
                controlSequence(sequence, final: Character(Unicode.Scalar(byte)))
            case 0..<0x20: control(byte)  // executed in the middle of a sequence, as a terminal does
            default: parser = .ground
            }
        case .string:
            if byte == 0x07 || byte == 0x18 || byte == 0x1A {
                parser = .ground
            } else if byte == 0x1B {
                parser = .stringEscape
            }
        case .stringEscape:
            // ESC \ is the string terminator; any other escape ends the string and starts itself.
            parser = .ground
            if byte != 0x5C { escape(byte) }
        }
    }

    private mutating func takeText(_ byte: UInt8) {
        if utf8Expected > 0 {
            if byte & 0xC0 == 0x80 {
                utf8.append(byte)
                if utf8.count == utf8Expected { finishScalar() }
                return
            }
            utf8 = []
            utf8Expected = 0
            draw("\u{FFFD}")
        }
        switch byte {
        case 0x1B: parser = .escape
        case 0..<0x20, 0x7F: control(byte)
        case 0x20..<0x80: draw(Character(Unicode.Scalar(byte)))
        case 0xC2...0xDF: startScalar(byte, length: 2)
        case 0xE0...0xEF: startScalar(byte, length: 3)
        case 0xF0...0xF4: startScalar(byte, length: 4)
        default: draw("\u{FFFD}")
        }
    }

    private mutating func startScalar(_ byte: UInt8, length: Int) {
        utf8 = [byte]
        utf8Expected = length
    }

    private mutating func finishScalar() {
        let decoded = String(decoding: utf8, as: UTF8.self)
        utf8 = []
        utf8Expected = 0
        guard let scalar = decoded.unicodeScalars.first, decoded.unicodeScalars.count == 1 else {
            return draw("\u{FFFD}")
        }
        if (0x80...0x9F).contains(scalar.value) { return }  // C1 controls are not drawn
        if Self.joinsPrevious(scalar) { return join(scalar) }
        draw(Character(scalar))
    }

    // MARK: Drawing

    private mutating func draw(_ character: Character) {
        let width = character.unicodeScalars.first.map(Self.width(of:)) ?? 1
        if wrapPending || column + width > columns {
            column = 0
            lineFeed()
        }
        if width == 2 && columns < 2 { return }
        clearHalves(at: column, width: width)
        grid[row][column] = Cell(character: character, attributes: attributes)
        if width == 2 { grid[row][column + 1] = Cell(character: nil, attributes: attributes) }
        if column + width >= columns {
            column = columns - 1
            wrapPending = true
        } else {
            column += width
        }
    }

    /// Adds a combining mark, joiner or variation selector to the character last drawn.
    private mutating func join(_ scalar: Unicode.Scalar) {
        var target = wrapPending ? column : column - 1
        if target >= 0, grid[row][target].character == nil, target > 0 { target -= 1 }
        guard target >= 0, let previous = grid[row][target].character else { return }
        var combined = String(previous)
        combined.unicodeScalars.append(scalar)
        if combined.count == 1, let character = combined.first { grid[row][target].character = character }
    }

    /// Blanks the other half of any wide character that drawing `width` cells at `start` would split.
    private mutating func clearHalves(at start: Int, width: Int) {
        if grid[row][start].character == nil, start > 0 { grid[row][start - 1] = .blank }
        let after = start + width
        if after < columns, grid[row][after].character == nil { grid[row][after] = .blank }
    }

    private mutating func control(_ byte: UInt8) {
        switch byte {
        case 0x08:  // BS
            if wrapPending {
                wrapPending = false
            } else if column > 0 {
                column -= 1
            }
        case 0x09:  // HT: the next multiple of 8
            column = min(columns - 1, (column / 8 + 1) * 8)
            wrapPending = false
        case 0x0A, 0x0B, 0x0C: lineFeed()  // LF, VT, FF: down one row, not back to the left
        case 0x0D:  // CR
            column = 0
            wrapPending = false
        default: break  // BEL, NUL and the rest draw nothing
        }
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x5B: parser = .csi("")  // [
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: parser = .string  // ] P X ^ _
        case 0x20...0x2F: parser = .escapeIntermediate  // ( ) * + # % and the like
        case 0x37: saveCursor()  // 7
        case 0x38: restoreCursor()  // 8
        case 0x44: lineFeed()  // D: IND
        case 0x45:  // E: NEL
            column = 0
            lineFeed()
        case 0x4D: reverseIndex()  // M: RI
        case 0x63: self = TerminalScreen(rows: rows, columns: columns)  // c: RIS
        case 0x1B: parser = .escape
        default: break
        }
    }

    private mutating func lineFeed() {
        wrapPending = false
        if row == bottom {
            scrollUp(1)
        } else if row < rows - 1 {
            row += 1
        }
    }

    private mutating func reverseIndex() {
        wrapPending = false
        if row == top {
            scrollDown(1)
        } else if row > 0 {
            row -= 1
        }
    }

    /// Moves the rows of the scroll region up by `count`, blank rows coming in at its bottom.
    private mutating func scrollUp(_ count: Int) {
        let count = min(count, bottom - top + 1)
        guard count > 0 else { return }
        grid.removeSubrange(top..<(top + count))
        grid.insert(contentsOf: Array(repeating: blankRow, count: count), at: bottom - count + 1)
    }

    /// Moves the rows of the scroll region down by `count`, blank rows coming in at its top.
    private mutating func scrollDown(_ count: Int) {
        let count = min(count, bottom - top + 1)
        guard count > 0 else { return }
        grid.removeSubrange((bottom - count + 1)...bottom)
        grid.insert(contentsOf: Array(repeating: blankRow, count: count), at: top)
    }

    private var blankRow: [Cell] { Array(repeating: .blank, count: columns) }

    private mutating func saveCursor() {
        saved = SavedCursor(row: row, column: column, attributes: attributes, wrapPending: wrapPending)
    }

    private mutating func restoreCursor() {
        guard let saved else {
            (row, column, attributes, wrapPending) = (0, 0, [], false)
            return
        }
        row = min(saved.row, rows - 1)
        column = min(saved.column, columns - 1)
        attributes = saved.attributes
        wrapPending = saved.wrapPending
    }

    private mutating func moveTo(row newRow: Int, column newColumn: Int) {
        row = max(0, min(rows - 1, newRow))
        column = max(0, min(columns - 1, newColumn))
        wrapPending = false
    }

    private mutating func erase(row index: Int, from start: Int, to end: Int) {
        guard start <= end else { return }
        for position in max(0, start)...min(columns - 1, end) { grid[index][position] = .blank }
        // A wide character cut in half loses its other half too.
        if start > 0, grid[index][start].character == nil { grid[index][start - 1] = .blank }
        if end + 1 < columns, grid[index][end + 1].character == nil { grid[index][end + 1] = .blank }
    }

    // MARK: Control sequences

    private mutating func controlSequence(_ sequence: String, final: Character) {
        var body = Substring(sequence)
        var privateMarker: Character?
        if let first = body.first, "<=>?".contains(first) {
            privateMarker = first
            body = body.dropFirst()
        }
        // Intermediates (space to /) make it a sequence this model does not know, e.g. `CSI SP q`.
        guard !body.contains(where: { ("\u{20}"..."\u{2F}").contains($0) }) else { return }
        let parameters = body.split(separator: ";", omittingEmptySubsequences: false).map { field -> Int? in
            let digits = field.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
            guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return Int(digits) ?? 10_000  // too many digits for an Int: as far as it goes
        }
        func parameter(_ index: Int, default fallback: Int = 1) -> Int {
            guard index < parameters.count, let value = parameters[index], value != 0 else { return fallback }
            return min(value, 10_000)
        }
        if let privateMarker {
            if privateMarker == "?", final == "h" || final == "l" {
                for mode in parameters.compactMap({ $0 }) { setPrivateMode(mode, on: final == "h") }
            }
            return
        }
        switch final {
        case "H", "f": moveTo(row: parameter(0) - 1, column: parameter(1) - 1)
        case "A": moveTo(row: max(row >= top ? top : 0, row - parameter(0)), column: column)
        case "B", "e": moveTo(row: min(row <= bottom ? bottom : rows - 1, row + parameter(0)), column: column)
        case "C", "a": moveTo(row: row, column: column + parameter(0))
        case "D": moveTo(row: row, column: column - parameter(0))
        case "E": moveTo(row: min(row <= bottom ? bottom : rows - 1, row + parameter(0)), column: 0)
        case "F": moveTo(row: max(row >= top ? top : 0, row - parameter(0)), column: 0)
        case "G", "`": moveTo(row: row, column: parameter(0) - 1)
        case "d": moveTo(row: parameter(0) - 1, column: column)
        case "K":
            wrapPending = false
            switch parameter(0, default: 0) {
            case 0: erase(row: row, from: column, to: columns - 1)
            case 1: erase(row: row, from: 0, to: column)
            case 2: erase(row: row, from: 0, to: columns - 1)
            default: break
            }
        case "J":
            wrapPending = false
            switch parameter(0, default: 0) {
            case 0:
                erase(row: row, from: column, to: columns - 1)
                for index in (row + 1)..<rows { erase(row: index, from: 0, to: columns - 1) }
            case 1:
                for index in 0..<row { erase(row: index, from: 0, to: columns - 1) }
                erase(row: row, from: 0, to: column)
            case 2:
                for index in 0..<rows { erase(row: index, from: 0, to: columns - 1) }
            default: break  // 3 erases the scrollback, which this model does not keep
            }
        case "X": erase(row: row, from: column, to: column + parameter(0) - 1)
        case "r":
            let newTop = parameter(0) - 1
            let newBottom = min(parameter(1, default: rows), rows) - 1
            guard newTop < newBottom else { return }
            (top, bottom) = (newTop, newBottom)
            moveTo(row: 0, column: 0)
        case "s": saveCursor()
        case "u": restoreCursor()
        case "S": scrollUp(parameter(0))
        case "T": scrollDown(parameter(0))
        case "L", "M":
            guard (top...bottom).contains(row) else { return }
            let savedTop = top
            top = row
            if final == "L" { scrollDown(parameter(0)) } else { scrollUp(parameter(0)) }
            top = savedTop
            moveTo(row: row, column: 0)
        case "@", "P":
            wrapPending = false
            let count = min(parameter(0), columns - column)
            var line = grid[row]
            if final == "@" {
                line.insert(contentsOf: Array(repeating: .blank, count: count), at: column)
                line.removeLast(count)
            } else {
                line.removeSubrange(column..<(column + count))
                line += Array(repeating: .blank, count: count)
            }
            grid[row] = line
        case "m": selectGraphicRendition(parameters)
        default: break
        }
    }

    private mutating func setPrivateMode(_ mode: Int, on: Bool) {
        switch mode {
        case 47, 1047, 1049:
            guard on != isAlternateScreen else { return }
            if on {
                if mode == 1049 { savedBeforeAlternate = currentSaved }
                savedMainGrid = grid
                grid = Array(repeating: blankRow, count: rows)
                isAlternateScreen = true
            } else {
                grid = savedMainGrid ?? Array(repeating: blankRow, count: rows)
                savedMainGrid = nil
                isAlternateScreen = false
                if mode == 1049, let before = savedBeforeAlternate {
                    saved = before
                    restoreCursor()
                }
            }
        default: break  // cursor visibility (25), mouse, bracketed paste and the rest change nothing drawn
        }
    }

    private var currentSaved: SavedCursor {
        SavedCursor(row: row, column: column, attributes: attributes, wrapPending: wrapPending)
    }

    private mutating func selectGraphicRendition(_ parameters: [Int?]) {
        var index = 0
        let codes = parameters.isEmpty ? [0] : parameters.map { $0 ?? 0 }
        while index < codes.count {
            switch codes[index] {
            case 0: attributes = []
            case 1: attributes.insert(.bold)
            case 2: attributes.insert(.dim)
            case 4: attributes.insert(.underline)
            case 7: attributes.insert(.reverse)
            case 22: attributes.subtract([.bold, .dim])
            case 24: attributes.remove(.underline)
            case 27: attributes.remove(.reverse)
            case 38, 48, 58:
                // An extended colour: 5;n or 2;r;g;b follow.
                if index + 1 < codes.count { index += codes[index + 1] == 5 ? 2 : codes[index + 1] == 2 ? 4 : 1 }
            default: break  // colours and the rest
            }
            index += 1
        }
    }

    // MARK: Character classes

    /// Whether `scalar` belongs to the character before it (a combining mark, a joiner, a variation selector).
    private static func joinsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
        }
    }

    /// How many columns `scalar` takes: 2 for East Asian wide and emoji, 1 otherwise.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar.value) } ? 2 : 1
    }
}
