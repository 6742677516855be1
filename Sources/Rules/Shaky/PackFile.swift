import Common
import Foundation

/// Reading and writing one quiz pack as a JSON or CSV file, for operators who edit packs outside the host.
///
/// **JSON** is one object; `id` is optional on import (made from `name` when missing), `difficulty` is
/// `easy`, `medium` or `hard`, and unknown keys are ignored. Export writes keys sorted and pretty-printed:
///
///     {
///       "id" : "my-pub-quiz",
///       "name" : "My Pub Quiz",
///       "questions" : [
///         { "answer" : "Paris", "difficulty" : "easy", "text" : "What is the capital of France?" }
///       ]
///     }
///
/// **CSV** (RFC 4180) starts with the header `difficulty,question,answer` (columns in any order) and has one
/// question a record. Fields holding commas, quote marks or line breaks are quoted, with inner quote marks
/// doubled. Import accepts a UTF-8 byte-order mark, CRLF, LF or CR line endings, and blank lines; export
/// writes CRLF line endings. A CSV file carries no name, so the caller supplies one (for example the file name).
///
/// Importers never crash: any input yields a pack or a `RuleError` (`bad_json` or `bad_csv`) whose message
/// starts with the line number at fault. Every question is checked with `PackLibrary.checkQuestion`, and a
/// question repeated within the file is refused.
public enum PackFile {
    // MARK: JSON

