import Protocol

/// A station hunt as this client sees it: a player's own clue, station task and hints, everyone's progress, the
/// operators' log of solves, and at the end the ranking with the hunt's hall of fame.
struct HuntView: GameScreen {
    typealias Wire = HuntWire

    /// What this player's team is doing.
    enum Task: Equatable, Sendable {
        /// Following a clue to its next station.
        case clue(HuntWire.Clue)
        /// Checked in at a puzzle.
        case puzzle(OutsiderWire.Puzzle)
        /// Checked in at a question.
        case question(HuntWire.Question)
    }

    var huntName = ""
    var stationCount = 0
    var teams: [String] = []
    var order = "fixed"
    var penaltySeconds = 0
    /// Host ms when the hunt clock ends.
    var deadline: Int64?
    var task: Task?
    /// The hints seen at the current station, by number.
    var hints: [HuntWire.Hint] = []
    /// Every team's progress as the host last sent it whole or changed it (numbered, for its `progressUpdate`s).
    var progressState: HuntWire.Progress?
    /// Every team's progress, in the order the teams joined the hunt.
    var progress: [HuntWire.TeamProgress] { progressState?.teams ?? [] }
    /// Who solved which station and when (operators).
    var log: [HuntWire.StationSolved] = []
    var ranking: [HuntWire.Ranked] = []
    /// How many teams the whole ranking has, when a hall sent only the top and this team's row (PROTOCOL.md §6.0.1).
    var rankingTotal: Int?
    var hallOfFame: [HuntWire.Fame] = []
    var isOver = false
    /// Whether the hunt ended because its clock ran out.
    var isTimeUp = false

    init?(intro: HuntWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        take(intro)
        deadline = intro.deadline  // host ms; `apply` refines it the same way for later intros
    }

    private mutating func take(_ intro: HuntWire.Intro) {
        huntName = intro.name
        stationCount = intro.stations
        teams = intro.teams
        order = intro.order
        penaltySeconds = intro.penaltySeconds
    }

    var title: String { isOver ? "Station hunt · over" : "Station hunt · \(huntName)" }

    static let keyHelp = [
        "  at a clue        type the code posted at the station, Enter checks in (station hunt)",
        "  at a station     a puzzle: 1-4, then the same key or Enter picks; a question: type, Enter",
        "                   Tab Tab: a hint (it adds time); a wrong pick or answer adds time too",
    ]

    /// This player's team's progress row.
    func mine(_ state: ClientState) -> HuntWire.TeamProgress? { progress.first { state.isMine(team: $0.team) } }

    /// What the station's next hint costs, in seconds, when the task said (nil: no hint left, or not said).
    var nextHintSeconds: Int? {
        let costs: [Int]?
        switch task {
        case .puzzle(let puzzle)?: costs = puzzle.hintCosts
        case .question(let question)?: costs = question.hintCosts
        default: costs = nil
        }
        guard let costs, costs.indices.contains(hints.count) else { return nil }
        return costs[hints.count]
    }

    /// Whether the station has a hint left.
    var hasHintLeft: Bool {
        switch task {
        case .puzzle(let puzzle)?: (puzzle.hints ?? 0) > hints.count
        case .question(let question)?: question.hints > hints.count
        default: false
        }
    }

    /// Where the game stands: a notice belongs to the station (or clue) it was said at.
    var phaseTag: String {
        switch task {
        case .clue(let clue)?: "clue-\(clue.station)"
        case .puzzle(let puzzle)?: "puzzle-\(puzzle.number)"
        case .question(let question)?: "question-\(question.number)"
        case nil: isOver ? "over" : "starting"
        }
    }

    /// At its station's task, a plain-mode line is this team's answer (or pick); commands need a leading `/`.
    func awaitsTypedLine(_ state: ClientState) -> Bool {
        guard state.role == .player, !isOver, !state.isPaused else { return false }
        switch task {
        case .puzzle?, .question?: return true
        default: return false
        }
    }

    /// `hint` asks for a hint and `checkin CODE` checks in; at a puzzle `1`–`4` (or `pick …`) picks; anything else
    /// is the answer.
    func awaited(line: String, state: ClientState, at now: Int64) -> [ClientAction] {
        switch HuntWire.Action.parse(text: line) {
        case .action(let action)?:
            switch action {
            case .hint, .checkIn: return [.play(action)]
            case .pick: if case .puzzle? = task { return [.play(action)] }
            case .answer: break
            }
        default: break
        }
        return [.play(HuntWire.Action.answer(line))]
    }

