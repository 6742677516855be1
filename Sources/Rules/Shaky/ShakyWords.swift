/// The rules of Shaky Words: teams see the answer's letters scrambled, buzz, and answer in fair order.
///
/// A game is a value fixed by its teams, questions, settings, seed and the ordered events applied to it.
/// Every event first lets any overdue clock run out (as a tick would), then applies itself, then lets
/// zero-length clocks run out; a refused event changes nothing. Clocks that start a new period (a
/// question, a turn, a reveal pause) start at the event's `now`, so a late tick catches up on every
/// deadline that passed without chaining through periods nobody saw.
///
/// Teams added with `addTeam` while a question is open get their letters and may play that question.
public struct ShakyWords: ClockedPlay, Codable, Sendable, Equatable {
    /// The settings the game was created with.
    public let settings: ShakySettings
    private let questions: [QuizQuestion]
    /// The teams, in the order they joined.
    public private(set) var teams: [String]
    private var scoreByTeam: [String: Int]
    private var correctByTeam: [String: Int]
    private var rng: SplitMix64
    /// Where the game is.
    public private(set) var phase: Phase = .notStarted
    /// Whether the clocks run or stand still (the operator's pause).
    public var clock = GameClock()
    /// During a reveal, when the next question opens by itself (nil when waiting for the operator).
    public private(set) var nextQuestionAt: Instant?
    private var round = Round(
        index: -1, openedAt: Instant(milliseconds: 0), buzzDeadline: Instant(milliseconds: 0),
        isBuzzOpen: false)
    /// The question before the current one, kept so the quizmaster can still overrule a verdict on it once the
    /// next question has opened.
    private var previousRound: Round?
    private var finalStandings: [Standing]?
    /// How the last question ended, for a viewer who joins during its reveal.
    public private(set) var lastReveal: Reveal?

    /// The state of the current (or last) question.
    private struct Round: Codable, Sendable, Equatable {
        var index: Int
        var openedAt: Instant
        var buzzDeadline: Instant
        var isBuzzOpen: Bool
        var queue = BuzzQueue()
        var answerDeadline: Instant?
        var letters: [String: ShakyLetters] = [:]
        /// What boards and operators see: the first team's letters as dealt, before any team's paid hints.
        var spectatorLetters: ShakyLetters?
        var shakes: [String: Int] = [:]
        /// Every answer typed to this question (and every turn that ran out), as judged.
        var answers: [AnswerRecord] = []
        /// The team whose answer waits for the operator's verdict (judging by hand).
        var awaitingVerdict: String?
    }

    /// Creates a game; refuses no teams, duplicate or blank team names, no questions and nonsensical settings.
    public init(
        teams: [String], questions: [QuizQuestion], settings: ShakySettings = ShakySettings(),
        seed: UInt64
    ) throws(RuleError) {
        try settings.validate()
        guard !teams.isEmpty else { throw RuleError(.noTeams, "Add at least one team before starting.") }
        guard !questions.isEmpty else {
            throw RuleError(.noQuestions, "Choose at least one question before starting.")
        }
        self.settings = settings
        self.questions = questions
        self.teams = []
        self.scoreByTeam = [:]
        self.correctByTeam = [:]
        self.rng = SplitMix64(seed: seed)
        for team in teams {
            try checkNewTeamName(team)
            register(team)
        }
    }

    // MARK: - Views for the host

    /// The earliest instant at which the game wants a tick; nil while paused or when nothing is pending.
    public var nextDeadline: Instant? { dueClock()?.instant }

    /// How many questions the game has.
    public var questionCount: Int { questions.count }

    /// The 1-based number of the open (or just revealed) question; nil before the start.
    public var questionNumber: Int? { round.index >= 0 ? round.index + 1 : nil }

    /// The text of the open (or just revealed) question.
    public var questionText: String? { currentQuestion?.text }

