/// One answer given in a compound-words game, as the teacher reads it: who, which word, what, right or wrong, and
/// how long they thought.
///
/// `ms` runs from the moment the team could answer (its question shown, or the end of its lockout after a wrong
/// card) to the pick; time while the game was paused does not count.
public struct WordAnswer: Codable, Sendable, Equatable {
    /// The team that answered.
    public var team: String
    /// The player who picked.
    public var player: String
    /// The question word.
    public var word: String
    /// The option picked.
    public var answer: String
    /// Whether the option made a real compound word.
    public var correct: Bool
    /// Milliseconds taken (see the type's description).
    public var ms: Int64

    /// Creates an answer record.
    public init(team: String, player: String, word: String, answer: String, correct: Bool, ms: Int64) {
        self.team = team
        self.player = player
        self.word = word
        self.answer = answer
        self.correct = correct
        self.ms = ms
    }
}

/// The teacher's CSV of a game's answers: one row per answer, so a spreadsheet shows which words a child missed.
public enum WordAnswerSheet {
    /// The header row.
    public static let columns = ["team", "player", "word", "answer", "correct", "ms"]

    /// The answers as a CSV document (RFC 4180, CRLF line ends): `team,player,word,answer,correct,ms`, `correct`
    /// written `yes` or `no`.
    public static func csv(_ answers: [WordAnswer]) -> String { CSV.document(header: columns, rows: rows(answers)) }

    /// One row per answer, in the order of `columns`.
    public static func rows(_ answers: [WordAnswer]) -> [[String]] {
        answers.map { [$0.team, $0.player, $0.word, $0.answer, $0.correct ? "yes" : "no", String($0.ms)] }
    }

    /// Per player, the question words they answered wrong at least once, in the order they first missed them.
    public static func missedWords(_ answers: [WordAnswer]) -> [(player: String, words: [String])] {
        var order: [String] = []
        var missed: [String: [String]] = [:]
        for answer in answers where !answer.correct {
            if missed[answer.player] == nil { order.append(answer.player) }
            if !(missed[answer.player] ?? []).contains(answer.word) {
                missed[answer.player, default: []].append(answer.word)
            }
        }
        return order.map { ($0, missed[$0] ?? []) }
    }
}
