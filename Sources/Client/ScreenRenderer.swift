import Protocol

/// How the screen is drawn.
struct RenderOptions: Equatable, Sendable {
    /// Colours (off with NO_COLOR or --no-color); bold and inverse stay.
    var isColorEnabled = true
    /// Any escape codes at all (off gives plain text, handy for tests and dumb terminals).
    var isStyled = true

    /// Plain text, no escapes.
    static let plainText = RenderOptions(isColorEnabled: false, isStyled: false)
}

/// The full-screen view: a pure function from the state, the screen size and the time to screen lines.
func render(_ state: ClientState, width: Int, height: Int, now: Int64, options: RenderOptions) -> [String] {
    ScreenRenderer.render(state, width: width, height: height, now: now, options: options)
}

/// Draws `ClientState` as screen lines; every line fits `width` columns and there are exactly `height` of them.
enum ScreenRenderer {
    /// How letters are drawn, largest first.
    enum LetterStyle: CaseIterable, Sendable {
        case big, boxed, compact, spaced
    }

    static func render(_ state: ClientState, width rawWidth: Int, height rawHeight: Int, now: Int64, options: RenderOptions) -> [String] {
        let width = max(20, rawWidth)
        let height = max(6, rawHeight)
        let header = headerRows(state, width: width)
        let footer = footerRows(state, width: width, now: now)
        let bodyHeight = max(0, height - header.count - footer.count)
        var body: [Row] = []
        for style in LetterStyle.allCases {
            body = bodyRows(state, width: width, height: bodyHeight, now: now, letterStyle: style)
            if body.count <= bodyHeight { break }
        }
        if body.count > bodyHeight { body = Array(body.prefix(bodyHeight)) }
        let padding = Array(repeating: Row(), count: max(0, bodyHeight - body.count))
        let rows = Array((header + body + padding + footer).prefix(max(0, rawHeight)))
        return rows.map { row in
            ScreenText.encode(ScreenText.truncate(row, to: rawWidth > 0 ? min(width, rawWidth) : width),
                              isStyled: options.isStyled, isColorEnabled: options.isColorEnabled)
        }
    }

    // MARK: Frame

    static func headerRows(_ state: ClientState, width: Int) -> [Row] {
        var left = " PARTYLINE"
        if !state.room.isEmpty { left += " · room \(state.room)" }
        switch state.role {
        case .player:
            if !state.name.isEmpty {
                left += " · \(state.name)" + (state.team.isEmpty || state.team == state.name ? "" : " (\(state.team))")
            }
        case .board: left += " · board"
        case .admin: left += " · operator"
        }
        var right: String
        switch state.game {
        case .shaky(let shaky)?:
            right = "Shaky Words"
            if let question = shaky.question, shaky.phase != .finished { right += " · question \(question.number)/\(question.total)" }
            if shaky.phase == .finished { right += " · final" }
        case .queen(let queen)?:
            right = "The Queen's game"
            if let round = queen.round { right += " · round \(round.number)" }
        case nil:
            right = "lobby"
        }
        if state.isPaused { right += " · PAUSED" }
        right += " "
        return [spread(Span(left, Style(isBold: true, isInverse: true)), Span(right, Style(isInverse: true)), width: width, fill: true),
                [Span(String(repeating: "─", count: width), .dim)]]
    }

    /// `left` and `right` on one row, `right` flush right; left is cut first when they do not fit.
    static func spread(_ left: Span, _ right: Span, width: Int, fill: Bool = false) -> Row {
        let rightWidth = ScreenText.width(of: right.text)
        let leftText = ScreenText.truncate(left.text, to: max(0, width - rightWidth - 1))
        let gap = max(1, width - ScreenText.width(of: leftText) - rightWidth)
        if rightWidth + 1 > width { return [Span(ScreenText.truncate(left.text, to: width), left.style)] }
        return [Span(leftText, left.style), Span(String(repeating: " ", count: gap), fill ? left.style : .plain), right]
    }

