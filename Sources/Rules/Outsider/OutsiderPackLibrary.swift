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

/// Every Odd One Out puzzle pack the host knows: the built-in packs plus the operator's own.
///
/// Invariants: ids are unique slugs across built-in and custom packs; names are unique once folded; every puzzle
/// passed `OutsiderPuzzle.checked()` and no two puzzles of a pack have the same four words. Whole packs come in
/// through `importPack` only (files, the data folder at start); single puzzles through `addPuzzle`/`editPuzzle`.
public struct OutsiderPackLibrary: Sendable, Hashable {
    /// The longest pack name accepted, in characters.
    public static let maximumNameLength = 60
    /// The most puzzles one custom pack may hold.
    public static let maximumPuzzlesPerPack = 2000

    /// The read-only packs that ship with the host.
    public let builtinPacks: [OutsiderPack]
    /// The operator's packs, in the order they were added.
    public private(set) var customPacks: [OutsiderPack] = []

    /// Creates a library of `builtinPacks` and no custom packs.
    public init(builtinPacks: [OutsiderPack]) {
        self.builtinPacks = builtinPacks
    }

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

    // MARK: Looking up

    /// Every pack, built-in packs first.
    public var packs: [OutsiderPack] { builtinPacks + customPacks }

    /// The pack whose id is `id`.
    public func pack(id: String) -> OutsiderPack? {
        builtinPacks.first { $0.id == id } ?? customPacks.first { $0.id == id }
    }

    /// A summary of every pack, in the order of `packs`.
    public func listPacks() -> [OutsiderPackSummary] { packs.map(OutsiderPackSummary.init(pack:)) }

    // MARK: Editing packs

    /// Creates an empty custom pack called `name`; returns its id (a slug of the name, made unique).
    @discardableResult
    public mutating func createPack(named name: String) throws(RuleError) -> String {
        let name = try checkedName(name)
        let id = ContentNames.uniqueID(for: name) { pack(id: $0) != nil }
        customPacks.append(OutsiderPack(id: id, name: name))
        return id
    }