    /// The question before a hint: it adds time, so one key never asks for it.
    private func hintConfirmation(key: Key, state: inout ClientState, at now: Int64) -> [ClientAction] {
        guard hasHintLeft else {
            state.setNotice("This station has no hint left.", isError: false, at: now)
            return []
        }
        let cost = nextHintSeconds.map { "+\($0) s to your time" } ?? "it adds time"
        let again = key == .tab ? "Tab" : "h"
        state.ui.confirmation = Confirmation(
            question: "Press \(again) again for a hint (\(cost); any other key: no hint)",
            keys: key == .tab ? [.tab] : [.character("h"), .character("H")], actions: [.play(HuntWire.Action.hint)],
            declined: "No hint taken.")
        return []
    }

    private var isTyping: Bool {
        switch task {
        case .clue?, .question?: true
        default: false
        }
    }

    // MARK: Messages

    mutating func apply(_ message: HuntWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        switch message {
        case .intro(let intro):
            take(intro)
            deadline = state.deadline(intro.deadline, remaining: intro.remainingMs, now: now)
        case .clue(let clue):
            if task != .clue(clue) { state.ui.answer = "" }
            task = .clue(clue)
            hints = []
        case .puzzle(let puzzle):
            if task != .puzzle(puzzle) { state.ui.answer = "" }
            task = .puzzle(puzzle)
            hints = []
            return [.bell]
        case .question(let question):
            if task != .question(question) { state.ui.answer = "" }
            task = .question(question)
            hints = []
            return [.bell]
        case .wrong(let wrong):
            state.setNotice(
                "Not that one: +\(Wording.seconds(wrong.penaltyMs)) penalty. Try again.", isError: true, at: now)
        case .hint(let hint):
            hints.removeAll { $0.number == hint.number }
            hints.append(hint)
            hints.sort { $0.number < $1.number }
        case .solved(let solved):
            let success = solved.success.map { " " + $0 } ?? ""
            // It outlasts the station it was said at: the next clue comes at once.
            state.setNotice("✔ \(solved.name) solved!\(success)", isError: false, at: now, isLasting: true)
            if solved.last { task = nil }
            return [.bell]
        case .progress(let whole):
            progressState = state.took(whole)
            if let row = mine(state), row.finished { task = nil }
        case .progressUpdate(let update):
            let (next, actions) = state.followed(progressState, by: update)
            guard let next else { return actions }  // rows that do not add up are asked for whole
            progressState = next
            if let row = mine(state), row.finished { task = nil }
        case .stationSolved(let solved):
            log.removeAll { $0.team == solved.team && $0.station == solved.station }
            log.append(solved)
            log.sort { ($0.elapsedMs, $0.team) < ($1.elapsedMs, $1.team) }
        case .scoreboard(let scoreboard):
            ranking = scoreboard.ranking
            rankingTotal = scoreboard.total
            hallOfFame = scoreboard.hallOfFame
            isTimeUp = scoreboard.timeUp == true
            isOver = true
            task = nil
            deadline = nil
        case .scores(let scores):
            ranking = scores.ranking
            rankingTotal = scores.total
        case .resumed(let resumed):
            deadline = state.deadline(resumed.deadline, remaining: resumed.remainingMs, now: now)
        }
        return []
    }