    static func footerRows(_ state: ClientState, width: Int, now: Int64) -> [Row] {
        var rows: [Row] = []
        if state.ui.isConfirmingQuit {
            rows.append([Span(" Leave the game? Press y to quit, any other key to stay. ", Style(isBold: true, isInverse: true, color: .yellow))])
        } else if let notice = state.visibleNotice(now: now) {
            let text = notice.text.replacingOccurrences(of: "\n", with: " ")
            rows.append(notice.isError ? [Span(" ! " + text, .colored(.red, bold: true))] : [Span(" › " + text, .colored(.cyan))])
        }
        switch state.ui.mode {
        case .command: rows.append([Span(" : ", .bold), Span(state.ui.text), Span("█", .dim)])
        case .search: rows.append([Span(" Search the library: ", .bold), Span(state.ui.text), Span("█", .dim), Span("   Enter searches · Esc cancels", .dim)])
        case .order(let save):
            rows.append([Span(" Your order: ", .bold), Span(state.ui.text), Span("█", .dim),
                         Span("   Tab: save to library \(save ? "ON" : "off") · {1} {2} = numbers, {queen} = you", .dim)])
        case .none:
            if state.isMyTurn {
                rows.append([Span(" Your answer › ", .colored(.green, bold: true)), Span(state.ui.answer, .bold), Span("█", .dim)])
            }
        }
        rows.append(spread(Span(" " + keyHints(state), .dim), linkSpan(state, now: now), width: width))
        return rows
    }

    static func keyHints(_ state: ClientState) -> String {
        if state.ui.mode != .none { return "Enter sends · Esc cancels" }
        if state.ui.isHelpShown || state.ui.panel != nil { return "any key closes" }
        if state.isMyTurn { return "type · Enter sends · Tab shake · Esc clears · Ctrl-C quits" }
        if state.isChoosingQueen { return "↑↓ choose · Enter order it · / search · o own order · ? help" }
        switch state.role {
        case .board: return "? help · q quit"
        case .admin: return ": command (start, next, pause, continue, end, kick) · ? help · q quit"
        case .player:
            if let shaky = state.shaky, shaky.phase == .question { return "Space/Enter buzz · s shake · : command · ? help · q quit" }
            return ": command · ? help · q quit"
        }
    }

    static func linkSpan(_ state: ClientState, now: Int64) -> Span {
        switch state.link {
        case .connecting: return Span("◌ connecting… ", .colored(.yellow))
        case .joined:
            let detail = state.clock.isMeasured ? " ±\(state.clock.uncertainty ?? 1) ms" : ""
            return Span("● connected\(detail) ", .colored(.green))
        case .reconnecting(let attempt, let nextAt):
            let wait = max(0, nextAt - now)
            return Span("◌ reconnecting… (try \(attempt)\(wait > 0 ? ", in \(ScreenText.clock(wait))" : "")) ", .colored(.yellow, bold: true))
        case .closed: return Span("✘ disconnected ", .colored(.red, bold: true))
        }
    }

    // MARK: Body

    static func bodyRows(_ state: ClientState, width: Int, height: Int, now: Int64, letterStyle: LetterStyle) -> [Row] {
        if state.ui.isHelpShown { return helpRows(state, width: width) }
        if let panel = state.ui.panel { return panelRows(title: state.ui.panelTitle, lines: panel, width: width, height: height) }
        var rows: [Row]
        switch state.game {
        case .shaky(let shaky)?: rows = shakyRows(state, shaky, width: width, now: now, letterStyle: letterStyle)
        case .queen(let queen)?: rows = queenRows(state, queen, width: width, height: height, now: now, letterStyle: letterStyle)
        case nil: rows = lobbyRows(state, width: width, letterStyle: letterStyle)
        }
        if case .reconnecting = state.link {
            rows.insert([Span(" Connection lost — reconnecting… you keep your place.", .colored(.yellow, bold: true))], at: 0)
        }
        if state.role == .board, rows.count + 3 <= height, !state.recent.isEmpty {
            let room = height - rows.count - 2
            rows.append([])
            rows.append([Span(" Recent", .dim)])
            for line in state.recent.suffix(max(0, room)) { rows.append([Span("  " + line, .dim)]) }
        }
        return rows
    }

    static func indent(_ text: String, _ style: Style = .plain) -> Row { [Span(" " + text, style)] }

