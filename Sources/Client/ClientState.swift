import Protocol

/// Something the shell must do after the state took in a host message, a key or a typed line.
enum ClientAction: Equatable, Sendable {
    /// Send this JSON to the host.
    case send(JSONValue)
    /// Answer a clock-sync probe at once; the shell stamps `c2` when the bytes leave.
    case syncReply(sequence: Int64, hostSent: Int64, receivedAt: Int64)
    /// A line for the person (plain mode prints it; the full screen shows it as a notice).
    case print(String)
    /// Ring the terminal bell (when allowed).
    case bell
    /// Leave: say bye to the host first when `sayBye`, then exit with `status`.
    case quit(status: Int32, sayBye: Bool)

    /// Sends a client message.
    static func send(_ message: ClientMessage) -> ClientAction { .send(message.json) }

    /// Sends a game action.
    static func play(_ action: some GameAction) -> ClientAction { .send(action.request.json) }
}

/// The connection as the person sees it.
enum LinkStatus: Equatable, Sendable {
    /// Connecting or joining for the first time.
    case connecting
    /// In the room.
    case joined
    /// The connection dropped; trying again.
    case reconnecting(attempt: Int, nextAttemptAt: Int64)
    /// Gone for good, with the reason.
    case closed(String)
}

/// A short message shown for a while (errors, confirmations, the host's notices).
///
/// A note belongs to the moment it was said in: the game's phase then (`phase`), so "already buzzed" is gone
/// with its question and "paused" with the game; notes about the connection (`phase` nil) only time out.
struct StatusNote: Equatable, Sendable {
    /// The text.
    var text: String
    /// Whether it reports a refusal or a problem.
    var isError: Bool
    /// Client ms when it arrived.
    var at: Int64
    /// The phase of the game it belongs to (`GameScreen.phaseTag`, "lobby" without a game); nil: any phase.
    var phase: String? = nil
    /// For a refusal that holds until a deadline (host ms): it is no longer shown after it, as it is no longer true.
    var until: Int64? = nil
}

/// A question the screen asks before a key that costs something acts ("shake: −50 points, press s again").
struct Confirmation: Equatable, Sendable {
    /// What the footer asks.
    var question: String
    /// The keys that say yes.
    var keys: [Key]
    /// What saying yes does.
    var actions: [ClientAction]
    /// What the footer says when the person says no with another key.
    var declined: String
    /// Letters that go back into the typed answer when the person types on instead of confirming (the key that
    /// asked was the first letter of a word): nothing typed is lost and nothing fires.
    var typedSoFar = ""

    /// Leaving the game (says goodbye: the name is free at once).
    static func quit(typedSoFar: String = "") -> Confirmation {
        Confirmation(
            question: "Leave the game? Press y to quit (your name is freed), any other key to stay.",
            keys: [.character("y"), .character("Y")], actions: [.quit(status: 0, sayBye: true)],
            declined: "Still here.", typedSoFar: typedSoFar)
    }

    /// Whether this is the question about leaving.
    var isQuit: Bool { actions.contains(.quit(status: 0, sayBye: true)) }
}

/// The client's estimate of the host's clock: client time minus host time.
struct ClockView: Equatable, Sendable {
    /// Client ms minus host ms (0 until anything is known).
    var offset: Int64 = 0
    /// Whether the offset came from the host's sync measurement (rather than the welcome's rough stamp).
    var isMeasured = false
    /// The host's median round trip, ms.
    var roundTrip: Int64?
    /// The host's ± on the offset, ms.
    var uncertainty: Int64?

    /// The host clock now, given the client clock now.
    func hostTime(atClient now: Int64) -> Int64 { now - offset }

    /// Milliseconds left until the host-clock `deadline`, as seen at client time `now` (never negative).
    func remaining(until deadline: Int64, now: Int64) -> Int64 { max(0, deadline + offset - now) }
}

