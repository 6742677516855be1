import Protocol

/// Compound words as this client sees it: every team's hand or card (as far as the host shows it), tokens and done
/// tiles on the board, lockouts, progress and the last answers. Drawn by `WordsDrawing`.
struct WordsView: GameScreen {
    typealias Wire = WordsWire

    /// A team's bingo card.
    struct Card: Equatable, Sendable {
        var word: String?
        var cells: [WordsWire.Cell?]
    }

    /// Where a team's token stands on the board.
    struct Token: Equatable, Sendable {
        var tile: Int
        var steps: Int
        var choices: [WordsWire.Way]
    }

    var exercise = "cards"
    var listName = ""
    var level = 1
    var wordCount = 0
    var teams: [String] = []
    /// The intro as the host last sent it whole or changed its team list (numbered, for its `gameUpdate`s).
    var intro: WordsWire.Intro?
    var lockoutMs: Int64 = 0
    var lines: [String] = []
    var board: WordsWire.Board?
    /// The latest hand of each team this client may see.
    var hands: [String: WordsWire.Hand] = [:]
    /// The latest bingo card of each team this client may see.
    var cards: [String: Card] = [:]
    /// Host ms when each locked-out team may pick again.
    var lockouts: [String: Int64] = [:]
    var progress: [String: WordsWire.Progress] = [:]
    var lastResults: [String: WordsWire.Result] = [:]
    var tokens: [String: Token] = [:]
    var doneTiles: [String: [Int]] = [:]
    var rolls: [String: WordsWire.Rolled] = [:]
    var bingos: [String: [Int]] = [:]
    /// The final standings, once the game is over (or standings asked for with `scores`).
    var standings: [WordsWire.Standing] = []
    var isOver = false
    /// Bingo: the cell the arrow keys point at, and the row letter typed first (`b` of `b3`).
    var cursor = 0
    var pendingRow: Int?

    init?(intro: WordsWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        take(intro)
    }

    private mutating func take(_ intro: WordsWire.Intro) {
        self.intro = intro
        exercise = intro.exercise
        listName = intro.listName
        level = intro.level
        wordCount = intro.words
        teams = intro.teams
        lockoutMs = intro.lockoutMs
        lines = intro.lines
        board = intro.board
    }

    var title: String {
        let names = ["cards": "card race", "bingo": "team bingo", "board": "dice board"]
        return "Compound words · \(names[exercise] ?? exercise)" + (isOver ? " · final" : "")
    }

    static let keyHelp = [
        "  1–4              play a card (compound words: card race and board)",
        "  a–d then 1–4     mark a bingo cell (or arrows and Enter)",
        "  r or Space       roll the die; at a fork 1, 2… choose the path (board)",
    ]

    // MARK: Whose is what

    /// The team this client plays for, as the game names it.
    func myTeam(_ state: ClientState) -> String? { teams.first { state.isMine(team: $0) } }

    /// Whether team `team` may not pick now.
    func isLockedOut(_ team: String, _ state: ClientState, now: Int64) -> Bool {
        guard let deadline = lockouts[team] else { return false }
        return (state.remaining(until: deadline, now: now) ?? 0) > 0
    }

    /// Whether `team` waits for its roll (board: no question, no fork, not through).
    func mustRoll(_ team: String) -> Bool {
        exercise == "board" && hands[team] == nil && (tokens[team]?.choices.isEmpty ?? false)
            && progress[team]?.place == nil && !isOver
    }

    // MARK: Messages

    mutating func apply(_ message: WordsWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        switch message {
        case .intro(let intro): take(state.took(intro))
        case .introUpdate(let update):
            let (next, taken) = state.followed(intro, by: update)
            guard let next else { return taken }  // a list that does not add up is asked for whole
            take(next)
            return taken
        case .hand(let hand): hands[hand.team] = hand
        case .result(let result):
            lastResults[result.team] = result
            if result.correct { hands[result.team] = nil }
            if state.isMine(team: result.team) && result.correct { return [.bell] }
        case .lockout(let lockout):
            lockouts[lockout.team] =
                lockout.ms > 0 ? state.deadline(lockout.deadline, remaining: lockout.ms, now: now) : nil
        case .card(let card):
            cards[card.team] = Card(word: card.word, cells: card.cells)
            pendingRow = nil
        case .bingo(let bingo):
            bingos[bingo.team] = bingo.cells
            return [.bell]
        case .progress(let progress): self.progress[progress.team] = progress
        case .tileDone(let done):
            if !(doneTiles[done.team] ?? []).contains(done.tile) { doneTiles[done.team, default: []].append(done.tile) }
        case .rolled(let rolled): rolls[rolled.team] = rolled
        case .moved(let moved):
            tokens[moved.team] = Token(tile: moved.tile, steps: moved.steps, choices: moved.choices)
            if !moved.choices.isEmpty && state.isMine(team: moved.team) { return [.bell] }
        case .scores(let scores):
            standings = scores.ranking
            if scores.final { isOver = true }
        case .scoreboard(let scoreboard):
            standings = scoreboard.ranking
            isOver = true
            lockouts = [:]
        case .resumed:
            break  // `ClientState` ends the pause for every mode
        case .turn:
            break  // text mode's prompt: the screen shows the team's step from the moves themselves
        }
        return []
    }