    /// The pack as a pretty-printed JSON document with sorted keys (the `isBuiltin` flag is not written).
    public static func encodeJSON(_ pack: QuizPack) -> String {
        let document = JSONDocument(id: pack.id, name: pack.name, questions: pack.questions.map {
            JSONQuestion(difficulty: $0.difficulty.rawValue, text: $0.text, answer: $0.answer)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a pack from JSON bytes, which must be UTF-8 (a byte-order mark is allowed).
    public static func decodeJSON(_ data: Data) throws(RuleError) -> QuizPack {
        try decodeJSON(utf8Text(data, code: .badJSON))
    }

    /// Reads a pack from JSON text; the pack is never built in and its id is a slug.
    public static func decodeJSON(_ text: String) throws(RuleError) -> QuizPack {
        var reader = JSONReader(bytes: Array(text.utf8))
        let root = try reader.readDocument()
        guard case .object(let members) = root.value else {
            throw jsonError(root.line, "the file must hold one JSON object with \"name\" and \"questions\".")
        }
        func member(_ key: String, of members: [JSONMember]) -> JSONNode? {
            members.last { $0.key == key }?.node
        }

        guard let nameNode = member("name", of: members) else {
            throw jsonError(root.line, "the pack has no \"name\".")
        }
        guard case .string(let rawName) = nameNode.value else {
            throw jsonError(nameNode.line, "\"name\" must be text.")
        }
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw jsonError(nameNode.line, "the pack's \"name\" is empty.") }

        var id = ""
        if let idNode = member("id", of: members) {
            switch idNode.value {
            case .string(let text): id = text
            case .null: break
            default: throw jsonError(idNode.line, "\"id\" must be text.")
            }
        }

        guard let questionsNode = member("questions", of: members) else {
            throw jsonError(root.line, "the pack has no \"questions\" list.")
        }
        guard case .array(let items) = questionsNode.value else {
            throw jsonError(questionsNode.line, "\"questions\" must be a list.")
        }
        var questions: [QuizQuestion] = []
        var seen: [String: Int] = [:]
        for (offset, item) in items.enumerated() {
            let number = offset + 1
            guard case .object(let fields) = item.value else {
                throw jsonError(item.line, "question \(number) must be an object with \"difficulty\", \"text\" and \"answer\".")
            }
            var values: [String: String] = [:]
            for key in ["difficulty", "text", "answer"] {
                guard let node = member(key, of: fields) else {
                    throw jsonError(item.line, "question \(number) has no \"\(key)\".")
                }
                guard case .string(let value) = node.value else {
                    throw jsonError(node.line, "question \(number): \"\(key)\" must be text.")
                }
                values[key] = value
            }
            let difficulty = try parseDifficulty(values["difficulty"] ?? "") { (message: String) -> RuleError in
                jsonError(item.line, "question \(number): \(message)")
            }
            let question = PackLibrary.normalized(QuizQuestion(difficulty: difficulty, text: values["text"] ?? "", answer: values["answer"] ?? ""))
            do {
                try PackLibrary.checkQuestion(question)
            } catch {
                throw jsonError(item.line, "question \(number): \(PackLibrary.lowercasingFirst(error.message))")
            }
            let key = TextFolding.fold(question.text)
            if let first = seen[key] {
                throw jsonError(item.line, "question \(number) repeats question \(first).")
            }
            seen[key] = number
            questions.append(question)
        }
        return QuizPack(id: PackLibrary.makeSlug(id.isEmpty ? name : id), name: name, isBuiltin: false, questions: questions)
    }

    // MARK: CSV

    /// The pack as CSV: the header `difficulty,question,answer`, then one record a question, CRLF line endings.
    public static func encodeCSV(_ pack: QuizPack) -> String {
        var output = "difficulty,question,answer\r\n"
        for question in pack.questions {
            output += [question.difficulty.rawValue, question.text, question.answer].map(csvField).joined(separator: ",")
            output += "\r\n"
        }
        return output
    }

    /// Reads a pack called `name` from CSV bytes, which must be UTF-8 (a byte-order mark is allowed).
    public static func decodeCSV(_ data: Data, name: String) throws(RuleError) -> QuizPack {
        try decodeCSV(utf8Text(data, code: .badCSV), name: name)
    }

    /// Reads a pack called `name` (empty means "Imported pack") from CSV text; its id is a slug of the name.
    public static func decodeCSV(_ text: String, name: String) throws(RuleError) -> QuizPack {
        let records = try readCSVRecords(text).filter { !$0.isBlank }
        guard let header = records.first else {
            throw RuleError(.badCSV, "The file is empty; its first line must be the header difficulty,question,answer.")
        }
        let columns = header.fields.map { TextFolding.fold($0) }
        guard columns.count == 3, Set(columns) == ["difficulty", "question", "answer"],
              let difficultyColumn = columns.firstIndex(of: "difficulty"),
              let questionColumn = columns.firstIndex(of: "question"),
              let answerColumn = columns.firstIndex(of: "answer") else {
            throw csvError(header.line, "the first line must be the header difficulty,question,answer, not \"\(excerpt(header.fields.joined(separator: ",")))\".")
        }
        var questions: [QuizQuestion] = []
        var seen: [String: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == 3 else {
                throw csvError(record.line, "expected 3 fields (difficulty, question, answer) but found \(record.fields.count); put quote marks around any field that contains a comma.")
            }
            let difficulty = try parseDifficulty(record.fields[difficultyColumn]) { (message: String) -> RuleError in
                csvError(record.line, message)
            }
            let question = PackLibrary.normalized(QuizQuestion(difficulty: difficulty, text: record.fields[questionColumn],
                                                               answer: record.fields[answerColumn]))
            do {
                try PackLibrary.checkQuestion(question)
            } catch {
                throw csvError(record.line, PackLibrary.lowercasingFirst(error.message))
            }
            let key = TextFolding.fold(question.text)
            if let firstLine = seen[key] {
                throw csvError(record.line, "this question already appears on line \(firstLine).")
            }
            seen[key] = record.line
            questions.append(question)
        }
        var name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { name = "Imported pack" }
        return QuizPack(id: PackLibrary.makeSlug(name), name: name, isBuiltin: false, questions: questions)
    }

    // MARK: Shared helpers

    /// The exported JSON document; its synthesized keys are the documented format.
    private struct JSONDocument: Encodable {
        var id: String
        var name: String
        var questions: [JSONQuestion]
    }

    /// One exported question.
    private struct JSONQuestion: Encodable {
        var difficulty: String
        var text: String
        var answer: String
    }

    private static func jsonError(_ line: Int, _ message: String) -> RuleError {
        RuleError(.badJSON, "line \(line): \(message)")
    }

    private static func csvError(_ line: Int, _ message: String) -> RuleError {
        RuleError(.badCSV, "line \(line): \(message)")
    }

    /// At most 60 characters of `text` on one line, for quoting in an error message.
    private static func excerpt(_ text: String) -> String {
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        return oneLine.count <= 60 ? oneLine : String(oneLine.prefix(60)) + "…"
    }

    private static func parseDifficulty(_ raw: String, error: (String) -> RuleError) throws(RuleError) -> Difficulty {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw error("the difficulty is missing; use easy, medium or hard.") }
        guard let difficulty = Difficulty(rawValue: TextFolding.fold(trimmed)) else {
            throw error("difficulty must be easy, medium or hard, not \"\(excerpt(trimmed))\"")
        }
        return difficulty
    }

    /// Decodes `data` as UTF-8 without a leading byte-order mark, naming the first line with invalid bytes.
    private static func utf8Text(_ data: Data, code: ErrorCode) throws(RuleError) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var line = 1
        for chunk in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: chunk, as: UTF8.self) == nil { break }
            line += 1
        }
        throw RuleError(code, "line \(line): the file is not UTF-8 text; save it as UTF-8 and try again.")
    }

    private static func csvField(_ text: String) -> String {
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
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

    /// One CSV record and the line it starts on.
    struct CSVRecord {
        var line: Int
        var fields: [String]

        var isBlank: Bool {
            fields.count == 1 && fields[0].trimmingCharacters(in: .whitespaces).isEmpty
        }
    }

    private enum CSVState {
        case fieldStart, unquoted, quoted, afterClosingQuote
    }

    /// Splits RFC 4180 CSV text into records, tolerating spaces around quoted fields and bare quotes inside unquoted ones.
    static func readCSVRecords(_ text: String) throws(RuleError) -> [CSVRecord] {
        var scalars = Array(text.unicodeScalars)[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var state = CSVState.fieldStart
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
                fields.append(String(field))
                records.append(CSVRecord(line: recordLine, fields: fields))
                fields = []
                field = String.UnicodeScalarView()
                state = .fieldStart
                line += 1
                recordLine = line
            case ",":
                fields.append(String(field))
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
                    throw csvError(line, "a quote mark follows the closing quote of a field; inside a quoted field, write each quote mark twice (\"\").")
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
                        throw csvError(line, "text follows the closing quote of a field; put the whole field in quote marks and write each inner quote mark twice (\"\").")
                    }
                case .quoted:
                    break
                }
            }
        }
        if state == .quoted {
            throw csvError(quoteLine, "a quoted field is never closed; add the missing closing quote mark.")
        }
        if !fields.isEmpty || !field.isEmpty || state != .fieldStart {
            fields.append(String(field))
            records.append(CSVRecord(line: recordLine, fields: fields))
        }
        return records
    }
}

