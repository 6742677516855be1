import Common

/// One row of the puzzle-pack list an operator sees.
public struct OutsiderPackSummary: Codable, Sendable, Hashable, Identifiable {
    /// The pack's stable identifier.
    public var id: String
    /// The pack's display name.
    public var name: String
    /// Whether the pack ships with the host (read-only).
    public var isBuiltin: Bool
    /// How many puzzles of each difficulty the pack holds: easy, medium, hard.
    public var counts: [Int]

    /// How many puzzles the pack holds in all.
    public var puzzleCount: Int { counts.reduce(0, +) }

    /// Summarises `pack`.
    public init(pack: OutsiderPack) {
        id = pack.id
        name = pack.name
        isBuiltin = pack.isBuiltin
        counts = Difficulty.allCases.map { level in pack.puzzles.count { $0.difficulty == level } }
    }
}

/// A puzzle drawn for a game, with the name of the pack it came from (shown as its category).
public struct DrawnPuzzle: Codable, Sendable, Hashable {
    /// The puzzle.
    public var puzzle: OutsiderPuzzle
    /// The name of its pack.
    public var category: String

    /// Creates a drawn puzzle.
    public init(puzzle: OutsiderPuzzle, category: String) {
        self.puzzle = puzzle
        self.category = category
    }
}

/// Every Odd One Out puzzle pack the host knows: the built-in packs plus the operator's own, on a `ContentShelf`.
///
/// Invariants: those of the shelf, and every puzzle passed `OutsiderPuzzle.checked()` and no two puzzles of a pack
/// have the same four words. Whole packs come in through `importPack` only (files, the data folder at start);
/// single puzzles through `addPuzzle`/`editPuzzle`.
public struct OutsiderPackLibrary: ShelvedLibrary, Hashable {
    /// The longest pack name accepted, in characters.
    public static let maximumNameLength = 60
    /// The most puzzles one custom pack may hold.
    public static let maximumPuzzlesPerPack = 2000

    /// The built-in and custom packs.
    public private(set) var shelf: ContentShelf<OutsiderPack>

    /// Creates a library of `builtinPacks` and no custom packs.
    public init(builtinPacks: [OutsiderPack]) { shelf = ContentShelf(builtinItems: builtinPacks) }

    /// A library of the built-in packs only.
    public init() { self.init(builtinPacks: Self.builtins) }

    /// The packs written for the project (`BuiltinOutsiderPacks`), read from their CSV rows.
    public static let builtins: [OutsiderPack] = BuiltinOutsiderPacks.packs.map { entry in
        // The built-in rows have no header; they are checked by the content tests, so a failure here is a bug.
        let text = OutsiderPackFile.csvColumns.joined(separator: ",") + "\n" + entry.csv
        guard var pack = try? OutsiderPackFile.decodeCSV(text, name: entry.name) else {
            preconditionFailure("the built-in puzzle pack \(entry.id) does not read")
        }
        pack.id = entry.id
        pack.isBuiltin = true
        return pack
    }

    // MARK: Packs (the shelf's, in the words of packs)

    /// The read-only packs that ship with the host.
    public var builtinPacks: [OutsiderPack] { shelf.builtinItems }
    /// The operator's packs, in the order they were added.
    public var customPacks: [OutsiderPack] { shelf.customItems }
    /// Every pack, built-in packs first.
    public var packs: [OutsiderPack] { shelf.items }

    /// The pack whose id is `id`.
    public func pack(id: String) -> OutsiderPack? { shelf.item(id: id) }

    /// A summary of every pack, in the order of `packs`.
    public func listPacks() -> [OutsiderPackSummary] { packs.map(OutsiderPackSummary.init(pack:)) }

    /// Creates an empty custom pack called `name`; returns its id (a slug of the name, made unique).
    @discardableResult
    public mutating func createPack(named name: String) throws(RuleError) -> String {
        try shelf.add(OutsiderPack(id: "", name: name))
    }

    /// Renames the custom pack `id`; its id stays.
    public mutating func renamePack(_ id: String, to name: String) throws(RuleError) { try shelf.rename(id, to: name) }

    /// Deletes the custom pack `id`.
    public mutating func deletePack(_ id: String) throws(RuleError) { try shelf.delete(id) }

    /// Deletes the custom pack `id` (the `ContentLibrary` word for `deletePack`).
    public mutating func remove(id: String) throws(RuleError) { try shelf.delete(id) }

