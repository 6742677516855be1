import Protocol

/// Let Me Fly as this client sees it: the power meter and the flight are drawn from the synced clock.
struct FlyView: GameScreen {
    typealias Wire = FlyWire

    /// Where the game is.
    enum Phase: Equatable, Sendable { case starting, throwing, landing, between, finished }

    /// One throw of this round: up, then caught or dropped.
    struct Flight: Equatable, Sendable {
        var player: String
        var phone: String
        var power: Int
        var heightM: Double
        var airMs: Int64
        /// Host ms.
        var landsAt: Int64
        var result: Result?

        /// Host ms of the press.
        var pressedAt: Int64 { landsAt - airMs }
    }

    /// How a throw came down.
    struct Result: Equatable, Sendable {
        var quality: String
        var offsetMs: Int64?
        var points: Int
        var streak: Int
    }

    /// One player's line in the ranking.
    struct Entry: Equatable, Sendable {
        var player: String
        var team: String
        var phone: String
        var score: Int
        var rank: Int
        var bestM: Double
        var streak: Int
    }

    /// Above this height a phone leaves the screen (as it would leave your sight), m.
    static let sightM = 6.0
    /// Gravity, m/s², for drawing the flight.
    static let gravity = 9.81

    var players: [String] = []
    /// The roster as the host last sent it whole or changed it (numbered, for its `gameUpdate`s).
    var roster: FlyWire.Intro?
    var rounds = 0
    var roundSeconds = 0
    var periodMs: Int64 = 1600
    var phones: [FlyWire.Phone] = []
    var defaultPhone = ""
    var picks: [String: String] = [:]
    var phase = Phase.starting
    var round = 0
    /// Host ms when throwing closes.
    var roundDeadline: Int64?
    /// Host ms where the power meter's sweep starts.
    var sweepStart: Int64?
    /// Host ms when the next round opens, between rounds.
    var nextAt: Int64?
    var isLastRound = false
    var flights: [Flight] = []
    /// When this player's last phone seen going up lands (host ms): a catch-up's `thrown` for it is no new throw.
    var myLastLanding: Int64?
    var missed: [String] = []
    var standings: [Entry] = []
    var teams: [FlyWire.TeamStanding] = []
    var challenges: [FlyWire.Challenged] = []
    /// The leaderboards shown after the game, in the order they came.
    var leaderboards: [FlyWire.Leaderboard] = []
    /// Whether the game is laid out for a hall: the roster is the team's, rankings are cut (ranks as sent).
    var isHall = false
    /// In a hall, how many players the game has (the roster lists only some).
    var hallCount: Int?
    /// A hall's live board of the top catches, as last sent whole or changed.
    var board: FlyWire.Board?
    /// A hall's counts of the round, as last sent.
    var tally: FlyWire.Tally?

    init?(intro: FlyWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        roster = intro
        takeIn(intro)
    }

    var isOver: Bool { phase == .finished }

    var title: String {
        var title = "Let Me Fly"
        if round > 0 && phase != .finished { title += " · round \(round)/\(rounds)" }
        if phase == .finished { title += " · final" }
        return title
    }

    static let keyHelp = [
        "  Space or Enter   throw your phone at the power shown; again to catch it as it lands (Let Me Fly)",
        "  1 … 5            pick a phone before your first throw     c  challenge a player     l  all-time board",
    ]

    // MARK: Reading

    /// The phone `id`'s entry.
    func phone(_ id: String) -> FlyWire.Phone? { phones.first { $0.id == id } }

    /// `state`'s own throw this round.
    func myFlight(_ state: ClientState) -> Flight? {
        guard state.role == .player else { return nil }
        return flights.first { $0.player == state.name }
    }

    /// Whether `state`'s player's phone is up now.
    func isMyPhoneUp(_ state: ClientState) -> Bool { myFlight(state).map { $0.result == nil } ?? false }

    /// The round and its phase: a notice ("You threw this round") ends when they change.
    var phaseTag: String { "\(phase)-\(round)" }

    /// Whether `state`'s player may throw now.
    func mayThrow(_ state: ClientState) -> Bool {
        state.role == .player && phase == .throwing && myFlight(state) == nil && !missed.contains(state.name)
            && players.contains(state.name)
    }