/// A refusal that holds until a deadline (`error` with `deadline`, PROTOCOL.md §6.1): a screen counts it down.
struct LastingRefusal: Equatable, Sendable {
    /// Why, as the host's code (`code_locked`).
    var code: ErrorCode
    /// The host's sentence.
    var message: String
    /// When it ends, host ms.
    var deadline: Int64
}

/// One person in the lobby.
struct LobbyPlayer: Equatable, Sendable {
    var name: String
    var team: String
    var isConnected: Bool
}

/// A line typed into the footer for the running game (the Queen's search or her own order).
struct Prompt: Equatable, Sendable {
    /// What the game calls this input (it receives it back with the text).
    var purpose: String
    /// The label before the text.
    var label: String
    /// The hint after the text.
    var hint: String
    /// A switch Tab flips (e.g. "save to the library").
    var flag = false
}

/// What the person is typing into, on the full screen.
enum InputMode: Equatable, Sendable {
    /// Keys are commands (or the game's own typing, such as an answer).
    case none
    /// A `:` command line.
    case command
    /// A line for the running game.
    case prompt(Prompt)
}

/// The full screen's own state: what is being typed, which overlay is open.
struct UIState: Equatable, Sendable {
    var mode = InputMode.none
    /// The text of the open input line.
    var text = ""
    /// What the running game has the player type directly (an answer on your turn), kept apart from `:` commands.
    var answer = ""
    var isHelpShown = false
    /// The question waiting for a yes key, if any.
    var confirmation: Confirmation?
    /// Lines of an information panel (library, packs, status, scores), with a title.
    var panel: [String]?
    var panelTitle = ""
    /// The selected entry of the game's list (the Queen's library).
    var selection = 0
}

/// Everything the client knows, updated by applying host messages: a pure value, rendered by `ScreenRenderer`.
///
/// Session messages are handled here; everything else goes to the running game's `GameScreen`, found by the
/// intro's `game` name in `ScreenCatalog`. Nothing here names a game.
struct ClientState: Equatable, Sendable {
    /// The role asked for and granted.
    var role: Role
    /// The room code.
    var room: String
    /// The host's address as typed, for the board's join hint.
    var hostAddress: String = ""
    /// Where phones reach the host, `http://HOST:PORT` (the board's QR code adds `/ROOM`); empty when unknown.
    var phoneAddress: String = ""
    /// The player's name (from `welcome`; before that, the name asked for).
    var name: String
    /// The player's team (from `welcome`).
    var team: String
    /// The player's id in the room.
    var playerID: String?
    /// The resume token from `welcome`.
    var token: String?
    /// The short rejoin code from `welcome`, for coming back from `nc` or `telnet` (`rejoin NAME CODE`).
    var rejoinCode: String?
    var link = LinkStatus.connecting
    var clock = ClockView()
    var lobby: [LobbyPlayer] = []
    var teams: [String] = []
    /// The lobby as the host last sent it whole or changed it (numbered, for its deltas).
    var lobbyState: Lobby?
    /// In a hall-sized room, every team's size (a player's lobby then lists only its own team).
    var teamSizes: TeamSizes?
    /// The growing states whose whole was asked for after a missed delta (by message type).
    var awaitingResync: Set<String> = []
    /// The running (or just finished) game's view.
    var game: (any GameScreen)?
    /// The game screens this client knows.
    var catalog = ScreenCatalog.standard
    /// Whether the operator paused the game; clocks stand still at `pausedAtHost`.
    var isPaused = false
    var pausedAtHost: Int64?
    /// Client ms when the host became unreachable, while it is: clocks are shown stopped there.
    var unreachableSince: Int64?
    var notice: StatusNote?
    /// The last refusal that holds a while (a hunt team's check-in lock), with its end; nil when none came.
    var lastingRefusal: LastingRefusal?
    /// The Queen's command library as last listed.
    var library: [LibraryEntry] = []
    var ui = UIState()
    /// The last few events as one-line texts, newest last (the board shows them).
    var recent: [String] = []

    /// Creates the state of a client about to join.
    init(role: Role, room: String, name: String = "", team: String = "") {
        self.role = role
        self.room = room
        self.name = name
        self.team = team
    }

