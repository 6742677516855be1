import Protocol

/// How big letters are drawn, largest first.
typealias LetterStyle = ScreenRenderer.LetterStyle

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

    static func render(
        _ state: ClientState, width rawWidth: Int, height rawHeight: Int, now: Int64, options: RenderOptions
    ) -> [String] {
        let width = max(20, rawWidth)
        let height = max(6, rawHeight)
        let header = headerRows(state, width: width)
        let footer = footerRows(state, width: width, now: now)
        let bodyHeight = max(0, height - header.count - footer.count)
        var body: [Row] = []
        for style in LetterStyle.allCases {
            body = bodyRows(
                state, width: width, height: bodyHeight, now: now, letterStyle: style,
                isColorEnabled: options.isStyled && options.isColorEnabled)
            if body.count <= bodyHeight { break }
        }
        if body.count > bodyHeight { body = Array(body.prefix(bodyHeight)) }
        let padding = Array(repeating: Row(), count: max(0, bodyHeight - body.count))
        let rows = Array((header + body + padding + footer).prefix(max(0, rawHeight)))
        return rows.map { row in
            ScreenText.encode(
                ScreenText.truncate(row, to: rawWidth > 0 ? min(width, rawWidth) : width),
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
        var right = state.game?.title ?? "lobby"
        if state.isPaused { right += " · PAUSED" }
        right += " "
        return [
            spread(
                Span(left, Style(isBold: true, isInverse: true)), Span(right, Style(isInverse: true)), width: width,
                fill: true),
            [Span(String(repeating: "─", count: width), .dim)],
        ]
    }

    /// `left` and `right` on one row, `right` flush right; left is cut first when they do not fit.
    static func spread(_ left: Span, _ right: Span, width: Int, fill: Bool = false) -> Row {
        let rightWidth = ScreenText.width(of: right.text)
        let leftText = ScreenText.truncate(left.text, to: max(0, width - rightWidth - 1))
        let gap = max(1, width - ScreenText.width(of: leftText) - rightWidth)
        if rightWidth + 1 > width { return [Span(ScreenText.truncate(left.text, to: width), left.style)] }
        return [
            Span(leftText, left.style), Span(String(repeating: " ", count: gap), fill ? left.style : .plain), right,
        ]
    }

    static func footerRows(_ state: ClientState, width: Int, now: Int64) -> [Row] {
        var rows: [Row] = []
        if let confirmation = state.ui.confirmation {
            rows.append([Span(" \(confirmation.question) ", Style(isBold: true, isInverse: true, color: .yellow))])
        } else if let notice = state.visibleNotice(now: now) {
            let text = notice.text.replacingOccurrences(of: "\n", with: " ")
            // Two rows at most, so a long refusal is read whole on a small terminal (the second is cut if need be).
            let lines = ScreenText.wrap(text, to: max(1, width - 3))
            let style: Style = notice.isError ? .colored(.red, bold: true) : .colored(.cyan)
            let rest = lines.dropFirst().joined(separator: " ")
            rows.append([Span((notice.isError ? " ! " : " › ") + (lines.first ?? ""), style)])
            if !rest.isEmpty { rows.append([Span("   " + rest, style)]) }
        }
        switch state.ui.mode {
        case .command: rows.append([Span(" : ", .bold), Span(state.ui.text), Span("█", .dim)])
        case .prompt(let prompt):
            rows.append([
                Span(" " + prompt.label, .bold), Span(state.ui.text), Span("█", .dim), Span(prompt.hint, .dim),
            ])
        case .none:
            if let row = (state.game as? any ShowsInputRow)?.inputRow(state) { rows.append(row) }
        }
        rows.append(spread(Span(" " + keyHints(state, now: now), .dim), linkSpan(state, now: now), width: width))
        return rows
    }

    static func keyHints(_ state: ClientState, now: Int64 = 0) -> String {
        if state.ui.mode != .none { return "Enter sends · Esc cancels" }
        if state.ui.isHelpShown || state.ui.panel != nil { return "any key closes" }
        if let hints = state.game?.keyHints(state, now: now) { return hints }
        switch state.role {
        case .board: return "? help · q quit"
        case .admin: return ": command (start, next, pause, continue, end, kick) · ? help · q quit"
        case .player: return ": command · ? help · q quit"
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
            return Span(
                "◌ reconnecting… (try \(attempt)\(wait > 0 ? ", in \(ScreenText.clock(wait))" : "")) ",
                .colored(.yellow, bold: true))
        case .closed: return Span("✘ disconnected ", .colored(.red, bold: true))
        }
    }

    // MARK: Body

    /// The rows between header and footer; `isColorEnabled` says whether a QR code may be drawn black on white.
    static func bodyRows(
        _ state: ClientState, width: Int, height: Int, now: Int64, letterStyle: LetterStyle,
        isColorEnabled: Bool = false
    ) -> [Row] {
        if state.ui.isHelpShown { return helpRows(state, width: width) }
        if let panel = state.ui.panel {
            return panelRows(title: state.ui.panelTitle, lines: panel, width: width, height: height)
        }
        var rows =
            state.game?.rows(state, width: width, height: height, now: now, letters: letterStyle)
            ?? lobbyRows(state, width: width, height: height, letterStyle: letterStyle, isColorEnabled: isColorEnabled)
        if state.role == .board, state.game?.isOver == true, !state.room.isEmpty {
            // Between games the board still says how to join: late arrivals read the room code off the wall.
            let address = state.hostAddress.isEmpty ? "HOST" : state.hostAddress
            rows.append([])
            rows += wrapped(
                "Room code \(state.room) · join with: partyline \(address) --room \(state.room)", width: width,
                style: .bold)
            let letters = lettersBlock(state.room, fixedCount: 0, preferred: letterStyle, width: width)
            if rows.count + letters.count + 1 <= height { rows += letters }  // big, when the screen has the room
        }
        if let url = BoardJoinCode.url(state), state.game?.isOver == true,
            let code = BoardJoinCode.section(
                url: url, beside: [], width: width, height: height - rows.count - 1, isColorEnabled: isColorEnabled)
        {
            rows.append([])  // between games: the final scores, and the code for whoever joins for the next one
            rows += code
        }
        if case .reconnecting = state.link {
            rows.insert(
                [Span(" Connection lost — reconnecting… you keep your place.", .colored(.yellow, bold: true))], at: 0)
        }
        if state.role != .player, rows.count + 3 <= height, !state.recent.isEmpty {
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
            lines += state.catalog.keyHelp
            lines += ["  :                command line: :scores, or a game's own command (such as :pick 3)"]
        case .board:
            lines += ["  This screen only watches. Put it on the projector."]
        case .admin:
            for screen in state.catalog.screens {
                lines.append("  :" + screen.startGrammar.usage)
                if let example = screen.startGrammar.example { lines.append("      e.g. :" + example) }
            }
            lines += [
                "  :next  :pause  :continue  :end  :kick NAME  :accept TEAM  :status  :scores",
                "  :help             every operator command, as on the host's console",
            ]
        }
        lines += [
            "  ?                this help (any key closes it)",
            "  q                leave (asks first during a game); your name is free again at once",
            "  Ctrl-C           quit at once, keeping your place: start partyline again to come back",
        ]
        if state.role == .player, let code = state.rejoinCode {
            lines.append(
                "  From nc or telnet you come back with:  rejoin \(state.name) \(code)   (keep it to yourself)")
        }
        return lines.enumerated().map { index, line in
            indent(ScreenText.truncate(line, to: width - 1), index == 0 ? .bold : .plain)
        }
    }

    static func panelRows(title: String, lines: [String], width: Int, height: Int) -> [Row] {
        var rows: [Row] = [indent(title, .bold)]
        let room = max(1, height - 2)
        for line in lines.prefix(lines.count > room ? room - 1 : room) { rows.append(indent(" " + line)) }
        if lines.count > room { rows.append(indent("  … \(lines.count - room + 1) more", .dim)) }
        return rows
    }

    /// The lobby: who is here, by team; the board adds how to join, the room code and the phones' QR code (when
    /// `height` leaves room for it).
    static func lobbyRows(
        _ state: ClientState, width: Int, height: Int = 0, letterStyle: LetterStyle, isColorEnabled: Bool = false
    ) -> [Row] {
        var rows: [Row] = [[]]
        switch state.link {
        case .connecting: rows.append(indent("Joining room \(state.room)…", .bold))
        case .closed(let reason): rows.append(indent(reason, .colored(.red, bold: true)))
        default:
            switch state.role {
            case .admin:
                let names: [String] = state.catalog.screens.map { screen in ":start " + screen.gameName }
                let games = names.joined(separator: "  or  ")
                rows.append(indent("No game is running. Start one: \(games)", .bold))
            default: rows.append(indent("Waiting for the organiser to start a game…", .bold))
            }
        }
        let teams = teamRows(state, width: width)
        if state.role == .board, !state.room.isEmpty {
            func info(_ style: LetterStyle) -> [Row] {
                let address = state.hostAddress.isEmpty ? "HOST" : state.hostAddress
                return [indent("Join with:  partyline \(address) --room \(state.room)"), indent("Room code", .dim)]
                    + lettersBlock(state.room, fixedCount: 0, preferred: style, width: width)
            }
            rows.append([])
            let room = height - rows.count - 1 - teams.count
            // The phones' code beside the room code, with the largest letters that leave it room.
            let code = BoardJoinCode.url(state).flatMap { url in
                LetterStyle.allCases.drop { $0 != letterStyle }.lazy.compactMap { style in
                    BoardJoinCode.section(
                        url: url, beside: info(style), width: width, height: room, isColorEnabled: isColorEnabled)
                }.first
            }
            rows += code ?? info(letterStyle)
        }
        rows.append([])
        rows += teams
        return rows
    }

    static func teamRows(_ state: ClientState, width: Int) -> [Row] {
        guard !state.lobby.isEmpty else { return [indent("Nobody has joined yet.", .dim)] }
        var rows: [Row] = [indent("Teams", .bold)]
        let teams = state.teams.isEmpty ? Array(Set(state.lobby.map(\.team))).sorted() : state.teams
        let nameWidth = min(16, (teams.map { ScreenText.width(of: $0) }.max() ?? 4) + 2)
        for team in teams {
            var row: Row = [
                Span("   "),
                Span(pad(team, nameWidth), state.isMine(team: team) ? .colored(.green, bold: true) : .bold),
            ]
            for player in state.lobby where player.team.lowercased() == team.lowercased() {
                row.append(Span(player.isConnected ? "●" : "○", player.isConnected ? .colored(.green) : .dim))
                row.append(
                    Span(
                        " " + player.name + (player.isConnected ? "" : " (away)") + "  ",
                        player.name == state.name && state.role == .player
                            ? .bold : (player.isConnected ? .plain : .dim)))
            }
            rows.append(row)
        }
        if state.isLobbyTruncated, let sizes = state.teamSizes {
            // A hall: this player sees its own team by name and every team by its size.
            // In a hall's copy (PROTOCOL.md §6.0.1) the first teams and ours, and how many there are.
            let others =
                sizes.teams.map { "\($0.team) \($0.players)" }.joined(separator: " · ")
                + Wording.moreTeams(shown: sizes.teams.count, total: sizes.total)
            rows.append([])
            let total =
                "\(Wording.count(sizes.count, "player")) in \(Wording.count(sizes.total ?? sizes.teams.count, "team"))"
            rows.append(indent(total, .bold))
            rows.append(indent(ScreenText.truncate(others, to: max(10, width - 4)), .dim))
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
        // Letters in place are green and underlined, and drawn differently (a double box, a bar beneath, brackets),
        // so they stand out without colour too.
        // Marked only when some letters are in place and others not (a revealed answer is all in place).
        let isMarked = fixed.contains(true) && zip(fixed, characters).contains { !$0 && ($1.isLetter || $1.isNumber) }
        let marked = isMarked ? fixed : fixed.map { _ in false }
        let letterStyle = Style(isBold: true, color: .cyan)
        let fixedStyle = Style(isBold: true, color: .green, isUnderlined: isMarked)
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
            if isMarked {
                var marks: Row = []
                for (index, character) in characters.enumerated() {
                    if index > 0 { marks.append(Span(" ")) }
                    let width = ScreenText.width(of: BigFont.glyph(character)[0])
                    marks.append(Span(String(repeating: marked[index] ? "▀" : " ", count: width), fixedStyle))
                }
                rows.append(marks)
            }
        case .boxed, .compact:
            let inner = style == .boxed ? 3 : 1
            let cell = inner + 2
            guard characters.count * (cell + 1) - 1 <= available,
                characters.allSatisfy({ ScreenText.width(of: $0) == 1 || $0 == " " })
            else { return nil }
            let pad = String(repeating: " ", count: (inner - 1) / 2)
            let blank = String(repeating: " ", count: cell)
            let shapes: [(Character, Bool) -> String] = [
                { c, isFixed in
                    c == " "
                        ? blank
                        : (isFixed
                            ? "╔" + String(repeating: "═", count: inner) + "╗"
                            : "┌" + String(repeating: "─", count: inner) + "┐")
                },
                { c, isFixed in
                    c == " " ? blank : (isFixed ? "║" : "│") + pad + String(c) + pad + (isFixed ? "║" : "│")
                },
                { c, isFixed in
                    c == " "
                        ? blank
                        : (isFixed
                            ? "╚" + String(repeating: "═", count: inner) + "╝"
                            : "└" + String(repeating: "─", count: inner) + "┘")
                },
            ]
            rows = shapes.map { shape in
                var row: Row = []
                for (index, character) in characters.enumerated() {
                    if index > 0 { row.append(Span(" ")) }
                    row.append(Span(shape(character, marked[index]), spanStyle(at: index)))
                }
                return row
            }
        case .spaced:
            var row: Row = []
            for (index, character) in characters.enumerated() {
                if index > 0 { row.append(Span(" ")) }
                row.append(Span(marked[index] ? "[\(character)]" : String(character), spanStyle(at: index)))
            }
            guard ScreenText.width(of: row) <= available else {
                let text = zip(characters, marked).map { $1 ? "[\($0)]" : String($0) }.joined(separator: " ")
                return ScreenText.wrap(text, to: available).map { indent($0, letterStyle) }
            }
            rows = [row]
        }
        let blockWidth = rows.map { ScreenText.width(of: $0) }.max() ?? 0
        let margin = String(repeating: " ", count: max(1, (width - blockWidth) / 2))
        return rows.map { [Span(margin)] + $0 }
    }

    // MARK: Scoreboards

    /// A scoreboard: one row per standing (a compact single row for long lists mid-game).
    static func standingsRows(_ state: ClientState, _ standings: [Standing], width: Int, isFinal: Bool) -> [Row] {
        guard !standings.isEmpty else { return [] }
        if !isFinal && standings.count > 4 {
            return [
                [Span(" Scores   ", .bold)]
                    + standings.enumerated().flatMap { index, standing -> [Span] in
                        [
                            Span(index == 0 ? "" : " · "),
                            Span(
                                "#\(standing.rank) \(standing.team) \(standing.score)",
                                state.isMine(team: standing.team) ? .colored(.green, bold: true) : .plain),
                        ]
                    }
            ]
        }
        var rows: [Row] = [
            indent(isFinal ? "FINAL SCOREBOARD" : "Scores", isFinal ? Style(isBold: true, color: .yellow) : .bold)
        ]
        let nameWidth = min(24, (standings.map { ScreenText.width(of: $0.team) }.max() ?? 4) + 2)
        for standing in standings {
            let mine = state.isMine(team: standing.team)
            var text = "  #\(standing.rank)  " + pad(standing.team, nameWidth) + "\(standing.score) points"
            if let correct = standing.correct { text += "   \(correct) correct" }
            if mine { text += "   ◀ your team" }
            rows.append(
                indent(text, mine ? .colored(.green, bold: true) : (standing.rank == 1 && isFinal ? .bold : .plain)))
        }
        return rows
    }

    /// Who won, under a final scoreboard ("A tie at the top" only when someone scored).
    static func winnerRows(_ standings: [Standing]) -> [Row] {
        var rows: [Row] = []
        if let winner = standings.first, winner.score > 0 {
            let winners = standings.filter { $0.rank == winner.rank }.map(\.team)
            rows.append(
                indent(
                    winners.count > 1
                        ? "A tie at the top: \(winners.joined(separator: " and "))!" : "\(winner.team) wins!",
                    Style(isBold: true, color: .yellow)))
        }
        rows.append(indent("Thanks for playing! Wait here for the next game.", .dim))
        return rows
    }
}