    static func wrapped(_ text: String, width: Int, style: Style = .plain) -> [Row] {
        ScreenText.wrap(text, to: max(1, width - 2)).map { indent($0, style) }
    }

    static func helpRows(_ state: ClientState, width: Int) -> [Row] {
        var lines = ["Keys"]
        switch state.role {
        case .player:
            lines += ["  Space or Enter   buzz (Shaky Words)",
                      "  s                shake: one more letter in place, the answer is worth less",
                      "  your turn        type the answer, Enter sends, Tab shakes, Esc clears",
                      "  Queen            ↑↓ choose a command, Enter gives it, / search, o your own order",
                      "  :                command line: :scores, :pick ID, :order TEXT, :commands TEXT"]
        case .board:
            lines += ["  This screen only watches. Put it on the projector."]
        case .admin:
            lines += ["  :start shaky [N] [easy|medium|hard|mixed] [PACKS] [key=value]   e.g. :start shaky 10 mixed",
                      "  :start queen [key=value]      :next  :pause  :continue  :end  :kick NAME",
                      "  :status  :scores  :packs  :pack show ID  :library search TEXT"]
        }
        lines += ["  ?                this help (any key closes it)",
                  "  q                quit (asks first during a game) · Ctrl-C quits at once"]
        return lines.enumerated().map { index, line in indent(ScreenText.truncate(line, to: width - 1), index == 0 ? .bold : .plain) }
    }

    static func panelRows(title: String, lines: [String], width: Int, height: Int) -> [Row] {
        var rows: [Row] = [indent(title, .bold)]
        let room = max(1, height - 2)
        for line in lines.prefix(lines.count > room ? room - 1 : room) { rows.append(indent(" " + line)) }
        if lines.count > room { rows.append(indent("  … \(lines.count - room + 1) more", .dim)) }
        return rows
    }

    static func lobbyRows(_ state: ClientState, width: Int, letterStyle: LetterStyle) -> [Row] {
        var rows: [Row] = [[]]
        switch state.link {
        case .connecting: rows.append(indent("Joining room \(state.room)…", .bold))
        case .closed(let reason): rows.append(indent(reason, .colored(.red, bold: true)))
        default:
            switch state.role {
            case .admin: rows.append(indent("No game is running. Start one: :start shaky 10 mixed  or  :start queen", .bold))
            default: rows.append(indent("Waiting for the operator to start a game…", .bold))
            }
        }
        if state.role == .board, !state.room.isEmpty {
            rows.append([])
            rows.append(indent("Join with:  partyline \(state.hostAddress.isEmpty ? "HOST" : state.hostAddress) --room \(state.room)"))
            rows.append(indent("Room code", .dim))
            rows += lettersBlock(state.room, fixedCount: 0, preferred: letterStyle, width: width)
        }
        rows.append([])
        rows += teamRows(state, width: width)
        return rows
    }

    static func teamRows(_ state: ClientState, width: Int) -> [Row] {
        guard !state.lobby.isEmpty else { return [indent("Nobody has joined yet.", .dim)] }
        var rows: [Row] = [indent("Teams", .bold)]
        let teams = state.teams.isEmpty ? Array(Set(state.lobby.map(\.team))).sorted() : state.teams
        let nameWidth = min(16, (teams.map { ScreenText.width(of: $0) }.max() ?? 4) + 2)
        for team in teams {
            var row: Row = [Span("   "), Span(pad(team, nameWidth), state.isMine(team: team) ? .colored(.green, bold: true) : .bold)]
            for player in state.lobby where player.team.lowercased() == team.lowercased() {
                row.append(Span(player.isConnected ? "●" : "○", player.isConnected ? .colored(.green) : .dim))
                row.append(Span(" " + player.name + (player.isConnected ? "" : " (away)") + "  ",
                                player.name == state.name && state.role == .player ? .bold : (player.isConnected ? .plain : .dim)))
            }
            rows.append(row)
        }
        return rows
    }

    static func pad(_ text: String, _ columns: Int) -> String {
        let cut = ScreenText.truncate(text, to: columns)
        return cut + String(repeating: " ", count: max(0, columns - ScreenText.width(of: cut)))
    }

    // MARK: Letters

