import Protocol

/// One team's (or player's) standing on a scoreboard.
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
struct ShakyView: GameScreen {
    typealias Wire = ShakyWire

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
    /// The buzz order as the host last sent it whole or changed it (numbered, for its `buzzedUpdate`s).
    var buzzed: ShakyWire.Buzzed?
    /// The team answering and the host ms when its answer clock ends.
    var turnTeam: String?
    var turnDeadline: Int64?
    var results: [AnswerResult] = []
    var reveal: Reveal?
    var standings: [Standing] = []
    var isFinal = false
    /// The team whose answer waits for the quizmaster's verdict (judging by hand).
    var judgingTeam: String?

    init() {}

    init?(intro: ShakyWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        teams = intro.teams
        questionCount = intro.questions
        standings = teams.map { Standing(team: $0, score: 0, rank: 1, correct: 0) }
    }

    var isOver: Bool { phase == .finished }

    var title: String {
        var title = "Shaky Words"
        if let question, phase != .finished { title += " · question \(question.number)/\(question.total)" }
        if phase == .finished { title += " · final" }
        return title
    }

    static let keyHelp = [
        "  Space or Enter   buzz (Shaky Words)",
        "  s                shake: one more letter in place, the answer is worth less",
        "  your turn        type the answer, Enter sends, Tab shakes, Esc clears",
    ]

    /// Whether it is `state`'s team's turn to answer.
    func isMyTurn(_ state: ClientState) -> Bool { phase == .question && state.isMine(team: turnTeam) }

    private static func standings(_ entries: [ShakyWire.Standing]) -> [Standing] {
        entries.map { Standing(team: $0.team, score: $0.score, rank: $0.rank, correct: $0.correct) }
    }

    // MARK: Messages

    mutating func apply(_ message: ShakyWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        var actions: [ClientAction] = []
        switch message {
        case .intro(let intro):
            teams = intro.teams
            questionCount = intro.questions
        case .question(let opened):
            let isNewQuestion = question?.number != opened.number || phase != .question
            phase = .question
            question = Question(
                number: opened.number, total: opened.of, text: opened.text, letters: opened.letters,
                fixedCount: opened.fixed, difficulty: opened.difficulty, points: opened.points)
            buzzDeadline = state.deadline(opened.deadline, remaining: opened.remainingMs, now: now)
            if isNewQuestion {
                judgingTeam = nil
                buzzOrder = []
                buzzed = nil
                state.awaitingResync.remove(ShakyWire.Buzzed.type)
                turnTeam = nil
                turnDeadline = nil
                results = []
                reveal = nil
                state.ui.answer = ""
            }
        case .buzzed(let whole):
            buzzed = state.took(whole)
            showBuzzOrder(whole, state: state, now: now, actions: &actions)
        case .buzzedUpdate(let update):
            let (next, taken) = state.followed(buzzed, by: update)
            actions += taken
            if let next {
                if next.entries.count == update.count {
                    buzzed = next
                    showBuzzOrder(next, state: state, now: now, actions: &actions)
                } else {
                    actions += state.askWhole(ShakyWire.Buzzed.self)  // the order does not add up
                }
            }
        case .turn(let turn):
            if turn.team != turnTeam { state.ui.answer = "" }
            turnTeam = turn.team
            turnDeadline = state.deadline(turn.deadline, remaining: turn.remainingMs, now: now)
            if state.isMine(team: turn.team) { actions.append(.bell) }
        case .hint(let hint):
            question?.letters = hint.letters
            question?.fixedCount = hint.fixed
            question?.points = hint.points
        case .result(let result):
            if judgingTeam?.lowercased() == result.team.lowercased() { judgingTeam = nil }
            results.append(
                AnswerResult(
                    team: result.team, isCorrect: result.correct, points: result.points, isTimedOut: result.timedOut,
                    isMisspelling: result.misspelled == true))
            if turnTeam?.lowercased() == result.team.lowercased() {
                turnTeam = nil
                turnDeadline = nil
            }
        case .reveal(let ended):
            phase = .reveal
            turnTeam = nil
            turnDeadline = nil
            buzzDeadline = nil
            reveal = Reveal(
                number: ended.number, answer: ended.answer, scorer: ended.scorer, points: ended.points,
                nextAt: state.deadline(ended.deadline, remaining: ended.nextInMs, now: now), isLast: ended.last)
            if !ended.scores.isEmpty { standings = ShakyView.standings(ended.scores) }
            state.ui.answer = ""
        case .scoreboard(let scoreboard):
            standings = ShakyView.standings(scoreboard.ranking)
            finish()
        case .scores(let scores):
            if !scores.ranking.isEmpty { standings = ShakyView.standings(scores.ranking) }
            if scores.final { finish() }
        case .judging(let judging):
            judgingTeam = judging.team
            turnTeam = nil
            turnDeadline = nil
        case .overruled(let overruled):
            standings = ShakyView.standings(overruled.scores)
            let change = overruled.points >= 0 ? "+\(overruled.points)" : "\(overruled.points)"
            state.setNotice(
                "The quizmaster counts \(overruled.team)'s answer as \(overruled.correct ? "right" : "wrong") (\(change)).",
                isError: false, at: now)
        case .resumed(let resumed):
            state.endPause()
            if buzzDeadline != nil || resumed.buzzRemainingMs != nil {
                buzzDeadline = state.hostDeadline(in: resumed.buzzRemainingMs, now: now)
            }
            if turnTeam != nil { turnDeadline = state.hostDeadline(in: resumed.answerRemainingMs, now: now) }
            if phase == .reveal { reveal?.nextAt = state.hostDeadline(in: resumed.nextInMs, now: now) }
        }
        return actions
    }

