/// The command the Queen gave in a round, with the numbers it named.
public struct QueenOrder: Codable, Sendable, Equatable {
    /// The command with its placeholders filled in.
    public var text: String
    /// The numbers the command names: those drawn for `{1}`, `{2}` … in placeholder order, then those the
    /// Queen named as written ("No. 2"), in order of mention.
    public var targets: [Int]
    /// When the numbers are revealed (moves on when the game is paused and resumed).
    public var revealAt: Instant

    /// Creates an order.
    public init(text: String, targets: [Int], revealAt: Instant) {
        self.text = text
        self.targets = targets
        self.revealAt = revealAt
    }
}

/// One dealt round: who is Queen and the secret number every other player holds.
public struct QueenRound: Codable, Sendable, Equatable {
    /// The round number, counted from 1.
    public var number: Int
    /// The Queen of this round.
    public var queen: String
    /// Everyone dealt into the round, Queen included, in roster order.
    public var players: [String]
    /// Each numbered player's secret number; together they are 1…`players.count - 1`.
    public var numbers: [String: Int]
    /// The 16 random bytes salting this deal's commitment.
    public var salt: [UInt8]
    /// The Queen's command, once given.
    public var order: QueenOrder?
}

/// A finished round as it goes into the game's history.
public struct QueenRoundRecord: Codable, Sendable, Equatable {
    /// The round number.
    public var round: Int
    /// Who was Queen.
    public var queen: String
    /// Each numbered player's number.
    public var numbers: [String: Int]
    /// The command as given, placeholders filled.
    public var command: String
    /// The players the command named, in placeholder order.
    public var targets: [String]
    /// The deal's commitment salt, so the round can still be verified later.
    public var salt: [UInt8]
}

/// The Queen's game (the King's game with a Queen): each round one player is Queen, everyone else holds a
/// secret number, and the Queen commands numbers without knowing who holds them until the reveal.
///
/// A round runs `choosing` → `countdown` → `revealed`; the next deal starts the next round. Players may join
/// or leave at any time, but the roster only matters at the next deal: a running round keeps the numbers it dealt.
public struct QueenGame: SteeredMode, Sendable, Equatable, Codable {
    /// What the Queen commands: a command of this game's list, or her own words.
    public enum CommandChoice: Codable, Sendable, Equatable {
        /// The game's library command with this id.
        case template(id: String)
        /// Her own text with `{1}`, `{2}`, … and `{queen}` placeholders, or numbers named as written ("No. 2").
        case text(String)
    }

    /// Everything that can happen to a Queen's game; journaled, so Codable.
    public enum Event: SteerableEvent, Sendable, Equatable {
        /// Deals the first or the next round (operator).
        case deal
        /// The Queen gives her command.
        case command(player: String, choice: CommandChoice)
        /// A player joins; they are dealt in from the next deal.
        case addPlayer(String)
        /// A player leaves; they are left out from the next deal.
        case removePlayer(String)
        /// The operator steers: `next` deals the next round (as `deal`), `pause` and `resume` freeze and restart
        /// the clocks, `end` ends the game.
        case steer(Steering)
        /// The host's clock reached `nextDeadline`.
        case tick

        /// The operator's "next round".
        public static var next: Event { .steer(.next) }
        /// Freezes the clocks.
        public static var pause: Event { .steer(.pause) }
        /// Restarts the clocks where they stopped.
        public static var resume: Event { .steer(.resume) }
        /// Ends the game.
        public static var end: Event { .steer(.end) }
    }

