// The operator's listings: the Queen's command library, quiz packs and every other content kind (PROTOCOL.md
// §6.4).

/// One command of the Queen's library.
public struct LibraryEntry: Codable, Sendable, Equatable {
    /// Its id (`b01`… built-in, `u1`… the operator's).
    public var id: String
    /// Its text with placeholders.
    public var text: String
    /// Who it is for (`citizenToCitizen`, …).
    public var kind: String
    /// `mild`, `medium` or `bold`.
    public var difficulty: String
    /// Whether it ships with the host.
    public var builtin: Bool
    /// Whether the operator hid it.
    public var hidden: Bool

    /// Creates an entry.
    public init(id: String, text: String, kind: String, difficulty: String, builtin: Bool, hidden: Bool) {
        self.id = id
        self.text = text
        self.kind = kind
        self.difficulty = difficulty
        self.builtin = builtin
        self.hidden = hidden
    }
}

/// The Queen's commands (reply to `library` `list` or `search`).
public struct LibraryListing: HostMessage {
    public static let type = "library"
    /// The commands, sorted by text.
    public var commands: [LibraryEntry]

    /// Creates a listing.
    public init(commands: [LibraryEntry]) { self.commands = commands }

    public func line(for reader: Perspective) -> String? {
        guard !commands.isEmpty else { return "No commands match." }
        return (["Commands:"] + commands.map { "  \($0.id)  \($0.text)" }).joined(separator: "\n")
    }
}

/// One quiz pack in a listing.
public struct PackEntry: Codable, Sendable, Equatable {
    /// The pack's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host (read-only).
    public var builtin: Bool
    /// How many questions it has.
    public var questions: Int
    /// How many are easy.
    public var easy: Int
    /// How many are medium.
    public var medium: Int
    /// How many are hard.
    public var hard: Int

    /// Creates an entry.
    public init(id: String, name: String, builtin: Bool, questions: Int, easy: Int, medium: Int, hard: Int) {
        self.id = id
        self.name = name
        self.builtin = builtin
        self.questions = questions
        self.easy = easy
        self.medium = medium
        self.hard = hard
    }
}

/// The quiz packs (reply to `packs` `list`).
public struct PackListing: HostMessage {
    public static let type = "packs"
    /// The packs.
    public var packs: [PackEntry]

    /// Creates a listing.
    public init(packs: [PackEntry]) { self.packs = packs }

    public func line(for reader: Perspective) -> String? {
        let rows = packs.map {
            "  \($0.id)  \($0.name)  \(Wording.count($0.questions, "question"))\($0.builtin ? " (built-in)" : "")"
        }
        return (["Quiz packs:"] + rows).joined(separator: "\n")
    }
}

/// One question of a pack, with its answer (operators only).
public struct PackQuestion: Codable, Sendable, Equatable {
    /// `easy`, `medium` or `hard`.
    public var difficulty: String
    /// The question.
    public var text: String
    /// The answer.
    public var answer: String

    /// Creates a question.
    public init(difficulty: String, text: String, answer: String) {
        self.difficulty = difficulty
        self.text = text
        self.answer = answer
    }
}

/// One pack with its questions and answers (reply to `packs` `show`).
public struct PackDetail: HostMessage {
    public static let type = "pack"
    /// The pack's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host.
    public var builtin: Bool
    /// Its questions.
    public var questions: [PackQuestion]

    /// Creates a pack detail.
    public init(id: String, name: String, builtin: Bool, questions: [PackQuestion]) {
        self.id = id
        self.name = name
        self.builtin = builtin
        self.questions = questions
    }

    public func line(for reader: Perspective) -> String? {
        let rows = questions.enumerated().map { index, question in
            "  \(index + 1). [\(question.difficulty)] \(question.text) → \(question.answer)"
        }
        return (["Pack \(id): \(name)"] + rows).joined(separator: "\n")
    }
}

/// One item of a content kind in a listing (a station hunt, a word list, a puzzle pack…).
public struct ContentItem: Codable, Sendable, Equatable {
    /// Its id.
    public var id: String
    /// Its name for people.
    public var name: String
    /// Whether it ships with the host (read-only).
    public var builtin: Bool
    /// A few words about its size ("5 stations", "3 levels, 73 words").
    public var summary: String

    /// Creates an item.
    public init(id: String, name: String, builtin: Bool, summary: String) {
        self.id = id
        self.name = name
        self.builtin = builtin
        self.summary = summary
    }
}

/// The items of one content kind (reply to `{"type":KIND,"action":"list"}` or `KIND list` on the console).
public struct ContentListing: HostMessage {
    public static let type = "contents"
    /// The content kind's request type (`hunts`, `words`, `boards`, `puzzles`).
    public var kind: String
    /// The items, built-in first.
    public var items: [ContentItem]

    /// Creates a listing.
    public init(kind: String, items: [ContentItem]) {
        self.kind = kind
        self.items = items
    }

    public func line(for reader: Perspective) -> String? {
        guard !items.isEmpty else { return "No \(kind) yet." }
        // Columns line up (an id or name longer than its cap runs over instead of widening every row).
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        let idWidth = min(24, items.map(\.id.count).max() ?? 0)
        let nameWidth = min(32, items.map(\.name.count).max() ?? 0)
        let rows = items.map {
            "  \(padded($0.id, idWidth))  \(padded($0.name, nameWidth))  \($0.summary)\($0.builtin ? " (built-in)" : "")"
        }
        return ([kind.prefix(1).uppercased() + kind.dropFirst() + ":"] + rows).joined(separator: "\n")
    }
}

/// One item of a content kind in full, as its JSON file holds it (operators only: it may hold answers and codes).
public struct ContentDetail: HostMessage {
    public static let type = "content"
    /// The content kind's request type.
    public var kind: String
    /// The item's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host.
    public var builtin: Bool
    /// The item as its JSON file holds it.
    public var item: JSONValue
    /// The item for people, one line each.
    public var lines: [String]

    /// Creates a detail.
    public init(kind: String, id: String, name: String, builtin: Bool, item: JSONValue, lines: [String]) {
        self.kind = kind
        self.id = id
        self.name = name
        self.builtin = builtin
        self.item = item
        self.lines = lines
    }

    public func line(for reader: Perspective) -> String? {
        (["\(id): \(name)\(builtin ? " (built-in)" : "")"] + lines.map { "  " + $0 }).joined(separator: "\n")
    }
}