    /// The difficulty of the open (or just revealed) question.
    public var questionDifficulty: Difficulty? { currentQuestion?.difficulty }

    /// The answer of the open (or just revealed) question, for the quizmaster's eyes only (never send it to players
    /// before the reveal).
    public var currentAnswer: String? { currentQuestion?.answer }

    /// The answer, only once revealed (during a reveal); nil otherwise.
    public var revealedAnswer: String? { phase == .reveal ? currentQuestion?.answer : nil }

    /// The letters boards and operators see for the open (or just revealed) question: never a team's hints.
    public var spectatorLetters: ShakyLetters? { round.spectatorLetters }

    /// `team`'s letters for the open (or just revealed) question.
    public func letters(for team: String) -> ShakyLetters? { round.letters[team] }

    /// How many times `team` shook on the open (or just revealed) question.
    public func shakeCount(for team: String) -> Int { round.shakes[team, default: 0] }

    /// The points `team` would win with a correct answer now (base minus its shakes, never below 0).
    public func pointsOnOffer(for team: String) -> Int? {
        guard currentQuestion != nil, scoreByTeam[team] != nil else { return nil }
        return offer(for: team, in: round)
    }

    /// What a correct answer of `team` was worth in `round` (base minus its shakes there, never below 0).
    private func offer(for team: String, in round: Round) -> Int {
        let base = settings.basePoints.points(for: questions[round.index].difficulty)
        return max(0, base - round.shakes[team, default: 0] * (base * settings.shakeCostPercent / 100))
    }

    /// The points `team`'s next shake would take off what it may win (never more than is on offer).
    public func nextShakeCost(for team: String) -> Int? {
        guard let question = currentQuestion, let points = pointsOnOffer(for: team) else { return nil }
        return min(points, settings.basePoints.points(for: question.difficulty) * settings.shakeCostPercent / 100)
    }

    /// The buzz queue of the open (or just revealed) question, in fair order.
    public var queueEntries: [BuzzQueue.Entry] { round.queue.entries }

    /// The team on turn to answer, if any.
    public var teamOnTurn: String? { phase == .question ? round.queue.teamOnTurn : nil }

    /// When the open or just-revealed question opened.
    public var questionOpenedAt: Instant? { round.index >= 0 ? round.openedAt : nil }

    /// The answers typed to question `number` (the current one or the one before), and when it opened.
    public func answers(toQuestion number: Int) -> (answers: [AnswerRecord], openedAt: Instant)? {
        for candidate in [round, previousRound].compactMap({ $0 }) where candidate.index + 1 == number {
            return (candidate.answers, candidate.openedAt)
        }
        return nil
    }

    /// `team`'s latest answer and the number of its question: in the current question, else the one before.
    public func latestAnswer(of team: String) -> (question: Int, answer: AnswerRecord)? {
        for candidate in [round, previousRound].compactMap({ $0 }) {
            if let answer = candidate.answers.last(where: { $0.team == team }) { return (candidate.index + 1, answer) }
        }
        return nil
    }

    /// The answers typed to the open or just-revealed question (and turns that ran out), as judged, in order.
    public var answers: [AnswerRecord] { round.index >= 0 ? round.answers : [] }

    /// The team whose answer waits for the operator's verdict, if any (judging by hand).
    public var teamAwaitingVerdict: String? { phase == .question ? round.awaitingVerdict : nil }

    /// Whether the buzz order may be shown: no first buzz is still waiting for earlier presses to arrive.
    public var isBuzzOrderSettled: Bool { round.queue.commitDeadline == nil }

    /// Whether `team` has buzzed on the open question.
    public func hasBuzzed(_ team: String) -> Bool { phase == .question && round.queue.contains(team) }

    /// Whether `team` is out for the open question (answered wrong or ran out of time).
    public func isOut(_ team: String) -> Bool { phase == .question && round.queue.isDone(team) }

