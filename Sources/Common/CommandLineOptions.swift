// One table per tool declares each command-line option once (its flag, value, help sentence, default, allowed
// values and section); the same table parses the arguments and writes the `--help` text, so they cannot drift.

/// A command-line mistake, said in plain words for the person who typed it.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence to show.
    public var message: String
    /// Creates an error that says `message`.
    public init(_ message: String) { self.message = message }
    /// The message, for printing.
    public var description: String { message }
}

/// How an option's text becomes a value, and what it accepts, in words and as examples.
public struct OptionValue<Value> {
    /// The value's name in the help's signature: `N`, `DIR`, `on|off`.
    public var placeholder: String
    /// What the text must be, completing "--flag must be …": "a whole number from 1 to 3600".
    public var expectation: String
    /// The allowed values in short for the help ("1–3600"), or nil when the placeholder or sentence says it all.
    public var allowed: String?
    /// Reads a value from the typed text; nil when the text is not allowed.
    public var read: (String) -> Value?
    /// Writes a value the way it would be typed.
    public var write: (Value) -> String
    /// Texts that must be accepted: the ends of the range, every choice.
    public var acceptedExamples: [String]
    /// Texts that must be refused: one past each end of the range, a word that is no choice.
    public var refusedExamples: [String]

    /// Creates a value kind from its parts.
    public init(
        placeholder: String, expectation: String, allowed: String? = nil, read: @escaping (String) -> Value?,
        write: @escaping (Value) -> String, acceptedExamples: [String], refusedExamples: [String]
    ) {
        self.placeholder = placeholder
        self.expectation = expectation
        self.allowed = allowed
        self.read = read
        self.write = write
        self.acceptedExamples = acceptedExamples
        self.refusedExamples = refusedExamples
    }

    /// The same value read differently: `forward` turns a read value into the field's, `back` undoes it for writing.
    public func map<Other>(
        _ forward: @escaping (Value) -> Other, back: @escaping (Other) -> Value
    ) -> OptionValue<Other> {
        let read = self.read
        let write = self.write
        return OptionValue<Other>(
            placeholder: placeholder, expectation: expectation, allowed: allowed,
            read: { read($0).map(forward) }, write: { write(back($0)) },
            acceptedExamples: acceptedExamples, refusedExamples: refusedExamples)
    }

    /// The same value, or the word `none` (any case) for no value at all.
    public func orNone(_ word: String = "none") -> OptionValue<Value?> {
        let read = self.read
        let write = self.write
        return OptionValue<Value?>(
            placeholder: placeholder, expectation: "\(expectation), or \(word)",
            allowed: allowed.map { "\($0) or \(word)" },
            read: { text in text.lowercased() == word ? .some(nil) : read(text).map { .some($0) } },
            write: { $0.map(write) ?? word }, acceptedExamples: acceptedExamples + [word],
            refusedExamples: refusedExamples)
    }

    /// A comma-separated list of at least one `element`, such as `8,100,1000`.
    public static func list<Element>(of element: OptionValue<Element>, placeholder: String = "LIST") -> OptionValue
    where Value == [Element] {
        let read = element.read
        let write = element.write
        return OptionValue(
            placeholder: placeholder, expectation: "a comma-separated list, each \(element.expectation)",
            allowed: "each \(element.allowed ?? element.expectation)",
            read: { text in
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                let values = parts.compactMap(read)
                return values.isEmpty || values.count != parts.count ? nil : values
            },
            write: { $0.map(write).joined(separator: ",") },
            acceptedExamples: element.acceptedExamples.isEmpty ? [] : [element.acceptedExamples.joined(separator: ",")],
            refusedExamples: [""] + element.refusedExamples
                + element.refusedExamples.prefix(1).map { "\(element.acceptedExamples.first ?? ""),\($0)" })
    }
}

extension OptionValue where Value: FixedWidthInteger {
    /// A whole number within `range`.
    public static func integer(in range: ClosedRange<Value>, placeholder: String = "N") -> OptionValue {
        let low = String(range.lowerBound)
        let high = String(range.upperBound)
        var refused = ["x", "\(low).5"]
        if let below = Int64(exactly: range.lowerBound).flatMap({ $0 > Int64.min ? $0 - 1 : nil }) {
            refused.append(String(below))
        }
        if let above = Int64(exactly: range.upperBound).flatMap({ $0 < Int64.max ? $0 + 1 : nil }) {
            refused.append(String(above))
        }
        return OptionValue(
            placeholder: placeholder, expectation: "a whole number from \(low) to \(high)", allowed: "\(low)–\(high)",
            read: { Value($0).flatMap { range.contains($0) ? $0 : nil } }, write: { String($0) },
            acceptedExamples: [low, high], refusedExamples: refused)
    }
}

