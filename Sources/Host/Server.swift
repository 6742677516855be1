import Foundation
import Net
import Protocol
import Rules

/// Lines and signals that other threads hand to the event loop.
///
/// The console reader thread and the signal sources only append here and wake the poller;
/// the loop drains it. The lock is the only shared state in the host.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var stopRequest: String?
    private var isConsoleClosed = false
    private var isResized = false

    func post(line: String) { lock.withLock { lines.append(line) } }
    func postResize() { lock.withLock { isResized = true } }
    func postStop(_ reason: String) { lock.withLock { stopRequest = stopRequest ?? reason } }
    func postConsoleClosed() { lock.withLock { isConsoleClosed = true } }

    /// Takes everything posted so far.
    func drain() -> (lines: [String], stop: String?, consoleClosed: Bool, resized: Bool) {
        lock.withLock {
            defer {
                lines.removeAll()
                isResized = false
            }
            return (lines, stopRequest, isConsoleClosed, isResized)
        }
    }
}

/// The game clock: monotonic milliseconds since the host started, continued from the journal after a resume.
final class GameClock {
    private let monotonic: () -> Int64
    private var origin: Int64
    private var base: Int64 = 0

    init(monotonic: @escaping () -> Int64) {
        self.monotonic = monotonic
        origin = monotonic()
    }

    /// Milliseconds on the game clock.
    var now: Int64 { monotonic() - origin + base }

    /// Continues from `milliseconds` (the last journaled instant of an earlier host).
    func resume(from milliseconds: Int64) {
        base = milliseconds
        origin = monotonic()
    }
}

@available(*, unavailable)
extension GameClock: Sendable {}

/// The host's event loop: one thread that sleeps until a socket, a console line, a signal or the next deadline,
/// hands the event to the transport and the core, then flushes the journal and writes the turn's output.
final class Server {
    let transport: Transport
    let core: HostCore
    let clock: GameClock
    let storage: Storage
    let inbox: Inbox
    let options: HostOptions
    var discovery: Discovery?
    /// The host's terminal output, told when each turn begins and ends (it writes a turn's lines after its output).
    var console: ConsoleOutput?
    /// Called with each line typed on the console, before the host reads it (the status bar shows it).
    var onConsoleLine: (String) -> Void = { _ in }
    /// Called when the host's terminal changed size.
    var onTerminalResize: () -> Void = {}
    var log: Logger { core.log }
    private var isRunning = true

    init(transport: Transport, core: HostCore, clock: GameClock, storage: Storage, inbox: Inbox, options: HostOptions) {
        self.transport = transport
        self.core = core
        self.clock = clock
        self.storage = storage
        self.inbox = inbox
        self.options = options
        transport.events = core
        core.room.isBehind = { [unowned transport] in transport.isBehind }
    }

    var poller: Poller { transport.poller }

    /// Runs until `quit`, SIGINT or SIGTERM.
    func run() {
        while isRunning && core.isRunning {
            let ready: ArraySlice<Readiness>
            do {
                ready = try poller.wait(timeoutMilliseconds: nextTimeout())
            } catch {
                log.error("The event loop failed: \(error). Stopping.")
                break
            }
            console?.beginTurn()
            defer { console?.endTurn() }
            let now = clock.now
            core.room.turnStartedAt = now
            for readiness in ready { handle(readiness, at: now) }
            // Answers that journaled nothing (a pong) go out now, not after the states and clocks below.
            if core.settleAnswersEarly(transport) { transport.flushAnswers() }
            transport.expireRequests(at: clock.now)
            transport.reportClosures()
            transport.resumeListeningIfDue(at: clock.now)
            core.runDueWork()
            if let discovery, clock.now >= discovery.nextBeaconAt {
                discovery.beaconIfDue(now: clock.now, summary: beacon)
            }
            transport.reportClosures()
            flush()
        }
        shutDown()
    }

    /// Writes the turn's output, after the journal is safely on disk (or holds it while the disk refuses).
    func flush() {
        core.settleTurn(transport)
        transport.flushDirty()
        core.renewClockLeaseIfDue()
        transport.reportClosures()
    }

    private func nextTimeout() -> Int32 {
        if transport.hasWriteBacklog { return 0 }  // look at input, then write on
        var due = core.nextDeadline
        if let resume = transport.listenerResumesAt { due = min(due, resume) }
        if let request = transport.nextRequestDeadline { due = min(due, request) }
        if let beacon = discovery?.nextBeaconAt { due = min(due, beacon) }
        return Int32(clamping: max(0, due - clock.now))
    }

    private func handle(_ readiness: Readiness, at now: Int64) {
        if poller.isWakeUp(readiness.fd) {
            poller.drainWakeUps()
            drainInbox()
            return
        }
        if let discovery, readiness.fd == discovery.socket.fd {
            discovery.receive()
            return
        }
        _ = transport.handle(readiness, at: now)
    }

    private var beacon: DiscoveryBeacon {
        DiscoveryBeacon(
            name: options.hostName ?? HostInfo.name, port: Int(transport.port), room: core.room.room.code,
            players: core.room.room.players.count, game: core.room.game?.mode.name)
    }

    private func drainInbox() {
        let (lines, stop, consoleClosed, resized) = inbox.drain()
        if resized { onTerminalResize() }
        for line in lines {
            onConsoleLine(line)
            core.console(line)
        }
        if consoleClosed { log.debug("The console closed; the host keeps running until SIGINT or SIGTERM.") }
        if let stop {
            log.info("Stopping: \(stop).")
            isRunning = false
        }
    }

    private func shutDown() {
        core.shutDown()
        core.settleTurn(transport)
        transport.flushDirty()
        transport.flushAllNow()
        transport.closeAll()
        discovery?.socket.close()
        if storage.hasUnsavedRecords {
            log.error(
                "Host stopped, but its last moves could not be saved (\(storage.journalFailure?.description ?? "?")); "
                    + "nobody was shown them. A --resume comes back from before them.")
        } else if let game = core.room.game, !game.status.isFinished {
            log.info(
                "Host stopped during \(game.mode.title); everything is saved in \(storage.directory). "
                    + "Starting the host again brings the game back where it stood.")
        } else {
            log.info("Host stopped; everything is saved in \(storage.directory).")
        }
    }
}

@available(*, unavailable)
extension Server: Sendable {}

extension HostCore: TransportEvents {}

extension Transport: TurnOutput {}
