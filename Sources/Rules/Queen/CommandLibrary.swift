import Common

/// Who a Queen's command involves.
public enum CommandKind: String, CaseIterable, Codable, Sendable, Hashable {
    /// Numbered players do something with each other.
    case citizenToCitizen
    /// Numbered players do something for the whole room.
    case citizenToAll
    /// Numbered players do something for the Queen.
    case citizenToQueen

    /// How people type it: `citizen-to-all`.
    public var spelled: String {
        switch self {
        case .citizenToCitizen: "citizen-to-citizen"
        case .citizenToAll: "citizen-to-all"
        case .citizenToQueen: "citizen-to-queen"
        }
    }

    /// The kind `text` names, however it is written (`citizen-to-all`, `citizenToAll`, `Citizen to all`).
    public static func named(_ text: String) -> CommandKind? {
        let folded = String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic }.map(Character.init))
        return allCases.first { $0.rawValue.lowercased() == folded }
    }

    /// Every kind as people type it, for messages: `citizen-to-citizen, citizen-to-all, citizen-to-queen`.
    public static var spelledList: String { allCases.map(\.spelled).joined(separator: ", ") }
}

/// How much a Queen's command asks of the players.
public enum CommandDifficulty: String, CaseIterable, Codable, Sendable, Hashable, Comparable {
    /// Easy for anyone.
    case mild
    /// Asks for a little performing.
    case medium
    /// Asks for a real performance (still friendly and safe).
    case bold

    /// Orders difficulties from mild to bold.
    public static func < (lhs: CommandDifficulty, rhs: CommandDifficulty) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One command the Queen can give, with `{1}`, `{2}`, … and `{queen}` placeholders.
public struct QueenCommand: Codable, Sendable, Hashable, Identifiable {
    /// A stable identifier: `b01`… for built-ins, `u1`… for the operator's own commands.
    public var id: String
    /// The command text with its placeholders.
    public var text: String
    /// Who the command involves.
    public var kind: CommandKind
    /// How much the command asks.
    public var difficulty: CommandDifficulty
    /// Whether the command ships with the host (and so is read-only).
    public var isBuiltin: Bool

    /// Creates a command.
    public init(id: String, text: String, kind: CommandKind, difficulty: CommandDifficulty, isBuiltin: Bool = false) {
        self.id = id
        self.text = text
        self.kind = kind
        self.difficulty = difficulty
        self.isBuiltin = isBuiltin
    }
}

/// The commands a Queen can choose from: the built-ins (read-only, but hideable) plus the operator's own.
///
/// Only the operator's part is persisted (`Stored`); the built-ins always come from the code, so an update
/// of the host brings new built-ins without touching saved files. Encoding a library encodes its `Stored` form.
public struct CommandLibrary: Sendable, Equatable, Codable {
    /// The operator's part of a library, as saved to disk.
    public struct Stored: Codable, Sendable, Equatable {
        /// The operator's own commands, in the order they were added.
        public var userCommands: [QueenCommand]
        /// Ids of built-ins the operator has hidden, sorted.
        public var hiddenBuiltinIDs: [String]
        /// The number in the id of the next command added (`u<nextID>`).
        public var nextID: Int

        /// Creates a stored library; the defaults are an untouched one.
        public init(userCommands: [QueenCommand] = [], hiddenBuiltinIDs: [String] = [], nextID: Int = 1) {
            self.userCommands = userCommands
            self.hiddenBuiltinIDs = hiddenBuiltinIDs
            self.nextID = nextID
        }
    }

    /// The commands that ship with the host.
    public let builtins: [QueenCommand]
    /// The operator's own commands, in the order they were added.
    public private(set) var userCommands: [QueenCommand]
    /// Ids of hidden built-ins.
    public private(set) var hiddenBuiltinIDs: Set<String>
    /// The number in the id of the next command added.
    private var nextID: Int

    /// Creates a library from `builtins` and the operator's saved part.
    ///
    /// A hand-edited file is tidied rather than refused: user commands are marked non-built-in, their text is made
    /// safe to show (`TerminalText.sanitized`; a command left empty is dropped), commands whose id is already taken
    /// are dropped, unknown hidden ids are ignored, and `nextID` is raised past every used id.
    public init(builtins: [QueenCommand] = BuiltinCommands.all, stored: Stored = Stored()) {
        self.builtins = builtins
        var seen = Set(builtins.map(\.id))
        var user: [QueenCommand] = []
        var next = max(stored.nextID, 1)
        for var command in stored.userCommands where seen.insert(command.id).inserted {
            command.isBuiltin = false
            command.text = TerminalText.sanitized(command.text, keepingLineBreaks: false)
            if command.text.allSatisfy(\.isWhitespace) { continue }
            user.append(command)
            if command.id.hasPrefix("u"), let number = Int(command.id.dropFirst()), number >= next {
                next = number + 1
            }
        }
        userCommands = user
        hiddenBuiltinIDs = Set(stored.hiddenBuiltinIDs).intersection(builtins.map(\.id))
        nextID = next
    }

    /// The part to save: the operator's commands, the hidden built-ins and the id counter.
    public var stored: Stored {
        Stored(userCommands: userCommands, hiddenBuiltinIDs: hiddenBuiltinIDs.sorted(), nextID: nextID)
    }

