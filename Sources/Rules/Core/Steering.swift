/// What the operator can ask of any running game.
public enum Steering: String, Codable, Sendable, CaseIterable {
    /// Move on: end the open question or round, or open the next one.
    case next
    /// Freeze every clock.
    case pause
    /// Restart the clocks with the time they had left.
    case resume
    /// Stop the game now and show its final result.
    case end
}

/// The events of a game the host can drive without knowing it: the operator's steering and a clock tick.
///
/// Both requirements are met by plain enum cases (`case steer(Steering)`, `case tick`), so a mode writes no
/// mapping code, and the host's generic adapter journals these events like any other.
public protocol SteerableEvent: Codable, Sendable, Equatable {
    /// The event for an operator's `next`, `pause`, `continue` or `end`.
    static func steer(_ command: Steering) -> Self
    /// The event the host applies when the game's `nextDeadline` passes.
    static var tick: Self { get }
}

/// A game mode whose events the host can steer and tick, and whose clocks pause and continue the same way.
///
/// A mode writes `play` (every event but `pause` and `continue`) and `shiftDeadlines(byMilliseconds:)`; the
/// `apply` below handles the operator's `pause` and `continue` once for every mode with the embedded `clock`.
public protocol SteeredMode: GameMode where Event: SteerableEvent {
    /// Whether the clocks run or stand still; `apply` pauses and continues it.
    var clock: GameClock { get set }
    /// Applies any event but the operator's `pause` and `continue` (those never reach it), as `apply` does.
    mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect]
    /// Moves every deadline and clock start the mode keeps `milliseconds` later: the time the clocks stood still.
    mutating func shiftDeadlines(byMilliseconds milliseconds: Int64)
    /// Refuses `pause` or `continue` when the game cannot have them now (not started, over); by default never.
    func checkClockSteering(_ command: Steering) throws(RuleError)
    /// What the game calls itself in "The game is already paused." ("hunt" for a hunt).
    static var clockNoun: String { get }
    /// What to announce when the clocks stop.
    var pausedEffects: [Effect] { get }
    /// What to announce when the clocks run again at `now` (deadlines already moved).
    mutating func resumedEffects(at now: Instant) -> [Effect]
}

extension SteeredMode {
    /// Whether the operator paused the game's clocks (it then waits for `continue`).
    public var isPaused: Bool { clock.isPaused }

    /// When the operator paused, while paused.
    public var pausedAt: Instant? { clock.pausedAt }

    /// Every steered mode's noun is "game" unless it says otherwise.
    public static var clockNoun: String { "game" }

    /// A mode can pause and continue at any time, unless it says otherwise.
    public func checkClockSteering(_ command: Steering) throws(RuleError) {}

    /// Applies `event` as seen at `now`: the operator's `pause` and `continue` here, everything else by `play`.
    ///
    /// Before a pause, overdue clocks run out (a `tick`), so the pause keeps only the time that was left; a
    /// refused event leaves the game as it was.
    public mutating func apply(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        guard let command = [Steering.pause, .resume].first(where: { event == .steer($0) }) else {
            return try play(event, at: now)
        }
        var copy = self
        var effects = command == .pause ? try copy.play(.tick, at: now) : []
        try copy.checkClockSteering(command)
        if command == .pause {
            try copy.clock.pause(at: now, noun: Self.clockNoun)
            effects += copy.pausedEffects
        } else {
            copy.shiftDeadlines(byMilliseconds: try copy.clock.resume(at: now, noun: Self.clockNoun))
            effects += copy.resumedEffects(at: now)
        }
        self = copy
        return effects
    }
}

/// A steered mode whose clocks run out around every event (a round that ended while nothing happened closes before
/// the event; one the event ends moves on after it): the mode writes `handle` and `runClocks`, and `play` is
/// written here once.
public protocol ClockedPlay: SteeredMode {
    /// Lets every clock due by `now` run out, earliest first; returns what that did.
    mutating func runClocks(until now: Instant) -> [Effect]
    /// Applies one event at `now` (not `pause` or `continue`), appending what it did to `effects`; `play` discards
    /// the changes of an event it refuses.
    mutating func handle(_ event: Event, at now: Instant, into effects: inout [Effect]) throws(RuleError)
}

extension ClockedPlay {
    /// Applies `event` (not `pause` or `continue`: `apply` does those) as seen at `now`, the clocks due by then
    /// running out before and after it; a refused event leaves the game unchanged.
    public mutating func play(_ event: Event, at now: Instant) throws(RuleError) -> [Effect] {
        var game = self
        var effects = game.runClocks(until: now)
        try game.handle(event, at: now, into: &effects)
        effects += game.runClocks(until: now)
        self = game
        return effects
    }
}