    /// The plain-mode line: a change of the buzz order reads as the whole order this client now holds.
    func line(for message: ShakyWire.Message, in state: ClientState) -> String? {
        if case .buzzedUpdate = message, !buzzOrder.isEmpty { return "Buzz order: " + EventText.buzzOrder(buzzOrder) }
        return message.line(for: state.perspective)
    }

    /// Shows the buzz order `buzzed` holds; a bell when it grew.
    private mutating func showBuzzOrder(
        _ buzzed: ShakyWire.Buzzed, state: ClientState, now: Int64, actions: inout [ClientAction]
    ) {
        let order =
            buzzed.entries.isEmpty
            ? buzzed.order.map { BuzzEntry(team: $0, offsetMs: 0, uncertaintyMs: 0, isTied: false) }
            : buzzed.entries.map {
                BuzzEntry(team: $0.team, offsetMs: $0.offsetMs, uncertaintyMs: $0.uncertaintyMs, isTied: $0.tie)
            }
        if order.count > buzzOrder.count { actions.append(.bell) }
        buzzOrder = order
        buzzDeadline = state.deadline(buzzed.deadline, remaining: buzzed.remainingMs, now: now)
    }

    private mutating func finish() {
        isFinal = true
        phase = .finished
        turnTeam = nil
        buzzDeadline = nil
    }