extension OptionValue where Value == Double {
    /// A number within `range`, with or without decimals.
    public static func decimal(in range: ClosedRange<Double>, placeholder: String = "S") -> OptionValue {
        let low = write(range.lowerBound)
        let high = write(range.upperBound)
        return OptionValue(
            placeholder: placeholder, expectation: "a number from \(low) to \(high)", allowed: "\(low)–\(high)",
            read: { Double($0).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }, write: write,
            acceptedExamples: [low, high],
            refusedExamples: ["x", write(range.lowerBound - 1), write(range.upperBound + 1)])
    }

    /// `value` as typed: without a fraction when it is whole (`10`, `0.5`).
    private static func write(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension OptionValue where Value == String {
    /// Text, checked by `isAllowed` (described by `expectation`) and normalised by `transform` (such as upper case).
    public static func text(
        placeholder: String, expectation: String = "some text",
        isAllowed: @escaping (String) -> Bool = { _ in true },
        transform: @escaping (String) -> String = { $0 },
        accepted: [String] = ["x"], refused: [String] = []
    ) -> OptionValue {
        OptionValue(
            placeholder: placeholder, expectation: expectation,
            read: { isAllowed($0) ? transform($0) : nil }, write: { $0 },
            acceptedExamples: accepted, refusedExamples: refused)
    }
}

extension OptionValue where Value: Equatable {
    /// One of `choices`, typed in any case; a value may have several names, the first of them is the one shown.
    public static func choice(_ choices: KeyValuePairs<String, Value>, placeholder: String? = nil) -> OptionValue {
        choice(choices.map { ($0.key, $0.value) }, placeholder: placeholder)
    }

    /// One of `choices`, as name and value pairs (`Kind.allCases.map { ($0.rawValue, $0) }`).
    public static func choice(_ choices: [(String, Value)], placeholder: String? = nil) -> OptionValue {
        let pairs = choices.map { (name: $0.0, value: $0.1) }
        var shown: [String] = []
        for (index, pair) in pairs.enumerated() where !pairs[..<index].contains(where: { $0.value == pair.value }) {
            shown.append(pair.name)
        }
        return OptionValue(
            placeholder: placeholder ?? shown.joined(separator: "|"), expectation: englishList(shown, joinedBy: "or"),
            read: { text in pairs.first { $0.name.lowercased() == text.lowercased() }?.value },
            write: { value in pairs.first { $0.value == value }?.name ?? "?" },
            acceptedExamples: pairs.map(\.name), refusedExamples: ["?"])
    }
}

/// `["a", "b", "c"]` as "a, b or c".
func englishList(_ words: [String], joinedBy conjunction: String) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words[words.count - 1]
}

/// One command-line option: its names, what it takes, its help sentence and where in the help it stands.
public struct CommandLineOption<Values> {
    /// The option's name, such as `--question-seconds`.
    public let flag: String
    /// Other names that mean the same (`-n`); one-letter ones are shown in the help, longer ones are kept quietly.
    public let aliases: [String]
    /// The value's name in the help (`N`), or nil for a flag that takes no value.
    public let placeholder: String?
    /// The help sentence.
    public let help: String
    /// The heading of the help section the option is listed under.
    public let section: String
    /// Whether the option is left out of the help (an internal switch).
    public let isHidden: Bool
    /// The allowed values in short ("1–3600"), shown after the help sentence.
    public let allowed: String?
    /// What the value must be, for error messages; nil for a flag.
    public let expectation: String?
    /// Texts the option must accept and texts it must refuse (for tests of the table).
    public let acceptedExamples: [String]
    /// Texts the option must refuse (for tests of the table).
    public let refusedExamples: [String]
    /// The default as shown in the help, when it is not simply the default value written out.
    let defaultLabel: String?
    /// Stores the value read from `text` (nil for a flag) into `values`; false when the text is not allowed.
    let store: (inout Values, String?) -> Bool
    /// The default written as it would be typed, or nil when it cannot be (an empty optional field, a flag).
    public let defaultArgument: (Values) -> String?
    /// Whether two sets of values agree on this option's field.
    public let agrees: (Values, Values) -> Bool

    /// Every name of the option: the flag, then its aliases.
    public var names: [String] { [flag] + aliases }

