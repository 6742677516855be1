/// The operator's options for a Queen's game; every field has a default, also when decoding.
public struct QueenSettings: Codable, Sendable, Equatable {
    /// The most players a Queen's game can ever take, whatever the settings.
    public static let playerLimit = 30
    /// The player counts the minimum and the maximum may be set to (at least 3, so the numbers stay secret).
    public static let playerCountRange = 3...playerLimit
    /// The time the Queen may be given to choose a command, in seconds.
    public static let chooseSecondsRange = 1...3600
    /// The countdowns between the command and the reveal an operator may set, in seconds.
    public static let countdownSecondsRange = 0...600
    /// The pauses after the reveal an operator may set, in seconds (0, like nil, waits for `next`).
    public static let autoNextSecondsRange = 0...3600

    /// Fewest players needed to deal (at least 3, so the numbers stay secret).
    public var minPlayers = 3
    /// Most players who may play, up to `playerLimit`.
    public var maxPlayers = 9
    /// Seconds the Queen has to give her command before one is picked for her.
    public var chooseSeconds = 60
    /// Seconds between the command and the reveal of the numbers.
    public var countdownSeconds = 5
    /// Seconds after the reveal before the next deal, or nil to wait for the operator's `next`.
    public var autoNextSeconds: Int?
    /// Kinds of library command the game may use.
    public var kinds = Set(CommandKind.allCases)
    /// Difficulties of library command the game may use.
    public var difficulties = Set(CommandDifficulty.allCases)

    /// Creates settings; omitted arguments take the defaults.
    public init(
        minPlayers: Int = 3, maxPlayers: Int = 9, chooseSeconds: Int = 60, countdownSeconds: Int = 5,
        autoNextSeconds: Int? = nil, kinds: Set<CommandKind> = Set(CommandKind.allCases),
        difficulties: Set<CommandDifficulty> = Set(CommandDifficulty.allCases)
    ) {
        self.minPlayers = minPlayers
        self.maxPlayers = maxPlayers
        self.chooseSeconds = chooseSeconds
        self.countdownSeconds = countdownSeconds
        self.autoNextSeconds = autoNextSeconds
        self.kinds = kinds
        self.difficulties = difficulties
    }

    /// Decodes settings, taking the default for every missing field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = QueenSettings()
        minPlayers = try container.decodeIfPresent(Int.self, forKey: .minPlayers) ?? defaults.minPlayers
        maxPlayers = try container.decodeIfPresent(Int.self, forKey: .maxPlayers) ?? defaults.maxPlayers
        chooseSeconds = try container.decodeIfPresent(Int.self, forKey: .chooseSeconds) ?? defaults.chooseSeconds
        countdownSeconds =
            try container.decodeIfPresent(Int.self, forKey: .countdownSeconds)
            ?? defaults.countdownSeconds
        autoNextSeconds = try container.decodeIfPresent(Int.self, forKey: .autoNextSeconds)
        kinds = try container.decodeIfPresent(Set<CommandKind>.self, forKey: .kinds) ?? defaults.kinds
        difficulties =
            try container.decodeIfPresent(Set<CommandDifficulty>.self, forKey: .difficulties)
            ?? defaults.difficulties
    }

    /// Throws `bad_settings` with the first setting that is out of range.
    public func validate() throws(RuleError) {
        func refuse(_ message: String) -> RuleError { RuleError(.badSettings, message) }
        guard minPlayers >= Self.playerCountRange.lowerBound else {
            throw refuse("The Queen's game needs at least 3 players; the minimum can't be \(minPlayers).")
        }
        guard maxPlayers <= Self.playerCountRange.upperBound else {
            throw refuse(
                "At most \(Self.playerLimit) players can play the Queen's game; the limit can't be \(maxPlayers).")
        }
        guard maxPlayers >= minPlayers else {
            throw refuse(
                "The player limit (\(maxPlayers)) can't be below the minimum number of players (\(minPlayers)).")
        }
        func check(_ value: Int, in range: ClosedRange<Int>, _ what: String) throws(RuleError) {
            guard range.contains(value) else {
                throw refuse("\(what) must be \(range.lowerBound) to \(range.upperBound) seconds, not \(value).")
            }
        }
        try check(chooseSeconds, in: Self.chooseSecondsRange, "The Queen's time to choose a command")
        try check(countdownSeconds, in: Self.countdownSecondsRange, "The countdown before the reveal")
        if let autoNextSeconds {
            try check(autoNextSeconds, in: Self.autoNextSecondsRange, "The pause before the next deal")
        }
    }

    /// Whether a library command's kind and difficulty are allowed in this game.
    public func allows(_ command: QueenCommand) -> Bool {
        kinds.contains(command.kind) && difficulties.contains(command.difficulty)
    }
}
