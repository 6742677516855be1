import Rules

/// How long one direction of a link holds each packet: a base delay plus uniform jitter, never reordering.
public struct OneWayDelay: Equatable, Sendable, CustomStringConvertible {
    /// The mean one-way delay, ms.
    public var milliseconds: Double
    /// Each packet's delay lies uniformly in `milliseconds ± jitter`, ms.
    public var jitter: Double

    /// Creates a delay of `milliseconds` ± `jitter`.
    public init(_ milliseconds: Double, jitter: Double = 0) {
        self.milliseconds = milliseconds
        self.jitter = jitter
    }

    /// No delay at all.
    public static let none = OneWayDelay(0)

    public var description: String {
        jitter > 0 ? "\(Self.format(milliseconds)) ± \(Self.format(jitter)) ms" : "\(Self.format(milliseconds)) ms"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// When each packet of one direction leaves the delay line: arrival + delay ± jitter, but never before the
/// packet ahead of it (a path's queue keeps order, so TCP sees latency that varies, not reordering).
public struct DelaySchedule: Sendable {
    /// The delay this direction applies.
    public let delay: OneWayDelay
    private var random: SplitMix64
    private var lastRelease = Int64.min

    /// Creates a schedule whose jitter comes from a generator seeded with `seed` (the same seed, the same delays).
    public init(_ delay: OneWayDelay, seed: UInt64) {
        self.delay = delay
        random = SplitMix64(seed: seed)
    }

    /// The monotonic nanosecond at which a packet that arrived at `arrival` (ns) is released.
    public mutating func release(arrivedAt arrival: Int64) -> Int64 {
        let jitter = delay.jitter > 0 ? Double.random(in: -delay.jitter...delay.jitter, using: &random) : 0
        let hold = Int64((max(0, delay.milliseconds + jitter) * 1_000_000).rounded())
        lastRelease = max(lastRelease, arrival + hold)
        return lastRelease
    }
}
