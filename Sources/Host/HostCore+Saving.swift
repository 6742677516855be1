import Foundation
import Protocol
import Rules

/// The output of one turn of the loop, which may be written only once the journal holds what it tells.
///
/// The transport (and the in-process tests' recording outlet) keeps each connection's bytes in three parts —
/// written, held, this turn's — and the core settles each turn with one of these three calls.
package protocol TurnOutput: AnyObject {
    /// Whether anything queued this turn, or held, waits for the core's word.
    var hasPendingOutput: Bool { get }
    /// Everything queued and held may be written: the journal saved it.
    func commitOutput()
    /// This turn's output waits with the records the journal could not save.
    func holdOutput()
    /// This turn journaled nothing: its output may be written now, ahead of any held output.
    func commitOutputAheadOfHeld()
}

/// Whether the host can save its journal, and what it did when it could not.
enum SavingState {
    /// Every turn's records reach the disk before its output goes out.
    case saving
    /// The disk refused the journal: the game is paused, nothing that would be journaled is accepted, and held
    /// output waits until a retry succeeds.
    case blocked(Blockage)

    /// What the host did when the disk refused the journal.
    struct Blockage {
        /// When the game clock stopped for everyone (the failing turn's end).
        var since: Int64
        /// What the disk said, for the operator.
        var failure: JournalFailure
        /// When the host tries to save again.
        var nextTryAt: Int64
    }
}

/// How the journal's trouble is told, once per kind of reader.
enum SavingWords {
    /// What players, boards and operators read: "The host cannot save: disk full — the game is paused. …".
    static func pause(_ failure: JournalFailure) -> String {
        "The host cannot save: \(failure.reason) — the game is paused. It goes on by itself as soon as the host can "
            + "save again."
    }

    /// The refusal of anything that would have to be journaled while the host cannot save.
    static func refusal(_ failure: JournalFailure) -> String {
        "The host cannot save right now (\(failure.reason)), so nothing can change until it can; the game is "
            + "paused and goes on by itself once saving works again."
    }

    /// What the operator reads on the console, with what to do.
    static func operatorAdvice(_ failure: JournalFailure, directory: String) -> String {
        "The host cannot save its journal in \(directory): \(failure). The game is paused for everyone, and "
            + "nothing that would have to be saved is accepted, so no player sees a result that could be lost. "
            + "Free some space on that disk (or fix the error): the game goes on by itself within a second of the "
            + "host saving again, or type continue to try at once."
    }
}

extension HostCore {
    /// Whether the host cannot save its journal now.
    var isBlockedOnSaving: Bool {
        if case .blocked = savingState { return true }
        return false
    }

    /// The refusal for anything that would be journaled, while the host cannot save; nil while it can.
    var savingRefusal: String? {
        guard case .blocked(let blockage) = savingState else { return nil }
        return SavingWords.refusal(blockage.failure)
    }

    /// Ends a turn of the loop: the turn's records are written and flushed in one group commit before any of its
    /// output may be written. When the disk refuses, the output waits with them and the game pauses for everyone.
    ///
    /// Output carries `hostTime`s, so it also needs the clock lease to cover it (`JournalRecord.clock`): a turn
    /// that syncs anyway renews a lease about to run out, and only output past the lease waits for a new one.
    package func settleTurn(_ output: any TurnOutput) {
        defer { recordsSettled = storage.queuedRecordCount }
        guard case .saving = savingState else {
            // Nothing is journaled while blocked, so this turn's replies tell of nothing unsaved; were anything
            // journaled after all, its output would wait with it.
            if storage.queuedRecordCount == recordsSettled {
                output.commitOutputAheadOfHeld()
            } else {
                output.holdOutput()
            }
            return
        }
        let current = now
        let lease = clockLease ?? .min / 2
        if output.hasPendingOutput && current > lease
            || storage.hasUnsavedRecords && lease - current < JournalRecord.clockInterval / 2
        {
            journalClockLease(from: current)
        }
        if storage.syncJournal() { return output.commitOutput() }
        output.holdOutput()
        journalFailed(storage.journalFailure ?? JournalFailure(code: EIO, action: "write"), at: current)
        output.commitOutputAheadOfHeld()
    }

