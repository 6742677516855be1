/// The operator's options for a game of Shaky Words; every field has a sensible default.
///
/// Decoding fills any missing field with its default, so saved settings survive new fields.
public struct ShakySettings: Codable, Sendable, Equatable, Hashable {
    /// The points a correct answer is worth, per difficulty, before any shakes.
    public struct BasePoints: Codable, Sendable, Equatable, Hashable {
        /// Points for an easy question.
        public var easy: Int
        /// Points for a medium question.
        public var medium: Int
        /// Points for a hard question.
        public var hard: Int

        /// Creates a points table (100 / 200 / 300 unless told otherwise).
        public init(easy: Int = 100, medium: Int = 200, hard: Int = 300) {
            self.easy = easy
            self.medium = medium
            self.hard = hard
        }

        /// The base points for a question of `difficulty`.
        public func points(for difficulty: Difficulty) -> Int {
            switch difficulty {
            case .easy: easy
            case .medium: medium
            case .hard: hard
            }
        }
    }

    /// The buzz clocks an operator may set, in seconds (the host's flags and `start` options use the same bounds).
    public static let questionSecondsRange = 1...3600
    /// The time left after the first buzz an operator may set, in seconds.
    public static let afterBuzzSecondsRange = 1...3600
    /// The answer clocks an operator may set, in seconds.
    public static let answerSecondsRange = 1...3600
    /// The reveal pauses an operator may set, in seconds; 0 (like nil) waits for the operator's `next`.
    public static let revealSecondsRange = 0...3600
    /// What a shake may cost, in percent of the question's base points.
    public static let shakeCostPercentRange = 0...100

    /// Length of the buzz clock that starts when a question opens, in seconds.
    public var questionSeconds: Int
    /// The first buzz cuts the buzz clock to at most this many seconds from that buzz.
    public var afterBuzzSeconds: Int
    /// How long a team on turn has to answer, in seconds.
    public var answerSeconds: Int
    /// Pause after a question before the next opens by itself; 0 or nil waits for the operator's `next`.
    public var revealSeconds: Int?
    /// Whether small spelling mistakes are forgiven (see `AnswerJudge`).
    public var isForgiving: Bool
    /// Points for a correct answer per difficulty, before shakes.
    public var basePoints: BasePoints
    /// What each shake costs the shaking team, in percent of the question's base points.
    public var shakeCostPercent: Int
    /// Whether every answer waits for the operator's verdict instead of the judge's.
    public var isJudgedByHand = false

    /// Creates settings; every argument defaults to the house values.
    public init(
        questionSeconds: Int = 60, afterBuzzSeconds: Int = 20, answerSeconds: Int = 60,
        revealSeconds: Int? = 5, isForgiving: Bool = true, basePoints: BasePoints = BasePoints(),
        shakeCostPercent: Int = 25
    ) {
        self.questionSeconds = questionSeconds
        self.afterBuzzSeconds = afterBuzzSeconds
        self.answerSeconds = answerSeconds
        self.revealSeconds = revealSeconds
        self.isForgiving = isForgiving
        self.basePoints = basePoints
        self.shakeCostPercent = shakeCostPercent
    }

    private enum CodingKeys: String, CodingKey {
        case questionSeconds, afterBuzzSeconds, answerSeconds, revealSeconds, isForgiving, basePoints, shakeCostPercent
        case isJudgedByHand
    }

    /// Decodes settings, using the default for every missing field (an explicit null reveal means "wait").
    public init(from decoder: any Decoder) throws {
        let defaults = ShakySettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        questionSeconds = try container.decodeIfPresent(Int.self, forKey: .questionSeconds) ?? defaults.questionSeconds
        afterBuzzSeconds =
            try container.decodeIfPresent(Int.self, forKey: .afterBuzzSeconds) ?? defaults.afterBuzzSeconds
        answerSeconds = try container.decodeIfPresent(Int.self, forKey: .answerSeconds) ?? defaults.answerSeconds
        revealSeconds =
            container.contains(.revealSeconds)
            ? try container.decodeIfPresent(Int.self, forKey: .revealSeconds)
            : defaults.revealSeconds
        isForgiving = try container.decodeIfPresent(Bool.self, forKey: .isForgiving) ?? defaults.isForgiving
        basePoints = try container.decodeIfPresent(BasePoints.self, forKey: .basePoints) ?? defaults.basePoints
        shakeCostPercent =
            try container.decodeIfPresent(Int.self, forKey: .shakeCostPercent) ?? defaults.shakeCostPercent
        isJudgedByHand = try container.decodeIfPresent(Bool.self, forKey: .isJudgedByHand) ?? false
    }

    /// Encodes every field, writing a missing reveal pause as null so it does not decode back to the default.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(questionSeconds, forKey: .questionSeconds)
        try container.encode(afterBuzzSeconds, forKey: .afterBuzzSeconds)
        try container.encode(answerSeconds, forKey: .answerSeconds)
        try container.encode(revealSeconds, forKey: .revealSeconds)
        try container.encode(isForgiving, forKey: .isForgiving)
        try container.encode(basePoints, forKey: .basePoints)
        try container.encode(shakeCostPercent, forKey: .shakeCostPercent)
        try container.encode(isJudgedByHand, forKey: .isJudgedByHand)
    }

    /// The reveal pause in seconds, or nil when the operator advances by hand.
    var automaticRevealSeconds: Int? {
        guard let seconds = revealSeconds, seconds > 0 else { return nil }
        return seconds
    }

    /// Throws `invalid_settings` naming the first field that makes no sense.
    func validate() throws(RuleError) {
        func refuse(_ message: String) -> RuleError { RuleError(.invalidSettings, message) }
        func check(_ value: Int, in range: ClosedRange<Int>, _ what: String) throws(RuleError) {
            guard range.contains(value) else {
                throw refuse("\(what) must be \(range.lowerBound) to \(range.upperBound) seconds, not \(value).")
            }
        }
        try check(questionSeconds, in: Self.questionSecondsRange, "The buzz clock")
        try check(afterBuzzSeconds, in: Self.afterBuzzSecondsRange, "The time left after the first buzz")
        try check(answerSeconds, in: Self.answerSecondsRange, "The answer clock")
        if let revealSeconds {
            try check(revealSeconds, in: Self.revealSecondsRange, "The pause before the next question")
        }
        guard basePoints.easy >= 0, basePoints.medium >= 0, basePoints.hard >= 0 else {
            throw refuse("Questions cannot be worth negative points.")
        }
        guard Self.shakeCostPercentRange.contains(shakeCostPercent) else {
            throw refuse("A shake must cost between 0 and 100 percent of the points.")
        }
    }
}
