/// Whether a game's clocks run or stand still, and since when: the one pause every steered mode embeds.
///
/// The operator's `pause` records the instant; `continue` returns how long the clocks stood still, by which
/// the mode's `shiftDeadlines(byMilliseconds:)` moves every deadline it keeps, so time left is as it was.
public struct GameClock: Codable, Sendable, Equatable, Hashable {
    /// When the operator paused, while paused; nil while the clocks run.
    public private(set) var pausedAt: Instant?

    /// A running clock.
    public init() {}

    /// Whether the clocks stand still.
    public var isPaused: Bool { pausedAt != nil }

    /// Stops the clocks at `now`; refuses with `already_paused` ("The `noun` is already paused.") when stopped.
    public mutating func pause(at now: Instant, noun: String = "game") throws(RuleError) {
        guard pausedAt == nil else { throw RuleError(.alreadyPaused, "The \(noun) is already paused.") }
        pausedAt = now
    }

    /// Restarts the clocks at `now` and returns how many milliseconds they stood still; refuses with
    /// `not_paused` ("The `noun` is not paused.") when they run.
    public mutating func resume(at now: Instant, noun: String = "game") throws(RuleError) -> Int64 {
        guard let pausedAt else { throw RuleError(.notPaused, "The \(noun) is not paused.") }
        self.pausedAt = nil
        return max(0, pausedAt.milliseconds(until: now))
    }

    /// Lets the clocks run again without a `continue` (the game ended while paused), returning when they stopped.
    @discardableResult
    public mutating func stop() -> Instant? {
        defer { pausedAt = nil }
        return pausedAt
    }

    /// The time the game's clocks show at host time `now`: `now` while they run, the pause's start while paused.
    public func frozen(_ now: Instant) -> Instant { pausedAt ?? now }
}