// MARK: - A small JSON reader that knows the line of every value

/// One `"key": value` pair of a JSON object.
struct JSONMember {
    var key: String
    var node: JSONNode
}

/// A JSON value and the line on which it starts.
struct JSONNode {
    var line: Int
    var value: JSONValue
}

/// The shape of a JSON value; numbers and booleans are kept only as their kind, since packs never use them.
indirect enum JSONValue {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    case number
    case bool
    case null
}

/// A strict RFC 8259 reader over UTF-8 bytes, with a nesting limit so hostile input cannot exhaust the stack.
struct JSONReader {
    static let maximumDepth = 32

    let bytes: [UInt8]
    var position = 0
    var line = 1
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if self.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    mutating func readDocument() throws(RuleError) -> JSONNode {
        skipWhitespace()
        guard position < bytes.count else {
            throw RuleError(.badJSON, "The file is empty; it must hold one JSON object with \"name\" and \"questions\".")
        }
        let node = try readValue()
        skipWhitespace()
        guard position == bytes.count else {
            throw error("unexpected \(describeCurrent()) after the end of the JSON object.")
        }
        return node
    }

    private func error(_ message: String) -> RuleError {
        RuleError(.badJSON, "line \(line): \(message)")
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte >= 0x21 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "character"
    }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case 0x0A:
                line += 1
            case 0x0D:
                if position + 1 >= bytes.count || bytes[position + 1] != 0x0A { line += 1 }
            case 0x20, 0x09:
                break
            default:
                return
            }
            position += 1
        }
    }

    private mutating func readValue() throws(RuleError) -> JSONNode {
        let startLine = line
        guard let byte = current else { throw error("the JSON ends too early; a value is missing.") }
        switch byte {
        case UInt8(ascii: "{"):
            return JSONNode(line: startLine, value: try readObject())
        case UInt8(ascii: "["):
            return JSONNode(line: startLine, value: try readArray())
        case UInt8(ascii: "\""):
            return JSONNode(line: startLine, value: .string(try readString()))
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(line: startLine, value: .bool)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(line: startLine, value: .bool)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(line: startLine, value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try readNumber()
            return JSONNode(line: startLine, value: .number)
        default:
            throw error("unexpected \(describeCurrent()) where a value should be.")
        }
    }

    private mutating func enterNesting() throws(RuleError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("the JSON is nested too deeply.") }
    }

    private mutating func readObject() throws(RuleError) -> JSONValue {
        try enterNesting()
        position += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes but found \(describeCurrent()).")
            }
            let key = try readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\" but found \(describeCurrent()).")
            }
            position += 1
            skipWhitespace()
            members.append(JSONMember(key: key, node: try readValue()))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if current == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(members)
            }
            throw error("expected ',' or '}' in an object but found \(describeCurrent()).")
        }
    }

    private mutating func readArray() throws(RuleError) -> JSONValue {
        try enterNesting()
        position += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if current == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected ',' or ']' in a list but found \(describeCurrent()).")
        }
    }

    private mutating func expectWord(_ word: String) throws(RuleError) {
        let expected = Array(word.utf8)
        guard bytes[position...].starts(with: expected) else {
            throw error("unexpected \(describeCurrent()) where a value should be.")
        }
        position += expected.count
    }

    private mutating func readDigits() -> Int {
        var count = 0
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            position += 1
            count += 1
        }
        return count
    }

    private mutating func readNumber() throws(RuleError) {
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else if readDigits() == 0 {
            throw error("a number is written wrongly.")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard readDigits() > 0 else { throw error("a number is written wrongly.") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard readDigits() > 0 else { throw error("a number is written wrongly.") }
        }
    }

    private mutating func readHexQuad() throws(RuleError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits.") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits.")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Reads a string starting at its opening quote; the bytes between escapes are valid UTF-8 because they came from a `String`.
    private mutating func readString() throws(RuleError) -> String {
        position += 1
        var buffer: [UInt8] = []
        while true {
            guard let byte = current else { throw error("a text value is never closed; add the missing closing quote.") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw error("a text value is never closed; add the missing closing quote.") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try readHexQuad()
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                            throw error("a \\u escape holds half of a surrogate pair.")
                        }
                        position += 2
                        let low = try readHexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a \\u escape holds half of a surrogate pair.") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("a \\u escape holds half of a surrogate pair.") }
                    buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("a text value has an unknown escape; write a backslash as \\\\.")
                }
            case 0x00..<0x20:
                throw error("a text value contains a line break or control character; write a line break as \\n.")
            default:
                buffer.append(byte)
            }
        }
    }
}