    static func == (lhs: ClientState, rhs: ClientState) -> Bool {
        lhs.role == rhs.role && lhs.room == rhs.room && lhs.hostAddress == rhs.hostAddress && lhs.name == rhs.name
            && lhs.phoneAddress == rhs.phoneAddress
            && lhs.team == rhs.team && lhs.playerID == rhs.playerID && lhs.token == rhs.token && lhs.link == rhs.link
            && lhs.rejoinCode == rhs.rejoinCode
            && lhs.clock == rhs.clock && lhs.lobby == rhs.lobby && lhs.teams == rhs.teams
            && lhs.lobbyState == rhs.lobbyState && lhs.teamSizes == rhs.teamSizes
            && lhs.awaitingResync == rhs.awaitingResync
            && lhs.isPaused == rhs.isPaused && lhs.pausedAtHost == rhs.pausedAtHost && lhs.notice == rhs.notice
            && lhs.unreachableSince == rhs.unreachableSince && lhs.lastingRefusal == rhs.lastingRefusal
            && lhs.library == rhs.library && lhs.ui == rhs.ui && lhs.recent == rhs.recent
            && sameGame(lhs.game, rhs.game)
    }

    // MARK: Derived

    /// Whether a game is running and not over.
    var isGameRunning: Bool { game.map { !$0.isOver } ?? false }

    /// How this client reads text lines.
    var perspective: Perspective {
        role == .player ? Perspective(team: team.isEmpty ? nil : team, name: name) : Perspective()
    }

    /// Whether `team` is this player's team.
    func isMine(team other: String?) -> Bool {
        guard role == .player, let other, !team.isEmpty else { return false }
        return other.lowercased() == team.lowercased()
    }

    /// Milliseconds left until the host-clock `deadline` at client time `now`, frozen while paused and while the
    /// host is unreachable (nobody can act then; the host's catch-up sets them right on return).
    func remaining(until deadline: Int64?, now: Int64) -> Int64? {
        guard let deadline else { return nil }
        if isPaused, let pausedAtHost { return max(0, deadline - pausedAtHost) }
        return clock.remaining(until: deadline, now: unreachableSince.map { min($0, now) } ?? now)
    }

    /// The connection dropped at client time `now` (the shell reconnects): clocks stop until the host is back.
    mutating func lostHost(at now: Int64, attempt: Int, nextAttemptAt: Int64) {
        if unreachableSince == nil { unreachableSince = now }
        link = .reconnecting(attempt: attempt, nextAttemptAt: nextAttemptAt)
    }

    /// The host-clock deadline `milliseconds` after client time `now`.
    func hostDeadline(in milliseconds: Int64?, now: Int64) -> Int64? {
        guard let milliseconds else { return nil }
        return clock.hostTime(atClient: now) + milliseconds
    }

    /// A host-clock deadline from a message's `deadline` when sent, else now + its remaining milliseconds.
    func deadline(_ deadline: Int64?, remaining: Int64?, now: Int64) -> Int64? {
        deadline ?? hostDeadline(in: remaining, now: now)
    }

    /// The current notice, if it is recent enough to show (errors 10 s, others 6 s) and its phase is not over.
    func visibleNotice(now: Int64) -> StatusNote? {
        guard let notice else { return nil }
        if let phase = notice.phase, phase != phaseTag { return nil }
        if let until = notice.until, (remaining(until: until, now: now) ?? 0) <= 0 { return nil }
        return now - notice.at < (notice.isError ? 10_000 : 6_000) ? notice : nil
    }

    /// Where the session stands, for notices: the running game's phase, else the lobby.
    var phaseTag: String { game.map { $0.name + ":" + $0.phaseTag } ?? "lobby" }

    // MARK: Applying host messages

