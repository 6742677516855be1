/// A 5-row block font for A–Z, Å, Ä, Ö, Ü and 0–9, so letters read from across the room.
public enum BigFont {
    /// Rows of a glyph.
    public static let height = 5
    /// Columns of a glyph (a gap of one column goes between glyphs).
    public static let glyphWidth = 5

    private static let glyphs: [Character: [String]] = [
        "A": [" ### ", "#   #", "#####", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#### ", "#   #", "#### "],
        "C": [" ####", "#    ", "#    ", "#    ", " ####"],
        "D": ["#### ", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#### ", "#    ", "#####"],
        "F": ["#####", "#    ", "#### ", "#    ", "#    "],
        "G": [" ####", "#    ", "#  ##", "#   #", " ####"],
        "H": ["#   #", "#   #", "#####", "#   #", "#   #"],
        "I": ["#####", "  #  ", "  #  ", "  #  ", "#####"],
        "J": ["#####", "   # ", "   # ", "#  # ", " ##  "],
        "K": ["#   #", "#  # ", "###  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#### ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#### ", "#  # ", "#   #"],
        "S": [" ####", "#    ", " ### ", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "# # #", "## ##", "#   #"],
        "X": ["#   #", " # # ", "  #  ", " # # ", "#   #"],
        "Y": ["#   #", " # # ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "   # ", "  #  ", " #   ", "#####"],
        "0": [" ### ", "#  ##", "# # #", "##  #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "  ## ", " #   ", "#####"],
        "3": ["#### ", "    #", " ### ", "    #", "#### "],
        "4": ["#   #", "#   #", "#####", "    #", "    #"],
        "5": ["#####", "#    ", "#### ", "    #", "#### "],
        "6": [" ### ", "#    ", "#### ", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
        "8": [" ### ", "#   #", " ### ", "#   #", " ### "],
        "9": [" ### ", "#   #", " ####", "    #", " ### "],
        // Swedish letters (the built-in `sv` word list): the mark on the first row, the letter squeezed below.
        "Å": ["  #  ", " ### ", "#   #", "#####", "#   #"],
        "Ä": ["#   #", " ### ", "#   #", "#####", "#   #"],
        "Ö": ["#   #", " ### ", "#   #", "#   #", " ### "],
        "Ü": ["#   #", "     ", "#   #", "#   #", " ### "],
        "-": ["     ", "     ", " ### ", "     ", "     "],
        "'": ["  #  ", "  #  ", "     ", "     ", "     "],
        ".": ["     ", "     ", "     ", "     ", "  #  "],
        "&": [" ##  ", "#  # ", " ##  ", "#  # ", " ## #"],
    ]

    /// Whether every character of `text` has a glyph (spaces always do).
    public static func canRender(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " || glyphs[Character($0.uppercased())] != nil }
    }

    /// Columns `text` takes in the big font.
    public static func width(of text: String) -> Int {
        text.isEmpty ? 0 : text.count * (glyphWidth + 1) - 1
    }

    /// The glyph rows of `character` (blank for a space).
    public static func glyph(_ character: Character) -> [String] {
        glyphs[Character(character.uppercased())]?.map { String($0.map { $0 == "#" ? "█" : " " }) }
            ?? Array(repeating: String(repeating: " ", count: glyphWidth), count: height)
    }

    /// `text` in the big font as plain rows, each glyph column `scale` characters wide and each glyph row drawn
    /// `scale` times, with `ink` for the strokes: for printed sheets. Characters without a glyph are left blank.
    public static func rows(of text: String, ink: Character = "#", scale: Int = 1) -> [String] {
        let scale = max(1, scale)
        let gap = String(repeating: " ", count: scale)
        var rows: [String] = []
        for line in 0..<height {
            let row = text.map { character -> String in
                let pattern =
                    glyphs[Character(character.uppercased())]?[line] ?? String(repeating: " ", count: glyphWidth)
                return String(pattern.flatMap { Array(repeating: $0 == "#" ? ink : " ", count: scale) })
            }.joined(separator: gap)
            rows += Array(repeating: row, count: scale)
        }
        return rows
    }
}
