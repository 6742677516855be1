import Testing
@testable import Protocol

/// A synthetic exchange: the client's clock runs `offset` ms ahead of the host's, the probe takes
/// `outbound` ms to reach the client, the client takes `processing` ms to reply, the reply takes `inbound` ms back.
private func exchange(at hostSent: Int64, offset: Int64, outbound: Int64, inbound: Int64, processing: Int64 = 0) -> ClockSample {
    let clientReceived = hostSent + outbound + offset
    let clientSent = clientReceived + processing
    let hostReceived = hostSent + outbound + processing + inbound
    return ClockSample(hostSent: hostSent, clientReceived: clientReceived, clientSent: clientSent, hostReceived: hostReceived)
}

private func estimator(_ samples: [ClockSample]) -> ClockEstimator {
    var clock = ClockEstimator()
    for sample in samples { clock.add(sample) }
    return clock
}

/// A clock with zero offset and the given round trips (symmetric halves).
private func estimator(roundTrips: [Int64]) -> ClockEstimator {
    estimator(roundTrips.enumerated().map { index, rtt in
        exchange(at: Int64(index) * 1000, offset: 0, outbound: rtt / 2, inbound: rtt - rtt / 2)
    })
}

@Suite struct ClockSyncTests {
    @Test func symmetricExchangeMeasuresOffsetAndRoundTripExactly() {
        let sample = exchange(at: 1000, offset: 500, outbound: 10, inbound: 10, processing: 5)
        #expect(sample.roundTrip == 20)  // processing time is not network time
        #expect(sample.offset == 500)
        #expect(sample.at == 1025)
        let behind = exchange(at: 1000, offset: -12_345, outbound: 7, inbound: 7, processing: 100)
        #expect(behind.offset == -12_345)
        #expect(behind.roundTrip == 14)
    }

    @Test func asymmetricDelayBiasesOneSampleByHalfTheAsymmetry() {
        let sample = exchange(at: 1000, offset: 500, outbound: 30, inbound: 10, processing: 5)
        #expect(sample.roundTrip == 40)
        #expect(sample.offset == 510)  // (30 − 10) / 2 too far
        let reverse = exchange(at: 1000, offset: 500, outbound: 10, inbound: 50)
        #expect(reverse.offset == 480)
    }

    @Test func roundTripNeverGoesNegative() {
        // A client claiming more processing time than the whole round trip.
        let sample = ClockSample(hostSent: 1000, clientReceived: 0, clientSent: 500, hostReceived: 1010)
        #expect(sample.roundTrip == 0)
    }

    @Test func offsetComesFromTheFastestExchanges() {
        var rng = FuzzRandom(seed: 31337)
        var samples: [ClockSample] = []
        for index in 0..<16 {
            let at = Int64(index) * 500
            if index % 4 == 1 {
                // The uncongested exchanges: 5 ms each way.
                samples.append(exchange(at: at, offset: 2_000, outbound: 5, inbound: 5, processing: 1))
            } else {
                // Queueing on the way out only: every such sample is skewed high.
                let queue = Int64(20 + rng.below(200))
                samples.append(exchange(at: at, offset: 2_000, outbound: 5 + queue, inbound: 5, processing: 1))
            }
        }
        let clock = estimator(samples)
        #expect(clock.samples.count == 16)
        #expect(clock.offset == 2_000)
        #expect(clock.minimumRoundTrip == 10)
        #expect(clock.maximumRoundTrip >= 30)
        // A naive mean of all offsets would be far off.
        let mean = samples.map(\.offset).reduce(0, +) / Int64(samples.count)
        #expect(mean > 2_005)
        // The best offsets agree, so the uncertainty is the larger of half the jitter and half of how far the
        // p95 round trip lies above the fastest (the one-way queueing could sit on either side).
        #expect(clock.uncertainty == max(1, clock.jitter / 2, (clock.p95RoundTrip - clock.minimumRoundTrip) / 2))
        #expect(clock.uncertainty >= (clock.p95RoundTrip - clock.minimumRoundTrip) / 2)
        #expect(clock.hostTime(fromClient: 12_000) == 10_000)
        #expect(clock.clientTime(fromHost: 10_000) == 12_000)
    }

