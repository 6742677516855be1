import Common

/// Reading and writing one Odd One Out puzzle pack as a JSON or CSV file: the data folder's `puzzles/` format and
/// the import/export format alike.
///
/// **JSON** is one object; `id` is optional (made from `name`), each puzzle lists its four `words` (the outsider
/// among them; the three linked words alone are accepted too), its `outsider`, its `link` and its `difficulty`:
///
///     {
///       "id" : "colours",
///       "name" : "Colours",
///       "puzzles" : [
///         { "difficulty" : "easy", "link" : "colours", "outsider" : "dog",
///           "words" : [ "dog", "green", "red", "blue" ] }
///       ]
///     }
///
/// **CSV** starts with the header `difficulty,outsider,word1,word2,word3,link` (columns in any order) and has one
/// puzzle a record; it carries no name, so the caller supplies one (the file name). Every error is a `bad_json` or
/// `bad_csv` `RuleError` whose message starts with the line at fault.
public enum OutsiderPackFile {
    /// What a pack's JSON file must hold, completing "it must hold …".
    static let jsonExpectation = "one JSON object with \"name\" and \"puzzles\""
    /// The columns of a pack's CSV file, in the order export writes them.
    public static let csvColumns = ["difficulty", "outsider", "word1", "word2", "word3", "link"]

    // MARK: JSON

    /// The pack as pretty-printed JSON with sorted keys.
    public static func encodeJSON(_ pack: OutsiderPack) -> String {
        let puzzles: [JSONValue] = pack.puzzles.map(puzzleJSON)
        let document: JSONValue = ["id": .string(pack.id), "name": .string(pack.name), "puzzles": .array(puzzles)]
        return String(decoding: JSONEncoding.pretty(document, sortingKeys: true), as: UTF8.self)
    }

    /// One puzzle as a JSON object (`words`, `outsider`, `link`, `difficulty`).
    public static func puzzleJSON(_ puzzle: OutsiderPuzzle) -> JSONValue {
        [
            "difficulty": .string(puzzle.difficulty.rawValue), "words": .array(puzzle.words.map { .string($0) }),
            "outsider": .string(puzzle.outsider), "link": .string(puzzle.link),
        ]
    }

    /// Reads a pack from JSON bytes (UTF-8, a byte-order mark allowed); its id is a slug.
    public static func decodeJSON(bytes: [UInt8]) throws(RuleError) -> OutsiderPack {
        let file = try JSONFile(bytes: bytes, expecting: jsonExpectation)
        let root = try file.rootObject(named: "the pack")
        let nameField = try root.required("name")
        let name = ContentText.trimmed(try nameField.asString())
        guard !name.isEmpty else { throw nameField.error("the pack's \"name\" is empty.") }
        let id = try root.optionalString("id") ?? ""
        let items = try root.list("puzzles") { "puzzle \($0)" }
        var puzzles: [OutsiderPuzzle] = []
        for item in items { puzzles.append(try readPuzzle(item, defaultDifficulty: nil)) }
        let checked = try OutsiderPackLibrary.checkedPuzzles(puzzles) { index, problem in
            switch problem {
            case .invalid(let error): items[index].innerError(ContentText.lowercasingFirst(error.message))
            case .repeats(let first):
                items[index].error("puzzle \(index + 1) has the same four words as puzzle \(first + 1).")
            }
        }
        return OutsiderPack(id: PackLibrary.makeSlug(id.isEmpty ? name : id), name: name, puzzles: checked)
    }

    /// Reads one puzzle object (`words`, `outsider`, `link`, `difficulty`); a missing difficulty is
    /// `defaultDifficulty`, and required when that is nil. The puzzle is not checked yet.
    public static func readPuzzle(_ item: JSONField, defaultDifficulty: Difficulty?) throws(RuleError)
        -> OutsiderPuzzle
    {
        let fields = try item.object("an object with \"words\", \"outsider\" and \"link\"")
        let difficulty: Difficulty
        if let field = fields.member("difficulty") {
            difficulty = try parseDifficulty(try field.asString(), error: field.error)
        } else if let defaultDifficulty {
            difficulty = defaultDifficulty
        } else {
            throw fields.error("\(fields.name) has no \"difficulty\".")
        }
        return OutsiderPuzzle(
            difficulty: difficulty, words: try fields.strings("words"), outsider: try fields.string("outsider"),
            link: try fields.string("link"))
    }

