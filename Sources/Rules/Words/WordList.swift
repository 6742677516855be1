import Common

/// One question word of a word list: its answer options and which of them join it into a real compound word.
///
/// `sun` with the options `flower glasses chair spoon`, of which `flower` and `glasses` are correct: sun + flower
/// is the compound `sunflower`, shown joined; sun + spoon is no word.
public struct WordEntry: Codable, Sendable, Hashable {
    /// The first part of the compound, shown as the question.
    public var word: String
    /// The level the word belongs to (1 is the easiest).
    public var level: Int
    /// Every option in the order it was written, the correct ones included.
    public var options: [String]
    /// The options that make a real compound word with `word` (a non-empty subset of `options`).
    public var correct: [String]

    /// Creates an entry.
    public init(word: String, level: Int, options: [String], correct: [String]) {
        self.word = word
        self.level = level
        self.options = options
        self.correct = correct
    }

    /// The options that make no word with `word`.
    public var wrong: [String] { options.filter { !correct.contains($0) } }

    /// Whether `option` joins the question word into a real compound word.
    public func isCorrect(_ option: String) -> Bool { correct.contains(option) }

    /// The compound of the question word and `option`, shown joined: `sun` + `flower` → `sunflower`.
    public func compound(with option: String) -> String { word + option }
}

/// A word list of the compound-words trainer: question words in levels, each with its options.
///
/// Invariants of every list the library holds (`WordList.checked`): question words are single words, unique
/// ignoring case; every entry has `minimumOptions`…`maximumOptions` distinct options, at least one of them correct,
/// none both right and wrong, and never the question word itself. Whether each level is big enough for every
/// exercise is a separate question (`playabilityProblem`), asked when a game starts, because a list edited word
/// by word passes through small levels.
public struct WordList: Codable, Sendable, Hashable, Identifiable {
    /// The most characters of a question word or an option.
    public static let maximumWordLength = 24
    /// The fewest options a question word needs: a hand of four cards, and four options on a bingo card.
    public static let minimumOptions = 4
    /// The most options of one question word.
    public static let maximumOptions = 12
    /// The highest level number.
    public static let maximumLevel = 99
    /// The most question words one list may hold.
    public static let maximumWords = 2000
    /// The longest list name.
    public static let maximumNameLength = 60
    /// The question words a level needs so that a 4×4 bingo card always reaches a line without repeating one:
    /// a card can hold 12 marks without a full row, column or diagonal, so the 13th correct answer completes one.
    public static let wordsForBingo = 13

    /// A short stable identifier (`en`, `garden-words`); a text file's name is its id.
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The language code (`en`, `sv`), or empty when not given.
    public var language: String
    /// Whether the list ships with the host (read-only; copy it to change it).
    public var isBuiltin: Bool
    /// The question words, in the order they were written.
    public var words: [WordEntry]

    /// Creates a list.
    public init(id: String, name: String, language: String = "", isBuiltin: Bool = false, words: [WordEntry] = []) {
        self.id = id
        self.name = name
        self.language = language
        self.isBuiltin = isBuiltin
        self.words = words
    }

    /// The levels that hold at least one word, in ascending order.
    public var levels: [Int] { Array(Set(words.map(\.level))).sorted() }

    /// The words of `level`, in list order.
    public func words(level: Int) -> [WordEntry] { words.filter { $0.level == level } }

    /// The entry for the question word `word` (ignoring case), if any.
    public func entry(for word: String) -> WordEntry? {
        let key = WordList.key(word)
        return words.first { WordList.key($0.word) == key }
    }

    /// Why `level` cannot be played by every exercise (cards, bingo and the dice board), or nil when it can.
    public func playabilityProblem(level: Int) -> String? {
        let count = words(level: level).count
        guard count > 0 else {
            let known = levels.map(String.init).joined(separator: ", ")
            return "The list \"\(name)\" has no level \(level)"
                + (known.isEmpty ? "; it has no words yet." : "; its levels are \(known).")
        }
        guard count >= WordList.wordsForBingo else {
            return "Level \(level) of \"\(name)\" has \(counted(count, "question word")); a bingo card can need "
                + "\(WordList.wordsForBingo), so add \(WordList.wordsForBingo - count) more."
        }
        return nil
    }

    /// How words compare: case and accents ignored.
    static func key(_ word: String) -> String { TextFolding.fold(word) }

    // MARK: Checks

    /// Why one entry is refused.
    public enum EntryProblem: Sendable, Hashable {
        /// The entry breaks a rule of `checkedEntry`.
        case invalid(String)
        /// Its question word repeats the entry at this 0-based index.
        case repeats(Int)
    }

