import Common

/// The rules of a station hunt: teams follow clues from station to station, check in with the code posted there,
/// solve the station's task and get the next clue. Fastest to finish wins; wrong answers and hints cost time.
///
/// A hunt is a value fixed by its hunt, teams, settings, seed and the ordered events applied to it. Hunt time is
/// the game clock since the start minus every pause, the same for every team (a team that joins late starts the
/// clock where it stands). Every event first lets an overdue hunt clock run out, then applies itself; a refused
/// event changes nothing. A wrong check-in code is not refused: it counts towards the team's lock, so it is an
/// event with an effect (`wrongCode`) that the host answers as an error.
public struct StationHunt: SteeredMode, Codable, Sendable, Equatable {
    /// The hunt being played, codes included.
    public let hunt: Hunt
    /// The settings the hunt was started with.
    public let settings: HuntSettings
    /// The teams, in the order they joined.
    public private(set) var teams: [String]
    /// Each team by its folded name: finding a team (every action, every join) and registering 2,000 teams must not
    /// fold every name (issue 29); nil in a value decoded without it (then the teams are scanned).
    private var foldedTeams: FoldedTeams?
    private var states: [String: TeamState] = [:]
    private var rng: SplitMix64
    /// Where the hunt is.
    public private(set) var phase: Phase = .notStarted
    private var startedAt = Instant(milliseconds: 0)
    /// Whether the hunt clock runs or stands still (the operator's pause).
    public var clock = GameClock()
    private var pausedMs: Int64 = 0
    /// Whether the clock stands still since a host restart (not the operator's pause) until a player is back.
    public private(set) var isHeldForRestart = false
    /// The final ranking once the hunt is over.
    public private(set) var finalRanking: [Ranked]?
    /// True when the hunt clock ran out (not every team found every station, nor the organiser's `end`).
    public private(set) var isTimeUp: Bool?

    /// Creates a hunt; refuses no teams, duplicate or blank team names and nonsensical settings.
    public init(hunt: Hunt, teams: [String], settings: HuntSettings = HuntSettings(), seed: UInt64) throws(RuleError) {
        try settings.validate()
        guard !teams.isEmpty else { throw RuleError(.noTeams, "Add at least one team before starting.") }
        guard !hunt.stations.isEmpty else { throw RuleError(.badHunt, "The hunt has no stations.") }
        self.hunt = hunt
        self.settings = settings
        self.teams = []
        foldedTeams = FoldedTeams()
        rng = SplitMix64(seed: seed)
        for team in teams { try register(team, startingCount: teams.count) }
    }

    // MARK: - Views for the host

    /// When the hunt clock runs out; nil while paused or when not running.
    public var nextDeadline: Instant? { phase == .running && !isPaused ? endsAt : nil }

    /// When the hunt clock runs out (a frozen value while paused).
    public var endsAt: Instant {
        startedAt.advanced(byMilliseconds: Int64(settings.minutes) * 60_000 + pausedMs)
    }

    /// Hunt time at `now`: milliseconds since the start, pauses excluded.
    public func huntTime(at now: Instant) -> Int64 {
        guard phase != .notStarted else { return 0 }
        let end = clock.frozen(now)
        return max(0, startedAt.milliseconds(until: end) - pausedMs)
    }

    /// How many stations the hunt has.
    public var stationCount: Int { hunt.stations.count }

    /// Where `team` is, in full; nil when it is not in the hunt.
    public func state(of team: String) -> TeamState? { states[team] }

    /// The team of the hunt whose name is `name` once folded.
    public func team(named name: String) -> String? {
        let key = TextFolding.fold(name)
        if let foldedTeams { return foldedTeams.byKey[key] }
        return teams.first { TextFolding.fold($0) == key }
    }

    /// `team`'s current clue while it is travelling.
    public func clue(for team: String) -> Clue? {
        guard phase == .running, let state = states[team], state.stage == .travelling else { return nil }
        return clue(state)
    }

    /// `team`'s current task while it is solving.
    public func task(for team: String) -> Task? {
        guard phase == .running, let state = states[team], state.stage == .solving else { return nil }
        return task(state)
    }

    /// The hints `team` has seen at its current station.
    public func shownHints(for team: String) -> [HintShown] {
        guard phase == .running, let state = states[team], state.stage == .solving else { return [] }
        let station = hunt.stations[state.route[state.solvedCount]]
        var penalties = state.penaltiesMs
        var shown: [HintShown] = []
        // Penalties as they stood after each hint: the later hints' costs taken back off.
        for number in stride(from: state.hintsShown, to: 0, by: -1) {
            shown.insert(hint(station, number: number, penaltiesMs: penalties), at: 0)
            penalties -= Int64(station.hints[number - 1].costSeconds) * 1000
        }
        return shown
    }

