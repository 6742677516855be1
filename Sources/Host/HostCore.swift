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
    /// When the console's `quit` during a game asked for confirmation: a second `quit` within
    /// `quitConfirmationMilliseconds`, with no other console line between, stops the host.
    private var quitAskedAt: Instant?
    /// How long the console's `quit` waits for its confirmation.
    static let quitConfirmationMilliseconds: Int64 = 30_000
    private var nextHousekeepingAt: Int64 = 0
    private var nextTrimAt: Int64 = 0
    private var lastStatusLine = ""
    /// The address each player last played from, by player id: a dropped player may take their name back from
    /// it (kept in memory only: after a restart, the rejoin code or the token does it).
    private var lastAddresses: [String: String] = [:]
    /// Wrong guesses at a game's secrets (a hunt's check-in codes) per connection and per address.
    private var guessLimits = GuessLimits()
    /// When each address gave a wrong `rejoin` name or code lately, to keep the short codes from being guessed.
    private var wrongRejoins: [String: [Int64]] = [:]

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
        operators.lastAddress = { [unowned self] in lastAddresses[$0] }
        let output = environment.feedOutput ?? { line, _ in environment.consoleOutput(line) }
        room.consoleFeed = { feed in output(Logger.clockTime() + " " + feed.text, feed.secondary == true) }
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

    /// A telnet subnegotiation that never ended was dropped.
    func unfinishedSubnegotiation(from id: SessionID) { sessions.unfinishedSubnegotiation(from: id, at: now) }

    /// A connection is gone.
    func closed(_ id: SessionID, reason: String) { sessions.closed(id, reason: reason) }

    /// A line typed on the host's console.
    func console(_ line: String) { runConsole(line, replyTo: .console) }

    /// Runs a console line for the console itself or for an operator's connection (`{"type":"console"}`).
    private func runConsole(_ line: String, replyTo target: ReplyTarget) {
        // A stray key (an arrow, Home) types an escape sequence: what is left of it is nothing to answer.
        let trimmed = TerminalText.sanitized(line, keepingLineBreaks: false).trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        // Only the console's own next line confirms or cancels its quit (an admin client's lines do neither).
        let now = instant
        var isQuitConfirmed = false
        if target.isConsole, let asked = quitAskedAt {
            quitAskedAt = nil
            isQuitConfirmed =
                ["quit", "exit", "bye"].contains(trimmed.lowercased())
                && asked.milliseconds(until: now) <= Self.quitConfirmationMilliseconds
        }
        if trimmed.lowercased() == "quit!", target.isConsole {
            environment.consoleOutput("Stopping the host…")
            isRunning = false
            return
        }
        switch TextCommandParsing.parse(trimmed, games: room.catalog.startGrammars) {
        case .message(.bye):
            guard target.isConsole else {
                return operators.refuse(target, .forbidden, "quit stops the host: only its own console can do that.")
            }
            if let game = room.game, !game.isFinished, !isQuitConfirmed {
                quitAskedAt = now
                return environment.consoleOutput(
                    "A game of \(game.mode.title) is running. Type quit again (or quit!) to stop the host anyway — "
                        + "starting the host again brings the game back — or end the game first.")
            }
            environment.consoleOutput("Stopping the host…")
            isRunning = false
        case .message(let message):
            operate(message, replyTo: target, isTyped: true)
        case .help:
            operators.answer(target, OkReply(message: consoleHelp))
        case .usage(let usage):
            operators.refuse(target, .badField, "Usage: " + usage)
        default:
            var words = trimmed.split(separator: " ").map(String.init)
            if words.count == 1, words[0].lowercased() == "qr" { return showJoinCodes(replyTo: target) }
            if words.first?.lowercased() == "history" {
                // `history --fly tonight` (or `history fly tonight`) is the tool `fly` with the words
                // `history tonight`, as on the command line.
                let nouns = Set(operators.tools.tools.map(\.noun))
                if words.count >= 2, words[1].hasPrefix("--") || nouns.contains(words[1].lowercased()) {
                    let noun = words[1].hasPrefix("--") ? words[1].dropFirst(2) : Substring(words[1].lowercased())
                    words = [String(noun), "history"] + words.dropFirst(2)
                } else if words.count <= 2 {
                    return consoleHistory(words.dropFirst().first, replyTo: target)
                }
            }
            switch room.game?.parseCommand(text: trimmed) {
            case .action(let request)?: return operatorCommand(request, replyTo: target)
            case .usage(let usage)?: return operators.refuse(target, .badField, "Usage: " + usage)
            case nil: break
            }
            let address = target.isConsole ? pageAddress : nil
            switch operators.tools.run(line: words, caller: target.caller, pageAddress: address) {
            case .success(let reply)?: operators.answer(target, reply)
            case .failure(let error)?: operators.refuse(target, error.code, error.message)
            case nil:
                operators.refuse(
                    target, .unknownCommand,
                    "Unknown command \"\(trimmed.prefix(40))\". Type help for the console commands.")
            }
        }
    }

    /// `qr`: the QR code of each address phones join at, in colour on a console that shows it (an admin client gets
    /// them drawn without colour in its reply).
    func showJoinCodes(replyTo target: ReplyTarget) {
        let urls = JoinCodes.urls(
            addresses: environment.addresses(), port: sessions.settings.port, room: room.room.code)
        guard target.isConsole else {
            let drawings = urls.map { JoinCodes.drawing(of: $0, size: nil, colour: false).joined(separator: "\n") }
            return operators.answer(target, OkReply(message: drawings.joined(separator: "\n")))
        }
        let size = environment.consoleSize()
        for url in urls {
            if let draw = environment.consoleDrawing {
                draw(JoinCodes.drawing(of: url, size: size, colour: true).joined(separator: "\n"))
            } else {
                environment.consoleOutput(JoinCodes.drawing(of: url, size: size, colour: false).joined(separator: "\n"))
            }
        }
    }

    /// The address phones open this host's page at: the bound address when the host listens on one, else the first
    /// LAN address (as `qr` shows it), with the room (`http://192.168.1.20:4747/ABCD`).
    var pageAddress: String {
        let bound = options.bindAddress
        let addresses =
            ["0.0.0.0", "::", ""].contains(bound)
            ? environment.addresses() : [bound.contains(":") ? "[\(bound)]" : bound]
        return JoinCodes.urls(addresses: addresses, port: sessions.settings.port, room: room.room.code)[0]
    }

    /// `history` on the console: the finished games, or game `which` in detail (as `partyline-host history`).
    private func consoleHistory(_ which: String?, replyTo target: ReplyTarget) {
        guard let which else {
            let lines = storage.history()
            return operators.answer(
                target,
                OkReply(
                    message: lines.isEmpty
                        ? "No finished games yet." : (["Finished games:"] + lines).joined(separator: "\n")))
        }
        guard let (_, log, game) = storage.gameLog(which) else {
            return operators.refuse(
                target, .unknownCommand,
                "There is no finished game \"\(which)\"; history lists them with their numbers.")
        }
        let lines = room.catalog.entry(named: game)?.logLines(log) ?? ModeEntry.plainLines(log)
        operators.answer(target, OkReply(message: lines.joined(separator: "\n")))
    }

    /// When the core next has work to do, on the game clock.
    var nextDeadline: Int64 {
        if case .blocked(let blockage) = savingState {  // the game's clocks stand still until the host can save
            return min(nextHousekeepingAt, blockage.nextTryAt, sessions.nextDeadline ?? .max)
        }
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
        for line in room.game?.operatorBriefing ?? [] { room.consoleFeed?(FeedLine(line)) }
    }

    /// One of the running game's own operator commands (a quizmaster's verdict).
    private func operatorCommand(_ request: PlayRequest, replyTo target: ReplyTarget) {
        if let refusal = savingRefusal { return operators.refuse(target, .storage, refusal) }
        guard let game = room.game else { return operators.refuse(target, .noGame, "No game is running.") }
        guard game.mode.commandTypes.contains(request.type) else {
            if let owner = room.catalog.entries.first(where: { $0.commandTypes.contains(request.type) }) {
                return operators.refuse(
                    target, .wrongGame,
                    "\(request.type) is a command of \(owner.title), but this is \(game.mode.title).")
            }
            return operators.refuse(target, .forbidden, "Operators don't play; join as a player to play.")
        }
        let now = instant  // one instant for the game and its journal record, so a replay applies it the same
        do {
            let step = try game.command(request, at: now)
            operators.okay(target, step.reply ?? "Done.")
            room.apply(step, at: now)
        } catch {
            operators.refuse(target, error.code, error.message)
        }
    }

    /// Says goodbye to every connection (the host is stopping); a host between games notes that nothing needs resuming.
    func shutDown() {
        if room.game?.isFinished != false { room.journal(.closed) }  // between games, a finished one too
        for session in sessions.joined + sessions.sessions.values.filter({ $0.membership == nil }) {
            sessions.send(Closing(.shutdown, "The host is shutting down. Thanks for playing!"), to: session)
        }
    }

    // MARK: SessionHandler

    var actionTypes: Set<String> { room.catalog.actionTypes }

    var toolTypes: Set<String> { operators.tools.requestTypes }

    var startGrammars: StartGrammars { room.catalog.startGrammars }

    func join(_ hello: Hello, session: Session, id: JSONValue?) {
        if let refusal = savingRefusal { return sessions.send(ErrorReply(.storage, refusal), to: session, re: id) }
        guard hello.room.uppercased() == room.room.code else {
            let shown = hello.room.isEmpty ? "no room code" : "room code \"\(hello.room)\""
            return sessions.send(
                ErrorReply(
                    .wrongRoom, "Wrong room: \(shown). Use the code shown on the host's screen, then try again."),
                to: session, re: id)
        }
        let current = instant
        var welcome = Welcome(room: room.room.code, role: hello.role, hostTime: current.milliseconds)
        switch hello.role {
        case .admin:
            guard let key = hello.key, Secrets.constantTimeEquals(key, adminKey) else {
                log.warning("Connection \(session.id) from \(session.peer) gave a wrong admin key.")
                return sessions.send(
                    ErrorReply(
                        .badKey, "That admin key is not right. The host's screen shows it after \"Admin key:\"."),
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
            welcome.code = player.code
        }
        welcome.game = room.game?.mode.name
        sessions.send(welcome, to: session, re: id)
        if session.dialect == .text, hello.resume != nil {
            // Back after a drop: the game's catch-up follows; the command list is one word away, not 30 lines.
            sessions.sendText("Welcome back: you kept your place. Type help for the commands.", to: session)
        } else if session.dialect == .text {
            sessions.sendText(textHelp(for: session.role), to: session)
            // The help pushes the welcome's rejoin code off a small screen: it is repeated under it.
            if let code = welcome.code, let name = welcome.name {
                sessions.sendText(
                    "Your rejoin code again: \(code)   (if you drop, type: rejoin \(name) \(code))", to: session)
            }
        }
        if hello.isSyncing { sessions.startSync(session, at: current.milliseconds) }
        room.lobbyChanged()
        room.catchUp(session, at: current)
        for later in room.deliverLater {
            if let target = sessions.session(ofPlayer: later.playerID) { sessions.send(later.message, to: target) }
        }
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
        } else if let existing = room.room.player(named: hello.name.trimmingCharacters(in: .whitespaces)) {
            // The same name, written the same way, from the address the player dropped from: they are back.
            guard !existing.isConnected, existing.name == hello.name.trimmingCharacters(in: .whitespaces),
                lastAddresses[existing.id] == session.peer
            else {
                sessions.send(
                    ErrorReply(
                        .nameTaken,
                        "The name \"\(existing.name)\" is taken in this room; choose another. If it is yours, type: "
                            + "rejoin \(existing.name) CODE (the code you were shown when you joined)."),
                    to: session, re: id)
                return nil
            }
            player = existing
            log.info("\(player.name) (\(player.team)) is back from \(session.peer).")
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
            let typedTeam = hello.team.trimmingCharacters(in: .whitespaces)
            let team = typedTeam.isEmpty ? name : typedTeam
            if let problem = NameRules.problem(with: team, what: "team") {
                sessions.send(ErrorReply(.badName, problem), to: session, re: id)
                return nil
            }
            var generator = EnvironmentRandom(source: environment.random)
            var code = Secrets.rejoinCode(using: &generator)
            while room.room.hasPlayer(code: code) { code = Secrets.rejoinCode(using: &generator) }
            player = room.addPlayer(
                name: name, team: team, token: Secrets.hex(byteCount: 16, using: &generator), code: code, at: now)
        }
        sessions.admit(session, as: .player(PlayerRef(id: player.id, name: player.name, team: player.team)))
        room.setConnected(player.id, true, at: now)
        lastAddresses[player.id] = session.peer
        return player
    }

    func rejoin(name: String, code: String, session: Session) {
        let current = now
        let recent = { (times: [Int64]) in times.filter { current - $0 < HostCore.rejoinWindow } }
        // A stranger's wrong guesses never refuse another connection's first try: the limit is per connection,
        // and only one try each once the address guessed wrong too often.
        let wrongFromAddress = recent(wrongRejoins[session.peer] ?? [])
        let allowed = wrongFromAddress.count >= HostCore.rejoinLimit ? 1 : HostCore.rejoinLimit
        session.rejoinTries = recent(session.rejoinTries)
        guard session.rejoinTries.count < allowed else {
            let wait = max(1, (HostCore.rejoinWindow - (current - (session.rejoinTries.first ?? current))) / 1000)
            log.warning("\(session.peer) tried too many rejoin codes; refused for a while.")
            return sessions.send(
                ErrorReply(
                    .rateLimited,
                    "Too many rejoin attempts on this connection; try again in \(wait) s, or connect again."),
                to: session)
        }
        session.rejoinTries.append(current)
        guard let player = room.room.player(named: name, code: code) else {
            wrongRejoins[session.peer] = wrongFromAddress + [current]
            if wrongRejoins.count > 1000 { wrongRejoins = wrongRejoins.filter { !recent($0.value).isEmpty } }
            return sessions.send(
                ErrorReply(
                    .badToken,
                    "No player \"\(name.prefix(24))\" has that code in this room. The code was shown when you joined "
                        + "(\"Your rejoin code: …\"); or join with a new name."),
                to: session)
        }
        join(Hello(room: room.room.code, name: "", resume: player.token), session: session, id: nil)
    }

    func awaitsTypedLine(from session: Session) -> Bool {
        guard let ref = session.player, let player = room.room.player(id: ref.id) else { return false }
        return room.game?.awaitsTypedLine(from: player) ?? false
    }

    func typedAwaited(_ line: String, session: Session) {
        guard let ref = session.player, let player = room.room.player(id: ref.id),
            let request = room.game?.interpretFreeText(line, from: player)
        else { return typed(line, session: session) }
        play(request, by: ref, session: session, id: nil)
    }

    func play(_ request: PlayRequest, by player: PlayerRef, session: Session, id: JSONValue?) {
        if let refusal = savingRefusal { return sessions.send(ErrorReply(.storage, refusal), to: session, re: id) }
        // An operator's command (a quizmaster's `judge`) is refused for its role before any game or mode check.
        if room.catalog.entry(forAction: request.type) == nil,
            let owner = room.catalog.entries.first(where: { $0.commandTypes.contains(request.type) })
        {
            return sessions.send(
                ErrorReply(
                    .forbidden, "\(request.type) is the organiser's command in \(owner.title); players cannot use it."),
                to: session, re: id)
        }
        guard let game = room.game else {
            return sessions.send(
                ErrorReply(.noGame, "No game is running yet; wait for the organiser to start one."), to: session, re: id
            )
        }
        guard game.mode.actionTypes.contains(request.type) else {
            let owner = room.catalog.entry(forAction: request.type).map { " (that is for \($0.title))" } ?? ""
            return sessions.send(
                ErrorReply(.wrongGame, "\(game.mode.title) has no \"\(request.type)\"\(owner)."), to: session, re: id)
        }
        guard let member = room.room.player(id: player.id) else { return }
        let isGuess = game.isGuess(request)
        if isGuess, let refusal = guessLimits.refusal(session: session, at: now) {
            return sessions.send(ErrorReply(.rateLimited, refusal), to: session, re: id)
        }
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
            if let refusal = step.refusal {
                // A wrong code counts, and so does the one that locks the team (refused as `code_locked`).
                if isGuess && [.wrongCode, .codeLocked].contains(refusal.code) {
                    guessLimits.noteWrong(session: session, at: arrival)
                }
                sessions.send(ErrorReply(refusal.code, refusal.message), to: session, re: id)
            } else if let id {
                sessions.send(OkReply(), to: session, re: id)
            }
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
        if let refusal = savingRefusal {  // what clients may see now could tell of what is not saved yet
            switch message {
            case .resume where session.role == .admin, .console where session.role == .admin: break
            default: return sessions.send(ErrorReply(.storage, refusal), to: session, re: id)
            }
        }
        switch message {
        case .scores:
            sessions.send(room.view(of: room.game?.scores ?? room.lobby(), for: session), to: session, re: id)
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
            default: operate(message, replyTo: target)
            }
        }
    }

    /// Runs an operator command; while the host cannot save, `continue` tries to save at once and the commands
    /// that would change the room wait.
    private func operate(_ message: ClientMessage, replyTo target: ReplyTarget, isTyped: Bool = false) {
        if let refusal = savingRefusal {
            switch message {
            case .resume:
                retrySavingIfDue(now: true)
                guard isBlockedOnSaving else { return operators.okay(target, "Saving works again; the game goes on.") }
                return operators.refuse(target, .storage, refusal)
            case .start, .next, .pause, .end, .kick, .unban, .tidy, .lock:
                return operators.refuse(target, .storage, refusal)
            default: break
            }
        }
        operators.operate(message, replyTo: target, at: instant, isTyped: isTyped)
    }

    private func mayAddCommand(_ session: Session) -> Bool {
        guard let ref = session.player, let player = room.room.player(id: ref.id), let game = room.game else {
            return false
        }
        return game.grants(.addLibraryCommand, to: player)
    }

    func typed(_ line: String, session: Session) {
        if let refusal = savingRefusal { return sessions.sendText("! " + refusal, to: session) }
        guard let ref = session.player, let player = room.room.player(id: ref.id) else {
            return sessions.sendText(
                "! Unknown command \"\(line.prefix(40))\". Type help for the commands.", to: session)
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
        let elsewhere = room.catalog.entries.first { entry in
            entry.name != room.game?.mode.name && entry.parsesText(line)
        }
        if let elsewhere {
            guard let game = room.game else {
                return sessions.sendText("! No game is running yet; wait for the organiser to start one.", to: session)
            }
            return sessions.sendText(
                "! That is a command of \(elsewhere.title), but this is \(game.mode.title).", to: session)
        }
        if let help = room.game?.helpForUnknownLine(line, from: player) {
            return sessions.sendText("! " + help, to: session)
        }
        sessions.sendText("! Unknown command \"\(line.prefix(40))\". Type help for the commands.", to: session)
    }

    func sessionEnded(_ session: Session, membership: Membership) {
        guard case .player(let ref) = membership, let player = room.room.player(id: ref.id),
            sessions.session(ofPlayer: ref.id) == nil
        else { return }
        guard session.hasSaidBye else { return room.setConnected(player.id, false, at: instant) }
        // A goodbye frees the name at once; the team keeps its points in the running game.
        lastAddresses[player.id] = nil
        room.removePlayer(player, reason: "said goodbye", at: instant)
    }

    // MARK: Help

    func textHelp(for role: Role?) -> String {
        switch role {
        case nil:
            return """
                Commands before joining:
                  join ROOM NAME [TEAM]   play (your team defaults to your name)
                  rejoin NAME CODE        come back as the same player (the code was shown when you joined)
                  resume ROOM TOKEN       the same with the long token
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
            lines.append("  When the game waits for your answer (your turn, the Queen choosing, an open")
            lines.append("  Odd One Out round, a hunt station's task), every line is that answer; then")
            lines.append("  commands start with /: /help, /scores, /quit.")
            return lines.joined(separator: "\n")
        case .board?:
            return "You are watching. Commands: scores, help, quit."
        case .admin?:
            return consoleHelp.replacingOccurrences(
                of: "help · quit (stops the host; during a game it asks first)",
                with: "help · quit (you leave; the game goes on)")
        }
    }

    /// The console's help: what to type to run the games, keep the room, and edit content.
    var consoleHelp: String {
        var lines = ["Operator commands:", " Running a game"]
        for entry in room.catalog.entries {
            lines.append("  " + entry.startGrammar.usage)
            if let example = entry.startGrammar.example { lines.append("      e.g. " + example) }
            if !entry.startGrammar.options.isEmpty {
                lines += StartOption.helpLines(entry.startGrammar.options, indent: "      ")
            }
        }
        lines += [
            "  next · pause · continue · end   steer the running game",
            "  scores                          the standings",
        ]
        lines += room.catalog.entries.flatMap(\.commandHelp).map { "  " + $0 }
        lines +=
            [
                " The room",
                "  status                          who is here and what is running",
                "  qr                              the QR code phones scan to join (one per network address)",
                "  kick NAME · unban NAME          bar a player (name and computer) for tonight · let back",
                "  tidy                            remove every player who is away",
                "  lock · unlock                   late arrivals wait for the next game · join at once",
                "  history · history N             tonight's finished games · one with every answer typed",
                "  history --NOUN (or NOUN history) a game's own records, e.g. history fly",
                " Questions, commands and each game's content",
                "  packs · pack show ID · pack create NAME · pack rename ID NAME · pack delete ID",
                "  pack copy ID [NAME] · pack import FILE · pack export ID FILE · pack remove ID N",
                "  pack add ID DIFFICULTY | QUESTION | ANSWER · pack edit ID N DIFFICULTY | Q | A",
                "  library list · library search TEXT · library add [kind=K] [difficulty=D] TEXT",
                "  library edit ID TEXT · library delete ID · library hide ID · library unhide ID",
            ] + operators.tools.usage.map { "  " + $0 } + [
                "  help · quit (stops the host; during a game it asks first)"
            ]
        return lines.joined(separator: "\n")
    }
}

@available(*, unavailable)
extension HostCore: Sendable {}
