import Foundation
import Protocol
import Rules

/// The things the host reads from the outside world, built once in `HostProgram.run` (or by a test) and passed
/// down.
package struct HostEnvironment {
    /// The game clock, in milliseconds (monotonic; continued from the journal after a resume).
    var now: () -> Int64
    /// Cryptographic randomness for tokens, keys, room codes and game seeds.
    var random: () -> UInt64
    var log: Logger
    /// Where console replies go.
    var consoleOutput: (String) -> Void
    /// Shows the operator's one-line status (pinned at the bottom of a terminal, else printed).
    var showStatus: (String) -> Void
    /// Where the quizmaster's feed goes on the console, with whether the line is a detail (shown dimmed); nil: as
    /// console replies.
    var feedOutput: ((_ line: String, _ isSecondary: Bool) -> Void)? = nil
    /// The addresses players reach this computer at (loopback last), for the join addresses and their QR codes.
    var addresses: () -> [String] = { HostInfo.addresses() }
    /// The console terminal's size in characters; nil when it is no terminal (a drawing of any size fits).
    var consoleSize: () -> (width: Int, height: Int)? = { nil }
    /// Writes lines the host drew itself with their colour escapes (a QR code in black on white); nil when the
    /// console shows no colour, and drawings go to `consoleOutput` drawn without it.
    var consoleDrawing: ((String) -> Void)? = nil
}

extension HostEnvironment {
    /// An environment of `now`, `random`, `log`, `consoleOutput` and `showStatus`, with the defaults for the rest
    /// (the console's feed as replies, the computer's addresses, no terminal size, no drawing).
    package init(
        now: @escaping () -> Int64, random: @escaping () -> UInt64, log: Logger,
        consoleOutput: @escaping (String) -> Void, showStatus: @escaping (String) -> Void
    ) {
        self.now = now
        self.random = random
        self.log = log
        self.consoleOutput = consoleOutput
        self.showStatus = showStatus
    }
}

/// The randomness source `HostEnvironment.random` wraps as a generator.
struct EnvironmentRandom: RandomNumberGenerator {
    let source: () -> UInt64
    mutating func next() -> UInt64 { source() }
}