    /// `letters` in the largest style from `preferred` down that fits `width` (spacing always fits).
    static func lettersBlock(_ letters: String, fixedCount: Int, preferred: LetterStyle, width: Int) -> [Row] {
        let styles = LetterStyle.allCases.drop { $0 != preferred }
        for style in styles {
            if let rows = letterRows(letters, fixedCount: fixedCount, style: style, width: width) { return rows }
        }
        return [indent(letters, .bold)]
    }

    /// `letters` drawn in `style`, centred in `width`; nil when it does not fit that style.
    static func letterRows(_ letters: String, fixedCount: Int, style: LetterStyle, width: Int) -> [Row]? {
        let characters = Array(letters)
        guard !characters.isEmpty else { return [] }
        // which positions are already right (the first `fixedCount` letters or digits)
        var fixed: [Bool] = []
        var seen = 0
        for character in characters {
            let isLetter = character.isLetter || character.isNumber
            fixed.append(isLetter && seen < fixedCount)
            if isLetter { seen += 1 }
        }
        let letterStyle = Style(isBold: true, color: .cyan)
        let fixedStyle = Style(isBold: true, color: .green)
        func spanStyle(at index: Int) -> Style { fixed[index] ? fixedStyle : letterStyle }
        let available = width - 2
        var rows: [Row]
        switch style {
        case .big:
            guard BigFont.canRender(letters), BigFont.width(of: letters) <= available else { return nil }
            rows = (0..<BigFont.height).map { line in
                var row: Row = []
                for (index, character) in characters.enumerated() {
                    if index > 0 { row.append(Span(" ")) }
                    row.append(Span(BigFont.glyph(character)[line], spanStyle(at: index)))
                }
                return row
            }
        case .boxed, .compact:
            let inner = style == .boxed ? 3 : 1
            let cell = inner + 2
            guard characters.count * (cell + 1) - 1 <= available,
                  characters.allSatisfy({ ScreenText.width(of: $0) == 1 || $0 == " " }) else { return nil }
            let pad = String(repeating: " ", count: (inner - 1) / 2)
            let shapes: [(Character) -> String] = [
                { $0 == " " ? String(repeating: " ", count: cell) : "┌" + String(repeating: "─", count: inner) + "┐" },
                { $0 == " " ? String(repeating: " ", count: cell) : "│" + pad + String($0) + pad + "│" },
                { $0 == " " ? String(repeating: " ", count: cell) : "└" + String(repeating: "─", count: inner) + "┘" },
            ]
            rows = shapes.map { shape in
                var row: Row = []
                for (index, character) in characters.enumerated() {
                    if index > 0 { row.append(Span(" ")) }
                    row.append(Span(shape(character), spanStyle(at: index)))
                }
                return row
            }
        case .spaced:
            var row: Row = []
            for (index, character) in characters.enumerated() {
                if index > 0 { row.append(Span(" ")) }
                row.append(Span(String(character), spanStyle(at: index)))
            }
            guard ScreenText.width(of: row) <= available else {
                return ScreenText.wrap(EventText.spaced(letters), to: available).map { indent($0, letterStyle) }
            }
            rows = [row]
        }
        let blockWidth = rows.map { ScreenText.width(of: $0) }.max() ?? 0
        let margin = String(repeating: " ", count: max(1, (width - blockWidth) / 2))
        return rows.map { [Span(margin)] + $0 }
    }

    // MARK: Shaky Words

    static func standingsRows(_ state: ClientState, _ standings: [Standing], width: Int, isFinal: Bool) -> [Row] {
        guard !standings.isEmpty else { return [] }
        if !isFinal && standings.count > 4 {
            return [[Span(" Scores   ", .bold)] + standings.enumerated().flatMap { index, standing -> [Span] in
                [Span(index == 0 ? "" : " · "), Span("#\(standing.rank) \(standing.team) \(standing.score)",
                                                      state.isMine(team: standing.team) ? .colored(.green, bold: true) : .plain)]
            }]
        }
        var rows: [Row] = [indent(isFinal ? "FINAL SCOREBOARD" : "Scores", isFinal ? Style(isBold: true, color: .yellow) : .bold)]
        let nameWidth = min(24, (standings.map { ScreenText.width(of: $0.team) }.max() ?? 4) + 2)
        for standing in standings {
            let mine = state.isMine(team: standing.team)
            var text = "  #\(standing.rank)  " + pad(standing.team, nameWidth) + "\(standing.score) points"
            if let correct = standing.correct { text += "   \(correct) correct" }
            if mine { text += "   ◀ your team" }
            rows.append(indent(text, mine ? .colored(.green, bold: true) : (standing.rank == 1 && isFinal ? .bold : .plain)))
        }
        return rows
    }

