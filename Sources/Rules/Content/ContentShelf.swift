import Common

/// One item a `ContentShelf` holds (a quiz pack, a puzzle pack, a hunt, a word list, a dice board), with the
/// rules and the words its kind's refusals use.
///
/// The kind keeps only what is really its own: how a name is checked, and how a taken name, an unknown id and a
/// read-only item are refused. Everything else (ids, folded names, built-in versus custom) is the shelf's.
public protocol ShelfItem: Sendable, Hashable {
    /// A short stable id, a slug unique on its shelf.
    var id: String { get set }
    /// The name shown to people, unique on its shelf once folded.
    var name: String { get set }
    /// Whether the item ships with the host (read-only: it can only be copied).
    var isBuiltin: Bool { get set }

    /// What the read-only refusal calls one item of the kind ("puzzle pack").
    static var shelfNoun: String { get }

    /// `name` trimmed, once it is a valid name of the kind (whether it is free is the shelf's question).
    static func checkedName(_ name: String) throws(RuleError) -> String

    /// The refusal for a valid `name` that another item of the shelf already has.
    static func nameTakenRefusal(_ name: String) -> RuleError

    /// The refusal for an `id` the shelf does not hold; `ids` are the ones it does, to suggest the closest.
    static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError

    /// The refusal for changing the built-in item called `name`; `action` says how ("renamed", "deleted").
    static func readOnlyRefusal(name: String, action: String) -> RuleError
}

extension ShelfItem {
    /// "The built-in <noun> "<name>" cannot be <action>; copy it to make your own."
    public static func readOnlyRefusal(name: String, action: String) -> RuleError {
        RuleError(.readOnly, "The built-in \(shelfNoun) \"\(name)\" cannot be \(action); copy it to make your own.")
    }
}

/// The read-only built-in items of one kind of content plus the operator's custom items, and every rule about
/// their ids and names, once for every content library.
///
/// Invariants: ids are unique slugs across built-in and custom items; names are unique once folded (case,
/// accents, spacing and punctuation ignored) and passed `Item.checkedName`; custom items never have `isBuiltin`
/// set. Items come in through `add` only, which checks the name, runs the kind's validation and gives the item
/// its id; the content of a custom item changes through `change` only, which keeps a change only when it passes.
public struct ContentShelf<Item: ShelfItem>: Sendable, Hashable {
    /// The items that ship with the host, in their order.
    public let builtinItems: [Item]
    /// The operator's items, in the order they were added.
    public private(set) var customItems: [Item] = []

    /// A shelf of `builtinItems` (as given: the kind marks its own built-in items) and no custom items.
    public init(builtinItems: [Item]) { self.builtinItems = builtinItems }

    // MARK: Looking up

    /// Every item, built-in items first, then custom items in the order they were added.
    public var items: [Item] { builtinItems + customItems }

    /// The item whose id is `id`, built in or custom.
    public func item(id: String) -> Item? {
        builtinItems.first { $0.id == id } ?? customItems.first { $0.id == id }
    }

    /// The item whose name is `name` once both are folded (case, accents, spacing and punctuation ignored).
    public func item(named name: String) -> Item? {
        builtinItems.first { ContentNames.same($0.name, name) }
            ?? customItems.first { ContentNames.same($0.name, name) }
    }

    /// Whether `id` names a built-in item.
    public func isBuiltin(id: String) -> Bool { builtinItems.contains { $0.id == id } }

    /// Whether an item other than `ignoredID` has `name`, once folded.
    public func isNameTaken(_ name: String, ignoring ignoredID: String? = nil) -> Bool {
        items.contains { $0.id != ignoredID && ContentNames.same($0.name, name) }
    }

    /// A fresh id for an item named `text`: its slug, then `slug-2`, `slug-3`, … while an item has it.
    public func freeID(for text: String) -> String {
        ContentNames.uniqueID(for: text) { item(id: $0) != nil }
    }

    /// `name` trimmed, once it is a valid name of the kind that no item other than `ignoredID` has.
    public func checkedFreeName(_ name: String, ignoring ignoredID: String? = nil) throws(RuleError) -> String {
        let name = try Item.checkedName(name)
        guard !isNameTaken(name, ignoring: ignoredID) else { throw Item.nameTakenRefusal(name) }
        return name
    }

