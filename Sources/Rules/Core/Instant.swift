/// A point on the host's game clock, in whole milliseconds.
///
/// Rules never read a clock: every event arrives with the `Instant` at which the host saw it,
/// and every deadline a game wants is returned as an `Instant` for the host to schedule.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since the game clock's origin.
    public var milliseconds: Int64

    /// Creates an instant `milliseconds` after the clock's origin.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The instant `milliseconds` later than this one (earlier when negative).
    public func advanced(byMilliseconds milliseconds: Int64) -> Instant {
        Instant(milliseconds: self.milliseconds + milliseconds)
    }

    /// The instant `seconds` later than this one.
    public func advanced(bySeconds seconds: Int) -> Instant {
        advanced(byMilliseconds: Int64(seconds) * 1000)
    }

    /// Milliseconds from this instant until `other` (negative when `other` is earlier).
    public func milliseconds(until other: Instant) -> Int64 { other.milliseconds - milliseconds }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public var description: String { "\(milliseconds)ms" }

    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}
