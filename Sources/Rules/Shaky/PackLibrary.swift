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

/// Every quiz pack the host knows: the read-only built-in packs plus the operator's own custom packs, on the shelf
/// every pack library shares (`PackShelf`: ids, names, built-in versus custom, entries, drawing).
///
/// Invariants: those of the shelf, and every question passed `checkQuestion` and is not a folded duplicate of
/// another question in its pack. Only the custom packs are persisted; built-in packs come from `BuiltinPacks.all`.
public typealias PackLibrary = PackShelf<QuizPack>

/// Why one question of a whole pack is refused (`PackLibrary.checkedQuestions`).
public typealias QuestionProblem = PackEntryProblem

extension PackShelf where Pack == QuizPack {
    /// The longest pack name accepted, in characters.
    public static var maximumNameLength: Int { 60 }
    /// The longest question text accepted, in characters.
    public static var maximumQuestionLength: Int { 400 }
    /// The longest answer accepted, in characters.
    public static var maximumAnswerLength: Int { 40 }
    /// The fewest letters an answer may have (counted after `TextFolding.compact`).
    public static var minimumAnswerLetters: Int { 3 }
    /// The most questions one custom pack may hold.
    public static var maximumQuestionsPerPack: Int { QuizPack.maximumEntries }
    /// The longest pack id generated from a name, in characters.
    public static var maximumIDLength: Int { ContentNames.maximumIDLength }

    /// A summary of every pack, in the order of `packs`.
    public func listPacks() -> [PackSummary] { packs.map(PackSummary.init(pack:)) }

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

    /// The questions of a whole pack, trimmed, once each passed `checkQuestion` and none repeats an earlier one
    /// (`checkedEntries`); `refusal` words the error for the question at a 0-based index.
    public static func checkedQuestions(
        _ questions: [QuizQuestion], refusal: (Int, QuestionProblem) -> RuleError
    ) throws(RuleError) -> [QuizQuestion] {
        try checkedEntries(questions, refusal: refusal)
    }

    /// Makes a pack id from `text` (see `ContentNames.slug`).
    public static func makeSlug(_ text: String) -> String { ContentNames.slug(text) }

    /// `question` trimmed, with its line breaks written as `\n` (a question may span lines; CR LF from a file is one).
    public static func normalized(_ question: QuizQuestion) -> QuizQuestion {
        let text = question.text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return QuizQuestion(
            difficulty: question.difficulty, text: text,
            answer: question.answer.trimmingCharacters(in: .whitespacesAndNewlines))
    }

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

}

extension QuizPack: EntryPack {
    /// The most questions one custom pack may hold.
    public static let maximumEntries = 2000
    /// What refusals call a question.
    public static let entryNoun = "question"
    /// The packs that ship with the host.
    public static var builtins: [QuizPack] { BuiltinPacks.all }

    /// An empty pack called `name`.
    public init(emptyNamed name: String) { self.init(id: "", name: name) }

    /// The questions.
    public var entries: [QuizQuestion] {
        get { questions }
        set { questions = newValue }
    }

    /// `question` trimmed, once it passes `PackLibrary.checkQuestion`.
    public static func checked(_ question: QuizQuestion) throws(RuleError) -> QuizQuestion {
        let question = PackLibrary.normalized(question)
        try PackLibrary.checkQuestion(question)
        return question
    }

    /// A question repeats another when their folded texts are the same.
    public static func sameness(of question: QuizQuestion) -> String { TextFolding.fold(question.text) }

    /// The question's difficulty.
    public static func difficulty(of question: QuizQuestion) -> Difficulty { question.difficulty }

    /// A question played tonight is remembered by its folded text.
    public static func playedKey(of question: QuizQuestion) -> String { TextFolding.fold(question.text) }

    /// A game gets the question itself.
    public static func drawn(_ question: QuizQuestion, from pack: QuizPack) -> QuizQuestion { question }

    /// "Question 3 repeats question 1."
    public static func repeatRefusal(_ index: Int, repeats first: Int) -> RuleError {
        RuleError(.duplicateQuestion, "Question \(index + 1) repeats question \(first + 1).")
    }

    /// "The pack … already has that question (question 2)."
    public static func duplicateRefusal(in pack: QuizPack, at index: Int) -> RuleError {
        RuleError(.duplicateQuestion, "The pack \"\(pack.name)\" already has that question (question \(index + 1)).")
    }

    /// "The pack … already holds the most questions allowed, 2000."
    public static func fullRefusal(_ pack: QuizPack) -> RuleError {
        RuleError(
            .packFull, "The pack \"\(pack.name)\" already holds the most questions allowed, \(maximumEntries).")
    }

    /// A draw's refusal, in the quiz's words.
    public static func drawRefusal(_ problem: PackShelfDrawProblem) -> RuleError {
        switch problem {
        case .noPacks: RuleError(.noPacks, "Choose at least one question pack.")
        case .noEntries: RuleError(.badQuestionCount, "Ask for at least one question.")
        case .unknownPack(let id, let ids): unknownIDRefusal(id, among: ids)
        case .notEnough(let packIDs, let available, let difficulty):
            PackLibrary.notEnoughQuestions(packIDs: packIDs, available: available, difficulty: difficulty)
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
