import Common

/// A pack of entries that games draw from (a quiz pack's questions, an Odd One Out pack's puzzles): the entry's
/// own rules and the words of the kind's refusals. A `PackShelf` keeps the rest once for every such kind.
public protocol EntryPack: ShelfItem, Codable {
    /// One entry of a pack (a question, a puzzle).
    associatedtype Entry: Sendable, Hashable
    /// What two entries of a pack share when one repeats the other (a question's folded text, a puzzle's words).
    associatedtype Sameness: Hashable
    /// What a game gets of a drawn entry (the question itself; a puzzle with its pack's name).
    associatedtype Drawn: Sendable

    /// The most entries one custom pack may hold.
    static var maximumEntries: Int { get }
    /// What refusals call one entry (`question`); its plural adds an s.
    static var entryNoun: String { get }
    /// The packs that ship with the host.
    static var builtins: [Self] { get }

    /// An empty pack called `name`, with no id yet (the shelf gives it one).
    init(emptyNamed name: String)
    /// The entries, in the order they were written.
    var entries: [Entry] { get set }

    /// `entry` cleaned (trimmed), once it passes every rule for one entry on its own.
    static func checked(_ entry: Entry) throws(RuleError) -> Entry
    /// What `entry` shares with an entry it repeats.
    static func sameness(of entry: Entry) -> Sameness
    /// How hard `entry` is.
    static func difficulty(of entry: Entry) -> Difficulty
    /// How an evening remembers that `entry` was played (`PackShelf.draw(…avoiding:)`).
    static func playedKey(of entry: Entry) -> String
    /// What a game gets of `entry`, drawn from `pack`.
    static func drawn(_ entry: Entry, from pack: Self) -> Drawn

    /// The refusal for entry `index` of a whole pack (0-based) that repeats the entry at `first`.
    static func repeatRefusal(_ index: Int, repeats first: Int) -> RuleError
    /// The refusal for an entry that repeats the entry at `index` (0-based) of `pack`.
    static func duplicateRefusal(in pack: Self, at index: Int) -> RuleError
    /// The refusal for one more entry in `pack`, which holds `maximumEntries` already.
    static func fullRefusal(_ pack: Self) -> RuleError
    /// The refusal for a draw that cannot be made, in the words of the kind's games.
    static func drawRefusal(_ problem: PackShelfDrawProblem) -> RuleError
}

/// Why a `PackShelf` cannot draw what a game asks for.
public enum PackShelfDrawProblem: Sendable, Hashable {
    /// No pack was chosen.
    case noPacks
    /// Fewer than one entry was asked for.
    case noEntries
    /// The pack `id` is not on the shelf, whose ids are `ids`.
    case unknownPack(String, among: [String])
    /// The chosen packs (`packIDs`, each once) hold only `available` entries that `difficulty` admits.
    case notEnough(packIDs: [String], available: Int, difficulty: DifficultyChoice)
}

/// Why one entry of a whole pack is refused.
public enum PackEntryProblem: Sendable, Hashable {
    /// The entry breaks a rule of its kind's `EntryPack.checked`.
    case invalid(RuleError)
    /// The entry repeats the one at this 0-based index.
    case repeats(Int)
}

/// The read-only built-in packs of one kind plus the operator's own, on a `ContentShelf` (ids, names, built-in
/// versus custom), with every rule about their entries: the one library behind quiz packs (`PackLibrary`) and
/// puzzle packs (`OutsiderPackLibrary`).
///
/// Invariants: those of the shelf, and every entry in a pack passed `Pack.checked` and repeats no other entry of
/// its pack. Whole packs come in through `importPack` only (files, the data folder at start, decoding a saved
/// library); single entries through `addEntry`/`editEntry`. Only the custom packs are persisted (`Codable`); the
/// built-in packs always come from `Pack.builtins`.
public struct PackShelf<Pack: EntryPack>: ShelvedLibrary, Hashable, Codable {
    /// The built-in and custom packs.
    public private(set) var shelf: ContentShelf<Pack>

    /// Creates a library of `builtinPacks` and no custom packs.
    public init(builtinPacks: [Pack]) { shelf = ContentShelf(builtinItems: builtinPacks) }

    /// A library of the built-in packs only.
    public init() { self.init(builtinPacks: Pack.builtins) }

    /// Creates a library of `builtinPacks` plus `customPacks`, each added by `importPack` and so held to every
    /// rule: they are marked not built in, an id that is not a free slug is replaced by a fresh one, and a pack
    /// that breaks a rule (a taken name, a bad entry) is refused.
    public init(customPacks: [Pack], builtinPacks: [Pack] = Pack.builtins) throws(RuleError) {
        self.init(builtinPacks: builtinPacks)
        for pack in customPacks { try importPack(pack) }
    }

