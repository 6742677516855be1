/// One option a game's `start` takes, declared once on the mode's wire in the argument-parser style (key, kind,
/// default, help): the `start` usage, the key=value reading, the host's reading and range errors, the "did you mean"
/// suggestions, the console help, PROTOCOL.md §8.1's table and the host's house-rule flags are all derived from it.
public struct StartOption: Sendable, Equatable {
    /// What the option's value is.
    public enum Kind: Sendable, Equatable {
        /// A whole number within a range (`questions` 1…500).
        case wholeNumber(ClosedRange<Int>)
        /// On or off (`strict`).
        case flag
        /// One word, such as an id (`hunt`, `list`).
        case word
        /// One of a few words, in any case (`difficulty`: easy, medium, hard, mixed).
        case choice([String])
        /// A comma-separated list of words, or a JSON array of strings (`packs`, `teams`).
        case list
    }

    /// The JSON key (`answerSeconds`); the console spells it `answer-seconds`.
    public var key: String
    /// What the value is, with its range or choices.
    public var kind: Kind
    /// The default when the option is absent, or nil when it has none or it depends on the room or the content.
    public var defaultValue: JSONValue?
    /// What the default means in words, shown after the value or alone (`all built-in packs`, `bingo: 0`).
    public var defaultNote: String?
    /// The help sentence (`buzz clock`).
    public var help: String
    /// The host's command-line flag that sets this option's default for every game (`--answer-seconds`).
    public var houseRule: String?
    /// The word for it in a typed `start` line's usage when a bare word sets it (`QUESTIONS`, `PACK,PACK…`); a
    /// choice's bare word is one of its choices.
    public var bareWord: String?
    /// Whether a typed `start` must name it (the usage shows it without brackets).
    public var isRequired: Bool
    /// Bare words that switch a flag on (`strict`, `--strict`).
    public var switchWords: [String]

    /// Declares an option; the static helpers below read better.
    public init(
        key: String, kind: Kind, defaultValue: JSONValue? = nil, defaultNote: String? = nil, help: String,
        houseRule: String? = nil, bareWord: String? = nil, isRequired: Bool = false, switchWords: [String] = []
    ) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.help = help
        self.houseRule = houseRule
        self.bareWord = bareWord
        self.isRequired = isRequired
        self.switchWords = switchWords
    }

    /// A whole number within `range`.
    public static func number(
        _ key: String, _ range: ClosedRange<Int>, default value: Int?, note: String? = nil, help: String,
        houseRule: String? = nil, bareWord: String? = nil
    ) -> StartOption {
        StartOption(
            key: key, kind: .wholeNumber(range), defaultValue: value.map { .int(Int64($0)) }, defaultNote: note,
            help: help, houseRule: houseRule, bareWord: bareWord)
    }

    /// An on/off option.
    public static func flag(
        _ key: String, default value: Bool = false, help: String, houseRule: String? = nil, switchWords: [String] = []
    ) -> StartOption {
        StartOption(
            key: key, kind: .flag, defaultValue: .bool(value), help: help, houseRule: houseRule,
            switchWords: switchWords)
    }

    /// One of `choices`; `isBare` lets a bare choice word set it.
    public static func choice(
        _ key: String, _ choices: [String], default value: String?, help: String, houseRule: String? = nil,
        isBare: Bool = false
    ) -> StartOption {
        StartOption(
            key: key, kind: .choice(choices), defaultValue: value.map(JSONValue.string), help: help,
            houseRule: houseRule, bareWord: isBare ? choices.joined(separator: "|") : nil)
    }

    /// One word, such as an id.
    public static func word(
        _ key: String, default value: String? = nil, note: String? = nil, help: String, bareWord: String? = nil,
        isRequired: Bool = false
    ) -> StartOption {
        StartOption(
            key: key, kind: .word, defaultValue: value.map(JSONValue.string), defaultNote: note, help: help,
            bareWord: bareWord, isRequired: isRequired)
    }

    /// A list of words.
    public static func list(_ key: String, note: String, help: String, bareWord: String? = nil) -> StartOption {
        StartOption(key: key, kind: .list, defaultNote: note, help: help, bareWord: bareWord)
    }

    /// How the console spells the key (`answerSeconds` → `answer-seconds`).
    public var spokenKey: String { StartOption.spoken(key) }

    /// How the console spells `key` (`answerSeconds` → `answer-seconds`).
    public static func spoken(_ key: String) -> String {
        var text = ""
        for character in key {
            if character.isUppercase {
                text += "-" + character.lowercased()
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// The default as a person reads it (`10`, `mixed`, `all built-in packs`, `3 (bingo: 0)`), nil when none.
    public var shownDefault: String? {
        let value = defaultValue.map(StartOption.written)
        switch (value, defaultNote) {
        case (let value?, let note?): return "\(value) (\(note))"
        case (let value?, nil): return value
        case (nil, let note?): return note
        case (nil, nil): return nil
        }
    }

    /// `value` as typed on the console.
    static func written(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return value.description
        }
    }

    /// What the value may be, in short: `1…500`, `easy|medium|hard|mixed`, `on|off`, `A,B…`, `WORD`.
    public var valueForm: String {
        switch kind {
        case .wholeNumber(let range): return "\(range.lowerBound)…\(range.upperBound)"
        case .flag: return "on|off"
        case .word: return "WORD"
        case .choice(let choices): return choices.joined(separator: "|")
        case .list: return "A,B…"
        }
    }

    /// The console's help for a game's options, `key=form` each, wrapped to `width` columns after `indent`.
    public static func helpLines(_ options: [StartOption], indent: String, width: Int = 100) -> [String] {
        var lines: [String] = []
        var line = indent + "options:"
        for option in options {
            let part = " \(option.spokenKey)=\(option.valueForm)"
            if line.count + part.count > width {
                lines.append(line)
                line = indent + "        "
            }
            line += part
        }
        lines.append(line)
        return lines
    }
}

extension StartGrammar {
    /// The grammar `options` give game `name`: bare words set the options with a `bareWord` (in their order, which
    /// is also the usage's), switch words set flags, and list options read `key=a,b` as a list.
    public init(game name: String, options: [StartOption], example: String? = nil) {
        var count: String?
        var choices: [(key: String, values: [String])] = []
        var flags: [String: String] = [:]
        var rest: (key: String, isList: Bool)?
        var usage = "start \(name)"
        for option in options {
            for word in option.switchWords { flags[word.lowercased()] = option.key }
            guard let bare = option.bareWord else { continue }
            usage += option.isRequired ? " \(bare)" : " [\(bare)]"
            switch option.kind {
            case .wholeNumber: count = option.key
            case .choice(let values): choices.append((option.key, values))
            case .word: rest = (option.key, false)
            case .list: rest = (option.key, true)
            case .flag: break
            }
        }
        usage += " [key=value …]"
        self.init(
            count: count, choices: choices, flags: flags, rest: rest,
            listKeys: Set(options.filter { $0.kind == .list }.map(\.key)), usage: usage, example: example)
        self.options = options
    }
}