    /// Copies pack `id` (built in or custom) into a new custom pack, called `name` or "<name> (copy)"; returns its id.
    @discardableResult
    public mutating func copyPack(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        try shelf.copy(id, named: name)
    }

    /// Adds `item` through `importPack`, with every rule of the library.
    public mutating func add(_ item: OutsiderPack) throws(RuleError) -> String { try importPack(item) }

    /// Adds a whole pack (from a file) as a custom pack with every rule; keeps its id when that is a free slug.
    @discardableResult
    public mutating func importPack(_ pack: OutsiderPack) throws(RuleError) -> String {
        try shelf.add(pack) { pack throws(RuleError) in
            guard pack.puzzles.count <= Self.maximumPuzzlesPerPack else {
                throw RuleError(
                    .packFull,
                    "A pack can hold at most \(Self.maximumPuzzlesPerPack) puzzles; this one has \(pack.puzzles.count)."
                )
            }
            var checked = pack
            checked.puzzles = try Self.checkedPuzzles(pack.puzzles) { index, problem in
                switch problem {
                case .invalid(let error):
                    RuleError(error.code, "Puzzle \(index + 1): \(ContentText.lowercasingFirst(error.message))")
                case .repeats(let first):
                    RuleError(.duplicatePuzzle, "Puzzle \(index + 1) has the same four words as puzzle \(first + 1).")
                }
            }
            return checked
        }
    }

    // MARK: Editing puzzles (0-based indexes; messages count from 1)

    /// Appends `puzzle` to the custom pack `packID` after checking it.
    public mutating func addPuzzle(_ puzzle: OutsiderPuzzle, toPack packID: String) throws(RuleError) {
        try shelf.change(packID) { (pack: inout OutsiderPack) throws(RuleError) in
            let puzzle = try puzzle.checked()
            guard pack.puzzles.count < Self.maximumPuzzlesPerPack else {
                throw RuleError(
                    .packFull, "The pack already holds the most puzzles allowed, \(Self.maximumPuzzlesPerPack).")
            }
            try Self.checkNotDuplicate(puzzle, in: pack, ignoring: nil)
            pack.puzzles.append(puzzle)
        }
    }

    /// Replaces the puzzle at `puzzleIndex` of the custom pack `packID`.
    public mutating func editPuzzle(at puzzleIndex: Int, inPack packID: String, to puzzle: OutsiderPuzzle)
        throws(RuleError)
    {
        try shelf.change(packID) { (pack: inout OutsiderPack) throws(RuleError) in
            try Self.checkPuzzleIndex(puzzleIndex, in: pack)
            let puzzle = try puzzle.checked()
            try Self.checkNotDuplicate(puzzle, in: pack, ignoring: puzzleIndex)
            pack.puzzles[puzzleIndex] = puzzle
        }
    }

    /// Removes and returns the puzzle at `puzzleIndex` of the custom pack `packID`.
    @discardableResult
    public mutating func removePuzzle(at puzzleIndex: Int, fromPack packID: String) throws(RuleError)
        -> OutsiderPuzzle
    {
        try shelf.change(packID) { (pack: inout OutsiderPack) throws(RuleError) in
            try Self.checkPuzzleIndex(puzzleIndex, in: pack)
            return pack.puzzles.remove(at: puzzleIndex)
        }
    }

    // MARK: Drawing

    /// Draws `count` different puzzles from the packs `packIDs` that `difficulty` admits (see `DifficultyDraw`).
    ///
    /// A puzzle whose four words repeat an earlier one (in pack order) is drawn at most once.
    public func drawPuzzles(
        packIDs: [String], count: Int, difficulty: DifficultyChoice, using rng: inout some RandomNumberGenerator
    ) throws(RuleError) -> [DrawnPuzzle] {
        try drawPuzzles(packIDs: packIDs, count: count, difficulty: difficulty, avoiding: [], using: &rng).puzzles
    }

