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
struct Notice: Equatable, Sendable {
    /// The text.
    var text: String
    /// Whether it reports a refusal or a problem.
    var isError: Bool
    /// Client ms when it arrived.
    var at: Int64
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

/// One person in the lobby.
struct LobbyPlayer: Equatable, Sendable {
    var name: String
    var team: String
    var isConnected: Bool
}

/// One team's standing.
struct Standing: Equatable, Sendable {
    var team: String
    var score: Int
    var rank: Int
    var correct: Int?
}

/// One entry of the buzz order.
struct BuzzEntry: Equatable, Sendable {
    var team: String
    var offsetMs: Int64
    var uncertaintyMs: Int64
    var isTied: Bool
}

/// One answer's outcome.
struct AnswerResult: Equatable, Sendable {
    var team: String
    var isCorrect: Bool
    var points: Int
    var isTimedOut: Bool
    /// A small misspelling was forgiven; the reveal that follows shows the spelling.
    var isMisspelling: Bool
}

/// Shaky Words as this client sees it.
struct ShakyView: Equatable, Sendable {
    /// Where the game is.
    enum Phase: Equatable, Sendable { case starting, question, reveal, finished }

    /// The open question.
    struct Question: Equatable, Sendable {
        var number: Int
        var total: Int
        var text: String
        /// This team's arrangement of the letters (spaces and punctuation in place).
        var letters: String
        /// How many letter positions from the left are already right (shakes).
        var fixedCount: Int
        var difficulty: String
        var points: Int
    }

    /// The answer shown after a question.
    struct Reveal: Equatable, Sendable {
        var number: Int
        var answer: String
        var scorer: String?
        var points: Int
        /// Host ms when the next question opens, if it opens by itself.
        var nextAt: Int64?
        var isLast: Bool
    }

    var teams: [String] = []
    var questionCount = 0
    var phase = Phase.starting
    var question: Question?
    /// Host ms when buzzing closes.
    var buzzDeadline: Int64?
    var buzzOrder: [BuzzEntry] = []
    /// The team answering and the host ms when its answer clock ends.
    var turnTeam: String?
    var turnDeadline: Int64?
    var results: [AnswerResult] = []
    var reveal: Reveal?
    var standings: [Standing] = []
    var isFinal = false
}

/// The Queen's game as this client sees it.
struct QueenView: Equatable, Sendable {
    /// Where the round is.
    enum Phase: Equatable, Sendable { case waiting, choosing, countdown, revealed, ended }

    /// Whether the revealed deal matches the commitment published at the deal.
    enum Verification: Equatable, Sendable {
        case verified
        case mismatch
        /// The commitment of this round was never seen (joined late), so nothing can be checked.
        case unknown
    }

    /// The round as dealt.
    struct Round: Equatable, Sendable {
        var number: Int
        var queen: String
        var players: [String]
        var commitment: String
        /// Host ms when the Queen's time to choose ends.
        var chooseDeadline: Int64?
    }

    /// The Queen's order, counting down to the reveal.
    struct Order: Equatable, Sendable {
        var text: String
        var targets: [Int]
        var revealAt: Int64?
    }

    /// The numbers shown after the countdown.
    struct Revealed: Equatable, Sendable {
        var round: Int
        /// Name and number, by number.
        var numbers: [(name: String, number: Int)]
        var targets: [String]
        var saltHex: String
        var verification: Verification
        var nextAt: Int64?

        static func == (lhs: Revealed, rhs: Revealed) -> Bool {
            lhs.round == rhs.round && lhs.numbers.map(\.name) == rhs.numbers.map(\.name)
                && lhs.numbers.map(\.number) == rhs.numbers.map(\.number) && lhs.targets == rhs.targets
                && lhs.saltHex == rhs.saltHex && lhs.verification == rhs.verification && lhs.nextAt == rhs.nextAt
        }
    }

    var players: [String] = []
    var phase = Phase.waiting
    var round: Round?
    /// This player's secret number in the current round (citizens only).
    var secret: Int?
    var order: Order?
    var revealed: Revealed?
    var endReason: String?
}

/// The running game.
enum GameView: Equatable, Sendable {
    case shaky(ShakyView)
    case queen(QueenView)

