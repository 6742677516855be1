/// How hard a quiz question is; it sets the points on offer.
public enum Difficulty: String, CaseIterable, Codable, Sendable, Hashable, Comparable {
    case easy, medium, hard

    public static func < (lhs: Difficulty, rhs: Difficulty) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which questions a game draws: one difficulty or all of them.
public enum DifficultyChoice: String, CaseIterable, Codable, Sendable, Hashable {
    case easy, medium, hard, mixed

    /// Whether a question of `difficulty` may be drawn under this choice.
    public func admits(_ difficulty: Difficulty) -> Bool {
        self == .mixed || rawValue == difficulty.rawValue
    }
}

/// One trivia question: its text, the answer teams must type, and its difficulty.
public struct QuizQuestion: Codable, Sendable, Hashable {
    /// How hard the question is.
    public var difficulty: Difficulty
    /// The question as shown to every team.
    public var text: String
    /// The answer; its letters are what teams see scrambled.
    public var answer: String

    /// Creates a question.
    public init(difficulty: Difficulty, text: String, answer: String) {
        self.difficulty = difficulty
        self.text = text
        self.answer = answer
    }
}

/// A named set of questions, built in (read-only) or made by the operator.
public struct QuizPack: Codable, Sendable, Hashable, Identifiable {
    /// A short stable identifier used on the wire and in file names (`science`, `my-pub-quiz`).
    public var id: String
    /// The name shown to people.
    public var name: String
    /// Whether the pack ships with the host (and so cannot be edited, only copied).
    public var isBuiltin: Bool
    /// The questions, in the order they were written.
    public var questions: [QuizQuestion]

    /// Creates a pack.
    public init(id: String, name: String, isBuiltin: Bool = false, questions: [QuizQuestion] = []) {
        self.id = id
        self.name = name
        self.isBuiltin = isBuiltin
        self.questions = questions
    }
}
