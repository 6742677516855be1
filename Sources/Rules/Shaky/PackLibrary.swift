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

/// Every quiz pack the host knows: the read-only built-in packs plus the operator's own custom packs.
///
/// Invariants: pack ids are unique across built-in and custom packs and are slugs (`a-z`, `0-9`, `-`);
/// pack names are unique (folded); custom packs never have `isBuiltin` set; every question added through
/// the library passed `checkQuestion` and is not a folded duplicate of another question in its pack.
/// Whole packs come in through `importPack` only (files, the data folder at start, decoding a saved library).
/// Only the custom packs are persisted (`Codable`); built-in packs always come from `BuiltinPacks.all`.
public struct PackLibrary: Sendable, Hashable, Codable {
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
    public static let maximumIDLength = 40

    /// The read-only packs that ship with the host.
    public let builtinPacks: [QuizPack]
    /// The operator's packs, in the order they were created.
    public private(set) var customPacks: [QuizPack]

    /// Creates a library of `builtinPacks` and no custom packs.
    public init(builtinPacks: [QuizPack]) {
        self.builtinPacks = builtinPacks
        customPacks = []
    }

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

    // MARK: Looking up

    /// Every pack, built-in packs first, then custom packs in creation order.
    public var packs: [QuizPack] { builtinPacks + customPacks }

    /// The pack whose id is `id`, or nil when there is none.
    public func pack(id: String) -> QuizPack? {
        builtinPacks.first { $0.id == id } ?? customPacks.first { $0.id == id }
    }

    /// A summary of every pack, in the order of `packs`.
    public func listPacks() -> [PackSummary] {
        packs.map(PackSummary.init(pack:))
    }

    // MARK: Editing packs

    /// Creates an empty custom pack called `name` and returns its new id (a slug of the name, made unique).
    @discardableResult
    public mutating func createPack(named name: String) throws(RuleError) -> String {
        let name = try checkedNewName(name)
        let id = freeID(for: name)
        customPacks.append(QuizPack(id: id, name: name, isBuiltin: false, questions: []))
        return id
    }