    /// Draws like `drawPuzzles`, but puzzles already played tonight (`played`, by `OutsiderPuzzle.playedKey`) come
    /// last: they are used only when the packs run out of new ones, and `repeated` says how many were.
    public func drawPuzzles(
        packIDs: [String], count: Int, difficulty: DifficultyChoice, avoiding played: Set<String>,
        using rng: inout some RandomNumberGenerator
    ) throws(RuleError) -> (puzzles: [DrawnPuzzle], repeated: Int) {
        guard !packIDs.isEmpty else { throw RuleError(.noPacks, "Choose at least one puzzle pack.") }
        guard count >= 1 else { throw RuleError(.badQuestionCount, "Ask for at least one round.") }
        var chosen: [String] = []
        var pool: [DrawnPuzzle] = []
        var seen: Set<Set<String>> = []
        for id in packIDs where !chosen.contains(id) {
            guard let pack = pack(id: id) else { throw unknownPack(id) }
            chosen.append(id)
            for puzzle in pack.puzzles where difficulty.admits(puzzle.difficulty) {
                if seen.insert(puzzle.sameness).inserted {
                    pool.append(DrawnPuzzle(puzzle: puzzle, category: pack.name))
                }
            }
        }
        guard pool.count >= count else {
            let packs =
                chosen.count == 1 ? "The pack \(chosen[0]) holds" : "The packs \(chosen.joined(separator: ", ")) hold"
            let kind = difficulty == .mixed ? "" : "\(difficulty.rawValue) "
            throw RuleError(
                .notEnoughQuestions,
                "\(packs) only \(pool.count) \(kind)\(pool.count == 1 ? "puzzle" : "puzzles"); ask for "
                    + "\(pool.count) or fewer rounds, or choose more packs.")
        }
        let drawn = DifficultyDraw.draw(
            count, from: pool, difficulty: difficulty, of: \.puzzle.difficulty,
            avoiding: { played.contains($0.puzzle.playedKey) }, using: &rng)
        return (drawn.items, drawn.repeated)
    }

    // MARK: Rules

    /// Why one puzzle of a whole pack is refused.
    public enum PuzzleProblem: Sendable, Hashable {
        /// The puzzle breaks a rule of `OutsiderPuzzle.checked()`.
        case invalid(RuleError)
        /// The puzzle has the same four words as the one at this 0-based index.
        case repeats(Int)
    }

    /// The puzzles of a whole pack, each checked and none repeating an earlier one; `refusal` words the error for
    /// the puzzle at a 0-based index, so that a file's reader can name the line.
    public static func checkedPuzzles(
        _ puzzles: [OutsiderPuzzle], refusal: (Int, PuzzleProblem) -> RuleError
    ) throws(RuleError) -> [OutsiderPuzzle] {
        var checked: [OutsiderPuzzle] = []
        var seen: [Set<String>: Int] = [:]
        for (index, written) in puzzles.enumerated() {
            let puzzle: OutsiderPuzzle
            do {
                puzzle = try written.checked()
            } catch {
                throw refusal(index, .invalid(error))
            }
            if let first = seen[puzzle.sameness] { throw refusal(index, .repeats(first)) }
            seen[puzzle.sameness] = index
            checked.append(puzzle)
        }
        return checked
    }

    /// The refusal for an id no pack has, suggesting the closest id when one is near (a typo).
    func unknownPack(_ id: String) -> RuleError {
        RuleError(
            .unknownPack,
            "There is no puzzle pack with the id \"\(id)\"." + ContentNames.suggestion(for: id, among: packs.map(\.id))
                + " See `puzzles list`.")
    }

    private static func checkPuzzleIndex(_ index: Int, in pack: OutsiderPack) throws(RuleError) {
        try ContentNames.checkIndex(index, count: pack.puzzles.count, of: "puzzle", in: "The pack \"\(pack.name)\"")
    }

    private static func checkNotDuplicate(_ puzzle: OutsiderPuzzle, in pack: OutsiderPack, ignoring ignored: Int?)
        throws(RuleError)
    {
        for (index, other) in pack.puzzles.enumerated() where index != ignored && other.sameness == puzzle.sameness {
            throw RuleError(
                .duplicatePuzzle, "The pack \"\(pack.name)\" already has those four words (puzzle \(index + 1)).")
        }
    }
}

extension OutsiderPack: ShelfItem {
    /// What refusals call a puzzle pack.
    public static let shelfNoun = "puzzle pack"

    /// `name` trimmed, once it has a letter or digit and fits `OutsiderPackLibrary.maximumNameLength` on one line.
    public static func checkedName(_ name: String) throws(RuleError) -> String {
        try ContentNames.checkedName(
            name, noun: shelfNoun, maximumLength: OutsiderPackLibrary.maximumNameLength, badName: .badPackName)
    }

    /// "There is already a puzzle pack called …".
    public static func nameTakenRefusal(_ name: String) -> RuleError {
        ContentNames.takenRefusal(name, noun: shelfNoun, code: .packNameTaken)
    }

    /// "There is no puzzle pack with the id …" (editing names the id the operator typed; no suggestion).
    public static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError {
        RuleError(.unknownPack, "There is no puzzle pack with the id \"\(id)\".")
    }
}