    /// Reads one puzzle sent as a JSON value (an admin client's edit): `difficulty`, `words` (four, or the three
    /// that share the link), `outsider` and `link`. The puzzle is not checked yet.
    public static func puzzle(from value: JSONValue) throws(RuleError) -> OutsiderPuzzle {
        let expected = "A puzzle is an object with \"difficulty\", \"words\", \"outsider\" and \"link\"."
        guard let object = value.objectValue, let words = object["words"]?.arrayValue,
            words.allSatisfy({ $0.stringValue != nil }), let outsider = object["outsider"]?.stringValue,
            let link = object["link"]?.stringValue, let level = object["difficulty"]?.stringValue
        else { throw RuleError(.badPuzzle, expected) }
        let difficulty = try parseDifficulty(level) { RuleError(.badPuzzle, ContentText.capitalizingFirst($0)) }
        return OutsiderPuzzle(
            difficulty: difficulty, words: words.compactMap(\.stringValue), outsider: outsider, link: link)
    }

    /// A puzzle typed on the console, `DIFFICULTY | OUTSIDER | WORD | WORD | WORD | LINK` (a CSV row's order), as
    /// the JSON an admin client sends; nil when it has not six parts.
    public static func puzzleObject(typed text: String) -> JSONValue? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map { ContentText.trimmed(String($0)) }
        guard parts.count == 6 else { return nil }
        return [
            "difficulty": .string(parts[0]), "outsider": .string(parts[1]),
            "words": .array(parts[1...4].map { .string($0) }), "link": .string(parts[5]),
        ]
    }

    // MARK: CSV

    /// The pack as CSV: the header, then one record a puzzle (the outsider, then the three linked words), CRLF.
    public static func encodeCSV(_ pack: OutsiderPack) -> String {
        CSV.document(
            header: csvColumns,
            rows: pack.puzzles.map { [$0.difficulty.rawValue, $0.outsider] + $0.others + [$0.link] })
    }

    /// Reads a pack called `name` from CSV bytes (UTF-8, a byte-order mark allowed).
    public static func decodeCSV(bytes: [UInt8], name: String) throws(RuleError) -> OutsiderPack {
        try decodeCSV(ContentText.utf8(bytes, code: .badCSV), name: name)
    }

    /// Reads a pack called `name` (empty means "Imported puzzles") from CSV text; its id is a slug of the name.
    public static func decodeCSV(_ text: String, name: String) throws(RuleError) -> OutsiderPack {
        let table = try CSVTable(text: text, columns: csvColumns)
        var puzzles: [OutsiderPuzzle] = []
        for row in table.rows {
            let difficulty = try parseDifficulty(row.fields[0], error: row.error)
            puzzles.append(
                OutsiderPuzzle(
                    difficulty: difficulty, outsider: row.fields[1], others: Array(row.fields[2...4]),
                    link: row.fields[5]))
        }
        let checked = try OutsiderPackLibrary.checkedPuzzles(puzzles) { index, problem in
            switch problem {
            case .invalid(let error): table.rows[index].error(ContentText.lowercasingFirst(error.message))
            case .repeats(let first):
                table.rows[index].error("this puzzle has the same four words as line \(table.rows[first].line).")
            }
        }
        var name = ContentText.trimmed(name)
        if name.isEmpty { name = "Imported puzzles" }
        return OutsiderPack(id: PackLibrary.makeSlug(name), name: name, puzzles: checked)
    }

    static func parseDifficulty(_ raw: String, error: (String) -> RuleError) throws(RuleError) -> Difficulty {
        let trimmed = ContentText.trimmed(raw)
        guard !trimmed.isEmpty else { throw error("the difficulty is missing; use easy, medium or hard.") }
        guard let difficulty = Difficulty(rawValue: TextFolding.fold(trimmed)) else {
            throw error("difficulty must be easy, medium or hard, not \"\(ContentText.excerpt(trimmed))\".")
        }
        return difficulty
    }
}
