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
public protocol SteerableEvent: Codable, Sendable {
    /// The event for an operator's `next`, `pause`, `continue` or `end`.
    static func steer(_ command: Steering) -> Self
    /// The event the host applies when the game's `nextDeadline` passes.
    static var tick: Self { get }
}

/// A game mode whose events the host can steer and tick.
public protocol SteeredMode: GameMode where Event: SteerableEvent {
    /// Whether the operator paused the game's clocks (it then waits for `continue`).
    var isPaused: Bool { get }
}

extension SteeredMode {
    /// A mode that never pauses.
    public var isPaused: Bool { false }
}