    /// The wire name of the game.
    var name: String {
        switch self {
        case .shaky: return "shaky"
        case .queen: return "queen"
        }
    }

    /// Whether it is over (final scoreboard or ended).
    var isOver: Bool {
        switch self {
        case .shaky(let shaky): return shaky.phase == .finished
        case .queen(let queen): return queen.phase == .ended
        }
    }
}

/// One command of the Queen's library.
struct LibraryCommand: Equatable, Sendable {
    var id: String
    var text: String
    var kind: String
    var difficulty: String
}

/// What the person is typing into, on the full screen.
enum InputMode: Equatable, Sendable {
    /// Keys are commands.
    case none
    /// A `:` command line.
    case command
    /// The Queen's library search.
    case search
    /// The Queen's own order; `save` also stores it in the library.
    case order(save: Bool)
}

/// The full screen's own state: what is being typed, which overlay is open.
struct UIState: Equatable, Sendable {
    var mode = InputMode.none
    /// The text of the open input line (or of the answer line on your turn).
    var text = ""
    /// The answer being typed on your team's turn (kept apart so a `:` command does not eat it).
    var answer = ""
    var isHelpShown = false
    var isConfirmingQuit = false
    /// Lines of an information panel (library, packs, status, scores), with a title.
    var panel: [String]?
    var panelTitle = ""
    /// The Queen's selected library entry.
    var selection = 0
}

/// Everything the client knows, updated by applying host messages: a pure value, rendered by `ScreenRenderer`.
struct ClientState: Equatable, Sendable {
    /// The role asked for and granted.
    var role: Role
    /// The room code.
    var room: String
    /// The host's address as typed, for the board's join hint.
    var hostAddress: String = ""
    /// The player's name (from `welcome`; before that, the name asked for).
    var name: String
    /// The player's team (from `welcome`).
    var team: String
    /// The player's id in the room.
    var playerID: String?
    /// The resume token from `welcome`.
    var token: String?
    var link = LinkStatus.connecting
    var clock = ClockView()
    var lobby: [LobbyPlayer] = []
    var teams: [String] = []
    var game: GameView?
    /// Whether the operator paused the game; clocks stand still at `pausedAtHost`.
    var isPaused = false
    var pausedAtHost: Int64?
    var notice: Notice?
    var library: [LibraryCommand] = []
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

    // MARK: Derived

    /// The Shaky Words view, when that game runs.
    var shaky: ShakyView? {
        if case .shaky(let view) = game { return view }
        return nil
    }

    /// The Queen's game view, when that game runs.
    var queen: QueenView? {
        if case .queen(let view) = game { return view }
        return nil
    }

    /// Whether a game is running and not over.
    var isGameRunning: Bool { game.map { !$0.isOver } ?? false }

    /// Whether `team` is this player's team.
    func isMine(team other: String?) -> Bool {
        guard role == .player, let other, !team.isEmpty else { return false }
        return other.lowercased() == team.lowercased()
    }

    /// Whether it is this player's team's turn to answer (Shaky Words).
    var isMyTurn: Bool {
        guard let shaky, shaky.phase == .question else { return false }
        return isMine(team: shaky.turnTeam)
    }

    /// Whether this player is the Queen who is choosing now.
    var isChoosingQueen: Bool {
        guard role == .player, let queen, queen.phase == .choosing, let round = queen.round else { return false }
        return round.queen == name
    }

    /// Milliseconds left until the host-clock `deadline` at client time `now`, frozen while paused.
    func remaining(until deadline: Int64?, now: Int64) -> Int64? {
        guard let deadline else { return nil }
        if isPaused, let pausedAtHost { return max(0, deadline - pausedAtHost) }
        return clock.remaining(until: deadline, now: now)
    }

    /// The host-clock deadline `milliseconds` after client time `now`.
    func hostDeadline(in milliseconds: Int64?, now: Int64) -> Int64? {
        guard let milliseconds else { return nil }
        return clock.hostTime(atClient: now) + milliseconds
    }

