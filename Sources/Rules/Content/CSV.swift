import Common

/// One CSV record and the line of the file on which it starts.
public struct CSVRecord: Sendable, Hashable {
    /// The 1-based line where the record starts (a quoted field may carry it over several lines).
    public var line: Int
    /// The fields, unquoted.
    public var fields: [String]

    /// Creates a record.
    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }

    /// Whether the record is an empty or all-space line, which readers skip.
    public var isBlank: Bool {
        fields.count == 1 && fields[0].allSatisfy { $0.isWhitespace && !$0.isNewline }
    }
}

/// CSV as spreadsheets write it (RFC 4180), for every kind of content that imports and exports tables.
///
/// Reading accepts a UTF-8 byte-order mark, CRLF, LF or CR line endings, fields in double quotes (with inner
/// quote marks doubled, and line breaks kept), spaces around a quoted field, and a bare quote mark inside an
/// unquoted field. Every error is a `bad_csv` `RuleError` whose message starts with the line at fault.
/// Writing quotes only the fields that need it and ends every record with CRLF.
///
/// Formula injection: a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return,
/// so writing puts an apostrophe before such a cell (the OWASP rule; spreadsheets show the rest as text), and
/// reading takes exactly one apostrophe off any cell that starts with one followed by one of those characters or
/// a second apostrophe. Writing also adds one before a cell that reading would otherwise shorten (such as `'=x` or
/// `''`), so every text written reads back the same; `'tis` is written as it is. A plain number such as `-3` or
/// `-1.5` is left as it is (it is no formula).
public enum CSV {
    // MARK: Reading

    /// Splits CSV `text` into records, blank lines included (see `CSVRecord.isBlank`), each field `unguarded`
    /// unless `unguarding` is false (which shows the cells as a spreadsheet sees them).
    public static func records(in text: String, unguarding: Bool = true) throws(RuleError) -> [CSVRecord] {
        let unguard: (String) -> String = unguarding ? { CSV.unguarded($0) } : { $0 }
        var scalars = Array(text.unicodeScalars)[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var state = State.fieldStart
        var line = 1
        var recordLine = 1
        var quoteLine = 1
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index += 1
            let next: Unicode.Scalar? = index < scalars.endIndex ? scalars[index] : nil
            if state == .quoted {
                if scalar == "\"" {
                    if next == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        state = .afterClosingQuote
                    }
                } else {
                    field.append(scalar)
                    if scalar == "\n" || (scalar == "\r" && next != "\n") { line += 1 }
                }
                continue
            }
            switch scalar {
            case "\r", "\n":
                if scalar == "\r" && next == "\n" { index += 1 }
                fields.append(unguard(String(field)))
                records.append(CSVRecord(line: recordLine, fields: fields))
                fields = []
                field = String.UnicodeScalarView()
                state = .fieldStart
                line += 1
                recordLine = line
            case ",":
                fields.append(unguard(String(field)))
                field = String.UnicodeScalarView()
                state = .fieldStart
            case "\"":
                switch state {
                case .fieldStart:
                    state = .quoted
                    quoteLine = line
                case .unquoted:
                    if field.allSatisfy({ $0 == " " || $0 == "\t" }) {
                        field = String.UnicodeScalarView()
                        state = .quoted
                        quoteLine = line
                    } else {
                        field.append(scalar)
                    }
                case .afterClosingQuote:
                    throw error(
                        line,
                        "a quote mark follows the closing quote of a field; "
                            + "inside a quoted field, write each quote mark twice (\"\").")
                case .quoted:
                    break
                }
            default:
                switch state {
                case .fieldStart, .unquoted:
                    state = .unquoted
                    field.append(scalar)
                case .afterClosingQuote:
                    if scalar != " " && scalar != "\t" {
                        throw error(
                            line,
                            "text follows the closing quote of a field; put the whole field in quote "
                                + "marks and write each inner quote mark twice (\"\").")
                    }
                case .quoted:
                    break
                }
            }
        }
        if state == .quoted {
            throw error(quoteLine, "a quoted field is never closed; add the missing closing quote mark.")
        }
        if !fields.isEmpty || !field.isEmpty || state != .fieldStart {
            fields.append(unguard(String(field)))
            records.append(CSVRecord(line: recordLine, fields: fields))
        }
        return records
    }

    /// A `bad_csv` error about `line`.
    public static func error(_ line: Int, _ message: String) -> RuleError {
        RuleError(.badCSV, "line \(line): \(message)")
    }

    private enum State {
        case fieldStart, unquoted, quoted, afterClosingQuote
    }

    // MARK: Formula guard

    /// The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a spreadsheet must see it: an apostrophe before a cell a spreadsheet would run as a formula, and
    /// before one that `unguarded` would change (an apostrophe then a formula character or another apostrophe);
    /// plain numbers and every other cell unchanged.
    public static func guarded(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        let isFormula = formulaStarts.contains(first) && !isPlainNumber(text)
        guard isFormula || unguarded(text) != text else { return text }
        return "'" + text
    }

    /// `text` as it was before `guarded`: one apostrophe taken off a cell that starts with an apostrophe and then
    /// a formula character or a second apostrophe; any other cell is returned as it is.
    public static func unguarded(_ text: String) -> String {
        var scalars = text.unicodeScalars.makeIterator()
        guard scalars.next() == "'", let second = scalars.next() else { return text }
        guard second == "'" || formulaStarts.contains(second) else { return text }
        return String(text.unicodeScalars.dropFirst())
    }

    /// Whether `text` is a plain decimal number such as `-3` or `-1.5`, which spreadsheets read as a number.
    static func isPlainNumber(_ text: String) -> Bool {
        var digits = text.unicodeScalars[...]
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.count <= 2
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.properties.numericType == .decimal && $0.isASCII } }
    }

    // MARK: Writing

    /// `text` as one CSV field, guarded against formulas (see `guarded`), then quoted when it holds a comma, a
    /// quote mark, a line break or outer spaces.
    public static func field(_ unsafeText: String) -> String {
        let text = guarded(unsafeText)
        let needsQuotes =
            text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        guard needsQuotes else { return text }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in text.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// A whole CSV file: the header, then one record per row, each ending with CRLF.
    public static func document(header: [String], rows: [[String]]) -> String {
        var output = header.map(field).joined(separator: ",") + "\r\n"
        for row in rows {
            output += row.map(field).joined(separator: ",")
            output += "\r\n"
        }
        return output
    }
}