    static func shakyRows(_ state: ClientState, _ shaky: ShakyView, width: Int, now: Int64, letterStyle: LetterStyle) -> [Row] {
        var rows: [Row] = []
        switch shaky.phase {
        case .starting:
            rows.append([])
            rows.append(indent("Shaky Words! \(shaky.questionCount) questions · teams: \(shaky.teams.joined(separator: ", "))", .bold))
            rows.append(indent("The first question is coming…"))
        case .question:
            guard let question = shaky.question else { break }
            rows.append(indent("Question \(question.number) of \(question.total) · \(question.difficulty) · \(question.points) points",
                               .colored(.yellow, bold: true)))
            rows += wrapped(question.text, width: width, style: .bold)
            rows.append([])
            rows += lettersBlock(question.letters, fixedCount: question.fixedCount, preferred: letterStyle, width: width)
            rows.append([])
            rows += clockRows(state, shaky, now: now)
            if !shaky.buzzOrder.isEmpty {
                var row: Row = [Span(" Buzz order   ", .bold)]
                for (index, entry) in shaky.buzzOrder.enumerated() {
                    if index > 0 { row.append(Span(" · ", .dim)) }
                    row.append(Span(EventText.buzzOrder([entry]), state.isMine(team: entry.team) ? .colored(.green, bold: true) : .plain))
                }
                rows.append(row)
            }
            if state.role == .player, question.fixedCount > 0 {
                rows.append(indent("Your hint    \(question.fixedCount) letter\(question.fixedCount == 1 ? "" : "s") in place (green) · now worth \(question.points) points",
                                   .colored(.green)))
            }
            if let last = shaky.results.last {
                rows.append(resultRow(last))
            }
            rows.append([])
            rows += standingsRows(state, shaky.standings, width: width, isFinal: false)
        case .reveal:
            guard let reveal = shaky.reveal else { break }
            rows.append(indent("Question \(reveal.number)\(shaky.question.map { " of \($0.total)" } ?? "") — the answer was", .bold))
            if let text = shaky.question?.text { rows += wrapped(text, width: width, style: .dim) }
            rows += lettersBlock(reveal.answer.uppercased(), fixedCount: Int.max, preferred: letterStyle, width: width)
            if let scorer = reveal.scorer {
                rows.append(indent("✔ \(scorer) scored \(reveal.points) points" + (state.isMine(team: scorer) ? " — that's your team!" : ""),
                                   .colored(.green, bold: true)))
            } else {
                rows.append(indent("Nobody got it this time.", .colored(.yellow)))
            }
            for result in shaky.results where !result.isCorrect { rows.append(resultRow(result)) }
            rows.append([])
            rows += standingsRows(state, shaky.standings, width: width, isFinal: false)
            rows.append([])
            if let remaining = state.remaining(until: reveal.nextAt, now: now) {
                rows.append(indent("Next question in \(ScreenText.clock(remaining))", .bold))
            } else if reveal.isLast {
                rows.append(indent("That was the last question — the final scores are next.", .bold))
            } else {
                rows.append(indent("The operator starts the next question.", .dim))
            }
        case .finished:
            rows.append([])
            rows += standingsRows(state, shaky.standings, width: width, isFinal: true)
            rows.append([])
            if let winner = shaky.standings.first {
                let winners = shaky.standings.filter { $0.rank == winner.rank }.map(\.team)
                rows.append(indent(winners.count > 1 ? "A tie at the top: \(winners.joined(separator: " and "))!" : "\(winner.team) wins!",
                                   Style(isBold: true, color: .yellow)))
            }
            rows.append(indent("Thanks for playing! Wait here for the next game.", .dim))
        }
        return rows
    }

