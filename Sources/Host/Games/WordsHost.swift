import Foundation
import Protocol
import Rules

/// Compound words on the wire: turns picks, rolls and moves into `CompoundWords` events and its effects into
/// messages. A team's hand and card go to that team and to spectators (boards only unless `board-hands=off`); the
/// rest goes to everyone.
///
/// Live messages and a late joiner's catch-up are built by the same functions from the same Rules values.
final class WordsHost: GameAdapter {
    typealias Wire = WordsWire

    /// Everything that recreates the game with the journaled events: the level's words and the board are kept
    /// here, so editing the library later never changes a game being resumed.
    struct StartRecord: Codable {
        var teams: [String]
        var listID: String
        var listName: String
        var level: Int
        var words: [WordEntry]
        var board: DiceBoard?
        var settings: CompoundWords.Settings
        /// Whether boards see each team's hand and card live (`board-hands=off` keeps them to the team and the
        /// operators, for a classroom); nil, as in journals written before the option, is on.
        var boardHands: Bool?
        /// The game's seed, as decimal text: JSON numbers cannot carry every UInt64 exactly.
        var seedText: Seed
        var seed: UInt64 { seedText.value }
        /// The list's language code (`sv`), nil when it names none (or the game began before lists told it).
        var language: String?
        /// The words recorded when the game began (`WordAudio`), lowercased, with each file's extension.
        var audio: [String: String]?
    }

    static let entry = ModeEntry(
        WordsHost.self, aliases: ["compound", "compounds", "compound-words"],
        make: { (options, context) throws(RuleError) in try WordsHost.make(options: options, context: context) },
        restore: { try WordsHost(record: JSONCoding.decode(StartRecord.self, from: $0)) },
        tools: [WordLists.tool, DiceBoards.tool], logLines: { WordsHost.logLines($0) },
        logRows: { WordsHost.logRows($0) })

