/// The compound-words trainer for children of 6 to 9, one game with three exercises chosen at the start:
///
/// - **cards** — each team plays through the level's words at its own pace: a question word and a hand of four
///   option cards, at least one correct. A correct card scores and deals the next word; a wrong card is gone and
///   the team is locked out for a moment (`Settings.lockoutMilliseconds`), to think instead of trying every card.
///   A team is through when every word of the level is done.
/// - **bingo** — each team has its own 4×4 card. Each turn puts the four options of a question word on four random
///   free cells; a correct pick marks its cell with the compound, a wrong one clears that option. A full line
///   (`Settings.lines`) is BINGO.
/// - **board** — each team's token walks a `DiceBoard`: it answers the start tile first, then after each correct
///   compound the tile is done and the team rolls the helpful die (`DiceBoard.rollHelpfulDie`) and walks, choosing
///   the path at forks. A team is through when every tile is done.
///
/// What the exercises share lives here once: dealing a hand from a word (`deal`), judging a pick, the lockout clock,
/// the answer log and the places. Teams that finish get places in order; the game ends when every team (or
/// `Settings.places` teams) finished, or when the operator ends it.
public struct CompoundWords: SteeredMode, Codable, Sendable, Equatable {
    /// The three exercises.
    public enum Exercise: String, Codable, Sendable, CaseIterable {
        case cards, bingo, board
    }

    /// The kinds of line that make a bingo.
    public enum BingoLine: String, Codable, Sendable, CaseIterable {
        case rows, columns, diagonals
    }

    /// How a game is played; chosen at `start`.
    public struct Settings: Codable, Sendable, Equatable {
        /// The lockout lengths an operator may choose, in seconds.
        public static let lockoutSecondsRange = 0...60
        /// The default lockout of each exercise, in seconds (the card race's pause to think; none in bingo).
        public static func defaultLockoutSeconds(_ exercise: Exercise) -> Int { exercise == .bingo ? 0 : 3 }

        /// The exercise.
        public var exercise: Exercise
        /// How long a team waits after a wrong pick, in milliseconds (0: not at all).
        public var lockoutMilliseconds: Int64
        /// Which lines make a bingo, in the order they are checked.
        public var lines: [BingoLine]
        /// The game ends once this many teams are through; nil waits for every team.
        public var places: Int?

        /// Creates settings; the lockout defaults to the exercise's.
        public init(
            exercise: Exercise, lockoutMilliseconds: Int64? = nil, lines: [BingoLine] = BingoLine.allCases,
            places: Int? = nil
        ) {
            self.exercise = exercise
            self.lockoutMilliseconds =
                lockoutMilliseconds ?? Int64(Settings.defaultLockoutSeconds(exercise)) * 1000
            self.lines = BingoLine.allCases.filter(lines.contains)
            self.places = places
        }
    }

    /// Which option a team picks: a card of its hand (1…4, as shown), an option by its text, or a bingo cell
    /// (0…15).
    public enum Pick: Codable, Sendable, Equatable {
        case card(Int)
        case word(String)
        case cell(Int)
    }

    /// Where a team goes at a fork: a tile by id, or by its word.
    public enum Move: Codable, Sendable, Equatable {
        case tile(Int)
        case word(String)
    }

    /// Everything that can happen to a game; journaled, so Codable.
    public enum Event: SteerableEvent, Sendable, Equatable {
        /// Deals every team its first question.
        case start
        /// `player` of `team` picks an option.
        case pick(team: String, player: String, Pick)
        /// `player` of `team` rolls the die (board).
        case roll(team: String, player: String)
        /// `player` of `team` chooses the path at a fork (board).
        case move(team: String, player: String, Move)
        /// A team formed by a player who joined mid-game.
        case addTeam(String)
        /// The host's clock reached `nextDeadline` (a lockout ends).
        case tick
        /// The operator steers: pause, continue or end (`next` is refused: every team has its own pace).
        case steer(Steering)
    }

    /// A team's current question: a word and its option cards. In bingo the cards lie on `cells`.
    public struct Hand: Codable, Sendable, Equatable {
        /// The question word.
        public var word: String
        /// The option in each of the four places; nil where a wrong card was taken away.
        public var cards: [String?]
        /// Bingo: the cell each card lies on.
        public var cells: [Int]?
        /// Board: the tile the question is asked on.
        public var tile: Int?
        /// Which question of the team's run this is (1-based).
        public var number: Int
        /// How many the run has (words of the level; tiles of the board; 16 cells in bingo).
        public var of: Int
        /// The entry's index in `words`.
        var entry: Int
    }