    static func resultRow(_ result: AnswerResult) -> Row {
        if result.isCorrect {
            return indent("✔ \(result.team) is right" + (result.isMisspelling ? " (misspelling forgiven)" : "") + "! +\(result.points)",
                          .colored(.green, bold: true))
        }
        return indent("✘ \(result.team): " + (result.isTimedOut ? "time is up." : "wrong."), .colored(.red))
    }

    static func clockRows(_ state: ClientState, _ shaky: ShakyView, now: Int64) -> [Row] {
        var rows: [Row] = []
        if let team = shaky.turnTeam {
            let left = state.remaining(until: shaky.turnDeadline, now: now).map { ScreenText.clock($0) } ?? ""
            if state.isMine(team: team) {
                rows.append([Span(" YOUR TURN ", Style(isBold: true, isInverse: true, color: .green)),
                             Span("  type your answer · answer clock ", .bold), Span(left, .colored(.green, bold: true))])
            } else {
                rows.append([Span(" Answering    ", .bold), Span("\(team) ", .colored(.yellow, bold: true)),
                             Span("· answer clock ", .dim), Span(left, .bold)])
            }
        }
        if let remaining = state.remaining(until: shaky.buzzDeadline, now: now) {
            let style: Style = remaining <= 5000 ? .colored(.red, bold: true) : .colored(.yellow, bold: true)
            rows.append([Span(" Buzz clock   ", .bold), Span(ScreenText.clock(remaining), style)])
        }
        return rows
    }

    // MARK: The Queen's game

    static func queenRows(_ state: ClientState, _ queen: QueenView, width: Int, height: Int, now: Int64, letterStyle: LetterStyle) -> [Row] {
        var rows: [Row] = []
        guard let round = queen.round else {
            if queen.phase == .ended {
                rows.append([])
                rows.append(indent("The Queen's game is over. \(queen.endReason ?? "")", .bold))
                rows.append(indent("Thanks for playing! Wait here for the next game.", .dim))
            } else {
                rows.append([])
                rows.append(indent("The Queen's game · players: \(queen.players.joined(separator: ", "))", .bold))
                rows.append(indent("Dealing the numbers…", .dim))
            }
            return rows
        }
        let isQueen = state.role == .player && round.queen == state.name
        rows.append(indent("Round \(round.number) · Queen: \(round.queen)" + (isQueen ? " (you!)" : ""), .colored(.magenta, bold: true)))
        switch queen.phase {
        case .choosing, .waiting:
            if isQueen {
                rows.append(indent("You are the Queen! Choose an order for your numbered citizens.", Style(isBold: true, color: .yellow)))
                rows.append(indent("{1}, {2}… stand for the secret numbers; nobody (not even you) knows who is who.", .dim))
                if let remaining = state.remaining(until: round.chooseDeadline, now: now) {
                    rows.append([Span(" Time to choose  ", .bold), Span(ScreenText.clock(remaining), .colored(.yellow, bold: true))])
                }
                rows.append([])
                rows += libraryRows(state, round: round, width: width, height: max(3, height - rows.count - 1))
            } else {
                rows.append([])
                rows += secretRows(state, queen, width: width, letterStyle: letterStyle)
                rows.append([])
                var row: Row = [Span(" \(round.queen) is choosing an order…", .bold)]
                if let remaining = state.remaining(until: round.chooseDeadline, now: now) {
                    row.append(Span("  " + ScreenText.clock(remaining), .colored(.yellow, bold: true)))
                }
                rows.append(row)
            }
        case .countdown:
            if let order = queen.order {
                rows.append([])
                rows.append(indent("The Queen commands:", .bold))
                rows += wrapped(order.text, width: width, style: Style(isBold: true, color: .yellow))
                if let remaining = state.remaining(until: order.revealAt, now: now) {
                    rows.append([Span(" Reveal in  ", .bold), Span(ScreenText.clock(remaining), .colored(.red, bold: true))])
                }
                if let secret = queen.secret, order.targets.contains(secret) {
                    rows.append(indent("That's YOU — No. \(secret)!", Style(isBold: true, isInverse: true, color: .red)))
                }
                rows.append([])
                if !isQueen { rows += secretRows(state, queen, width: width, letterStyle: letterStyle) }
            }
        case .revealed:
            if let order = queen.order {
                rows.append(indent("The order: " + order.text, .bold))
            }
            if let revealed = queen.revealed {
                rows += revealedRows(state, revealed, width: width, now: now)
            }
        case .ended:
            rows.append(indent("The Queen's game is over. \(queen.endReason ?? "")", .bold))
        }
        if state.role != .player || !isQueen {
            rows.append([])
            rows.append(indent("Commitment \(shortHash(round.commitment)) · players: \(round.players.joined(separator: ", "))", .dim))
        }
        return rows
    }