/// The host without its sockets: sessions, the game room and the operator's service, wired together.
///
/// The event loop (`Server`) feeds it accepted connections, complete lines, closes, console lines and the
/// passing of time; everything it writes goes to an `Outlet`. Tests drive it in-process the same way with a
/// recording outlet and a hand-moved clock (like swift-nio's `EmbeddedChannel`).
package final class HostCore: SessionHandler {
    let sessions: Sessions
    let room: GameRoom
    let operators: OperatorService
    let storage: Storage
    let options: HostOptions
    let adminKey: String
    let environment: HostEnvironment
    var log: Logger { environment.log }
    /// False once the operator typed `quit`.
    var isRunning = true
    /// When the console's `quit` during a game asked for confirmation: a second `quit` within
    /// `quitConfirmationMilliseconds`, with no other console line between, stops the host.
    var quitAskedAt: Instant?
    /// How long the console's `quit` waits for its confirmation.
    static let quitConfirmationMilliseconds: Int64 = 30_000
    private var nextHousekeepingAt: Int64 = 0
    private var nextTrimAt: Int64 = 0
    private var lastStatusLine = ""
    /// The address each player last played from, by player id: a dropped player may take their name back from
    /// it (kept in memory only: after a restart, the rejoin code or the token does it).
    var lastAddresses: [String: String] = [:]
    /// Wrong guesses at a game's secrets (a hunt's check-in codes) per connection and per address.
    var guessLimits = GuessLimits()
    /// The teacher's board code (`board code` on the console): it opens the board editor and saves boards only;
    /// nil until the operator asks for one (kept in memory: a restarted host makes a new one).
    var boardCode: String?
    /// When each address gave a wrong `rejoin` name or code lately, to keep the short codes from being guessed.
    var cachedSettleWindow: (at: Int64, window: Int64)?
    var wrongRejoins: [String: [Int64]] = [:]

    /// How many `rejoin` attempts a connection may make in `rejoinWindow` ms; once its address gave this many wrong
    /// ones in the window, each of its connections gets only one (so the real player behind a shared address,
    /// on a connection of their own, always has a try, while guessing is held to the connection rate).
    static let rejoinLimit = 5
    /// The window of `rejoinLimit`, ms.
    static let rejoinWindow: Int64 = 60_000
    /// Whether the journal can be saved (`HostCore+Saving.swift`: durability or a pause, never silence).
    var savingState = SavingState.saving
    /// `storage.queuedRecordCount` when the last turn was settled.
    var recordsSettled = 0
    /// The game-clock instant the journal's last `clock` record lets the clock run up to (a lease; see
    /// `JournalRecord.clock`); nil before the first.
    var clockLease: Int64?

    package init(
        options: HostOptions, environment: HostEnvironment, storage: Storage, outlet: any Outlet, roomCode: String,
        adminKey: String, port: UInt16, catalog: ModeCatalog = .standard
    ) throws {
        self.options = options
        self.environment = environment
        self.storage = storage
        self.adminKey = adminKey
        sessions = Sessions(
            outlet: outlet,
            settings: Sessions.Settings(
                messagesPerSecond: options.messagesPerSecond, idleTimeoutSeconds: options.idleTimeoutSeconds,
                port: port),
            log: environment.log)
        room = GameRoom(code: roomCode, catalog: catalog, sessions: sessions, storage: storage, log: environment.log)
        let random = environment.random
        operators = OperatorService(
            room: room, sessions: sessions, storage: storage, tools: try ToolShelf(catalog: catalog, storage: storage),
            options: options, port: port, log: environment.log, consoleOutput: environment.consoleOutput,
            seed: { random() })
        sessions.handler = self
        operators.lastAddress = { [unowned self] in lastAddresses[$0] }
        let output = environment.feedOutput ?? { line, _ in environment.consoleOutput(line) }
        room.consoleFeed = { feed in output(Logger.clockTime() + " " + feed.text, feed.secondary == true) }
    }

    /// The game clock now.
    var now: Int64 { environment.now() }
    var instant: Instant { Instant(milliseconds: now) }

    // MARK: Input from the loop

    /// A connection was accepted.
    package func opened(_ id: SessionID, peer: String) {
        sessions.open(id, peer: peer, at: now)
        log.debug("Connection \(id) from \(peer).")
    }

    /// A complete line arrived on a connection.
    package func received(_ line: [UInt8], from id: SessionID) { sessions.receive(line, from: id, at: now) }

    /// A line over the framing limit was discarded.
    func lineTooLong(from id: SessionID, limit: Int) { sessions.lineTooLong(from: id, limit: limit, at: now) }

    /// A telnet subnegotiation that never ended was dropped.
    func unfinishedSubnegotiation(from id: SessionID) { sessions.unfinishedSubnegotiation(from: id, at: now) }

    /// A connection is gone.
    package func closed(_ id: SessionID, reason: String) { sessions.closed(id, reason: reason) }

    /// A line typed on the host's console.
    package func console(_ line: String) { runConsole(line, replyTo: .console) }

    /// When the core next has work to do, on the game clock.
    package var nextDeadline: Int64 {
        if case .blocked(let blockage) = savingState {  // the game's clocks stand still until the host can save
            return min(nextHousekeepingAt, blockage.nextTryAt, sessions.nextDeadline ?? .max)
        }
        var due = nextHousekeepingAt
        if let deadline = room.game?.status.nextDeadline?.milliseconds { due = min(due, deadline) }
        if let sessionsDue = sessions.nextDeadline { due = min(due, sessionsDue) }
        if let states = room.nextStateDeadline { due = min(due, states) }
        return due
    }

    /// Runs whatever is due: game clocks, banners and sync probes, housekeeping, the coalesced states (lobby, game).
    package func runDueWork() {
        let current = now
        sessions.runDueWork(at: current)
        retrySavingIfDue()
        if current >= nextHousekeepingAt {
            housekeeping(at: current)
            nextHousekeepingAt = current + 1000
        }
        guard !isBlockedOnSaving else { return }
        room.tick(at: Instant(milliseconds: current))
        room.sendDueStates(at: current)
    }

    private func housekeeping(at current: Int64) {
        if current >= nextTrimAt {
            nextTrimAt = current + 5000
            MemoryTrim.releaseFreePages()
        }
        sessions.housekeeping(at: current)
        if let problem = room.rewards.save() { log.warning(problem) }  // the right answers counted lately
        for player in room.expiredPlayers(at: current, windowSeconds: options.resumeWindowSeconds)
        where !isBlockedOnSaving {
            room.removePlayer(
                player, reason: "did not come back within \(options.resumeWindowSeconds / 60) minutes",
                at: Instant(milliseconds: current))
        }
        refreshStatus()
    }

    /// Prints the operator's one-line status when it changed (checked at most once a second, off the hot path).
    func refreshStatus() {
        guard room.isStatusDirty else { return }
        room.isStatusDirty = false
        let line = room.statusSummary
        guard line != lastStatusLine else { return }
        lastStatusLine = line
        environment.showStatus(line)
    }

    /// Adopts a replayed journal: same players (all disconnected until they come back), same game.
    func adopt(_ state: ResumedState) {
        room.adopt(state)
        room.noteEveryoneAway(at: instant)
        for note in state.notes { log.warning(note) }
        log.info(
            "Resumed room \(room.room.code): \(Wording.count(state.players.count, "player")), "
                + (room.game.map { "game \($0.statusLine)" } ?? "no game running") + ".")
        // The console's feed came from the host that stopped: say where the game stands, answer included.
        for line in (room.game as? any OperatorNotes)?.operatorBriefing ?? [] { room.consoleFeed?(FeedLine(line)) }
    }

    /// Says goodbye to every connection (the host is stopping); a host between games notes that nothing needs resuming.
    func shutDown() {
        if let problem = room.rewards.save() { log.warning(problem) }
        if room.game?.status.isFinished != false { room.journal(.closed) }  // between games, a finished one too
        for session in sessions.joined + sessions.sessions.values.filter({ $0.membership == nil }) {
            sessions.send(Closing(.shutdown, shutdownReason(for: session)), to: session)
        }
    }

    /// The goodbye at shutdown: a text-mode player reads how to come back should the host start again.
    private func shutdownReason(for session: Session) -> String {
        let bye = "The host is shutting down. Thanks for playing!"
        guard session.dialect == .text, let ref = session.player, let player = room.room.player(id: ref.id),
            let code = player.code
        else { return bye }
        return bye + " If the organiser starts it again, your place is kept: connect again and type "
            + "rejoin \(player.name) \(code)"
    }
}

@available(*, unavailable)
extension HostCore: Sendable {}

extension ErrorReply {
    /// A game's refusal as sent at `now`: a lasting one (a hunt team's check-in lock) says when it ends.
    init(_ error: RuleError, at now: Instant) {
        let remaining = error.until.map { max(0, now.milliseconds(until: $0)) }
        self.init(error.code, error.message, remainingMs: remaining, deadline: error.until?.milliseconds)
    }
}
