import Foundation

/// Text comparisons that ignore what people don't mean: case, accents, spacing and punctuation.
public enum TextFolding {
    /// Lowercases `text`, strips accents, turns every run of non-alphanumerics into one space, and trims.
    ///
    /// `"  Café-au-Lait! "` folds to `"cafe au lait"`.
    public static func fold(_ text: String) -> String {
        let stripped = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
                                    locale: Locale(identifier: "en_US_POSIX")).lowercased()
        var result = ""
        result.reserveCapacity(stripped.utf8.count)
        var pendingSpace = false
        for character in stripped {
            if character.isLetter || character.isNumber {
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            } else {
                pendingSpace = true
            }
        }
        return result
    }

    /// `fold(text)` without any spaces: the form answers are judged on.
    public static func compact(_ text: String) -> String {
        fold(text).replacingOccurrences(of: " ", with: "")
    }

    /// Whether `needle` occurs in `haystack` once both are folded (case- and accent-insensitive search).
    public static func contains(_ haystack: String, _ needle: String) -> Bool {
        let folded = fold(needle)
        return folded.isEmpty || fold(haystack).contains(folded)
    }
}
