import Foundation
import Protocol
import Rules

/// The things the host reads from the outside world, built once in `main.swift` (or by a test) and passed down.
struct HostEnvironment {
    /// The game clock, in milliseconds (monotonic; continued from the journal after a resume).
    var now: () -> Int64
    /// Cryptographic randomness for tokens, keys, room codes and game seeds.
    var random: () -> UInt64
    var log: Logger
    /// Where console replies go.
    var consoleOutput: (String) -> Void
    /// Shows the operator's one-line status (pinned at the bottom of a terminal, else printed).
    var showStatus: (String) -> Void
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
final class HostCore: SessionHandler {
    let sessions: Sessions
    let room: GameRoom
    let operators: OperatorService
    let storage: Storage
    let options: HostOptions
    let adminKey: String
    let environment: HostEnvironment
    var log: Logger { environment.log }
    /// False once the operator typed `quit`.
    private(set) var isRunning = true
    /// The operator typed `quit` during a game once; a second `quit` stops the host.
    private var isQuitPending = false
    private var nextHousekeepingAt: Int64 = 0
    private var nextTrimAt: Int64 = 0
    private var lastStatusLine = ""

    init(
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
        let output = environment.consoleOutput
        room.consoleFeed = { line in output(HostCore.clockTime() + " " + line) }
    }

    /// The local wall-clock time, for the feed on the console (`21:04:07`).
    static func clockTime() -> String {
        // Without a DateFormatter per line: a buzz storm feeds the console a line per accepted buzz.
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// The game clock now.
    var now: Int64 { environment.now() }
    private var instant: Instant { Instant(milliseconds: now) }

    // MARK: Input from the loop

    /// A connection was accepted.
    func opened(_ id: SessionID, peer: String) {
        sessions.open(id, peer: peer, at: now)
        log.debug("Connection \(id) from \(peer).")
    }

    /// A complete line arrived on a connection.
    func received(_ line: [UInt8], from id: SessionID) { sessions.receive(line, from: id, at: now) }

    /// A line over the framing limit was discarded.
    func lineTooLong(from id: SessionID, limit: Int) { sessions.lineTooLong(from: id, limit: limit, at: now) }

    /// A connection is gone.
    func closed(_ id: SessionID, reason: String) { sessions.closed(id, reason: reason) }

    /// A line typed on the host's console.
    func console(_ line: String) { runConsole(line, replyTo: .console) }

    /// Runs a console line for the console itself or for an operator's connection (`{"type":"console"}`).
    private func runConsole(_ line: String, replyTo target: ReplyTarget) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let wasQuitPending = isQuitPending
        isQuitPending = false
        if trimmed.lowercased() == "quit!", target.isConsole {
            environment.consoleOutput("Stopping the host…")
            isRunning = false
            return
        }
        if wasQuitPending, ["quit", "exit", "bye"].contains(trimmed.lowercased()) { isQuitPending = true }
        switch TextCommandParsing.parse(trimmed, games: room.catalog.startGrammars) {
        case .message(.bye):
            guard target.isConsole else {
                return operators.refuse(target, .forbidden, "quit stops the host: only its own console can do that.")
            }
            if let game = room.game, !game.isFinished, !isQuitPending {
                isQuitPending = true
                return environment.consoleOutput(
                    "A game of \(game.mode.title) is running. Type quit again (or quit!) to stop the host anyway — "
                        + "start it with --resume to come back — or end the game first.")
            }
            environment.consoleOutput("Stopping the host…")
            isRunning = false
        case .message(let message):
            operators.operate(message, replyTo: target, at: instant)
        case .help:
            operators.answer(target, OkReply(message: consoleHelp))
        case .usage(let usage):
            operators.refuse(target, .badField, "Usage: " + usage)
        default:
            switch room.game?.parseCommand(text: trimmed) {
            case .action(let request)?: return operatorCommand(request, replyTo: target)
            case .usage(let usage)?: return operators.refuse(target, .badField, "Usage: " + usage)
            case nil: break
            }
            let words = trimmed.split(separator: " ").map(String.init)
            switch operators.tools.run(line: words, caller: target.caller) {
            case .success(let reply)?: operators.answer(target, reply)
            case .failure(let error)?: operators.refuse(target, error.code, error.message)
            case nil:
                operators.refuse(
                    target, .unknownCommand,
                    "Unknown command \"\(trimmed.prefix(40))\". Type `help` for the console commands.")
            }
        }
    }