    /// The default as the help shows it, in the brackets after the sentence; nil when none is shown.
    public func shownDefault(_ defaults: Values) -> String? { defaultLabel ?? defaultArgument(defaults) }

    /// An option that takes a value into `field`; the default shown is the field's default unless `shownDefault` says.
    public static func value<Value: Equatable>(
        _ flag: String, aliases: [String] = [], _ field: WritableKeyPath<Values, Value>, _ kind: OptionValue<Value>,
        placeholder: String? = nil, help: String, section: String, shownDefault: String? = nil, isHidden: Bool = false
    ) -> CommandLineOption {
        let read = kind.read
        let write = kind.write
        return CommandLineOption(
            flag: flag, aliases: aliases, placeholder: placeholder ?? kind.placeholder, help: help, section: section,
            isHidden: isHidden, allowed: kind.allowed, expectation: kind.expectation,
            acceptedExamples: kind.acceptedExamples, refusedExamples: kind.refusedExamples, defaultLabel: shownDefault,
            store: { values, text in
                guard let value = text.flatMap(read) else { return false }
                values[keyPath: field] = value
                return true
            },
            defaultArgument: { write($0[keyPath: field]) }, agrees: { $0[keyPath: field] == $1[keyPath: field] })
    }

    /// An option that takes a value into an optional `field`, which stays nil unless given; `shownDefault` says what
    /// nil means (nil shows no default).
    public static func value<Value: Equatable>(
        _ flag: String, aliases: [String] = [], _ field: WritableKeyPath<Values, Value?>, _ kind: OptionValue<Value>,
        placeholder: String? = nil, help: String, section: String, shownDefault: String? = nil, isHidden: Bool = false
    ) -> CommandLineOption {
        let read = kind.read
        let write = kind.write
        return CommandLineOption(
            flag: flag, aliases: aliases, placeholder: placeholder ?? kind.placeholder, help: help, section: section,
            isHidden: isHidden, allowed: kind.allowed, expectation: kind.expectation,
            acceptedExamples: kind.acceptedExamples, refusedExamples: kind.refusedExamples, defaultLabel: shownDefault,
            store: { values, text in
                guard let value = text.flatMap(read) else { return false }
                values[keyPath: field] = value
                return true
            },
            defaultArgument: { $0[keyPath: field].map(write) }, agrees: { $0[keyPath: field] == $1[keyPath: field] })
    }

    /// A flag that takes no value and sets `field` to `value`.
    public static func flag<Value: Equatable>(
        _ flag: String, aliases: [String] = [], sets field: WritableKeyPath<Values, Value>, to value: Value,
        help: String, section: String, isHidden: Bool = false
    ) -> CommandLineOption {
        CommandLineOption(
            flag: flag, aliases: aliases, placeholder: nil, help: help, section: section, isHidden: isHidden,
            allowed: nil, expectation: nil, acceptedExamples: [], refusedExamples: [], defaultLabel: nil,
            store: { values, _ in
                values[keyPath: field] = value
                return true
            },
            defaultArgument: { _ in nil }, agrees: { $0[keyPath: field] == $1[keyPath: field] })
    }
}

/// What a command line said: the option values, the other arguments, and whether help or the version was asked for.
public struct ParsedCommandLine<Values> {
    /// A request that replaces running the tool.
    public enum Request: Equatable, Sendable {
        /// `-h`, `--help` or the word `help`.
        case help
        /// `--version`.
        case version
    }

    /// The defaults with every given option applied, in order (a later option wins).
    public var values: Values
    /// The arguments that are no options, in order (subcommands, a host address).
    public var arguments: [String]
    /// Help or the version, when asked for (parsing stops there).
    public var request: Request?
    /// The flags given, by their main name (an alias counts as its flag).
    public var given: Set<String>
}

/// A tool's command line: its options, in help order, and the text around their list in `--help`.
public struct CommandLineTable<Values> {
    /// The tool's name, as errors and the help say it: `partyline-host`.
    public let tool: String
    /// The values before any option is applied.
    public let defaults: Values
    /// Text before the option list: what the tool does and how to call it.
    public let introduction: String
    /// Every option, in the order the help lists them (sections in order of first use).
    public let options: [CommandLineOption<Values>]
    /// Text after the option list: keys, examples.
    public let closing: String
    /// Whether `--version` is understood.
    public let hasVersion: Bool
    /// Whether arguments that are no options are allowed (subcommands, an address); if not, they are errors.
    public let takesArguments: Bool
    /// Whether, after the first argument (a command word), an option the table does not declare is left to the
    /// command as an argument (`history --hunt ID`, `hunt print ID --html`) instead of refused.
    public let leavesUnknownOptionsToCommands: Bool