    /// `entry` trimmed, once it passed every rule for one question word; throws a sentence saying what is wrong.
    public static func checkedEntry(_ entry: WordEntry) throws(RuleError) -> WordEntry {
        func refuse(_ message: String) -> RuleError { RuleError(.badWordList, message) }
        let word = ContentText.trimmed(entry.word)
        try checkWord(word, what: "The question word")
        guard (1...maximumLevel).contains(entry.level) else {
            throw refuse("\(word) is on level \(entry.level); levels are 1 to \(maximumLevel).")
        }
        let options = entry.options.map(ContentText.trimmed)
        let correct = entry.correct.map(ContentText.trimmed)
        var seen: Set<String> = []
        for option in options {
            try checkWord(option, what: "The option \"\(option)\" of \(word)")
            guard seen.insert(key(option)).inserted else {
                throw refuse("\(word) has the option \"\(option)\" twice.")
            }
            guard key(option) != key(word) else { throw refuse("\(word) has itself as an option.") }
        }
        for option in correct where !options.contains(option) {
            throw refuse("\(word): the correct option \"\(option)\" is not among its options.")
        }
        guard !correct.isEmpty else {
            throw refuse("\(word) has no correct option; mark at least one (flower* in the text format).")
        }
        guard options.count >= minimumOptions else {
            throw refuse(
                "\(word) has \(counted(options.count, "option")); it needs at least \(minimumOptions) "
                    + "(a hand of four cards).")
        }
        guard options.count <= maximumOptions else {
            throw refuse("\(word) has \(options.count) options; at most \(maximumOptions) are allowed.")
        }
        var unique: [String] = []
        for option in correct where !unique.contains(option) { unique.append(option) }
        return WordEntry(word: word, level: entry.level, options: options, correct: unique)
    }

    /// The entries of a whole list, each checked, none repeating the question word of an earlier one; `refusal`
    /// words the error for the entry at a 0-based index, so that a file's reader can name the line.
    public static func checkedEntries(
        _ entries: [WordEntry], refusal: (Int, EntryProblem) -> RuleError
    ) throws(RuleError) -> [WordEntry] {
        guard entries.count <= maximumWords else {
            throw RuleError(
                .badWordList, "A list holds at most \(maximumWords) question words; this one has \(entries.count).")
        }
        var checked: [WordEntry] = []
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let clean: WordEntry
            do {
                clean = try checkedEntry(entry)
            } catch {
                throw refusal(index, .invalid(error.message))
            }
            if let first = seen[key(clean.word)] { throw refusal(index, .repeats(first)) }
            seen[key(clean.word)] = index
            checked.append(clean)
        }
        return checked
    }

    /// Checks a list's name: one line, 1…`maximumNameLength` characters with a letter or digit.
    public static func checkedName(_ name: String) throws(RuleError) -> String {
        let name = ContentText.trimmed(name)
        guard !TextFolding.fold(name).isEmpty, !name.contains(where: \.isNewline) else {
            throw RuleError(.badWordList, "A word list needs a name on one line with at least one letter or digit.")
        }
        guard name.count <= maximumNameLength else {
            throw RuleError(.badWordList, "Word list names can be at most \(maximumNameLength) characters long.")
        }
        return name
    }

    /// Checks a language code: empty, or 2…12 letters, digits and dashes (`en`, `sv`, `pt-br`).
    public static func checkedLanguage(_ language: String) throws(RuleError) -> String {
        let language = ContentText.trimmed(language).lowercased()
        let isCode =
            (2...12).contains(language.count) && language.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        guard language.isEmpty || isCode else {
            throw RuleError(.badWordList, "The language must be a short code such as en or sv, not \"\(language)\".")
        }
        return language
    }

    private static func checkWord(_ word: String, what: String) throws(RuleError) {
        guard !word.isEmpty else { throw RuleError(.badWordList, "\(what) is empty.") }
        guard word.allSatisfy({ $0.isLetter }) else {
            throw RuleError(
                .badWordList, "\(what) must be one word of letters, not \"\(ContentText.excerpt(word, limit: 30))\".")
        }
        guard word.count <= maximumWordLength else {
            throw RuleError(.badWordList, "\(what) is longer than \(maximumWordLength) letters.")
        }
    }
}

/// `1 option`, `3 options`: a count that agrees with its noun.
func counted(_ number: Int, _ singular: String) -> String { "\(number) \(singular)\(number == 1 ? "" : "s")" }
