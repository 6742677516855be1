import Protocol

/// Odd One Out as this client sees it: four words, 1-4 to pick, who locked in, then the reveal.
struct OutsiderView: GameScreen {
    typealias Wire = OutsiderWire

    /// Where the game is.
    enum Phase: Equatable, Sendable { case starting, round, reveal, finished }

    /// The open (or last) round.
    struct Round: Equatable, Sendable {
        var number: Int
        var total: Int
        var words: [String]
        var category: String?
        var difficulty: String?
        var points: Int?
    }

    /// The end of a round.
    struct Reveal: Equatable, Sendable {
        var number: Int
        var outsider: String
        var link: String
        var results: [OutsiderWire.Result]
        /// Host ms when the next round opens, if it opens by itself.
        var nextAt: Int64?
        var isLast: Bool
    }

    var teams: [String] = []
    var roundCount = 0
    var roundSeconds = 0
    var phase = Phase.starting
    var round: Round?
    /// Host ms when the round clock ends.
    var deadline: Int64?
    /// What this player's team picked this round: the word's number (1-4) and the word.
    var myPick: OutsiderWire.Picked?
    /// Who locked in this round as the host last sent it whole or changed it (numbered, for its updates).
    var lockedIn: OutsiderWire.LockedIn?
    /// Who locked in, in press order.
    var locked: [OutsiderWire.LockIn] { lockedIn?.teams ?? [] }
    var reveal: Reveal?
    var standings: [Standing] = []
    /// How many teams the whole table has, when a hall sent only the top and this team's row (PROTOCOL.md §6.0.1).
    var hallTotal: Int?

    init?(intro: OutsiderWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        teams = intro.teams
        roundCount = intro.rounds
        roundSeconds = intro.roundSeconds
        standings = teams.map { Standing(team: $0, score: 0, rank: 1, correct: 0) }
    }

    var isOver: Bool { phase == .finished }

    var title: String {
        switch phase {
        case .finished: "Odd One Out · final"
        case .starting: "Odd One Out"
        case .round, .reveal: "Odd One Out · round \(round?.number ?? 0)/\(round?.total ?? roundCount)"
        }
    }

    static let keyHelp = [
        "  1 2 3 4          Odd One Out: pick the odd one out; your team's first pick is final"
    ]

    // MARK: Messages

    mutating func apply(_ message: OutsiderWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        switch message {
        case .intro(let intro):
            teams = intro.teams
            roundCount = intro.rounds
            roundSeconds = intro.roundSeconds
        case .puzzle(let puzzle):
            if round?.number != puzzle.number || phase == .starting {
                myPick = nil
                lockedIn = nil
                state.awaitingResync.remove(OutsiderWire.LockedIn.type)  // the last round's list is over
                reveal = nil
            }
            round = Round(
                number: puzzle.number, total: puzzle.of, words: puzzle.words, category: puzzle.category,
                difficulty: puzzle.difficulty, points: puzzle.points)
            deadline = state.deadline(puzzle.deadline, remaining: puzzle.remainingMs, now: now)
            phase = .round
        case .picked(let picked):
            myPick = picked
        case .lockedIn(let whole):
            let before = Set(locked.map(\.team))
            lockedIn = state.took(whole)
            return Self.bell(for: whole.teams.filter { !before.contains($0.team) }, state: state)
        case .lockedInUpdate(let update):
            let (next, actions) = state.followed(lockedIn, by: update)
            guard let next else { return actions }  // a list that does not add up is asked for whole
            lockedIn = next
            return Self.bell(for: update.items, state: state)
        case .reveal(let ended):
            phase = .reveal
            deadline = nil
            reveal = Reveal(
                number: ended.number, outsider: ended.outsider, link: ended.link, results: ended.results,
                nextAt: state.deadline(ended.deadline, remaining: ended.nextInMs, now: now), isLast: ended.last)
            if !ended.scores.isEmpty { standings = ShakyView.standings(ended.scores) }
            hallTotal = ended.total
        case .scoreboard(let scoreboard):
            standings = ShakyView.standings(scoreboard.ranking)
            hallTotal = scoreboard.total
            phase = .finished
            deadline = nil
        case .scores(let scores):
            if !scores.ranking.isEmpty { standings = ShakyView.standings(scores.ranking) }
            hallTotal = scores.total
            if scores.final { phase = .finished }
        case .resumed(let resumed):
            if phase == .round { deadline = state.hostDeadline(in: resumed.remainingMs, now: now) }
            if phase == .reveal { reveal?.nextAt = state.hostDeadline(in: resumed.nextInMs, now: now) }
        }
        return []
    }

