import Common

/// The rules of Odd One Out: each round every team sees the same four words and races to pick the one that does
/// not belong; a right pick scores more the sooner it was pressed.
///
/// A game is a value fixed by its teams, puzzles, settings, seed and the ordered events applied to it. Every event
/// first lets overdue clocks run out (as a tick would), then applies itself, then lets clocks that fell due run out;
/// a refused event changes nothing.
///
/// Fair order: a pick counts from its estimated press time (clamped to the round's opening and to its arrival),
/// like a buzz. Its lock-in is announced only when the settle window opened by the first unannounced pick has
/// passed, all waiting picks then in press order, so a press that happened earlier but arrived a little later still
/// takes its place. Points depend on each pick's own press time, never on its place.
public struct OddOneOut: ClockedPlay, Codable, Sendable, Equatable {
    /// The settings the game was created with.
    public let settings: OutsiderSettings
    private let puzzles: [DrawnPuzzle]
    /// The teams, in the order they joined.
    public private(set) var teams: [String]
    /// Each team by its folded name, so that registering 2,000 teams does not fold every name for each (issue 29);
    /// nil in a value decoded without it (then the teams are scanned).
    private var foldedTeams: FoldedTeams?
    private var scoreByTeam: [String: Int]
    private var correctByTeam: [String: Int]
    private var rng: SplitMix64
    /// Where the game is.
    public private(set) var phase: Phase = .notStarted
    /// Whether the clocks run or stand still (the operator's pause).
    public var clock = GameClock()
    /// During a reveal, when the next round opens by itself (nil when waiting for the operator).
    public private(set) var nextRoundAt: Instant?
    private var round = Round()
    /// How the last round ended, for a viewer who joins during its reveal.
    public private(set) var lastReveal: Reveal?
    /// The final ranking once the game is finished.
    public private(set) var finalRanking: [ShakyWords.Standing]?

    /// One team's pick in the open round.
    public struct Pick: Codable, Sendable, Equatable, Hashable {
        /// The team.
        public var team: String
        /// The 0-based word it picked.
        public var choice: Int
        /// Its estimated press, clamped to the round.
        public var pressedAt: Instant
        /// Milliseconds from the round's opening to the press (pauses excluded).
        public var elapsedMs: Int64
        /// The order among equal presses: the order of arrival.
        var arrival: Int
        /// Its place in press order once announced (1-based); nil while it settles.
        public var position: Int?
    }

    /// The open (or last) round.
    private struct Round: Codable, Sendable, Equatable, Hashable {
        var index = -1
        var openedAt = Instant(milliseconds: 0)
        var deadline = Instant(milliseconds: 0)
        /// The puzzle's four words in the order shown this round.
        var words: [String] = []
        var picks: [Pick] = []
        /// When the waiting picks are announced; nil when none waits.
        var settleDeadline: Instant?
    }

    /// Creates a game; refuses no teams, duplicate or blank team names, no puzzles and nonsensical settings.
    public init(teams: [String], puzzles: [DrawnPuzzle], settings: OutsiderSettings = OutsiderSettings(), seed: UInt64)
        throws(RuleError)
    {
        try settings.validate()
        guard !teams.isEmpty else { throw RuleError(.noTeams, "Add at least one team before starting.") }
        guard !puzzles.isEmpty else { throw RuleError(.noQuestions, "Choose at least one puzzle before starting.") }
        self.settings = settings
        self.puzzles = puzzles
        self.teams = []
        foldedTeams = FoldedTeams()
        scoreByTeam = [:]
        correctByTeam = [:]
        rng = SplitMix64(seed: seed)
        for team in teams { try register(team) }
    }

    // MARK: - Views for the host

    /// The earliest instant at which the game wants a tick; nil while paused or when nothing is pending.
    public var nextDeadline: Instant? {
        guard !isPaused else { return nil }
        switch phase {
        case .round: return [round.settleDeadline, round.deadline].compactMap { $0 }.min()
        case .reveal: return nextRoundAt
        case .notStarted, .finished: return nil
        }
    }