    static func shortHash(_ hex: String) -> String {
        hex.count > 16 ? String(hex.prefix(8)) + "…" + String(hex.suffix(8)) : hex
    }

    static func secretRows(_ state: ClientState, _ queen: QueenView, width: Int, letterStyle: LetterStyle) -> [Row] {
        guard state.role == .player else {
            return [indent("Each citizen sees only their own secret number.", .dim)]
        }
        guard let secret = queen.secret else { return [indent("Waiting for your secret number…", .dim)] }
        var rows: [Row] = [indent("Your secret number — keep it to yourself!", .bold)]
        let digits = String(secret)
        if letterStyle == .big, BigFont.width(of: digits) <= width - 2 {
            rows += (letterRows(digits, fixedCount: 0, style: .big, width: width) ?? []).map { row in
                row.map { Span($0.text, $0.style == .plain ? .plain : Style(isBold: true, color: .magenta)) }
            }
        } else {
            rows.append([Span("   No. ", .bold), Span(digits, Style(isBold: true, isInverse: true, color: .magenta))])
        }
        return rows
    }

    static func libraryRows(_ state: ClientState, round: QueenView.Round, width: Int, height: Int) -> [Row] {
        guard !state.library.isEmpty else {
            return [indent("Loading the command library… (l reloads, o writes your own order)", .dim)]
        }
        let visible = max(1, height - 1)
        let selection = min(state.ui.selection, state.library.count - 1)
        let start = max(0, min(selection - visible / 2, state.library.count - visible))
        var rows: [Row] = []
        for index in start..<min(state.library.count, start + visible) {
            let command = state.library[index]
            let text = command.text.replacingOccurrences(of: "{queen}", with: round.queen)
            let line = "\(index == selection ? "▶" : " ") \(pad(command.id, 5)) \(text)"
            rows.append(indent(line, index == selection ? Style(isBold: true, isInverse: true) : .plain))
        }
        rows.append(indent("\(selection + 1) of \(state.library.count) · Enter gives the order · / search · o your own", .dim))
        return rows
    }

    static func revealedRows(_ state: ClientState, _ revealed: QueenView.Revealed, width: Int, now: Int64) -> [Row] {
        var rows: [Row] = [[]]
        rows.append(indent("The numbers were:", .bold))
        for entry in revealed.numbers {
            let isTarget = revealed.targets.contains(entry.name)
            let isMe = state.role == .player && entry.name == state.name
            var text = "  No. \(entry.number) = \(entry.name)"
            if isTarget { text += "   ← must do it" }
            if isMe { text += "   (you)" }
            rows.append(indent(text, isTarget ? .colored(.yellow, bold: true) : (isMe ? .bold : .plain)))
        }
        rows.append([])
        switch revealed.verification {
        case .verified:
            rows.append(indent("✔ deal verified: these are the numbers committed to before the order", .colored(.green, bold: true)))
        case .mismatch:
            rows.append([Span(" ⚠ WARNING: the deal does NOT match the commitment published before the order! ",
                              Style(isBold: true, isInverse: true, color: .red))])
            rows.append(indent("The numbers may have been changed after the Queen chose. Tell everyone.", .colored(.red, bold: true)))
        case .unknown:
            rows.append(indent("(deal not checked: this screen joined after the numbers were dealt)", .dim))
        }
        if let remaining = state.remaining(until: revealed.nextAt, now: now) {
            rows.append(indent("Next round in \(ScreenText.clock(remaining))", .dim))
        }
        return rows
    }
}