    /// The refusal for an id the shelf does not hold, in the kind's words.
    public func unknownID(_ id: String) -> RuleError { Item.unknownIDRefusal(id, among: items.map(\.id)) }

    /// The item `id`, built in or custom; refuses an unknown id.
    public func existing(_ id: String) throws(RuleError) -> Item {
        guard let item = item(id: id) else { throw unknownID(id) }
        return item
    }

    // MARK: Whole items

    /// Adds `item` as a custom item and returns the id it was given; the one gate for a whole item.
    ///
    /// Its name is checked first (valid and free), then `validate` checks the rest (the kind's own rules) and
    /// may return the item cleaned; the item keeps its own id when that is a free slug, else gets a fresh one
    /// from it (or from its name, when it has none). Nothing changes when a rule refuses.
    @discardableResult
    public mutating func add(
        _ item: Item, validating validate: (Item) throws(RuleError) -> Item = { item throws(RuleError) in item }
    ) throws(RuleError) -> String {
        var added = item
        added.name = try checkedFreeName(item.name)
        added = try validate(added)
        added.id = ContentNames.keptOrFreshID(item.id, name: added.name) { self.item(id: $0) != nil }
        added.isBuiltin = false
        customItems.append(added)
        return added.id
    }

    /// Renames the custom item `id` to `name`; its id stays, so whatever refers to it keeps working.
    public mutating func rename(_ id: String, to name: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "renamed")
        customItems[index].name = try checkedFreeName(name, ignoring: id)
    }

    /// Deletes the custom item `id`.
    public mutating func delete(_ id: String) throws(RuleError) {
        customItems.remove(at: try customIndex(of: id, action: "deleted"))
    }

    /// The name of a copy of `source`: `name` when given, else "<name> (copy)", "<name> (copy 2)"… (the first
    /// that is free). Not yet checked: `copy` and `add` check it.
    public func copyName(of source: Item, named name: String?) -> String {
        if let name { return name }
        var attempt = 1
        var candidate = "\(source.name) (copy)"
        while isNameTaken(candidate) {
            attempt += 1
            candidate = "\(source.name) (copy \(attempt))"
        }
        return candidate
    }

    /// Copies the item `id` (built in or custom) into a new custom item called `name` (see `copyName`) and
    /// returns its id; copying is the only way to change a built-in item.
    @discardableResult
    public mutating func copy(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        var copy = try existing(id)
        copy.name = try checkedFreeName(copyName(of: copy, named: name))
        copy.id = freeID(for: copy.name)
        copy.isBuiltin = false
        customItems.append(copy)
        return copy.id
    }

    /// Applies `body` to a copy of the custom item `id` and keeps the result (with its id and custom mark) only
    /// when `body` does not throw; returns what `body` returns. Built-in items are refused ("cannot be changed").
    @discardableResult
    public mutating func change<Result>(
        _ id: String, _ body: (inout Item) throws(RuleError) -> Result
    ) throws(RuleError) -> Result {
        let index = try customIndex(of: id, action: "changed")
        var item = customItems[index]
        let result = try body(&item)
        item.id = customItems[index].id
        item.isBuiltin = false
        customItems[index] = item
        return result
    }

    /// The index in `customItems` of `id`, refusing built-in items (which cannot be `action`) and unknown ids.
    private func customIndex(of id: String, action: String) throws(RuleError) -> Int {
        if let builtin = builtinItems.first(where: { $0.id == id }) {
            throw Item.readOnlyRefusal(name: builtin.name, action: action)
        }
        guard let index = customItems.firstIndex(where: { $0.id == id }) else { throw unknownID(id) }
        return index
    }
}

/// A content library whose items stand on a `ContentShelf`: the shelf answers every `ContentLibrary` question
/// but `add`, which is where the kind's own rules are.
public protocol ShelvedLibrary: ContentLibrary where Item: ShelfItem {
    /// The built-in and custom items, with their id and name rules.
    var shelf: ContentShelf<Item> { get }
}

extension ShelvedLibrary {
    /// The items that ship with the host.
    public var builtinItems: [Item] { shelf.builtinItems }

    /// The operator's items.
    public var customItems: [Item] { shelf.customItems }

    /// The item with `id`, built in or custom.
    public func item(id: String) -> Item? { shelf.item(id: id) }

    /// Whether `id` names a built-in item.
    public func isBuiltin(id: String) -> Bool { shelf.isBuiltin(id: id) }
}
