/// How a typed answer compares with the right one.
public enum AnswerVerdict: Codable, Sendable, Equatable, Hashable {
    /// The same answer once case, accents, spacing and punctuation are ignored.
    case exact
    /// Accepted although misspelled by `distance` edits; the host should show the correct spelling.
    case misspelling(distance: Int)
    /// Not the answer.
    case wrong

    /// Whether the answer scores (exact or forgiven).
    public var isCorrect: Bool { self != .wrong }

    /// Whether the answer was accepted despite a spelling mistake.
    public var isMisspelling: Bool {
        if case .misspelling = self { return true }
        return false
    }
}

/// Judges typed answers: folded comparison, plus optional forgiveness for small spelling mistakes.
///
/// Both sides are compared in `TextFolding.compact` form. When forgiving, the allowed number of edits
/// (insertions, deletions, substitutions, swaps of neighbours) grows with the right answer's length:
/// none below 5 letters, 1 for 5–8 letters, 2 for 9 or more.
public struct AnswerJudge: Codable, Sendable, Equatable, Hashable {
    /// Whether small spelling mistakes are accepted.
    public var isForgiving: Bool

    /// Creates a judge, forgiving unless told otherwise.
    public init(isForgiving: Bool = true) {
        self.isForgiving = isForgiving
    }

    /// Judges `given` against the right `answer`.
    public func judge(_ given: String, against answer: String) -> AnswerVerdict {
        let typed = Array(TextFolding.compact(given))
        let expected = Array(TextFolding.compact(answer))
        guard !typed.isEmpty else { return .wrong }
        if typed == expected { return .exact }
        guard isForgiving else { return .wrong }
        let allowed = Self.allowedEdits(forLetterCount: expected.count)
        guard allowed > 0, abs(typed.count - expected.count) <= allowed else { return .wrong }
        let distance = Self.editDistance(typed, expected)
        return distance <= allowed ? .misspelling(distance: distance) : .wrong
    }

    /// How many edits a forgiving judge accepts for an answer of `count` folded letters.
    public static func allowedEdits(forLetterCount count: Int) -> Int {
        switch count {
        case ..<5: 0
        case 5...8: 1
        default: 2
        }
    }

    /// The optimal-string-alignment distance (Damerau–Levenshtein without repeated edits of one substring).
    public static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        let width = rhs.count + 1
        // Three rolling rows: two back (for transpositions), previous and current.
        var twoBack = [Int](repeating: 0, count: width)
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    best = min(best, twoBack[j - 2] + 1)
                }
                current[j] = best
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[rhs.count]
    }
}