    /// Takes in one message from the host, received at client monotonic time `now`.
    mutating func apply(_ message: JSONValue, at now: Int64) -> [ClientAction] {
        guard case .object(let object) = message else { return [] }
        var actions: [ClientAction] = []
        var line: String?
        var isQuiet = false
        if let name = introducedGame(in: object) {
            // A new game starts a new list of recent events: the last game's rounds are not this one's.
            if !(game.map { $0.name == name && !$0.isOver } ?? false) { recent = [] }
            startGame(named: name, intro: object, at: now)
            line = game.flatMap { $0.line(for: object, in: self) }
        } else if let session = SessionMessage.decode(object) {
            actions += apply(session, at: now)
            switch session {
            case .welcome, .lobby, .lobbyUpdate, .teams, .teamsUpdate, .sync, .ping, .pong: isQuiet = true
            // The operator's feed may only repeat the line just shown (a game with no secrets): show it once.
            case .feed(let feed) where recent.last == feed.text: isQuiet = true
            default: line = EventText.line(for: session, in: self)
            }
        } else if var screen = game {
            // Every mode's `resumed` has this type: the pause ends here once, whatever the screen makes of it.
            if case .string(GameResumed.type)? = object["type"] { endPause() }
            if let taken = screen.apply(object, to: &self, at: now) {
                actions += taken
                game = screen
                if screen.isOver { endPause() }  // a game that is over is not paused (an `end` while paused)
                // An operator's recent events are the quizmaster's feed, which tells every event already: the
                // game's own line for it would show each event twice.
                if role != .admin { line = screen.line(for: object, in: self) }
            }
        }
        if let line, !isQuiet {
            recent.append(line.replacingOccurrences(of: "\n", with: " "))
            if recent.count > 8 { recent.removeFirst(recent.count - 8) }
        }
        return actions
    }

    /// Shows `text` in the footer from client time `now` until it times out or, unless `isLasting`, until the
    /// game moves to another phase.
    mutating func setNotice(_ text: String, isError: Bool, at now: Int64, isLasting: Bool = false) {
        notice = StatusNote(text: text, isError: isError, at: now, phase: isLasting ? nil : phaseTag)
    }

    private mutating func startGame(named name: String, intro: JSONObject, at now: Int64) {
        let isSameRunningGame = game.map { $0.name == name && !$0.isOver } ?? false
        if isSameRunningGame, var screen = game {
            _ = screen.apply(intro, to: &self, at: now)  // a catch-up intro refreshes the running game's roster
            game = screen
            return
        }
        guard let screen = catalog.screen(for: name, intro: intro) else { return }
        game = screen
        awaitingResync.remove("game")  // a new game's intro is its whole roster: its deltas follow it
        isPaused = false
        pausedAtHost = nil
        ui.answer = ""
    }

