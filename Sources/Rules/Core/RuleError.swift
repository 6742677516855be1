import Common

/// Why a game refused an event: a stable machine-readable code plus a sentence for people.
///
/// The code goes on the wire unchanged as the `code` of an `error` message, so codes are
/// lower_snake_case and, once published in PROTOCOL.md, never renamed.
public struct RuleError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The stable machine-readable code, e.g. `not_your_turn`.
    public var code: ErrorCode
    /// A clear sentence saying what went wrong and, where possible, what to do instead.
    public var message: String
    /// When the refusal stops holding, for a refusal that lasts a while (a hunt team's check-in lock); nil otherwise.
    public var until: Instant?

    /// Creates an error with a wire `code` and a human `message`, holding `until` that instant when given.
    public init(_ code: ErrorCode, _ message: String, until: Instant? = nil) {
        self.code = code
        self.message = message
        self.until = until
    }

    public var description: String { "\(code): \(message)" }
}

/// The shape every game mode shares, so the host can drive a new mode the same way as the old ones.
///
/// A mode is a value: the host owns it, feeds it events stamped with the host's clock and
/// schedules `nextDeadline`, at which it applies the mode's tick event.
public protocol GameMode {
    /// Something that happens to the game: a player's action, an operator's command or a clock tick.
    associatedtype Event
    /// Something the game tells the host to announce.
    associatedtype Effect

    /// Applies `event` as seen at `now`, returning what to announce, or throws why it is refused.
    mutating func apply(_ event: Event, at now: Instant) throws(RuleError) -> [Effect]

    /// The earliest instant at which the game wants its tick event, or nil when nothing is pending.
    var nextDeadline: Instant? { get }
}
