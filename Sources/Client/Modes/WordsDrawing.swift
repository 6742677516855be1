import Protocol

/// Draws a `WordsView` for one screen size: the card race, the bingo cards and the dice board from its grid
/// positions. Every layout shrinks with the screen (smaller letters, narrower cells) and falls back to a listing
/// when the board no longer fits; the renderer cuts whatever is still too wide.
struct WordsDrawing {
    let view: WordsView
    let state: ClientState
    let width: Int
    let now: Int64
    let letters: LetterStyle

    /// The team this client plays for.
    var me: String? { view.myTeam(state) }

    func rows(height: Int = .max) -> [Row] {
        if view.isOver { return finalRows() }
        let full = [heading()] + topRows(isCompact: false) + [[]] + progressRows()
        // The renderer tries smaller letters first; with the smallest, a screen still too short (60×20 with four
        // teams) loses blank rows, repeated path rows and the team list's bars, never the team list itself.
        guard full.count > height, letters == ScreenRenderer.LetterStyle.allCases.last else { return full }
        let top = [heading()] + topRows(isCompact: true)
        for candidate in [top + [[]] + progressRows(), top + [[]] + compactProgressRows()]
        where candidate.count <= height {
            return candidate
        }
        let teams = compactProgressRows()
        return Array(top.filter { !$0.isEmpty }.prefix(max(1, height - teams.count))) + teams
    }

    /// The exercise's own part above the team list.
    private func topRows(isCompact: Bool) -> [Row] {
        switch view.exercise {
        case "bingo": bingoRows()
        case "board": boardRows(isCompact: isCompact)
        default: cardRaceRows()
        }
    }

    private func heading() -> Row {
        let names = ["cards": "Card race", "bingo": "Team bingo", "board": "Dice board"]
        var text = "\(names[view.exercise] ?? view.exercise) · \(view.listName), level \(view.level)"
        if view.exercise == "bingo" { text += " · lines: " + view.lines.joined(separator: ", ") }
        if let board = view.board { text += " · \(board.name)" }
        return ScreenRenderer.indent(text, .colored(.yellow, bold: true))
    }

    // MARK: The card race

    private func cardRaceRows() -> [Row] {
        var rows: [Row] = []
        if let me {
            rows += questionRows(me)
        } else {
            for team in view.teams { rows += spectatorHandRows(team) }
        }
        return rows
    }

    /// The player's own question: the word large, the cards, the lockout and the last answer.
    private func questionRows(_ team: String) -> [Row] {
        var rows: [Row] = []
        if let place = view.progress[team]?.place {
            rows.append([])
            rows += ScreenRenderer.lettersBlock("THROUGH", fixedCount: Int.max, preferred: letters, width: width)
            rows.append(
                ScreenRenderer.indent(
                    "Your team finished in place \(place)! Watch the others finish.", .colored(.green, bold: true)))
            return rows
        }
        guard let hand = view.hands[team] else {
            if view.exercise == "board" { return [] }
            return [ScreenRenderer.indent("Waiting for your next word…", .dim)]
        }
        let place = hand.tile.map { "tile \($0) · " } ?? ""
        rows.append(
            ScreenRenderer.indent(
                "Your word (\(place)\(hand.number) of \(hand.of)) — which card makes a real word?", .bold))
        rows += ScreenRenderer.lettersBlock(hand.word.uppercased(), fixedCount: 0, preferred: letters, width: width)
        rows += cardRows(hand.options, boxed: letters == .big || letters == .boxed)
        rows += answerRows(team)
        return rows
    }

