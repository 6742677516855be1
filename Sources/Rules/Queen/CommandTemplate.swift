import Common
import Foundation

/// A Queen's command checked and split into literal text and placeholders, ready to be filled in.
///
/// Placeholders are `{1}` … `{9}` (a numbered player; the same placeholder twice means the same player) and
/// `{queen}` (the Queen's name). Number placeholders count up from `{1}` without gaps, so a template that
/// uses `{3}` names exactly 3 numbers. Braces are only for placeholders.
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

    /// Checks `text` and splits it, or throws `empty_command`, `bad_text` (see `TerminalText`), `command_too_long` or
    /// `bad_placeholder`.
    public init(_ text: String) throws(RuleError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw RuleError(.emptyCommand, "The command is empty; write what the numbered players must do.")
        }
        if let problem = TerminalText.problem(in: trimmed) { throw RuleError(.badText, problem.refusal("A command")) }
        guard trimmed.count <= Self.maxLength else {
            throw RuleError(.commandTooLong,
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
            throw RuleError(.badPlaceholder,
                            "The command uses {\(highest)} but not {\(missing)}; number placeholders count up from {1}.")
        }
        self.text = trimmed
        self.targetCount = highest
        self.mentionsQueen = segments.contains(.queen)
        self.segments = segments
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
           name.first?.isASCII == true {
            return .number(digit)
        }
        throw RuleError(.badPlaceholder,
                        "{\(name)} is not a placeholder; use {1} to {9} for numbered players and {queen} for the Queen.")
    }

    /// The refusal for a brace that is not part of a placeholder.
    private static func unmatchedBrace(_ brace: Character) -> RuleError {
        RuleError(.badPlaceholder,
                  "The command has a '\(brace)' that is not part of a placeholder such as {1} or {queen}.")
    }
}
