import DelayLine
import Foundation
import Net

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a busy machine did to the timing of one measured trial on the packet delay line, beyond the delay the links
/// were configured with: a sleep that woke late, a press whose buzz reached the kernel well after its stamp, a
/// starved delay line, a host that waited for a CPU.
///
/// A press the host receives later than its path allows is rightly bounded by the path's round trip
/// (PROTOCOL.md §9), so such a trial says nothing about the host's estimate; it is void and played again.
/// Whether a trial is void depends only on these timings, never on what the host made of the presses.
public struct Disturbance: Sendable, CustomStringConvertible {
    /// The most a trial may be disturbed and still count, ns: 2 ms. Stamps count whole milliseconds and the host
    /// allows ±1 ms for that, so a press on an undelayed link falls out of the host's arrival window once it arrives
    /// about 2 ms later than its path allows; anything smaller is lost in the rounding the host already allows for.
    public static let limit: Int64 = 2_000_000

    /// How much later than planned a press happened (the worst of the trial's sleeps), ns.
    public var lateWake: Int64 = 0
    /// The longest a press took from reading its clock to its message handed to the kernel, ns.
    public var slowSend: Int64 = 0
    /// How late the delay line moved packets during the trial.
    public var delayLine = PacketForwarder.Lateness()
    /// How long the host's threads waited for a CPU during the trial, ns (nil: unknown, counted as none).
    public var hostWaited: Int64?

    /// Creates a record of no disturbance.
    public init() {}

    /// At most this much delay, ns, that no link explains was added on a press's way to the host's reading of it.
    public var added: Int64 { slowSend + delayLine.added + (hostWaited ?? 0) }

    /// Whether the trial was disturbed beyond `limit`, so it does not count.
    public var isVoid: Bool { lateWake > Disturbance.limit || added > Disturbance.limit }

    /// The worse of the two figures the limit applies to, ns.
    public var worst: Int64 { max(lateWake, added) }

    public var description: String {
        func ms(_ ns: Int64) -> String { String(format: "%.1f", Double(ns) / 1e6) }
        let cpu: String = delayLine.waitedForCPU.map { ", waited \(ms($0)) for a CPU" } ?? ""
        let host: String = hostWaited.map { "\(ms($0)) ms" } ?? "? ms"
        let line: String = "delay line +\(ms(delayLine.added)) ms (released \(ms(delayLine.worstRelease)) late\(cpu))"
        return "press \(ms(lateWake)) ms late, sent in \(ms(slowSend)) ms, \(line), host waited \(host) for a CPU"
    }

    /// The error of a measurement that found more trials void than it could play again: the machine was too busy
    /// to measure `what` (fair buzzing, say), which says nothing about the host.
    public static func tooBusy(_ void: [Disturbance], measuring what: String) -> HarnessError {
        let worst = void.max { $0.worst < $1.worst }
        return HarnessError(
            "The machine was too busy to measure \(what): \(void.count) trials were void, each disturbed by more "
                + "than \(limit / 1_000_000) ms of delay no link explains (worst: \(worst?.description ?? "?")). "
                + "They say nothing about the host; run again on a quieter machine.")
    }

    /// Merges `other` into this record: the worse of each figure.
    public mutating func include(_ other: Disturbance) {
        lateWake = max(lateWake, other.lateWake)
        slowSend = max(slowSend, other.slowSend)
        delayLine.worstRelease = max(delayLine.worstRelease, other.delayLine.worstRelease)
        if let waited = other.delayLine.waitedForCPU {
            delayLine.waitedForCPU = max(delayLine.waitedForCPU ?? 0, waited)
        }
        if let waited = other.hostWaited { hostWaited = max(hostWaited ?? 0, waited) }
    }
}

/// Measures a trial's `Disturbance` while it runs: times its sleeps and presses, and reads the delay line's
/// lateness and the host's wait for a CPU from the moment it was made to `finish()`.
public final class DisturbanceWatch {
    private let network: DelayedNetwork?
    private let host: RunQueue.ProcessWatch
    private var measured = Disturbance()

    /// Starts watching a trial on `network` (nil: on loopback, no delay line) whose host is process `hostPID` (the
    /// delay line's lateness so far is forgotten).
    public init(network: DelayedNetwork?, hostPID: Int32) {
        self.network = network
        _ = network?.takeLateness()
        host = RunQueue.ProcessWatch(pid: hostPID)
    }

    /// Sleeps, then spins for the last millisecond, until the monotonic clock reads `target` ns, and notes how late
    /// it woke.
    public func sleep(until target: Int64) {
        FairnessMatch.sleep(until: target)
        measured.lateWake = max(measured.lateWake, MonotonicClock.nanoseconds() - target)
    }

    /// Presses: reads the monotonic clock, passes its millisecond to `send` (which sends the press stamped from it)
    /// and notes how long that took; returns the millisecond.
    public func press(_ send: (Int64) throws -> Void) rethrows -> Int64 {
        let before = MonotonicClock.nanoseconds()
        try send(before / 1_000_000)
        measured.slowSend = max(measured.slowSend, MonotonicClock.nanoseconds() - before)
        return before / 1_000_000
    }

    /// The trial's disturbance so far (the delay line's and the host's since the watch was made).
    public func finish() -> Disturbance {
        var result = measured
        result.delayLine = network?.takeLateness() ?? PacketForwarder.Lateness()
        result.hostWaited = host.waited()
        return result
    }
}

@available(*, unavailable)
extension DisturbanceWatch: Sendable {}
