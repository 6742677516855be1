/// One NTP-style exchange: the host's send and receive times and the client's receive and send times.
public struct ClockSample: Equatable, Sendable {
    /// Round-trip time less the client's own processing time, in ms.
    public var roundTrip: Int64
    /// Client clock minus host clock, estimated from this exchange, in ms.
    public var offset: Int64
    /// Host time of the exchange.
    public var at: Int64

    /// Computes a sample from the four timestamps (host sent, client received, client sent, host received).
    public init(hostSent: Int64, clientReceived: Int64, clientSent: Int64, hostReceived: Int64) {
        // The client echoes `hostSent` and supplies its own stamps, so any of them may be absurd:
        // saturating arithmetic keeps a forged reply from trapping the host.
        let processing = max(0, clientSent.saturatingSubtract(clientReceived))
        roundTrip = max(0, hostReceived.saturatingSubtract(hostSent).saturatingSubtract(processing))
        let outbound = clientReceived.saturatingSubtract(hostSent), inbound = clientSent.saturatingSubtract(hostReceived)
        let (sum, overflow) = outbound.addingReportingOverflow(inbound)
        offset = overflow ? outbound / 2 + inbound / 2 : sum / 2
        at = hostReceived
    }
}

/// Estimates one connection's clock offset and latency from its recent sync exchanges.
///
/// The offset comes from the lowest-RTT samples of a recent window (queueing delay only ever
/// adds, so the fastest exchanges are the least skewed); the uncertainty is half the spread of
/// those best offsets plus half the jitter, or half of how far the p95 round trip lies above
/// the fastest one if that is larger, never below 1 ms.
public struct ClockEstimator: Equatable, Sendable {
    /// How many recent samples are kept.
    public static let window = 16
    /// The recent samples, oldest first.
    public private(set) var samples: [ClockSample] = []

    /// Creates an estimator with no samples.
    public init() {}

    /// Records one exchange.
    public mutating func add(_ sample: ClockSample) {
        samples.append(sample)
        if samples.count > ClockEstimator.window { samples.removeFirst(samples.count - ClockEstimator.window) }
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

    private var bestSamples: [ClockSample] {
        let sorted = samples.sorted { $0.roundTrip < $1.roundTrip }
        return Array(sorted.prefix(max(1, min(4, sorted.count / 3))))
    }

    /// Client clock minus host clock, in ms (0 when unmeasured).
    public var offset: Int64 {
        let best = bestSamples
        guard !best.isEmpty else { return 0 }
        let offsets = best.map(\.offset).sorted()
        return offsets[offsets.count / 2]
    }

    /// How far the offset estimate may be off, in ms (at least 1).
    public var uncertainty: Int64 {
        let offsets = bestSamples.map(\.offset)
        guard let low = offsets.min(), let high = offsets.max() else { return 1 }
        // A sample's offset is off by half the difference between its two one-way delays; how much the round
        // trip varies (p95 above the fastest) bounds how lopsided those delays typically are.
        let variability = p95RoundTrip.saturatingSubtract(minimumRoundTrip) / 2
        return max(1, (high.saturatingSubtract(low) / 2).saturatingAdd(jitter / 2), variability)
    }

    /// Maps a client clock reading to host time.
    public func hostTime(fromClient clientTime: Int64) -> Int64 { clientTime.saturatingSubtract(offset) }

    /// Maps a host clock reading to the client's clock.
    public func clientTime(fromHost hostTime: Int64) -> Int64 { hostTime.saturatingAdd(offset) }
}

/// The host's estimate of when a buzz was pressed, within bounds it can prove.
public struct PressEstimate: Equatable, Sendable {
    /// Estimated press time, host clock ms.
    public var pressedAt: Int64
    /// ± ms.
    public var uncertainty: Int64
    /// Whether the client's stamp lay outside the provable bounds and was clamped.
    public var wasClamped: Bool

    /// Creates an estimate.
    public init(pressedAt: Int64, uncertainty: Int64, wasClamped: Bool) {
        self.pressedAt = pressedAt
        self.uncertainty = uncertainty
        self.wasClamped = wasClamped
    }

    /// Estimates a press from a buzz that arrived at host time `arrival`, with the client's stamp if it sent one.
    ///
    /// A stamp maps to host time through the connection's offset and is accepted only within
    /// [arrival − highest recent RTT, arrival]: a client lying about time gains at most its own
    /// measured latency. Without a stamp (text mode), the press is arrival minus half the lowest RTT.
    /// The most a stamp may reach back before its arrival, whatever latency a client shows: Wi-Fi adds up to
    /// about 100 ms, so a larger "latency" is a slow link or a client holding its sync replies to look slow.
    public static let maximumBackdate: Int64 = 150

    public static func estimate(arrival: Int64, stamp: Int64?, clock: ClockEstimator) -> PressEstimate {
        guard clock.isMeasured else { return PressEstimate(pressedAt: arrival, uncertainty: 1, wasClamped: false) }
        guard let stamp else {
            return PressEstimate(pressedAt: arrival.saturatingSubtract(clock.minimumRoundTrip / 2),
                                 uncertainty: max(1, clock.minimumRoundTrip / 2), wasClamped: false)
        }
        let mapped = clock.hostTime(fromClient: stamp)
        let earliest = arrival.saturatingSubtract(min(clock.maximumRoundTrip, maximumBackdate))
        let clamped = min(max(mapped, earliest), arrival)
        return PressEstimate(pressedAt: clamped, uncertainty: clock.uncertainty, wasClamped: clamped != mapped)
    }
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
