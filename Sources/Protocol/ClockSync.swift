/// One NTP-style exchange: the host's send and receive times and the client's receive and send times.
public struct ClockSample: Equatable, Sendable {
    /// Round-trip time less the client's own processing time, in ms.
    public var roundTrip: Int64
    /// Client clock minus host clock, estimated from this exchange, in ms (right if both directions took as long).
    public var offset: Int64
    /// Every offset this exchange allows, whatever the split of its round trip between the two directions:
    /// from `c2 − H` (the reply took no time) to `c1 − h` (the probe took no time), each widened by 1 ms for
    /// stamps in whole ms; nil when the client's stamps are impossible (more processing than round trip).
    public var offsetBounds: ClosedRange<Int64>?
    /// Host time of the exchange.
    public var at: Int64

    /// Computes a sample from the four timestamps (host sent, client received, client sent, host received).
    public init(hostSent: Int64, clientReceived: Int64, clientSent: Int64, hostReceived: Int64) {
        // The client echoes `hostSent` and supplies its own stamps, so any of them may be absurd:
        // saturating arithmetic keeps a forged reply from trapping the host.
        let processing = max(0, clientSent.saturatingSubtract(clientReceived))
        roundTrip = max(0, hostReceived.saturatingSubtract(hostSent).saturatingSubtract(processing))
        let outbound = clientReceived.saturatingSubtract(hostSent)
        let inbound = clientSent.saturatingSubtract(hostReceived)
        let (sum, overflow) = outbound.addingReportingOverflow(inbound)
        offset = overflow ? outbound / 2 + inbound / 2 : sum / 2
        let lowest = inbound.saturatingSubtract(1)
        let highest = outbound.saturatingAdd(1)
        offsetBounds = lowest <= highest ? lowest...highest : nil
        at = hostReceived
    }
}

/// Estimates one connection's clock offset and latency from its recent sync exchanges.
///
/// Round trips cannot show how a trip splits between the two directions, so the estimator keeps what it can
/// prove: each exchange bounds the offset between "the reply took no time" and "the probe took no time", and the
/// offset lies in the intersection of those bounds over the recent window (older exchanges widened for the two
/// clocks' drift). The offset is the middle of that interval and the uncertainty half its width: on a link
/// whose fastest trips take d₁ one way and d₂ the other, about ±(d₁ + d₂) / 2, however lopsided the link.
public struct ClockEstimator: Equatable, Sendable {
    /// How many recent samples are kept.
    public static let window = 16
    /// How fast two clocks may drift apart, in parts per million (unsynchronised crystals: up to about 100).
    public static let driftPerMillion: Int64 = 200
    /// The recent samples, oldest first.
    public private(set) var samples: [ClockSample] = []
    /// The connection's round trip as measured below the application (the kernel's lowest TCP round trip), in
    /// ms; nil until noted. A client cannot inflate it by answering late.
    public private(set) var pathRoundTrip: Int64?

    /// Creates an estimator with no samples.
    public init() {}

    /// Records one exchange.
    public mutating func add(_ sample: ClockSample) {
        samples.append(sample)
        if samples.count > ClockEstimator.window { samples.removeFirst(samples.count - ClockEstimator.window) }
    }

    /// Records the latest round trip measured below the application, in ms (nil, when there is none, changes nothing).
    public mutating func notePathRoundTrip(_ milliseconds: Int64?) {
        guard let milliseconds else { return }
        pathRoundTrip = max(0, milliseconds)
    }

    /// Whether any exchange has been recorded.
    public var isMeasured: Bool { !samples.isEmpty }

    private var sortedRoundTrips: [Int64] { samples.map(\.roundTrip).sorted() }

    /// The lowest recent round trip, in ms.
    public var minimumRoundTrip: Int64 { sortedRoundTrips.first ?? 0 }
    /// The median recent round trip, in ms.
    public var medianRoundTrip: Int64 { percentile(0.5) }
    /// The 95th-percentile recent round trip, in ms.
    public var p95RoundTrip: Int64 { percentile(0.95) }
    /// The highest recent round trip, in ms.
    public var maximumRoundTrip: Int64 { sortedRoundTrips.last ?? 0 }