    /// The current notice, if it is recent enough to show (errors 10 s, others 6 s).
    func visibleNotice(now: Int64) -> Notice? {
        guard let notice else { return nil }
        return now - notice.at < (notice.isError ? 10_000 : 6_000) ? notice : nil
    }

    // MARK: Applying host messages

    /// Takes in one message from the host, received at client monotonic time `now`.
    mutating func apply(_ message: JSONValue, at now: Int64) -> [ClientAction] {
        guard let type = message["type"]?.stringValue else { return [] }
        var actions: [ClientAction] = []
        switch type {
        case "welcome": applyWelcome(message, at: now)
        case "sync":
            if let sequence = message["n"]?.intValue, let hostSent = message["h"]?.intValue {
                actions.append(.syncReply(sequence: sequence, hostSent: hostSent, receivedAt: now))
            }
            if let offset = message["offset"]?.intValue {
                clock.offset = offset
                clock.isMeasured = true
            } else if !clock.isMeasured, let hostSent = message["h"]?.intValue {
                clock.offset = now - hostSent  // rough until the host has measured
            }
            if let rtt = message["rtt"]?.intValue { clock.roundTrip = rtt }
            if let uncertainty = message["uncertainty"]?.intValue { clock.uncertainty = uncertainty }
        case "ping":
            actions.append(.send(.object(["type": "pong"])))
        case "pong", "ok":
            if let text = message["message"]?.stringValue, type == "ok" { setNotice(text, isError: false, at: now) }
        case "error":
            let text = message["message"]?.stringValue ?? "The host refused that."
            setNotice(text, isError: true, at: now)
            if message["code"]?.stringValue == "kicked" { link = .closed(text) }
        case "notice":
            setNotice(message["message"]?.stringValue ?? "", isError: false, at: now)
        case "closing":
            let reason = message["reason"]?.stringValue ?? "The host closed the connection."
            setNotice(reason, isError: false, at: now)
        case "lobby": applyLobby(message)
        case "lobbyUpdate": applyLobbyUpdate(message)
        case "status":
            if let summary = message["summary"]?.stringValue { setNotice(summary, isError: false, at: now) }
        case "game": applyGame(message)
        case "paused":
            if !isPaused {
                isPaused = true
                pausedAtHost = clock.hostTime(atClient: now)
            }
        case "resumed": applyResumed(message, at: now)
        case "question", "buzzed", "turn", "hint", "result", "reveal", "scoreboard", "scores":
            actions += applyShaky(type, message, at: now)
        case "round", "secret", "order", "revealed", "ended":
            actions += applyQueen(type, message, at: now)
        case "library":
            library = (message["commands"]?.arrayValue ?? []).compactMap { command in
                guard let id = command["id"]?.stringValue, let text = command["text"]?.stringValue else { return nil }
                return LibraryCommand(id: id, text: text, kind: command["kind"]?.stringValue ?? "",
                                      difficulty: command["difficulty"]?.stringValue ?? "")
            }
            ui.selection = 0
            if !isChoosingQueen {
                ui.panelTitle = "Command library"
                ui.panel = library.isEmpty ? ["No commands match."] : library.map { "\($0.id)  \($0.text)" }
            }
        case "packs":
            ui.panelTitle = "Quiz packs"
            ui.panel = (message["packs"]?.arrayValue ?? []).compactMap { pack in
                guard let id = pack["id"]?.stringValue else { return nil }
                return "\(id)  \(pack["name"]?.stringValue ?? "")  \(pack["questions"]?.intValue ?? 0) questions"
                    + (pack["builtin"]?.boolValue == true ? " (built-in)" : "")
            }
        case "pack":
            ui.panelTitle = "Pack \(message["id"]?.stringValue ?? "")"
            ui.panel = (message["questions"]?.arrayValue ?? []).enumerated().map { index, question in
                "\(index + 1). [\(question["difficulty"]?.stringValue ?? "")] \(question["text"]?.stringValue ?? "") → \(question["answer"]?.stringValue ?? "")"
            }
        default:
            break
        }
        if let line = EventText.line(for: message, in: self), !["lobby", "welcome", "sync", "ping", "pong"].contains(type) {
            recent.append(line.replacingOccurrences(of: "\n", with: " "))
            if recent.count > 8 { recent.removeFirst(recent.count - 8) }
        }
        return actions
    }