    /// Whether teams may still buzz on the open question.
    public var isBuzzOpen: Bool { phase == .question && round.isBuzzOpen }

    /// When buzzing closes, while the buzz clock runs (a frozen value while paused).
    public var buzzDeadline: Instant? { isBuzzOpen ? round.buzzDeadline : nil }

    /// When the team on turn runs out of time (a frozen value while paused).
    public var answerDeadline: Instant? { phase == .question ? round.answerDeadline : nil }

    /// Every team's score.
    public var scores: [String: Int] { scoreByTeam }

    /// How many questions each team answered correctly.
    public var correctCounts: [String: Int] { correctByTeam }

    /// The current standings, best first; equal scores share a rank (1, 1, 3), then join order.
    public var standings: [Standing] {
        let ordered = teams.enumerated().sorted { lhs, rhs in
            let (left, right) = (scoreByTeam[lhs.element]!, scoreByTeam[rhs.element]!)
            return left != right ? left > right : lhs.offset < rhs.offset
        }.map(\.element)
        return ordered.map { team in
            let score = scoreByTeam[team]!
            return Standing(
                rank: 1 + teams.filter { scoreByTeam[$0]! > score }.count, team: team,
                score: score, correctCount: correctByTeam[team]!)
        }
    }

    /// The open or just-revealed question as it stands now (each team's letters with its hints so far), for a
    /// viewer joining now.
    public var shownQuestion: QuestionOpened? {
        guard phase == .question || phase == .reveal, let question = currentQuestion else { return nil }
        return QuestionOpened(
            number: round.index + 1, total: questions.count, text: question.text,
            difficulty: question.difficulty,
            pointsOnOffer: settings.basePoints.points(for: question.difficulty),
            buzzDeadline: round.buzzDeadline, letters: round.letters)
    }

    /// The final ranking once the game is finished; nil before.
    public var finalRanking: [Standing]? { finalStandings }

    private var currentQuestion: QuizQuestion? { round.index >= 0 ? questions[round.index] : nil }

    // MARK: - Applying events

    /// Applies one event (`play`, of `ClockedPlay`, runs the clocks around it and keeps it only when accepted).
    public mutating func handle(_ event: Event, at now: Instant, into effects: inout [Effect]) throws(RuleError) {
        switch event {
        case .start:
            guard phase == .notStarted else {
                throw phase == .finished ? Self.gameOver : RuleError(.alreadyStarted, "The game has already started.")
            }
            effects.append(openQuestion(0, at: now))
        case .addTeam(let team):
            guard phase != .finished else { throw Self.gameOver }
            try checkNewTeamName(team)
            register(team)
            var letters: ShakyLetters?
            if phase == .question, let question = currentQuestion {
                letters = LetterScrambler.scramble(question.answer, fixing: 0, using: &rng)
                round.letters[team] = letters
            }
            effects.append(.teamJoined(team: team, letters: letters))
        case .buzz(let team, let pressedAt, let uncertaintyMs, let settleMs):
            effects += try buzz(
                team: team, pressedAt: pressedAt, uncertaintyMs: uncertaintyMs,
                settleMs: settleMs, at: now)
        case .answer(let team, let text, let player):
            effects += try answer(team: team, text: text, player: player, at: now)
        case .judge(let team, let correct):
            try checkStarted()
            guard scoreByTeam[team] != nil else {
                throw RuleError(.unknownTeam, "There is no team called \(team) in this game.")
            }
            effects += try judge(team: team, correct: correct, at: now)
        case .shake(let team):
            effects.append(try shake(team: team))
        case .tick:
            break
        case .steer(.next):
            try checkStarted()
            try checkNotPaused()
            if phase == .question {
                effects.append(endQuestion(scorer: nil, points: 0, at: now))
            } else {
                effects.append(openNextOrFinish(at: now))
            }
        case .steer(.pause), .steer(.resume):
            break  // `apply` pauses and continues the clock
        case .steer(.end):
            guard phase != .finished else { throw Self.gameOver }
            effects.append(finish())
        }
    }

