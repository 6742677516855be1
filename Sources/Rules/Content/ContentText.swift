import Common
import Foundation

/// What every content file reader shares: turning a file's bytes into text, and quoting it back in messages.
public enum ContentText {
    /// The text of `bytes`, which must be UTF-8; a leading byte-order mark is dropped.
    ///
    /// - Throws: a `RuleError` with `code` naming the first line that holds bytes which are not UTF-8.
    public static func utf8(_ bytes: [UInt8], code: ErrorCode) throws(RuleError) -> String {
        let body = bytes.starts(with: byteOrderMark) ? bytes[3...] : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        var line = 1
        for chunk in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: chunk, as: UTF8.self) == nil { break }
            line += 1
        }
        throw RuleError(code, "line \(line): the file is not UTF-8 text; save it as UTF-8 and try again.")
    }

    /// The lines of `text` that hold more than spaces, each with its 1-based line number, for line-based formats
    /// (`word: opt* opt opt`). CRLF, LF and CR all end a line; a leading byte-order mark is dropped.
    public static func numberedLines(in text: String) -> [(line: Int, text: String)] {
        var lines: [(line: Int, text: String)] = []
        var number = 0
        var current = Substring(text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text))
        while !current.isEmpty || number == 0 {
            number += 1
            // "\r\n" is one Character, so this splits CRLF, LF and CR alike.
            let end = current.firstIndex { $0 == "\n" || $0 == "\r" || $0 == "\r\n" } ?? current.endIndex
            let line = current[..<end]
            if !line.allSatisfy(\.isWhitespace) { lines.append((number, String(line))) }
            current = end == current.endIndex ? current[end...] : current[current.index(after: end)...]
        }
        return lines
    }

    /// The UTF-8 byte-order mark some editors put at the start of a file.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// At most `limit` characters of `text` on one line, for quoting in an error message.
    public static func excerpt(_ text: String, limit: Int = 60) -> String {
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        return oneLine.count <= limit ? oneLine : String(oneLine.prefix(limit)) + "…"
    }

    /// `message` with its first letter lowercased, to follow a "line 3: " or "question 2: " prefix.
    public static func lowercasingFirst(_ message: String) -> String {
        guard let first = message.first else { return message }
        return first.lowercased() + message.dropFirst()
    }

    /// `message` with its first letter upper-case (a clause made a sentence).
    public static func capitalizingFirst(_ message: String) -> String {
        guard let first = message.first else { return message }
        return first.uppercased() + message.dropFirst()
    }

    /// `text` with surrounding spaces and line breaks removed.
    public static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