    @Test func uncertaintyGrowsWithDisagreementAmongTheBest() {
        let three = estimator([
            exchange(at: 0, offset: 100, outbound: 5, inbound: 5),  // RTT 10, reads 100
            exchange(at: 1, offset: 100, outbound: 14, inbound: 6),  // RTT 20, reads 104
            exchange(at: 2, offset: 100, outbound: 6, inbound: 14),  // RTT 20, reads 96
        ])
        // Three samples: only the single best counts (3 / 3 = 1); jitter (10 + 0) / 2 = 5; p95 RTT 20 lies
        // 10 above the fastest 10, so the round-trip variability term (10 / 2 = 5) decides.
        #expect(three.offset == 100)
        #expect(three.jitter == 5)
        #expect(three.uncertainty == 5)

        // Nine slow samples (RTT 30) and four fast ones (RTT 20) that disagree by up to 12 ms.
        var clock = estimator(roundTrips: Array(repeating: 30, count: 9))
        clock.add(exchange(at: 10_000, offset: 0, outbound: 14, inbound: 6))  // reads +4
        clock.add(exchange(at: 10_001, offset: 0, outbound: 6, inbound: 14))  // reads −4
        clock.add(exchange(at: 10_002, offset: 0, outbound: 18, inbound: 2))  // reads +8
        clock.add(exchange(at: 10_003, offset: 0, outbound: 10, inbound: 10))  // reads 0
        // 13 samples → the best 4, offsets −4, 0, 4, 8: the upper median, ± half the spread (jitter 10 / 12 = 0).
        #expect(clock.offset == 4)
        #expect(clock.jitter == 0)
        #expect(clock.uncertainty == 6)
    }

    @Test func percentilesOfRoundTrips() {
        let empty = ClockEstimator()
        #expect(!empty.isMeasured)
        #expect(empty.minimumRoundTrip == 0 && empty.medianRoundTrip == 0 && empty.p95RoundTrip == 0 && empty.maximumRoundTrip == 0)
        #expect(empty.offset == 0 && empty.uncertainty == 1 && empty.jitter == 0)

        var rng = FuzzRandom(seed: 5)
        var roundTrips = (1...16).map { Int64($0) * 10 }
        roundTrips.shuffle(using: &rng)
        let clock = estimator(roundTrips: roundTrips)
        #expect(clock.isMeasured)
        #expect(clock.minimumRoundTrip == 10)
        #expect(clock.medianRoundTrip == 90)  // index ⌈15 × 0.5⌉ = 8 of the sorted 16
        #expect(clock.p95RoundTrip == 160)  // index ⌈15 × 0.95⌉ = 15
        #expect(clock.maximumRoundTrip == 160)

        let one = estimator(roundTrips: [42])
        #expect(one.minimumRoundTrip == 42 && one.medianRoundTrip == 42 && one.p95RoundTrip == 42 && one.maximumRoundTrip == 42)
    }

    @Test func jitterIsTheMeanStepBetweenConsecutiveRoundTrips() {
        #expect(estimator(roundTrips: [10, 20, 10]).jitter == 10)
        #expect(estimator(roundTrips: [10, 10, 10, 10]).jitter == 0)
        #expect(estimator(roundTrips: [10, 40]).jitter == 30)
    }

    @Test func onlyTheRecentWindowIsKept() {
        var clock = estimator(roundTrips: Array(repeating: 500, count: 4))
        for index in 0..<ClockEstimator.window {
            clock.add(exchange(at: 100_000 + Int64(index), offset: 0, outbound: 5, inbound: 5))
        }
        #expect(clock.samples.count == ClockEstimator.window)
        #expect(clock.maximumRoundTrip == 10, "the slow early samples have left the window")
    }

    // MARK: Press estimates

