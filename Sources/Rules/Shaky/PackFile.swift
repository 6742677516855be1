import Common
import Foundation

/// Reading and writing one quiz pack as a JSON or CSV file: the format of the data folder's `packs/` and of
/// import and export alike, so an exported pack copied into `packs/` loads as it is.
///
/// **JSON** is one object; `id` is optional (made from `name` when missing), `difficulty` is `easy`, `medium`
/// or `hard`, and unknown members are ignored (older data folders wrote an `isBuiltin` member). The writer sorts
/// keys and pretty-prints:
///
///     {
///       "id" : "my-pub-quiz",
///       "name" : "My Pub Quiz",
///       "questions" : [
///         { "answer" : "Paris", "difficulty" : "easy", "text" : "What is the capital of France?" }
///       ]
///     }
///
/// **CSV** (`CSV`, RFC 4180) starts with the header `difficulty,question,answer` (columns in any order) and has
/// one question a record. A CSV file carries no name, so the caller supplies one (for example the file name).
///
/// Readers never crash: any input yields a pack or a `RuleError` (`bad_json` or `bad_csv`) whose message starts
/// with the line at fault (and, for JSON syntax, the column). The questions pass `PackLibrary.checkedQuestions`,
/// the rules every way into the library shares.
public enum PackFile {
    /// What a pack's JSON file must hold, completing "it must hold …" in messages.
    static let jsonExpectation = "one JSON object with \"name\" and \"questions\""
    /// The columns of a pack's CSV file, in the order export writes them.
    public static let csvColumns = ["difficulty", "question", "answer"]

    // MARK: JSON

    /// The pack as a pretty-printed JSON document with sorted keys (the `isBuiltin` flag is not written).
    public static func encodeJSON(_ pack: QuizPack) -> String {
        let questions: [JSONValue] = pack.questions.map {
            ["difficulty": .string($0.difficulty.rawValue), "text": .string($0.text), "answer": .string($0.answer)]
        }
        let document: JSONValue = ["id": .string(pack.id), "name": .string(pack.name), "questions": .array(questions)]
        return String(decoding: JSONEncoding.pretty(document, sortingKeys: true), as: UTF8.self)
    }

    /// Reads a pack from JSON bytes, which must be UTF-8 (a byte-order mark is allowed).
    public static func decodeJSON(_ data: Data) throws(RuleError) -> QuizPack {
        try decodeJSON(bytes: Array(data))
    }

    /// Reads a pack from JSON text.
    public static func decodeJSON(_ text: String) throws(RuleError) -> QuizPack {
        try decodeJSON(bytes: Array(text.utf8))
    }

    /// Reads a pack from JSON bytes; the pack is never built in and its id is a slug (made from the name when missing).
    ///
    /// Older data folders stored packs with an `isBuiltin` member; like every unknown member, it is ignored.
    public static func decodeJSON(bytes: [UInt8]) throws(RuleError) -> QuizPack {
        let file = try JSONFile(bytes: bytes, expecting: jsonExpectation)
        let root = try file.rootObject(named: "the pack")
        let nameField = try root.required("name")
        let name = ContentText.trimmed(try nameField.asString())
        guard !name.isEmpty else { throw nameField.error("the pack's \"name\" is empty.") }
        let id = try root.optionalString("id") ?? ""
        let items = try root.list("questions") { "question \($0)" }
        var questions: [QuizQuestion] = []
        for item in items {
            let fields = try item.object("an object with \"difficulty\", \"text\" and \"answer\"")
            let difficultyField = try fields.required("difficulty")
            let difficulty = try parseDifficulty(try difficultyField.asString(), error: difficultyField.error)
            questions.append(
                QuizQuestion(
                    difficulty: difficulty, text: try fields.string("text"),
                    answer: try fields.string("answer")))
        }
        let checked = try PackLibrary.checkedQuestions(questions) { index, problem in
            switch problem {
            case .invalid(let error): items[index].innerError(ContentText.lowercasingFirst(error.message))
            case .repeats(let first): items[index].error("question \(index + 1) repeats question \(first + 1).")
            }
        }
        let slug = PackLibrary.makeSlug(id.isEmpty ? name : id)
        return QuizPack(id: slug, name: name, isBuiltin: false, questions: checked)
    }

    // MARK: CSV

    /// The pack as CSV: the header `difficulty,question,answer`, then one record a question, CRLF line endings.
    public static func encodeCSV(_ pack: QuizPack) -> String {
        CSV.document(header: csvColumns, rows: pack.questions.map { [$0.difficulty.rawValue, $0.text, $0.answer] })
    }

    /// Reads a pack called `name` from CSV bytes, which must be UTF-8 (a byte-order mark is allowed).
    public static func decodeCSV(_ data: Data, name: String) throws(RuleError) -> QuizPack {
        try decodeCSV(bytes: Array(data), name: name)
    }

    /// Reads a pack called `name` from CSV bytes, which must be UTF-8 (a byte-order mark is allowed).
    public static func decodeCSV(bytes: [UInt8], name: String) throws(RuleError) -> QuizPack {
        try decodeCSV(ContentText.utf8(bytes, code: .badCSV), name: name)
    }

    /// Reads a pack called `name` (empty means "Imported pack") from CSV text; its id is a slug of the name.
    public static func decodeCSV(_ text: String, name: String) throws(RuleError) -> QuizPack {
        let table = try CSVTable(text: text, columns: csvColumns)
        var questions: [QuizQuestion] = []
        for row in table.rows {
            let difficulty = try parseDifficulty(row.fields[0], error: row.error)
            questions.append(QuizQuestion(difficulty: difficulty, text: row.fields[1], answer: row.fields[2]))
        }
        let checked = try PackLibrary.checkedQuestions(questions) { index, problem in
            switch problem {
            case .invalid(let error): table.rows[index].error(ContentText.lowercasingFirst(error.message))
            case .repeats(let first):
                table.rows[index].error("this question already appears on line \(table.rows[first].line).")
            }
        }
        var name = ContentText.trimmed(name)
        if name.isEmpty { name = "Imported pack" }
        return QuizPack(id: PackLibrary.makeSlug(name), name: name, isBuiltin: false, questions: checked)
    }

    // MARK: Helpers

    private static func parseDifficulty(_ raw: String, error: (String) -> RuleError) throws(RuleError) -> Difficulty {
        let trimmed = ContentText.trimmed(raw)
        guard !trimmed.isEmpty else { throw error("the difficulty is missing; use easy, medium or hard.") }
        guard let difficulty = Difficulty(rawValue: TextFolding.fold(trimmed)) else {
            throw error("difficulty must be easy, medium or hard, not \"\(ContentText.excerpt(trimmed))\"")
        }
        return difficulty
    }
}
