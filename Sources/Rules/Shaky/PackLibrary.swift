import Common
import Foundation

/// One row of the pack list an operator sees: which pack, whether it is built in, and its questions per difficulty.
public struct PackSummary: Codable, Sendable, Hashable, Identifiable {
    /// The pack's stable identifier.
    public var id: String
    /// The pack's display name.
    public var name: String
    /// Whether the pack ships with the host (read-only).
    public var isBuiltin: Bool
    /// How many easy questions the pack holds.
    public var easyCount: Int
    /// How many medium questions the pack holds.
    public var mediumCount: Int
    /// How many hard questions the pack holds.
    public var hardCount: Int

    /// How many questions the pack holds in all.
    public var questionCount: Int { easyCount + mediumCount + hardCount }

    /// Summarises `pack`.
    public init(pack: QuizPack) {
        id = pack.id
        name = pack.name
        isBuiltin = pack.isBuiltin
        easyCount = pack.questions.count { $0.difficulty == .easy }
        mediumCount = pack.questions.count { $0.difficulty == .medium }
        hardCount = pack.questions.count { $0.difficulty == .hard }
    }

    /// How many questions of `difficulty` the pack holds.
    public func count(of difficulty: Difficulty) -> Int {
        switch difficulty {
        case .easy: easyCount
        case .medium: mediumCount
        case .hard: hardCount
        }
    }
}

/// Every quiz pack the host knows: the read-only built-in packs plus the operator's own custom packs, on a
/// `ContentShelf` (ids, names, built-in versus custom).
///
/// Invariants: those of the shelf, and every question added through the library passed `checkQuestion` and is
/// not a folded duplicate of another question in its pack. Whole packs come in through `importPack` only (files,
/// the data folder at start, decoding a saved library). Only the custom packs are persisted (`Codable`);
/// built-in packs always come from `BuiltinPacks.all`.
public struct PackLibrary: ShelvedLibrary, Hashable, Codable {
    /// The longest pack name accepted, in characters.
    public static let maximumNameLength = 60
    /// The longest question text accepted, in characters.
    public static let maximumQuestionLength = 400
    /// The longest answer accepted, in characters.
    public static let maximumAnswerLength = 40
    /// The fewest letters an answer may have (counted after `TextFolding.compact`).
    public static let minimumAnswerLetters = 3
    /// The most questions one custom pack may hold.
    public static let maximumQuestionsPerPack = 2000
    /// The longest pack id generated from a name, in characters.
    public static let maximumIDLength = ContentNames.maximumIDLength

    /// The built-in and custom packs.
    public private(set) var shelf: ContentShelf<QuizPack>

    /// Creates a library of `builtinPacks` and no custom packs.
    public init(builtinPacks: [QuizPack]) { shelf = ContentShelf(builtinItems: builtinPacks) }

    /// A library of the built-in packs only.
    public init() { self.init(builtinPacks: BuiltinPacks.all) }

    /// Creates a library of `builtinPacks` plus `customPacks`, each added by `importPack` and so held to every
    /// rule: they are marked not built in, an id that is not a free slug is replaced by a fresh one, and a pack
    /// that breaks a rule (a taken name, a bad question) is refused.
    public init(customPacks: [QuizPack], builtinPacks: [QuizPack] = BuiltinPacks.all) throws(RuleError) {
        self.init(builtinPacks: builtinPacks)
        for pack in customPacks { try importPack(pack) }
    }

    private enum CodingKeys: String, CodingKey {
        case customPacks
    }