    private func percentile(_ fraction: Double) -> Int64 {
        let sorted = sortedRoundTrips
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))
        return sorted[index]
    }

    /// Mean absolute difference between consecutive round trips, in ms.
    public var jitter: Int64 {
        guard samples.count > 1 else { return 0 }
        var total: Int64 = 0
        for index in 1..<samples.count {
            total = total.saturatingAdd(abs(samples[index].roundTrip.saturatingSubtract(samples[index - 1].roundTrip)))
        }
        return total / Int64(samples.count - 1)
    }

    /// Every offset (client clock − host clock, ms) that the recent exchanges allow at host time `time`, or nil
    /// when none is usable.
    ///
    /// Newest first, each exchange's bounds are widened by the drift since it happened and intersected with the
    /// rest; an exchange that contradicts the newer ones (only a lying client's can) is left out.
    public func offsetBounds(at time: Int64) -> ClosedRange<Int64>? {
        var bounds: ClosedRange<Int64>?
        for sample in samples.reversed() {
            guard let own = sample.offsetBounds else { continue }
            let age = max(0, time.saturatingSubtract(sample.at))
            let (product, overflow) = age.multipliedReportingOverflow(by: ClockEstimator.driftPerMillion)
            let drift = overflow ? Int64.max : product.saturatingAdd(999_999) / 1_000_000  // rounded up
            let widened = own.lowerBound.saturatingSubtract(drift)...own.upperBound.saturatingAdd(drift)
            guard let current = bounds else {
                bounds = widened
                continue
            }
            if current.overlaps(widened) { bounds = current.clamped(to: widened) }
        }
        return bounds
    }

    private var latestBounds: ClosedRange<Int64>? { samples.last.flatMap { offsetBounds(at: $0.at) } }

    /// Client clock minus host clock, in ms: the middle of the offsets the exchanges allow (0 when unmeasured).
    public var offset: Int64 { latestBounds.map { $0.middle } ?? 0 }

    /// How far the offset may be off either way, in ms: half the width of the offsets allowed (at least 1).
    public var uncertainty: Int64 { latestBounds.map { $0.halfWidth } ?? 1 }

    /// The most a press may precede its arrival, in ms: the lowest of the highest recent round trip, the path's
    /// round trip below the application, and `PressEstimate.maximumBackdate`; nil when neither is known.
    ///
    /// A press reaches the host at most one round trip after it happened. Sync replies are the client's to delay,
    /// so their round trip is only trusted as far as the kernel's measurement of the same path confirms it.
    public var backdateAllowance: Int64? {
        let measured = [isMeasured ? maximumRoundTrip : nil, pathRoundTrip].compactMap { $0 }
        guard let lowest = measured.min() else { return nil }
        return min(lowest, PressEstimate.maximumBackdate)
    }

    /// Maps a client clock reading to host time.
    public func hostTime(fromClient clientTime: Int64) -> Int64 { clientTime.saturatingSubtract(offset) }

    /// Maps a host clock reading to the client's clock.
    public func clientTime(fromHost hostTime: Int64) -> Int64 { hostTime.saturatingAdd(offset) }
}

/// The host's estimate of when a buzz was pressed, within bounds it can prove.
public struct PressEstimate: Equatable, Sendable {
    /// Estimated press time, host clock ms: the middle of the times the host cannot rule out.
    public var pressedAt: Int64
    /// ± ms: half the width of the times the host cannot rule out (at least 1).
    public var uncertainty: Int64
    /// Whether the client's stamp lay outside the provable bounds, and was set aside.
    public var wasClamped: Bool

    /// Creates an estimate.
    public init(pressedAt: Int64, uncertainty: Int64, wasClamped: Bool) {
        self.pressedAt = pressedAt
        self.uncertainty = uncertainty
        self.wasClamped = wasClamped
    }

    /// Creates the estimate of a press known to lie in `times` (host ms).
    init(somewhereIn times: ClosedRange<Int64>, wasClamped: Bool) {
        self.init(pressedAt: times.middle, uncertainty: times.halfWidth, wasClamped: wasClamped)
    }

    /// The most a stamp may reach back before its arrival, whatever latency a client shows: Wi-Fi adds up to
    /// about 100 ms, so a larger "latency" is a slow link or a client holding its sync replies to look slow.
    public static let maximumBackdate: Int64 = 150

    /// Estimates a press from a buzz that arrived at host time `arrival`, with the client's stamp if it sent one.
    ///
    /// The press happened within the connection's `backdateAllowance` before its arrival (the arrival window).
    /// A stamp narrows that to the times it maps to under every offset the sync exchanges allow; a stamp
    /// that maps wholly outside the window is impossible and counts as no stamp (`wasClamped`), so lying about
    /// time gains nothing over not stamping. With nothing measured at all, the press is the arrival, ± 1 ms.
    public static func estimate(arrival: Int64, stamp: Int64?, clock: ClockEstimator) -> PressEstimate {
        guard let allowance = clock.backdateAllowance else {
            return PressEstimate(pressedAt: arrival, uncertainty: 1, wasClamped: false)
        }
        let window = arrival.saturatingSubtract(allowance)...arrival
        guard let stamp, let offsets = clock.offsetBounds(at: arrival) else {
            return PressEstimate(somewhereIn: window, wasClamped: false)
        }
        // The stamp counts whole ms of the client's clock, so the press may lie up to 1 ms after it.
        let earliest = stamp.saturatingSubtract(offsets.upperBound)
        let stamped = earliest...stamp.saturatingSubtract(offsets.lowerBound).saturatingAdd(1)
        guard stamped.overlaps(window) else { return PressEstimate(somewhereIn: window, wasClamped: true) }
        return PressEstimate(somewhereIn: stamped.clamped(to: window), wasClamped: false)
    }
}

extension ClosedRange<Int64> {
    /// The middle, rounded down, without overflow.
    fileprivate var middle: Int64 { lowerBound.saturatingAdd(upperBound.saturatingSubtract(lowerBound) / 2) }

    /// How far the ends lie from `middle`, at most (at least 1).
    fileprivate var halfWidth: Int64 { Swift.max(1, upperBound.saturatingSubtract(middle)) }
}

extension Int64 {
    /// `self + other`, pinned to the representable range instead of trapping.
    fileprivate func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, pinned to the representable range instead of trapping.
    fileprivate func saturatingSubtract(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