    var mode: ModeEntry { WordsHost.entry }
    var game: CompoundWords
    let record: StartRecord

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try CompoundWords(
            teams: record.teams, words: record.words, listID: record.listID, listName: record.listName,
            level: record.level, board: record.board, settings: record.settings, seed: record.seed)
    }

    /// Reads `start` options: `exercise` (cards), `list` (en; for the board, a board id too), `level` (1, or the
    /// board's), `board`, `lockoutSeconds`, `lines` (bingo), `places` and `boardHands` (on).
    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> WordsHost {
        let listTool = context.tools.tool(ContentTool<WordLists>.self)
        let lists = listTool?.library ?? WordListLibrary()
        let boards = context.tools.tool(ContentTool<DiceBoards>.self)?.library ?? DiceBoardLibrary()
        let exercise = CompoundWords.Exercise(rawValue: try options.choice("exercise")) ?? .cards
        var listID = try options.string("list")
        var board: DiceBoard?
        if exercise == .board {
            var boardID = try options.string("board")
            // `start words board garden`: the word after the exercise names a board when it is no list.
            if boardID == nil, let named = listID, lists.list(id: named) == nil,
                boards.board(id: named) != nil
            {
                boardID = named
                listID = nil
            }
            if let boardID {
                guard let found = boards.board(id: boardID) else {
                    let known = boards.boards.map(\.id).joined(separator: ", ")
                    throw RuleError(.unknownBoard, "There is no dice board \"\(boardID)\". Boards: \(known).")
                }
                board = found
            } else {
                board = boards.board(forList: listID ?? "en")
                guard board != nil else {
                    throw RuleError(
                        .unknownBoard,
                        "There is no dice board for the list \"\(listID ?? "en")\"; name one with board=ID.")
                }
            }
        }
        let id = listID ?? board?.list ?? "en"
        guard let list = lists.list(id: id) else {
            let known = lists.lists.map(\.id).joined(separator: ", ")
            throw RuleError(.unknownList, "There is no word list \"\(id)\". Lists: \(known).")
        }
        let level = try options.integer("level", default: board?.level)
        let words = list.words(level: level)
        guard !words.isEmpty else {
            let known = list.levels.map(String.init).joined(separator: ", ")
            throw RuleError(.unknownLevel, "The list \(list.name) has no level \(level); its levels are \(known).")
        }
        let lockout = try options.integer(
            "lockoutSeconds", default: CompoundWords.Settings.defaultLockoutSeconds(exercise))
        var lines = CompoundWords.BingoLine.allCases
        if let named = try options.strings("lines") {
            lines = try named.map { (text) throws(RuleError) -> CompoundWords.BingoLine in
                guard let line = CompoundWords.BingoLine(rawValue: text.lowercased()) else {
                    throw RuleError(.badOption, "lines are rows, columns and diagonals, not \"\(text)\".")
                }
                return line
            }
        }
        let places = try options.integer("places")
        let boardHands = try options.bool("boardHands")
        // The teams with someone here (away players' teams would be ghosts that never finish), as in Shaky Words.
        let teams = context.room.teams.filter { team in context.room.members(of: team).contains(where: \.isConnected) }
        guard !teams.isEmpty else {
            throw RuleError(
                .noTeams, "Compound words needs a team with someone here; players join with a team name.")
        }
        let settings = CompoundWords.Settings(
            exercise: exercise, lockoutMilliseconds: Int64(lockout) * 1000, lines: lines,
            places: places == 0 ? nil : places)
        let recorded = listTool.map { WordAudio(wordsFolder: $0.store.folder).recordings(list: list) } ?? [:]
        return try WordsHost(
            record: StartRecord(
                teams: teams, listID: list.id, listName: list.name, level: level, words: words, board: board,
                settings: settings, boardHands: boardHands ? nil : false, seedText: Seed(context.seed),
                language: list.language.isEmpty ? nil : list.language,
                audio: recorded.isEmpty ? nil : recorded.mapValues(\.rawValue)))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.isFinished }

    var statusLine: String {
        var parts = ["Compound words", game.settings.exercise.rawValue, "\(game.listID) level \(game.level)"]
        parts += game.standings.map { "\($0.team) \($0.done)/\($0.of)" + ($0.place.map { " #\($0)" } ?? "") }
        if game.isPaused { parts.append("paused") }
        return parts.joined(separator: " · ")
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        // The team list is a growing state (PROTOCOL.md §6.0): whole now (with the board), then a `gameUpdate` per
        // team formed mid-game instead of the whole intro again.
        .announcing([.state(.everyone, intro)]) + ((try? apply(.start, at: now)) ?? Step())
    }

    func perform(_ action: WordsWire.Action, context: PlayContext) throws(RuleError) -> Step {
        let team = gameTeam(context.player.team)
        let player = context.player.name
        switch action {
        case .pick(let pick):
            let mapped: CompoundWords.Pick =
                switch pick {
                case .card(let number): .card(number)
                case .word(let word): .word(word)
                case .cell(let cell): .cell(cell)
                }
            return try apply(.pick(team: team, player: player, mapped), at: context.now)
        case .roll:
            return try apply(.roll(team: team, player: player), at: context.now)
        case .move(let move):
            let mapped: CompoundWords.Move =
                switch move {
                case .tile(let tile): .tile(tile)
                case .word(let word): .word(word)
                }
            return try apply(.move(team: team, player: player, mapped), at: context.now)
        }
    }

    /// The game's name for a room team (names compare ignoring case).
    private func gameTeam(_ team: String) -> String {
        game.teams.first { Room.key($0.name) == Room.key(team) }?.name ?? team
    }

    func includes(_ player: Player) -> Bool {
        game.teams.contains(where: { Room.key($0.name) == Room.key(player.team) })
    }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        guard !includes(player) else { return Step() }
        return (try? apply(.addTeam(player.team), at: now)) ?? Step()
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step { Step() }

    /// Typed lines read with the exercise in mind: a bare `2` is a card in the race and a cell in bingo.
    func parse(text line: String) -> TextAction<PlayRequest>? {
        switch WordsWire.Action.parse(text: line, exercise: game.settings.exercise.rawValue) {
        case .action(let action)?: .action(action.request)
        case .usage(let usage)?: .usage(usage)
        case nil: nil
        }
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: WordsWire.Intro {
        let board = game.board.map { board in
            WordsWire.Board(
                id: board.id, name: board.name,
                tiles: board.tiles.map {
                    WordsWire.Tile(id: $0.id, word: $0.word, x: $0.x, y: $0.y, start: $0.isStart)
                },
                paths: board.paths.map { [$0.a, $0.b] })
        }
        return WordsWire.Intro(
            exercise: game.settings.exercise.rawValue, list: game.listID, listName: game.listName, level: game.level,
            words: game.words.count, teams: game.teams.map(\.name), lockoutMs: game.settings.lockoutMilliseconds,
            lines: game.settings.lines.map(\.rawValue), board: board, language: record.language)
    }

    /// Where the page fetches the recording of `word` (a question word or a compound), nil when it has none.
    private func audioURL(_ word: String?) -> String? {
        guard let word, let ext = record.audio?[WordAudio.key(word)], let format = WordAudio.Format(rawValue: ext)
        else { return nil }
        return WordAudio.urlPath(list: game.listID, word: word, format: format)
    }

    private func hand(_ team: String, _ hand: CompoundWords.Hand) -> WordsWire.Hand {
        WordsWire.Hand(
            team: team, word: hand.word, options: hand.cards, number: hand.number, of: hand.of, tile: hand.tile,
            wordAudioURL: audioURL(hand.word))
    }

    private func card(_ team: String, word: String?, cells: [CompoundWords.Cell?]) -> WordsWire.Card {
        WordsWire.Card(
            team: team, word: word, cells: cells.map { $0.map { WordsWire.Cell(text: $0.text, marked: $0.isMarked) } },
            wordAudioURL: audioURL(word))
    }

    private func result(_ answer: WordAnswer) -> WordsWire.Result {
        let compound = answer.correct ? answer.word + answer.answer : nil
        return WordsWire.Result(
            team: answer.team, correct: answer.correct, compound: compound, player: answer.player, word: answer.word,
            answer: answer.answer, ms: answer.ms, audioURL: audioURL(compound))
    }

    private func lockout(_ team: String, until: Instant?, at now: Instant) -> WordsWire.Lockout {
        WordsWire.Lockout(team: team, ms: remaining(until, now) ?? 0, deadline: until?.milliseconds)
    }

    private func progress(_ name: String) -> WordsWire.Progress? {
        guard let team = game.team(named: name) else { return nil }
        return WordsWire.Progress(team: name, done: team.done, of: game.runLength, score: team.score, place: team.place)
    }

    private func tileDone(_ team: String, _ tile: Int) -> WordsWire.TileDone {
        WordsWire.TileDone(team: team, tile: tile, word: game.board?.tile(tile)?.word ?? "")
    }

    private func moved(_ team: String, path: [Int], at tile: Int, steps: Int, choices: [Int]) -> WordsWire.Moved {
        let word = { (id: Int) in self.game.board?.tile(id)?.word ?? "" }
        return WordsWire.Moved(
            team: team, path: path, tile: tile, word: word(tile), steps: steps,
            choices: choices.map { WordsWire.Way(tile: $0, word: word($0)) })
    }

    /// What `name` does now on the board; nil outside the board, or when the team is through.
    private func turn(_ name: String) -> WordsWire.Turn? {
        guard let board = game.board, let team = game.team(named: name), let token = team.token,
            team.place == nil, !game.isFinished
        else { return nil }
        let word = { (id: Int) in board.tile(id)?.word ?? "" }
        let next: String
        var ways: [WordsWire.Way] = []
        switch team.step {
        case .answering?: next = "answer"
        case .rolling?: next = "roll"
        case .choosing(_, _, let choices)?:
            next = "choose"
            ways = choices.map { WordsWire.Way(tile: $0, word: word($0)) }
        case nil: return nil
        }
        return WordsWire.Turn(
            team: team.name, next: next, tile: token, word: word(token), done: team.doneTiles.count,
            of: board.tiles.count, choices: ways)
    }

    private func rolled(_ team: String, _ roll: CompoundWords.Roll) -> WordsWire.Rolled {
        WordsWire.Rolled(team: team, value: roll.value, helpful: roll.isHelpful)
    }

    private var ranking: [WordsWire.Standing] {
        var wrong: [String: Int] = [:]
        for answer in game.answers where !answer.correct { wrong[answer.team, default: 0] += 1 }
        return game.standings.map {
            WordsWire.Standing(
                team: $0.team, score: $0.score, rank: $0.rank, done: $0.done, of: $0.of, place: $0.place,
                wrong: wrong[$0.team] ?? 0)
        }
    }

    /// For the teacher: `Red · Ann · sun + spoon: wrong, 2.3 s`.
    static func feedLine(_ answer: WordAnswer) -> String {
        let seconds = "\(answer.ms / 1000).\(answer.ms % 1000 / 100) s"
        return "\(answer.team) · \(answer.player) · \(answer.word) + \(answer.answer): "
            + (answer.correct ? "right" : "wrong") + ", \(seconds)"
    }

    /// Whether boards see every team's hand and card (the `board-hands` start option; operators always do).
    private var showsHandsOnBoards: Bool { record.boardHands ?? true }

    /// Hands and cards go to their team and to operators, and to boards unless `board-hands=off`.
    private func own(_ team: String, _ message: any HostMessage) -> [Outgoing] {
        [Outgoing(.team(TeamName(team)), message), Outgoing(showsHandsOnBoards ? .spectators : .operators, message)]
    }

    func messages(for effects: [CompoundWords.Effect], at now: Instant) -> [Outgoing] {
        // A team that finishes gets one progress (with its place), sent where the finish is.
        let finishing = Set(
            effects.compactMap { effect -> String? in
                if case .finished(let team, _) = effect { return team }
                return nil
            })
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .hand(let team, let value): outgoing += own(team, hand(team, value))
            case .card(let team, let word, let cells): outgoing += own(team, card(team, word: word, cells: cells))
            case .result(let answer, _):
                outgoing.append(.announcement(.everyone, result(answer), feed: WordsHost.feedLine(answer)))
            case .lockout(let team, let until):
                outgoing.append(Outgoing(.everyone, lockout(team, until: until, at: now)))
            case .bingo(let team, let cells):
                outgoing.append(Outgoing(.everyone, WordsWire.Bingo(team: team, cells: cells)))
            case .progress(let team):
                if !finishing.contains(team), let message = progress(team) {
                    outgoing.append(Outgoing(.everyone, message))
                }
            case .finished(let team, _):
                if let message = progress(team) { outgoing.append(Outgoing(.everyone, message)) }
            case .tileDone(let team, let tile): outgoing.append(Outgoing(.everyone, tileDone(team, tile)))
            case .rolled(let team, let roll): outgoing.append(Outgoing(.everyone, rolled(team, roll)))
            case .moved(let team, let path, let at, let steps, let choices):
                outgoing.append(Outgoing(.everyone, moved(team, path: path, at: at, steps: steps, choices: choices)))
            case .teamJoined: outgoing.append(.state(.everyone, intro))
            case .paused: break  // the generic `steer` announces every pause
            case .resumed: outgoing.append(Outgoing(.everyone, WordsWire.Resumed()))
            case .ended: outgoing.append(Outgoing(.everyone, WordsWire.Scoreboard(ranking: ranking)))
            }
        }
        // Every move of a team on the board ends with that team's prompt (text mode reads it; screens ignore it).
        var moving: [String] = []
        for effect in effects {
            switch effect {
            case .hand(let team, _), .tileDone(let team, _), .moved(let team, _, _, _, _):
                if !moving.contains(team) { moving.append(team) }
            default: break
            }
        }
        for team in moving {
            if let message = turn(team) { outgoing.append(Outgoing(.team(TeamName(team)), message)) }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [any HostMessage] {
        let now = game.pausedAt ?? current  // a paused game's clocks stand still: show what was left at the pause
        var messages: [any HostMessage] = [intro]
        for team in game.teams {
            let name = team.name
            if let message = progress(name) { messages.append(message) }
            messages += team.doneTiles.map { tileDone(name, $0) } as [any HostMessage]
            if let roll = team.lastRoll { messages.append(rolled(name, roll)) }
            if let token = team.token {
                if case .choosing(let steps, _, let choices)? = team.step {
                    messages.append(moved(name, path: [], at: token, steps: steps, choices: choices))
                } else {
                    messages.append(moved(name, path: [], at: token, steps: 0, choices: []))
                }
            }
            if let answer = team.lastAnswer { messages.append(result(answer)) }
            let maySee =
                viewer.role == .admin || (viewer.role == .board && showsHandsOnBoards)
                || (viewer.role == .player && viewer.team.map { Room.key($0) == Room.key(name) } == true)
            if maySee {
                if game.settings.exercise == .bingo {
                    messages.append(card(name, word: team.hand?.word, cells: team.cells))
                } else if let value = team.hand {
                    messages.append(hand(name, value))
                }
            }
            if let until = team.lockedUntil { messages.append(lockout(name, until: until, at: now)) }
            if let line = team.bingoLine { messages.append(WordsWire.Bingo(team: name, cells: line)) }
        }
        if game.isFinished { messages.append(WordsWire.Scoreboard(ranking: ranking)) }
        // Last: where the viewer's team stands and what it does now.
        if viewer.role == .player, let team = viewer.team.flatMap({ game.team(named: $0)?.name }),
            let message = turn(team)
        {
            messages.append(message)
        }
        return messages
    }

    var scores: any HostMessage { WordsWire.Scores(final: game.isFinished, ranking: ranking) }

    /// The readable record of a game (games/*.json): the standings and every answer, for the teacher.
    struct Log: Codable {
        var exercise: String
        var list: String
        var listName: String
        var level: Int
        var board: String?
        var teams: [String]
        var ranking: [WordsWire.Standing]
        var answers: [WordAnswer]
    }

    /// A finished game for people (`partyline-host history N`): the standings, who missed which words, every answer.
    static func logLines(_ json: JSONValue) -> [String] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return ModeEntry.plainLines(json) }
        var lines = [
            "Compound words, \(log.exercise): \(log.listName) level \(log.level)"
                + (log.board.map { ", board \($0)" } ?? "")
        ]
        lines += log.ranking.map {
            "  #\($0.rank) \($0.team): \($0.done)/\($0.of), \($0.score) right"
                + ($0.place.map { ", place \($0)" } ?? "")
        }
        for (player, words) in WordAnswerSheet.missedWords(log.answers) {
            lines.append("  \(player) missed: \(words.joined(separator: ", "))")
        }
        lines.append("Answers (team · player · word + answer: right or wrong, time):")
        lines += log.answers.map { "  " + WordsHost.feedLine($0) }
        return lines
    }

    /// A finished game as the teacher's spreadsheet (`partyline-host history N --csv`): one row per answer.
    static func logRows(_ json: JSONValue) -> [[String]] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return [] }
        return [WordAnswerSheet.columns] + WordAnswerSheet.rows(log.answers)
    }

    var gameLog: JSONValue {
        let log = Log(
            exercise: game.settings.exercise.rawValue, list: game.listID, listName: game.listName, level: game.level,
            board: game.board?.id, teams: game.teams.map(\.name), ranking: ranking, answers: game.answers)
        return (try? JSONCoding.encode(log)) ?? .null
    }
}

/// What WordsHost does beyond the core every game has.
extension WordsHost: RosterAware, KeepsScore, ContextualCommands {}

extension WordsWire: HostedWire {
    static var hostEntry: ModeEntry { WordsHost.entry }
}