    private enum CodingKeys: String, CodingKey {
        case customPacks
    }

    /// Decodes a saved library: its custom packs, joined to the current built-in packs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(customPacks: container.decode([Pack].self, forKey: .customPacks))
    }

    /// Encodes the custom packs only; built-in packs ship with the host.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(customPacks, forKey: .customPacks)
    }

    // MARK: Packs

    /// The read-only packs that ship with the host.
    public var builtinPacks: [Pack] { shelf.builtinItems }
    /// The operator's packs, in the order they were created.
    public var customPacks: [Pack] { shelf.customItems }
    /// Every pack, built-in packs first, then custom packs in creation order.
    public var packs: [Pack] { shelf.items }

    /// The pack whose id is `id`, or nil when there is none.
    public func pack(id: String) -> Pack? { shelf.item(id: id) }

    /// Creates an empty custom pack called `name` and returns its new id (a slug of the name, made unique).
    @discardableResult
    public mutating func createPack(named name: String) throws(RuleError) -> String {
        try shelf.add(Pack(emptyNamed: name))
    }

    /// Renames the custom pack `id` to `name`; its id stays the same so saved games keep working.
    public mutating func renamePack(_ id: String, to name: String) throws(RuleError) { try shelf.rename(id, to: name) }

    /// Deletes the custom pack `id`.
    public mutating func deletePack(_ id: String) throws(RuleError) { try shelf.delete(id) }

    /// Deletes the custom pack `id` (the `ContentLibrary` word for `deletePack`).
    public mutating func remove(id: String) throws(RuleError) { try shelf.delete(id) }

    /// Copies pack `id` (built-in or custom) into a new custom pack and returns the new pack's id.
    ///
    /// Without `name` the copy is called "<name> (copy)", or "<name> (copy 2)" and so on when that is taken.
    /// Copying is the only way to change a built-in pack.
    @discardableResult
    public mutating func copyPack(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        try shelf.copy(id, named: name)
    }

    /// Adds `item` through `importPack`, with every rule of the library.
    public mutating func add(_ item: Pack) throws(RuleError) -> String { try importPack(item) }

    /// Adds `pack` (for example one read from a file) as a new custom pack and returns its id.
    ///
    /// The pack's own id is kept when it is a free slug, otherwise a fresh one is made; its name must be free
    /// and every entry must pass the same checks as `addEntry` (errors name the entry's number).
    @discardableResult
    public mutating func importPack(_ pack: Pack) throws(RuleError) -> String {
        try shelf.add(pack) { pack throws(RuleError) in
            guard pack.entries.count <= Pack.maximumEntries else {
                throw RuleError(
                    .packFull,
                    "A pack can hold at most \(Pack.maximumEntries) \(Pack.entryNoun)s; "
                        + "this one has \(pack.entries.count).")
            }
            var checked = pack
            checked.entries = try Self.checkedEntries(pack.entries) { index, problem in
                switch problem {
                case .invalid(let error):
                    RuleError(
                        error.code,
                        "\(ContentText.capitalizingFirst(Pack.entryNoun)) \(index + 1): "
                            + ContentText.lowercasingFirst(error.message))
                case .repeats(let first): Pack.repeatRefusal(index, repeats: first)
                }
            }
            return checked
        }
    }

    // MARK: Editing entries
    //
    // Entry indexes are 0-based in this API; refusal messages count entries from 1, as operators do.

    /// Appends `entry` (cleaned) to the custom pack `packID` after checking it.
    public mutating func addEntry(_ entry: Pack.Entry, toPack packID: String) throws(RuleError) {
        try shelf.change(packID) { (pack: inout Pack) throws(RuleError) in
            let entry = try Pack.checked(entry)
            guard pack.entries.count < Pack.maximumEntries else { throw Pack.fullRefusal(pack) }
            try Self.checkNotDuplicate(entry, in: pack, ignoring: nil)
            pack.entries.append(entry)
        }
    }

    /// Replaces the entry at `index` (0-based) in the custom pack `packID` with `entry` (cleaned).
    public mutating func editEntry(at index: Int, inPack packID: String, to entry: Pack.Entry) throws(RuleError) {
        try shelf.change(packID) { (pack: inout Pack) throws(RuleError) in
            try Self.checkIndex(index, in: pack)
            let entry = try Pack.checked(entry)
            try Self.checkNotDuplicate(entry, in: pack, ignoring: index)
            pack.entries[index] = entry
        }
    }

    /// Removes and returns the entry at `index` (0-based) in the custom pack `packID`.
    @discardableResult
    public mutating func removeEntry(at index: Int, fromPack packID: String) throws(RuleError) -> Pack.Entry {
        try shelf.change(packID) { (pack: inout Pack) throws(RuleError) in
            try Self.checkIndex(index, in: pack)
            return pack.entries.remove(at: index)
        }
    }

    /// The entries of a whole pack, cleaned, once each passed `Pack.checked` and none repeats an earlier one.
    ///
    /// This is the check every way into the library shares (files, the console, the admin protocol); `refusal`
    /// words the error for the entry at a 0-based index, so that a file's reader can name the line.
    public static func checkedEntries(
        _ entries: [Pack.Entry], refusal: (Int, PackEntryProblem) -> RuleError
    ) throws(RuleError) -> [Pack.Entry] {
        var checked: [Pack.Entry] = []
        checked.reserveCapacity(entries.count)
        var seen: [Pack.Sameness: Int] = [:]
        for (index, written) in entries.enumerated() {
            let entry: Pack.Entry
            do {
                entry = try Pack.checked(written)
            } catch {
                throw refusal(index, .invalid(error))
            }
            let key = Pack.sameness(of: entry)
            if let first = seen[key] { throw refusal(index, .repeats(first)) }
            seen[key] = index
            checked.append(entry)
        }
        return checked
    }

    // MARK: Drawing

    /// Draws `count` different entries at random from the packs `packIDs` that `difficulty` admits (see
    /// `DifficultyDraw`); an entry that repeats an earlier one (in pack order) is drawn at most once. Refuses
    /// unknown packs, an empty pack list, a count below one, and more entries than the packs hold.
    public func draw(
        packIDs: [String], count: Int, difficulty: DifficultyChoice, using rng: inout some RandomNumberGenerator
    ) throws(RuleError) -> [Pack.Drawn] {
        try draw(packIDs: packIDs, count: count, difficulty: difficulty, avoiding: [], using: &rng).drawn
    }

    /// Draws like `draw`, but entries already played tonight (`played`, by `Pack.playedKey`) come last: they are
    /// used only when the packs run out of new ones, and `repeated` says how many were.
    public func draw(
        packIDs: [String], count: Int, difficulty: DifficultyChoice, avoiding played: Set<String>,
        using rng: inout some RandomNumberGenerator
    ) throws(RuleError) -> (drawn: [Pack.Drawn], repeated: Int) {
        guard !packIDs.isEmpty else { throw Pack.drawRefusal(.noPacks) }
        guard count >= 1 else { throw Pack.drawRefusal(.noEntries) }
        var chosen: [String] = []
        var pool: [(entry: Pack.Entry, pack: Pack)] = []
        var seen = Set<Pack.Sameness>()
        for id in packIDs where !chosen.contains(id) {
            guard let pack = pack(id: id) else { throw Pack.drawRefusal(.unknownPack(id, among: packs.map(\.id))) }
            chosen.append(id)
            for entry in pack.entries where difficulty.admits(Pack.difficulty(of: entry)) {
                if seen.insert(Pack.sameness(of: entry)).inserted { pool.append((entry, pack)) }
            }
        }
        guard pool.count >= count else {
            throw Pack.drawRefusal(.notEnough(packIDs: chosen, available: pool.count, difficulty: difficulty))
        }
        let drawn = DifficultyDraw.draw(
            count, from: pool, difficulty: difficulty, of: { Pack.difficulty(of: $0.entry) },
            avoiding: { played.contains(Pack.playedKey(of: $0.entry)) }, using: &rng)
        return (drawn.items.map { Pack.drawn($0.entry, from: $0.pack) }, drawn.repeated)
    }

    // MARK: Helpers

    private static func checkIndex(_ index: Int, in pack: Pack) throws(RuleError) {
        try ContentNames.checkIndex(
            index, count: pack.entries.count, of: Pack.entryNoun, in: "The pack \"\(pack.name)\"")
    }

    private static func checkNotDuplicate(_ entry: Pack.Entry, in pack: Pack, ignoring ignored: Int?)
        throws(RuleError)
    {
        let key = Pack.sameness(of: entry)
        for (index, other) in pack.entries.enumerated() where index != ignored && Pack.sameness(of: other) == key {
            throw Pack.duplicateRefusal(in: pack, at: index)
        }
    }
}
