import Foundation

/// Text comparisons that ignore what people don't mean: case, accents, spacing and punctuation.
public enum TextFolding {
    /// Lowercases `text`, strips accents, turns every run of non-alphanumerics into one space, and trims.
    ///
    /// `"  Café-au-Lait! "` folds to `"cafe au lait"`.
    public static func fold(_ text: String) -> String {
        let stripped = text.folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
            locale: Locale(identifier: "en_US_POSIX")
        ).lowercased()
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

extension TextFolding {
    /// What a name looks like, for telling names apart: `compact` after compatibility forms are unified (fullwidth
    /// and mathematical letters) and letters of other scripts that look like Latin ones are read as those, so the
    /// Cyrillic "Аnn" and the Greek "Αnn" are both "ann". A practical subset of Unicode's confusables (UTS #39) for
    /// the scripts people mix up on screen: Cyrillic, Greek, Armenian and a few Latin variants.
    public static func lookalikeKey(_ text: String) -> String {
        let unified = text.precomposedStringWithCompatibilityMapping.folding(
            options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var latin = String.UnicodeScalarView()
        for scalar in unified.unicodeScalars {
            if let stand = latinLookalikes[scalar] { latin.append(stand) } else { latin.append(scalar) }
        }
        return compact(String(latin))
    }

    /// Letters that look like a Latin letter, with that letter (upper and lower case kept apart, since the
    /// look-alike of a capital is often not that of its small letter: Cyrillic Н is H, н is not h).
    private static let latinLookalikes: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(String, String)] = [
            // Cyrillic capitals and small letters.
            ("АВЕЅІЈКМНОРСТХУҮҺӀԚԜ", "ABESIJKMHOPCTXYYHIQW"),
            ("аеѕіјорсхуүһӏԁԛԝɡɑıһ", "aesijopcxyyhldqwgaih"),
            // Greek capitals and the small letters that pass for Latin ones.
            ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"),
            ("οαικνρτυχω", "oaikvptuxw"),
            // Armenian.
            ("օսհոցԼՏ", "ouhngLS"),
        ]
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (lookalikes, latin) in pairs {
            for (lookalike, letter) in zip(lookalikes.unicodeScalars, latin.unicodeScalars) {
                table[lookalike] = letter
            }
        }
        return table
    }()
}