    // MARK: Keys and lines

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard state.role == .player, !isOver, let task else { return nil }
        if case .puzzle(let puzzle) = task {
            switch key {
            case .character(let character):
                if let number = Int(String(character)), (1...4).contains(number), puzzle.words.count >= number {
                    // A wrong pick adds time: the first key asks, the same key (or Enter) picks.
                    state.ui.confirmation = Confirmation(
                        question:
                            "Press \(number) again to pick \(puzzle.words[number - 1]) (or Enter; a wrong pick adds "
                            + "\(penaltySeconds) s; any other key: no)",
                        keys: [key, .enter], actions: [.play(HuntWire.Action.pick(.number(number)))],
                        declined: "Not picked.")
                    return []
                }
                if character == "h" || character == "H" { return hintConfirmation(key: key, state: &state, at: now) }
                return nil
            case .tab: return hintConfirmation(key: key, state: &state, at: now)
            default: return nil
            }
        }
        if key == .tab {
            if case .question = task { return hintConfirmation(key: key, state: &state, at: now) }
            state.setNotice("Hints are for a station's task: check in first.", isError: false, at: now)
            return []
        }
        switch state.editAnswerLine(key) {
        case .submitted(let text):
            return [.play(task.isClue ? HuntWire.Action.checkIn(text) : HuntWire.Action.answer(text))]
        case .empty:
            state.setNotice(
                task.isClue
                    ? "Type the code posted at the station, then press Enter." : "Type your answer, then Enter.",
                isError: false, at: now)
        case .notEditing: if case .character = key { return nil }  // `:` and `?` open the command line, help
        case .edited: break
        }
        return []
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        switch HuntWire.Action.parse(text: line) {
        case .action(let action)?: return [.play(action)]
        case .usage(let usage)?: return [.print("Usage: " + usage)]
        case nil:
            switch task {
            case .question?: return [.play(HuntWire.Action.answer(line))]
            case .puzzle(let puzzle)?:
                guard puzzle.words.contains(where: { $0.lowercased() == line.lowercased() }) else { return nil }
                return [.play(HuntWire.Action.answer(line))]
            default: return nil
            }
        }
    }

    func keyHints(_ state: ClientState, now: Int64) -> String? {
        guard state.role == .player, !isOver, let task else { return nil }
        switch task {
        case .clue: return "type the code posted at the station · Enter checks in · Esc clears · Ctrl-C leaves"
        case .puzzle:
            let hint = hasHintLeft ? " · [Tab] a hint (adds time)" : ""
            return "[1]-[4] pick (it asks first)\(hint) · [?] help · [q] quit"
        case .question:
            let hint = hasHintLeft ? " · Tab a hint (adds time)" : ""
            return "type your answer · Enter sends\(hint) · Esc clears · Ctrl-C leaves"
        }
    }

    func inputRow(_ state: ClientState) -> Row? {
        guard state.role == .player, !isOver, isTyping, let task else { return nil }
        let label = task.isClue ? " Code › " : " Your answer › "
        return state.answerRow(label)
    }

    // MARK: Drawing

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters style: LetterStyle) -> [Row] {
        if isOver { return finishedRows(state, width: width) }
        var rows: [Row] = []
        var clock: Row = [Span(" \(huntName)", .colored(.yellow, bold: true))]
        if let remaining = state.remaining(until: deadline, now: now) {
            let style: Style = remaining <= 60_000 ? .colored(.red, bold: true) : .bold
            clock += [Span(" · ", .dim), Span(ScreenText.clock(remaining), style), Span(" left", .dim)]
        }
        rows.append(clock)
        if state.role == .player { rows += playerRows(state, width: width, now: now) }
        rows.append([])
        rows += progressRows(state, width: width)
        if state.role == .admin, !log.isEmpty {
            rows.append([])
            rows.append(ScreenRenderer.indent("Solved", .bold))
            for entry in log.suffix(max(1, min(6, height - rows.count - 1))) {
                rows.append(ScreenRenderer.indent("  " + (entry.line(for: Perspective()) ?? "")))
            }
        }
        return rows
    }

    /// How long this team's check-ins stay locked (the host's `code_locked` with its deadline); nil when they are not.
    func lockLeft(_ state: ClientState, now: Int64) -> Int64? {
        guard let lock = state.lastingRefusal, lock.code == .codeLocked,
            let left = state.remaining(until: lock.deadline, now: now), left > 0
        else { return nil }
        return left
    }

    private func playerRows(_ state: ClientState, width: Int, now: Int64) -> [Row] {
        var rows: [Row] = []
        if let row = mine(state), row.finished {
            rows.append([])
            rows.append(ScreenRenderer.indent("You found every station!", .colored(.green, bold: true)))
            let penalty = row.penaltiesMs > 0 ? " (+\(DurationText.clock(row.penaltiesMs)) penalties)" : ""
            rows.append(
                ScreenRenderer.indent(
                    "Your time \(DurationText.clock(row.elapsedMs))\(penalty). Waiting for the others…"))
            return rows
        }
        switch task {
        case .clue(let clue)?:
            rows.append(ScreenRenderer.indent("Station \(clue.station) of \(clue.of) — your clue:", .bold))
            rows += ScreenRenderer.wrapped(clue.text, width: width, style: .colored(.cyan, bold: true))
            rows.append([])
            if let left = lockLeft(state, now: now) {
                rows += ScreenRenderer.wrapped(
                    "Check-ins are locked: \(ScreenText.clock(left)) left. Find the station meanwhile.", width: width,
                    style: .colored(.red, bold: true))
            } else {
                rows += ScreenRenderer.wrapped(
                    "Find the station, then type the code posted there and press Enter.", width: width, style: .dim)
            }
        case .puzzle(let puzzle)?:
            rows.append(
                ScreenRenderer.indent("Station \(puzzle.number) of \(puzzle.of) — which is the odd one out?", .bold))
            rows += OutsiderView.wordRows(puzzle.words, width: width, picked: nil)
            rows += hintRows(total: puzzle.hints ?? 0, width: width)
        case .question(let question)?:
            rows.append(ScreenRenderer.indent("Station \(question.number) of \(question.of) — answer this:", .bold))
            rows += ScreenRenderer.wrapped(question.text, width: width, style: .colored(.cyan, bold: true))
            rows.append(ScreenRenderer.indent("(\(Wording.count(question.letters, "letter")))", .dim))
            rows += hintRows(total: question.hints, width: width)
        case nil:
            rows.append(ScreenRenderer.indent("Your first clue is coming…", .dim))
        }
        if let row = mine(state), row.penaltiesMs > 0 {
            rows.append(
                ScreenRenderer.indent("Your penalties so far: +\(DurationText.clock(row.penaltiesMs))", .colored(.red)))
        }
        return rows
    }

    private func hintRows(total: Int, width: Int) -> [Row] {
        var rows: [Row] = []
        for hint in hints {
            rows += ScreenRenderer.wrapped(
                "Hint \(hint.number) (+\(Wording.seconds(hint.costMs))): \(hint.text)", width: width,
                style: .colored(.yellow))
        }
        let left = total - hints.count
        if left > 0 {
            let offer = hints.isEmpty ? "\(Wording.count(left, "hint")) available" : "\(left) more"
            rows.append(ScreenRenderer.indent("\(offer) (Tab; each adds time)", .dim))
        }
        return rows
    }

    private func progressRows(_ state: ClientState, width: Int) -> [Row] {
        guard !progress.isEmpty else { return [] }
        var rows: [Row] = [ScreenRenderer.indent("Progress", .bold)]
        let nameWidth = min(16, (progress.map { ScreenText.width(of: $0.team) }.max() ?? 4) + 2)
        let barWidth = max(0, min(stationCount * 2, width - nameWidth - 24))
        for row in progress {
            let mine = state.isMine(team: row.team)
            var spans: Row = [
                Span("   "), Span(ScreenRenderer.pad(row.team, nameWidth), mine ? .colored(.green, bold: true) : .bold),
            ]
            if barWidth >= 4 {
                let fraction = row.of > 0 ? Double(row.station) / Double(row.of) : 0
                spans.append(Span(ScreenText.bar(fraction, width: barWidth) + " ", .colored(.cyan)))
            }
            spans.append(Span(row.finished ? "done \(DurationText.clock(row.elapsedMs))" : "\(row.station)/\(row.of)"))
            if row.penaltiesMs > 0 { spans.append(Span(" +\(DurationText.clock(row.penaltiesMs))", .colored(.red))) }
            rows.append(spans)
        }
        // A hall's copy (PROTOCOL.md §6.0.1): the first teams and ours, and how many more there are.
        let more = Wording.moreTeams(shown: progress.count, total: progressState?.total)
        if !more.isEmpty { rows.append(ScreenRenderer.indent(" " + more, .dim)) }
        return rows
    }

    private func finishedRows(_ state: ClientState, width: Int) -> [Row] {
        let over = isTimeUp ? "TIME'S UP! HUNT OVER" : "HUNT OVER"
        var rows: [Row] = [[], ScreenRenderer.indent("\(over) — \(huntName)", Style(isBold: true, color: .yellow))]
        // Team names padded to one column, so the times line up.
        let nameWidth = min(16, (ranking.map(\.team) + hallOfFame.map(\.team)).map(ScreenText.width(of:)).max() ?? 0)
        for entry in ranking {
            let mine = state.isMine(team: entry.team)
            let penalty = entry.penaltiesMs > 0 ? " (+\(DurationText.clock(entry.penaltiesMs)) penalties)" : ""
            let text =
                "  #\(entry.rank)  \(ScreenRenderer.pad(entry.team, nameWidth))  "
                + "\(Wording.count(entry.stations, "station"))  "
                + DurationText.clock(entry.totalMs) + penalty + (mine ? "  ◀ your team" : "")
            rows.append(
                ScreenRenderer.indent(text, mine ? .colored(.green, bold: true) : (entry.rank == 1 ? .bold : .plain)))
        }
        let more = Wording.moreTeams(shown: ranking.count, total: rankingTotal)
        if !more.isEmpty { rows.append(ScreenRenderer.indent(" " + more, .dim)) }
        if let winner = ranking.first, winner.stations > 0 {
            rows.append(ScreenRenderer.indent("\(winner.team) wins!", Style(isBold: true, color: .yellow)))
        }
        rows.append([])
        rows.append(ScreenRenderer.indent("Hall of fame", .bold))
        if hallOfFame.isEmpty { rows.append(ScreenRenderer.indent("  Nobody has finished this hunt yet.", .dim)) }
        for entry in hallOfFame {
            rows.append(
                ScreenRenderer.indent(
                    "  #\(entry.place)  \(ScreenRenderer.pad(entry.team, nameWidth))  "
                        + "\(DurationText.clock(entry.totalMs))  \(entry.date)"))
        }
        return rows
    }
}

extension HuntView.Task {
    /// Whether the team is following a clue (so typing is a code).
    fileprivate var isClue: Bool {
        if case .clue = self { return true }
        return false
    }
}

/// What HuntView does beyond the core every game screen has.
extension HuntView: ShowsInputRow, AwaitsTypedLines {}

extension HuntWire: ShownWire {
    static var screen: any GameScreen.Type { HuntView.self }
}
