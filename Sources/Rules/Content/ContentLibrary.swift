/// What every library of content shares (quiz packs, puzzle packs, word lists, dice boards and station hunts), so
/// the host can keep each kind in its data folder the same way. Each library keeps its items on a `ContentShelf`
/// (see `ShelvedLibrary`), which holds the id and name rules once for all of them.
///
/// A library is a value: the read-only built-in items that ship with the host plus the operator's custom items.
/// `add` is the one gate for a whole item, whether it comes from a file, an import or the data folder at start:
/// it applies every rule of the kind and may give the item a fresh id when its own is taken. Among those rules,
/// every text people will see (names, questions, answers, clues, words) is refused with `RuleError(.badText, …)`
/// when `TerminalText.problem(in:)` finds a control character, an escape or invisible formatting in it.
public protocol ContentLibrary: Sendable {
    /// One item of content, such as a `QuizPack`.
    associatedtype Item: Sendable

    /// A library holding only the built-in items.
    init()

    /// The items that ship with the host (read-only), in their order.
    var builtinItems: [Item] { get }

    /// The operator's items, in the order they were added.
    var customItems: [Item] { get }

    /// The item with `id`, built in or custom.
    func item(id: String) -> Item?

    /// Whether `id` names a built-in item (which cannot be changed, only copied).
    func isBuiltin(id: String) -> Bool

    /// Checks `item` with every rule of the library and adds it as a custom item; returns the id it was given.
    mutating func add(_ item: Item) throws(RuleError) -> String

    /// Removes the custom item `id`; refuses built-in ids and unknown ones.
    mutating func remove(id: String) throws(RuleError)
}

extension ContentLibrary {
    /// A fresh id for an item named `text`: its slug, then `slug-2`, `slug-3`, … while an item has it.
    public func freeID(for text: String) -> String {
        ContentNames.uniqueID(for: text) { item(id: $0) != nil }
    }
}
