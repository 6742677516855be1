import Foundation
import Protocol
import Rules

// What the sessions ask of the host (`SessionHandler`): joining and rejoining, playing, typed lines, requests.

extension HostCore {
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
        if hello.role == .player, hello.resume == nil, let code = hello.code {
            // The JSON form of `rejoin NAME CODE` (another device): the same path, throttling and errors.
            return rejoin(
                name: hello.name.trimmingCharacters(in: .whitespaces), code: code, session: session, id: id,
                isSyncing: hello.isSyncing)
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
            // (After a restart the address is the one the player joined from, as journaled.)
            guard !existing.isConnected, existing.name == hello.name.trimmingCharacters(in: .whitespaces),
                (lastAddresses[existing.id] ?? existing.address) == session.peer
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
                name: name, team: team, token: Secrets.hex(byteCount: 16, using: &generator), code: code,
                address: session.peer, at: now)
        }
        sessions.admit(session, as: .player(PlayerRef(id: player.id, name: player.name, team: player.team)))
        room.setConnected(player.id, true, at: now)
        lastAddresses[player.id] = session.peer
        return player
    }

    func rejoin(name: String, code: String, session: Session) {
        rejoin(name: name, code: code, session: session, id: nil, isSyncing: false)
    }

    /// Comes back as the player `name` whose rejoin code is `code`, answering `re: id`; a wrong code counts against
    /// this connection and its address.
    private func rejoin(name: String, code: String, session: Session, id: JSONValue?, isSyncing: Bool) {
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
                to: session, re: id)
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
                to: session, re: id)
        }
        join(
            Hello(room: room.room.code, name: "", resume: player.token, isSyncing: isSyncing), session: session, id: id)
    }

    func awaitsTypedLine(from session: Session) -> Bool {
        guard let ref = session.player, let player = room.room.player(id: ref.id),
            !room.heldForNextGame.contains(player.id)  // who waits for the next game answers nothing in this one
        else { return false }
        return (room.game as? any TypedLines)?.awaitsTypedLine(from: player) ?? false
    }

    func typedAwaited(_ line: String, session: Session) {
        guard let ref = session.player, let player = room.room.player(id: ref.id),
            let request = (room.game as? any TypedLines)?.interpretFreeText(line, from: player)
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
        if room.heldForNextGame.contains(member.id) {
            // A newcomer to a locked room watches this game (a mode would only say it knows no such team).
            return sessions.send(
                ErrorReply(
                    .unknownTeam,
                    "The room is locked and this game had started when you came: you play in the next one. "
                        + "Watch this one meanwhile."), to: session, re: id)
        }
        let isGuess = (game as? any GuardsSecrets)?.isGuess(request) ?? false
        if isGuess, let refusal = guessLimits.refusal(session: session, at: now) {
            return sessions.send(ErrorReply(.rateLimited, refusal), to: session, re: id)
        }
        let arrival = now
        let isFair = options.isFairnessEnabled
        session.clock.notePathRoundTrip(sessions.outlet.pathRoundTrip(of: session.id))
        let clock = session.clock
        let sessions = self.sessions
        let context = PlayContext(
            player: member, now: Instant(milliseconds: arrival),
            estimatePress: { stamp in
                guard isFair else { return PressEstimate(pressedAt: arrival, uncertainty: 0, wasClamped: false) }
                let estimate = PressEstimate.estimate(arrival: arrival, stamp: stamp, clock: clock)
                if estimate.wasClamped, let stamp {
                    sessions.noteSetAsideStamp(
                        "\(member.name)'s press stamp \(stamp) (client clock) was outside what the network allows; "
                            + "set aside: pressed at \(estimate.pressedAt) ± \(estimate.uncertainty).", at: arrival)
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
                sessions.send(ErrorReply(refusal, at: context.now), to: session, re: id)
            } else if let id {
                sessions.send(OkReply(), to: session, re: id)
            }
            room.apply(step, at: context.now)
        } catch {
            sessions.send(ErrorReply(error, at: context.now), to: session, re: id)
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

    func request(_ message: ClientMessage, session: Session, id: JSONValue?) {
        let target = ReplyTarget.session(session, id: id)
        if let refusal = savingRefusal {  // what clients may see now could tell of what is not saved yet
            switch message {
            case .resume where session.role == .admin, .console where session.role == .admin: break
            default: return sessions.send(ErrorReply(.storage, refusal), to: session, re: id)
            }
        }
        if case .tool(let type, let action, let fields) = message, boardEditorTypes.contains(type) {
            return boardEditor(action, fields: fields, session: session, id: id)
        }
        switch message {
        case .scores:
            sessions.send(
                room.view(of: (room.game as? any KeepsScore)?.scores ?? room.lobby(), for: session), to: session, re: id
            )
        case .resync(let state):
            if let id { sessions.send(OkReply(), to: session, re: id) }
            room.resync(state, for: session)
        case .character(let choice):
            guard let player = session.player else {
                return sessions.send(
                    ErrorReply(.forbidden, "Only players have a reward character; boards and operators watch."),
                    to: session, re: id)
            }
            do {
                let progress = try room.pickCharacter(choice, for: player.name)
                if let id { sessions.send(OkReply(), to: session, re: id) }
                if session.dialect == .text, progress.line(for: Perspective()) == nil {
                    sessions.sendText(progress.summary, to: session)  // a typed `character` always answers
                } else {
                    sessions.send(progress, to: session)
                }
            } catch {
                sessions.send(ErrorReply(error.code, error.message), to: session, re: id)
            }
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
    func operate(_ message: ClientMessage, replyTo target: ReplyTarget, isTyped: Bool = false) {
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
        guard let ref = session.player, let player = room.room.player(id: ref.id),
            let game = room.game as? any GrantsPermissions
        else { return false }
        return game.grants(.addLibraryCommand, to: player)
    }

    func typed(_ line: String, session: Session) {
        if let refusal = savingRefusal { return sessions.sendText("! " + refusal, to: session) }
        guard let ref = session.player, let player = room.room.player(id: ref.id) else {
            return sessions.sendText(
                "! Unknown command \"\(line.prefix(40))\". Type help for the commands.", to: session)
        }
        if let game = room.game {
            switch game.parseTyped(line) {
            case .action(let request)?:
                return play(request, by: ref, session: session, id: nil)
            case .usage(let usage)?:
                return sessions.sendText("Usage: " + usage, to: session)
            case nil:
                if let request = (game as? any TypedLines)?.interpretFreeText(line, from: player) {
                    return play(request, by: ref, session: session, id: nil)
                }
            }
        }
        let elsewhere = room.catalog.entries.first { entry in
            entry.name != room.game?.mode.name && entry.parseText(line) != nil
        }
        if let elsewhere {
            guard let game = room.game else {
                return sessions.sendText("! No game is running yet; wait for the organiser to start one.", to: session)
            }
            return sessions.sendText(
                "! That is a command of \(elsewhere.title), but this is \(game.mode.title).", to: session)
        }
        if let help = (room.game as? any TypedLines)?.helpForUnknownLine(line, from: player) {
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
}
