import Common

/// A station written as fields, for editing a hunt from the console or an admin client: the JSON shape of a hunt
/// file's station (`name`, `clue`, `code`, `puzzle` or `question`, `hints`, `success`), possibly partial, and the
/// console's `key=value | key=value …` way of typing it.
///
///     name=Desk | clue=Where the work gets done | question=What do you sharpen to write? | answer=pencil
///     name=Kitchen | clue=Where the cold things sleep | words=dog, green, red, blue | outsider=dog | link=colours
///     hint=30 It has lead. | hint=Think of paint. | success=Sharp! | code=FRDG
public enum StationFields {
    /// The keys a typed station may use, in the order the help lists them.
    public static let typedKeys = [
        "name", "clue", "question", "answer", "words", "outsider", "link", "difficulty", "hint", "code", "success",
    ]
    /// The keys of a station object.
    static let objectKeys = ["name", "clue", "code", "puzzle", "question", "hints", "success"]
    /// What a hint costs when the typed hint names no seconds.
    public static let defaultHintSeconds = 30

    /// Reads typed `key=value` segments separated by `|` into a station object; segments without `=` come back
    /// apart, in order (the hunt's name in `hunt create NAME | …`). An unknown key stays in the object, so that
    /// `station(_:base:)` names it.
    public static func object(typed text: String) -> (plain: [String], station: JSONObject) {
        var plain: [String] = []
        var station = JSONObject()
        var puzzle = JSONObject()
        var question = JSONObject()
        var hints: [JSONValue] = []
        for segment in text.split(separator: "|", omittingEmptySubsequences: false) {
            let part = ContentText.trimmed(String(segment))
            guard let equals = part.firstIndex(of: "=") else {
                if !part.isEmpty { plain.append(part) }
                continue
            }
            let key = ContentText.trimmed(String(part[..<equals])).lowercased()
            let value = ContentText.trimmed(String(part[part.index(after: equals)...]))
            switch key {
            case "question": question["text"] = .string(value)
            case "answer": question["answer"] = .string(value)
            case "words":
                let words = value.split(separator: ",").map { ContentText.trimmed(String($0)) }
                puzzle["words"] = .array(words.map { .string($0) })
            case "outsider", "link", "difficulty": puzzle[key] = .string(value)
            case "hint": hints.append(hint(typed: value))
            default: station[key] = .string(value)
            }
        }
        if puzzle.count > 0 { station["puzzle"] = .object(puzzle) }
        if question.count > 0 { station["question"] = .object(question) }
        if !hints.isEmpty { station["hints"] = .array(hints) }
        return (plain, station)
    }

    /// `30 It has lead.` (seconds first) or `It has lead.` (the default cost) as a hint object.
    private static func hint(typed value: String) -> JSONValue {
        let parts = value.split(separator: " ", maxSplits: 1).map(String.init)
        var first = parts.first?.lowercased() ?? ""
        if first.hasSuffix("s") { first.removeLast() }
        if parts.count == 2, let seconds = Int(first) {
            return ["text": .string(ContentText.trimmed(parts[1])), "costSeconds": .int(Int64(seconds))]
        }
        return ["text": .string(value), "costSeconds": .int(Int64(defaultHintSeconds))]
    }

    /// The station `object` describes; with `base`, what the object leaves out is kept from `base` (a puzzle or
    /// question given in part keeps the rest of `base`'s task of the same kind). The station is not checked yet:
    /// the hunt's rules do that when it joins its hunt.
    public static func station(_ object: JSONObject, base: Hunt.Station?) throws(RuleError) -> Hunt.Station {
        for (key, _) in object where !objectKeys.contains(key) {
            throw RuleError(
                .badHunt,
                "A station has no field \"\(ContentText.excerpt(key))\"; use "
                    + typedKeys.joined(separator: ", ") + ".")
        }
        func text(_ key: String, in object: JSONObject) throws(RuleError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard let text = value.stringValue else { throw RuleError(.badHunt, "A station's \(key) is a text.") }
            return text
        }
        let task = try self.task(object, base: base?.task)
        guard let name = try text("name", in: object) ?? base?.name else {
            throw RuleError(.badHunt, "A station needs a name (name=Kitchen): the place in the venue.")
        }
        guard let clue = try text("clue", in: object) ?? base?.clue else {
            throw RuleError(.badHunt, "A station needs a clue (clue=…): the riddle that leads there.")
        }
        var hints = base?.hints ?? []
        if let list = object["hints"] {
            guard let items = list.arrayValue else { throw RuleError(.badHunt, "A station's hints are a list.") }
            hints = []
            for item in items {
                guard let hint = item.objectValue, let text = hint["text"]?.stringValue else {
                    throw RuleError(.badHunt, "Each hint has a text (hint=30 It is cold: 30 seconds).")
                }
                let seconds = hint["costSeconds"]?.intValue ?? Int64(defaultHintSeconds)
                hints.append(Hunt.Hint(text: text, costSeconds: Int(clamping: seconds)))
            }
        }
        let success = try text("success", in: object) ?? base?.success
        return Hunt.Station(
            name: name, clue: clue, code: try text("code", in: object) ?? base?.code ?? "", task: task, hints: hints,
            success: success.flatMap { $0.isEmpty ? nil : $0 })
    }

    private static func task(_ object: JSONObject, base: Hunt.Task?) throws(RuleError) -> Hunt.Task {
        switch (object["puzzle"]?.objectValue, object["question"]?.objectValue) {
        case (_?, _?):
            throw RuleError(.badHunt, "A station has one task: a puzzle (words=…) or a question (question=…).")
        case (let puzzle?, nil):
            var basePuzzle: OutsiderPuzzle?
            if case .puzzle(let old)? = base { basePuzzle = old }
            var words = basePuzzle?.words ?? []
            if let list = puzzle["words"] {
                guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                    throw RuleError(.badHunt, "A puzzle's words are a list of four words.")
                }
                words = items.compactMap(\.stringValue)
            }
            let difficultyText = puzzle["difficulty"]?.stringValue
            let difficulty =
                difficultyText.map { Difficulty(rawValue: TextFolding.fold($0)) } ?? basePuzzle?.difficulty ?? .medium
            guard let difficulty else {
                throw RuleError(.badHunt, "difficulty must be easy, medium or hard, not \"\(difficultyText ?? "")\".")
            }
            guard let outsider = puzzle["outsider"]?.stringValue ?? basePuzzle?.outsider,
                let link = puzzle["link"]?.stringValue ?? basePuzzle?.link, !words.isEmpty
            else {
                throw RuleError(
                    .badHunt,
                    "A puzzle needs its four words, its outsider and its link (words=… | outsider=… | link=…).")
            }
            return .puzzle(OutsiderPuzzle(difficulty: difficulty, words: words, outsider: outsider, link: link))
        case (nil, let question?):
            var baseText: String?
            var baseAnswer: String?
            if case .question(let text, let answer)? = base { (baseText, baseAnswer) = (text, answer) }
            guard let text = question["text"]?.stringValue ?? baseText,
                let answer = question["answer"]?.stringValue ?? baseAnswer
            else {
                throw RuleError(.badHunt, "A question needs its text and its answer (question=… | answer=…).")
            }
            return .question(text: text, answer: answer)
        case (nil, nil):
            guard let base else {
                throw RuleError(
                    .badHunt,
                    "A station needs a task: a puzzle (words=… | outsider=… | link=…) or a question "
                        + "(question=… | answer=…).")
            }
            return base
        }
    }
}