    /// What the host must announce.
    public enum Effect: Sendable, Equatable {
        /// A round was dealt: tell everyone its number, Queen, players and commitment salt.
        case round(number: Int, queen: String, players: [String], salt: [UInt8])
        /// Tell `player`, and only them, their secret number.
        case secret(player: String, number: Int)
        /// The Queen's command (given or picked at her timeout), revealed at `revealAt`.
        case order(text: String, targets: [Int], revealAt: Instant)
        /// The reveal: every number, who the command named, and the salt that opens the commitment.
        case revealed(numbers: [String: Int], targets: [String], salt: [UInt8], round: Int)
        /// The automatic next deal could not happen (e.g. too few players); the game waits for `next`.
        case dealDeferred(RuleError)
        /// The clocks are frozen.
        case paused
        /// The clocks run again; `nextDeadline` is the moved deadline, if any.
        case resumed(nextDeadline: Instant?)
        /// The game is over; the summary of every revealed round.
        case ended(history: [QueenRoundRecord])
    }

    /// Where the game stands.
    public enum Phase: String, Codable, Sendable, CaseIterable {
        /// No round dealt yet.
        case waitingForDeal
        /// The Queen is choosing her command.
        case choosing
        /// The command is out; the numbers are revealed when the countdown ends.
        case countdown
        /// The numbers are revealed; the next deal may start.
        case revealed
        /// The game has ended.
        case finished
    }

    /// The options the game was started with.
    public let settings: QueenSettings
    /// The library commands this game may use (after the settings' kind and difficulty filters).
    public let commands: [QueenCommand]
    /// Who will be dealt in at the next deal, in the order they joined.
    public private(set) var players: [String]
    /// Where the game stands.
    public private(set) var phase: Phase = .waitingForDeal
    /// Whether the clocks run or stand still (the operator's pause).
    public var clock = GameClock()
    /// The round being played, or the last one revealed.
    public private(set) var currentRound: QueenRound?
    /// Every revealed round, oldest first.
    public private(set) var history: [QueenRoundRecord] = []
    /// When the current phase times out (moved on by every pause).
    private var deadline: Instant?
    /// The game's only source of randomness.
    private var rng: SplitMix64
    /// The commands given so far in this game (as written, placeholders unfilled), oldest first.
    public private(set) var givenCommands: [String] = []
    /// The `playedKey`s of commands given in earlier games tonight: the automatic command draws them last.
    private let playedEarlier: Set<String>

    /// How tonight's "already played" list names a command: by its folded text, apart from quiz questions.
    public static func playedKey(_ command: String) -> String { "command:" + TextFolding.fold(command) }

    /// Starts a game with `players` (who will be dealt at the first `deal`), the operator's `settings`, the
    /// library `commands` to use when the Queen runs out of time (those whose `playedKey` is in `playedEarlier`
    /// last), and the `seed` fixing every random choice.
    ///
    /// Throws `bad_settings`, `duplicate_player`, `too_few_players` or `too_many_players`.
    public init(
        players: [String], settings: QueenSettings = QueenSettings(), commands: [QueenCommand],
        seed: UInt64, playedEarlier: Set<String> = []
    ) throws(RuleError) {
        self.playedEarlier = playedEarlier
        try settings.validate()
        if let duplicate = players.enumerated().first(where: { players[..<$0.offset].contains($0.element) }) {
            throw RuleError(.duplicatePlayer, "\(duplicate.element) is in the player list twice.")
        }
        try Self.checkPlayerCount(players.count, settings)
        self.settings = settings
        self.commands = commands.filter { settings.allows($0) && (try? CommandTemplate($0.text)) != nil }
        self.players = players
        self.rng = SplitMix64(seed: seed)
    }

    /// The number of the current (or last) round; 0 before the first deal.
    public var roundNumber: Int { currentRound?.number ?? 0 }

    /// The Queen of the current (or last) round.
    public var queen: String? { currentRound?.queen }

    /// The command of the current round, once given.
    public var currentOrder: QueenOrder? { currentRound?.order }

    /// The secret number `player` holds this round (the host re-sends it when they resume), nil for the Queen.
    public func number(of player: String) -> Int? { currentRound?.numbers[player] }