    private mutating func apply(_ message: SessionMessage, at now: Int64) -> [ClientAction] {
        switch message {
        case .welcome(let welcome): applyWelcome(welcome, at: now)
        case .sync(let probe):
            if let offset = probe.offset {
                clock.offset = offset
                clock.isMeasured = true
            } else if !clock.isMeasured {
                clock.offset = now - probe.h  // rough until the host has measured
            }
            if let rtt = probe.rtt { clock.roundTrip = rtt }
            if let uncertainty = probe.uncertainty { clock.uncertainty = uncertainty }
            return [.syncReply(sequence: probe.n, hostSent: probe.h, receivedAt: now)]
        case .ping:
            return [.send(.pong)]
        case .ok(let ok):
            if let text = ok.message { setNotice(text, isError: false, at: now) }
        case .error(let error):
            setNotice(error.message, isError: true, at: now)
            if let end = deadline(error.deadline, remaining: error.remainingMs, now: now) {
                lastingRefusal = LastingRefusal(code: error.code, message: error.message, deadline: end)
                notice?.until = end
            }
            if error.code == .kicked { link = .closed(error.message) }
        case .notice(let notice):
            setNotice(notice.message, isError: false, at: now)
        case .closing(let closing):
            setNotice(closing.reason, isError: false, at: now)
        case .lobby(let lobby):
            lobbyState = took(lobby)
            showLobby()
            if lobby.truncated != true { teamSizes = nil }
        case .lobbyUpdate(let update):
            guard update.seq != nil else {
                applyLobbyUpdate(update)  // an older host: its deltas apply to whatever is shown
                return []
            }
            let (next, actions) = followed(lobbyState, by: update)
            if let next {
                lobbyState = next
                showLobby()
            }
            return actions
        case .teams(let sizes):
            teamSizes = took(sizes)
        case .teamsUpdate(let update):
            let (next, actions) = followed(teamSizes, by: update)
            if let next { teamSizes = next }
            return actions
        case .status(let status):
            setNotice(status.summary, isError: false, at: now)
        case .paused(let paused):
            if !isPaused {
                isPaused = true
                pausedAtHost = paused.at ?? clock.hostTime(atClient: now)
            }
            if let reason = paused.reason { setNotice(reason, isError: true, at: now) }
        case .library(let listing):
            library = listing.commands
            ui.selection = 0
            if !((game as? any ShowsLibrary)?.usesLibrary(self) ?? false) {
                ui.panelTitle = "Command library"
                ui.panel = library.isEmpty ? ["No commands match."] : library.map { "\($0.id)  \($0.text)" }
            }
        case .packs(let listing):
            ui.panelTitle = "Quiz packs"
            ui.panel = listing.packs.map {
                "\($0.id)  \($0.name)  \($0.questions) questions" + ($0.builtin ? " (built-in)" : "")
            }
        case .pack(let pack):
            ui.panelTitle = "Pack \(pack.id)"
            ui.panel = pack.questions.enumerated().map { index, question in
                "\(index + 1). [\(question.difficulty)] \(question.text) → \(question.answer)"
            }
        case .contents(let listing):
            ui.panelTitle = listing.kind.prefix(1).uppercased() + listing.kind.dropFirst()
            ui.panel = listing.items.map { "\($0.id)  \($0.name)  \($0.summary)" + ($0.builtin ? " (built-in)" : "") }
        case .content(let detail):
            ui.panelTitle = "\(detail.id): \(detail.name)"
            ui.panel = detail.lines
        case .feed, .pong, .character:
            break  // the feed shows in the operator's list of recent events
        }
        return []
    }

    private mutating func applyWelcome(_ welcome: Welcome, at now: Int64) {
        link = .joined
        unreachableSince = nil
        room = welcome.room
        role = welcome.role
        if let name = welcome.name { self.name = name }
        if let team = welcome.team { self.team = team }
        if let id = welcome.player { playerID = id }
        if let token = welcome.token { self.token = token }
        if let code = welcome.code { rejoinCode = code }
        clock = ClockView(offset: now - welcome.hostTime)  // a new connection (maybe a new host): measure again
        awaitingResync = []  // the catch-up brings every state whole
        endPause()  // the catch-up ends with `paused` while the game still is: a `resumed` missed offline is no matter
        if welcome.game == nil, isGameRunning { game = nil }
    }

    /// Merges an older host's lobby delta into the list: changed players replaced or added, removed ones dropped.
    private mutating func applyLobbyUpdate(_ update: LobbyUpdate) {
        let removed = Set(update.removed)
        lobby.removeAll { removed.contains($0.name) }
        for entry in update.players {
            let player = LobbyPlayer(name: entry.name, team: entry.team, isConnected: entry.connected)
            if let index = lobby.firstIndex(where: { $0.name == entry.name }) {
                lobby[index] = player
            } else {
                lobby.append(player)
            }
        }
        var seen: Set<String> = []
        teams = lobby.compactMap { seen.insert($0.team.lowercased()).inserted ? $0.team : nil }
    }

    /// The clocks run again (a `resumed` message of any mode, a new connection): the pause is over.
    mutating func endPause() {
        isPaused = false
        pausedAtHost = nil
    }
}

/// Whether two optional game views are the same view with the same state.
private func sameGame(_ lhs: (any GameScreen)?, _ rhs: (any GameScreen)?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let left?, let right?): return left.isEqual(to: right)
    default: return false
    }
}
