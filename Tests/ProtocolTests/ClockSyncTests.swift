import Testing

@testable import Protocol

/// A synthetic exchange: the client's clock runs `offset` ms ahead of the host's, the probe takes
/// `outbound` ms to reach the client, the client takes `processing` ms to reply, the reply takes `inbound` ms back.
private func exchange(at hostSent: Int64, offset: Int64, outbound: Int64, inbound: Int64, processing: Int64 = 0)
    -> ClockSample
{
    let clientReceived = hostSent + outbound + offset
    let clientSent = clientReceived + processing
    let hostReceived = hostSent + outbound + processing + inbound
    return ClockSample(
        hostSent: hostSent, clientReceived: clientReceived, clientSent: clientSent, hostReceived: hostReceived)
}

private func estimator(_ samples: [ClockSample]) -> ClockEstimator {
    var clock = ClockEstimator()
    for sample in samples { clock.add(sample) }
    return clock
}

/// A clock with zero offset and the given round trips (symmetric halves).
private func estimator(roundTrips: [Int64]) -> ClockEstimator {
    estimator(
        roundTrips.enumerated().map { index, rtt in
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
        // Whatever the split of its 14 ms, the offset lies within 7 ms (+ 1 for whole-ms stamps) either way.
        #expect(behind.offsetBounds == -12_353 ... -12_337)
    }

    @Test func asymmetricDelayBiasesOneSampleByHalfTheAsymmetry() {
        let sample = exchange(at: 1000, offset: 500, outbound: 30, inbound: 10, processing: 5)
        #expect(sample.roundTrip == 40)
        #expect(sample.offset == 510)  // (30 − 10) / 2 too far
        let reverse = exchange(at: 1000, offset: 500, outbound: 10, inbound: 50)
        #expect(reverse.offset == 480)
        // The bounds still hold the truth: from "the reply took no time" to "the probe took no time".
        #expect(sample.offsetBounds == 489...531)
        #expect(reverse.offsetBounds == 449...511)
    }

    @Test func roundTripNeverGoesNegative() {
        // A client claiming more processing time than the whole round trip.
        let sample = ClockSample(hostSent: 1000, clientReceived: 0, clientSent: 500, hostReceived: 1010)
        #expect(sample.roundTrip == 0)
        #expect(sample.offsetBounds == nil, "no offset is consistent with more processing than round trip")
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
        // The uncongested exchanges bound the offset to 2,000 ± 5 (their one-way 5 ms) + 1 (whole-ms stamps), the
        // latest of them 1 ms wider above for the drift since (rounded up); the newest bounds it below.
        #expect(clock.offsetBounds(at: 7_511) == 1_994...2_007)
        #expect(clock.uncertainty == 7)
        #expect(clock.hostTime(fromClient: 12_000) == 10_000)
        #expect(clock.clientTime(fromHost: 10_000) == 12_000)
    }

    @Test func aLopsidedLinkIsBoundedNotGuessed() {
        // 80 ms down, 5 ms up: every exchange reads 37.5 ms too high, and no number of them can tell.
        let clock = estimator((0..<16).map { exchange(at: Int64($0) * 2_000, offset: 100, outbound: 80, inbound: 5) })
        #expect(clock.samples.map(\.offset).allSatisfy { $0 == 137 })
        // The host does not pretend to know: the offset lies in 100 − 5 − 1 … 100 + 80 + 1.
        #expect(clock.offsetBounds(at: 30_000) == 94...181)
        #expect(clock.offset == 137 && clock.uncertainty == 44)
        #expect(abs(clock.offset - 100) <= clock.uncertainty)
        // The reverse link errs the other way by as much, and says so as honestly.
        let reverse = estimator((0..<16).map { exchange(at: Int64($0) * 2_000, offset: 100, outbound: 5, inbound: 80) })
        #expect(reverse.offset == 62 && reverse.uncertainty == 44)
    }

    @Test func exchangesOfDifferentSplitsNarrowTheBounds() {
        // One exchange with a slow probe, one with a slow reply: together they pin the offset to a few ms.
        let clock = estimator([
            exchange(at: 0, offset: -300, outbound: 40, inbound: 2),  // allows −303 … −259
            exchange(at: 100, offset: -300, outbound: 2, inbound: 40),  // allows −341 … −297
        ])
        // (The older one widened by 1 ms of drift: 200 ppm of 100 ms, rounded up.)
        #expect(clock.offsetBounds(at: 142) == -304 ... -297)
        #expect(clock.offset == -301 && clock.uncertainty == 4)
    }

    @Test func olderExchangesAreWidenedForDrift() {
        var clock = estimator([exchange(at: 0, offset: 0, outbound: 0, inbound: 0)])
        #expect(clock.offsetBounds(at: 0) == -1...1)
        // 200 ppm of 100 s: 20 ms either way.
        #expect(clock.offsetBounds(at: 100_000) == -21...21)
        // A newer, wider exchange keeps what the older one adds after widening.
        clock.add(exchange(at: 100_000, offset: 0, outbound: 30, inbound: 30))
        #expect(clock.offsetBounds(at: 100_000) == -21...21)
    }

    @Test func anExchangeThatContradictsTheNewerOnesIsLeftOut() {
        var clock = estimator([exchange(at: 0, offset: 5_000, outbound: 3, inbound: 3)])  // a lie, or another clock
        clock.add(exchange(at: 1_000, offset: 0, outbound: 3, inbound: 3))
        clock.add(exchange(at: 2_000, offset: 0, outbound: 4, inbound: 2))
        #expect(clock.offsetBounds(at: 2_006) == -3...5)
        #expect(clock.offset == 1 && clock.uncertainty == 4)
    }

    @Test func percentilesOfRoundTrips() {
        let empty = ClockEstimator()
        #expect(!empty.isMeasured)
        #expect(
            empty.minimumRoundTrip == 0 && empty.medianRoundTrip == 0 && empty.p95RoundTrip == 0
                && empty.maximumRoundTrip == 0)
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
        #expect(
            one.minimumRoundTrip == 42 && one.medianRoundTrip == 42 && one.p95RoundTrip == 42
                && one.maximumRoundTrip == 42)
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
        #expect(
            PressEstimate.estimate(arrival: 5_000, stamp: nil, clock: ClockEstimator())
                == PressEstimate(pressedAt: 5_000, uncertainty: 1, wasClamped: false))
        #expect(
            PressEstimate.estimate(arrival: 5_000, stamp: 1, clock: ClockEstimator())
                == PressEstimate(pressedAt: 5_000, uncertainty: 1, wasClamped: false))
    }

    @Test func aTextModePlayerWithAKernelRoundTripPressedWithinItBeforeArrival() {
        var clock = ClockEstimator()
        clock.notePathRoundTrip(30)
        #expect(!clock.isMeasured && clock.backdateAllowance == 30)
        // Somewhere in [arrival − 30, arrival]; a stamp means nothing without sync exchanges.
        for stamp in [nil, Int64(1)] {
            #expect(
                PressEstimate.estimate(arrival: 5_000, stamp: stamp, clock: clock)
                    == PressEstimate(pressedAt: 4_985, uncertainty: 15, wasClamped: false))
        }
    }

    @Test func unstampedBuzzLiesSomewhereInTheArrivalWindow() {
        var clock = estimator(roundTrips: [40, 24, 60, 30])
        #expect(
            PressEstimate.estimate(arrival: 10_000, stamp: nil, clock: clock)
                == PressEstimate(pressedAt: 9_970, uncertainty: 30, wasClamped: false))
        clock.notePathRoundTrip(24)  // the kernel confirms only 24 ms
        #expect(
            PressEstimate.estimate(arrival: 10_000, stamp: nil, clock: clock)
                == PressEstimate(pressedAt: 9_988, uncertainty: 12, wasClamped: false))
        let fast = estimator(roundTrips: [1, 1])
        #expect(PressEstimate.estimate(arrival: 10_000, stamp: nil, clock: fast).uncertainty == 1)
    }

    @Test func theBackdateAllowanceIsTheLowestWitness() {
        var clock = ClockEstimator()
        #expect(clock.backdateAllowance == nil)
        clock.notePathRoundTrip(nil)
        #expect(clock.backdateAllowance == nil)
        clock = estimator(roundTrips: [10, 110, 105])  // a client holding its sync replies looks 110 ms away
        #expect(clock.backdateAllowance == 110)
        clock.notePathRoundTrip(10)  // …but its path takes 10
        #expect(clock.backdateAllowance == 10)
        clock.notePathRoundTrip(nil)  // no new figure keeps the last one
        #expect(clock.pathRoundTrip == 10)
        clock.notePathRoundTrip(400)
        #expect(clock.backdateAllowance == 110, "the application's own measurement bounds it too")
        #expect(estimator(roundTrips: [400, 500]).backdateAllowance == PressEstimate.maximumBackdate)
    }

    @Test func honestStampMapsThroughTheOffset() {
        // Client clock 3 s ahead; RTTs 20…40, split evenly.
        let clock = estimator(
            [20, 30, 40, 20, 30, 20].enumerated().map { index, rtt in
                exchange(at: Int64(index) * 1000, offset: 3_000, outbound: rtt / 2, inbound: rtt / 2)
            })
        #expect(clock.offset == 3_000)
        #expect(clock.uncertainty == 11)  // the fastest exchanges took 10 ms each way
        let arrival: Int64 = 6_000  // a second after the last exchange: 1 ms of drift (rounded up)
        let pressed = arrival - 15  // pressed 15 ms before the buzz arrived, well within one RTT
        let estimate = PressEstimate.estimate(arrival: arrival, stamp: pressed + 3_000, clock: clock)
        #expect(estimate.pressedAt == pressed)
        #expect(!estimate.wasClamped)
        // Mapped through every offset allowed, 2,988…3,012 by now: pressed − 12 … pressed + 13 (whole-ms stamps).
        #expect(estimate.uncertainty == 13)
    }

    @Test func anImpossibleEarlyStampCountsAsNoStamp() {
        let clock = estimator(
            [10, 20, 30, 40].enumerated().map { index, rtt in
                exchange(at: Int64(index) * 1000, offset: 700, outbound: rtt / 2, inbound: rtt / 2)
            })
        #expect(clock.backdateAllowance == 40)
        let arrival: Int64 = 4_000  // soon after the last exchange
        // The client claims it pressed 500 ms before the buzz arrived: set aside, the press lies in the window.
        let forged = clock.clientTime(fromHost: arrival - 500)
        let estimate = PressEstimate.estimate(arrival: arrival, stamp: forged, clock: clock)
        #expect(estimate == PressEstimate(pressedAt: arrival - 20, uncertainty: 20, wasClamped: true))
        #expect(
            estimate == PressEstimate.estimate(arrival: arrival, stamp: nil, clock: clock).with(wasClamped: true),
            "a forged stamp gains nothing over no stamp")
        // A stamp that may just reach the window's edge narrows the press to the part inside it.
        let edgeStamp = clock.clientTime(fromHost: arrival - 40)
        let edge = PressEstimate.estimate(arrival: arrival, stamp: edgeStamp, clock: clock)
        #expect(!edge.wasClamped)
        #expect(edge.pressedAt - edge.uncertainty >= arrival - 41 && edge.pressedAt + edge.uncertainty <= arrival - 25)
    }

    @Test func stampsInTheFutureCountAsNoStamp() {
        let clock = estimator(roundTrips: [10, 12, 14])
        let arrival: Int64 = 80_000
        let late = PressEstimate.estimate(arrival: arrival, stamp: arrival + 250, clock: clock)
        #expect(late == PressEstimate(pressedAt: arrival - 7, uncertainty: 7, wasClamped: true))
        let exact = PressEstimate.estimate(arrival: arrival, stamp: arrival, clock: clock)
        #expect(!exact.wasClamped && exact.pressedAt + exact.uncertainty >= arrival && exact.pressedAt <= arrival)
    }

    @Test func absurdStampsAndSyncRepliesDoNotTrap() {
        // Every field of a sync reply and a buzz stamp comes from the client; none may crash the host.
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        var clock = ClockEstimator()
        for hostSent in extremes {
            for clientReceived in extremes {
                for clientSent in extremes {
                    let sample = ClockSample(
                        hostSent: hostSent, clientReceived: clientReceived, clientSent: clientSent, hostReceived: 1_000)
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
                        #expect(estimate.pressedAt - estimate.uncertainty >= 1_000 - clock.maximumRoundTrip - 1)
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

extension PressEstimate {
    fileprivate func with(wasClamped: Bool) -> PressEstimate {
        PressEstimate(pressedAt: pressedAt, uncertainty: uncertainty, wasClamped: wasClamped)
    }
}
