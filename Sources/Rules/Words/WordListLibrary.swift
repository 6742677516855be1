/// Every word list the host knows: the read-only built-in lists (`sv`, `en`) plus the operator's own.
///
/// Invariants: ids are unique slugs; names are unique ignoring case and accents; every list passed
/// `WordList.checkedEntries` (see `WordList` for the rules of one list). Whole lists come in through `add`
/// (files, the data folder at start); lists are edited word by word through the methods below.
public struct WordListLibrary: Sendable, Hashable {
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

    /// The read-only lists.
    public let builtinLists: [WordList]
    /// The operator's lists, in the order they were added.
    public private(set) var customLists: [WordList] = []

    /// A library of `builtins` and no custom lists.
    public init(builtins: [WordList]) { builtinLists = builtins }

    /// Every list, built-in lists first.
    public var lists: [WordList] { builtinLists + customLists }

    /// The list `id`, built in or custom.
    public func list(id: String) -> WordList? { lists.first { $0.id == id } }

    // MARK: Whole lists

    /// Adds `list` as a custom list with every rule, keeping its id when it is a free slug; returns the id.
    @discardableResult
    public mutating func addList(_ list: WordList) throws(RuleError) -> String {
        let name = try checkedFreeName(list.name)
        let language = try WordList.checkedLanguage(list.language)
        let words = try WordList.checkedEntries(list.words) { index, problem in
            switch problem {
            case .invalid(let message):
                RuleError(.badWordList, "Word \(index + 1): \(ContentText.lowercasingFirst(message))")
            case .repeats(let first):
                RuleError(.badWordList, "Word \(index + 1), \(list.words[index].word), repeats word \(first + 1).")
            }
        }
        let slug = PackLibrary.makeSlug(list.id)
        let id = slug == list.id && self.list(id: slug) == nil ? slug : freeID(for: list.id.isEmpty ? name : list.id)
        customLists.append(WordList(id: id, name: name, language: language, words: words))
        return id
    }

    /// Creates an empty custom list called `name` and returns its id (a slug of the name, made unique).
    @discardableResult
    public mutating func createList(named name: String, language: String = "") throws(RuleError) -> String {
        let name = try checkedFreeName(name)
        let id = freeID(for: name)
        customLists.append(WordList(id: id, name: name, language: try WordList.checkedLanguage(language)))
        return id
    }

    /// Renames the custom list `id`; its id stays.
    public mutating func renameList(_ id: String, to name: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "renamed")
        customLists[index].name = try checkedFreeName(name, ignoring: id)
    }

    /// Deletes the custom list `id`.
    public mutating func deleteList(_ id: String) throws(RuleError) {
        customLists.remove(at: try customIndex(of: id, action: "deleted"))
    }

    /// Copies list `id` (built-in or custom) into a new custom list and returns its id; the only way to change a
    /// built-in list. Without `name` the copy is called "<name> (copy)", "<name> (copy 2)"….
    @discardableResult
    public mutating func copyList(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        guard let source = list(id: id) else { throw Self.unknownList(id) }
        var newName = "\(source.name) (copy)"
        if let name {
            newName = try checkedFreeName(name)
        } else {
            var attempt = 1
            while isNameTaken(newName) {
                attempt += 1
                newName = "\(source.name) (copy \(attempt))"
            }
        }
        let newID = freeID(for: newName)
        customLists.append(WordList(id: newID, name: newName, language: source.language, words: source.words))
        return newID
    }

    // MARK: Words

    /// Adds `entry` to the custom list `id`.
    public mutating func addWord(_ entry: WordEntry, toList id: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "changed")
        let entry = try WordList.checkedEntry(entry)
        guard customLists[index].entry(for: entry.word) == nil else {
            throw RuleError(.badWordList, "\"\(entry.word)\" is already a question word of \(customLists[index].name).")
        }
        guard customLists[index].words.count < WordList.maximumWords else {
            throw RuleError(.badWordList, "A list holds at most \(WordList.maximumWords) question words.")
        }
        customLists[index].words.append(entry)
    }

    /// Replaces the question word `word` of the custom list `id` with `entry` (which may rename it).
    public mutating func editWord(_ word: String, inList id: String, to entry: WordEntry) throws(RuleError) {
        let index = try customIndex(of: id, action: "changed")
        let position = try wordIndex(word, in: customLists[index])
        let entry = try WordList.checkedEntry(entry)
        if let other = customLists[index].words.firstIndex(where: { WordList.key($0.word) == WordList.key(entry.word) }
        ),
            other != position
        {
            throw RuleError(.badWordList, "\"\(entry.word)\" is already a question word of \(customLists[index].name).")
        }
        customLists[index].words[position] = entry
    }

    /// Removes the question word `word` from the custom list `id`.
    public mutating func removeWord(_ word: String, fromList id: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "changed")
        customLists[index].words.remove(at: try wordIndex(word, in: customLists[index]))
    }

    // MARK: Helpers

    /// The refusal for a list id the library does not hold.
    public static func unknownList(_ id: String) -> RuleError {
        RuleError(.unknownList, "There is no word list \"\(id)\".")
    }

    private func wordIndex(_ word: String, in list: WordList) throws(RuleError) -> Int {
        guard let index = list.words.firstIndex(where: { WordList.key($0.word) == WordList.key(word) }) else {
            throw RuleError(.badWordList, "\(list.name) has no question word \"\(word)\".")
        }
        return index
    }

    private func customIndex(of id: String, action: String) throws(RuleError) -> Int {
        if let builtin = builtinLists.first(where: { $0.id == id }) {
            throw RuleError(
                .readOnly, "The built-in list \"\(builtin.name)\" cannot be \(action); copy it to make your own.")
        }
        guard let index = customLists.firstIndex(where: { $0.id == id }) else { throw Self.unknownList(id) }
        return index
    }

    private func isNameTaken(_ name: String, ignoring ignoredID: String? = nil) -> Bool {
        lists.contains { $0.id != ignoredID && WordList.key($0.name) == WordList.key(name) }
    }

    private func checkedFreeName(_ name: String, ignoring ignoredID: String? = nil) throws(RuleError) -> String {
        let name = try WordList.checkedName(name)
        guard !isNameTaken(name, ignoring: ignoredID) else {
            throw RuleError(.badWordList, "There is already a word list called \"\(name)\"; choose another name.")
        }
        return name
    }

}

extension WordListLibrary: ContentLibrary {
    /// A library of the built-in lists only.
    public init() { self.init(builtins: WordListLibrary.builtinLists) }

    /// The built-in lists.
    public var builtinItems: [WordList] { builtinLists }

    /// The operator's lists.
    public var customItems: [WordList] { customLists }

    /// Deletes the custom list `id`.
    public mutating func remove(id: String) throws(RuleError) { try deleteList(id) }

    /// The list with `id`, built in or custom.
    public func item(id: String) -> WordList? { list(id: id) }

    /// Whether `id` names a built-in list.
    public func isBuiltin(id: String) -> Bool { builtinLists.contains { $0.id == id } }

    /// Adds `item` through `addList`, with every rule of the library.
    public mutating func add(_ item: WordList) throws(RuleError) -> String { try addList(item) }
}