    /// One bingo cell that holds something: an option of the current word, or a marked compound.
    public struct Cell: Codable, Sendable, Equatable {
        /// The option, or the compound once marked.
        public var text: String
        /// Whether the cell is marked (a correct compound).
        public var isMarked: Bool
    }

    /// A roll of the die.
    public struct Roll: Codable, Sendable, Equatable {
        /// 1…6.
        public var value: Int
        /// Whether the helpful die chose among the numbers that reach an unfinished tile.
        public var isHelpful: Bool
    }

    /// Where a team's token is in its turn on the board.
    public enum BoardStep: Codable, Sendable, Equatable {
        /// Answering the tile it stands on.
        case answering
        /// Waiting for the team to roll.
        case rolling
        /// Stopped at a fork with `stepsLeft` to walk; `choices` are the tiles it may take.
        case choosing(stepsLeft: Int, cameFrom: Int?, choices: [Int])
    }

    /// One team's game.
    public struct Team: Codable, Sendable, Equatable {
        /// The team's name.
        public var name: String
        /// The words still to come, by index into `words` (cards and bingo).
        var deck: [Int]
        /// The question being answered.
        public internal(set) var hand: Hand?
        /// Until when the team may not pick (after a wrong card).
        public internal(set) var lockedUntil: Instant?
        /// Since when the team could answer (for the time an answer took).
        var readyAt: Instant
        /// Correct compounds.
        public internal(set) var score = 0
        /// Questions done: words through (cards), cells marked (bingo), tiles done (board).
        public internal(set) var done = 0
        /// Bingo: the 16 cells, nil where empty.
        public internal(set) var cells: [Cell?] = []
        /// Bingo: the line that made BINGO.
        public internal(set) var bingoLine: [Int]?
        /// Board: the tile the token stands on.
        public internal(set) var token: Int?
        /// Board: the tiles done, in order.
        public internal(set) var doneTiles: [Int] = []
        /// Board: where the token is in its turn.
        public internal(set) var step: BoardStep?
        /// Board: the last roll.
        public internal(set) var lastRoll: Roll?
        /// The team's last answer.
        public internal(set) var lastAnswer: WordAnswer?
        /// The place the team finished in, once through.
        public internal(set) var place: Int?
    }

    /// A team's line on the standings.
    public struct Standing: Sendable, Equatable {
        public var team: String
        public var score: Int
        public var rank: Int
        public var done: Int
        public var of: Int
        public var place: Int?
    }

    /// What the host must announce.
    public enum Effect: Sendable, Equatable {
        /// A team's hand is new or lost a card (cards, board).
        case hand(team: String, hand: Hand)
        /// A team's bingo card changed; `word` is its question word (nil once it has BINGO).
        case card(team: String, word: String?, cells: [Cell?])
        /// An answer; `compound` when it was right.
        case result(WordAnswer, compound: String?)
        /// A team is locked out until `until`, or may pick again (`until` nil).
        case lockout(team: String, until: Instant?)
        /// A team completed a bingo line.
        case bingo(team: String, cells: [Int])
        /// A team's progress changed.
        case progress(team: String)
        /// Board: a tile became done for a team.
        case tileDone(team: String, tile: Int)
        /// Board: a team rolled.
        case rolled(team: String, roll: Roll)
        /// Board: a team's token walked `path` and stands on `at`; with `choices` it waits at a fork.
        case moved(team: String, path: [Int], at: Int, stepsLeft: Int, choices: [Int])
        /// A team is through, in `place`.
        case finished(team: String, place: Int)
        /// A team joined mid-game.
        case teamJoined(String)
        /// The clocks are frozen.
        case paused
        /// The clocks run again (lockouts moved on by the pause).
        case resumed
        /// The game is over.
        case ended
    }