    /// Renames the custom pack `id` to `name`; its id stays the same so saved games keep working.
    public mutating func renamePack(_ id: String, to name: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "renamed")
        let name = try checkedNewName(name, ignoring: id)
        customPacks[index].name = name
    }

    /// Deletes the custom pack `id`.
    public mutating func deletePack(_ id: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "deleted")
        customPacks.remove(at: index)
    }

    /// Copies pack `id` (built-in or custom) into a new custom pack and returns the new pack's id.
    ///
    /// Without `name` the copy is called "<name> (copy)", or "<name> (copy 2)" and so on when that is taken.
    /// Copying is the only way to change a built-in pack.
    @discardableResult
    public mutating func copyPack(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        guard let source = pack(id: id) else { throw unknownPack(id) }
        let newName: String
        if let name {
            newName = try checkedNewName(name)
        } else {
            var attempt = 1
            var candidate = "\(source.name) (copy)"
            while isNameTaken(candidate) {
                attempt += 1
                candidate = "\(source.name) (copy \(attempt))"
            }
            newName = candidate
        }
        let newID = freeID(for: newName)
        customPacks.append(QuizPack(id: newID, name: newName, isBuiltin: false, questions: source.questions))
        return newID
    }

    /// Adds `pack` (for example one read by `PackFile`) as a new custom pack and returns its id.
    ///
    /// The pack's own id is kept when it is a free slug, otherwise a fresh one is made; its name must be free
    /// and every question must pass the same checks as `addQuestion` (errors name the question's number).
    @discardableResult
    public mutating func importPack(_ pack: QuizPack) throws(RuleError) -> String {
        let name = try checkedNewName(pack.name)
        guard pack.questions.count <= Self.maximumQuestionsPerPack else {
            throw RuleError(
                .packFull,
                "A pack can hold at most \(Self.maximumQuestionsPerPack) questions; this one has \(pack.questions.count)."
            )
        }
        let questions = try Self.checkedQuestions(pack.questions) { index, problem in
            switch problem {
            case .invalid(let error):
                RuleError(error.code, "Question \(index + 1): \(ContentText.lowercasingFirst(error.message))")
            case .repeats(let first):
                RuleError(.duplicateQuestion, "Question \(index + 1) repeats question \(first + 1).")
            }
        }
        let slug = Self.makeSlug(pack.id)
        let id = (slug == pack.id && self.pack(id: slug) == nil) ? slug : freeID(for: pack.id.isEmpty ? name : pack.id)
        customPacks.append(QuizPack(id: id, name: name, isBuiltin: false, questions: questions))
        return id
    }

    // MARK: Editing questions
    //
    // Question indexes are 0-based in this API; refusal messages count questions from 1, as operators do.

    /// Appends `question` (trimmed) to the custom pack `packID` after checking it.
    public mutating func addQuestion(_ question: QuizQuestion, toPack packID: String) throws(RuleError) {
        let index = try customIndex(of: packID, action: "changed")
        let question = Self.normalized(question)
        try Self.checkQuestion(question)
        guard customPacks[index].questions.count < Self.maximumQuestionsPerPack else {
            throw RuleError(
                .packFull,
                "The pack \"\(customPacks[index].name)\" already holds the most questions allowed, \(Self.maximumQuestionsPerPack)."
            )
        }
        try checkNotDuplicate(question, in: customPacks[index], ignoring: nil)
        customPacks[index].questions.append(question)
    }

    /// Replaces the question at `questionIndex` (0-based) in the custom pack `packID` with `question` (trimmed).
    public mutating func editQuestion(at questionIndex: Int, inPack packID: String, to question: QuizQuestion)
        throws(RuleError)
    {
        let index = try customIndex(of: packID, action: "changed")
        try checkQuestionIndex(questionIndex, in: customPacks[index])
        let question = Self.normalized(question)
        try Self.checkQuestion(question)
        try checkNotDuplicate(question, in: customPacks[index], ignoring: questionIndex)
        customPacks[index].questions[questionIndex] = question
    }

    /// Removes and returns the question at `questionIndex` (0-based) in the custom pack `packID`.
    @discardableResult
    public mutating func removeQuestion(at questionIndex: Int, fromPack packID: String) throws(RuleError)
        -> QuizQuestion
    {
        let index = try customIndex(of: packID, action: "changed")
        try checkQuestionIndex(questionIndex, in: customPacks[index])
        return customPacks[index].questions.remove(at: questionIndex)
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
            guard let pack = pack(id: id) else { throw unknownPack(id) }
            if chosenIDs.contains(id) { continue }
            chosenIDs.append(id)
            for question in pack.questions where difficulty.admits(question.difficulty) {
                if seen.insert(TextFolding.fold(question.text)).inserted { pool.append(question) }
            }
        }
        guard pool.count >= count else {
            throw Self.notEnoughQuestions(packIDs: chosenIDs, available: pool.count, difficulty: difficulty)
        }
        let fresh = pool.filter { !played.contains(TextFolding.fold($0.text)) }
        if fresh.count < count {
            let stale = pool.filter { played.contains(TextFolding.fold($0.text)) }
            let drawn = fresh + Self.pick(count - fresh.count, from: stale, using: &rng)
            return (Self.pick(drawn.count, from: drawn, using: &rng), count - fresh.count)
        }
        pool = fresh
        guard difficulty == .mixed else {
            return (Self.pick(count, from: pool, using: &rng), 0)
        }
        let buckets: [[QuizQuestion]] = Difficulty.allCases.map { level in pool.filter { $0.difficulty == level } }
        var quotas = [Int](repeating: 0, count: buckets.count)
        var next = Int(rng.next(upperBound: UInt64(buckets.count)))
        var remaining = count
        while remaining > 0 {
            if quotas[next] < buckets[next].count {
                quotas[next] += 1
                remaining -= 1
            }
            next = (next + 1) % buckets.count
        }
        var drawn: [QuizQuestion] = []
        for bucket in buckets.indices {
            drawn += Self.pick(quotas[bucket], from: buckets[bucket], using: &rng)
        }
        return (Self.pick(drawn.count, from: drawn, using: &rng), 0)
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

    /// Makes a pack id from `text`: folded, only `a-z`, `0-9` and single dashes, at most `maximumIDLength` long, never empty.
    public static func makeSlug(_ text: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in TextFolding.fold(text).unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                let dash = pendingDash && !slug.isEmpty
                if slug.unicodeScalars.count + (dash ? 2 : 1) > maximumIDLength { break }
                if dash { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "pack" : slug
    }

    // MARK: Private helpers

    /// `question` trimmed, with its line breaks written as `\n` (a question may span lines; CR LF from a file is one).
    static func normalized(_ question: QuizQuestion) -> QuizQuestion {
        let text = question.text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return QuizQuestion(
            difficulty: question.difficulty, text: text,
            answer: question.answer.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The refusal for an id no pack has, suggesting the closest id when one is near (a typo).
    func unknownPack(_ id: String) -> RuleError {
        let typed = Array(TextFolding.compact(id))
        let closest = (builtinPacks + customPacks).map(\.id).map { candidate in
            (candidate, AnswerJudge.editDistance(typed, Array(TextFolding.compact(candidate))))
        }.min { $0.1 < $1.1 }
        var message = "There is no question pack with the id \"\(id)\"."
        if let (candidate, distance) = closest, distance <= max(2, typed.count / 3) {
            message += " Did you mean \(candidate)?"
        }
        return RuleError(.unknownPack, message + " Type packs to list them.")
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

    /// Picks `count` distinct elements of `items` in random order (a partial Fisher–Yates shuffle).
    static func pick<Element>(_ count: Int, from items: [Element], using rng: inout some RandomNumberGenerator)
        -> [Element]
    {
        var items = items
        let count = min(count, items.count)
        for position in 0..<count {
            let other = position + Int(rng.next(upperBound: UInt64(items.count - position)))
            items.swapAt(position, other)
        }
        return Array(items.prefix(count))
    }

    private func customIndex(of id: String, action: String) throws(RuleError) -> Int {
        if let builtin = builtinPacks.first(where: { $0.id == id }) {
            throw RuleError(
                .readOnly,
                "The built-in pack \"\(builtin.name)\" cannot be \(action); copy it to make your own version.")
        }
        guard let index = customPacks.firstIndex(where: { $0.id == id }) else { throw unknownPack(id) }
        return index
    }

    private func checkQuestionIndex(_ questionIndex: Int, in pack: QuizPack) throws(RuleError) {
        guard pack.questions.indices.contains(questionIndex) else {
            if pack.questions.isEmpty {
                throw RuleError(.badQuestionIndex, "The pack \"\(pack.name)\" has no questions yet.")
            }
            throw RuleError(
                .badQuestionIndex,
                "The pack \"\(pack.name)\" has no question \(questionIndex + 1); its questions are numbered 1 to \(pack.questions.count)."
            )
        }
    }

    private func checkNotDuplicate(_ question: QuizQuestion, in pack: QuizPack, ignoring ignored: Int?)
        throws(RuleError)
    {
        let key = TextFolding.fold(question.text)
        for (index, other) in pack.questions.enumerated() where index != ignored && TextFolding.fold(other.text) == key
        {
            throw RuleError(
                .duplicateQuestion, "The pack \"\(pack.name)\" already has that question (question \(index + 1)).")
        }
    }

    private func isNameTaken(_ name: String, ignoring ignoredID: String? = nil) -> Bool {
        let key = TextFolding.fold(name)
        return packs.contains { $0.id != ignoredID && TextFolding.fold($0.name) == key }
    }

    private func checkedNewName(_ name: String, ignoring ignoredID: String? = nil) throws(RuleError) -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !TextFolding.fold(name).isEmpty else {
            throw RuleError(.badPackName, "A pack needs a name with at least one letter or digit.")
        }
        guard name.count <= Self.maximumNameLength else {
            throw RuleError(.badPackName, "Pack names can be at most \(Self.maximumNameLength) characters long.")
        }
        if let problem = TerminalText.problem(in: name) {
            throw RuleError(.badPackName, problem.refusal("A pack name"))
        }
        guard !isNameTaken(name, ignoring: ignoredID) else {
            throw RuleError(.packNameTaken, "There is already a pack called \"\(name)\"; choose another name.")
        }
        return name
    }

}

extension PackLibrary: ContentLibrary {
    /// A library of the built-in packs only.
    public init() {
        self.init(builtinPacks: BuiltinPacks.all)
    }

    /// The packs that ship with the host.
    public var builtinItems: [QuizPack] { builtinPacks }

    /// The operator's packs.
    public var customItems: [QuizPack] { customPacks }

    /// The pack with `id`, built in or custom.
    public func item(id: String) -> QuizPack? { pack(id: id) }

    /// Whether `id` names a built-in pack.
    public func isBuiltin(id: String) -> Bool { builtinPacks.contains { $0.id == id } }

    /// Adds `item` through `importPack`, with every rule of the library.
    public mutating func add(_ item: QuizPack) throws(RuleError) -> String { try importPack(item) }

    /// Deletes the custom pack `id`.
    public mutating func remove(id: String) throws(RuleError) { try deletePack(id) }
}