    /// A bell when another team locked in (a team hears its own lock-in on its screen already).
    private static func bell(for newcomers: [OutsiderWire.LockIn], state: ClientState) -> [ClientAction] {
        newcomers.contains { !state.isMine(team: $0.team) } ? [.bell] : []
    }

    // MARK: Keys and lines

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard state.role == .player, case .character(let character) = key, let number = Int(String(character)),
            (1...4).contains(number)
        else { return nil }
        guard phase == .round else {
            state.setNotice("Nothing to pick right now.", isError: false, at: now)
            return []
        }
        if let myPick {
            state.setNotice("Your team already picked \(myPick.choice) (\(myPick.word)).", isError: false, at: now)
            return []
        }
        return [.play(OutsiderWire.Action.pick(.number(number), pressedAt: now))]
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        switch OutsiderWire.Action.parse(text: line) {
        case .action(.pick(let choice, _))?: return [.play(OutsiderWire.Action.pick(choice, pressedAt: now))]
        case .usage(let usage)?: return [.print("Usage: " + usage)]
        case nil:
            let key = line.lowercased()
            guard phase == .round, round?.words.contains(where: { $0.lowercased() == key }) == true else { return nil }
            return [.play(OutsiderWire.Action.pick(.word(line), pressedAt: now))]
        }
    }

    func keyHints(_ state: ClientState, now: Int64) -> String? {
        guard state.role == .player, phase == .round else { return nil }
        guard let myPick else { return "[1]-[4] pick the odd one out (your pick is final) · [?] help · [q] quit" }
        return "your team picked \(myPick.choice) (\(myPick.word)) · waiting for the others · [?] help"
    }

    /// Where the game stands: a notice ("already picked") belongs to its round.
    var phaseTag: String { "\(phase)-\(round?.number ?? 0)" }

    /// While a round is open and this player's team has not picked, a plain-mode line is the pick.
    func awaitsTypedLine(_ state: ClientState) -> Bool {
        state.role == .player && phase == .round && myPick == nil && !state.isPaused
    }

    /// `1`–`4`, `pick …` or a word of the round (anything else: the host says it is no word of the round).
    func awaited(line: String, state: ClientState, at now: Int64) -> [ClientAction] {
        if case .action(.pick(let choice, _))? = OutsiderWire.Action.parse(text: line) {
            return [.play(OutsiderWire.Action.pick(choice, pressedAt: now))]
        }
        return [.play(OutsiderWire.Action.pick(.word(line), pressedAt: now))]
    }

    // MARK: Drawing

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters style: LetterStyle) -> [Row] {
        var rows: [Row] = []
        switch phase {
        case .starting:
            rows.append([])
            rows.append(ScreenRenderer.indent("Odd One Out! \(roundCount) rounds of \(roundSeconds) s", .bold))
            rows += ScreenRenderer.wrapped("Teams: " + teams.joined(separator: ", "), width: width)
            rows.append(ScreenRenderer.indent("The first four words are coming…"))
        case .round:
            guard let round else { break }
            var heading = "Round \(round.number) of \(round.total)"
            if let category = round.category { heading += " · \(category)" }
            if let points = round.points { heading += " · \(points) points" }
            rows.append(ScreenRenderer.indent(heading, .colored(.yellow, bold: true)))
            rows.append(ScreenRenderer.indent("Three belong together. Which is the odd one out?", .dim))
            rows.append([])
            rows += Self.wordRows(round.words, width: width, picked: myPick?.choice)
            rows.append([])
            if let remaining = state.remaining(until: deadline, now: now) {
                let style: Style = remaining <= 5000 ? .colored(.red, bold: true) : .colored(.yellow, bold: true)
                rows.append([Span(" Time left   ", .bold), Span(ScreenText.clock(remaining), style)])
            }
            if let myPick {
                let text = "Your team picked \(myPick.choice) (\(myPick.word)) — locked in."
                rows.append(ScreenRenderer.indent(text, .colored(.green, bold: true)))
            } else if state.role == .player {
                rows.append(ScreenRenderer.indent("Press 1, 2, 3 or 4. Fast and right scores most!", .bold))
            }
            if !locked.isEmpty {
                var row: Row = [Span(" Locked in   ", .bold)]
                for (index, entry) in locked.enumerated() {
                    if index > 0 { row.append(Span(" · ", .dim)) }
                    row.append(
                        Span(
                            "\(entry.position). \(entry.team)",
                            state.isMine(team: entry.team) ? .colored(.green, bold: true) : .plain))
                }
                rows.append(row)
            }
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: false)
        case .reveal:
            guard let reveal else { break }
            rows.append(ScreenRenderer.indent("Round \(reveal.number) — the odd one out was", .bold))
            rows += ScreenRenderer.lettersBlock(
                reveal.outsider.uppercased(), fixedCount: Int.max, preferred: style, width: width)
            rows += ScreenRenderer.wrapped("The other three: \(reveal.link)", width: width, style: .dim)
            for result in reveal.results {
                let mine = state.isMine(team: result.team)
                let style: Style = result.correct ? .colored(.green, bold: mine) : (mine ? .bold : .plain)
                rows.append(ScreenRenderer.indent(result.summary + (mine ? "  ◀ your team" : ""), style))
            }
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: false)
            rows += moreRows(shown: standings.count)
            if let remaining = state.remaining(until: reveal.nextAt, now: now) {
                rows.append(
                    ScreenRenderer.indent(
                        "\(reveal.isLast ? "Final scores in" : "Next round in") \(ScreenText.clock(remaining))", .bold))
            } else {
                let waiting =
                    reveal.isLast
                    ? "The quizmaster will show the final scores." : "Waiting for the quizmaster's next round…"
                rows.append(ScreenRenderer.indent(waiting, .dim))
            }
        case .finished:
            rows.append([])
            rows += ScreenRenderer.standingsRows(state, standings, width: width, isFinal: true)
            rows += moreRows(shown: standings.count)
            rows.append([])
            rows += ScreenRenderer.winnerRows(standings)
        }
        return rows
    }

    /// ` … and 980 more teams` under a table a hall cut to the top and this team's row; nothing otherwise.
    private func moreRows(shown: Int) -> [Row] {
        let more = Wording.moreTeams(shown: shown, total: hallTotal)
        return more.isEmpty ? [] : [ScreenRenderer.indent(" " + more, .dim)]
    }

    /// The four words, numbered, two to a row when they fit (one to a row otherwise); the picked one marked.
    static func wordRows(_ words: [String], width: Int, picked: Int?) -> [Row] {
        let cells = words.enumerated().map { index, word -> (String, Style) in
            let number = index + 1
            // A neutral mark: ✔ and ✘ are the reveal's verdicts, and a pick is not right until then.
            let mark = picked == number ? " ◀ your pick" : ""
            return (
                "[\(number)] \(word)\(mark)",
                picked == number ? .colored(.yellow, bold: true) : .colored(.cyan, bold: true)
            )
        }
        let cellWidth = (cells.map { ScreenText.width(of: $0.0) }.max() ?? 0) + 4
        if cellWidth * 2 + 3 <= width {
            return stride(from: 0, to: cells.count, by: 2).map { start in
                var row: Row = [Span("   ")]
                for (text, style) in cells[start..<min(start + 2, cells.count)] {
                    row.append(Span(ScreenRenderer.pad(text, cellWidth), style))
                }
                return row
            }
        }
        return cells.map { [Span("   " + $0.0, $0.1)] }
    }
}

/// What OutsiderView does beyond the core every game screen has.
extension OutsiderView: AwaitsTypedLines {}

extension OutsiderWire: ShownWire {
    static var screen: any GameScreen.Type { OutsiderView.self }
}
