import Common
import Foundation

/// A Queen's command checked and split into literal text and placeholders, ready to be filled in.
///
/// Placeholders are `{1}` … `{9}` (a numbered player; the same placeholder twice means the same player) and
/// `{queen}` (the Queen's name). Number placeholders count up from `{1}` without gaps, so a template that
/// uses `{3}` names exactly 3 numbers. Braces are only for placeholders.
///
/// A Queen's own order may also name numbers the way people write them — "No. 2", "no 2", "nr 2", "#2" — when
/// read with `readsNamedNumbers`: those name exactly that number (`namedNumbers`), are kept as written, and are
/// not drawn at random like `{1}`.
public struct CommandTemplate: Sendable, Hashable {
    /// The longest command text allowed, in characters (placeholders counted as written).
    public static let maxLength = 200

    /// One piece of a template.
    enum Segment: Sendable, Hashable {
        /// Text shown as written.
        case literal(String)
        /// The number that fills placeholder `{n}`, counted from 1.
        case number(Int)
        /// The Queen's name.
        case queen
    }

    /// The command as written, trimmed of surrounding whitespace.
    public let text: String
    /// How many distinct numbers the command names (the highest number placeholder).
    public let targetCount: Int
    /// Whether the command mentions `{queen}`.
    public let mentionsQueen: Bool
    /// The text split at its placeholders.
    let segments: [Segment]
    /// The numbers named as written ("No. 2"), each once, in order of first mention (empty unless read so).
    public let namedNumbers: [Int]

    /// Checks `text` and splits it, or throws `empty_command`, `bad_text` (see `TerminalText`), `command_too_long` or
    /// `bad_placeholder`; with `readsNamedNumbers`, "No. 2", "nr 2", "#2" … name number 2.
    public init(_ text: String, readsNamedNumbers: Bool = false) throws(RuleError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw RuleError(.emptyCommand, "The command is empty; write what the numbered players must do.")
        }
        if let problem = TerminalText.problem(in: trimmed) { throw RuleError(.badText, problem.refusal("A command")) }
        guard trimmed.count <= Self.maxLength else {
            throw RuleError(
                .commandTooLong,
                "A command can be at most \(Self.maxLength) characters; this one has \(trimmed.count).")
        }
        var segments: [Segment] = []
        var literal = ""
        var placeholder: String?
        for character in trimmed {
            if var name = placeholder {
                if character == "}" {
                    if !literal.isEmpty { segments.append(.literal(literal)) }
                    literal = ""
                    segments.append(try Self.segment(forPlaceholder: name))
                    placeholder = nil
                } else if character == "{" {
                    throw Self.unmatchedBrace("{")
                } else {
                    name.append(character)
                    placeholder = name
                }
            } else if character == "{" {
                placeholder = ""
            } else if character == "}" {
                throw Self.unmatchedBrace("}")
            } else {
                literal.append(character)
            }
        }
        if placeholder != nil { throw Self.unmatchedBrace("{") }
        if !literal.isEmpty { segments.append(.literal(literal)) }

