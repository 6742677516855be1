extension ShakyWords {
    /// Where the game is: not started, a question open, its answer revealed, or over.
    public enum Phase: String, Codable, Sendable, Equatable, Hashable {
        /// Waiting for the operator's `start`.
        case notStarted
        /// A question is open: teams buzz, shake and answer.
        case question
        /// The answer is shown until the operator's `next` or the reveal pause ends.
        case reveal
        /// The final scoreboard has been shown; nothing more happens.
        case finished
    }

    /// Everything that can happen to a game of Shaky Words; the host journals these for replay.
    public enum Event: SteerableEvent, Sendable, Equatable, Hashable {
        /// The operator starts the game: question 1 opens.
        case start
        /// A team joins; if a question is open it gets its letters and may play it at once.
        case addTeam(String)
        /// A team buzzed: its estimated press instant, how far off that may be, and how long to let the order settle.
        case buzz(team: String, pressedAt: Instant, uncertaintyMs: Int64, settleMs: Int64)
        /// The team on turn answers; `player` is who typed it (for the game log; older journals lack it).
        case answer(team: String, text: String, player: String? = nil)
        /// A team asks for a hint: one more letter fixed in place, for a cost.
        case shake(team: String)
        /// The host's clock reached `nextDeadline` (or later).
        case tick
        /// The operator's verdict on the answer waiting for it (`isJudgedByHand`), or an overrule of the judge's
        /// verdict on `team`'s last answer to the open or just-revealed question.
        case judge(team: String, correct: Bool)
        /// The operator steers: `next` ends the open question or opens the next one after a reveal, `pause` and
        /// `resume` freeze and restart every clock, `end` stops the game and shows the final scoreboard.
        case steer(Steering)

        /// The operator moves on.
        public static var next: Event { .steer(.next) }
        /// The operator freezes every clock.
        public static var pause: Event { .steer(.pause) }
        /// The operator restarts the clocks.
        public static var resume: Event { .steer(.resume) }
        /// The operator stops the game.
        public static var end: Event { .steer(.end) }
    }

    /// What the host should announce after an event.
    public enum Effect: Codable, Sendable, Equatable, Hashable {
        /// A question opened (each team gets only its own entry of `letters`).
        case question(QuestionOpened)
        /// A team joined; `letters` are its letters for the open question, nil between questions.
        case teamJoined(team: String, letters: ShakyLetters?)
        /// A buzz was accepted; the queue in its current order and the buzz deadline.
        case buzzed(BuzzUpdate)
        /// `team` is on turn and must answer before `deadline`.
        case turn(team: String, deadline: Instant)
        /// A shake fixed one more letter, for `team` only, which now plays for `pointsOnOffer`.
        case hint(team: String, letters: ShakyLetters, pointsOnOffer: Int)
        /// How `team`'s turn ended: right (possibly misspelt) with the points it won, wrong, or out of time.
        case result(team: String, correct: Bool, pointsAwarded: Int, isMisspelling: Bool, isTimedOut: Bool)
        /// The question is over: its answer, who scored, and the standings.
        case reveal(Reveal)
        /// The game is over: the final ranking.
        case scoreboard([Standing])
        /// Every clock is frozen.
        case paused
        /// The clocks run again, with these deadlines.
        case resumed(Clocks)
        /// `team`'s answer waits for the operator's verdict (judging by hand); the answer clock has stopped.
        case awaitingVerdict(team: String, text: String)
        /// The operator overruled the verdict on `team`'s answer after the question: `points` (added, or taken back
        /// when negative) and the standings now.
        case overruled(team: String, correct: Bool, points: Int, standings: [Standing], question: Int)
    }

    /// One answer typed to the current question, as judged (for the operator's feed and the game log).
    public struct AnswerRecord: Codable, Sendable, Equatable, Hashable {
        /// The team that answered.
        public var team: String
        /// What it typed.
        public var text: String
        /// Who typed it, when known.
        public var player: String?
        /// The judge's verdict (nil while it waits for the operator, when judging by hand).
        public var verdict: AnswerVerdict?
        /// Whether the operator gave or changed the verdict.
        public var isByHand: Bool
        /// The automatic judge's verdict when the quizmaster changed it (the log keeps both).
        public var judgedAs: AnswerVerdict?
        /// The points it scored (0 when wrong).
        public var points: Int
        /// When it arrived.
        public var at: Instant

        /// Gives the quizmaster's verdict in place of the judge's (kept in `judgedAs`); returns whether the answer
        /// counted as right before. Refuses a verdict the answer already has, and accepting a turn that ran out
        /// with nothing typed.
        mutating func overrule(correct: Bool, question: Int) throws(RuleError) -> Bool {
            let wasCorrect = verdict?.isCorrect ?? false
            if verdict != nil, wasCorrect == correct {
                throw RuleError(
                    .nothingToJudge,
                    "\(team)'s answer to question \(question) already counts as \(correct ? "right" : "wrong").")
            }
            guard !(correct && text.isEmpty) else {
                throw RuleError(.nothingToJudge, "\(team) typed no answer to question \(question): nothing to accept.")
            }
            if !isByHand { judgedAs = verdict }
            isByHand = true
            verdict = correct ? .exact : .wrong
            return wasCorrect
        }
    }

    /// A freshly opened question, as announced.
    public struct QuestionOpened: Codable, Sendable, Equatable, Hashable {
        /// 1-based number of this question.
        public var number: Int
        /// How many questions the game has.
        public var total: Int
        /// The question text.
        public var text: String
        /// How hard the question is.
        public var difficulty: Difficulty
        /// The points a correct answer is worth before shakes.
        public var pointsOnOffer: Int
        /// When the buzz clock ends unless a buzz cuts it shorter.
        public var buzzDeadline: Instant
        /// Each team's own scramble of the answer, by team name; never the answer itself.
        public var letters: [String: ShakyLetters]
    }

    /// The queue after an accepted buzz.
    public struct BuzzUpdate: Codable, Sendable, Equatable, Hashable {
        /// The team whose buzz was just accepted.
        public var team: String
        /// Every buzz of this question in fair order.
        public var entries: [BuzzQueue.Entry]
        /// When buzzing closes (possibly cut by this buzz).
        public var buzzDeadline: Instant
    }

    /// The end of a question.
    public struct Reveal: Codable, Sendable, Equatable, Hashable {
        /// 1-based number of the question that ended.
        public var number: Int
        /// The right answer, spelt as written.
        public var answer: String
        /// The team that answered correctly, or nil when nobody did.
        public var scorer: String?
        /// The points the scorer won (0 when nobody scored).
        public var pointsAwarded: Int
        /// Everyone's standing after this question.
        public var standings: [Standing]
        /// When the next question (or the final scoreboard) comes by itself; nil when the operator decides.
        public var nextQuestionAt: Instant?
        /// Whether this was the last question.
        public var isLastQuestion: Bool
        /// The question's text, for the game log (the next question may already be open when it is read).
        public var question: String
        /// When the question opened.
        public var openedAt: Instant
        /// The answers typed to it (and turns that ran out), as judged.
        public var answers: [AnswerRecord]
    }

    /// One team's line on a scoreboard; teams with equal scores share a rank (1, 1, 3).
    public struct Standing: Codable, Sendable, Equatable, Hashable {
        /// Competition rank: 1 + the number of teams with a strictly higher score.
        public var rank: Int
        /// The team.
        public var team: String
        /// Its total points.
        public var score: Int
        /// How many questions it answered correctly.
        public var correctCount: Int
    }

    /// The running clocks, as announced when the game resumes.
    public struct Clocks: Codable, Sendable, Equatable, Hashable {
        /// When buzzing closes, if the buzz clock is running.
        public var buzzDeadline: Instant?
        /// When the team on turn runs out of time, if a team is on turn.
        public var answerDeadline: Instant?
        /// When the next question opens by itself, during a reveal.
        public var nextQuestionAt: Instant?
    }
}