    /// How the game is played.
    public let settings: Settings
    /// The id of the word list.
    public let listID: String
    /// The word list's name.
    public let listName: String
    /// The level played.
    public let level: Int
    /// The level's question words, in list order.
    public let words: [WordEntry]
    /// The board (board exercise only).
    public let board: DiceBoard?
    /// Every team, in the order they joined.
    public private(set) var teams: [Team] = []
    /// Whether `start` was applied.
    public private(set) var isStarted = false
    /// Whether the game is over.
    public private(set) var isFinished = false
    /// Whether the clocks run or stand still (the operator's pause).
    public var clock = GameClock()
    /// Every answer given, in order.
    public private(set) var answers: [WordAnswer] = []
    /// The game's only source of randomness.
    private var rng: SplitMix64

    /// Creates a game for `teams` on the words of one level, with a board for the board exercise.
    ///
    /// Throws `no_teams`, `unknown_level` (no words), `bad_word_list` (too few words for bingo) or `bad_board`
    /// (incomplete, or a tile whose word is not one of `words`).
    public init(
        teams: [String], words: [WordEntry], listID: String, listName: String, level: Int, board: DiceBoard? = nil,
        settings: Settings, seed: UInt64
    ) throws(RuleError) {
        guard !teams.isEmpty else {
            throw RuleError(.noTeams, "Compound words needs at least one team; players join with a team name.")
        }
        guard !words.isEmpty else {
            throw RuleError(.unknownLevel, "Level \(level) of \(listName) has no words.")
        }
        if settings.exercise == .bingo {
            guard words.count >= WordList.wordsForBingo else {
                throw RuleError(
                    .badWordList,
                    "Bingo needs \(WordList.wordsForBingo) question words on a level; level \(level) of \(listName) "
                        + "has \(words.count).")
            }
            guard !settings.lines.isEmpty else {
                throw RuleError(.badOption, "Bingo needs at least one kind of line: rows, columns or diagonals.")
            }
        }
        if settings.exercise == .board {
            guard let board else { throw RuleError(.unknownBoard, "The board exercise needs a board.") }
            try board.checkStructure()
            if let problem = board.completenessProblem { throw RuleError(.badBoard, problem) }
            let known = Set(words.map { WordList.key($0.word) })
            if let stranger = board.tiles.first(where: { !known.contains(WordList.key($0.word)) }) {
                throw RuleError(
                    .badBoard,
                    "Tile \(stranger.id)'s word \"\(stranger.word)\" is not a question word of level \(level) of "
                        + "\(listName).")
            }
        }
        if let places = settings.places, places < 1 {
            throw RuleError(.badOption, "places must be at least 1.")
        }
        self.settings = settings
        self.listID = listID
        self.listName = listName
        self.level = level
        self.words = words
        self.board = settings.exercise == .board ? board : nil
        rng = SplitMix64(seed: seed)
        for name in teams where team(named: name) == nil {
            self.teams.append(newTeam(name, at: Instant(milliseconds: 0)))
        }
    }

    // MARK: Reading

    /// The team called `name`.
    public func team(named name: String) -> Team? { teams.first { $0.name == name } }

    /// How many questions a team's run has: the level's words, the board's tiles, or 16 bingo cells.
    public var runLength: Int {
        switch settings.exercise {
        case .cards: words.count
        case .bingo: 16
        case .board: board?.tiles.count ?? 0
        }
    }

    /// When the next lockout ends (nil while paused or when nobody is locked out).
    public var nextDeadline: Instant? {
        guard !isPaused, !isFinished else { return nil }
        return teams.compactMap(\.lockedUntil).min()
    }

    /// The standings: teams through by place, then the others by questions done and score.
    public var standings: [Standing] {
        let sorted = teams.sorted { lhs, rhs in
            let left = (lhs.place ?? Int.max, -lhs.done, -lhs.score)
            let right = (rhs.place ?? Int.max, -rhs.done, -rhs.score)
            return left < right
        }
        var result: [Standing] = []
        for (index, team) in sorted.enumerated() {
            var rank = index + 1
            if let previous = result.last, team.place == nil, previous.place == nil, previous.done == team.done,
                previous.score == team.score
            {
                rank = previous.rank
            }
            result.append(
                Standing(
                    team: team.name, score: team.score, rank: rank, done: team.done, of: runLength, place: team.place))
        }
        return result
    }

    /// The lines of a 4×4 card that make a bingo under these settings, in checking order.
    public var bingoLines: [[Int]] { CompoundWords.lines(settings.lines) }

