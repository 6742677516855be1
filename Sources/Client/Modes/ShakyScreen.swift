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
    /// The quizmaster gave or changed this verdict.
    var isByQuizmaster = false
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
        /// What the team's next shake costs, when the host says.
        var shakeCost: Int?
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
        "  Space or Enter   buzz (Shaky Words) when nothing is typed",
        "  letters          type your answer any time: it waits, and Enter sends it on your turn",
        "  s s / Tab Tab    shake: one more letter in place, the answer is worth less (asks first)",
        "  your turn        Enter sends your answer, Esc clears it",
    ]

    /// Whether it is `state`'s team's turn to answer.
    func isMyTurn(_ state: ClientState) -> Bool { phase == .question && state.isMine(team: turnTeam) }

    var phaseTag: String { "\(phase)-\(question?.number ?? 0)" }

    /// Whether `state`'s team is out for the open question (answered wrong or ran out of time).
    func isOut(_ state: ClientState) -> Bool {
        phase == .question && results.contains { state.isMine(team: $0.team) && !$0.isCorrect }
    }

    /// `state`'s team's place in the buzz order (1 first), if it buzzed.
    func place(_ state: ClientState) -> Int? {
        buzzOrder.firstIndex { state.isMine(team: $0.team) }.map { $0 + 1 }
    }

    /// Whether buzzing is open for this question (the host closes it; a clock at zero is about to close).
    var isBuzzOpen: Bool { phase == .question && buzzDeadline != nil }

    /// Why `state`'s team cannot shake now, or nil when it can.
    func whyNoShake(_ state: ClientState) -> String? {
        guard phase == .question, let question else { return "There is nothing to shake right now." }
        if isOut(state) { return "Your team is out for this question." }
        if !isBuzzOpen && place(state) == nil { return "Buzzing is closed, so your team cannot answer this one." }
        let letters = question.letters.filter { $0.isLetter || $0.isNumber }.count
        if letters - question.fixedCount - 1 < 2 { return "No more shakes: that would give the answer away." }
        return nil
    }

    /// "shake: −50 points" (or just "shake" when the host did not say).
    func shakeWording() -> String { question?.shakeCost.map { "shake: −\($0) points" } ?? "shake: fewer points" }

    /// `Red is 2nd in line`.
    func lineWording(_ state: ClientState) -> String? {
        guard let place = place(state) else { return nil }
        let team = buzzOrder[place - 1].team
        if state.isMine(team: turnTeam) { return "\(team) is on turn" }
        return "\(team) is \(ScreenText.ordinal(place)) in line"
    }

    /// The wire's quiz standings as the screen draws them (Shaky Words and Odd One Out alike).
    static func standings(_ entries: [ShakyWire.Standing]) -> [Standing] {
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
                fixedCount: opened.fixed, difficulty: opened.difficulty, points: opened.points,
                shakeCost: opened.shakeCost)
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
            // A draft typed before the turn waits for it; what is left when the team's turn ends goes.
            if state.isMine(team: turnTeam) && !state.isMine(team: turn.team) { state.ui.answer = "" }
            turnTeam = turn.team
            turnDeadline = state.deadline(turn.deadline, remaining: turn.remainingMs, now: now)
            if state.isMine(team: turn.team) { actions.append(.bell) }
        case .hint(let hint):
            question?.letters = hint.letters
            question?.fixedCount = hint.fixed
            question?.points = hint.points
            question?.shakeCost = hint.shakeCost
        case .result(let result):
            if judgingTeam?.lowercased() == result.team.lowercased() { judgingTeam = nil }
            if result.byQuizmaster == true, result.correct {
                results.removeAll { $0.team.lowercased() == result.team.lowercased() }  // the quizmaster's verdict
            }
            results.append(
                AnswerResult(
                    team: result.team, isCorrect: result.correct, points: result.points, isTimedOut: result.timedOut,
                    isMisspelling: result.misspelled == true, isByQuizmaster: result.byQuizmaster == true))
            if turnTeam?.lowercased() == result.team.lowercased() {
                turnTeam = nil
                turnDeadline = nil
            }
            if state.isMine(team: result.team) && !result.correct { state.ui.answer = "" }
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
            // An overrule of the question on screen changes its reveal; one of the question before only the scores.
            let isShown = overruled.question == nil || (phase == .reveal && overruled.question == reveal?.number)
            if isShown { applyOverrule(team: overruled.team, isCorrect: overruled.correct, points: overruled.points) }
            let change = overruled.points >= 0 ? "+\(overruled.points)" : "\(overruled.points)"
            let which = isShown ? "" : overruled.question.map { " to question \($0)" } ?? ""
            state.setNotice(
                "The quizmaster counts \(overruled.team)'s answer\(which) as \(overruled.correct ? "right" : "wrong") "
                    + "(\(change)).",
                isError: false, at: now)
        case .resumed(let resumed):
            if buzzDeadline != nil || resumed.buzzRemainingMs != nil {
                buzzDeadline = state.hostDeadline(in: resumed.buzzRemainingMs, now: now)
            }
            if turnTeam != nil { turnDeadline = state.hostDeadline(in: resumed.answerRemainingMs, now: now) }
            if phase == .reveal { reveal?.nextAt = state.hostDeadline(in: resumed.nextInMs, now: now) }
        }
        return actions
    }

    /// Shows the quizmaster's changed verdict in the reveal: who scored, and the team's result.
    private mutating func applyOverrule(team: String, isCorrect: Bool, points: Int) {
        let same = { (other: String) in other.lowercased() == team.lowercased() }
        if let index = results.lastIndex(where: { same($0.team) }) {
            results[index].isCorrect = isCorrect
            results[index].points = isCorrect ? points : 0
            results[index].isByQuizmaster = true
        } else if isCorrect {
            results.append(
                AnswerResult(
                    team: team, isCorrect: true, points: points, isTimedOut: false, isMisspelling: false,
                    isByQuizmaster: true))
        }
        guard var shown = reveal else { return }
        if isCorrect, shown.scorer == nil {
            shown.scorer = team
            shown.points = points
        } else if !isCorrect, let scorer = shown.scorer, same(scorer) {
            shown.scorer = results.first { $0.isCorrect && !same($0.team) }?.team
            shown.points = results.first { $0.isCorrect && !same($0.team) }?.points ?? 0
        }
        reveal = shown
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
    //
    // No single key costs anything by accident: before the turn, letters are a draft answer (Space inside it is a
    // space); Space or Enter buzz only with nothing typed (Enter with a draft buzzes and keeps it for the turn);
    // a shake asks first with its cost ("shake: −50 points, press s again"), and typing on instead keeps the `s`.

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        if isMyTurn(state), let actions = editAnswer(key, state: &state, at: now) { return actions }
        guard state.role == .player else { return nil }
        guard phase == .question else {
            guard key == .character(" ") || key == .enter else { return nil }
            state.setNotice("Nothing to buzz for right now.", isError: false, at: now)
            return []
        }
        return handleBeforeTurn(key, state: &state, at: now)
    }

    /// A key while a question is open and it is not this team's turn: a draft, a buzz, or a shake to confirm.
    private func handleBeforeTurn(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        let draft = state.ui.answer
        switch key {
        case .character(let character):
            if draft.isEmpty {
                switch character {
                case ":", "?": return nil
                case " ": return buzz(state: &state, at: now)
                case "q", "Q":
                    state.ui.confirmation = .quit(typedSoFar: isOut(state) ? "" : String(character))
                    return []
                case "s", "S":
                    guard whyNoShake(state) == nil else { break }  // only a letter then
                    state.ui.confirmation = shakeConfirmation(key: key, typedSoFar: String(character))
                    return []
                default: break
                }
            }
            if isOut(state) {
                let out = "Your team is out for this question; the next one is yours again."
                state.setNotice(out, isError: false, at: now)
                return []
            }
            if draft.count < ClientState.inputLimit { state.ui.answer.append(character) }
            return []
        case .enter:
            return buzz(state: &state, at: now)
        case .tab:
            if let why = whyNoShake(state) {
                state.setNotice(why, isError: false, at: now)
            } else {
                state.ui.confirmation = shakeConfirmation(key: .tab, typedSoFar: "")
            }
            return []
        case .backspace:
            if draft.isEmpty { return nil }
            state.ui.answer.removeLast()
            return []
        case .escape, .control(0x15):
            if draft.isEmpty { return nil }
            state.ui.answer = ""
            return []
        default:
            return nil
        }
    }

    /// Buzzes if this team can; otherwise says where it stands.
    private func buzz(state: inout ClientState, at now: Int64) -> [ClientAction] {
        let hasDraft = !state.ui.answer.isEmpty
        if isOut(state) {
            state.setNotice("Your team is out for this question.", isError: false, at: now)
        } else if let line = lineWording(state) {
            let next =
                hasDraft ? "Enter sends your answer on your turn." : "Type your answer now; it waits for your turn."
            state.setNotice("\(line). \(next)", isError: false, at: now)
        } else if !isBuzzOpen {
            state.setNotice("Buzzing is closed for this question.", isError: false, at: now)
        } else {
            if hasDraft {
                state.setNotice("Buzzed! Your answer waits: Enter sends it on your turn.", isError: false, at: now)
            }
            return [.play(ShakyWire.Action.buzz(pressedAt: now))]
        }
        return []
    }

    /// The question before a shake: its cost, and which key says yes.
    private func shakeConfirmation(key: Key, typedSoFar: String) -> Confirmation {
        let keys: [Key] = key == .tab ? [.tab] : [.character("s"), .character("S")]
        let again = key == .tab ? "Tab" : "s"
        return Confirmation(
            question: "\(shakeWording()), press \(again) again"
                + (typedSoFar.isEmpty ? "" : " (or type on: an answer)"),
            keys: keys, actions: [.play(ShakyWire.Action.shake)], declined: "Not shaken.", typedSoFar: typedSoFar)
    }

    /// Edits the answer line on your team's turn; nil when the key is not for it.
    private func editAnswer(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        switch key {
        case .tab:
            if let why = whyNoShake(state) {
                state.setNotice(why, isError: false, at: now)
            } else {
                state.ui.confirmation = shakeConfirmation(key: .tab, typedSoFar: "")
            }
            return []
        default:
            switch state.editAnswerLine(key) {
            case .submitted(let text): return [.play(ShakyWire.Action.answer(text))]
            case .empty: state.setNotice("Type your answer, then press Enter.", isError: false, at: now)
            case .notEditing: if case .character = key { return nil }  // `:` and `?` open the command line, help
            case .edited: break
            }
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

    func awaitsTypedLine(_ state: ClientState) -> Bool { isMyTurn(state) }

    func awaited(line: String, state: ClientState, at now: Int64) -> [ClientAction] {
        [.play(ShakyWire.Action.answer(line))]
    }

    func keyHints(_ state: ClientState, now: Int64) -> String? {
        let shake = whyNoShake(state) == nil ? " · Tab \(shakeWording())" : ""
        if isMyTurn(state) { return "type your answer · Enter sends\(shake) · Esc clears · Ctrl-C leaves" }
        guard state.role == .player, phase == .question else { return nil }
        if isOut(state) { return "your team is out for this question · ? help · q quit" }
        if let line = lineWording(state) { return "\(line) · type your answer: Enter sends it on your turn\(shake)" }
        guard isBuzzOpen else { return "buzzing is closed for this question · ? help · q quit" }
        if !state.ui.answer.isEmpty { return "Enter buzzes (your answer waits for your turn) · Esc clears\(shake)" }
        let shakeKey = whyNoShake(state) == nil ? " · [s] \(shakeWording())" : ""
        // The keys first: a narrow footer cuts the end, and typing a draft explains itself.
        return "[Space]/[Enter] buzz\(shakeKey) · type to draft your answer · [?] help · [q] quit"
    }

    func inputRow(_ state: ClientState) -> Row? {
        if isMyTurn(state) {
            return state.answerRow(" Your answer › ")
        }
        guard state.role == .player, phase == .question, !state.ui.answer.isEmpty || place(state) != nil else {
            return nil
        }
        return state.answerRow(" Draft answer › ", isDraft: true) + [Span("   sent with Enter on your turn", .dim)]
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
                    ScreenRenderer.indent(
                        "\(whose) is with the quizmaster — waiting for the verdict…", .colored(.yellow)))
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
            let byQuizmaster = { (team: String) in
                results.contains { $0.team.lowercased() == team.lowercased() && $0.isByQuizmaster && $0.isCorrect }
            }
            if let scorer = reveal.scorer {
                let forgiven = results.contains { $0.isCorrect && $0.isMisspelling && $0.team == scorer }
                rows.append(
                    ScreenRenderer.indent(
                        "✔ \(scorer) scored \(reveal.points) points"
                            + (byQuizmaster(scorer) ? " (the quizmaster's verdict)" : "")
                            + (forgiven ? " (a small misspelling was forgiven)" : "")
                            + (state.isMine(team: scorer) ? " — that's your team!" : ""),
                        .colored(.green, bold: true)))
            } else {
                rows.append(ScreenRenderer.indent("Nobody got it this time.", .colored(.yellow)))
            }
            for result in results
            where result.isCorrect && result.isByQuizmaster
                && result.team.lowercased() != reveal.scorer?.lowercased()
            {
                rows.append(
                    ScreenRenderer.indent(
                        "✔ \(result.team) counted right by the quizmaster, +\(result.points)", .colored(.green)))
            }
            for result in results where !result.isCorrect { rows.append(ShakyView.resultRow(result)) }
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: false)
            rows.append([])
            if let remaining = state.remaining(until: reveal.nextAt, now: now) {
                let next = reveal.isLast ? "Final scores" : "Next question"
                let when = remaining > 0 ? " in \(ScreenText.clock(remaining))" : ": any moment now"
                rows.append(ScreenRenderer.indent(next + when, .bold))
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
                "✔ \(result.team) is right" + (result.isMisspelling ? " (misspelling forgiven)" : "")
                    + "! +\(result.points)",
                .colored(.green, bold: true))
        }
        return ScreenRenderer.indent(
            "✘ \(result.team): " + (result.isTimedOut ? "time is up." : "wrong."), .colored(.red))
    }

    private func clockRows(_ state: ClientState, now: Int64) -> [Row] {
        var rows: [Row] = []
        let stopped = state.unreachableSince == nil ? "" : "  (stopped: the host is unreachable)"
        if let team = turnTeam {
            let left = (state.remaining(until: turnDeadline, now: now).map { ScreenText.countdown($0) } ?? "") + stopped
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
            rows.append([Span(" Buzz clock   ", .bold), Span(ScreenText.countdown(remaining) + stopped, style)])
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

/// What ShakyView does beyond the core every game screen has.
extension ShakyView: ShowsInputRow, AwaitsTypedLines {}

extension ShakyWire: ShownWire {
    static var screen: any GameScreen.Type { ShakyView.self }
}