    /// Four cards, numbered 1–4 (boxed when there is room, else on one line); a card taken away shows as a gap.
    private func cardRows(_ options: [String?], boxed: Bool) -> [Row] {
        let labels = options.enumerated().map { "\($0.offset + 1) \($0.element ?? "—")" }
        let boxedWidth = labels.reduce(0) { $0 + ScreenText.width(of: $1) + 5 }
        if boxed && boxedWidth + 1 <= width {
            var top: Row = [Span(" ")]
            var middle: Row = [Span(" ")]
            var bottom: Row = [Span(" ")]
            for (index, label) in labels.enumerated() {
                let style: Style = options[index] == nil ? .dim : .colored(.cyan, bold: true)
                let line = String(repeating: "─", count: ScreenText.width(of: label) + 2)
                top += [Span("┌" + line + "┐", style), Span(" ")]
                middle += [Span("│ " + label + " │", style), Span(" ")]
                bottom += [Span("└" + line + "┘", style), Span(" ")]
            }
            return [top, middle, bottom]
        }
        var row: Row = [Span(" ")]
        for (index, label) in labels.enumerated() {
            if index > 0 { row.append(Span(" · ", .dim)) }
            row.append(Span(label, options[index] == nil ? .dim : .colored(.cyan, bold: true)))
        }
        return [row]
    }

    /// The lockout and the team's last answer: a right one shows its compound large.
    private func answerRows(_ team: String) -> [Row] {
        var rows: [Row] = []
        if let deadline = view.lockouts[team], let left = state.remaining(until: deadline, now: now), left > 0 {
            rows.append(
                ScreenRenderer.indent("Think! Pick again in \(ScreenText.clock(left)).", .colored(.yellow, bold: true)))
        }
        guard let last = view.lastResults[team] else { return rows }
        if let compound = last.compound, last.correct {
            rows.append(ScreenRenderer.indent("✔ \(last.word) + \(last.answer) =", .colored(.green, bold: true)))
            rows += ScreenRenderer.lettersBlock(
                compound.uppercased(), fixedCount: Int.max, preferred: letters, width: width)
        } else {
            rows.append(
                ScreenRenderer.indent("✘ \(last.word) + \(last.answer) is no word.", .colored(.red, bold: true)))
        }
        return rows
    }

    /// A team's hand on one line, for boards and operators.
    private func spectatorHandRows(_ team: String) -> [Row] {
        var row: Row = [Span(" " + ScreenRenderer.pad(team, nameWidth) + " ", .bold)]
        if let place = view.progress[team]?.place {
            row.append(Span("through — place \(place)", .colored(.green, bold: true)))
        } else if let hand = view.hands[team] {
            row.append(Span(hand.word.uppercased() + " + ?   ", .colored(.cyan, bold: true)))
            for (index, option) in hand.options.enumerated() {
                if index > 0 { row.append(Span(" · ", .dim)) }
                row.append(Span("\(index + 1) \(option ?? "—")", option == nil ? .dim : .plain))
            }
        }
        if view.isLockedOut(team, state, now: now) { row.append(Span("  thinking…", .colored(.yellow))) }
        var rows = [row]
        if let last = view.lastResults[team] {
            rows.append(
                ScreenRenderer.indent(
                    String(repeating: " ", count: nameWidth + 1)
                        + (last.correct
                            ? "✔ \(last.compound?.uppercased() ?? "")" : "✘ \(last.word) + \(last.answer)"),
                    last.correct ? .colored(.green) : .colored(.red)))
        }
        return rows
    }

    // MARK: Progress

    private var nameWidth: Int { min(16, (view.teams.map { ScreenText.width(of: $0) }.max() ?? 4) + 1) }

    /// Every team's progress as a bar, with its place once through.
    private func progressRows() -> [Row] {
        var rows: [Row] = [ScreenRenderer.indent("Teams", .bold)]
        let barWidth = max(0, min(20, width - nameWidth - 30))
        for team in view.teams {
            let progress = view.progress[team]
            let done = progress?.done ?? 0
            let total = max(1, progress?.of ?? 1)
            let filled = barWidth * min(done, total) / total
            let mine = state.isMine(team: team)
            var row: Row = [
                Span("  "), Span(ScreenRenderer.pad(team, nameWidth), mine ? .colored(.green, bold: true) : .bold),
            ]
            if barWidth > 0 {
                row.append(Span(String(repeating: "█", count: filled), .colored(.green)))
                row.append(Span(String(repeating: "░", count: barWidth - filled), .dim))
            }
            row.append(Span(" \(done)/\(progress?.of ?? 0)"))
            if let place = progress?.place { row.append(Span("  place \(place) ✔", .colored(.green, bold: true))) }
            if view.isLockedOut(team, state, now: now) { row.append(Span("  thinking", .colored(.yellow))) }
            if view.exercise == "board", let token = view.tokens[team], let tile = view.board?.tile(token.tile) {
                row.append(Span("  on \(tile.word)", .dim))
            }
            if mine { row.append(Span("  ◀ you", .colored(.green))) }
            rows.append(row)
        }
        return rows
    }