    /// Every line of `kinds` on a 4×4 card: rows, then columns, then the two diagonals.
    public static func lines(_ kinds: [BingoLine]) -> [[Int]] {
        var lines: [[Int]] = []
        if kinds.contains(.rows) { lines += (0..<4).map { row in (0..<4).map { row * 4 + $0 } } }
        if kinds.contains(.columns) { lines += (0..<4).map { column in (0..<4).map { $0 * 4 + column } } }
        if kinds.contains(.diagonals) { lines += [[0, 5, 10, 15], [3, 6, 9, 12]] }
        return lines
    }

    /// The first of `lines` through `cell` whose four cells are all marked, if any.
    public static func completedLine(through cell: Int, in cells: [Cell?], lines: [[Int]]) -> [Int]? {
        lines.first { line in
            line.contains(cell) && line.allSatisfy { cells.indices.contains($0) && cells[$0]?.isMarked == true }
        }
    }

    // MARK: Applying events

    /// Applies `event` (not `pause` or `continue`: `apply` does those) as seen at `now` on a copy, keeping it
    /// only when accepted.
    public mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        var copy = self
        let effects = try copy.applying(event, at: now)
        self = copy
        return effects
    }

    private mutating func applying(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        if case .tick = event { return tick(at: now) }
        guard !isFinished else { throw RuleError(.gameOver, "The compound-words game is over.") }
        switch event {
        case .start:
            guard !isStarted else { throw RuleError(.alreadyStarted, "The game has already started.") }
            isStarted = true
            var effects: [Effect] = []
            for index in teams.indices {
                teams[index].readyAt = now
                effects += begin(team: index, at: now)
            }
            return effects
        case .pick(let name, let player, let pick):
            let index = try playingTeam(name)
            return try self.pick(pick, team: index, player: player, at: now)
        case .roll(let name, _):
            let index = try playingTeam(name)
            return try roll(team: index, at: now)
        case .move(let name, _, let move):
            let index = try playingTeam(name)
            return try self.move(move, team: index, at: now)
        case .addTeam(let name):
            guard team(named: name) == nil else { return [] }
            teams.append(newTeam(name, at: now))
            return [.teamJoined(name)] + (isStarted ? begin(team: teams.count - 1, at: now) : [])
        case .steer(.pause), .steer(.resume):
            return []  // `apply` pauses and continues the clock
        case .steer(.next):
            throw RuleError(
                .wrongPhase,
                "Every team plays compound words at its own pace, so there is no next question; end stops the game.")
        case .steer(.end):
            return end()
        case .tick:
            return []
        }
    }

    /// Ends every lockout that is over by `now`.
    private mutating func tick(at now: Instant) -> [Effect] {
        guard !isPaused, !isFinished else { return [] }
        var effects: [Effect] = []
        for index in teams.indices {
            if let until = teams[index].lockedUntil, until <= now {
                teams[index].lockedUntil = nil
                effects.append(.lockout(team: teams[index].name, until: nil))
            }
        }
        return effects
    }

    /// The index of team `name`, which must be able to play now.
    private func playingTeam(_ name: String) throws(RuleError) -> Int {
        guard isStarted else { throw RuleError(.notStarted, "The game has not started yet.") }
        guard let index = teams.firstIndex(where: { $0.name == name }) else {
            throw RuleError(.unknownTeam, "Team \(name) is not in this game.")
        }
        guard !isPaused else { throw RuleError(.paused, "The game is paused; wait for the quizmaster to continue.") }
        if let place = teams[index].place {
            throw RuleError(.teamFinished, "Your team is through already, in place \(place). Well done!")
        }
        return index
    }

    // MARK: Pause and continue

    /// A game that is over can no longer pause or continue.
    public func checkClockSteering(_ command: Steering) throws(RuleError) {
        guard !isFinished else { throw RuleError(.gameOver, "The compound-words game is over.") }
    }

    /// Moves every playing team's lockout and card clock by the time the clocks stood still.
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        for index in teams.indices where teams[index].place == nil {
            teams[index].readyAt = teams[index].readyAt.advanced(byMilliseconds: milliseconds)
            teams[index].lockedUntil = teams[index].lockedUntil?.advanced(byMilliseconds: milliseconds)
        }
    }

    /// The operator paused.
    public var pausedEffects: [Effect] { [.paused] }

    /// The clocks run again: every lockout's new end.
    public mutating func resumedEffects(at now: Instant) -> [Effect] {
        [.resumed]
            + teams.filter { $0.place == nil && $0.lockedUntil != nil }.map {
                .lockout(team: $0.name, until: $0.lockedUntil)
            }
    }

    // MARK: Dealing

    private mutating func newTeam(_ name: String, at now: Instant) -> Team {
        var deck = Array(words.indices)
        deck.shufflePrefix(deck.count, using: &rng)
        var team = Team(name: name, deck: deck, readyAt: now)
        if settings.exercise == .bingo { team.cells = Array(repeating: nil, count: 16) }
        if let board, settings.exercise == .board {
            team.token = board.start?.id
            team.step = .answering
        }
        return team
    }

    /// The first question of a team (at the start, or when it joined later).
    private mutating func begin(team index: Int, at now: Instant) -> [Effect] {
        teams[index].readyAt = now
        switch settings.exercise {
        case .cards, .bingo:
            return nextWord(team: index, at: now) + [.progress(team: teams[index].name)]
        case .board:
            guard let tile = teams[index].token else { return [] }
            let moved = Effect.moved(team: teams[index].name, path: [], at: tile, stepsLeft: 0, choices: [])
            return [moved] + land(team: index, at: now) + [.progress(team: teams[index].name)]
        }
    }

    /// `count` cards (four unless a bingo card has fewer free cells) for the word `entry`: one correct option at
    /// random, the rest drawn from its other options, shuffled.
    private mutating func deal(_ entry: Int, number: Int, of total: Int, count: Int = 4) -> Hand {
        let word = words[entry]
        var chosen = [word.correct[Int.random(in: 0..<word.correct.count, using: &rng)]]
        var others = word.options.filter { $0 != chosen[0] }
        others.shufflePrefix(count - 1, using: &rng)
        chosen += others.prefix(count - 1)
        chosen.shufflePrefix(chosen.count, using: &rng)
        return Hand(word: word.word, cards: chosen, cells: nil, tile: nil, number: number, of: total, entry: entry)
    }

    /// Deals the next word of the team's deck (cards, bingo); a card race team with no words left is through.
    ///
    /// A bingo team that used every word (possible only when diagonals alone make a bingo) starts the words over.
    private mutating func nextWord(team index: Int, at now: Instant) -> [Effect] {
        if teams[index].deck.isEmpty {
            guard settings.exercise == .bingo else { return finish(team: index) }
            teams[index].deck = Array(words.indices)
            teams[index].deck.shufflePrefix(words.count, using: &rng)
        }
        let entry = teams[index].deck.removeFirst()
        teams[index].readyAt = now
        guard settings.exercise == .bingo else {
            let hand = deal(entry, number: teams[index].done + 1, of: words.count)
            teams[index].hand = hand
            return [.hand(team: teams[index].name, hand: hand)]
        }
        var free = teams[index].cells.indices.filter { teams[index].cells[$0] == nil }
        let count = min(4, free.count)
        var hand = deal(entry, number: teams[index].done + 1, of: runLength, count: count)
        free.shufflePrefix(count, using: &rng)
        let cells = Array(free.prefix(count))
        hand.cells = cells
        for (card, cell) in zip(hand.cards, cells) {
            teams[index].cells[cell] = card.map { Cell(text: $0, isMarked: false) }
        }
        teams[index].hand = hand
        return [.card(team: teams[index].name, word: hand.word, cells: teams[index].cells)]
    }

    // MARK: Picking

    private mutating func pick(_ pick: Pick, team index: Int, player: String, at now: Instant) throws(RuleError)
        -> [Effect]
    {
        if let until = teams[index].lockedUntil, now < until {
            let seconds = (now.milliseconds(until: until) + 999) / 1000
            throw RuleError(.lockedOut, "Think first: your team can pick again in \(seconds) s.", until: until)
        }
        guard var hand = teams[index].hand else {
            switch teams[index].step {
            case .rolling?: throw RuleError(.wrongPhase, "Roll the die first (r).")
            case .choosing?: throw RuleError(.wrongPhase, "Choose your path first (go and a tile).")
            default: throw RuleError(.wrongPhase, "Your team has no question right now.")
            }
        }
        let slot = try self.slot(of: pick, in: hand)
        guard let option = hand.cards[slot] else { throw RuleError(.badPick, "That card is gone; pick another.") }
        let entry = words[hand.entry]
        let isCorrect = entry.isCorrect(option)
        let answer = WordAnswer(
            team: teams[index].name, player: player, word: entry.word, answer: option, correct: isCorrect,
            ms: max(0, teams[index].readyAt.milliseconds(until: now)))
        answers.append(answer)
        teams[index].lastAnswer = answer
        var effects: [Effect] = [.result(answer, compound: isCorrect ? entry.compound(with: option) : nil)]
        let name = teams[index].name
        guard isCorrect else {
            hand.cards[slot] = nil
            teams[index].hand = hand
            if let cell = hand.cells?[slot] {
                teams[index].cells[cell] = nil
                effects.append(.card(team: name, word: hand.word, cells: teams[index].cells))
            } else {
                effects.append(.hand(team: name, hand: hand))
            }
            if settings.lockoutMilliseconds > 0 {
                let until = now.advanced(byMilliseconds: settings.lockoutMilliseconds)
                teams[index].lockedUntil = until
                teams[index].readyAt = until
                effects.append(.lockout(team: name, until: until))
            } else {
                teams[index].readyAt = now
            }
            return effects
        }
        teams[index].score += 1
        teams[index].done += 1
        teams[index].hand = nil
        switch settings.exercise {
        case .cards:
            effects.append(.progress(team: name))
            effects += nextWord(team: index, at: now)
        case .bingo:
            let marked = hand.cells?[slot] ?? 0
            for cell in hand.cells ?? [] where cell != marked { teams[index].cells[cell] = nil }
            teams[index].cells[marked] = Cell(text: entry.compound(with: option), isMarked: true)
            effects.append(.progress(team: name))
            if let line = CompoundWords.completedLine(through: marked, in: teams[index].cells, lines: bingoLines) {
                teams[index].bingoLine = line
                effects.append(.card(team: name, word: nil, cells: teams[index].cells))
                effects.append(.bingo(team: name, cells: line))
                effects += finish(team: index)
            } else {
                effects += nextWord(team: index, at: now)
            }
        case .board:
            guard let tile = hand.tile else { break }
            teams[index].doneTiles.append(tile)
            teams[index].done = teams[index].doneTiles.count
            effects.append(.tileDone(team: name, tile: tile))
            effects.append(.progress(team: name))
            if teams[index].doneTiles.count == board?.tiles.count {
                teams[index].step = nil
                effects += finish(team: index)
            } else {
                teams[index].step = .rolling
            }
        }
        return effects
    }

    /// The place in `hand` that `pick` names.
    private func slot(of pick: Pick, in hand: Hand) throws(RuleError) -> Int {
        let shown = hand.cards.compactMap { $0 }.joined(separator: ", ")
        switch pick {
        case .card(let number):
            guard settings.exercise != .bingo else {
                throw RuleError(.wrongExercise, "In bingo you pick a cell of your card, like b3.")
            }
            guard (1...hand.cards.count).contains(number) else {
                throw RuleError(.badPick, "Pick a card from 1 to \(hand.cards.count); your cards: \(shown).")
            }
            return number - 1
        case .word(let text):
            guard let slot = hand.cards.firstIndex(where: { $0.map(WordList.key) == WordList.key(text) }) else {
                let yours = settings.exercise == .bingo ? "options" : "cards"
                throw RuleError(.badPick, "\"\(text)\" is not one of your \(yours); your \(yours): \(shown).")
            }
            return slot
        case .cell(let cell):
            guard settings.exercise == .bingo, let cells = hand.cells else {
                throw RuleError(.wrongExercise, "Only bingo has cells; pick a card (1–4 or its word).")
            }
            guard (0..<16).contains(cell) else { throw RuleError(.badPick, "Cells are 0 to 15 (a1 to d4).") }
            guard let slot = cells.firstIndex(of: cell), hand.cards[slot] != nil else {
                throw RuleError(.badPick, "That cell holds none of this word's options; your options: \(shown).")
            }
            return slot
        }
    }

    /// Gives team `index` the next place, and ends the game when enough teams are through.
    private mutating func finish(team index: Int) -> [Effect] {
        let place = teams.filter { $0.place != nil }.count + 1
        teams[index].place = place
        teams[index].hand = nil
        teams[index].lockedUntil = nil
        var effects: [Effect] = [.finished(team: teams[index].name, place: place)]
        if place >= min(settings.places ?? teams.count, teams.count) { effects += end() }
        return effects
    }

    private mutating func end() -> [Effect] {
        isFinished = true
        clock.stop()
        for index in teams.indices { teams[index].lockedUntil = nil }
        return [.ended]
    }

    // MARK: The board

    private mutating func roll(team index: Int, at now: Instant) throws(RuleError) -> [Effect] {
        guard settings.exercise == .board, let board, let token = teams[index].token else {
            throw RuleError(.wrongExercise, "There is no die in \(settings.exercise.rawValue); only the board has one.")
        }
        switch teams[index].step {
        case .answering?: throw RuleError(.wrongPhase, "Answer the word on your tile first.")
        case .choosing?: throw RuleError(.wrongPhase, "Choose your path first (go and a tile).")
        default: break
        }
        let unfinished = Set(board.tiles.map(\.id)).subtracting(teams[index].doneTiles)
        let die = board.rollHelpfulDie(from: token, unfinished: unfinished, using: &rng)
        let roll = Roll(value: die.value, isHelpful: die.isHelpful)
        teams[index].lastRoll = roll
        return [.rolled(team: teams[index].name, roll: roll)]
            + walk(team: index, steps: roll.value, cameFrom: nil, path: [], at: now)
    }

    private mutating func move(_ move: Move, team index: Int, at now: Instant) throws(RuleError) -> [Effect] {
        guard settings.exercise == .board, let board, let token = teams[index].token else {
            throw RuleError(.wrongExercise, "Only the board exercise has paths to choose.")
        }
        guard case .choosing(let stepsLeft, _, let choices)? = teams[index].step else {
            throw RuleError(.wrongPhase, "Your token is not at a fork; there is no path to choose now.")
        }
        let named = choices.map { "\($0) (\(board.tile($0)?.word ?? ""))" }.joined(separator: " or ")
        let chosen: Int
        switch move {
        case .tile(let id):
            guard choices.contains(id) else { throw RuleError(.badMove, "From here you can go to \(named).") }
            chosen = id
        case .word(let word):
            let matches = choices.filter { board.tile($0).map { WordList.key($0.word) } == WordList.key(word) }
            guard matches.count == 1 else {
                throw RuleError(
                    .badMove,
                    matches.isEmpty
                        ? "From here you can go to \(named)." : "Several paths lead to \(word); use the number.")
            }
            chosen = matches[0]
        }
        teams[index].token = chosen
        return walk(team: index, steps: stepsLeft - 1, cameFrom: token, path: [chosen], at: now)
    }

    /// Walks the team's token `steps` more steps, stopping at a fork for the team to choose, then lands.
    private mutating func walk(team index: Int, steps: Int, cameFrom: Int?, path: [Int], at now: Instant) -> [Effect] {
        guard let board, var at = teams[index].token else { return [] }
        var came = cameFrom
        var walked = path
        var left = steps
        let name = teams[index].name
        while left > 0 {
            let options = board.nextSteps(at: at, cameFrom: came)
            if options.count > 1 {
                teams[index].token = at
                teams[index].step = .choosing(stepsLeft: left, cameFrom: came, choices: options)
                return [.moved(team: name, path: walked, at: at, stepsLeft: left, choices: options)]
            }
            guard let next = options.first else { break }
            came = at
            at = next
            walked.append(next)
            left -= 1
        }
        teams[index].token = at
        return [.moved(team: name, path: walked, at: at, stepsLeft: 0, choices: [])] + land(team: index, at: now)
    }

    /// The token stopped: on an unfinished tile the team answers its word, on a done one it rolls again.
    private mutating func land(team index: Int, at now: Instant) -> [Effect] {
        guard let board, let at = teams[index].token, let tile = board.tile(at) else { return [] }
        guard !teams[index].doneTiles.contains(at),
            let entry = words.firstIndex(where: { WordList.key($0.word) == WordList.key(tile.word) })
        else {
            teams[index].step = .rolling
            return []
        }
        var hand = deal(entry, number: teams[index].doneTiles.count + 1, of: board.tiles.count)
        hand.tile = at
        teams[index].hand = hand
        teams[index].step = .answering
        teams[index].readyAt = now
        return [.hand(team: teams[index].name, hand: hand)]
    }
}
