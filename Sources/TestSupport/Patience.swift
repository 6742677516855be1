import Foundation

/// How long the tests wait for something that must happen: generously, because a loaded two-core machine can be
/// slow for seconds at a time, and a passing test never waits the deadline out.
///
/// Invariant: a deadline is a guard against a hang, never a measurement. What must not happen is checked by waiting
/// for a later event that must happen, or for a short while that can only let a wrong result pass, never fail a
/// right one. `PARTYLINE_TEST_PATIENCE` multiplies every deadline on an unusually slow machine.
public enum Patience {
    /// The default deadline, in seconds, of every wait for a message, a line, a close or an exit.
    public static let generous: TimeInterval = 30 * scale

    /// The factor from `PARTYLINE_TEST_PATIENCE` (1 when unset or not a positive number).
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["PARTYLINE_TEST_PATIENCE"], let factor = Double(text),
            factor > 0
        else { return 1 }
        return factor
    }()
}

/// A soft cap on how many hosts the suite's tests run at once, so a small machine is not asked to run more host
/// processes than it has cores for (each test's waits stay generous either way).
///
/// The cap never deadlocks: a test that needs a slot when all are taken (one that holds two hosts, say) waits at
/// most `Patience.generous` and then runs anyway.
final class HostSlot: @unchecked Sendable {
    /// How many hosts may run at once: the cores, but at least two.
    static let capacity = max(2, ProcessInfo.processInfo.activeProcessorCount)
    private static let free = DispatchSemaphore(value: capacity)
    private let lock = NSLock()
    private var held: Bool

    /// Takes a slot, waiting for one if every slot is taken (up to the generous deadline).
    init() { held = HostSlot.free.wait(timeout: .now() + Patience.generous) == .success }

    /// Gives the slot back; later calls do nothing.
    func release() {
        let wasHeld = lock.withLock {
            defer { held = false }
            return held
        }
        if wasHeld { HostSlot.free.signal() }
    }

    deinit { release() }
}

/// One child process starts at a time in the tests: Foundation's `Process.run` makes and closes descriptors around
/// the spawn, and two runs interleaved on different threads have failed with a descriptor the other had closed.
public enum ProcessLaunch {
    private static let lock = NSLock()

    /// Runs `start` (a `Process.run` or a `posix_spawn` and what it opens and closes) while no other launch does.
    public static func serialized<Result>(_ start: () throws -> Result) rethrows -> Result {
        try lock.withLock(start)
    }
}