    private mutating func buzz(
        team: String, pressedAt: Instant, uncertaintyMs: Int64, settleMs: Int64,
        at now: Instant
    ) throws(RuleError) -> [Effect] {
        try checkPlayable(
            by: team, whenClosed: RuleError(.buzzClosed, "This question is over; wait for the next one to buzz."))
        // A repeated buzz gets the queue's own `already_buzzed`, even once the clock has run out.
        guard round.isBuzzOpen || round.queue.contains(team) else {
            throw RuleError(.buzzClosed, "Time is up for buzzing on this question.")
        }
        if round.queue.isEmpty {
            round.buzzDeadline = min(round.buzzDeadline, now.advanced(bySeconds: settings.afterBuzzSeconds))
        }
        // A press cannot be later than its arrival nor earlier than the question.
        let press = min(max(pressedAt, round.openedAt), now)
        try round.queue.add(
            team: team, pressedAt: press, uncertaintyMs: uncertaintyMs,
            settleMs: settleMs, arrivedAt: now, tieKey: rng.next())
        // While the head of the queue is still settling, the order stays private: announcing a rival's
        // buzz before it is committed would let a client that lies about its latency react and overtake.
        var effects: [Effect] = []
        let isSettling = round.queue.commitDeadline.map { $0 > now } ?? false
        if !isSettling {
            effects.append(
                .buzzed(BuzzUpdate(team: team, entries: round.queue.entries, buzzDeadline: round.buzzDeadline)))
        }
        effects += advanceTurns(at: now)
        return effects
    }

    private mutating func answer(team: String, text: String, player: String?, at now: Instant) throws(RuleError)
        -> [Effect]
    {
        try checkPlayable(by: team)
        guard round.queue.teamOnTurn == team else {
            let onTurn =
                round.queue.teamOnTurn.map { "It is \($0)'s turn to answer." } ?? "Nobody is on turn to answer."
            let why = round.queue.isDone(team) ? "\(team) is out for this question. " : ""
            throw RuleError(.notYourTurn, why + onTurn)
        }
        guard !TextFolding.compact(text).isEmpty else {
            throw RuleError(.emptyAnswer, "Type an answer before sending it.")
        }
        guard round.awaitingVerdict == nil else {
            throw RuleError(.awaitingVerdict, "Your answer is with the quizmaster; wait for the verdict.")
        }
        if settings.isJudgedByHand {
            round.answers.append(
                AnswerRecord(team: team, text: text, player: player, verdict: nil, isByHand: true, points: 0, at: now))
            round.awaitingVerdict = team
            round.answerDeadline = nil
            return [.awaitingVerdict(team: team, text: text)]
        }
        let verdict = AnswerJudge(isForgiving: settings.isForgiving).judge(text, against: currentQuestion!.answer)
        round.answers.append(
            AnswerRecord(team: team, text: text, player: player, verdict: verdict, isByHand: false, points: 0, at: now))
        return settle(team: team, verdict: verdict, at: now)
    }

    /// Ends `team`'s turn with `verdict`: a right answer scores and ends the question, a wrong one passes the turn.
    private mutating func settle(team: String, verdict: AnswerVerdict, at now: Instant) -> [Effect] {
        if verdict.isCorrect {
            let points = pointsOnOffer(for: team)!
            scoreByTeam[team]! += points
            correctByTeam[team]! += 1
            round.answers[round.answers.count - 1].points = points
            round.queue.endTurn(at: now)
            return [
                .result(
                    team: team, correct: true, pointsAwarded: points, isMisspelling: verdict.isMisspelling,
                    isTimedOut: false),
                endQuestion(scorer: team, points: points, at: now),
            ]
        }
        return endTurnWithoutScore(isTimedOut: false, at: now)
    }