    /// Every team's public progress, in join order.
    public var progress: [Progress] { teams.map(progressRow) }

    /// Whether `team` belongs in the progress and rankings everyone sees: every team there at the start, and a team
    /// formed mid-hunt once it checked in somewhere (one that never did is a ghost, shown to operators only).
    public func isShown(_ team: String) -> Bool {
        guard let state = states[team] else { return false }
        return !state.joinedLate || state.hasCheckedIn
    }

    /// Every solve so far as the operators saw it, oldest first.
    public var solveLog: [(team: String, solved: Solved)] {
        var log: [(team: String, solved: Solved)] = []
        for team in teams {
            let state = states[team]!
            for (offset, at) in state.solvedAtMs.enumerated() {
                log.append((team, solved(state, index: offset, elapsedMs: at, penaltiesMs: nil)))
            }
        }
        return log.sorted { $0.solved.elapsedMs < $1.solved.elapsedMs }
    }

    /// The current ranking: by stations solved, then total time (hunt time of the last solve plus penalties).
    public var ranking: [Ranked] {
        let rows = teams.map { team -> Ranked in
            let state = states[team]!
            let total = (state.solvedAtMs.last ?? 0) + state.penaltiesMs
            return Ranked(
                rank: 0, team: team, stations: state.solvedCount, totalMs: total, penaltiesMs: state.penaltiesMs,
                isFinished: state.stage == .finished)
        }
        let ordered = rows.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element, rhs.element)
            if left.stations != right.stations { return left.stations > right.stations }
            if left.totalMs != right.totalMs { return left.totalMs < right.totalMs }
            return lhs.offset < rhs.offset
        }.map(\.element)
        // A rank is one more than the teams strictly ahead, all before it in this order: read off the order in one
        // pass (issue 29: counting over every team per team was a million comparisons at 1,000 teams).
        var ranked = ordered
        for index in ranked.indices {
            let previous = index > 0 ? ranked[index - 1] : nil
            let isTied = previous.map { $0.stations == ranked[index].stations && $0.totalMs == ranked[index].totalMs }
            ranked[index].rank = isTied == true ? previous!.rank : index + 1
        }
        return ranked
    }

    // MARK: - Applying events

    /// Applies `event` (not `pause` or `continue`: `apply` does those) as seen at `now`; a refused event leaves
    /// the hunt unchanged.
    public mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        var game = self
        var effects = game.runClock(until: now)
        try game.handle(event, at: now, into: &effects)
        self = game
        return effects
    }

    private mutating func handle(_ event: Event, at now: Instant, into effects: inout [Effect]) throws(RuleError) {
        switch event {
        case .start:
            guard phase == .notStarted else {
                throw phase == .finished ? Self.gameOver : RuleError(.alreadyStarted, "The hunt has already started.")
            }
            phase = .running
            startedAt = now
            effects += teams.map { .clue(team: $0, clue(states[$0]!)) }
            effects.append(.progress(progress))
        case .addTeam(let team):
            guard phase != .finished else { throw Self.gameOver }
            try register(team, startingCount: nil)
            if phase == .running {
                // A team formed mid-hunt costs a wait before its first check-in (and shows in the progress only
                // once it checked in), so throwaway teams multiply neither guesses nor rows.
                states[team]!.joinedLate = true
                let wait = settings.lateTeamWaitSeconds ?? 0
                if wait > 0 { states[team]!.lockedUntil = now.advanced(bySeconds: wait) }
                effects.append(.clue(team: team, clue(states[team]!)))
                effects.append(.progress([progressRow(team)]))
            }
        case .checkIn(let team, let code):
            effects += try checkIn(team: team, code: code, at: now)
        case .pick(let team, let choice):
            let state = try solving(team)
            guard case .puzzle = currentTask(state) else {
                throw RuleError(.badChoice, "This station asks a question; type your answer.")
            }
            guard state.words.indices.contains(choice) else {
                throw RuleError(.badChoice, "Pick one of the four words, 1 to 4.")
            }
            let word = state.words[choice]
            try refuseRepeat(word, state)
            effects += judge(team: team, typed: word, isRight: isOutsider(word, state), at: now)
        case .answer(let team, let text):
            let state = try solving(team)
            guard !TextFolding.compact(text).isEmpty else {
                throw RuleError(.emptyAnswer, "Type an answer before sending it.")
            }
            switch currentTask(state) {
            case .puzzle:
                let key = TextFolding.fold(text)
                guard let word = state.words.first(where: { TextFolding.fold($0) == key }) else {
                    throw RuleError(
                        .badChoice, "\"\(ContentText.excerpt(text, limit: 30))\" is not one of the four words.")
                }
                try refuseRepeat(word, state)
                effects += judge(team: team, typed: word, isRight: isOutsider(word, state), at: now)
            case .question(_, let answer):
                let verdict = AnswerJudge(isForgiving: settings.isForgiving).judge(text, against: answer)
                effects += judge(team: team, typed: text, isRight: verdict.isCorrect, at: now)
            }
        case .hint(let team):
            let state = try solving(
                team,
                travellingError: RuleError(.wrongPhase, "Check in at the station first; its hints are for its task."))
            let station = hunt.stations[state.route[state.solvedCount]]
            guard state.hintsShown < station.hints.count else {
                throw RuleError(
                    .noMoreHints,
                    station.hints.isEmpty ? "This station has no hints." : "That was the last hint of this station.")
            }
            states[team]!.hintsShown += 1
            states[team]!.penaltiesMs += Int64(station.hints[state.hintsShown].costSeconds) * 1000
            let updated = states[team]!
            effects.append(
                .hint(team: team, hint(station, number: updated.hintsShown, penaltiesMs: updated.penaltiesMs)))
            effects.append(.progress([progressRow(team)]))
        case .tick:
            break
        case .steer(.next):
            try checkRunning()
            throw RuleError(.wrongPhase, "A hunt has no rounds to skip; `end` stops it.")
        case .steer(.pause), .steer(.resume):
            break  // `apply` pauses and continues the clock
        case .hostRestarted:
            // Held like a pause, so that the operator's `continue` also lets it run; a paused hunt stays paused.
            guard phase == .running, !isPaused else { return }
            try clock.pause(at: now, noun: Self.clockNoun)
            isHeldForRestart = true
        case .playerBack:
            guard isHeldForRestart else { return }
            isHeldForRestart = false
            shiftDeadlines(byMilliseconds: try clock.resume(at: now, noun: Self.clockNoun))
            effects += resumedEffects(at: now)
        case .steer(.end):
            guard phase != .finished else { throw Self.gameOver }
            effects.append(finish(at: now))
        }
    }

    private mutating func checkIn(team: String, code: String, at now: Instant) throws(RuleError) -> [Effect] {
        let state = try playable(team)
        guard state.stage != .finished else {
            throw RuleError(.alreadyFinished, "Your team has found every station; wait for the others.")
        }
        if let lockedUntil = state.lockedUntil, now < lockedUntil {
            let seconds = (now.milliseconds(until: lockedUntil) + 999) / 1000
            if state.joinedLate && !state.hasCheckedIn && state.wrongCodes == 0 {
                throw RuleError(
                    .codeLocked,
                    "Your team joined the running hunt: it may check in \(seconds) seconds from now. Find the station "
                        + "meanwhile.", until: lockedUntil)
            }
            throw RuleError(
                .codeLocked, "Too many wrong codes: check-ins are locked for \(seconds) more seconds.",
                until: lockedUntil)
        }
        let typed = Hunt.normalizedCode(code)
        guard !typed.isEmpty else { throw RuleError(.emptyAnswer, "Type the code posted at the station.") }
        let target = state.route[state.solvedCount]
        let route = state.route
        if let index = hunt.stations.firstIndex(where: { $0.code == typed }) {
            let place = route.firstIndex(of: index)!
            if index == target {
                guard state.stage == .travelling else {
                    throw RuleError(.alreadyCheckedIn, "You are already checked in here; solve the station's task.")
                }
                states[team]!.stage = .solving
                states[team]!.wrongCodes = 0
                states[team]!.lockedUntil = nil
                states[team]!.hintsShown = 0
                let isFirst = !states[team]!.hasCheckedIn
                states[team]!.hasCheckedIn = true
                if case .puzzle(let puzzle) = hunt.stations[index].task {
                    states[team]!.words = DifficultyDraw.shuffled(puzzle.words, using: &rng)
                }
                // A late team's row joins everyone's progress at its first check-in.
                let shown: [Effect] = isFirst && state.joinedLate ? [.progress([progressRow(team)])] : []
                return [.task(team: team, task(states[team]!))] + shown
            }
            if place < state.solvedCount {
                throw RuleError(.alreadyCheckedIn, "Your team already solved that station; follow your clue onwards.")
            }
        }
        if state.stage == .solving {
            throw RuleError(
                .alreadyCheckedIn,
                "You are checked in at station \(state.solvedCount + 1): solve its task first, then follow the next clue."
            )
        }
        // A later station's code counts as a wrong code, so trying codes tells a team nothing about the route.
        states[team]!.wrongCodes += 1
        if states[team]!.wrongCodes >= settings.wrongCodeLimit {
            let until = now.advanced(bySeconds: settings.lockSeconds)
            states[team]!.wrongCodes = 0
            states[team]!.lockedUntil = until
            return [.wrongCode(team: team, code: typed, attemptsLeft: 0, lockedUntil: until)]
        }
        return [
            .wrongCode(
                team: team, code: typed, attemptsLeft: settings.wrongCodeLimit - states[team]!.wrongCodes,
                lockedUntil: nil)
        ]
    }

    /// Refuses a puzzle word this team already picked wrong: it was shown wrong once and costs nothing again.
    private func refuseRepeat(_ word: String, _ state: TeamState) throws(RuleError) {
        guard state.wrongPicks.contains(word) else { return }
        let left = state.words.filter { !state.wrongPicks.contains($0) }.joined(separator: ", ")
        throw RuleError(
            .badChoice, "You already tried \"\(word)\": it is not the odd one out (no new penalty). Left: \(left).")
    }

    /// A right or wrong pick or answer (`typed`: the word picked or the text typed) at the team's current station.
    private mutating func judge(team: String, typed: String, isRight: Bool, at now: Instant) -> [Effect] {
        guard isRight else {
            let penalty = Int64(settings.penaltySeconds) * 1000
            states[team]!.penaltiesMs += penalty
            if states[team]!.words.contains(typed) { states[team]!.wrongPicks.append(typed) }
            return [
                .wrongAnswer(team: team, answer: typed, penaltyMs: penalty, penaltiesMs: states[team]!.penaltiesMs),
                .progress([progressRow(team)]),
            ]
        }
        let elapsed = huntTime(at: now)
        var state = states[team]!
        state.solvedAtMs.append(elapsed)
        state.solvedCount += 1
        state.stage = state.solvedCount == state.route.count ? .finished : .travelling
        state.words = []
        state.wrongPicks = []
        state.hintsShown = 0
        states[team] = state
        var solved = solved(state, index: state.solvedCount - 1, elapsedMs: elapsed, penaltiesMs: state.penaltiesMs)
        solved.typed = typed
        var effects: [Effect] = [.solved(team: team, solved)]
        if state.stage == .travelling { effects.append(.clue(team: team, clue(state))) }
        effects.append(.progress([progressRow(team)]))
        if teams.allSatisfy({ states[$0]!.stage == .finished }) { effects.append(finish(at: now)) }
        return effects
    }

    // MARK: - Clock and end

    private mutating func runClock(until now: Instant) -> [Effect] {
        guard let deadline = nextDeadline, deadline <= now else { return [] }
        isTimeUp = true
        return [finish(at: deadline)]
    }

    private mutating func finish(at now: Instant) -> Effect {
        if let pausedAt = clock.stop() { pausedMs += pausedAt.milliseconds(until: now) }
        phase = .finished
        finalRanking = ranking
        return .scoreboard(finalRanking!)
    }

    // MARK: - Building views

    private func clue(_ state: TeamState) -> Clue {
        Clue(
            number: state.solvedCount + 1, total: hunt.stations.count,
            text: hunt.stations[state.route[state.solvedCount]].clue)
    }

    private func currentTask(_ state: TeamState) -> Hunt.Task { hunt.stations[state.route[state.solvedCount]].task }

    private func task(_ state: TeamState) -> Task {
        let station = hunt.stations[state.route[state.solvedCount]]
        let kind: Task.Kind
        switch station.task {
        case .puzzle: kind = .puzzle(words: state.words)
        case .question(let text, let answer):
            kind = .question(text: text, letters: LetterScrambler.letterCount(in: answer))
        }
        return Task(
            number: state.solvedCount + 1, total: hunt.stations.count, kind: kind, hints: station.hints.count,
            hintCosts: station.hints.map(\.costSeconds))
    }

    private func hint(_ station: Hunt.Station, number: Int, penaltiesMs: Int64) -> HintShown {
        let hint = station.hints[number - 1]
        return HintShown(
            number: number, total: station.hints.count, text: hint.text, costMs: Int64(hint.costSeconds) * 1000,
            penaltiesMs: penaltiesMs)
    }

    private func solved(_ state: TeamState, index: Int, elapsedMs: Int64, penaltiesMs: Int64?) -> Solved {
        let station = hunt.stations[state.route[index]]
        let answer: String
        switch station.task {
        case .puzzle(let puzzle): answer = puzzle.outsider
        case .question(_, let text): answer = text
        }
        return Solved(
            number: index + 1, total: hunt.stations.count, name: station.name, success: station.success,
            answer: answer, elapsedMs: elapsedMs, penaltiesMs: penaltiesMs ?? state.penaltiesMs,
            isLast: index + 1 == state.route.count)
    }

    private func progressRow(_ team: String) -> Progress {
        let state = states[team]!
        return Progress(
            team: team, stations: state.solvedCount, total: hunt.stations.count,
            elapsedMs: state.solvedAtMs.last ?? 0, penaltiesMs: state.penaltiesMs, isFinished: state.stage == .finished)
    }

    private func isOutsider(_ word: String, _ state: TeamState) -> Bool {
        guard case .puzzle(let puzzle) = currentTask(state) else { return false }
        return puzzle.isOutsider(word)
    }

    // MARK: - Teams and checks

    private static let gameOver = RuleError(.gameOver, "The hunt is over.")

    /// Adds a team with its route: the hunt's order, or (staggered) starting `index × stations ÷ teams` stations
    /// along for the teams there at the start and `index` stations along for later ones.
    private mutating func register(_ team: String, startingCount: Int?) throws(RuleError) {
        let folded = TextFolding.fold(team)
        guard !folded.isEmpty else {
            throw RuleError(.invalidTeamName, "A team name needs at least one letter or digit.")
        }
        guard !FoldedTeams.contains(folded, in: foldedTeams, teams: teams) else {
            throw RuleError(.duplicateTeam, "There is already a team called \(team).")
        }
        foldedTeams?.byKey[folded] = team
        let count = hunt.stations.count
        let index = teams.count
        var start = 0
        if settings.order == .staggered {
            start = startingCount.map { index * count / max(1, $0) } ?? index
        }
        teams.append(team)
        states[team] = TeamState(route: (0..<count).map { ($0 + start) % count })
    }

    // MARK: - Pause and continue

    /// A hunt says "The hunt is already paused."
    public static var clockNoun: String { "hunt" }

    /// Refuses before the start and after the end.
    public func checkClockSteering(_ command: Steering) throws(RuleError) { try checkRunning() }

    /// Moves the hunt clock's end and every team's lockout by the time the clock stood still.
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        pausedMs += milliseconds
        for team in teams {
            states[team]!.lockedUntil = states[team]!.lockedUntil?.advanced(byMilliseconds: milliseconds)
        }
    }

    /// The operator paused.
    public var pausedEffects: [Effect] { [.paused] }

    /// The clock runs again: when the hunt now ends.
    public mutating func resumedEffects(at now: Instant) -> [Effect] {
        isHeldForRestart = false  // the operator's `continue` also ends a hold for a restart
        return [.resumed(endsAt: endsAt)]
    }

    private func checkRunning() throws(RuleError) {
        switch phase {
        case .notStarted: throw RuleError(.notStarted, "The hunt has not started yet.")
        case .finished: throw Self.gameOver
        case .running: break
        }
    }

    /// `team`'s state once the hunt runs, is not paused and knows the team.
    private func playable(_ team: String) throws(RuleError) -> TeamState {
        try checkRunning()
        guard let state = states[team] else {
            throw RuleError(.unknownTeam, "There is no team called \(team) in this hunt.")
        }
        guard !isPaused else { throw RuleError(.paused, "The hunt is paused; wait for the operator to resume.") }
        return state
    }

    /// `team`'s state while it is checked in at a station.
    private func solving(_ team: String, travellingError: RuleError? = nil) throws(RuleError) -> TeamState {
        let state = try playable(team)
        switch state.stage {
        case .solving: return state
        case .finished: throw RuleError(.alreadyFinished, "Your team has found every station; wait for the others.")
        case .travelling:
            throw travellingError
                ?? RuleError(.wrongPhase, "Check in at the station first: type the code posted there (checkin CODE).")
        }
    }
}