    /// When the core next has work to do, on the game clock.
    var nextDeadline: Int64 {
        var due = nextHousekeepingAt
        if let deadline = room.game?.nextDeadline?.milliseconds { due = min(due, deadline) }
        if let sessionsDue = sessions.nextDeadline { due = min(due, sessionsDue) }
        if let states = room.nextStateDeadline { due = min(due, states) }
        return due
    }

    /// Runs whatever is due: game clocks, banners and sync probes, housekeeping, the coalesced states (lobby, game).
    func runDueWork() {
        let current = now
        sessions.runDueWork(at: current)
        room.tick(at: Instant(milliseconds: current))
        if current >= nextHousekeepingAt {
            housekeeping(at: current)
            nextHousekeepingAt = current + 1000
        }
        room.sendDueStates(at: current)
    }

    private func housekeeping(at current: Int64) {
        if current >= nextTrimAt {
            nextTrimAt = current + 5000
            MemoryTrim.releaseFreePages()
        }
        sessions.housekeeping(at: current)
        for player in room.expiredPlayers(at: current, windowSeconds: options.resumeWindowSeconds) {
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
        for note in state.notes { log.warning(note) }
        log.info(
            "Resumed room \(room.room.code): \(Wording.count(state.players.count, "player")), "
                + (room.game.map { "game \($0.statusLine)" } ?? "no game running") + ".")
    }

    /// One of the running game's own operator commands (a quizmaster's verdict).
    private func operatorCommand(_ request: PlayRequest, replyTo target: ReplyTarget) {
        guard let game = room.game else { return operators.refuse(target, .noGame, "No game is running.") }
        guard game.mode.commandTypes.contains(request.type) else {
            return operators.refuse(target, .forbidden, "Operators don't play; join as a player to play.")
        }
        do {
            let step = try game.command(request, at: instant)
            operators.okay(target, "Done.")
            room.apply(step, at: instant)
        } catch {
            operators.refuse(target, error.code, error.message)
        }
    }

    /// Says goodbye to every connection (the host is stopping); a host between games notes that nothing needs resuming.
    func shutDown() {
        if room.game == nil { room.journal(.closed) }
        for session in sessions.joined + sessions.sessions.values.filter({ $0.membership == nil }) {
            sessions.send(Closing(.shutdown, "The host is shutting down. Thanks for playing!"), to: session)
        }
    }

    // MARK: SessionHandler

    var actionTypes: Set<String> { room.catalog.actionTypes }

    var toolTypes: Set<String> { operators.tools.requestTypes }

    var startGrammars: StartGrammars { room.catalog.startGrammars }

    func join(_ hello: Hello, session: Session, id: JSONValue?) {
        guard hello.room.uppercased() == room.room.code else {
            let shown = hello.room.isEmpty ? "no room code" : "room code \"\(hello.room)\""
            return sessions.send(
                ErrorReply(.wrongRoom, "Wrong room: \(shown). Use the code shown on the host's screen, then try again."),
                to: session, re: id)
        }
        let current = instant
        var welcome = Welcome(room: room.room.code, role: hello.role, hostTime: current.milliseconds)
        switch hello.role {
        case .admin:
            guard let key = hello.key, Secrets.constantTimeEquals(key, adminKey) else {
                log.warning("Connection \(session.id) from \(session.peer) gave a wrong admin key.")
                return sessions.send(
                    ErrorReply(.badKey, "That admin key is not right. It is printed on the host's screen as admin-key=…."),
                    to: session, re: id)
            }
            sessions.admit(session, as: .admin)
            log.info("An operator joined from \(session.peer).")
        case .board:
            sessions.admit(session, as: .board)
            log.info("A board joined from \(session.peer).")
        case .player:
            guard let player = admitPlayer(hello, session: session, id: id, at: current) else { return }
            welcome.player = player.id
            welcome.name = player.name
            welcome.team = player.team
            welcome.token = player.token
        }
        welcome.game = room.game?.mode.name
        sessions.send(welcome, to: session, re: id)
        if session.dialect == .text { sessions.sendText(textHelp(for: session.role), to: session) }
        if hello.isSyncing { sessions.startSync(session, at: current.milliseconds) }
        room.lobbyChanged()
        room.catchUp(session, at: current)
        for later in room.deliverLater { if let target = sessions.session(ofPlayer: later.playerID) { sessions.send(later.message, to: target) } }
        room.deliverLater = []
    }

    /// Finds or adds the player a `hello` names and admits the session as them; nil when refused (and answered).
    private func admitPlayer(_ hello: Hello, session: Session, id: JSONValue?, at now: Instant) -> Player? {
        let player: Player
        if let token = hello.resume {
            guard let existing = room.room.player(token: token) else {
                sessions.send(
                    ErrorReply(
                        .badToken,
                        "That resume token is no longer valid (it expired or the player was removed). Join again with a name."
                    ), to: session, re: id)
                return nil
            }
            player = existing
            log.info("\(player.name) (\(player.team)) is back.")
            room.playerReturned(player, at: now)
        } else {
            let name = hello.name.trimmingCharacters(in: .whitespaces)
            if let problem = NameRules.problem(with: name, what: "player") {
                sessions.send(ErrorReply(.badName, problem), to: session, re: id)
                return nil
            }
            if let barred = room.refusal(forName: name, address: session.peer) {
                sessions.send(ErrorReply(.banned, barred), to: session, re: id)
                return nil
            }
            if room.room.player(named: name) != nil {
                sessions.send(
                    ErrorReply(
                        .nameTaken, "The name \"\(name)\" is taken in this room; choose another (or resume with your token)."),
                    to: session, re: id)
                return nil
            }
            let typedTeam = hello.team.trimmingCharacters(in: .whitespaces)
            let team = typedTeam.isEmpty ? name : typedTeam
            if let problem = NameRules.problem(with: team, what: "team") {
                sessions.send(ErrorReply(.badName, problem), to: session, re: id)
                return nil
            }
            var generator = EnvironmentRandom(source: environment.random)
            player = room.addPlayer(
                name: name, team: team, token: Secrets.hex(byteCount: 16, using: &generator), at: now)
        }
        sessions.admit(session, as: .player(PlayerRef(id: player.id, name: player.name, team: player.team)))
        room.setConnected(player.id, true, at: now)
        return player
    }

    func play(_ request: PlayRequest, by player: PlayerRef, session: Session, id: JSONValue?) {
        guard let game = room.game else {
            return sessions.send(
                ErrorReply(.noGame, "No game is running yet; wait for the operator to start one."), to: session, re: id)
        }
        guard game.mode.actionTypes.contains(request.type) else {
            let owner = room.catalog.entry(forAction: request.type).map { " (that is for \($0.title))" } ?? ""
            return sessions.send(
                ErrorReply(.wrongGame, "\(game.mode.title) has no \"\(request.type)\"\(owner)."), to: session, re: id)
        }
        guard let member = room.room.player(id: player.id) else { return }
        let arrival = now
        let isFair = options.isFairnessEnabled
        session.clock.notePathRoundTrip(sessions.outlet.pathRoundTrip(of: session.id))
        let clock = session.clock
        let log = self.log
        let context = PlayContext(
            player: member, now: Instant(milliseconds: arrival),
            estimatePress: { stamp in
                guard isFair else { return PressEstimate(pressedAt: arrival, uncertainty: 0, wasClamped: false) }
                let estimate = PressEstimate.estimate(arrival: arrival, stamp: stamp, clock: clock)
                if estimate.wasClamped, let stamp {
                    log.warning(
                        "\(member.name)'s press stamp \(stamp) (client clock) was outside what the network allows; "
                            + "set aside: pressed at \(estimate.pressedAt) ± \(estimate.uncertainty).")
                }
                return estimate
            }, settleMilliseconds: isFair ? settleWindow(at: arrival) : 0)
        do {
            let step = try game.perform(request, context: context)
            for service in step.services {
                switch service {
                case .saveCommand(let text): operators.saveOwnCommand(text, for: session)
                }
            }
            if let id { sessions.send(OkReply(), to: session, re: id) }
            room.apply(step, at: context.now)
        } catch {
            sessions.send(ErrorReply(error.code, error.message), to: session, re: id)
        }
    }

    /// The settle window, computed at most once per millisecond: a buzz storm of 1,000 presses would otherwise
    /// walk every player's clock for each press.
    private func settleWindow(at now: Int64) -> Int64 {
        if let cached = cachedSettleWindow, cached.at == now { return cached.window }
        let window = sessions.settleWindow()
        cachedSettleWindow = (now, window)
        return window
    }
    private var cachedSettleWindow: (at: Int64, window: Int64)?

    func request(_ message: ClientMessage, session: Session, id: JSONValue?) {
        let target = ReplyTarget.session(session, id: id)
        switch message {
        case .scores:
            sessions.send(room.game?.scores ?? room.lobby(), to: session, re: id)
        case .resync(let state):
            if let id { sessions.send(OkReply(), to: session, re: id) }
            room.resync(state, for: session)
        case .library(let action, let fields) where session.role != .admin:
            // Reading is for everyone; the Queen may save her own command; the rest is the operator's.
            let request: LibraryRequest
            do {
                request = try LibraryRequest.decode(action: action, fields: fields)
            } catch {
                return sessions.send(ErrorReply(error.code, error.message), to: session, re: id)
            }
            let isOwnCommand = if case .add = request { mayAddCommand(session) } else { false }
            guard request.isReading || isOwnCommand else {
                return sessions.send(
                    ErrorReply(.forbidden, "Only the operator can do that (join with role admin and the admin key)."),
                    to: session, re: id)
            }
            operators.libraryRequest(request, replyTo: target)
        default:
            guard session.role == .admin else {
                return sessions.send(
                    ErrorReply(.forbidden, "Only the operator can do that (join with role admin and the admin key)."),
                    to: session, re: id)
            }
            switch message {
            case .console(let line): runConsole(line, replyTo: target)
            case .play(let request): operatorCommand(request, replyTo: target)
            default: operators.operate(message, replyTo: target, at: instant)
            }
        }
    }

    private func mayAddCommand(_ session: Session) -> Bool {
        guard let ref = session.player, let player = room.room.player(id: ref.id), let game = room.game else {
            return false
        }
        return game.grants(.addLibraryCommand, to: player)
    }

    func typed(_ line: String, session: Session) {
        guard let ref = session.player, let player = room.room.player(id: ref.id) else {
            return sessions.sendText("! Unknown command \"\(line.prefix(40))\". Type `help` for the commands.", to: session)
        }
        if let game = room.game {
            switch game.parse(text: line) {
            case .action(let request)?:
                return play(request, by: ref, session: session, id: nil)
            case .usage(let usage)?:
                return sessions.sendText("Usage: " + usage, to: session)
            case nil:
                if let request = game.interpretFreeText(line, from: player) {
                    return play(request, by: ref, session: session, id: nil)
                }
            }
        }
        let elsewhere = room.catalog.entries.first { entry in entry.name != room.game?.mode.name && entry.parsesText(line) }
        if let elsewhere {
            guard let game = room.game else {
                return sessions.sendText("! No game is running yet; wait for the operator to start one.", to: session)
            }
            return sessions.sendText(
                "! That is a command of \(elsewhere.title), but this is \(game.mode.title).", to: session)
        }
        sessions.sendText("! Unknown command \"\(line.prefix(40))\". Type `help` for the commands.", to: session)
    }

    func sessionEnded(_ session: Session, membership: Membership) {
        guard case .player(let player) = membership, room.room.player(id: player.id) != nil,
            sessions.session(ofPlayer: player.id) == nil
        else { return }
        room.setConnected(player.id, false, at: instant)
    }

    // MARK: Help

    func textHelp(for role: Role?) -> String {
        switch role {
        case nil:
            return """
                Commands before joining:
                  join ROOM NAME [TEAM]   play (your team defaults to your name)
                  resume ROOM TOKEN       come back as the same player after a drop
                  watch ROOM              watch only
                  admin ROOM KEY          run the show (the key is on the host's screen)
                  quit                    leave
                """
        case .player?:
            var lines = ["Commands while playing:"]
            for entry in room.catalog.entries {
                lines.append("  \(entry.title):")
                lines += entry.textHelp.map { "  " + $0 }
            }
            lines.append("  scores           the standings        help    this text        quit    leave")
            return lines.joined(separator: "\n")
        case .board?:
            return "You are watching. Commands: scores, help, quit."
        case .admin?:
            return consoleHelp.replacingOccurrences(of: "help | quit (stops the host)", with: "help | quit (leaves)")
        }
    }

    var consoleHelp: String {
        var lines = [
            "Operator commands:",
            "  status                          who is here and what is running",
        ]
        lines += room.catalog.entries.map { "  " + $0.startGrammar.usage }
        lines += room.catalog.entries.flatMap(\.commandHelp)
        lines += [
            "                                  e.g. start shaky 10 mixed science,animals answer-seconds=30",
            "  next | pause | continue | end   steer the running game",
            "  kick NAME                       remove a player (their token stops working)",
            "  scores                          the standings",
            "  packs | pack show ID | pack create NAME | pack rename ID NAME | pack delete ID | pack copy ID [NAME]",
            "  pack add ID DIFFICULTY | QUESTION | ANSWER   pack edit ID N D | Q | A   pack remove ID N",
            "  pack import FILE | pack export ID FILE",
            "  library list | library search TEXT | library add [kind=K] [difficulty=D] TEXT",
            "  library edit ID TEXT | library delete ID | library hide ID | library unhide ID",
        ] + operators.tools.usage.map { "  " + $0 } + [
            "  help | quit (stops the host)",
        ]
        return lines.joined(separator: "\n")
    }
}

@available(*, unavailable)
extension HostCore: Sendable {}