    /// Lets the output of the turn's input go out before the turn's due work (states, clocks) when that input
    /// journaled nothing and the clock lease covers now (a ping, a refusal, a reply): true when it was committed.
    ///
    /// Such output tells of nothing the journal could lose, and no time stamp beyond the lease, so it is what
    /// `settleTurn` would commit ahead of held output anyway; it only stops waiting for the rest of the turn.
    package func settleAnswersEarly(_ output: any TurnOutput) -> Bool {
        guard output.hasPendingOutput, storage.queuedRecordCount == recordsSettled, now <= clockLease ?? .min else {
            return false
        }
        output.commitOutputAheadOfHeld()
        return true
    }

    /// Renews the clock lease before it runs out while anyone is connected, after the turn's output was written:
    /// its flush delays no message already stamped with the time (sync probes above all).
    package func renewClockLeaseIfDue() {
        guard case .saving = savingState, !sessions.sessions.isEmpty else { return }
        let current = now
        guard (clockLease ?? .min / 2) - current < JournalRecord.clockInterval / 2 else { return }
        journalClockLease(from: current)
        storage.syncJournal()  // a failure is met by the next turn's group commit, which holds its output
    }

    private func journalClockLease(from current: Int64) {
        let lease = current + JournalRecord.clockInterval
        storage.journal(.clock(at: lease))
        clockLease = lease
    }

    /// The disk refused the journal: stop the game for everyone, say why, and tell the operator what to do.
    private func journalFailed(_ failure: JournalFailure, at current: Int64) {
        savingState = .blocked(.init(since: current, failure: failure, nextTryAt: current + 1000))
        log.error("Cannot save the journal: \(failure). The game is paused until it can.")
        environment.consoleOutput(SavingWords.operatorAdvice(failure, directory: storage.directory))
        let words = SavingWords.pause(failure)
        if let game = room.game, !game.status.isFinished {
            room.deliver(Paused(at: current, reason: words), to: .everyone)
        } else {
            room.deliver(Notice(words), to: .everyone)
        }
    }

    /// Tries to save again when a try is due (or at once when `now`); on success the game goes on.
    func retrySavingIfDue(now isForced: Bool = false) {
        guard case .blocked(var blockage) = savingState else { return }
        let current = now
        guard isForced || current >= blockage.nextTryAt else { return }
        guard storage.syncJournal() else {
            blockage.failure = storage.journalFailure ?? blockage.failure
            blockage.nextTryAt = current + 1000
            savingState = .blocked(blockage)
            if isForced {
                environment.consoleOutput(SavingWords.operatorAdvice(blockage.failure, directory: storage.directory))
            }
            return
        }
        savingState = .saving
        log.info("The journal is saved again after \(Wording.seconds(current - blockage.since)); the game goes on.")
        resumeAfterBlockage(since: blockage.since, at: current)
    }

    /// Restarts the game's clocks where everyone saw them stop: journaled as a pause at the moment saving stopped
    /// and a continue now, so the time without saving is no time for the game (and replays the same way).
    private func resumeAfterBlockage(since: Int64, at current: Int64) {
        let words = "The host can save again; the game goes on."
        guard let game = room.game, !game.status.isFinished else {
            environment.consoleOutput(words)
            return room.deliver(Notice(words), to: .everyone)
        }
        do {
            let pause = try game.steer(.steering(.pause), at: Instant(milliseconds: since))
            room.apply(Step(events: pause.events), at: Instant(milliseconds: since))  // everyone saw it stop already
            room.apply(
                try game.steer(.steering(.resume), at: Instant(milliseconds: current)),
                at: Instant(milliseconds: current))
            environment.consoleOutput(words)
            room.deliver(Notice(words), to: .everyone)
        } catch {
            // The operator had paused it before: it stays paused until they continue.
            let paused = "The host can save again; the game stays paused until the operator continues it."
            environment.consoleOutput(paused)
            room.deliver(Notice(paused), to: .everyone)
        }
    }
}
