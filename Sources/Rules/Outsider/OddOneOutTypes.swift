import Common

/// The operator's options for a game of Odd One Out.
public struct OutsiderSettings: Codable, Sendable, Equatable, Hashable {
    /// The round clocks an operator may set, in seconds.
    public static let roundSecondsRange = 3...600
    /// The reveal pauses an operator may set, in seconds; 0 waits for the operator's `next`.
    public static let revealSecondsRange = 0...3600

    /// How long each round lasts, in seconds.
    public var roundSeconds: Int
    /// Pause after a reveal before the next round opens by itself; nil waits for the operator's `next`.
    public var revealSeconds: Int?
    /// Points for a correct pick made at once, per difficulty (a pick at the last moment wins half).
    public var basePoints: ShakySettings.BasePoints

    /// Creates settings: 20-second rounds, a 5-second reveal, 100 / 200 / 300 points.
    public init(roundSeconds: Int = 20, revealSeconds: Int? = 5, basePoints: ShakySettings.BasePoints = .init()) {
        self.roundSeconds = roundSeconds
        self.revealSeconds = revealSeconds
        self.basePoints = basePoints
    }

    /// Refuses clocks outside their ranges and negative points.
    public func validate() throws(RuleError) {
        guard Self.roundSecondsRange.contains(roundSeconds) else {
            throw RuleError(.invalidSettings, "A round lasts 3 to 600 seconds, not \(roundSeconds).")
        }
        if let revealSeconds, !Self.revealSecondsRange.contains(revealSeconds) {
            throw RuleError(.invalidSettings, "The reveal pause is 0 to 3600 seconds, not \(revealSeconds).")
        }
        guard basePoints.easy >= 0, basePoints.medium >= 0, basePoints.hard >= 0 else {
            throw RuleError(.invalidSettings, "Points cannot be negative.")
        }
    }

    /// The points a correct pick made `elapsed` ms into a round of `limit` ms wins: base × (1 − elapsed/limit ÷ 2),
    /// rounded half up, with `elapsed` held to 0…limit.
    public static func points(base: Int, elapsedMs: Int64, limitMs: Int64) -> Int {
        guard limitMs > 0 else { return base }
        let elapsed = min(max(0, elapsedMs), limitMs)
        let numerator = Int64(base) * (2 * limitMs - elapsed)  // base × (2L − e) / 2L
        let denominator = 2 * limitMs
        return Int((2 * numerator + denominator) / (2 * denominator))
    }
}

extension OddOneOut {
    /// Where the game is.
    public enum Phase: String, Codable, Sendable, Equatable, Hashable {
        /// Waiting for `start`.
        case notStarted
        /// A round is open: teams pick.
        case round
        /// The outsider is shown until the next round.
        case reveal
        /// The final scoreboard was shown.
        case finished
    }

    /// Everything that can happen to a game of Odd One Out; the host journals these for replay.
    public enum Event: SteerableEvent, Sendable, Equatable, Hashable {
        /// The operator starts the game: round 1 opens.
        case start
        /// A team joins; it may pick in the open round.
        case addTeam(String)
        /// A team picks word `choice` (0-based, in the round's shown order), pressed at `pressedAt` give or take
        /// `uncertaintyMs`; `settleMs` is how long its lock-in waits for an earlier press still on its way.
        case pick(team: String, choice: Int, pressedAt: Instant, uncertaintyMs: Int64, settleMs: Int64)
        /// The host's clock reached `nextDeadline`.
        case tick
        /// The operator steers: `next` ends the round (or opens the next one after a reveal), `pause`/`resume`
        /// freeze and restart the clocks, `end` shows the final scoreboard.
        case steer(Steering)
    }

    /// What the host should announce.
    public enum Effect: Sendable, Equatable, Hashable {
        /// A round opened (the same words, in the same order, for everyone; never which is the outsider).
        case round(RoundOpened)
        /// A team joined mid-game.
        case teamJoined(String)
        /// `team`'s pick was taken: for that team only (which word it chose).
        case picked(team: String, choice: Int, word: String)
        /// `team` locked in at `position` in press order (public; never what it picked).
        case locked(team: String, position: Int)
        /// The round is over: the outsider, every team's result and the standings.
        case reveal(Reveal)
        /// The game is over.
        case scoreboard([ShakyWords.Standing])
        /// Every clock is frozen.
        case paused
        /// The clocks run again: the round clock or the reveal pause, whichever runs.
        case resumed(roundDeadline: Instant?, nextRoundAt: Instant?)
    }

    /// A freshly opened round, as announced.
    public struct RoundOpened: Codable, Sendable, Equatable, Hashable {
        /// 1-based number.
        public var number: Int
        /// How many rounds the game has.
        public var total: Int
        /// The four words in this round's order.
        public var words: [String]
        /// The name of the puzzle's pack.
        public var category: String
        /// The puzzle's difficulty.
        public var difficulty: Difficulty
        /// Points for a correct pick made at once.
        public var points: Int
        /// When the round's clock runs out.
        public var deadline: Instant
    }

    /// How one team's round went.
    public struct Result: Codable, Sendable, Equatable, Hashable {
        /// The team.
        public var team: String
        /// The word it picked (0-based in the round's order); nil when it did not pick.
        public var choice: Int?
        /// The word it picked, as written.
        public var word: String?
        /// Whether it picked the outsider.
        public var isCorrect: Bool
        /// Points won.
        public var points: Int
        /// Milliseconds from the round's opening to the press; nil when it did not pick.
        public var elapsedMs: Int64?
    }

    /// The end of a round.
    public struct Reveal: Codable, Sendable, Equatable, Hashable {
        /// 1-based number of the round.
        public var number: Int
        /// The four words in the order the round showed them.
        public var words: [String]
        /// The outsider, as written.
        public var outsider: String
        /// Its 0-based position in the round's order.
        public var outsiderChoice: Int
        /// What the other three share.
        public var link: String
        /// Every team's result: those who picked in press order, then the others in join order.
        public var results: [Result]
        /// The standings after this round.
        public var standings: [ShakyWords.Standing]
        /// When the next round (or the final scoreboard) comes by itself; nil when the operator decides.
        public var nextRoundAt: Instant?
        /// Whether this was the last round.
        public var isLastRound: Bool
    }
}