    /// Decodes a saved library: its custom packs, joined to the current built-in packs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(customPacks: container.decode([QuizPack].self, forKey: .customPacks))
    }

    /// Encodes the custom packs only; built-in packs ship with the host.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(customPacks, forKey: .customPacks)
    }

    // MARK: Packs (the shelf's, in the words of packs)

    /// The read-only packs that ship with the host.
    public var builtinPacks: [QuizPack] { shelf.builtinItems }
    /// The operator's packs, in the order they were created.
    public var customPacks: [QuizPack] { shelf.customItems }
    /// Every pack, built-in packs first, then custom packs in creation order.
    public var packs: [QuizPack] { shelf.items }

    /// The pack whose id is `id`, or nil when there is none.
    public func pack(id: String) -> QuizPack? { shelf.item(id: id) }

    /// A summary of every pack, in the order of `packs`.
    public func listPacks() -> [PackSummary] { packs.map(PackSummary.init(pack:)) }

    /// Creates an empty custom pack called `name` and returns its new id (a slug of the name, made unique).
    @discardableResult
    public mutating func createPack(named name: String) throws(RuleError) -> String {
        try shelf.add(QuizPack(id: "", name: name))
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
    public mutating func add(_ item: QuizPack) throws(RuleError) -> String { try importPack(item) }

    /// Adds `pack` (for example one read by `PackFile`) as a new custom pack and returns its id.
    ///
    /// The pack's own id is kept when it is a free slug, otherwise a fresh one is made; its name must be free
    /// and every question must pass the same checks as `addQuestion` (errors name the question's number).
    @discardableResult
    public mutating func importPack(_ pack: QuizPack) throws(RuleError) -> String {
        try shelf.add(pack) { pack throws(RuleError) in
            guard pack.questions.count <= Self.maximumQuestionsPerPack else {
                throw RuleError(
                    .packFull,
                    "A pack can hold at most \(Self.maximumQuestionsPerPack) questions; "
                        + "this one has \(pack.questions.count)."
                )
            }
            var checked = pack
            checked.questions = try Self.checkedQuestions(pack.questions) { index, problem in
                switch problem {
                case .invalid(let error):
                    RuleError(error.code, "Question \(index + 1): \(ContentText.lowercasingFirst(error.message))")
                case .repeats(let first):
                    RuleError(.duplicateQuestion, "Question \(index + 1) repeats question \(first + 1).")
                }
            }
            return checked
        }
    }

    // MARK: Editing questions
    //
    // Question indexes are 0-based in this API; refusal messages count questions from 1, as operators do.

    /// Appends `question` (trimmed) to the custom pack `packID` after checking it.
    public mutating func addQuestion(_ question: QuizQuestion, toPack packID: String) throws(RuleError) {
        try shelf.change(packID) { (pack: inout QuizPack) throws(RuleError) in
            let question = Self.normalized(question)
            try Self.checkQuestion(question)
            guard pack.questions.count < Self.maximumQuestionsPerPack else {
                throw RuleError(
                    .packFull,
                    "The pack \"\(pack.name)\" already holds the most questions allowed, "
                        + "\(Self.maximumQuestionsPerPack)."
                )
            }
            try Self.checkNotDuplicate(question, in: pack, ignoring: nil)
            pack.questions.append(question)
        }
    }

    /// Replaces the question at `questionIndex` (0-based) in the custom pack `packID` with `question` (trimmed).
    public mutating func editQuestion(at questionIndex: Int, inPack packID: String, to question: QuizQuestion)
        throws(RuleError)
    {
        try shelf.change(packID) { (pack: inout QuizPack) throws(RuleError) in
            try Self.checkQuestionIndex(questionIndex, in: pack)
            let question = Self.normalized(question)
            try Self.checkQuestion(question)
            try Self.checkNotDuplicate(question, in: pack, ignoring: questionIndex)
            pack.questions[questionIndex] = question
        }
    }

    /// Removes and returns the question at `questionIndex` (0-based) in the custom pack `packID`.
    @discardableResult
    public mutating func removeQuestion(at questionIndex: Int, fromPack packID: String) throws(RuleError)
        -> QuizQuestion
    {
        try shelf.change(packID) { (pack: inout QuizPack) throws(RuleError) in
            try Self.checkQuestionIndex(questionIndex, in: pack)
            return pack.questions.remove(at: questionIndex)
        }
    }

    // MARK: Drawing questions

    /// Draws `count` different questions at random from the packs `packIDs` that `difficulty` admits.
    ///
    /// Questions whose folded text repeats an earlier one (in pack order) are dropped first. With `mixed`
    /// the draw is spread as evenly as the packs allow over easy, medium and hard, and the result is shuffled.
    /// Refuses unknown packs, an empty pack list, a count below one, and more questions than the packs hold.
    public func drawQuestions(
        packIDs: [String], count: Int, difficulty: DifficultyChoice,
        using rng: inout some RandomNumberGenerator
    ) throws(RuleError) -> [QuizQuestion] {
        try drawQuestions(packIDs: packIDs, count: count, difficulty: difficulty, avoiding: [], using: &rng).questions
    }

    /// Draws like `drawQuestions`, but questions already played tonight (`played`, by `TextFolding.fold` of their
    /// text) come last: they are used only when the packs run out of new ones, and `repeated` says how many were.
    public func drawQuestions(
        packIDs: [String], count: Int, difficulty: DifficultyChoice, avoiding played: Set<String>,
        using rng: inout some RandomNumberGenerator
    ) throws(RuleError)
        -> (questions: [QuizQuestion], repeated: Int)
    {
        guard !packIDs.isEmpty else { throw RuleError(.noPacks, "Choose at least one question pack.") }
        guard count >= 1 else { throw RuleError(.badQuestionCount, "Ask for at least one question.") }
        var chosenIDs: [String] = []
        var pool: [QuizQuestion] = []
        var seen = Set<String>()
        for id in packIDs {
            let pack = try shelf.existing(id)
            if chosenIDs.contains(id) { continue }
            chosenIDs.append(id)
            for question in pack.questions where difficulty.admits(question.difficulty) {
                if seen.insert(TextFolding.fold(question.text)).inserted { pool.append(question) }
            }
        }
        guard pool.count >= count else {
            throw Self.notEnoughQuestions(packIDs: chosenIDs, available: pool.count, difficulty: difficulty)
        }
        let drawn = DifficultyDraw.draw(
            count, from: pool, difficulty: difficulty, of: \.difficulty,
            avoiding: { played.contains(TextFolding.fold($0.text)) }, using: &rng)
        return (drawn.items, drawn.repeated)
    }

    // MARK: Question rules

    /// Checks one question's content on its own (not duplicates): text, answer length and letters, answer not in text.
    public static func checkQuestion(_ question: QuizQuestion) throws(RuleError) {
        let text = question.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let answer = question.answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !TextFolding.fold(text).isEmpty else {
            throw RuleError(.emptyQuestion, "The question text is empty; write the question teams will see.")
        }
        if let problem = TerminalText.problem(in: text, allowingLineBreaks: true) {
            throw RuleError(.badText, problem.refusal("The question"))
        }
        if let problem = TerminalText.problem(in: answer) { throw RuleError(.badText, problem.refusal("The answer")) }
        guard text.count <= maximumQuestionLength else {
            throw RuleError(
                .questionTooLong,
                "The question is \(text.count) characters long; keep it to \(maximumQuestionLength) or fewer.")
        }
        guard answer.count <= maximumAnswerLength else {
            throw RuleError(
                .answerTooLong,
                "The answer is \(answer.count) characters long; keep it to \(maximumAnswerLength) or fewer.")
        }
        let letters = TextFolding.compact(answer).count { $0.isLetter }
        guard letters >= minimumAnswerLetters else {
            throw RuleError(
                .answerTooShort,
                "The answer \"\(answer)\" has \(letters) \(letters == 1 ? "letter" : "letters"); answers need at least \(minimumAnswerLetters)."
            )
        }
        guard !TextFolding.contains(text, answer) else {
            throw RuleError(
                .answerInQuestion, "The answer \"\(answer)\" appears in the question itself; reword the question.")
        }
    }

    /// Why one question of a whole pack is refused.
    public enum QuestionProblem: Sendable, Hashable {
        /// The question breaks a rule of `checkQuestion`.
        case invalid(RuleError)
        /// The question repeats (folded) the question at this 0-based index.
        case repeats(Int)
    }

    /// The questions of a whole pack, trimmed, once each passed `checkQuestion` and none repeats an earlier one.
    ///
    /// This is the check every way into the library shares (files, the console, the admin protocol); `refusal`
    /// words the error for the question at a 0-based index, so that a file's reader can name the line.
    public static func checkedQuestions(
        _ questions: [QuizQuestion], refusal: (Int, QuestionProblem) -> RuleError
    ) throws(RuleError) -> [QuizQuestion] {
        var checked: [QuizQuestion] = []
        checked.reserveCapacity(questions.count)
        var seen: [String: Int] = [:]
        for (index, question) in questions.enumerated() {
            let question = normalized(question)
            do {
                try checkQuestion(question)
            } catch {
                throw refusal(index, .invalid(error))
            }
            let key = TextFolding.fold(question.text)
            if let first = seen[key] { throw refusal(index, .repeats(first)) }
            seen[key] = index
            checked.append(question)
        }
        return checked
    }

    /// Makes a pack id from `text` (see `ContentNames.slug`).
    public static func makeSlug(_ text: String) -> String { ContentNames.slug(text) }

    // MARK: Helpers

    /// `question` trimmed, with its line breaks written as `\n` (a question may span lines; CR LF from a file is one).
    static func normalized(_ question: QuizQuestion) -> QuizQuestion {
        let text = question.text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return QuizQuestion(
            difficulty: question.difficulty, text: text,
            answer: question.answer.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The refusal for an id no pack has, suggesting the closest id when one is near (a typo).
    func unknownPack(_ id: String) -> RuleError { shelf.unknownID(id) }

    static func notEnoughQuestions(packIDs: [String], available: Int, difficulty: DifficultyChoice) -> RuleError {
        let packs =
            packIDs.count == 1 ? "The pack \(packIDs[0]) holds" : "The packs \(packIDs.joined(separator: ", ")) hold"
        let kind = difficulty == .mixed ? "" : "\(difficulty.rawValue) "
        if available == 0 {
            return RuleError(
                .notEnoughQuestions, "\(packs) no \(kind)questions; choose more packs or another difficulty.")
        }
        let noun = available == 1 ? "question" : "questions"
        return RuleError(
            .notEnoughQuestions,
            "\(packs) only \(available) \(kind)\(noun); ask for \(available) or fewer, or choose more packs.")
    }

    private static func checkQuestionIndex(_ questionIndex: Int, in pack: QuizPack) throws(RuleError) {
        try ContentNames.checkIndex(
            questionIndex, count: pack.questions.count, of: "question", in: "The pack \"\(pack.name)\"")
    }

    private static func checkNotDuplicate(_ question: QuizQuestion, in pack: QuizPack, ignoring ignored: Int?)
        throws(RuleError)
    {
        let key = TextFolding.fold(question.text)
        for (index, other) in pack.questions.enumerated() where index != ignored && TextFolding.fold(other.text) == key
        {
            throw RuleError(
                .duplicateQuestion, "The pack \"\(pack.name)\" already has that question (question \(index + 1)).")
        }
    }
}

extension QuizPack: ShelfItem {
    /// What refusals call a quiz pack.
    public static let shelfNoun = "pack"

    /// `name` trimmed, once it has a letter or digit, fits `PackLibrary.maximumNameLength` and is plain text.
    public static func checkedName(_ name: String) throws(RuleError) -> String {
        let name = ContentText.trimmed(name)
        guard !TextFolding.fold(name).isEmpty else {
            throw RuleError(.badPackName, "A pack needs a name with at least one letter or digit.")
        }
        guard name.count <= PackLibrary.maximumNameLength else {
            throw RuleError(.badPackName, "Pack names can be at most \(PackLibrary.maximumNameLength) characters long.")
        }
        if let problem = TerminalText.problem(in: name) {
            throw RuleError(.badPackName, problem.refusal("A pack name"))
        }
        return name
    }

    /// "There is already a pack called …".
    public static func nameTakenRefusal(_ name: String) -> RuleError {
        ContentNames.takenRefusal(name, noun: "pack", code: .packNameTaken)
    }

    /// "There is no question pack with the id …", suggesting the closest id when one is near (a typo).
    public static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError {
        RuleError(
            .unknownPack,
            "There is no question pack with the id \"\(id)\"." + ContentNames.suggestion(for: id, among: ids)
                + " Type packs to list them.")
    }

    /// "The built-in pack … cannot be …; copy it to make your own version."
    public static func readOnlyRefusal(name: String, action: String) -> RuleError {
        RuleError(.readOnly, "The built-in pack \"\(name)\" cannot be \(action); copy it to make your own version.")
    }
}