    /// The team list in as few rows as the width allows: `Teams: Red 3/16 ◀ you · Blue 2/16 place 1 ✔ · …`.
    private func compactProgressRows() -> [Row] {
        let entries = view.teams.map { team -> String in
            let progress = view.progress[team]
            var text = "\(team) \(progress?.done ?? 0)/\(progress?.of ?? 0)"
            if let place = progress?.place { text += " place \(place) ✔" }
            if view.isLockedOut(team, state, now: now) { text += " thinking" }
            if state.isMine(team: team) { text += " ◀ you" }
            return text.replacingOccurrences(of: " ", with: "\u{00A0}")  // a team's entry is never split
        }
        return ScreenRenderer.wrapped("Teams: " + entries.joined(separator: " · "), width: width, style: .bold)
    }

    // MARK: Bingo

    private func bingoRows() -> [Row] {
        var rows: [Row] = []
        if let me {
            let card = view.cards[me]
            if let place = view.progress[me]?.place {
                rows += ScreenRenderer.lettersBlock("BINGO", fixedCount: Int.max, preferred: letters, width: width)
                rows.append(
                    ScreenRenderer.indent("Your team has a line — place \(place)!", .colored(.green, bold: true)))
            } else if let word = card?.word {
                rows.append(ScreenRenderer.indent("Your word — mark the cell that makes a real word:", .bold))
                rows += ScreenRenderer.lettersBlock(word.uppercased(), fixedCount: 0, preferred: letters, width: width)
            }
            if let card {
                rows += gridRows(card, team: me, cellWidth: cellWidth(available: width - 1), showCursor: true)
            }
            if view.progress[me]?.place == nil { rows += answerRows(me) }
        } else {
            rows += spectatorCards()
        }
        return rows
    }

    /// The widest cell (up to 14 columns) for a card in `available` columns.
    private func cellWidth(available: Int) -> Int { max(2, min(14, (available - 3) / 4 - 1)) }

    /// A 4×4 card: a header row of column numbers, then rows a–d. A cell shows `·` when empty, an option, or
    /// `✔` and the compound when marked (`★` on the line that made BINGO); `>` marks the cursor.
    private func gridRows(_ card: WordsView.Card, team: String, cellWidth: Int, showCursor: Bool) -> [Row] {
        var header = "   "
        for column in 1...4 { header += ScreenRenderer.pad(" \(column)", cellWidth + 1) }
        var rows: [Row] = [[Span(header, .dim)]]
        let line = Set(view.bingos[team] ?? [])
        for row in 0..<4 {
            var spans: Row = [Span(" " + String(Array("abcd")[row]) + " ", .bold)]
            for column in 0..<4 {
                let index = row * 4 + column
                let cell = index < card.cells.count ? card.cells[index] : nil
                let isCursor = showCursor && index == view.cursor
                let marker = line.contains(index) ? "★" : cell?.marked == true ? "✔" : isCursor ? ">" : " "
                let text = cell.map { $0.marked ? $0.text.uppercased() : $0.text } ?? "·"
                var style: Style =
                    line.contains(index)
                    ? Style(isBold: true, color: .yellow)
                    : cell?.marked == true
                        ? .colored(.green, bold: true)
                        : cell == nil ? .dim : .colored(.cyan, bold: true)
                if isCursor { style.isInverse = true }
                spans.append(Span(ScreenRenderer.pad(marker + text, cellWidth), style))
                spans.append(Span(" "))
            }
            rows.append(spans)
        }
        return rows
    }