    /// The width the help is wrapped to.
    static var helpWidth: Int { 100 }

    /// Creates a table; the options keep their order.
    public init(
        tool: String, defaults: Values, introduction: String, options: [CommandLineOption<Values>],
        closing: String = "", hasVersion: Bool = false, takesArguments: Bool = false,
        leavesUnknownOptionsToCommands: Bool = false
    ) {
        self.tool = tool
        self.defaults = defaults
        self.introduction = introduction
        self.options = options
        self.closing = closing
        self.hasVersion = hasVersion
        self.takesArguments = takesArguments
        self.leavesUnknownOptionsToCommands = leavesUnknownOptionsToCommands
    }

    /// The option called `name` (its flag or an alias).
    public func option(_ name: String) -> CommandLineOption<Values>? {
        options.first { $0.names.contains(name) }
    }

    /// An error that says `sentence` and where to read more.
    public func error(_ sentence: String) -> UsageError {
        UsageError("\(sentence) See \(tool) --help.")
    }

    /// Reads `arguments` (without the program's name): `--flag value`, `--flag=value`, flags, `-h`/`--help`/`help`,
    /// `--version`, other arguments, and `--` after which everything is an argument.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine<Values> {
        var parsed = ParsedCommandLine(values: defaults, arguments: [], request: nil, given: [])
        var index = 0
        var isOptionsEnd = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if isOptionsEnd || !argument.hasPrefix("-") || argument == "-" {
                if !isOptionsEnd && argument == "help" {
                    parsed.request = .help
                    return parsed
                }
                guard takesArguments else {
                    throw error("Unexpected argument \"\(argument)\": \(tool) takes only options.")
                }
                parsed.arguments.append(argument)
                continue
            }
            if argument == "--" {
                isOptionsEnd = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.request = .help
                return parsed
            }
            if hasVersion && argument == "--version" {
                parsed.request = .version
                return parsed
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = option(name) else {
                guard leavesUnknownOptionsToCommands, !parsed.arguments.isEmpty, argument.hasPrefix("--") else {
                    throw unknownOption(name)
                }
                parsed.arguments.append(argument)
                continue
            }
            var text: String?
            if let placeholder = option.placeholder {
                if let inlineValue {
                    text = inlineValue
                } else if index < arguments.count {
                    text = arguments[index]
                    index += 1
                } else {
                    throw error("\(option.flag) needs a value (\(placeholder)).")
                }
            } else if let inlineValue {
                throw error("\(option.flag) takes no value; leave out \"=\(inlineValue)\".")
            }
            guard option.store(&parsed.values, text) else {
                throw error("\(option.flag) must be \(option.expectation ?? "something else"), not \"\(text ?? "")\".")
            }
            parsed.given.insert(option.flag)
        }
        return parsed
    }

    /// What is wrong with the declarations, one sentence each (empty when nothing): a name used twice, a default
    /// the option itself would refuse, an end of a range that is refused or a value past it that is accepted, a flag
    /// that changes nothing, an option or default the help does not show. Tests of each tool expect none.
    public func declarationProblems() -> [String] {
        var problems: [String] = []
        var seen: Set<String> = ["-h", "--help", "--version", "--", "help"]
        for name in options.flatMap(\.names) {
            if !name.hasPrefix("-") { problems.append("\(name) does not start with a dash.") }
            if !seen.insert(name).inserted { problems.append("\(name) is declared twice (or is built in).") }
        }
        let help = helpText
        for option in options {
            let flag = option.flag
            if !option.isHidden && !help.contains(flag) { problems.append("The help does not mention \(flag).") }
            if !option.isHidden, let shown = option.shownDefault(defaults), !help.contains("[\(shown)]") {
                problems.append("The help does not show the default of \(flag), [\(shown)].")
            }
            guard option.placeholder != nil else {
                if let values = try? parse([flag]).values, option.agrees(values, defaults) {
                    problems.append("\(flag) changes nothing.")
                }
                if (try? parse([flag + "=x"])) != nil { problems.append("\(flag) accepts a value.") }
                continue
            }
            if let text = option.defaultArgument(defaults) {
                if let values = try? parse([flag, text]).values {
                    if !option.agrees(values, defaults) {
                        problems.append("\(flag) \(text) does not give the default back.")
                    }
                } else {
                    problems.append("\(flag) refuses its own default \"\(text)\".")
                }
            }
            for text in option.acceptedExamples {
                if (try? parse([flag, text])) == nil || (try? parse([flag + "=" + text])) == nil {
                    problems.append("\(flag) refuses \"\(text)\", which it should accept.")
                }
            }
            for text in option.refusedExamples {
                do {
                    _ = try parse([flag, text])
                    problems.append("\(flag) accepts \"\(text)\", which it should refuse.")
                } catch {
                    if !error.message.hasPrefix("\(flag) must be ") {
                        problems.append("\(flag) refuses \"\(text)\" unclearly.")
                    }
                }
            }
        }
        return problems
    }