    @Test func unmeasuredConnectionsBuzzAtArrival() {
        #expect(PressEstimate.estimate(arrival: 5_000, stamp: nil, clock: ClockEstimator())
            == PressEstimate(pressedAt: 5_000, uncertainty: 1, wasClamped: false))
        #expect(PressEstimate.estimate(arrival: 5_000, stamp: 1, clock: ClockEstimator())
            == PressEstimate(pressedAt: 5_000, uncertainty: 1, wasClamped: false))
    }

    @Test func unstampedBuzzIsArrivalMinusHalfTheLowestRoundTrip() {
        let clock = estimator(roundTrips: [40, 24, 60, 30])
        #expect(PressEstimate.estimate(arrival: 10_000, stamp: nil, clock: clock)
            == PressEstimate(pressedAt: 9_988, uncertainty: 12, wasClamped: false))
        let fast = estimator(roundTrips: [1, 1])
        #expect(PressEstimate.estimate(arrival: 10_000, stamp: nil, clock: fast).uncertainty == 1)
    }

    @Test func honestStampMapsThroughTheOffset() {
        // Client clock 3 s ahead; RTTs 20…40.
        let clock = estimator([20, 30, 40, 20, 30, 20].enumerated().map { index, rtt in
            exchange(at: Int64(index) * 1000, offset: 3_000, outbound: rtt / 2, inbound: rtt / 2)
        })
        #expect(clock.offset == 3_000)
        let arrival: Int64 = 50_000
        let pressed = arrival - 15  // pressed 15 ms before the buzz arrived, well within one RTT
        let estimate = PressEstimate.estimate(arrival: arrival, stamp: pressed + 3_000, clock: clock)
        #expect(estimate.pressedAt == pressed)
        #expect(!estimate.wasClamped)
        #expect(estimate.uncertainty == clock.uncertainty)
    }

    @Test func forgedEarlyStampIsClampedToArrivalMinusMaximumRoundTrip() {
        let clock = estimator([10, 20, 30, 40].enumerated().map { index, rtt in
            exchange(at: Int64(index) * 1000, offset: 700, outbound: rtt / 2, inbound: rtt / 2)
        })
        #expect(clock.maximumRoundTrip == 40)
        let arrival: Int64 = 80_000
        // The client claims it pressed 500 ms before the buzz arrived.
        let forged = clock.clientTime(fromHost: arrival - 500)
        let estimate = PressEstimate.estimate(arrival: arrival, stamp: forged, clock: clock)
        #expect(estimate.pressedAt == arrival - 40)
        #expect(estimate.wasClamped)
        // Exactly on the bound is allowed and not a clamp.
        let edge = PressEstimate.estimate(arrival: arrival, stamp: clock.clientTime(fromHost: arrival - 40), clock: clock)
        #expect(edge.pressedAt == arrival - 40 && !edge.wasClamped)
    }

    @Test func stampsInTheFutureAreClampedToArrival() {
        let clock = estimator(roundTrips: [10, 12, 14])
        let arrival: Int64 = 80_000
        let late = PressEstimate.estimate(arrival: arrival, stamp: arrival + 250, clock: clock)
        #expect(late.pressedAt == arrival && late.wasClamped)
        let exact = PressEstimate.estimate(arrival: arrival, stamp: arrival, clock: clock)
        #expect(exact.pressedAt == arrival && !exact.wasClamped)
    }

    @Test func absurdStampsAndSyncRepliesDoNotTrap() {
        // Every field of a sync reply and a buzz stamp comes from the client; none may crash the host.
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        var clock = ClockEstimator()
        for hostSent in extremes {
            for clientReceived in extremes {
                for clientSent in extremes {
                    let sample = ClockSample(hostSent: hostSent, clientReceived: clientReceived, clientSent: clientSent, hostReceived: 1_000)
                    #expect(sample.roundTrip >= 0)
                    clock.add(sample)
                    _ = clock.offset
                    _ = clock.uncertainty
                    _ = clock.jitter
                    for stamp in extremes + [nil] {
                        let estimate = PressEstimate.estimate(arrival: 1_000, stamp: stamp, clock: clock)
                        #expect(estimate.pressedAt <= 1_000)
                        #expect(estimate.pressedAt >= 1_000 - clock.maximumRoundTrip)
                        #expect(estimate.uncertainty >= 1)
                    }
                }
            }
        }
        // An offset near the edge of Int64 saturates instead of wrapping.
        let edge = estimator([ClockSample(hostSent: 0, clientReceived: .max, clientSent: .max, hostReceived: 0)])
        #expect(edge.offset == .max - 1)
        #expect(edge.hostTime(fromClient: .min) == .min)
        #expect(edge.clientTime(fromHost: .max) == .max)
        let estimate = PressEstimate.estimate(arrival: 1_000, stamp: .min, clock: edge)
        #expect(estimate.pressedAt == 1_000 && estimate.wasClamped)
    }
}