        var used = Set<Int>()
        for case .number(let number) in segments { used.insert(number) }
        let highest = used.max() ?? 0
        if used.count != highest, let missing = (1...highest).first(where: { !used.contains($0) }) {
            throw RuleError(
                .badPlaceholder,
                "The command uses {\(highest)} but not {\(missing)}; number placeholders count up from {1}.")
        }
        self.text = trimmed
        self.targetCount = highest
        self.mentionsQueen = segments.contains(.queen)
        self.segments = segments
        var named: [Int] = []
        if readsNamedNumbers {
            for mention in Self.namedMentions(in: trimmed) where !named.contains(mention.number) {
                named.append(mention.number)
            }
        }
        self.namedNumbers = named
    }

    /// Every number written the natural way in `text` ("No. 2", "no 2", "No.2", "nr 2", "n° 2", "#2"), with
    /// where it is; a mention starts a word and its one or two digits end one (so "piano 2" or "No. 2nd" is none).
    public static func namedMentions(in text: String) -> [(range: Range<String.Index>, number: Int)] {
        let characters = Array(text)
        let indices = Array(text.indices) + [text.endIndex]
        func isWordCharacter(_ index: Int) -> Bool {
            index >= 0 && index < characters.count && (characters[index].isLetter || characters[index].isNumber)
        }
        var mentions: [(range: Range<String.Index>, number: Int)] = []
        var start = 0
        while start < characters.count {
            guard !isWordCharacter(start - 1), let end = mentionEnd(characters, from: start) else {
                start += 1
                continue
            }
            var digitsStart = end
            while digitsStart > start, characters[digitsStart - 1].isASCII, characters[digitsStart - 1].isWholeNumber {
                digitsStart -= 1
            }
            if let number = Int(String(characters[digitsStart..<end])) {
                mentions.append((indices[start]..<indices[end], number))
            }
            start = end
        }
        return mentions
    }

    /// Where a natural mention starting at `start` ends (after its digits), or nil when none starts there.
    private static func mentionEnd(_ characters: [Character], from start: Int) -> Int? {
        var index = start
        if characters[index] == "#" {
            index += 1
        } else if index + 1 < characters.count, characters[index].lowercased() == "n",
            ["o", "r", "°", "º"].contains(characters[index + 1].lowercased())
        {
            index += 2
            if index < characters.count, characters[index] == "." { index += 1 }
        } else {
            return nil
        }
        while index < characters.count, characters[index] == " " { index += 1 }
        let digits = index
        while index < characters.count, characters[index].isASCII, characters[index].isWholeNumber { index += 1 }
        guard index > digits, index - digits <= 2 else { return nil }
        if index < characters.count, characters[index].isLetter || characters[index].isNumber { return nil }
        return index
    }

    /// `text` with its natural mentions ("No. 2") turned into placeholders after its own (`No. {1}` …), as the
    /// library keeps commands: a saved order names numbers drawn afresh each time it is used.
    public static func libraryText(of text: String) -> String {
        let mentions = namedMentions(in: text)
        guard !mentions.isEmpty else { return text }
        var highest = 0
        if let template = try? CommandTemplate(text) { highest = template.targetCount }
        var placeholders: [Int: Int] = [:]
        var result = ""
        var position = text.startIndex
        for mention in mentions {
            result += text[position..<mention.range.lowerBound]
            let placeholder =
                placeholders[mention.number]
                ?? {
                    highest += 1
                    placeholders[mention.number] = highest
                    return highest
                }()
            result += "No. {\(placeholder)}"
            position = mention.range.upperBound
        }
        return result + text[position...]
    }

    /// The command with `{n}` replaced by `numbers[n - 1]` and `{queen}` by `queen`.
    ///
    /// `numbers` must hold at least `targetCount` entries.
    public func filled(numbers: [Int], queen: String) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .literal(let text): result += text
            case .number(let placeholder): result += String(numbers[placeholder - 1])
            case .queen: result += queen
            }
        }
        return result
    }

    /// The segment for the text between `{` and `}`, or `bad_placeholder`.
    private static func segment(forPlaceholder name: String) throws(RuleError) -> Segment {
        if name.lowercased() == "queen" { return .queen }
        if name.count == 1, let digit = name.first?.wholeNumberValue, (1...9).contains(digit),
            name.first?.isASCII == true
        {
            return .number(digit)
        }
        throw RuleError(
            .badPlaceholder,
            "{\(name)} is not a placeholder; use {1} to {9} for numbered players and {queen} for the Queen.")
    }

    /// The refusal for a brace that is not part of a placeholder.
    private static func unmatchedBrace(_ brace: Character) -> RuleError {
        RuleError(
            .badPlaceholder,
            "The command has a '\(brace)' that is not part of a placeholder such as {1} or {queen}.")
    }
}
