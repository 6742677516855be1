/// Every word list the host knows: the read-only built-in lists (`sv`, `en`) plus the operator's own, on a
/// `ContentShelf`.
///
/// Invariants: those of the shelf, and every list passed `WordList.checkedEntries` (see `WordList` for the rules
/// of one list). Whole lists come in through `add` (files, the data folder at start); lists are edited word by
/// word through the methods below.
public struct WordListLibrary: ShelvedLibrary, Hashable {
    /// The lists that ship with the host, parsed once from `BuiltinWordLists` (a test holds them to every rule).
    public static let builtinLists: [WordList] = BuiltinWordLists.lists.map { source in
        do throws(RuleError) {
            var list = try WordListFile.decodeText(source.text, fileName: source.id)
            list.name = source.name
            list.language = source.language
            list.isBuiltin = true
            return list
        } catch {
            preconditionFailure("the built-in word list \(source.id) is broken: \(error.message)")
        }
    }

    /// The built-in and custom lists.
    public private(set) var shelf: ContentShelf<WordList>

    /// A library of `builtins` and no custom lists.
    public init(builtins: [WordList]) { shelf = ContentShelf(builtinItems: builtins) }

    /// A library of the built-in lists only.
    public init() { self.init(builtins: WordListLibrary.builtinLists) }

    // MARK: Whole lists (the shelf's, in the words of lists)

    /// Every list, built-in lists first.
    public var lists: [WordList] { shelf.items }

    /// The list `id`, built in or custom.
    public func list(id: String) -> WordList? { shelf.item(id: id) }

    /// Adds `list` as a custom list with every rule, keeping its id when it is a free slug; returns the id.
    @discardableResult
    public mutating func add(_ list: WordList) throws(RuleError) -> String {
        try shelf.add(list) { list throws(RuleError) in
            var checked = list
            checked.language = try WordList.checkedLanguage(list.language)
            checked.words = try WordList.checkedEntries(list.words) { index, problem in
                switch problem {
                case .invalid(let message):
                    RuleError(.badWordList, "Word \(index + 1): \(ContentText.lowercasingFirst(message))")
                case .repeats(let first):
                    RuleError(.badWordList, "Word \(index + 1), \(list.words[index].word), repeats word \(first + 1).")
                }
            }
            return checked
        }
    }

    /// Creates an empty custom list called `name` and returns its id (a slug of the name, made unique).
    @discardableResult
    public mutating func createList(named name: String, language: String = "") throws(RuleError) -> String {
        try add(WordList(id: "", name: name, language: language))
    }

    /// Renames the custom list `id`; its id stays.
    public mutating func renameList(_ id: String, to name: String) throws(RuleError) { try shelf.rename(id, to: name) }

    /// Deletes the custom list `id`.
    public mutating func deleteList(_ id: String) throws(RuleError) { try shelf.delete(id) }

    /// Deletes the custom list `id` (the `ContentLibrary` word for `deleteList`).
    public mutating func remove(id: String) throws(RuleError) { try shelf.delete(id) }

    /// Copies list `id` (built-in or custom) into a new custom list and returns its id; the only way to change a
    /// built-in list. Without `name` the copy is called "<name> (copy)", "<name> (copy 2)"….
    @discardableResult
    public mutating func copyList(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        try shelf.copy(id, named: name)
    }

    // MARK: Words

    /// Adds `entry` to the custom list `id`.
    public mutating func addWord(_ entry: WordEntry, toList id: String) throws(RuleError) {
        try shelf.change(id) { (list: inout WordList) throws(RuleError) in
            let entry = try WordList.checkedEntry(entry)
            guard list.entry(for: entry.word) == nil else {
                throw RuleError(.badWordList, "\"\(entry.word)\" is already a question word of \(list.name).")
            }
            guard list.words.count < WordList.maximumWords else {
                throw RuleError(.badWordList, "A list holds at most \(WordList.maximumWords) question words.")
            }
            list.words.append(entry)
        }
    }

    /// Replaces the question word `word` of the custom list `id` with `entry` (which may rename it).
    public mutating func editWord(_ word: String, inList id: String, to entry: WordEntry) throws(RuleError) {
        try shelf.change(id) { (list: inout WordList) throws(RuleError) in
            let position = try Self.wordIndex(word, in: list)
            let entry = try WordList.checkedEntry(entry)
            if let other = list.words.firstIndex(where: { WordList.key($0.word) == WordList.key(entry.word) }),
                other != position
            {
                throw RuleError(.badWordList, "\"\(entry.word)\" is already a question word of \(list.name).")
            }
            list.words[position] = entry
        }
    }

    /// Removes the question word `word` from the custom list `id`.
    public mutating func removeWord(_ word: String, fromList id: String) throws(RuleError) {
        try shelf.change(id) { (list: inout WordList) throws(RuleError) in
            list.words.remove(at: try Self.wordIndex(word, in: list))
        }
    }

    // MARK: Helpers

    /// The refusal for a list id the library does not hold.
    public static func unknownList(_ id: String) -> RuleError { WordList.unknownIDRefusal(id, among: []) }

    private static func wordIndex(_ word: String, in list: WordList) throws(RuleError) -> Int {
        guard let index = list.words.firstIndex(where: { WordList.key($0.word) == WordList.key(word) }) else {
            throw RuleError(.badWordList, "\(list.name) has no question word \"\(word)\".")
        }
        return index
    }
}

extension WordList: ShelfItem {
    /// What refusals call a word list ("The built-in list …").
    public static let shelfNoun = "list"

    /// "There is already a word list called …".
    public static func nameTakenRefusal(_ name: String) -> RuleError {
        ContentNames.takenRefusal(name, noun: "word list", code: .badWordList)
    }

    /// "There is no word list …".
    public static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError {
        RuleError(.unknownList, "There is no word list \"\(id)\".")
    }
}