    /// How many rounds the game has.
    public var roundCount: Int { puzzles.count }

    /// The 1-based number of the open (or just revealed) round; nil before the start.
    public var roundNumber: Int? { round.index >= 0 ? round.index + 1 : nil }

    /// The open round as a late joiner sees it; nil outside a round and a reveal.
    public var shownRound: RoundOpened? {
        guard phase == .round || phase == .reveal, let drawn = currentPuzzle else { return nil }
        return RoundOpened(
            number: round.index + 1, total: puzzles.count, words: round.words, category: drawn.category,
            difficulty: drawn.puzzle.difficulty, points: settings.basePoints.points(for: drawn.puzzle.difficulty),
            deadline: round.deadline)
    }

    /// The round clock's end while a round is open (a frozen value while paused).
    public var roundDeadline: Instant? { phase == .round ? round.deadline : nil }

    /// The four words of the open (or just revealed) round, in the order shown.
    public var words: [String] { round.words }

    /// `team`'s pick in the open round, if it picked.
    public func pick(of team: String) -> Pick? { phase == .round ? round.picks.first { $0.team == team } : nil }

    /// The picks of the open round already announced, in press order.
    public var lockedPicks: [Pick] {
        phase == .round ? round.picks.filter { $0.position != nil }.sorted { $0.position! < $1.position! } : []
    }

    /// The 0-based position of `word` among the open round's words (folded); nil when it is none of them.
    public func choice(forWord word: String) -> Int? {
        let key = TextFolding.fold(word)
        return round.words.firstIndex { TextFolding.fold($0) == key && !key.isEmpty }
    }

    /// Every team's score.
    public var scores: [String: Int] { scoreByTeam }