    /// The error for an option nobody declared, suggesting the nearest known one when one is near.
    func unknownOption(_ name: String) -> UsageError {
        var known = options.filter { !$0.isHidden }.flatMap(\.names) + ["--help"]
        if hasVersion { known.append("--version") }
        let scored = known.map { (name: $0, distance: editDistance(name, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(2, name.count / 4) {
            return error("Unknown option \(name); did you mean \(best.name)?")
        }
        if let started = known.first(where: { $0.hasPrefix(name) && name.count > 3 }) {
            return error("Unknown option \(name); did you mean \(started)?")
        }
        return error("Unknown option \(name).")
    }

    /// The `--help` text: the introduction, every visible option by section with its allowed values and default,
    /// then the closing text.
    public var helpText: String {
        typealias Row = (signature: String, text: String, shownDefault: String?)
        var sections: [(heading: String, rows: [Row])] = []
        for option in options where !option.isHidden {
            let shortNames = option.aliases.filter { $0.count == 2 }
            var signature = (shortNames + [option.flag]).joined(separator: ", ")
            if let placeholder = option.placeholder { signature += " " + placeholder }
            let text = option.help + (option.allowed.map { " (\($0))" } ?? "")
            let row: Row = (signature, text, option.shownDefault(defaults))
            if let index = sections.firstIndex(where: { $0.heading == option.section }) {
                sections[index].rows.append(row)
            } else {
                sections.append((heading: option.section, rows: [row]))
            }
        }
        var builtIns: [Row] = [("-h, --help", "this text", nil)]
        if hasVersion { builtIns.append(("--version", "the version", nil)) }
        if sections.isEmpty { sections.append((heading: "OPTIONS", rows: [])) }
        sections[sections.count - 1].rows += builtIns

        let signatureWidth = min(28, sections.flatMap(\.rows).map(\.signature.count).max() ?? 0)
        let column = 2 + signatureWidth + 2
        var lines: [String] = []
        for section in sections {
            lines.append("")
            lines.append(section.heading)
            for row in section.rows {
                lines += Self.layOut(
                    signature: row.signature, text: row.text, shownDefault: row.shownDefault,
                    column: column, width: Self.helpWidth)
            }
        }
        var parts = [introduction.trimmingTrailingNewlines(), lines.joined(separator: "\n")]
        if !closing.isEmpty { parts.append("\n" + closing.trimmingTrailingNewlines()) }
        return parts.joined(separator: "\n")
    }

    /// One option's help lines: the signature, the sentence wrapped from `column`, and the default in brackets at the
    /// right edge (on a line of its own when the sentence leaves no room).
    static func layOut(signature: String, text: String, shownDefault: String?, column: Int, width: Int) -> [String] {
        var wrapped = wrap(text, width: width - column)
        let first = "  " + signature
        var lines: [String]
        if first.count + 2 <= column {
            lines = [first.padding(to: column) + (wrapped.isEmpty ? "" : wrapped.removeFirst())]
        } else if let head = wrapped.first, first.count + 2 + head.count <= width {
            lines = [first + "  " + wrapped.removeFirst()]
        } else {
            lines = [first]
        }
        lines += wrapped.map { String(repeating: " ", count: column) + $0 }
        guard let bracket = shownDefault.map({ "[\($0)]" }) else { return lines }
        if lines[lines.count - 1].count + 2 + bracket.count <= width {
            lines[lines.count - 1] = lines[lines.count - 1].padding(to: width - bracket.count) + bracket
        } else if column + bracket.count <= width {
            lines.append(String(repeating: " ", count: width - bracket.count) + bracket)
        } else {
            lines += wrap(bracket, width: width - column).map { String(repeating: " ", count: column) + $0 }
        }
        return lines
    }

    /// `text` broken into lines of at most `width` characters at spaces (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    /// The text with spaces added up to `width` characters (unchanged when already as long).
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The text without the newlines at its end.
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

/// How many single-character insertions, deletions or substitutions turn `a` into `b`.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