    // MARK: Keys and lines

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        if isMyTurn(state), let actions = editAnswer(key, state: &state, at: now) { return actions }
        guard state.role == .player else { return nil }
        switch key {
        case .character(" "), .enter:
            guard phase == .question else {
                state.setNotice("Nothing to buzz for right now.", isError: false, at: now)
                return []
            }
            return [.play(ShakyWire.Action.buzz(pressedAt: now))]
        case .character("s"), .character("S"):
            guard phase == .question else { return nil }
            return [.play(ShakyWire.Action.shake)]
        default:
            return nil
        }
    }

    /// Edits the answer line on your team's turn; nil when the key is not for it.
    private func editAnswer(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        switch key {
        case .character(let character):
            if state.ui.answer.isEmpty && (character == ":" || character == "?") { return nil }
            if state.ui.answer.count < ClientState.inputLimit { state.ui.answer.append(character) }
            return []
        case .backspace:
            if !state.ui.answer.isEmpty { state.ui.answer.removeLast() }
            return []
        case .escape, .control(0x15):
            state.ui.answer = ""
            return []
        case .tab:
            return [.play(ShakyWire.Action.shake)]
        case .enter:
            let text = state.ui.answer.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else {
                state.setNotice("Type your answer, then press Enter.", isError: false, at: now)
                return []
            }
            state.ui.answer = ""
            return [.play(ShakyWire.Action.answer(text))]
        default:
            return []
        }
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        switch ShakyWire.Action.parse(text: line) {
        case .action(.buzz)?: return [.play(ShakyWire.Action.buzz(pressedAt: now))]
        case .action(let action)?: return [.play(action)]
        case .usage(let usage)?: return [.print("Usage: " + usage)]
        case nil: return isMyTurn(state) ? [.play(ShakyWire.Action.answer(line))] : nil
        }
    }

    func keyHints(_ state: ClientState) -> String? {
        if isMyTurn(state) { return "type · Enter sends · Tab shake · Esc clears · Ctrl-C quits" }
        if state.role == .player, phase == .question { return "Space/Enter buzz · s shake · : command · ? help · q quit" }
        return nil
    }

    func inputRow(_ state: ClientState) -> Row? {
        guard isMyTurn(state) else { return nil }
        return [Span(" Your answer › ", .colored(.green, bold: true)), Span(state.ui.answer, .bold), Span("█", .dim)]
    }

    // MARK: Drawing

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters style: LetterStyle) -> [Row] {
        var rows: [Row] = []
        switch phase {
        case .starting:
            rows.append([])
            rows.append(
                ScreenRenderer.indent(
                    "Shaky Words! \(questionCount) questions · teams: \(teams.joined(separator: ", "))", .bold))
            rows.append(ScreenRenderer.indent("The first question is coming…"))
        case .question:
            guard let question else { break }
            rows.append(
                ScreenRenderer.indent(
                    "Question \(question.number) of \(question.total) · \(question.difficulty) · \(question.points) points",
                    .colored(.yellow, bold: true)))
            rows += ScreenRenderer.wrapped(question.text, width: width, style: .bold)
            rows.append([])
            rows += ScreenRenderer.lettersBlock(
                question.letters, fixedCount: question.fixedCount, preferred: style, width: width)
            rows.append([])
            rows += clockRows(state, now: now)
            if let judgingTeam {
                let whose = state.isMine(team: judgingTeam) ? "Your answer" : "\(judgingTeam)'s answer"
                rows.append(
                    ScreenRenderer.indent("\(whose) is with the quizmaster — waiting for the verdict…", .colored(.yellow)))
            }
            if !buzzOrder.isEmpty {
                var row: Row = [Span(" Buzz order   ", .bold)]
                for (index, entry) in buzzOrder.enumerated() {
                    if index > 0 { row.append(Span(" · ", .dim)) }
                    row.append(
                        Span(
                            EventText.buzzOrder([entry]),
                            state.isMine(team: entry.team) ? .colored(.green, bold: true) : .plain))
                }
                rows.append(row)
            }
            if state.role == .player, question.fixedCount > 0 {
                let letters = "\(question.fixedCount) letter\(question.fixedCount == 1 ? "" : "s")"
                rows.append(
                    ScreenRenderer.indent(
                        "Your hint    \(letters) in place (green) · now worth \(question.points) points",
                        .colored(.green)))
            }
            if let last = results.last { rows.append(ShakyView.resultRow(last)) }
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: false)
        case .reveal:
            guard let reveal else { break }
            rows.append(
                ScreenRenderer.indent(
                    "Question \(reveal.number)\(question.map { " of \($0.total)" } ?? "") — the answer was", .bold))
            if let text = question?.text { rows += ScreenRenderer.wrapped(text, width: width, style: .dim) }
            rows += ScreenRenderer.lettersBlock(
                reveal.answer.uppercased(), fixedCount: Int.max, preferred: style, width: width)
            if let scorer = reveal.scorer {
                rows.append(
                    ScreenRenderer.indent(
                        "✔ \(scorer) scored \(reveal.points) points"
                            + (state.isMine(team: scorer) ? " — that's your team!" : ""),
                        .colored(.green, bold: true)))
            } else {
                rows.append(ScreenRenderer.indent("Nobody got it this time.", .colored(.yellow)))
            }
            for result in results where !result.isCorrect { rows.append(ShakyView.resultRow(result)) }
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: false)
            rows.append([])
            if let remaining = state.remaining(until: reveal.nextAt, now: now) {
                let next = reveal.isLast ? "Final scores in" : "Next question in"
                rows.append(ScreenRenderer.indent("\(next) \(ScreenText.clock(remaining))", .bold))
            } else if reveal.isLast {
                rows.append(ScreenRenderer.indent("That was the last question — the final scores are next.", .bold))
            } else {
                rows.append(ScreenRenderer.indent("Waiting for the quizmaster to start the next question…", .dim))
            }
        case .finished:
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: true)
            rows.append([])
            rows += ScreenRenderer.winnerRows(standings)
        }
        return rows
    }

    static func resultRow(_ result: AnswerResult) -> Row {
        if result.isCorrect {
            return ScreenRenderer.indent(
                "✔ \(result.team) is right" + (result.isMisspelling ? " (misspelling forgiven)" : "") + "! +\(result.points)",
                .colored(.green, bold: true))
        }
        return ScreenRenderer.indent(
            "✘ \(result.team): " + (result.isTimedOut ? "time is up." : "wrong."), .colored(.red))
    }

    private func clockRows(_ state: ClientState, now: Int64) -> [Row] {
        var rows: [Row] = []
        if let team = turnTeam {
            let left = state.remaining(until: turnDeadline, now: now).map { ScreenText.clock($0) } ?? ""
            if state.isMine(team: team) {
                rows.append([
                    Span(" YOUR TURN ", Style(isBold: true, isInverse: true, color: .green)),
                    Span("  type your answer · answer clock ", .bold), Span(left, .colored(.green, bold: true)),
                ])
            } else {
                rows.append([
                    Span(" Answering    ", .bold), Span("\(team) ", .colored(.yellow, bold: true)),
                    Span("· answer clock ", .dim), Span(left, .bold),
                ])
            }
        }
        if let remaining = state.remaining(until: buzzDeadline, now: now) {
            let style: Style = remaining <= 5000 ? .colored(.red, bold: true) : .colored(.yellow, bold: true)
            rows.append([Span(" Buzz clock   ", .bold), Span(ScreenText.clock(remaining), style)])
        }
        return rows
    }
}

extension ClientState {
    /// The Shaky Words view, when that game runs.
    var shaky: ShakyView? { game as? ShakyView }

    /// Whether it is this player's team's turn to answer (Shaky Words).
    var isMyTurn: Bool { shaky?.isMyTurn(self) ?? false }
}
