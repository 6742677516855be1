import Protocol
import Rules

/// A Rules mode the host can steer generically: its events include a clock tick and the operator's commands.
protocol OperatedMode: GameMode where Event: Codable {
    /// The event the host applies when `nextDeadline` passes.
    static var tick: Event { get }
    /// The event for an operator's `next`, `pause`, `continue` or `end`.
    static func event(for action: OperatorAction) -> Event
}

extension ShakyWords: OperatedMode {
    static var tick: Event { .tick }
    static func event(for action: OperatorAction) -> Event {
        switch action {
        case .next: .next
        case .pause: .pause
        case .resume: .resume
        case .end: .end
        }
    }
}

extension QueenGame: OperatedMode {
    static var tick: Event { .tick }
    static func event(for action: OperatorAction) -> Event {
        switch action {
        case .next: .next
        case .pause: .pause
        case .resume: .resume
        case .end: .end
        }
    }
}

/// The half of every `HostedGame` that is the same for all modes: apply, journal, tick, operate, replay.
///
/// Invariant: an event reaches the journal (`record`) only after the mode accepted it, and the mode's
/// new state is kept only then, so the journal replays to exactly the state the players saw.
protocol JournaledHosting: HostedGame {
    associatedtype Mode: OperatedMode
    /// The mode's current state.
    var game: Mode { get set }
    /// The mode's name in messages about the journal ("Shaky Words").
    var displayName: String { get }
    /// Turns the mode's effects into addressed messages (and notes what the game log needs).
    func messages(for effects: [Mode.Effect], at now: Instant) -> [Outgoing]
}

extension JournaledHosting {
    var nextDeadline: Instant? { game.nextDeadline }

    /// Applies `event`; journals and keeps it only when the mode accepts it.
    func apply(_ event: Mode.Event, at now: Instant) throws(RuleError) -> [Outgoing] {
        var copy = game
        let effects = try copy.apply(event, at: now)
        record(CodableBridge.bytes(event), now)
        game = copy
        return messages(for: effects, at: now)
    }

    func operate(_ action: OperatorAction, at now: Instant) throws(RuleError) -> [Outgoing] {
        try apply(Mode.event(for: action), at: now)
    }

    func tick(at now: Instant) -> [Outgoing] { (try? apply(Mode.tick, at: now)) ?? [] }

    func replay(_ event: JSONValue, at now: Instant) throws {
        let decoded = try CodableBridge.value(Mode.Event.self, from: event)
        do {
            _ = messages(for: try game.apply(decoded, at: now), at: now)  // rebuilds the game log; nothing is sent
        } catch {
            throw StorageError("the journal's \(displayName) event \(event) no longer applies: \(error.message)")
        }
    }
}