    mutating func setNotice(_ text: String, isError: Bool, at now: Int64) {
        notice = Notice(text: text, isError: isError, at: now)
    }

    private mutating func applyWelcome(_ message: JSONValue, at now: Int64) {
        link = .joined
        if let room = message["room"]?.stringValue { self.room = room }
        if let role = message["role"]?.stringValue.flatMap(Role.init(rawValue:)) { self.role = role }
        if let name = message["name"]?.stringValue { self.name = name }
        if let team = message["team"]?.stringValue { self.team = team }
        if let id = message["player"]?.stringValue { playerID = id }
        if let token = message["token"]?.stringValue { self.token = token }
        if let hostTime = message["hostTime"]?.intValue {
            clock = ClockView(offset: now - hostTime)  // a new connection (maybe a new host): measure again
        }
        if message["game"] == nil || message["game"] == .null {
            if isGameRunning { game = nil }
            isPaused = false
            pausedAtHost = nil
        }
    }

    private mutating func applyLobby(_ message: JSONValue) {
        lobby = (message["players"]?.arrayValue ?? []).compactMap { entry in
            guard let name = entry["name"]?.stringValue else { return nil }
            return LobbyPlayer(name: name, team: entry["team"]?.stringValue ?? "", isConnected: entry["connected"]?.boolValue ?? true)
        }
        teams = (message["teams"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Merges a large room's lobby delta into the list: changed players replaced or added, removed ones dropped.
    private mutating func applyLobbyUpdate(_ message: JSONValue) {
        let removed = Set((message["removed"]?.arrayValue ?? []).compactMap(\.stringValue))
        lobby.removeAll { removed.contains($0.name) }
        for entry in message["players"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue else { continue }
            let player = LobbyPlayer(name: name, team: entry["team"]?.stringValue ?? "", isConnected: entry["connected"]?.boolValue ?? true)
            if let index = lobby.firstIndex(where: { $0.name == name }) { lobby[index] = player } else { lobby.append(player) }
        }
        var seen: Set<String> = []
        teams = lobby.compactMap { seen.insert($0.team.lowercased()).inserted ? $0.team : nil }
    }

    private mutating func applyGame(_ message: JSONValue) {
        let name = message["game"]?.stringValue ?? ""
        let isSameRunningGame = game.map { $0.name == name && !$0.isOver } ?? false
        switch name {
        case "shaky":
            var view = isSameRunningGame ? (shaky ?? ShakyView()) : ShakyView()
            view.teams = (message["teams"]?.arrayValue ?? []).compactMap(\.stringValue)
            view.questionCount = Int(message["questions"]?.intValue ?? 0)
            if !isSameRunningGame {
                view.standings = view.teams.map { Standing(team: $0, score: 0, rank: 1, correct: 0) }
            }
            game = .shaky(view)
        case "queen":
            var view = isSameRunningGame ? (queen ?? QueenView()) : QueenView()
            view.players = (message["players"]?.arrayValue ?? []).compactMap(\.stringValue)
            game = .queen(view)
        default:
            return
        }
        if !isSameRunningGame {
            isPaused = false
            pausedAtHost = nil
            ui.answer = ""
        }
    }

    private mutating func applyResumed(_ message: JSONValue, at now: Int64) {
        isPaused = false
        pausedAtHost = nil
        switch game {
        case .shaky(var view):
            if view.buzzDeadline != nil || message["buzzRemainingMs"]?.intValue != nil {
                view.buzzDeadline = hostDeadline(in: message["buzzRemainingMs"]?.intValue, now: now)
            }
            if view.turnTeam != nil {
                view.turnDeadline = hostDeadline(in: message["answerRemainingMs"]?.intValue, now: now)
            }
            if var reveal = view.reveal, view.phase == .reveal {
                reveal.nextAt = hostDeadline(in: message["nextInMs"]?.intValue, now: now)
                view.reveal = reveal
            }
            game = .shaky(view)
        case .queen(var view):
            let deadline = hostDeadline(in: message["remainingMs"]?.intValue, now: now)
            switch view.phase {
            case .choosing: view.round?.chooseDeadline = deadline
            case .countdown: view.order?.revealAt = deadline
            case .revealed: view.revealed?.nextAt = deadline
            default: break
            }
            game = .queen(view)
        case nil:
            break
        }
    }

    /// A host-clock deadline from a message: its `deadline` field when the clock is known, else now + `remainingMs`.
    private func deadline(of message: JSONValue, remainingKey: String = "remainingMs", at now: Int64) -> Int64? {
        if let deadline = message["deadline"]?.intValue { return deadline }
        return hostDeadline(in: message[remainingKey]?.intValue, now: now)
    }

    private static func standings(_ value: JSONValue?) -> [Standing] {
        (value?.arrayValue ?? []).compactMap { entry in
            guard let team = entry["team"]?.stringValue ?? entry["player"]?.stringValue else { return nil }
            return Standing(team: team, score: Int(entry["score"]?.intValue ?? 0), rank: Int(entry["rank"]?.intValue ?? 0),
                            correct: entry["correct"]?.intValue.map(Int.init))
        }
    }

    private mutating func applyShaky(_ type: String, _ message: JSONValue, at now: Int64) -> [ClientAction] {
        if type == "scores", shaky == nil { return [] }
        var view = shaky ?? ShakyView()
        var actions: [ClientAction] = []
        switch type {
        case "question":
            let number = Int(message["number"]?.intValue ?? 0)
            let isNewQuestion = view.question?.number != number || view.phase != .question
            view.phase = .question
            view.question = ShakyView.Question(
                number: number, total: Int(message["of"]?.intValue ?? Int64(view.questionCount)),
                text: message["text"]?.stringValue ?? "", letters: message["letters"]?.stringValue ?? "",
                fixedCount: isNewQuestion ? 0 : (view.question?.fixedCount ?? 0),
                difficulty: message["difficulty"]?.stringValue ?? "", points: Int(message["points"]?.intValue ?? 0))
            view.buzzDeadline = deadline(of: message, at: now)
            if isNewQuestion {
                view.buzzOrder = []
                view.turnTeam = nil
                view.turnDeadline = nil
                view.results = []
                view.reveal = nil
                ui.answer = ""
            }
        case "buzzed":
            let entries = (message["entries"]?.arrayValue ?? []).compactMap { entry -> BuzzEntry? in
                guard let team = entry["team"]?.stringValue else { return nil }
                return BuzzEntry(team: team, offsetMs: entry["offsetMs"]?.intValue ?? 0,
                                 uncertaintyMs: entry["uncertaintyMs"]?.intValue ?? 0, isTied: entry["tie"]?.boolValue ?? false)
            }
            let order = entries.isEmpty
                ? (message["order"]?.arrayValue ?? []).compactMap(\.stringValue).map { BuzzEntry(team: $0, offsetMs: 0, uncertaintyMs: 0, isTied: false) }
                : entries
            if order.count > view.buzzOrder.count { actions.append(.bell) }
            view.buzzOrder = order
            view.buzzDeadline = deadline(of: message, at: now)
        case "turn":
            let team = message["team"]?.stringValue
            if team != view.turnTeam { ui.answer = "" }
            view.turnTeam = team
            view.turnDeadline = deadline(of: message, at: now)
            if isMine(team: team) { actions.append(.bell) }
        case "hint":
            if var question = view.question {
                question.letters = message["letters"]?.stringValue ?? question.letters
                question.fixedCount = Int(message["fixed"]?.intValue ?? Int64(question.fixedCount))
                question.points = Int(message["points"]?.intValue ?? Int64(question.points))
                view.question = question
            }
        case "result":
            let result = AnswerResult(team: message["team"]?.stringValue ?? "", isCorrect: message["correct"]?.boolValue ?? false,
                                      points: Int(message["points"]?.intValue ?? 0), isTimedOut: message["timedOut"]?.boolValue ?? false,
                                      isMisspelling: message["misspelled"]?.boolValue ?? false)
            view.results.append(result)
            if view.turnTeam?.lowercased() == result.team.lowercased() {
                view.turnTeam = nil
                view.turnDeadline = nil
            }
        case "reveal":
            view.phase = .reveal
            view.turnTeam = nil
            view.turnDeadline = nil
            view.buzzDeadline = nil
            view.reveal = ShakyView.Reveal(
                number: Int(message["number"]?.intValue ?? Int64(view.question?.number ?? 0)),
                answer: message["answer"]?.stringValue ?? "", scorer: message["scorer"]?.stringValue,
                points: Int(message["points"]?.intValue ?? 0),
                nextAt: hostDeadline(in: message["nextInMs"]?.intValue, now: now), isLast: message["last"]?.boolValue ?? false)
            let standings = ClientState.standings(message["scores"])
            if !standings.isEmpty { view.standings = standings }
            ui.answer = ""
        case "scoreboard", "scores":
            let standings = ClientState.standings(message["ranking"] ?? message["scores"])
            if !standings.isEmpty || type == "scoreboard" { view.standings = standings }
            if message["final"]?.boolValue == true {
                view.isFinal = true
                view.phase = .finished
                view.turnTeam = nil
                view.buzzDeadline = nil
            }
        default:
            break
        }
        game = .shaky(view)
        return actions
    }

    private mutating func applyQueen(_ type: String, _ message: JSONValue, at now: Int64) -> [ClientAction] {
        var view = queen ?? QueenView()
        var actions: [ClientAction] = []
        switch type {
        case "round":
            let number = Int(message["number"]?.intValue ?? 0)
            if view.round?.number != number {
                view.secret = nil
                view.order = nil
                view.revealed = nil
            }
            let round = QueenView.Round(number: number, queen: message["queen"]?.stringValue ?? "",
                                        players: (message["players"]?.arrayValue ?? []).compactMap(\.stringValue),
                                        commitment: message["commitment"]?.stringValue ?? "",
                                        chooseDeadline: hostDeadline(in: message["chooseMs"]?.intValue, now: now))
            view.round = round
            view.phase = .choosing
            if role == .player && round.queen == name {
                actions.append(.bell)
                actions.append(.send(WireEncoding.json(.library(action: "list", fields: [:]))))
                ui.selection = 0
                ui.panel = nil
            }
        case "secret":
            view.secret = message["number"]?.intValue.map(Int.init)
        case "order":
            view.order = QueenView.Order(text: message["text"]?.stringValue ?? "",
                                         targets: (message["targets"]?.arrayValue ?? []).compactMap { $0.intValue.map(Int.init) },
                                         revealAt: deadline(of: message, remainingKey: "revealInMs", at: now))
            view.phase = .countdown
            if ui.mode != .none && ui.mode != .command { ui.mode = .none; ui.text = "" }
        case "revealed":
            let roundNumber = Int(message["round"]?.intValue ?? Int64(view.round?.number ?? 0))
            let pairs = (message["numbers"]?.objectValue?.members ?? []).compactMap { member -> (name: String, number: Int)? in
                guard let number = member.value.intValue else { return nil }
                return (name: member.key, number: Int(number))
            }.sorted { $0.number < $1.number }
            let salt = message["salt"]?.stringValue ?? ""
            var verification = QueenView.Verification.unknown
            if let round = view.round, round.number == roundNumber, !round.commitment.isEmpty {
                let numbers = Dictionary(pairs.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
                verification = DealCommitment.verify(commitment: round.commitment, room: room, round: roundNumber,
                                                     saltHex: salt, numbers: numbers) ? .verified : .mismatch
            }
            view.revealed = QueenView.Revealed(round: roundNumber, numbers: pairs,
                                               targets: (message["targets"]?.arrayValue ?? []).compactMap(\.stringValue),
                                               saltHex: salt, verification: verification,
                                               nextAt: hostDeadline(in: message["nextInMs"]?.intValue, now: now))
            view.phase = .revealed
        case "ended":
            view.phase = .ended
            view.endReason = message["reason"]?.stringValue
        default:
            break
        }
        game = .queen(view)
        return actions
    }
}