    /// Decodes a `Stored` form and pairs it with the built-ins of this version of the host.
    public init(from decoder: any Decoder) throws {
        self.init(stored: try Stored(from: decoder))
    }

    /// Encodes the `Stored` form.
    public func encode(to encoder: any Encoder) throws {
        try stored.encode(to: encoder)
    }

    /// Every command, hidden or not: built-ins first, then the operator's, each in their own order.
    public var allCommands: [QueenCommand] { builtins + userCommands }

    /// The commands a game may use (built-ins not hidden, plus the operator's), sorted by folded text.
    public var visibleCommands: [QueenCommand] { commands() }

    /// The command with `id`, hidden or not.
    public func command(id: String) -> QueenCommand? {
        allCommands.first { $0.id == id }
    }

    /// Whether `id` names a hidden built-in.
    public func isHidden(id: String) -> Bool { hiddenBuiltinIDs.contains(id) }

    /// Commands whose text contains `query` (ignoring case and accents) and whose kind and difficulty are
    /// allowed, sorted alphabetically by folded text (ties by id).
    public func commands(
        matching query: String = "",
        kinds: Set<CommandKind> = Set(CommandKind.allCases),
        difficulties: Set<CommandDifficulty> = Set(CommandDifficulty.allCases),
        includingHidden: Bool = false
    ) -> [QueenCommand] {
        let matching = allCommands.filter { command in
            guard includingHidden || !isHidden(id: command.id) else { return false }
            guard kinds.contains(command.kind), difficulties.contains(command.difficulty) else { return false }
            return TextFolding.contains(command.text, query)
        }
        let keyed: [(key: String, command: QueenCommand)] = matching.map { (TextFolding.fold($0.text), $0) }
        return
            keyed
            .sorted { $0.key != $1.key ? $0.key < $1.key : $0.command.id < $1.command.id }
            .map(\.command)
    }

    /// Adds an operator command with a fresh id (`u1`, `u2`, …) and returns it.
    ///
    /// Throws `empty_command`, `command_too_long`, `bad_placeholder` or `duplicate_command`.
    @discardableResult
    public mutating func add(text: String, kind: CommandKind, difficulty: CommandDifficulty) throws(RuleError)
        -> QueenCommand
    {
        let checked = try checkedText(text, replacing: nil)
        let command = QueenCommand(id: "u\(nextID)", text: checked, kind: kind, difficulty: difficulty)
        nextID += 1
        userCommands.append(command)
        return command
    }

    /// Replaces the text, kind and difficulty of the operator command `id` and returns it.
    ///
    /// Throws `unknown_command`, `read_only` for a built-in, or the same text errors as `add`.
    @discardableResult
    public mutating func edit(id: String, text: String, kind: CommandKind, difficulty: CommandDifficulty)
        throws(RuleError) -> QueenCommand
    {
        let index = try userIndex(of: id)
        let checked = try checkedText(text, replacing: id)
        userCommands[index].text = checked
        userCommands[index].kind = kind
        userCommands[index].difficulty = difficulty
        return userCommands[index]
    }

    /// Deletes the operator command `id`; throws `unknown_command`, or `read_only` for a built-in.
    public mutating func delete(id: String) throws(RuleError) {
        userCommands.remove(at: try userIndex(of: id))
    }

    /// Hides the built-in `id` from games; throws `unknown_command`, or `not_builtin` for an operator command.
    public mutating func hide(id: String) throws(RuleError) {
        try requireBuiltin(id)
        hiddenBuiltinIDs.insert(id)
    }

    /// Shows the built-in `id` again; throws `unknown_command`, or `not_builtin` for an operator command.
    public mutating func unhide(id: String) throws(RuleError) {
        try requireBuiltin(id)
        hiddenBuiltinIDs.remove(id)
    }

    /// The index of operator command `id`, or why it cannot be changed.
    private func userIndex(of id: String) throws(RuleError) -> Int {
        if let index = userCommands.firstIndex(where: { $0.id == id }) { return index }
        if builtins.contains(where: { $0.id == id }) {
            throw RuleError(
                .readOnly,
                "Built-in commands can't be changed or deleted; hide it and add your own version instead.")
        }
        throw Self.unknown(id)
    }

    /// Throws unless `id` names a built-in.
    private func requireBuiltin(_ id: String) throws(RuleError) {
        if builtins.contains(where: { $0.id == id }) { return }
        if userCommands.contains(where: { $0.id == id }) {
            throw RuleError(.notBuiltin, "Only built-in commands can be hidden; delete your own commands instead.")
        }
        throw Self.unknown(id)
    }

    /// `text` validated and trimmed, refused if a visible command other than `replacing` already says the same.
    private func checkedText(_ text: String, replacing id: String?) throws(RuleError) -> String {
        let checked = try CommandTemplate(text).text
        let key = TextFolding.fold(checked)
        let clash = allCommands.first { command in
            command.id != id && !isHidden(id: command.id) && TextFolding.fold(command.text) == key
        }
        if let clash {
            throw RuleError(.duplicateCommand, "The library already has this command (\(clash.id)): \(clash.text)")
        }
        return checked
    }

    /// The refusal for an id that names no command.
    private static func unknown(_ id: String) -> RuleError {
        RuleError(.unknownCommand, "There is no command with id \(id) in the library.")
    }
}