    /// Renames the custom pack `id`; its id stays.
    public mutating func renamePack(_ id: String, to name: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "renamed")
        customPacks[index].name = try checkedName(name, ignoring: id)
    }

    /// Deletes the custom pack `id`.
    public mutating func deletePack(_ id: String) throws(RuleError) {
        customPacks.remove(at: try customIndex(of: id, action: "deleted"))
    }

    /// Copies pack `id` (built in or custom) into a new custom pack, called `name` or "<name> (copy)"; returns its id.
    @discardableResult
    public mutating func copyPack(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        guard let source = pack(id: id) else { throw Self.unknownPack(id) }
        var newName = name ?? "\(source.name) (copy)"
        if name == nil {
            var attempt = 1
            while isNameTaken(newName) {
                attempt += 1
                newName = "\(source.name) (copy \(attempt))"
            }
        }
        newName = try checkedName(newName)
        let newID = ContentNames.uniqueID(for: newName) { pack(id: $0) != nil }
        customPacks.append(OutsiderPack(id: newID, name: newName, puzzles: source.puzzles))
        return newID
    }

    /// Adds a whole pack (from a file) as a custom pack with every rule; keeps its id when that is a free slug.
    @discardableResult
    public mutating func importPack(_ pack: OutsiderPack) throws(RuleError) -> String {
        let name = try checkedName(pack.name)
        guard pack.puzzles.count <= Self.maximumPuzzlesPerPack else {
            throw RuleError(
                .packFull,
                "A pack can hold at most \(Self.maximumPuzzlesPerPack) puzzles; this one has \(pack.puzzles.count).")
        }
        let puzzles = try Self.checkedPuzzles(pack.puzzles) { index, problem in
            switch problem {
            case .invalid(let error):
                RuleError(error.code, "Puzzle \(index + 1): \(ContentText.lowercasingFirst(error.message))")
            case .repeats(let first):
                RuleError(.duplicatePuzzle, "Puzzle \(index + 1) has the same four words as puzzle \(first + 1).")
            }
        }
        let id = ContentNames.keptOrFreshID(pack.id, name: name) { self.pack(id: $0) != nil }
        customPacks.append(OutsiderPack(id: id, name: name, puzzles: puzzles))
        return id
    }

    // MARK: Editing puzzles (0-based indexes; messages count from 1)

    /// Appends `puzzle` to the custom pack `packID` after checking it.
    public mutating func addPuzzle(_ puzzle: OutsiderPuzzle, toPack packID: String) throws(RuleError) {
        let index = try customIndex(of: packID, action: "changed")
        let puzzle = try puzzle.checked()
        guard customPacks[index].puzzles.count < Self.maximumPuzzlesPerPack else {
            throw RuleError(
                .packFull, "The pack already holds the most puzzles allowed, \(Self.maximumPuzzlesPerPack).")
        }
        try checkNotDuplicate(puzzle, in: customPacks[index], ignoring: nil)
        customPacks[index].puzzles.append(puzzle)
    }

    /// Replaces the puzzle at `puzzleIndex` of the custom pack `packID`.
    public mutating func editPuzzle(at puzzleIndex: Int, inPack packID: String, to puzzle: OutsiderPuzzle)
        throws(RuleError)
    {
        let index = try customIndex(of: packID, action: "changed")
        try checkPuzzleIndex(puzzleIndex, in: customPacks[index])
        let puzzle = try puzzle.checked()
        try checkNotDuplicate(puzzle, in: customPacks[index], ignoring: puzzleIndex)
        customPacks[index].puzzles[puzzleIndex] = puzzle
    }

    /// Removes and returns the puzzle at `puzzleIndex` of the custom pack `packID`.
    @discardableResult
    public mutating func removePuzzle(at puzzleIndex: Int, fromPack packID: String) throws(RuleError)
        -> OutsiderPuzzle
    {
        let index = try customIndex(of: packID, action: "changed")
        try checkPuzzleIndex(puzzleIndex, in: customPacks[index])
        return customPacks[index].puzzles.remove(at: puzzleIndex)
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
        let fresh = pool.filter { !played.contains($0.puzzle.playedKey) }
        guard fresh.count >= count else {
            let stale = pool.filter { played.contains($0.puzzle.playedKey) }
            let drawn = fresh + PackLibrary.pick(count - fresh.count, from: stale, using: &rng)
            return (PackLibrary.pick(drawn.count, from: drawn, using: &rng), count - fresh.count)
        }
        let drawn = DifficultyDraw.draw(
            count, from: fresh, difficulty: difficulty, of: \.puzzle.difficulty, using: &rng)
        return (drawn, 0)
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

    static func unknownPack(_ id: String) -> RuleError {
        RuleError(.unknownPack, "There is no puzzle pack with the id \"\(id)\".")
    }

    /// The refusal for an id no pack has, suggesting the closest id when one is near (a typo).
    func unknownPack(_ id: String) -> RuleError {
        let typed = Array(TextFolding.compact(id))
        let closest = packs.map(\.id).map { ($0, AnswerJudge.editDistance(typed, Array(TextFolding.compact($0)))) }
            .min { $0.1 < $1.1 }
        var message = "There is no puzzle pack with the id \"\(id)\"."
        if let (candidate, distance) = closest, distance <= max(2, typed.count / 3) {
            message += " Did you mean \(candidate)?"
        }
        return RuleError(.unknownPack, message + " See `puzzles list`.")
    }

    private func isNameTaken(_ name: String, ignoring ignoredID: String? = nil) -> Bool {
        packs.contains { $0.id != ignoredID && ContentNames.same($0.name, name) }
    }

    private func checkedName(_ name: String, ignoring ignoredID: String? = nil) throws(RuleError) -> String {
        try ContentNames.checked(
            name, noun: "puzzle pack", maximumLength: Self.maximumNameLength, badName: .badPackName,
            taken: .packNameTaken
        ) { isNameTaken($0, ignoring: ignoredID) }
    }

    private func customIndex(of id: String, action: String) throws(RuleError) -> Int {
        if let builtin = builtinPacks.first(where: { $0.id == id }) {
            throw RuleError(
                .readOnly, "The built-in puzzle pack \"\(builtin.name)\" cannot be \(action); copy it to make your own."
            )
        }
        guard let index = customPacks.firstIndex(where: { $0.id == id }) else { throw Self.unknownPack(id) }
        return index
    }

    private func checkPuzzleIndex(_ index: Int, in pack: OutsiderPack) throws(RuleError) {
        guard pack.puzzles.indices.contains(index) else {
            throw RuleError(
                .badQuestionIndex,
                pack.puzzles.isEmpty
                    ? "The pack \"\(pack.name)\" has no puzzles yet."
                    : "The pack \"\(pack.name)\" has no puzzle \(index + 1); its puzzles are numbered 1 to "
                        + "\(pack.puzzles.count).")
        }
    }

    private func checkNotDuplicate(_ puzzle: OutsiderPuzzle, in pack: OutsiderPack, ignoring ignored: Int?)
        throws(RuleError)
    {
        for (index, other) in pack.puzzles.enumerated() where index != ignored && other.sameness == puzzle.sameness {
            throw RuleError(
                .duplicatePuzzle, "The pack \"\(pack.name)\" already has those four words (puzzle \(index + 1)).")
        }
    }
}

extension OutsiderPackLibrary: ContentLibrary {
    /// A library of the built-in packs only.
    public init() { self.init(builtinPacks: Self.builtins) }

    /// The packs that ship with the host.
    public var builtinItems: [OutsiderPack] { builtinPacks }

    /// The operator's packs.
    public var customItems: [OutsiderPack] { customPacks }

    /// The pack with `id`, built in or custom.
    public func item(id: String) -> OutsiderPack? { pack(id: id) }

    /// Whether `id` names a built-in pack.
    public func isBuiltin(id: String) -> Bool { builtinPacks.contains { $0.id == id } }

    /// Adds `item` through `importPack`, with every rule of the library.
    public mutating func add(_ item: OutsiderPack) throws(RuleError) -> String { try importPack(item) }

    /// Deletes the custom pack `id` (built-in packs and unknown ids are refused).
    public mutating func remove(id: String) throws(RuleError) { try deletePack(id) }
}