    /// The host clock at client time `now` (frozen while paused, and while the host is unreachable: a phone in the
    /// air then hangs there instead of landing on the screen during the outage).
    static func hostNow(_ state: ClientState, _ now: Int64) -> Int64 {
        if state.isPaused, let paused = state.pausedAtHost { return paused }
        return state.clock.hostTime(atClient: state.unreachableSince.map { min($0, now) } ?? now)
    }

    /// The meter at host time `host`, percent (0 → 100 → 0 over a period).
    func power(atHost host: Int64) -> Int {
        guard let sweepStart, periodMs > 0, host > sweepStart else { return 0 }
        let phase = (host - sweepStart) % periodMs
        let distance = min(phase, periodMs - phase)
        return Int((distance * 200 + periodMs / 2) / periodMs)
    }

    /// A flight's height at host time `host`, m (0 before the press and after the landing).
    static func height(of flight: Flight, atHost host: Int64) -> Double {
        let elapsed = Double(host - flight.pressedAt) / 1000
        let air = Double(flight.airMs) / 1000
        guard elapsed > 0, elapsed < air else { return 0 }
        let speed = gravity * air / 2
        return max(0, speed * elapsed - gravity * elapsed * elapsed / 2)
    }

    // MARK: Messages

    private mutating func takeIn(_ intro: FlyWire.Intro) {
        if let hall = intro.hall {
            isHall = true
            hallCount = max(hallCount ?? 0, hall)
        }
        players = intro.players
        rounds = intro.rounds
        roundSeconds = intro.roundSeconds
        periodMs = intro.periodMs
        for player in intro.players where !isHall && !standings.contains(where: { $0.player == player }) {
            standings.append(
                Entry(
                    player: player, team: "", phone: picks[player] ?? defaultPhone, score: 0, rank: 1, bestM: 0,
                    streak: 0))
        }
        sortStandings()
    }