    /// The operator's verdict on an answer waiting for it, or an overrule of the last verdict on `team`'s answer:
    /// to the open or just-revealed question, or, when the team has not answered the open one, to the question
    /// before it (a protest usually comes once the next question is up).
    private mutating func judge(team: String, correct: Bool, at now: Instant) throws(RuleError) -> [Effect] {
        guard phase == .question || phase == .reveal else {
            throw RuleError(.nothingToJudge, "There is no question to judge now.")
        }
        try checkNotPaused()
        if let index = round.answers.lastIndex(where: { $0.team == team }) {
            if phase == .question, round.awaitingVerdict == team {
                round.awaitingVerdict = nil
                round.answers[index].verdict = correct ? .exact : .wrong
                return settle(team: team, verdict: correct ? .exact : .wrong, at: now)
            }
            let wasCorrect = try round.answers[index].overrule(correct: correct, question: round.index + 1)
            if correct, phase == .question {
                // Accepting an answer judged wrong while the question is open: the team scores and it ends.
                let points = offer(for: team, in: round)
                scoreByTeam[team]! += points
                correctByTeam[team]! += 1
                round.answers[index].points = points
                if round.queue.teamOnTurn != nil { round.queue.endTurn(at: now) }
                round.answerDeadline = nil
                return [
                    .result(
                        team: team, correct: true, pointsAwarded: points, isMisspelling: false,
                        isTimedOut: false),
                    endQuestion(scorer: team, points: points, at: now),
                ]
            }
            var answer = round.answers[index]
            let effect = rescore(team: team, correct: correct, wasCorrect: wasCorrect, answer: &answer, in: round)
            round.answers[index] = answer
            return [effect]
        }
        guard phase == .question, var previous = previousRound,
            let index = previous.answers.lastIndex(where: { $0.team == team })
        else {
            let which = previousRound == nil ? "this question" : "this question or the one before"
            throw RuleError(.nothingToJudge, "\(team) has not answered \(which).")
        }
        let wasCorrect = try previous.answers[index].overrule(correct: correct, question: previous.index + 1)
        let effect = rescore(
            team: team, correct: correct, wasCorrect: wasCorrect, answer: &previous.answers[index], in: previous)
        previousRound = previous
        return [effect]
    }

    /// Moves `team`'s points after the quizmaster changed the verdict on `answer`, given in `round`.
    private mutating func rescore(
        team: String, correct: Bool, wasCorrect: Bool, answer: inout AnswerRecord, in round: Round
    ) -> Effect {
        let change = correct ? offer(for: team, in: round) : -answer.points
        scoreByTeam[team]! += change
        correctByTeam[team]! += correct ? 1 : (wasCorrect ? -1 : 0)
        answer.points = correct ? change : 0
        let table = standings
        if lastReveal?.number == round.index + 1 { lastReveal?.standings = table }
        return .overruled(team: team, correct: correct, points: change, standings: table, question: round.index + 1)
    }

    private mutating func shake(team: String) throws(RuleError) -> Effect {
        try checkPlayable(by: team)
        guard !round.queue.isDone(team) else {
            throw RuleError(.teamOut, "\(team) is out for this question.")
        }
        guard round.isBuzzOpen || round.queue.contains(team) else {
            throw RuleError(.buzzClosed, "Buzzing is closed, so \(team) can no longer answer this question.")
        }
        let current = round.letters[team]!
        guard current.letterCount - current.fixedCount - 1 >= 2 else {
            throw RuleError(.noMoreHints, "No more shakes: that would give the whole answer away.")
        }
        round.shakes[team, default: 0] += 1
        let letters = LetterScrambler.scramble(currentQuestion!.answer, fixing: current.fixedCount + 1, using: &rng)
        round.letters[team] = letters
        return .hint(team: team, letters: letters, pointsOnOffer: pointsOnOffer(for: team)!)
    }

    // MARK: - Clocks

    // MARK: - Pause and continue

