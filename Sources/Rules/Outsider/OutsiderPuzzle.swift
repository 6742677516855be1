import Common

/// One Odd One Out puzzle: four words, three of which share `link`, and the `outsider` that does not.
///
/// The same value is a round of Odd One Out and the puzzle at a hunt's station. Invariants once `checked()`:
/// exactly four words, trimmed, distinct once folded (`TextFolding`), the outsider one of them as written, and a
/// link that is not empty.
public struct OutsiderPuzzle: Codable, Sendable, Hashable {
    /// The longest word accepted, in characters.
    public static let maximumWordLength = 40
    /// The longest link accepted, in characters.
    public static let maximumLinkLength = 120

    /// How hard the puzzle is; it sets the points on offer.
    public var difficulty: Difficulty
    /// The four words as written, the outsider among them.
    public var words: [String]
    /// The word that does not belong.
    public var outsider: String
    /// What the other three share ("colours").
    public var link: String

    /// Creates a puzzle; `checked()` applies the rules.
    public init(difficulty: Difficulty, words: [String], outsider: String, link: String) {
        self.difficulty = difficulty
        self.words = words
        self.outsider = outsider
        self.link = link
    }

    /// Creates a puzzle from the outsider and the three words that share the link (the CSV row's order).
    public init(difficulty: Difficulty, outsider: String, others: [String], link: String) {
        self.init(difficulty: difficulty, words: [outsider] + others, outsider: outsider, link: link)
    }

    /// The three words that share the link.
    public var others: [String] {
        let key = TextFolding.fold(outsider)
        return words.filter { TextFolding.fold($0) != key }
    }

    /// Whether `word` names the outsider, ignoring case, accents, spacing and punctuation.
    public func isOutsider(_ word: String) -> Bool { TextFolding.fold(word) == TextFolding.fold(outsider) }

    /// The 0-based position of `word` among `words`, compared folded; nil when it is none of them.
    public func index(of word: String) -> Int? {
        let key = TextFolding.fold(word)
        guard !key.isEmpty else { return nil }
        return words.firstIndex { TextFolding.fold($0) == key }
    }

    /// The puzzle trimmed, once it keeps every rule; the error says which rule it breaks.
    ///
    /// Three words without the outsider are accepted too (the outsider is then added in front), so a file may
    /// list either all four words or the three that share the link.
    public func checked() throws(RuleError) -> OutsiderPuzzle {
        let outsider = ContentText.trimmed(self.outsider)
        let link = ContentText.trimmed(self.link)
        var words = self.words.map(ContentText.trimmed)
        guard !TextFolding.fold(outsider).isEmpty else {
            throw RuleError(.badPuzzle, "The outsider is empty; name the word that does not belong.")
        }
        // Every text is shown on terminals: no control character, escape or invisible formatting gets in.
        for (text, what) in [(outsider, "The outsider"), (link, "The link")] + self.words.map({ ($0, "A word") }) {
            if let problem = TerminalText.problem(in: ContentText.trimmed(text)) {
                throw RuleError(.badText, problem.refusal(what))
            }
        }
        let outsiderKey = TextFolding.fold(outsider)
        if words.count == 3, !words.contains(where: { TextFolding.fold($0) == outsiderKey }) {
            words.insert(outsider, at: 0)
        }
        guard words.count == 4 else {
            throw RuleError(.badPuzzle, "A puzzle has four words (the outsider among them), not \(words.count).")
        }
        for word in words {
            guard !TextFolding.fold(word).isEmpty else {
                throw RuleError(.badPuzzle, "One of the four words is empty.")
            }
            guard word.count <= Self.maximumWordLength, !word.contains(where: \.isNewline) else {
                throw RuleError(
                    .badPuzzle,
                    "The word \"\(ContentText.excerpt(word))\" is too long; keep words to one line of "
                        + "\(Self.maximumWordLength) characters.")
            }
        }
        let keys = words.map(TextFolding.fold)
        guard Set(keys).count == 4 else {
            let repeated = words[keys.indices.first { index in keys[..<index].contains(keys[index]) } ?? 0]
            throw RuleError(.badPuzzle, "The word \"\(repeated)\" appears twice; the four words must differ.")
        }
        guard let position = keys.firstIndex(of: outsiderKey) else {
            throw RuleError(.badPuzzle, "The outsider \"\(outsider)\" is not one of the four words.")
        }
        guard !TextFolding.fold(link).isEmpty else {
            throw RuleError(.badPuzzle, "The link is empty; say what the other three share.")
        }
        guard link.count <= Self.maximumLinkLength, !link.contains(where: \.isNewline) else {
            throw RuleError(.badPuzzle, "The link is too long; keep it to \(Self.maximumLinkLength) characters.")
        }
        return OutsiderPuzzle(difficulty: difficulty, words: words, outsider: words[position], link: link)
    }

    /// The key under which two puzzles count as the same: their four words, folded, in any order.
    public var sameness: Set<String> { Set(words.map(TextFolding.fold)) }

    /// The key under which the host remembers that the puzzle was played tonight (its four words, folded, sorted).
    public var playedKey: String { "odd one out: " + sameness.sorted().joined(separator: ", ") }
}

/// A named set of Odd One Out puzzles, built in (read-only) or made by the operator.
public struct OutsiderPack: Codable, Sendable, Hashable, Identifiable {
    /// A short stable identifier used on the wire and in file names (`animals`, `office-party`).
    public var id: String
    /// The name shown to people; also the category a round of this pack shows.
    public var name: String
    /// Whether the pack ships with the host.
    public var isBuiltin: Bool
    /// The puzzles, in the order they were written.
    public var puzzles: [OutsiderPuzzle]

    /// Creates a pack.
    public init(id: String, name: String, isBuiltin: Bool = false, puzzles: [OutsiderPuzzle] = []) {
        self.id = id
        self.name = name
        self.isBuiltin = isBuiltin
        self.puzzles = puzzles
    }
}
