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

/// Every Odd One Out puzzle pack the host knows: the built-in packs plus the operator's own, on the shelf every
/// pack library shares (`PackShelf`: ids, names, built-in versus custom, entries, drawing).
///
/// Invariants: those of the shelf, and every puzzle passed `OutsiderPuzzle.checked()` and no two puzzles of a pack
/// have the same four words.
public typealias OutsiderPackLibrary = PackShelf<OutsiderPack>

/// Why one puzzle of a whole pack is refused (`OutsiderPackLibrary.checkedPuzzles`).
public typealias PuzzleProblem = PackEntryProblem

extension PackShelf where Pack == OutsiderPack {
    /// The longest pack name accepted, in characters.
    public static var maximumNameLength: Int { 60 }
    /// The most puzzles one custom pack may hold.
    public static var maximumPuzzlesPerPack: Int { OutsiderPack.maximumEntries }
    /// The packs written for the project (`BuiltinOutsiderPacks`), read from their CSV rows.
    public static var builtins: [OutsiderPack] { OutsiderPack.builtins }

    /// A summary of every pack, in the order of `packs`.
    public func listPacks() -> [OutsiderPackSummary] { packs.map(OutsiderPackSummary.init(pack:)) }

    /// The puzzles of a whole pack, each checked and none repeating an earlier one (`checkedEntries`); `refusal`
    /// words the error for the puzzle at a 0-based index, so that a file's reader can name the line.
    public static func checkedPuzzles(
        _ puzzles: [OutsiderPuzzle], refusal: (Int, PuzzleProblem) -> RuleError
    ) throws(RuleError) -> [OutsiderPuzzle] {
        try checkedEntries(puzzles, refusal: refusal)
    }
}

extension OutsiderPack: EntryPack {
    /// The most puzzles one custom pack may hold.
    public static let maximumEntries = 2000
    /// What refusals call a puzzle.
    public static let entryNoun = "puzzle"

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

    /// An empty pack called `name`.
    public init(emptyNamed name: String) { self.init(id: "", name: name) }

    /// The puzzles.
    public var entries: [OutsiderPuzzle] {
        get { puzzles }
        set { puzzles = newValue }
    }

    /// `puzzle` once it passes `OutsiderPuzzle.checked()`.
    public static func checked(_ puzzle: OutsiderPuzzle) throws(RuleError) -> OutsiderPuzzle { try puzzle.checked() }

    /// A puzzle repeats another when it has the same four words.
    public static func sameness(of puzzle: OutsiderPuzzle) -> Set<String> { puzzle.sameness }

    /// The puzzle's difficulty.
    public static func difficulty(of puzzle: OutsiderPuzzle) -> Difficulty { puzzle.difficulty }

    /// A puzzle played tonight is remembered by its `playedKey`.
    public static func playedKey(of puzzle: OutsiderPuzzle) -> String { puzzle.playedKey }

    /// A game gets the puzzle with its pack's name, its category.
    public static func drawn(_ puzzle: OutsiderPuzzle, from pack: OutsiderPack) -> DrawnPuzzle {
        DrawnPuzzle(puzzle: puzzle, category: pack.name)
    }

    /// "Puzzle 3 has the same four words as puzzle 1."
    public static func repeatRefusal(_ index: Int, repeats first: Int) -> RuleError {
        RuleError(.duplicatePuzzle, "Puzzle \(index + 1) has the same four words as puzzle \(first + 1).")
    }

    /// "The pack … already has those four words (puzzle 2)."
    public static func duplicateRefusal(in pack: OutsiderPack, at index: Int) -> RuleError {
        RuleError(.duplicatePuzzle, "The pack \"\(pack.name)\" already has those four words (puzzle \(index + 1)).")
    }

    /// "The pack already holds the most puzzles allowed, 2000."
    public static func fullRefusal(_ pack: OutsiderPack) -> RuleError {
        RuleError(.packFull, "The pack already holds the most puzzles allowed, \(maximumEntries).")
    }

    /// A draw's refusal, in Odd One Out's words.
    public static func drawRefusal(_ problem: PackShelfDrawProblem) -> RuleError {
        switch problem {
        case .noPacks: return RuleError(.noPacks, "Choose at least one puzzle pack.")
        case .noEntries: return RuleError(.badQuestionCount, "Ask for at least one round.")
        case .unknownPack(let id, let ids):
            return RuleError(
                .unknownPack,
                "There is no puzzle pack with the id \"\(id)\"." + ContentNames.suggestion(for: id, among: ids)
                    + " See `puzzles list`.")
        case .notEnough(let chosen, let available, let difficulty):
            let packs =
                chosen.count == 1 ? "The pack \(chosen[0]) holds" : "The packs \(chosen.joined(separator: ", ")) hold"
            let kind = difficulty == .mixed ? "" : "\(difficulty.rawValue) "
            return RuleError(
                .notEnoughQuestions,
                "\(packs) only \(available) \(kind)\(available == 1 ? "puzzle" : "puzzles"); ask for "
                    + "\(available) or fewer rounds, or choose more packs.")
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