    /// Every team's card for boards and operators, side by side where they fit.
    private func spectatorCards() -> [Row] {
        let perRow = max(1, min(view.teams.count, (width - 1) / 27))
        let blockWidth = (width - 1) / perRow
        let cell = cellWidth(available: blockWidth)
        var rows: [Row] = []
        for start in stride(from: 0, to: view.teams.count, by: perRow) {
            let group = Array(view.teams[start..<min(view.teams.count, start + perRow)])
            let blocks = group.map { team -> [Row] in
                let title = team + (view.cards[team]?.word.map { ": " + $0.uppercased() + " + ?" } ?? "")
                let card = view.cards[team] ?? WordsView.Card(word: nil, cells: Array(repeating: nil, count: 16))
                return [[Span(ScreenRenderer.pad(" " + title, blockWidth), .bold)]]
                    + gridRows(card, team: team, cellWidth: cell, showCursor: false)
            }
            for line in 0..<(blocks.map(\.count).max() ?? 0) {
                var row: Row = []
                for block in blocks {
                    let part = line < block.count ? block[line] : []
                    row += part
                    row.append(Span(String(repeating: " ", count: max(0, blockWidth - ScreenText.width(of: part)))))
                }
                rows.append(row)
            }
            rows.append([])
        }
        return rows
    }

    // MARK: The dice board

    private func boardRows(isCompact: Bool) -> [Row] {
        guard let board = view.board else { return [] }
        var rows = mapRows(board)
        if isCompact {
            // Path rows that only repeat the row above (a long vertical path) are drawn once.
            rows = rows.enumerated().filter { index, row in
                index == 0 || row != rows[index - 1] || !row.allSatisfy { $0.text.allSatisfy { " │".contains($0) } }
            }.map(\.element)
        }
        rows.append([])
        if let me {
            rows += tokenRows(me, board: board)
            rows += questionRows(me)
        } else {
            for team in view.teams where view.hands[team] != nil { rows += spectatorHandRows(team) }
        }
        return rows
    }

    /// The team whose done tiles the map marks: this player's, or the only team's.
    private var focusTeam: String? { me ?? (view.teams.count == 1 ? view.teams.first : nil) }

    /// What a player's token is doing: standing, at a fork, waiting for a roll.
    private func tokenRows(_ team: String, board: WordsWire.Board) -> [Row] {
        guard view.progress[team]?.place == nil, let token = view.tokens[team] else { return [] }
        let rolled = view.rolls[team].map { " · you rolled \($0.value)" } ?? ""
        if !token.choices.isEmpty {
            let steps = "\(token.steps) step\(token.steps == 1 ? "" : "s") left"
            // Each way on its own row: a small terminal must never cut a choice off.
            return ScreenRenderer.wrapped(
                "A fork on \(board.label(token.tile)), \(steps)\(rolled): press", width: width,
                style: .colored(.yellow, bold: true))
                + token.choices.enumerated().map {
                    ScreenRenderer.indent("  \($0.offset + 1) → \($0.element.word)", .colored(.yellow, bold: true))
                }
        }
        if view.mustRoll(team) {
            return ScreenRenderer.wrapped(
                "On \(board.label(token.tile))\(rolled). Roll the die: press r", width: width,
                style: .colored(.yellow, bold: true))
        }
        return [ScreenRenderer.indent("You stand on \(board.label(token.tile))\(rolled).", .bold)]
    }