    // MARK: Keys and lines

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard state.role == .player, !isOver, let team = myTeam(state) else { return nil }
        switch exercise {
        case "bingo": return bingoKey(key, team: team)
        case "board":
            if let choices = tokens[team]?.choices, !choices.isEmpty {
                if case .character(let character) = key, let number = character.wholeNumberValue,
                    (1...choices.count).contains(number)
                {
                    return [.play(WordsWire.Action.move(.tile(choices[number - 1].tile)))]
                }
                return nil
            }
            if mustRoll(team) {
                switch key {
                case .character("r"), .character("R"), .character(" "), .enter: return [.play(WordsWire.Action.roll)]
                default: return nil
                }
            }
            return cardKey(key, team: team)
        default:
            return cardKey(key, team: team)
        }
    }

    private func cardKey(_ key: Key, team: String) -> [ClientAction]? {
        guard case .character(let character) = key, let number = character.wholeNumberValue, (1...4).contains(number),
            hands[team] != nil
        else { return nil }
        return [.play(WordsWire.Action.pick(.card(number)))]
    }

    private mutating func bingoKey(_ key: Key, team: String) -> [ClientAction]? {
        switch key {
        case .left: cursor = cursor % 4 == 0 ? cursor + 3 : cursor - 1
        case .right: cursor = cursor % 4 == 3 ? cursor - 3 : cursor + 1
        case .up: cursor = (cursor + 12) % 16
        case .down: cursor = (cursor + 4) % 16
        case .enter, .character(" "):
            pendingRow = nil
            return [.play(WordsWire.Action.pick(.cell(cursor)))]
        case .escape:
            guard pendingRow != nil else { return nil }
            pendingRow = nil
        case .character(let character):
            if let row = "abcd".firstIndex(of: Character(character.lowercased())) {
                pendingRow = "abcd".distance(from: "abcd".startIndex, to: row)
                return []
            }
            guard let row = pendingRow, let column = character.wholeNumberValue, (1...4).contains(column) else {
                return nil
            }
            pendingRow = nil
            cursor = row * 4 + column - 1
            return [.play(WordsWire.Action.pick(.cell(cursor)))]
        default:
            return nil
        }
        return []
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        switch WordsWire.Action.parse(text: line, exercise: exercise) {
        case .action(let action)?: return [.play(action)]
        case .usage(let usage)?: return [.print("Usage: " + usage)]
        case nil: return nil
        }
    }

    func keyHints(_ state: ClientState, now: Int64) -> String? {
        guard state.role == .player, !isOver, let team = myTeam(state), progress[team]?.place == nil else { return nil }
        switch exercise {
        case "bingo": return "a–d then 1–4 (or arrows, Enter) mark a cell · : command · ? help · q quit"
        case "board":
            if let choices = tokens[team]?.choices, !choices.isEmpty {
                return "1–\(choices.count) choose your path · : command · ? help · q quit"
            }
            if mustRoll(team) { return "r or Space roll the die · : command · ? help · q quit" }
            return "1–4 play a card · : command · ? help · q quit"
        default: return "1–4 play a card · : command · ? help · q quit"
        }
    }

    func inputRow(_ state: ClientState) -> Row? {
        guard exercise == "bingo", let row = pendingRow else { return nil }
        return [
            Span(" Cell › ", .colored(.green, bold: true)),
            Span(String(WordsWire.cellName(row * 4).prefix(1)) + "_", .bold),
        ]
    }

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters: LetterStyle) -> [Row] {
        WordsDrawing(view: self, state: state, width: width, now: now, letters: letters).rows(height: height)
    }
}

/// What WordsView does beyond the core every game screen has.
extension WordsView: ShowsInputRow {}

extension WordsWire: ShownWire {
    static var screen: any GameScreen.Type { WordsView.self }
}
