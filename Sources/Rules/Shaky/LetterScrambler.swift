import Foundation

/// What one team sees of the answer: its characters, uppercased, with the letters scrambled.
public struct ShakyLetters: Codable, Sendable, Equatable, Hashable {
    /// The scrambled answer; spaces and punctuation stay where they are, so word lengths show.
    public var text: String
    /// How many letter positions, counted from the left, show their correct letter (one per shake).
    public var fixedCount: Int
    /// How many letter positions the answer has.
    public var letterCount: Int

    /// Creates a team's view of the letters.
    public init(text: String, fixedCount: Int, letterCount: Int) {
        self.text = text
        self.fixedCount = fixedCount
        self.letterCount = letterCount
    }
}

/// Scrambles an answer's letters for display, optionally keeping its first letters in place.
///
/// "Letters" are the characters `TextFolding` keeps (letters and digits); everything else stays put.
public enum LetterScrambler {
    /// Whether `character` is scrambled (a letter or digit) rather than left in place.
    public static func isScrambled(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// The answer as shown: trimmed, each letter uppercased where that keeps it one character.
    public static func displayForm(of answer: String) -> [Character] {
        answer.trimmingCharacters(in: .whitespacesAndNewlines).map { character in
            let upper = String(character).uppercased()
            return upper.count == 1 ? Character(upper) : character
        }
    }

    /// How many letter positions `answer` has.
    public static func letterCount(in answer: String) -> Int {
        displayForm(of: answer).filter(isScrambled).count
    }

    /// Scrambles `answer`, keeping its first `fixedCount` letter positions correct.
    ///
    /// The free letters are shuffled among the free positions only; when they are not all the same,
    /// the result always differs from the answer.
    public static func scramble(
        _ answer: String, fixing fixedCount: Int,
        using rng: inout some RandomNumberGenerator
    ) -> ShakyLetters {
        var characters = displayForm(of: answer)
        let positions = characters.indices.filter { isScrambled(characters[$0]) }
        let fixed = min(max(fixedCount, 0), positions.count)
        let freePositions = Array(positions[fixed...])
        let original = freePositions.map { characters[$0] }
        var shuffled = original
        shuffle(&shuffled, using: &rng)
        if shuffled == original, let other = original.indices.first(where: { original[$0] != original[0] }) {
            shuffled.swapAt(0, other)
        }
        for (position, letter) in zip(freePositions, shuffled) {
            characters[position] = letter
        }
        return ShakyLetters(text: String(characters), fixedCount: fixed, letterCount: positions.count)
    }

    /// Fisher–Yates written out here so a seed replays identically whatever the standard library does.
    private static func shuffle(_ items: inout [Character], using rng: inout some RandomNumberGenerator) {
        guard items.count > 1 else { return }
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            let other = Int(rng.next() % UInt64(index + 1))
            items.swapAt(index, other)
        }
    }
}