    /// The board drawn from its grid positions: tiles as their words (tokens as team initials in front, `@` for
    /// this player's team; `✓` after a tile done), paths as lines. A listing when the screen is too narrow.
    private func mapRows(_ board: WordsWire.Board) -> [Row] {
        let columns = (board.tiles.map(\.x).max() ?? 0) + 1
        let gridRows = (board.tiles.map(\.y).max() ?? 0) + 1
        let cell = min(12, (width - 2) / columns)
        guard cell >= 5 else { return listingRows(board) }
        var canvas = Array(
            repeating: Array(repeating: (character: Character(" "), style: Style.plain), count: columns * cell),
            count: gridRows * 2 - 1)
        var labelEnd: [Int: Int] = [:]
        let done = Set(focusTeam.flatMap { view.doneTiles[$0] } ?? [])
        let choices = Set(me.flatMap { view.tokens[$0]?.choices.map(\.tile) } ?? [])
        for tile in board.tiles {
            let here = view.teams.filter { view.tokens[$0]?.tile == tile.id && view.progress[$0]?.place == nil }
            let marks = here.map { state.isMine(team: $0) ? "@" : String($0.prefix(1)).uppercased() }.joined()
            var label = marks + tile.word
            if done.contains(tile.id) { label += "✓" }
            label = String(label.prefix(cell - 1))
            var style: Style = done.contains(tile.id) ? .colored(.green) : .plain
            if choices.contains(tile.id) { style = .colored(.yellow, bold: true) }
            if here.contains(where: { state.isMine(team: $0) }) {
                style = Style(isBold: true, isInverse: true, color: .green)
            }
            for (offset, character) in label.enumerated() {
                canvas[tile.y * 2][tile.x * cell + offset] = (character, style)
            }
            labelEnd[tile.id] = tile.x * cell + label.count
        }
        for path in board.paths where path.count == 2 {
            guard let a = board.tile(path[0]), let b = board.tile(path[1]) else { continue }
            if a.y == b.y {
                let (left, right) = a.x < b.x ? (a, b) : (b, a)
                for column in (labelEnd[left.id] ?? 0)..<(right.x * cell) { canvas[a.y * 2][column] = ("─", .dim) }
            } else if a.x == b.x {
                let (top, bottom) = a.y < b.y ? (a, b) : (b, a)
                for line in (top.y * 2 + 1)..<(bottom.y * 2) { canvas[line][a.x * cell + 1] = ("│", .dim) }
            }
        }
        return canvas.map { line in
            var row: Row = [Span(" ")]
            for (character, style) in line {
                if let last = row.last, last.style == style, row.count > 1 {
                    row[row.count - 1].text.append(character)
                } else {
                    row.append(Span(String(character), style))
                }
            }
            return row
        }
    }

    /// The board as a listing: every tile with its neighbours, tokens and done marks.
    private func listingRows(_ board: WordsWire.Board) -> [Row] {
        let done = Set(focusTeam.flatMap { view.doneTiles[$0] } ?? [])
        return board.tiles.map { tile in
            let here = view.teams.filter { view.tokens[$0]?.tile == tile.id }
            let marks = here.map { state.isMine(team: $0) ? "@" : String($0.prefix(1)).uppercased() }.joined()
            let text =
                "\(tile.id) \(marks)\(tile.word)\(done.contains(tile.id) ? "✓" : "") → "
                + board.neighbours(of: tile.id).map(String.init).joined(separator: " ")
            return ScreenRenderer.indent(text, done.contains(tile.id) ? .colored(.green) : .plain)
        }
    }

    // MARK: The end

    private func finalRows() -> [Row] {
        var rows: [Row] = [[], ScreenRenderer.indent("FINAL STANDINGS", Style(isBold: true, color: .yellow))]
        for standing in view.standings {
            let mine = state.isMine(team: standing.team)
            var text = "  #\(standing.rank)  " + ScreenRenderer.pad(standing.team, nameWidth + 1)
            text += standing.place.map { "place \($0) · " } ?? "not through · "
            text += "\(standing.done)/\(standing.of) · \(standing.score) right"
            if let wrong = standing.wrong { text += " · \(wrong) wrong" }
            if mine { text += "   ◀ your team" }
            rows.append(ScreenRenderer.indent(text, mine ? .colored(.green, bold: true) : .plain))
        }
        rows.append([])
        rows += ScreenRenderer.winnerRows(
            view.standings.map { Standing(team: $0.team, score: $0.place == nil ? 0 : 1, rank: $0.rank, correct: nil) })
        return rows
    }
}