    /// The standings, best first; equal scores share a rank (1, 1, 3), then join order.
    public var standings: [ShakyWords.Standing] {
        // Each team's score looked up once, and ranks read off the sorted order (a rank is one more than the
        // teams with a higher score, all of them before it): O(teams · log teams), not a count over every team per
        // team (issue 29: a 1,000-team reveal's standings were a million lookups).
        let scored = teams.enumerated().map { (offset: $0.offset, team: $0.element, score: scoreByTeam[$0.element]!) }
        let ordered = scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.offset < $1.offset }
        var standings: [ShakyWords.Standing] = []
        standings.reserveCapacity(ordered.count)
        var rank = 1
        for (index, entry) in ordered.enumerated() {
            if index > 0 && entry.score != ordered[index - 1].score { rank = index + 1 }
            standings.append(
                ShakyWords.Standing(
                    rank: rank, team: entry.team, score: entry.score, correctCount: correctByTeam[entry.team]!))
        }
        return standings
    }

    private var currentPuzzle: DrawnPuzzle? { round.index >= 0 ? puzzles[round.index] : nil }

    // MARK: - Applying events

    /// Applies one event (`play`, of `ClockedPlay`, runs the clocks around it and keeps it only when accepted).
    public mutating func handle(_ event: Event, at now: Instant, into effects: inout [Effect]) throws(RuleError) {
        switch event {
        case .start:
            guard phase == .notStarted else {
                throw phase == .finished ? Self.gameOver : RuleError(.alreadyStarted, "The game has already started.")
            }
            effects.append(openRound(0, at: now))
        case .addTeam(let team):
            guard phase != .finished else { throw Self.gameOver }
            try register(team)
            effects.append(.teamJoined(team))
        case .pick(let team, let choice, let pressedAt, let uncertaintyMs, let settleMs):
            effects += try pick(
                team: team, choice: choice, pressedAt: pressedAt, uncertaintyMs: uncertaintyMs, settleMs: settleMs,
                at: now)
        case .tick:
            break
        case .steer(.next):
            try checkStarted()
            try checkNotPaused()
            effects += phase == .round ? endRound(at: now) : [openNextOrFinish(at: now)]
        case .steer(.pause), .steer(.resume):
            break  // `apply` pauses and continues the clock
        case .steer(.end):
            guard phase != .finished else { throw Self.gameOver }
            if phase == .round { effects += announceSettled() }
            effects.append(finish())
        }
    }

    private mutating func pick(
        team: String, choice: Int, pressedAt: Instant, uncertaintyMs: Int64, settleMs: Int64, at now: Instant
    ) throws(RuleError) -> [Effect] {
        try checkStarted()
        guard scoreByTeam[team] != nil else {
            throw RuleError(.unknownTeam, "There is no team called \(team) in this game.")
        }
        guard phase == .round else { throw RuleError(.roundClosed, "This round is over; wait for the next one.") }
        try checkNotPaused()
        guard round.words.indices.contains(choice) else {
            throw RuleError(.badChoice, "Pick one of the four words, 1 to 4.")
        }
        guard !round.picks.contains(where: { $0.team == team }) else {
            throw RuleError(.alreadyPicked, "\(team) has already picked in this round; the first pick counts.")
        }
        // A press cannot be later than its arrival nor earlier than the round.
        let press = min(max(pressedAt, round.openedAt), now)
        round.picks.append(
            Pick(
                team: team, choice: choice, pressedAt: press, elapsedMs: round.openedAt.milliseconds(until: press),
                arrival: round.picks.count, position: nil))
        if round.settleDeadline == nil { round.settleDeadline = now.advanced(byMilliseconds: max(0, settleMs)) }
        var effects: [Effect] = [.picked(team: team, choice: choice, word: round.words[choice])]
        if round.picks.count == teams.count {
            effects += endRound(at: now)
        }
        return effects
    }

    // MARK: - Clocks

    /// Lets every clock due by `now` run out, earliest first (a settle window before a round clock at one instant).
    public mutating func runClocks(until now: Instant) -> [Effect] {
        var effects: [Effect] = []
        while let due = nextDeadline, due <= now {
            switch phase {
            case .round:
                if let settle = round.settleDeadline, settle <= round.deadline, settle == due {
                    effects += announceSettled()
                } else {
                    effects += endRound(at: due)
                }
            case .reveal:
                effects.append(openNextOrFinish(at: due))
            case .notStarted, .finished:
                return effects
            }
        }
        return effects
    }

    /// Announces every waiting pick in press order (ties by arrival) and closes the settle window.
    private mutating func announceSettled() -> [Effect] {
        round.settleDeadline = nil
        let waiting = round.picks.indices.filter { round.picks[$0].position == nil }.sorted { lhs, rhs in
            let (left, right) = (round.picks[lhs], round.picks[rhs])
            return (left.pressedAt, left.arrival) < (right.pressedAt, right.arrival)
        }
        var next = round.picks.count { $0.position != nil } + 1
        var effects: [Effect] = []
        for index in waiting {
            round.picks[index].position = next
            effects.append(.locked(team: round.picks[index].team, position: next))
            next += 1
        }
        return effects
    }

    // MARK: - Transitions

    private mutating func openRound(_ index: Int, at now: Instant) -> Effect {
        let drawn = puzzles[index]
        round = Round(
            index: index, openedAt: now, deadline: now.advanced(bySeconds: settings.roundSeconds),
            words: DifficultyDraw.shuffled(drawn.puzzle.words, using: &rng), picks: [], settleDeadline: nil)
        phase = .round
        nextRoundAt = nil
        return .round(shownRound!)
    }

    /// Ends the open round: announces waiting picks, scores every pick, reveals.
    private mutating func endRound(at now: Instant) -> [Effect] {
        var effects = announceSettled()
        let drawn = currentPuzzle!
        let outsider = drawn.puzzle.outsider
        let outsiderChoice = round.words.firstIndex(of: outsider) ?? 0
        let base = settings.basePoints.points(for: drawn.puzzle.difficulty)
        let limit = Int64(settings.roundSeconds) * 1000
        var results: [Result] = []
        for pick in lockedPicksInOrder {
            let isCorrect = pick.choice == outsiderChoice
            let points = isCorrect ? OutsiderSettings.points(base: base, elapsedMs: pick.elapsedMs, limitMs: limit) : 0
            scoreByTeam[pick.team]! += points
            if isCorrect { correctByTeam[pick.team]! += 1 }
            results.append(
                Result(
                    team: pick.team, choice: pick.choice, word: round.words[pick.choice], isCorrect: isCorrect,
                    points: points, elapsedMs: pick.elapsedMs))
        }
        for team in teams where !round.picks.contains(where: { $0.team == team }) {
            results.append(Result(team: team, choice: nil, word: nil, isCorrect: false, points: 0, elapsedMs: nil))
        }
        phase = .reveal
        nextRoundAt = settings.revealSeconds.flatMap { $0 > 0 ? now.advanced(bySeconds: $0) : nil }
        let reveal = Reveal(
            number: round.index + 1, words: round.words, outsider: outsider, outsiderChoice: outsiderChoice,
            link: drawn.puzzle.link,
            results: results, standings: standings, nextRoundAt: nextRoundAt,
            isLastRound: round.index + 1 == puzzles.count)
        lastReveal = reveal
        effects.append(.reveal(reveal))
        return effects
    }

    private var lockedPicksInOrder: [Pick] {
        round.picks.sorted { ($0.position ?? .max, $0.arrival) < ($1.position ?? .max, $1.arrival) }
    }

    private mutating func openNextOrFinish(at now: Instant) -> Effect {
        round.index + 1 < puzzles.count ? openRound(round.index + 1, at: now) : finish()
    }

    private mutating func finish() -> Effect {
        phase = .finished
        clock.stop()
        nextRoundAt = nil
        round.settleDeadline = nil
        finalRanking = standings
        return .scoreboard(standings)
    }

    // MARK: - Teams and checks

    private static let gameOver = RuleError(.gameOver, "The game is over.")

    private mutating func register(_ team: String) throws(RuleError) {
        let folded = TextFolding.fold(team)
        guard !folded.isEmpty else {
            throw RuleError(.invalidTeamName, "A team name needs at least one letter or digit.")
        }
        guard !FoldedTeams.contains(folded, in: foldedTeams, teams: teams) else {
            throw RuleError(.duplicateTeam, "There is already a team called \(team).")
        }
        teams.append(team)
        foldedTeams?.byKey[folded] = team
        scoreByTeam[team] = 0
        correctByTeam[team] = 0
    }

    private func checkStarted() throws(RuleError) {
        switch phase {
        case .notStarted: throw RuleError(.notStarted, "The game has not started yet.")
        case .finished: throw Self.gameOver
        case .round, .reveal: break
        }
    }

    private func checkNotPaused() throws(RuleError) {
        guard !isPaused else { throw RuleError(.paused, "The game is paused; wait for the operator to resume.") }
    }

    // MARK: - Pause and continue

    /// Refuses before the start and after the end.
    public func checkClockSteering(_ command: Steering) throws(RuleError) { try checkStarted() }

    /// Moves the round's opening, clock and settling and the next round by the time the clocks stood still.
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        // Shifting the opening keeps later presses' elapsed time free of the pause.
        round.openedAt = round.openedAt.advanced(byMilliseconds: milliseconds)
        round.deadline = round.deadline.advanced(byMilliseconds: milliseconds)
        round.settleDeadline = round.settleDeadline?.advanced(byMilliseconds: milliseconds)
        nextRoundAt = nextRoundAt?.advanced(byMilliseconds: milliseconds)
        lastReveal?.nextRoundAt = nextRoundAt
    }

    /// The operator paused.
    public var pausedEffects: [Effect] { [.paused] }

    /// The clocks run again: when the round or the wait for the next one now ends.
    public mutating func resumedEffects(at now: Instant) -> [Effect] {
        [.resumed(roundDeadline: roundDeadline, nextRoundAt: phase == .reveal ? nextRoundAt : nil)]
    }
}