    /// When the host must send `.tick`: the Queen's timeout, the reveal, or the automatic next deal.
    public var nextDeadline: Instant? { isPaused ? nil : deadline }

    /// When the running clock of this phase ends; while paused, when it would end had the pause not lasted
    /// beyond its start (so a viewer freezing it at `pausedAt` sees the time that was left).
    public var clockEnd: Instant? { deadline }

    /// Applies `event` (not `pause` or `continue`: `apply` does those) as seen at `now`, returning what to
    /// announce, or throws why it is refused.
    public mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        if event == .tick { return tick(at: now) }
        guard phase != .finished else { throw RuleError(.gameOver, "The Queen's game has ended.") }
        switch event {
        case .deal, .steer(.next):
            try requireRunningClock()
            if phase == .choosing || phase == .countdown {
                throw RuleError(.roundRunning, "Round \(roundNumber) is still being played; deal after the reveal.")
            }
            return try deal(at: now)
        case .command(let player, let choice):
            try requireRunningClock()
            return try command(by: player, choice, at: now)
        case .addPlayer(let name):
            try addPlayer(name)
            return []
        case .removePlayer(let name):
            guard let index = players.firstIndex(of: name) else {
                throw RuleError(.unknownPlayer, "\(name) is not in the Queen's game.")
            }
            players.remove(at: index)
            // A Queen who leaves while choosing would keep the room waiting for her whole clock: the automatic
            // command comes at once (at the end of a pause, when paused), as if her time had run out.
            guard phase == .choosing, currentRound?.queen == name else { return [] }
            if let pausedAt = clock.pausedAt {
                deadline = pausedAt
                return []
            }
            return give(automaticTemplate(queenIsHere: false), at: now)
        case .steer(.pause), .steer(.resume):
            return []  // `apply` pauses and continues the clock
        case .steer(.end):
            // A round cut short still opens its commitment, so every deal can be checked.
            var effects: [Effect] = []
            if let round = currentRound, phase == .choosing || phase == .countdown {
                effects.append(.revealed(numbers: round.numbers, targets: [], salt: round.salt, round: round.number))
            }
            phase = .finished
            clock.stop()
            deadline = nil
            return effects + [.ended(history: history)]
        case .tick:
            return []
        }
    }

    /// Handles every deadline that has passed by `now` (several when the host ticks late).
    private mutating func tick(at now: Instant) -> [Effect] {
        var effects: [Effect] = []
        while !isPaused, let due = deadline, due <= now {
            switch phase {
            case .choosing:
                effects += give(automaticTemplate(), at: now)
            case .countdown:
                effects += reveal(at: now)
            case .revealed:
                do {
                    effects += try deal(at: now)
                } catch {
                    deadline = nil
                    effects.append(.dealDeferred(error))
                }
            case .waitingForDeal, .finished:
                deadline = nil
            }
        }
        return effects
    }

    /// Deals a round to the current roster: a new Queen, shuffled numbers for everyone else, a fresh salt.
    private mutating func deal(at now: Instant) throws(RuleError) -> [Effect] {
        try Self.checkPlayerCount(players.count, settings)
        // With 4 or more players the Queen never rules twice in a row; with 3 that would leave too little choice.
        var candidates = players
        if players.count >= 4, let previous = currentRound?.queen {
            candidates.removeAll { $0 == previous }
        }
        let queen = candidates[Int.random(in: 0..<candidates.count, using: &rng)]
        let citizens = players.filter { $0 != queen }
        var numbers = Array(1...citizens.count)
        numbers.shufflePrefix(numbers.count, using: &rng)
        var salt: [UInt8] = []
        for _ in 0..<2 {
            let word = rng.next()
            for shift in stride(from: 0, to: 64, by: 8) { salt.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        let round = QueenRound(
            number: roundNumber + 1, queen: queen, players: players,
            numbers: Dictionary(uniqueKeysWithValues: zip(citizens, numbers)), salt: salt)
        currentRound = round
        phase = .choosing
        deadline = now.advanced(bySeconds: settings.chooseSeconds)
        return [.round(number: round.number, queen: queen, players: players, salt: salt)]
            + zip(citizens, numbers).map { Effect.secret(player: $0, number: $1) }
    }

    /// Checks and gives the Queen's own command.
    private mutating func command(by player: String, _ choice: CommandChoice, at now: Instant) throws(RuleError)
        -> [Effect]
    {
        guard phase == .choosing, let round = currentRound else {
            throw phase == .countdown
                ? RuleError(.wrongPhase, "The Queen has already given this round's command.")
                : RuleError(.wrongPhase, "No round is waiting for a command; the next deal comes first.")
        }
        guard player == round.queen else {
            throw RuleError(.notQueen, "Only the Queen, \(round.queen), can give the command.")
        }
        let template: CommandTemplate
        switch choice {
        case .template(let id):
            guard let command = commands.first(where: { $0.id == id }) else {
                throw RuleError(.unknownCommand, "There is no command with id \(id) in this game's list.")
            }
            template = try CommandTemplate(command.text)
        case .text(let text):
            template = try CommandTemplate(text, readsNamedNumbers: true)
            try Self.checkNamedNumbers(template, holders: round.numbers.count)
        }
        let named = template.namedNumbers.count
        guard template.targetCount + named <= round.numbers.count else {
            throw RuleError(
                .tooManyTargets,
                "That command names \(template.targetCount + named) numbers but only "
                    + "\(round.numbers.count) players hold numbers.")
        }
        return give(template, at: now)
    }

    /// Refuses an own order that names nobody, or names a number nobody holds this round.
    private static func checkNamedNumbers(_ template: CommandTemplate, holders: Int) throws(RuleError) {
        let range = holders == 1 ? "only No. 1" : "No. 1 to No. \(holders)"
        guard template.targetCount + template.namedNumbers.count > 0 else {
            throw RuleError(
                .badPlaceholder,
                "Your order names nobody: say who must act with their number, e.g. "
                    + "\"No. 1 sings to No. 2\" (this round: \(range)).")
        }
        if let missing = template.namedNumbers.first(where: { !(1...holders).contains($0) }) {
            throw RuleError(.badPlaceholder, "Nobody holds No. \(missing) this round: the numbers are \(range).")
        }
    }

    /// Fills `template` with distinct random numbers of this round (never one it names as written), and starts
    /// the countdown; the targets are the drawn numbers in placeholder order, then the named ones.
    private mutating func give(_ template: CommandTemplate, at now: Instant) -> [Effect] {
        guard let round = currentRound else { return [] }
        var pool = Array(1...round.numbers.count).filter { !template.namedNumbers.contains($0) }
        pool.shufflePrefix(template.targetCount, using: &rng)
        let targets = Array(pool.prefix(template.targetCount)) + template.namedNumbers
        let text = template.filled(numbers: targets, queen: round.queen)
        let revealAt = now.advanced(bySeconds: settings.countdownSeconds)
        currentRound?.order = QueenOrder(text: text, targets: targets, revealAt: revealAt)
        givenCommands.append(template.text)
        phase = .countdown
        deadline = revealAt
        return [.order(text: text, targets: targets, revealAt: revealAt)]
    }

    /// The command used when the Queen runs out of time: a random one of this game's list that fits the number
    /// of numbered players (and names no Queen who has left) and was not given tonight (any fitting one when all
    /// were), or a built-in fallback when none fits.
    private mutating func automaticTemplate(queenIsHere: Bool = true) -> CommandTemplate {
        let citizens = currentRound?.numbers.count ?? 0
        let fitting = commands.compactMap { try? CommandTemplate($0.text) }.filter {
            $0.targetCount <= citizens && (queenIsHere || !$0.mentionsQueen)
        }
        let given = playedEarlier.union(givenCommands.map(Self.playedKey))
        let fresh = fitting.filter { !given.contains(Self.playedKey($0.text)) }
        let pool = fresh.isEmpty ? fitting : fresh
        if !pool.isEmpty {
            return pool[Int.random(in: 0..<pool.count, using: &rng)]
        }
        let fallback =
            if citizens >= 2 {
                "No. {1} tells a joke to No. {2}."
            } else if queenIsHere {
                "No. {1} tells Queen {queen} a joke."
            } else {
                "No. {1} tells a joke."
            }
        // The fallbacks are fixed, valid templates (the tests play them), so this cannot throw.
        return try! CommandTemplate(fallback)
    }

    /// Reveals the numbers, records the round and schedules the automatic next deal if set.
    private mutating func reveal(at now: Instant) -> [Effect] {
        guard let round = currentRound, let order = round.order else {
            deadline = nil
            return []
        }
        let holders = Dictionary(uniqueKeysWithValues: round.numbers.map { ($0.value, $0.key) })
        let targets = order.targets.compactMap { holders[$0] }
        history.append(
            QueenRoundRecord(
                round: round.number, queen: round.queen, numbers: round.numbers,
                command: order.text, targets: targets, salt: round.salt))
        phase = .revealed
        deadline = settings.autoNextSeconds.map { now.advanced(bySeconds: $0) }
        return [.revealed(numbers: round.numbers, targets: targets, salt: round.salt, round: round.number)]
    }

    /// Adds `name` to the roster for the next deal.
    private mutating func addPlayer(_ name: String) throws(RuleError) {
        guard !players.contains(name) else {
            throw RuleError(.alreadyPlaying, "\(name) is already in the Queen's game.")
        }
        guard players.count < settings.maxPlayers else {
            throw RuleError(
                .tooManyPlayers,
                "The Queen's game takes at most \(settings.maxPlayers) players; \(name) can't join.")
        }
        players.append(name)
    }

    /// Throws while the game is paused.
    private func requireRunningClock() throws(RuleError) {
        if isPaused { throw RuleError(.paused, "The game is paused; resume it first.") }
    }

    /// A game that has ended can no longer pause or continue.
    public func checkClockSteering(_ command: Steering) throws(RuleError) {
        guard phase != .finished else { throw RuleError(.gameOver, "The Queen's game has ended.") }
    }

    /// Moves the phase's timeout, and the reveal it announced, by the time the clocks stood still.
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        deadline = deadline?.advanced(byMilliseconds: milliseconds)
        if phase == .countdown, let deadline { currentRound?.order?.revealAt = deadline }
    }

    /// The operator paused.
    public var pausedEffects: [Effect] { [.paused] }

    /// The clocks run again with the time left.
    public mutating func resumedEffects(at now: Instant) -> [Effect] { [.resumed(nextDeadline: deadline)] }

    /// Throws unless `count` players may play under `settings`.
    private static func checkPlayerCount(_ count: Int, _ settings: QueenSettings) throws(RuleError) {
        if count < settings.minPlayers {
            let connected = count == 1 ? "1 is connected" : "\(count) are connected"
            throw RuleError(
                .tooFewPlayers,
                "The Queen's game needs at least \(settings.minPlayers) players; \(connected).")
        }
        if count > settings.maxPlayers {
            throw RuleError(
                .tooManyPlayers,
                "The Queen's game takes at most \(settings.maxPlayers) players; \(count) are connected.")
        }
    }
}

extension Array {
    /// Puts a uniformly random choice of `count` distinct elements, in random order, at the front (the first
    /// `count` steps of a Fisher–Yates shuffle; `count == self.count` shuffles the whole array).
    mutating func shufflePrefix(_ count: Int, using rng: inout some RandomNumberGenerator) {
        for index in 0..<Swift.min(count, self.count) {
            swapAt(index, Int.random(in: index..<self.count, using: &rng))
        }
    }
}