/// A CSV file read against a known header: the columns may come in any order and in any case, blank lines
/// are skipped, and every record must have one field per column.
public struct CSVTable: Sendable {
    /// One record of the table, its fields in the order of the expected columns.
    public struct Row: Sendable, Hashable {
        /// The line of the file where the record starts.
        public let line: Int
        /// The fields, in the order of `CSVTable.columns`.
        public let fields: [String]

        /// A `bad_csv` error about this row's line.
        public func error(_ message: String) -> RuleError { CSV.error(line, message) }
    }

    /// The expected column names, in the order rows list their fields.
    public let columns: [String]
    /// The records after the header, blank lines left out.
    public let rows: [Row]

    /// Reads `bytes` (UTF-8, a byte-order mark allowed) as a table with exactly the header `columns`.
    public init(bytes: [UInt8], columns: [String]) throws(RuleError) {
        try self.init(text: ContentText.utf8(bytes, code: .badCSV), columns: columns)
    }

    /// Reads `text` as a table with exactly the header `columns` (lowercase names).
    public init(text: String, columns: [String]) throws(RuleError) {
        self.columns = columns
        let headerText = columns.joined(separator: ",")
        let records = try CSV.records(in: text).filter { !$0.isBlank }
        guard let header = records.first else {
            throw RuleError(.badCSV, "The file is empty; its first line must be the header \(headerText).")
        }
        let found = header.fields.map { TextFolding.fold($0) }
        let order = columns.compactMap { found.firstIndex(of: $0) }
        guard found.count == columns.count, Set(found) == Set(columns), order.count == columns.count else {
            let written = ContentText.excerpt(header.fields.joined(separator: ","))
            throw CSV.error(header.line, "the first line must be the header \(headerText), not \"\(written)\".")
        }
        var rows: [Row] = []
        for record in records.dropFirst() {
            guard record.fields.count == columns.count else {
                throw CSV.error(
                    record.line,
                    "expected \(columns.count) fields (\(columns.joined(separator: ", "))) "
                        + "but found \(record.fields.count); put quote marks around any field that contains a comma.")
            }
            rows.append(Row(line: record.line, fields: order.map { record.fields[$0] }))
        }
        self.rows = rows
    }
}
