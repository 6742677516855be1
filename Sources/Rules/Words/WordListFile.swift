import Common

/// Reading and writing one word list as a file, in the reading trainer's own line format or as JSON.
///
/// **Text** (`.txt`; the file name, without `.txt`, is the list's id): one question word a line,
/// `sun: flower* glasses* chair spoon`, the correct options marked with `*`; a `# level N` line starts each level
/// (words before the first one are on level 1). Two optional header lines give the name and the language:
///
///     # name: Garden words
///     # language: en
///     # level 1
///     sun: flower* glasses* chair spoon
///
/// Any other line starting with `#` is refused, so that a mistyped level header cannot silently move words.
///
/// **JSON** is one object: `{"id":"garden","name":"Garden words","language":"en","words":[{"word":"sun",
/// "level":1,"options":["flower","glasses","chair","spoon"],"correct":["flower","glasses"]}]}`; `id` (made from
/// the name when missing), `language` and `level` (1) are optional.
///
/// Readers never crash: any input yields a list or a `RuleError` whose message starts with the line at fault.
public enum WordListFile {
    /// What a list's JSON file must hold, completing "it must hold …" in messages.
    static let jsonExpectation = "one JSON object with \"name\" and \"words\""

    // MARK: Text

    /// The list in the line format, with `# name:` and `# language:` headers.
    public static func encodeText(_ list: WordList) -> String {
        var lines = ["# name: \(list.name)"]
        if !list.language.isEmpty { lines.append("# language: \(list.language)") }
        for level in list.levels {
            lines.append("# level \(level)")
            for entry in list.words(level: level) {
                let options = entry.options.map { entry.isCorrect($0) ? $0 + "*" : $0 }
                lines.append("\(entry.word): " + options.joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a list from text bytes (UTF-8); `fileName` (its extension dropped) gives the id, and the name when
    /// the file has no `# name:` line.
    public static func decodeText(bytes: [UInt8], fileName: String) throws(RuleError) -> WordList {
        try decodeText(ContentText.utf8(bytes, code: .badWordList), fileName: fileName)
    }

    /// Reads a list from text; see `decodeText(bytes:fileName:)`.
    public static func decodeText(_ text: String, fileName: String) throws(RuleError) -> WordList {
        let base = fileName.hasSuffix(".txt") ? String(fileName.dropLast(4)) : fileName
        var name: String?
        var language = ""
        var level = 1
        var entries: [WordEntry] = []
        var lineNumbers: [Int] = []
        func refuse(_ line: Int, _ message: String) -> RuleError { RuleError(.badWordList, "line \(line): \(message)") }
        for (number, raw) in ContentText.numberedLines(in: text) {
            let line = ContentText.trimmed(raw)
            if line.hasPrefix("#") {
                let header = ContentText.trimmed(String(line.dropFirst()))
                let words = header.split(separator: " ", omittingEmptySubsequences: true)
                if words.count == 2, words[0].lowercased() == "level" {
                    guard let parsed = Int(words[1]), (1...WordList.maximumLevel).contains(parsed) else {
                        throw refuse(
                            number,
                            "the level must be a number from 1 to \(WordList.maximumLevel), not \"\(words[1])\".")
                    }
                    level = parsed
                } else if let value = headerValue(header, key: "name") {
                    do {
                        name = try WordList.checkedName(value)
                    } catch {
                        throw refuse(number, ContentText.lowercasingFirst(error.message))
                    }
                } else if let value = headerValue(header, key: "language") {
                    do {
                        language = try WordList.checkedLanguage(value)
                    } catch {
                        throw refuse(number, ContentText.lowercasingFirst(error.message))
                    }
                } else {
                    throw refuse(
                        number,
                        "a line starting with # must be \"# level N\", \"# name: …\" or \"# language: …\", "
                            + "not \"\(ContentText.excerpt(line, limit: 40))\".")
                }
                continue
            }
            do {
                entries.append(try entry(line: line, level: level))
            } catch {
                throw refuse(number, ContentText.lowercasingFirst(error.message))
            }
            lineNumbers.append(number)
        }
        let checked = try WordList.checkedEntries(entries) { index, problem in
            switch problem {
            case .invalid(let message): refuse(lineNumbers[index], ContentText.lowercasingFirst(message))
            case .repeats(let first):
                refuse(
                    lineNumbers[index],
                    "\(entries[index].word) is already a question word on line \(lineNumbers[first]).")
            }
        }
        let listName = name ?? (ContentText.trimmed(base).isEmpty ? "Imported words" : ContentText.trimmed(base))
        return WordList(
            id: PackLibrary.makeSlug(base.isEmpty ? listName : base), name: listName, language: language, words: checked
        )
    }

    /// Reads one `sun: flower* glasses* chair spoon` line as a question word on `level` (not yet checked by
    /// `WordList.checkedEntry`); refuses a line without a colon, a bad star and an option written twice.
    public static func entry(line: String, level: Int) throws(RuleError) -> WordEntry {
        func refuse(_ message: String) -> RuleError { RuleError(.badWordList, message) }
        guard let colon = line.firstIndex(of: ":") else {
            throw refuse(
                "Write a question word, a colon and its options, like \"sun: flower* glasses* chair spoon\"; "
                    + "found \"\(ContentText.excerpt(line, limit: 40))\".")
        }
        let word = ContentText.trimmed(String(line[..<colon]))
        var options: [String] = []
        var correct: [String] = []
        for token in line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let isCorrect = token.hasSuffix("*")
            let option = String(isCorrect ? token.dropLast() : token)
            guard !option.isEmpty, !option.contains("*") else {
                throw refuse("\(word): \"\(token)\" is not an option; mark a correct option with one * at its end.")
            }
            if let earlier = options.firstIndex(where: { WordList.key($0) == WordList.key(option) }) {
                if correct.contains(options[earlier]) != isCorrect {
                    throw refuse("\(word): \"\(option)\" is marked both right and wrong.")
                }
                throw refuse("\(word) has the option \"\(option)\" twice.")
            }
            options.append(option)
            if isCorrect { correct.append(option) }
        }
        return WordEntry(word: word, level: level, options: options, correct: correct)
    }

    /// The value of a `key: value` header, or nil when the header is not that key.
    private static func headerValue(_ header: String, key: String) -> String? {
        guard let colon = header.firstIndex(of: ":"),
            ContentText.trimmed(String(header[..<colon])).lowercased() == key
        else { return nil }
        return ContentText.trimmed(String(header[header.index(after: colon)...]))
    }

    // MARK: JSON

    /// The list as a pretty-printed JSON document with sorted keys.
    public static func encodeJSON(_ list: WordList) -> String {
        let words: [JSONValue] = list.words.map { entry in
            [
                "word": .string(entry.word), "level": .int(Int64(entry.level)),
                "options": .array(entry.options.map { .string($0) }),
                "correct": .array(entry.correct.map { .string($0) }),
            ]
        }
        let document: JSONValue = [
            "id": .string(list.id), "name": .string(list.name), "language": .string(list.language),
            "words": .array(words),
        ]
        return String(decoding: JSONEncoding.pretty(document, sortingKeys: true), as: UTF8.self)
    }

    /// Reads a list from JSON bytes; its id is a slug (made from the name when missing).
    public static func decodeJSON(bytes: [UInt8]) throws(RuleError) -> WordList {
        let file = try JSONFile(bytes: bytes, expecting: jsonExpectation)
        let root = try file.rootObject(named: "the word list")
        let nameField = try root.required("name")
        let nameText = try nameField.asString()
        let name: String
        do {
            name = try WordList.checkedName(nameText)
        } catch {
            throw RuleError(error.code, "line \(nameField.line): \(ContentText.lowercasingFirst(error.message))")
        }
        var language = ""
        if let field = root.member("language") {
            let text = try field.asString()
            do {
                language = try WordList.checkedLanguage(text)
            } catch {
                throw RuleError(error.code, "line \(field.line): \(ContentText.lowercasingFirst(error.message))")
            }
        }
        let id = try root.optionalString("id") ?? ""
        let items = try root.list("words") { "word \($0)" }
        var entries: [WordEntry] = []
        for item in items {
            let fields = try item.object("an object with \"word\", \"options\" and \"correct\"")
            entries.append(
                WordEntry(
                    word: try fields.string("word"), level: try fields.optionalInt("level") ?? 1,
                    options: try fields.strings("options"), correct: try fields.strings("correct")))
        }
        // Rules of the list (not of JSON) keep their own code, with the line of the word at fault.
        let checked = try WordList.checkedEntries(entries) { index, problem in
            let item = items[index]
            switch problem {
            case .invalid(let message):
                return RuleError(
                    .badWordList, "line \(item.line): \(item.membersContext)\(ContentText.lowercasingFirst(message))")
            case .repeats(let first):
                return RuleError(
                    .badWordList,
                    "line \(item.line): \(entries[index].word) is already a question word (word \(first + 1)).")
            }
        }
        return WordList(
            id: PackLibrary.makeSlug(id.isEmpty ? name : id), name: name, language: language, words: checked)
    }
}