    /// Orders the ranking as the host does (points, then best height, then name) and ranks it by points.
    private mutating func sortStandings() {
        if isHall {
            // A cut ranking keeps the host's ranks: position in it is not rank.
            standings.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.player.lowercased() < $1.player.lowercased() }
            return
        }
        standings.sort { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            if lhs.bestM != rhs.bestM { return lhs.bestM > rhs.bestM }
            return lhs.player.lowercased() < rhs.player.lowercased()
        }
        for index in standings.indices {
            standings[index].rank =
                index > 0 && standings[index - 1].score == standings[index].score
                ? standings[index - 1].rank : index + 1
        }
    }

    private mutating func replaceStandings(_ ranking: [FlyWire.Standing]) {
        standings = ranking.map {
            Entry(
                player: $0.player, team: $0.team, phone: $0.phone, score: $0.score, rank: $0.rank, bestM: $0.bestM,
                streak: $0.streak)
        }
        // A hall's ranking is cut: the players it leaves out are not at the top, nor unranked.
        for player in players where !isHall && !standings.contains(where: { $0.player == player }) {
            standings.append(
                Entry(
                    player: player, team: "", phone: picks[player] ?? defaultPhone, score: 0, rank: 1, bestM: 0,
                    streak: 0))
        }
        sortStandings()
    }

    mutating func apply(_ message: FlyWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        var actions: [ClientAction] = []
        switch message {
        case .intro(let intro):
            roster = state.took(intro)
            takeIn(intro)
        case .introUpdate(let update):
            let (next, taken) = state.followed(roster, by: update)
            actions += taken
            if let next {  // a roster that does not add up to the delta's count is asked for whole
                roster = next
                takeIn(next)
            }
        case .phones(let offer):
            phones = offer.list
            defaultPhone = offer.default
            for index in standings.indices where picks[standings[index].player] == nil {
                standings[index].phone = offer.default
            }
        case .picked(let picked):
            picks[picked.player] = picked.phone
            if let index = standings.firstIndex(where: { $0.player == picked.player }) {
                standings[index].phone = picked.phone
            }
        case .round(let opened):
            phase = .throwing
            round = opened.number
            rounds = opened.of
            periodMs = opened.periodMs
            sweepStart = opened.sweepStart
            roundDeadline = state.deadline(opened.deadline, remaining: opened.remainingMs, now: now)
            nextAt = nil
            flights = []
            missed = []
        case .thrown(let thrown):
            let flight = Flight(
                player: thrown.player, phone: thrown.phone, power: thrown.power, heightM: thrown.heightM,
                airMs: thrown.airMs, landsAt: thrown.landsAt)
            picks[thrown.player] = thrown.phone  // the phone is fixed from the first throw
            if let index = standings.firstIndex(where: { $0.player == thrown.player }) {
                standings[index].phone = thrown.phone
            }
            let isMine = thrown.player == state.name && state.role == .player
            let isAgain = isMine && myLastLanding == thrown.landsAt
            if isMine { myLastLanding = thrown.landsAt }
            flights.removeAll { $0.player == thrown.player }
            flights.append(flight)
            // The catch-up after a reconnect (or a host restart) brings a phone still up back: say so.
            let left = thrown.landsAt - FlyView.hostNow(state, now)
            if isAgain && left > 0 {
                state.setNotice(
                    "Back: your phone is still in the air and comes down in \(ScreenText.clock(left)) — catch it!",
                    isError: false, at: now, isLasting: true)
            }
            flights.sort { $0.pressedAt < $1.pressedAt }
            if thrown.player == state.name && state.role == .player { actions.append(.bell) }
        case .caught(let caught):
            let result = Result(
                quality: caught.quality, offsetMs: caught.offsetMs, points: caught.points, streak: caught.streak)
            if let index = flights.firstIndex(where: { $0.player == caught.player }) { flights[index].result = result }
            if let index = standings.firstIndex(where: { $0.player == caught.player }) {
                standings[index].score = caught.score
                standings[index].streak = caught.streak
                if caught.quality != "dropped" { standings[index].bestM = max(standings[index].bestM, caught.heightM) }
                sortStandings()
            }
        case .timeUp(let up):
            missed = up.missed
            if phase == .throwing { phase = .landing }
            for index in standings.indices where up.missed.contains(standings[index].player) {
                standings[index].streak = 0
            }
        case .challenged(let challenge):
            challenges.removeAll { $0.from == challenge.from && $0.to == challenge.to }
            challenges.append(challenge)
            if challenge.to == state.name && state.role == .player {
                state.setNotice(
                    "\(challenge.from) challenges you to beat \(FlyWire.heightText(challenge.heightM))!",
                    isError: false, at: now)
                actions.append(.bell)
            }
        case .challengeOver(let over):
            challenges.removeAll { $0.from == over.from && $0.to == over.to }
            if state.role == .player, over.to == state.name || over.from == state.name {
                state.setNotice(over.line(for: state.perspective) ?? "", isError: false, at: now)
            }
        case .achievement(let earned):
            if state.role == .player && earned.player == state.name {
                state.setNotice("★ You earned “\(earned.name)”: \(earned.description)", isError: false, at: now)
                actions.append(.bell)
            }
        case .roundOver(let over):
            phase = .between
            round = over.number
            isLastRound = over.last
            missed = over.missed
            nextAt = state.deadline(over.deadline, remaining: over.nextInMs, now: now)
            roundDeadline = nil
            replaceStandings(over.ranking)
        case .scoreboard(let board):
            replaceStandings(board.ranking)
            teams = board.teams
            phase = .finished
            nextAt = nil
        case .scores(let scores):
            replaceStandings(scores.ranking)
            if !scores.teams.isEmpty { teams = scores.teams }
            if scores.final { phase = .finished }
        case .leaderboard(let board):
            if phase == .finished {
                leaderboards.removeAll { $0.scope == board.scope }
                leaderboards.append(board)
            } else {
                state.ui.panelTitle = (FlyWire.Scope(rawValue: board.scope)?.title ?? board.scope) + " leaderboard"
                state.ui.panel = FlyView.leaderboardLines(board, phones: phones)
            }
        case .resumed(let resumed):
            if let deadline = resumed.deadline { roundDeadline = deadline }
            if let sweep = resumed.sweepStart { sweepStart = sweep }
            if phase == .between { nextAt = state.hostDeadline(in: resumed.nextInMs, now: now) }
        case .catchCue:
            break  // text mode's countdown: the screen draws the falling phone instead
        case .board(let whole):
            board = state.took(whole)
        case .boardUpdate(let update):
            let (next, taken) = state.followed(board, by: update)
            actions += taken
            if let next { board = next }
        case .tally(let counts):
            tally = counts
            hallCount = counts.players
        }
        return actions
    }

    /// A leaderboard as panel lines: players by their best caught throw, then the phones.
    static func leaderboardLines(_ board: FlyWire.Leaderboard, phones: [FlyWire.Phone]) -> [String] {
        func name(_ id: String) -> String { phones.first { $0.id == id }?.name ?? id }
        var lines = board.players.isEmpty ? ["No caught throws yet."] : []
        for row in board.players {
            lines.append(
                "#\(row.rank)  \(ScreenRenderer.pad(row.player, 14)) \(FlyWire.heightText(row.heightM))  "
                    + "\(ScreenRenderer.pad(name(row.phone), 10)) \(row.points) pts"
                    + (row.date.map { "  " + String($0.prefix(10)) } ?? ""))
        }
        if !board.phones.isEmpty {
            lines.append("Phones:")
            for row in board.phones {
                lines.append(
                    "#\(row.rank)  \(ScreenRenderer.pad(name(row.phone), 10)) "
                        + (row.heightM > 0 ? "\(FlyWire.heightText(row.heightM)) by \(row.player)" : "never caught")
                        + " · \(row.caughtCount)/\(row.throwCount) caught")
            }
        }
        return lines
    }

    // MARK: Keys and lines

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard state.role == .player, phase != .finished else { return nil }
        switch key {
        case .character(" "), .enter:
            if isMyPhoneUp(state) { return [.play(FlyWire.Action.catchPhone(pressedAt: now))] }
            if mayThrow(state) { return [.play(FlyWire.Action.throwPhone(pressedAt: now))] }
            state.setNotice(
                phase == .throwing && myFlight(state) != nil
                    ? "You threw this round; wait for the next." : "Nothing to throw or catch right now.",
                isError: false, at: now)
            return []
        case .character(let digit) where digit.isNumber:
            guard let number = digit.wholeNumberValue, phones.indices.contains(number - 1) else { return nil }
            return [.play(FlyWire.Action.phone(phones[number - 1].id))]
        case .character("c"), .character("C"):
            // While your phone is up, c catches (as in text mode); a challenge waits until it is down.
            if isMyPhoneUp(state) { return [.play(FlyWire.Action.catchPhone(pressedAt: now))] }
            state.ui.mode = .prompt(
                Prompt(purpose: "challenge", label: "Challenge whom? ", hint: "   a player's name · Enter · Esc"))
            state.ui.text = ""
            return []
        case .character("l"), .character("L"):
            return [.play(FlyWire.Action.leaderboard(.allTime))]
        default:
            return nil
        }
    }

    func submit(_ prompt: Prompt, text: String, state: ClientState) -> [ClientAction] {
        guard prompt.purpose == "challenge", !text.isEmpty else { return [] }
        return [.play(FlyWire.Action.challenge(text))]
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        switch FlyWire.Action.parse(text: line) {
        case .action(.throwPhone)?: return [.play(FlyWire.Action.throwPhone(pressedAt: now))]
        case .action(.catchPhone)?: return [.play(FlyWire.Action.catchPhone(pressedAt: now))]
        case .action(let action)?: return [.play(action)]
        case .usage(let usage)?: return [.print("Usage: " + usage)]
        case nil: return nil
        }
    }

    func keyHints(_ state: ClientState, now: Int64) -> String? {
        guard state.role == .player, phase != .finished else { return nil }
        if isMyPhoneUp(state) { return "Space or c CATCH · l leaderboard · ? help" }
        if mayThrow(state) {
            return "Space throw · 1-\(max(1, phones.count)) phone · c challenge · l board · ? help"
        }
        return "c challenge · l leaderboard · : command · ? help · q quit"
    }

    // MARK: Drawing

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters: LetterStyle) -> [Row] {
        let host = FlyView.hostNow(state, now)
        var rows: [Row] = []
        switch phase {
        case .starting:
            rows.append(ScreenRenderer.indent("Let Me Fly! \(rounds) rounds — the first one is coming…", .bold))
        case .throwing, .landing:
            var heading = "Round \(round) of \(rounds)"
            if phase == .throwing, let left = state.remaining(until: roundDeadline, now: now) {
                heading += " · \(ScreenText.clock(left)) left to throw"
            } else {
                heading += " · time is up; phones still in the air come down"
            }
            rows.append(ScreenRenderer.indent(heading, .colored(.yellow, bold: true)))
            rows += tallyRows
            rows += playerRows(state, host: host, width: width, height: height)
            rows.append([])
            if isHall {
                rows += boardRows(state)
                rows.append([])
            }
            rows += feedRows(state)
        case .between:
            let next: String
            if isLastRound {
                next = "the final scores are next"
            } else if let left = state.remaining(until: nextAt, now: now) {
                next = "round \(round + 1) in \(ScreenText.clock(left))"
            } else {
                next =
                    state.role == .admin
                    ? "type :next to start round \(round + 1)"
                    : "waiting for the quizmaster to start round \(round + 1)"
            }
            rows.append(ScreenRenderer.indent("Round \(round) is over · \(next)", .colored(.yellow, bold: true)))
            rows += tallyRows
            rows += challengeRows(state)
            rows.append([])
            if isHall {
                rows += boardRows(state)
            } else {
                rows += feedRows(state)
            }
        case .finished:
            break
        }
        // A hall's ranking comes with each round's end (the board shows the top meanwhile).
        if phase != .starting && !(isHall && (phase == .throwing || phase == .landing)) {
            rows.append([])
            rows += rankingRows(state)
        }
        if phase == .finished {
            if !teams.isEmpty {
                let line = teams.map { "#\($0.rank) \($0.team) \($0.score)" }.joined(separator: " · ")
                rows.append(ScreenRenderer.indent("Teams  " + line, .bold))
            }
            if let winner = standings.first, winner.score > 0 {
                let winners = standings.filter { $0.rank == 1 }.map(\.player)
                rows.append(
                    ScreenRenderer.indent(
                        winners.count > 1
                            ? "A tie at the top: \(winners.joined(separator: " and "))!" : "\(winner.player) wins!",
                        Style(isBold: true, color: .yellow)))
            }
            for board in leaderboards where board.scope != FlyWire.Scope.game.rawValue {
                rows.append([])
                let title = FlyWire.Scope(rawValue: board.scope)?.title ?? board.scope
                rows.append(ScreenRenderer.indent("\(title) — highest catches", .bold))
                for line in FlyView.leaderboardLines(board, phones: phones).prefix(4) {
                    rows.append(ScreenRenderer.indent("  " + line))
                }
            }
        }
        return rows
    }

    /// The player's own part: their phone, then the meter (before throwing) or the flight (while it is up).
    private func playerRows(_ state: ClientState, host: Int64, width: Int, height: Int) -> [Row] {
        guard state.role == .player, players.contains(state.name) else { return challengeRows(state) }
        var rows: [Row] = []
        let mine = standings.first { $0.player == state.name }
        let phoneID = picks[state.name] ?? defaultPhone
        if let phone = phone(phoneID) {
            var text = "Your phone: \(phone.summary)"
            if let streak = mine?.streak, streak > 0 { text += " · streak \(streak) (+\(streak * 10) %)" }
            rows.append(ScreenRenderer.indent(text))
        }
        // Before a first throw (the phone is kept from then on), say what the number keys pick, when there is room.
        if round == 1, mayThrow(state), height >= 16 {
            let choices = phones.enumerated().map { "\($0.offset + 1) \($0.element.id)" }.joined(separator: " · ")
            let text = "Keys 1–\(phones.count) pick a phone: " + choices
            rows += ScreenRenderer.wrapped(text, width: width, style: .dim)
        }
        rows += challengeRows(state)
        rows.append([])
        if let flight = myFlight(state) {
            if let result = flight.result {
                rows.append(
                    ScreenRenderer.indent(FlyView.resultText(flight, result, mine: true), FlyView.style(result)))
            } else {
                rows += skyRows(flight, host: host, height: height)
            }
        } else if mayThrow(state) {
            let power = power(atHost: host)
            let barWidth = max(10, min(40, width - 16))
            rows.append([
                Span(" Power ", .bold), Span(ScreenText.bar(Double(power) / 100, width: barWidth), .colored(.green)),
                Span(" \(power) %", .bold),
            ])
            rows.append(ScreenRenderer.indent("Press Space when the power is right.", .dim))
        } else if missed.contains(state.name) {
            rows.append(ScreenRenderer.indent("You did not throw this round.", .dim))
        }
        return rows
    }

    /// The phone's flight: a strip of sky from the ground up to `sightM`; above it the phone is out of sight.
    private func skyRows(_ flight: Flight, host: Int64, height: Int) -> [Row] {
        let skyHeight = max(3, min(8, height - 14))
        let altitude = FlyView.height(of: flight, atHost: host)
        let isLanded = host >= flight.landsAt
        var rows: [Row] = []
        let top = altitude > FlyView.sightM ? "   ↑ out of sight" : ""
        let level = Int((altitude / FlyView.sightM * Double(skyHeight - 1)).rounded())
        for row in (0..<skyHeight).reversed() {
            let label = row == skyHeight - 1 ? "\(Int(FlyView.sightM)) m ┤" : (row == 0 ? "0 m ┴" : "    │")
            var line: Row = [Span(" " + ScreenRenderer.pad(label, 6), .dim)]
            if row == skyHeight - 1, !top.isEmpty {
                line.append(Span(top, .colored(.yellow, bold: true)))
            } else if !isLanded, altitude <= FlyView.sightM, row == level {
                line.append(Span("    ▮", .colored(.cyan, bold: true)))
            } else if isLanded, row == 0 {
                line.append(Span("    ▮ landed!", .colored(.red, bold: true)))
            }
            rows.append(line)
        }
        rows.append(
            ScreenRenderer.indent(
                "Up it went: \(FlyWire.heightText(flight.heightM)) at \(flight.power) % — press Space as it lands!",
                .colored(.cyan, bold: true)))
        return rows
    }

    private func challengeRows(_ state: ClientState) -> [Row] {
        challenges.compactMap { challenge in
            if state.role == .player && challenge.to == state.name {
                return ScreenRenderer.indent(
                    "\(challenge.from) challenges you to beat \(FlyWire.heightText(challenge.heightM))!",
                    .colored(.magenta, bold: true))
            }
            guard state.role != .player || challenge.from == state.name else { return nil }
            return ScreenRenderer.indent(
                "\(challenge.from) challenges \(challenge.to) to beat \(FlyWire.heightText(challenge.heightM))",
                .colored(.magenta))
        }
    }

    /// A hall's counts of the round, in one line.
    private var tallyRows: [Row] {
        guard isHall, let tally, tally.round == round else { return [] }
        return [ScreenRenderer.indent(tally.summary, .dim)]
    }

    /// A hall's live board: the highest catches of the game, the reader's own in green.
    private func boardRows(_ state: ClientState) -> [Row] {
        var rows: [Row] = [
            ScreenRenderer.indent("Highest catches of \(hallCount.map { "\($0) players" } ?? "the hall")", .bold)
        ]
        let listed = board?.rows ?? []
        if listed.isEmpty { rows.append(ScreenRenderer.indent("  no catch yet", .dim)) }
        for (index, row) in listed.enumerated() {
            let mine = state.role == .player && row.player == state.name
            rows.append(
                ScreenRenderer.indent(
                    "  #\(index + 1)  " + ScreenRenderer.pad(row.player, 14) + ScreenRenderer.pad(row.team, 12)
                        + ScreenRenderer.pad(FlyWire.heightText(row.heightM), 9)
                        + (phone(row.phone)?.name ?? row.phone),
                    mine ? .colored(.green, bold: true) : .plain))
        }
        return rows
    }

    /// This round's throws, in the order they went up (in a hall: the team's, the latest few).
    private func feedRows(_ state: ClientState) -> [Row] {
        var rows: [Row] = [ScreenRenderer.indent(isHall ? "Your team this round" : "Throws this round", .bold)]
        if flights.isEmpty { rows.append(ScreenRenderer.indent("  nobody has thrown yet", .dim)) }
        let shown = isHall ? Array(flights.suffix(5)) : flights
        if shown.count < flights.count {
            rows.append(ScreenRenderer.indent("  … \(flights.count - shown.count) earlier", .dim))
        }
        for flight in shown {
            let name = ScreenRenderer.pad(flight.player, 12)
            let phone = ScreenRenderer.pad(phone(flight.phone)?.name ?? flight.phone, 10)
            let mine = state.role == .player && flight.player == state.name
            if let result = flight.result {
                rows.append(
                    ScreenRenderer.indent(
                        "  \(name) \(phone) " + FlyView.resultText(flight, result, mine: false),
                        mine ? .colored(.green, bold: true) : FlyView.style(result)))
            } else {
                rows.append(
                    ScreenRenderer.indent(
                        "  \(name) \(phone) \(FlyWire.heightText(flight.heightM))  ↑ in the air",
                        mine ? .colored(.green, bold: true) : .colored(.cyan)))
            }
        }
        if !missed.isEmpty { rows.append(ScreenRenderer.indent("  No throw: " + missed.joined(separator: ", "), .dim)) }
        return rows
    }

    static func resultText(_ flight: Flight, _ result: Result, mine: Bool) -> String {
        let height = FlyWire.heightText(flight.heightM)
        let offset: String
        if let ms = result.offsetMs {
            offset = ms == 0 ? "on time" : "\(abs(ms)) ms \(ms < 0 ? "early" : "late")"
        } else {
            offset = "no catch"
        }
        let prefix = mine ? "You " : ""
        switch result.quality {
        case "clean": return "\(prefix)\(height)  clean (\(offset))  +\(result.points)"
        case "fumbled": return "\(prefix)\(height)  fumbled (\(offset))  +\(result.points)"
        default: return "\(prefix)\(height)  dropped (\(offset))  0"
        }
    }

    static func style(_ result: Result) -> Style {
        switch result.quality {
        case "clean": .colored(.green)
        case "fumbled": .colored(.yellow)
        default: .colored(.red)
        }
    }

    /// The ranking: points, best height, phone and streak; one compact row when many play and space is short.
    private func rankingRows(_ state: ClientState) -> [Row] {
        guard !standings.isEmpty else { return [] }
        var rows: [Row] = [
            ScreenRenderer.indent(
                phase == .finished ? "FINAL SCOREBOARD" : "Standings",
                phase == .finished ? Style(isBold: true, color: .yellow) : .bold)
        ]
        let nameWidth = min(16, (standings.map { ScreenText.width(of: $0.player) }.max() ?? 4) + 2)
        // A hall's cut ranking: its top three, then the reader's team (the reader's own line among the first four),
        // so that it fits under the live board at 24 rows; a spectator's, its top ten.
        var shown = Array(standings.prefix(12))
        if isHall {
            let team = standings.first { $0.player == state.name }?.team.lowercased()
            let top = state.role == .player ? 3 : 10
            var mates = Array(standings.dropFirst(top).filter { $0.team.lowercased() == team }.prefix(4))
            if let mine = standings.first(where: { $0.player == state.name }), !standings.prefix(top).contains(mine),
                !mates.contains(mine)
            {
                mates[mates.count - 1] = mine
            }
            shown = Array(standings.prefix(top)) + mates
        }
        for (index, entry) in shown.enumerated() {
            if isHall, index > 0, let before = standings.firstIndex(of: shown[index - 1]),
                standings.firstIndex(of: entry).map({ $0 > before + 1 }) == true
            {
                rows.append(ScreenRenderer.indent("  …", .dim))
            }
            let mine = state.role == .player && entry.player == state.name
            var text =
                "  #\(entry.rank)  " + ScreenRenderer.pad(entry.player, nameWidth)
                + ScreenRenderer.pad("\(entry.score) pts", 9) + ScreenRenderer.pad(FlyWire.heightText(entry.bestM), 9)
                + ScreenRenderer.pad(phone(entry.phone)?.name ?? entry.phone, 11)
            if entry.streak > 0 { text += "streak \(entry.streak)" }
            rows.append(ScreenRenderer.indent(text, mine ? .colored(.green, bold: true) : .plain))
        }
        if isHall {
            rows.append(ScreenRenderer.indent("  … of \(hallCount ?? standings.count) players", .dim))
        } else if standings.count > 12 {
            rows.append(ScreenRenderer.indent("  … \(standings.count - 12) more", .dim))
        }
        return rows
    }
}

/// What FlyView does beyond the core every game screen has.
extension FlyView: OpensPrompts {}

extension FlyWire: ShownWire {
    static var screen: any GameScreen.Type { FlyView.self }
}