    /// Refuses before the start and after the end.
    public func checkClockSteering(_ command: Steering) throws(RuleError) { try checkStarted() }

    /// Moves the buzz, answer, settling and next-question clocks by the time they stood still.
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        round.buzzDeadline = round.buzzDeadline.advanced(byMilliseconds: milliseconds)
        round.answerDeadline = round.answerDeadline?.advanced(byMilliseconds: milliseconds)
        round.queue.shiftDeadlines(byMilliseconds: milliseconds)
        nextQuestionAt = nextQuestionAt?.advanced(byMilliseconds: milliseconds)
        lastReveal?.nextQuestionAt = nextQuestionAt
    }

    /// The quizmaster paused.
    public var pausedEffects: [Effect] { [.paused] }

    /// The clocks run again: when each now ends.
    public mutating func resumedEffects(at now: Instant) -> [Effect] {
        [.resumed(Clocks(buzzDeadline: buzzDeadline, answerDeadline: answerDeadline, nextQuestionAt: nextQuestionAt))]
    }

    private enum Clock: Int, Comparable {
        // Raw values order clocks that fall due at the same instant.
        case settle, answer, buzz, reveal

        static func < (lhs: Clock, rhs: Clock) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The earliest running clock, or nil while paused or when none runs.
    private func dueClock() -> (instant: Instant, clock: Clock)? {
        guard !isPaused else { return nil }
        var clocks: [(instant: Instant, clock: Clock)] = []
        switch phase {
        case .question:
            if let deadline = round.queue.commitDeadline { clocks.append((deadline, .settle)) }
            if let deadline = round.answerDeadline { clocks.append((deadline, .answer)) }
            if round.isBuzzOpen { clocks.append((round.buzzDeadline, .buzz)) }
        case .reveal:
            if let deadline = nextQuestionAt { clocks.append((deadline, .reveal)) }
        case .notStarted, .finished:
            break
        }
        return clocks.min { ($0.instant, $0.clock) < ($1.instant, $1.clock) }
    }

    /// Lets every clock due by `now` run out, earliest first; each step removes the clock it handles.
    public mutating func runClocks(until now: Instant) -> [Effect] {
        var effects: [Effect] = []
        while let due = dueClock(), due.instant <= now {
            switch due.clock {
            case .settle:
                if let head = round.queue.waitingTeams.first {
                    effects.append(
                        .buzzed(BuzzUpdate(team: head, entries: round.queue.entries, buzzDeadline: round.buzzDeadline)))
                }
                effects += advanceTurns(at: now)
            case .answer:
                effects += endTurnWithoutScore(isTimedOut: true, at: now)
            case .buzz:
                round.isBuzzOpen = false
                effects += advanceTurns(at: now)
            case .reveal:
                effects.append(openNextOrFinish(at: now))
            }
        }
        return effects
    }

    // MARK: - Transitions

    private mutating func openQuestion(_ index: Int, at now: Instant) -> Effect {
        let question = questions[index]
        if round.index >= 0 { previousRound = round }
        round = Round(
            index: index, openedAt: now, buzzDeadline: now.advanced(bySeconds: settings.questionSeconds),
            isBuzzOpen: true)
        for team in teams {
            round.letters[team] = LetterScrambler.scramble(question.answer, fixing: 0, using: &rng)
        }
        round.spectatorLetters = teams.first.flatMap { round.letters[$0] }
        phase = .question
        nextQuestionAt = nil
        return .question(
            QuestionOpened(
                number: index + 1, total: questions.count, text: question.text,
                difficulty: question.difficulty,
                pointsOnOffer: settings.basePoints.points(for: question.difficulty),
                buzzDeadline: round.buzzDeadline, letters: round.letters))
    }

    /// Ends the turn of the team on turn after a wrong answer or a timeout, and moves on.
    private mutating func endTurnWithoutScore(isTimedOut: Bool, at now: Instant) -> [Effect] {
        guard let team = round.queue.teamOnTurn else { return [] }
        if isTimedOut {
            round.answers.append(
                AnswerRecord(team: team, text: "", player: nil, verdict: .wrong, isByHand: false, points: 0, at: now))
        }
        round.queue.endTurn(at: now)
        round.answerDeadline = nil
        return [.result(team: team, correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: isTimedOut)]
            + advanceTurns(at: now)
    }

    /// Puts the next settled team on turn, or ends the question when nobody can answer any more.
    private mutating func advanceTurns(at now: Instant) -> [Effect] {
        if let entry = round.queue.commitHead(at: now) {
            round.answerDeadline = now.advanced(bySeconds: settings.answerSeconds)
            return [.turn(team: entry.team, deadline: round.answerDeadline!)]
        }
        let isQueueIdle = round.queue.teamOnTurn == nil && round.queue.waitingTeams.isEmpty
        let isEveryTeamOut = teams.allSatisfy(round.queue.isDone)
        if isQueueIdle && (!round.isBuzzOpen || isEveryTeamOut) {
            return [endQuestion(scorer: nil, points: 0, at: now)]
        }
        return []
    }

    private mutating func endQuestion(scorer: String?, points: Int, at now: Instant) -> Effect {
        phase = .reveal
        round.answerDeadline = nil
        nextQuestionAt = settings.automaticRevealSeconds.map { now.advanced(bySeconds: $0) }
        let reveal = Reveal(
            number: round.index + 1, answer: currentQuestion!.answer, scorer: scorer,
            pointsAwarded: points, standings: standings, nextQuestionAt: nextQuestionAt,
            isLastQuestion: round.index + 1 == questions.count,
            question: currentQuestion!.text, openedAt: round.openedAt, answers: round.answers)
        lastReveal = reveal
        return .reveal(reveal)
    }

    private mutating func openNextOrFinish(at now: Instant) -> Effect {
        round.index + 1 < questions.count ? openQuestion(round.index + 1, at: now) : finish()
    }

    private mutating func finish() -> Effect {
        phase = .finished
        clock.stop()
        nextQuestionAt = nil
        round.answerDeadline = nil
        finalStandings = standings
        return .scoreboard(standings)
    }

    // MARK: - Teams and checks

    private static let gameOver = RuleError(.gameOver, "The game is over.")
    private static let questionClosed = RuleError(.questionClosed, "This question is over; wait for the next one.")

    private func checkNewTeamName(_ team: String) throws(RuleError) {
        guard !TextFolding.fold(team).isEmpty else {
            throw RuleError(.invalidTeamName, "A team name needs at least one letter or digit.")
        }
        let folded = TextFolding.fold(team)
        guard !teams.contains(where: { TextFolding.fold($0) == folded }) else {
            throw RuleError(.duplicateTeam, "There is already a team called \(team).")
        }
    }

    private mutating func register(_ team: String) {
        teams.append(team)
        scoreByTeam[team] = 0
        correctByTeam[team] = 0
    }

    private func checkStarted() throws(RuleError) {
        switch phase {
        case .notStarted: throw RuleError(.notStarted, "The game has not started yet.")
        case .finished: throw Self.gameOver
        case .question, .reveal: break
        }
    }

    private func checkNotPaused() throws(RuleError) {
        guard !isPaused else {
            throw RuleError(.paused, "The game is paused; wait for the quizmaster to continue.")
        }
    }

    /// Checks that `team` may act on the open question: game running, team known, question open, not paused.
    private func checkPlayable(by team: String, whenClosed closed: RuleError = Self.questionClosed) throws(RuleError) {
        try checkStarted()
        guard scoreByTeam[team] != nil else {
            throw RuleError(.unknownTeam, "There is no team called \(team) in this game.")
        }
        guard phase == .question else { throw closed }
        try checkNotPaused()
    }
}
