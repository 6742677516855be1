/// Compound words on the wire (PROTOCOL.md §6.5): the card race, team bingo and the dice board.
///
/// A team's hand and card go to that team and to boards and operators; everything else goes to everyone.
public enum WordsWire: GameWire {
    public static let name = "words"
    public static let title = "Compound words"
    public static let startGrammar = StartGrammar(
        game: name,
        options: [
            .choice(
                "exercise", exercises, default: "cards", help: "the card race, team bingo or the dice board",
                isBare: true),
            .word(
                "list", default: "en", note: "board: the board's list", help: "the word list played",
                bareWord: "LIST|BOARD"),
            .number(
                "level", 1...99, default: 1, note: "board: the board's level", help: "the level played",
                bareWord: "LEVEL"),
            .word("board", note: "the first board of the list", help: "the dice board (board exercise only)"),
            .number(
                "lockoutSeconds", 0...60, default: 3, note: "bingo: 0",
                help: "how long a wrong pick locks a team out"),
            .list("lines", note: "all three", help: "bingo: which full lines make BINGO"),
            .number(
                "places", 0...100, default: 0, note: "every team",
                help: "end the game once this many teams are through"),
            .flag(
                "boardHands", default: true,
                help: "boards see each team's hand and card (off: only the team and the operators)"),
        ],
        example: "start words bingo en 1 lines=rows,columns")

    /// The exercises, as `start` names them.
    public static let exercises = ["cards", "bingo", "board"]

    // MARK: Shared parts

    /// One tile of a dice board, where the client draws it.
    public struct Tile: Codable, Sendable, Hashable {
        /// The tile's id (paths and moves name it).
        public var id: Int
        /// The question word answered on it.
        public var word: String
        /// The grid column, 0 at the left.
        public var x: Int
        /// The grid row, 0 at the top.
        public var y: Int
        /// Whether tokens start here.
        public var start: Bool

        /// Creates a tile.
        public init(id: Int, word: String, x: Int, y: Int, start: Bool) {
            self.id = id
            self.word = word
            self.x = x
            self.y = y
            self.start = start
        }
    }

    /// A dice board as the client draws it: tiles at grid positions and the paths between them.
    public struct Board: Codable, Sendable, Hashable {
        /// The board's id.
        public var id: String
        /// Its name.
        public var name: String
        /// The tiles.
        public var tiles: [Tile]
        /// The paths, each a pair of tile ids.
        public var paths: [[Int]]

        /// Creates a board.
        public init(id: String, name: String, tiles: [Tile], paths: [[Int]]) {
            self.id = id
            self.name = name
            self.tiles = tiles
            self.paths = paths
        }

        /// The tile `id`.
        public func tile(_ id: Int) -> Tile? { tiles.first { $0.id == id } }

        /// The tiles one path away from `tile`, in id order.
        public func neighbours(of tile: Int) -> [Int] {
            paths.compactMap { path in
                guard path.count == 2, path.contains(tile) else { return nil }
                return path[0] == tile ? path[1] : path[0]
            }.sorted()
        }

        /// `4 (foot)`.
        public func label(_ tile: Int) -> String { "\(tile) (\(self.tile(tile)?.word ?? "?"))" }

        /// The listing text-mode players read: every tile with its neighbours.
        public var listing: String {
            let rows = tiles.map { tile in
                "\(tile.id) \(tile.word)\(tile.start ? " (start)" : "") → "
                    + neighbours(of: tile.id).map(String.init).joined(separator: ", ")
            }
            return "Tiles, each with the tiles its paths lead to:\n  " + rows.joined(separator: "\n  ")
        }
    }

    /// A tile a token can step to at a fork, with its word.
    public struct Way: Codable, Sendable, Equatable {
        /// The tile's id.
        public var tile: Int
        /// Its word.
        public var word: String

        /// Creates a way.
        public init(tile: Int, word: String) {
            self.tile = tile
            self.word = word
        }
    }

    /// One team's line on the standings; teams through come first, by place.
    public struct Standing: Codable, Sendable, Equatable {
        /// The team.
        public var team: String
        /// Correct compounds.
        public var score: Int
        /// Its competition rank.
        public var rank: Int
        /// Questions done: words through, cells marked, tiles done.
        public var done: Int
        /// Of how many (the level's words, 16 cells, the board's tiles).
        public var of: Int
        /// The place it finished in; null while it plays.
        @Nullable public var place: Int?
        /// Wrong picks so far (the teacher's count beside the right ones); absent from older hosts.
        public var wrong: Int?

        /// Creates a standing.
        public init(team: String, score: Int, rank: Int, done: Int, of: Int, place: Int?, wrong: Int? = nil) {
            self.team = team
            self.score = score
            self.rank = rank
            self.done = done
            self.of = of
            self.place = place
            self.wrong = wrong
        }

        /// `#1 Red 26/26 (place 1), 2 wrong · #2 Blue 12/26, 0 wrong`.
        public static func summary(_ standings: [Standing]) -> String {
            standings.map {
                "#\($0.rank) \($0.team) \($0.done)/\($0.of)" + ($0.place.map { " (place \($0))" } ?? "")
                    + ($0.wrong.map { ", \($0) wrong" } ?? "")
            }
            .joined(separator: " · ")
        }
    }

    /// One cell of a bingo card that holds something.
    public struct Cell: Codable, Sendable, Equatable {
        /// An option of the current word, or the compound on a marked cell.
        public var text: String
        /// Whether the cell is marked.
        public var marked: Bool

        /// Creates a cell.
        public init(text: String, marked: Bool) {
            self.text = text
            self.marked = marked
        }
    }

    /// `a1`…`d4`: a cell's name in text mode (rows a–d, columns 1–4).
    public static func cellName(_ cell: Int) -> String {
        String(UnicodeScalar(UInt8(ascii: "a") + UInt8(max(0, min(15, cell)) / 4))) + String(cell % 4 + 1)
    }

    /// The cell named `a1`…`d4` (any case), or nil.
    public static func cell(named text: String) -> Int? {
        let characters = Array(text.lowercased())
        guard characters.count == 2, let row = "abcd".firstIndex(of: characters[0]),
            let column = Int(String(characters[1])), (1...4).contains(column)
        else { return nil }
        return "abcd".distance(from: "abcd".startIndex, to: row) * 4 + column - 1
    }

    // MARK: Messages

    /// A game of compound words started.
    public struct Intro: GameIntro {
        public static let type = "game"
        public static let gameName = WordsWire.name
        /// Always `words`.
        public var game = WordsWire.name
        /// `cards`, `bingo` or `board`.
        public var exercise: String
        /// The word list's id.
        public var list: String
        /// The word list's name.
        public var listName: String
        /// The level played.
        public var level: Int
        /// The level's question words.
        public var words: Int
        /// The teams playing.
        public var teams: [String]
        /// How long a wrong pick locks a team out, ms (0: never).
        public var lockoutMs: Int64
        /// Bingo: which lines count (`rows`, `columns`, `diagonals`).
        public var lines: [String]
        /// Board: the board to draw; null in the other exercises.
        @Nullable public var board: Board?
        /// The version of the team list, which the `gameUpdate`s that follow continue (PROTOCOL.md §6.0).
        public var seq: Int?
        /// The list's language code from its `# language:` header (`sv`, `en`), for speaking its words; absent
        /// when the list names none.
        public var language: String?

        /// Creates the intro.
        public init(
            exercise: String, list: String, listName: String, level: Int, words: Int, teams: [String],
            lockoutMs: Int64, lines: [String], board: Board?, seq: Int? = nil, language: String? = nil
        ) {
            self.exercise = exercise
            self.list = list
            self.listName = listName
            self.level = level
            self.words = words
            self.teams = teams
            self.lockoutMs = lockoutMs
            self.lines = lines
            self.board = board
            self.seq = seq
            self.language = language
        }

        public func line(for reader: Perspective) -> String? {
            let source = "\(listName), level \(level)"
            let teams = "Teams: \(self.teams.joined(separator: ", "))"
            switch exercise {
            case "bingo":
                return "=== Compound words: team bingo! \(source). \(teams) ===\n"
                    + "Mark a cell that makes a real word with the question word: "
                    + "type its name (b3) or number (1–16). "
                    + "A full line (\(lines.joined(separator: ", "))) is BINGO."
            case "board":
                let name = board.map { "\"\($0.name)\" " } ?? ""
                return "=== Compound words: the dice board \(name)(\(source)). \(teams) ===\n"
                    + (board?.listing ?? "") + "\n"
                    + "Answer the word on your tile (1–4 or the word), then r to roll; at a fork type go and a tile."
            default:
                return "=== Compound words: card race! \(source), \(words) words. \(teams) ===\n"
                    + "Play the card that makes a real word with the question word: type 1–4 or the word."
            }
        }
    }

    /// One team of the game, as a change of the team list names it.
    public struct Entrant: ListItem {
        /// The team's name.
        public var team: String
        /// In a `gameUpdate` only, where the team goes when not at the end (PROTOCOL.md §6.0).
        public var at: Int?

        /// Creates an entrant.
        public init(team: String, at: Int? = nil) {
            self.team = team
            self.at = at
        }

        /// Team names are unique in a game.
        public var key: String { team }
    }

    /// What changed in the team list since the last `game` or `gameUpdate`: teams formed mid-game. The board and
    /// the rest of the intro never change, so a join costs the new team's name, not the board again.
    public typealias IntroUpdate = KeptListDelta<Intro>

    /// A team's question and its option cards (cards and board), to the team and to boards and operators.
    public struct Hand: HostMessage {
        public static let type = "hand"
        /// The team.
        public var team: String
        /// The question word.
        public var word: String
        /// Four places; null where a wrong card was taken away (card numbers 1–4 never shift).
        public var options: [String?]
        /// Which question of the team's run (1-based).
        public var number: Int
        /// How many (words of the level, or tiles of the board).
        public var of: Int
        /// Board: the tile it is asked on; null in the card race.
        @Nullable public var tile: Int?
        /// Where the host serves the question word's recording (`/audio/LIST/WORD.ogg`); absent when it has none.
        public var wordAudioURL: String?

        /// Creates the message.
        public init(
            team: String, word: String, options: [String?], number: Int, of: Int, tile: Int?,
            wordAudioURL: String? = nil
        ) {
            self.team = team
            self.word = word
            self.options = options
            self.number = number
            self.of = of
            self.tile = tile
            self.wordAudioURL = wordAudioURL
        }

        public func line(for reader: Perspective) -> String? {
            let cards = options.enumerated().map { "\($0.offset + 1) \($0.element ?? "—")" }.joined(separator: " · ")
            let place = tile.map { "tile \($0), " } ?? ""
            if reader.isMine(team: team) {
                return ">>> Your word (\(place)\(number)/\(of)): \(word.uppercased()) + ?   \(cards)"
                    + "   (type 1–4 or the word)"
            }
            return "\(team)'s word (\(place)\(number)/\(of)): \(word.uppercased()) + ?   \(cards)"
        }
    }

    /// How a pick went.
    public struct Result: HostMessage {
        public static let type = "result"
        /// The team.
        public var team: String
        /// Whether the option made a real compound word.
        public var correct: Bool
        /// The compound, shown joined, when correct; null when wrong.
        @Nullable public var compound: String?
        /// Who picked.
        public var player: String
        /// The question word.
        public var word: String
        /// The option picked.
        public var answer: String
        /// How long the team thought, ms (from its question or the end of its lockout).
        public var ms: Int64
        /// Where the host serves the compound's recording (`/audio/LIST/sunflower.ogg`); absent when it has none.
        public var audioURL: String?

        /// Creates the message.
        public init(
            team: String, correct: Bool, compound: String?, player: String, word: String, answer: String, ms: Int64,
            audioURL: String? = nil
        ) {
            self.team = team
            self.correct = correct
            self.compound = compound
            self.player = player
            self.word = word
            self.answer = answer
            self.ms = ms
            self.audioURL = audioURL
        }

        public func line(for reader: Perspective) -> String? {
            // Another team's picks reach a player as its short progress line, not pick by pick.
            if reader.team != nil && !reader.isMine(team: team) { return nil }
            if let compound, correct {
                return "✔ \(team) (\(player)): \(word) + \(answer) = \(compound.uppercased())!"
            }
            return "✘ \(team) (\(player)): \(word) + \(answer) is no word."
        }
    }

    /// A team may not pick for `ms` (after a wrong card); `ms` 0 says it may pick again.
    public struct Lockout: HostMessage {
        public static let type = "lockout"
        /// The team.
        public var team: String
        /// How long the lockout lasts from now, ms; 0 when it is over.
        public var ms: Int64
        /// When it ends (host ms); null when it is over.
        @Nullable public var deadline: Int64?

        /// Creates the message.
        public init(team: String, ms: Int64, deadline: Int64?) {
            self.team = team
            self.ms = ms
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            guard reader.isMine(team: team) else {
                return ms > 0 && reader.team == nil ? "\(team) thinks for \(Wording.seconds(ms))." : nil
            }
            return ms > 0
                ? "Think for \(Wording.seconds(ms)) before the next card."
                : ">>> You may pick again: type 1–4 or the word."
        }
    }

    /// A team's bingo card: 16 cells, to the team and to boards and operators.
    public struct Card: HostMessage {
        public static let type = "card"
        /// The team.
        public var team: String
        /// The question word; null once the team has BINGO.
        @Nullable public var word: String?
        /// 16 cells, row by row (a1 a2 a3 a4 b1 …); null for an empty cell.
        public var cells: [Cell?]
        /// Where the host serves the question word's recording; absent when it has none.
        public var wordAudioURL: String?

        /// Creates the message.
        public init(team: String, word: String?, cells: [Cell?], wordAudioURL: String? = nil) {
            self.team = team
            self.word = word
            self.cells = cells
            self.wordAudioURL = wordAudioURL
        }

        public func line(for reader: Perspective) -> String? {
            let mine = reader.isMine(team: team)
            var lines = [
                (mine ? ">>> Your card" : "\(team)'s card")
                    + (word.map { " — word: \($0.uppercased()) + ?" + (mine ? "   (type a cell: b3 or 1–16)" : "") }
                        ?? "")
            ]
            for row in 0..<4 {
                let cells = (0..<4).map { column -> String in
                    let index = row * 4 + column
                    let name = WordsWire.cellName(index)
                    guard index < self.cells.count, let cell = self.cells[index] else { return "\(name) ·" }
                    return name + " " + (cell.marked ? "[\(cell.text.uppercased())]" : cell.text)
                }
                lines.append(
                    "  "
                        + cells.map {
                            $0.count >= 18
                                ? String($0.prefix(17)) + "…" : $0.padding(toLength: 18, withPad: " ", startingAt: 0)
                        }.joined())
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A team completed a line.
    public struct Bingo: HostMessage {
        public static let type = "bingo"
        /// The team.
        public var team: String
        /// The four cells of the line.
        public var cells: [Int]

        /// Creates the message.
        public init(team: String, cells: [Int]) {
            self.team = team
            self.cells = cells
        }

        public func line(for reader: Perspective) -> String? {
            "*** BINGO! \(team) has a line: \(cells.map(WordsWire.cellName).joined(separator: " ")) ***"
        }
    }

    /// A team's progress changed (after each correct compound, and when it is through).
    public struct Progress: HostMessage {
        public static let type = "progress"
        /// The team.
        public var team: String
        /// Questions done: words through, cells marked, tiles done.
        public var done: Int
        /// Of how many.
        public var of: Int
        /// Correct compounds.
        public var score: Int
        /// The place it finished in; null while it plays.
        @Nullable public var place: Int?

        /// Creates the message.
        public init(team: String, done: Int, of: Int, score: Int, place: Int?) {
            self.team = team
            self.done = done
            self.of = of
            self.score = score
            self.place = place
        }

        /// A place for everyone; while it plays, `· Blue: 3 of 12 done.` for the other teams' players (their one line
        /// for a team's turn), nothing for the team itself or the watchers (they read every move).
        public func line(for reader: Perspective) -> String? {
            guard let place else {
                guard reader.team != nil, !reader.isMine(team: team) else { return nil }
                return "· \(team): \(done) of \(of) done."
            }
            return "*** \(team) is through — place \(place)! ***"
        }
    }

    /// Board: a tile is done for a team.
    public struct TileDone: HostMessage {
        public static let type = "tile"
        /// The team.
        public var team: String
        /// The tile's id.
        public var tile: Int
        /// Its word.
        public var word: String

        /// Creates the message.
        public init(team: String, tile: Int, word: String) {
            self.team = team
            self.tile = tile
            self.word = word
        }

        /// For watchers only: a player reads the team's `turn` line (or another team's progress line) instead.
        public func line(for reader: Perspective) -> String? {
            reader.team == nil ? "\(team) finished tile \(tile) (\(word))." : nil
        }
    }

    /// Board: a team rolled the die.
    public struct Rolled: HostMessage {
        public static let type = "rolled"
        /// The team.
        public var team: String
        /// 1…6.
        public var value: Int
        /// Whether the helpful die chose among the numbers that reach an unfinished tile.
        public var helpful: Bool

        /// Creates the message.
        public init(team: String, value: Int, helpful: Bool) {
            self.team = team
            self.value = value
            self.helpful = helpful
        }

        public func line(for reader: Perspective) -> String? {
            reader.team != nil && !reader.isMine(team: team) ? nil : "\(team) rolled a \(value)."
        }
    }

    /// Board: a team's token walked `path` and stands on `tile`; with `choices` it waits at a fork.
    public struct Moved: HostMessage {
        public static let type = "moved"
        /// The team.
        public var team: String
        /// The tiles walked through, in order (empty when it did not move).
        public var path: [Int]
        /// Where the token stands.
        public var tile: Int
        /// That tile's word.
        public var word: String
        /// Steps still to walk (after a choice at the fork).
        public var steps: Int
        /// The tiles the team may choose at a fork; empty when the token stopped.
        public var choices: [Way]

        /// Creates the message.
        public init(team: String, path: [Int], tile: Int, word: String, steps: Int, choices: [Way]) {
            self.team = team
            self.path = path
            self.tile = tile
            self.word = word
            self.steps = steps
            self.choices = choices
        }

        public func line(for reader: Perspective) -> String? {
            if reader.team != nil && !reader.isMine(team: team) { return nil }
            let who = reader.isMine(team: team) ? "Your token" : "\(team)'s token"
            let walked = path.isEmpty ? "stands on" : "walked \(path.map(String.init).joined(separator: " → ")) to"
            guard !choices.isEmpty else { return "\(who) \(walked) \(tile) (\(word))." }
            let ways = choices.map { "go \($0.tile) (\($0.word))" }.joined(separator: " or ")
            let left = "\(steps) step\(steps == 1 ? "" : "s") left"
            return "\(who) \(walked) \(tile) (\(word)): a fork, \(left). "
                + (reader.isMine(team: team) ? "Type \(ways)." : "Ways: \(ways).")
        }
    }

    /// Board: what a team does now — sent to the team after each of its moves, and last in its players' catch-up,
    /// so that a text-mode player always ends on their own prompt.
    public struct Turn: HostMessage {
        public static let type = "boardTurn"
        /// The team.
        public var team: String
        /// `answer` (the word on its tile), `roll`, `choose` (a way at a fork) or `through`.
        public var next: String
        /// Where its token stands.
        public var tile: Int
        /// That tile's word.
        public var word: String
        /// Tiles done.
        public var done: Int
        /// Of how many.
        public var of: Int
        /// At a fork, the ways; else empty.
        public var choices: [Way]

        /// Creates the message.
        public init(team: String, next: String, tile: Int, word: String, done: Int, of: Int, choices: [Way]) {
            self.team = team
            self.next = next
            self.tile = tile
            self.word = word
            self.done = done
            self.of = of
            self.choices = choices
        }

        /// `>>> Your turn: roll the die — type r.   (tile 4 fire, done · 3 of 12 tiles done)`; only the team reads it.
        public func line(for reader: Perspective) -> String? {
            guard reader.isMine(team: team) else { return nil }
            let standing = "\(done) of \(of) tiles done"
            switch next {
            case "roll":
                return
                    ">>> Your turn: roll the die — type r.   (your token is on tile \(tile), \(word), done · \(standing))"
            case "answer":
                return ">>> Your turn: \(word.uppercased()) + ? on tile \(tile) — type 1–4 or the word.   (\(standing))"
            case "choose":
                let ways = choices.map { "go \($0.tile) (\($0.word))" }.joined(separator: " or ")
                return ">>> Your turn: a fork at tile \(tile) — type \(ways).   (\(standing))"
            default:
                return nil
            }
        }
    }

    /// The standings on request.
    public struct Scores: HostMessage {
        public static let type = "scores"
        /// Whether the game is over.
        public var final: Bool
        /// Always `words`.
        public var game = WordsWire.name
        /// Best first.
        public var ranking: [Standing]

        /// Creates the message.
        public init(final: Bool, ranking: [Standing]) {
            self.final = final
            self.ranking = ranking
        }

        public func line(for reader: Perspective) -> String? { "Standings: " + Standing.summary(ranking) }
    }

    /// The game is over: the final standings.
    public struct Scoreboard: HostMessage {
        public static let type = "scoreboard"
        /// Always true.
        public var final = true
        /// Best first.
        public var ranking: [Standing]

        /// Creates the message.
        public init(ranking: [Standing]) { self.ranking = ranking }

        public func line(for reader: Perspective) -> String? { "=== Final: " + Standing.summary(ranking) + " ===" }
    }

    /// The clocks run again (lockouts follow as `lockout` with their new deadlines).
    public struct Resumed: HostMessage {
        public static let type = "resumed"

        /// Creates the message.
        public init() {}

        public func line(for reader: Perspective) -> String? { "The game continues." }
    }

    /// Everything the host sends during compound words.
    public enum Message: DecodedFamily {
        case intro(Intro)
        case introUpdate(IntroUpdate)
        case hand(Hand)
        case result(Result)
        case lockout(Lockout)
        case card(Card)
        case bingo(Bingo)
        case progress(Progress)
        case tileDone(TileDone)
        case rolled(Rolled)
        case moved(Moved)
        case scores(Scores)
        case scoreboard(Scoreboard)
        case resumed(Resumed)
        case turn(Turn)

        /// The family's table: one entry per message type.
        public static let decoder = FamilyDecoder<Message>([
            member(Intro.self, Message.intro), member(IntroUpdate.self, Message.introUpdate),
            member(Hand.self, Message.hand), member(Result.self, Message.result),
            member(Lockout.self, Message.lockout), member(Card.self, Message.card), member(Bingo.self, Message.bingo),
            member(Progress.self, Message.progress), member(TileDone.self, Message.tileDone),
            member(Rolled.self, Message.rolled), member(Moved.self, Message.moved), member(Scores.self, Message.scores),
            member(Scoreboard.self, Message.scoreboard), member(Resumed.self, Message.resumed),
            member(Turn.self, Message.turn),
        ])

        public var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .introUpdate(let message): message
            case .hand(let message): message
            case .result(let message): message
            case .lockout(let message): message
            case .card(let message): message
            case .bingo(let message): message
            case .progress(let message): message
            case .tileDone(let message): message
            case .rolled(let message): message
            case .moved(let message): message
            case .scores(let message): message
            case .scoreboard(let message): message
            case .resumed(let message): message
            case .turn(let message): message
            }
        }
    }

    // MARK: Actions

    /// Which option a team picks.
    public enum Pick: Sendable, Equatable {
        /// A card of the hand, 1–4 as shown.
        case card(Int)
        /// An option by its text.
        case word(String)
        /// A bingo cell, 0–15 (a1 = 0, a2 = 1, …, d4 = 15).
        case cell(Int)
    }

    /// Where a team goes at a fork.
    public enum Move: Sendable, Equatable {
        /// A tile by id.
        case tile(Int)
        /// A tile by its word.
        case word(String)
    }

    /// What a team does in compound words.
    public enum Action: GameAction {
        /// Plays a card or marks a cell.
        case pick(Pick)
        /// Rolls the die (board).
        case roll
        /// Chooses the path at a fork (board).
        case move(Move)

        public static let types = ["pick", "roll", "move"]

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            switch request.type {
            case "pick":
                let choice = try fields.integer("choice")
                let word = try fields.string("word", required: false, limit: 40)
                let cell = try fields.integer("cell")
                guard [choice != nil, word != nil, cell != nil].filter({ $0 }).count == 1 else {
                    throw fields.error(
                        .badField, "A pick needs one of \"choice\" (1–4), \"word\" or \"cell\" (0–15).")
                }
                if let choice {
                    guard (1...4).contains(choice) else { throw fields.error(.badField, "\"choice\" must be 1 to 4.") }
                    return .pick(.card(Int(choice)))
                }
                if let cell {
                    guard (0...15).contains(cell) else { throw fields.error(.badField, "\"cell\" must be 0 to 15.") }
                    return .pick(.cell(Int(cell)))
                }
                return .pick(.word(word ?? ""))
            case "roll":
                return .roll
            case "move":
                if let tile = try fields.integer("tile") {
                    guard (1...999).contains(tile) else { throw fields.error(.badField, "\"tile\" must be a tile id.") }
                    return .move(.tile(Int(tile)))
                }
                guard let word = try fields.string("word", required: false, limit: 40) else {
                    throw fields.error(.badField, "A move needs \"tile\" (a tile id) or \"word\" (the tile's word).")
                }
                return .move(.word(word))
            default:
                throw fields.error(.unknownType, "Compound words has no \"\(request.type)\".")
            }
        }

        public var request: PlayRequest {
            switch self {
            case .pick(.card(let number)): PlayRequest(type: "pick", fields: ["choice": .int(Int64(number))])
            case .pick(.word(let word)): PlayRequest(type: "pick", fields: ["word": .string(word)])
            case .pick(.cell(let cell)): PlayRequest(type: "pick", fields: ["cell": .int(Int64(cell))])
            case .roll: PlayRequest(type: "roll")
            case .move(.tile(let tile)): PlayRequest(type: "move", fields: ["tile": .int(Int64(tile))])
            case .move(.word(let word)): PlayRequest(type: "move", fields: ["word": .string(word)])
            }
        }

        public var pressedAt: Int64? { nil }

        public static func parse(text line: String) -> TextAction<Action>? { parse(text: line, exercise: nil) }

        /// Reads a typed line for `exercise`: besides `pick X`, `r` and `go X`, a bare card number or word, and in
        /// bingo a bare cell (`b3` or 1–16). Without an exercise only the explicit commands are read.
        public static func parse(text line: String, exercise: String?) -> TextAction<Action>? {
            let (verb, rest) = splitCommand(line)
            switch verb {
            case "pick", "p":
                guard !rest.isEmpty, !rest.contains(" ") else { return .usage(pickUsage(exercise)) }
                return pick(rest, exercise: exercise) ?? .usage(pickUsage(exercise))
            case "r", "roll":
                return rest.isEmpty ? .action(.roll) : nil
            case "go", "move":
                guard !rest.isEmpty, !rest.contains(" ") else { return .usage("go N or go WORD   (a tile at a fork)") }
                if let tile = Int(rest) { return .action(.move(.tile(tile))) }
                return .action(.move(.word(rest)))
            default:
                guard exercise != nil, rest.isEmpty, !verb.isEmpty else { return nil }
                return pick(line.trimmingCharacters(in: .whitespaces), exercise: exercise)
            }
        }

        private static func pick(_ text: String, exercise: String?) -> TextAction<Action>? {
            if let cell = WordsWire.cell(named: text) { return .action(.pick(.cell(cell))) }
            if let number = Int(text) {
                if exercise == "bingo" {
                    return (1...16).contains(number) ? .action(.pick(.cell(number - 1))) : .usage(pickUsage(exercise))
                }
                return (1...4).contains(number) ? .action(.pick(.card(number))) : .usage(pickUsage(exercise))
            }
            guard text.allSatisfy(\.isLetter) else { return nil }
            return .action(.pick(.word(text)))
        }

        private static func pickUsage(_ exercise: String?) -> String {
            exercise == "bingo" ? "a cell: a1 to d4, or 1 to 16 (or the option's word)" : "a card: 1 to 4, or its word"
        }

        public static let textHelp = [
            "  1–4 or WORD      play a card (card race and board)",
            "  b3 or 7          mark a bingo cell: row a–d and column 1–4, or 1–16",
            "  r or roll        roll the die (board)     go N / go WORD   choose your path at a fork",
        ]
    }
}

extension WordsWire.Intro: KeptList {
    /// The team list's delta: teams formed mid-game. The board and the rest of the intro never change, so a join
    /// costs the new team's name, not the board again.
    public static let deltaType = "gameUpdate"
    /// The new teams, as `teams`.
    public static let deltaItemsKey = "teams"

    /// The team list, as entrants.
    public var items: [WordsWire.Entrant] { teams.map { WordsWire.Entrant(team: $0) } }

    /// This intro with `items` as its team list.
    public func holding(_ items: [WordsWire.Entrant]) -> WordsWire.Intro {
        var next = self
        next.teams = items.map(\.team)
        return next
    }

    /// `Team Gold joins the game (3 teams).` A team stays in the game once in it (its players may leave; its
    /// progress stays on the standings).
    public static func line(for items: [WordsWire.Entrant], count: Int, reader: Perspective) -> String? {
        return (items.count > 1 ? "Teams \(Wording.list(items.map(\.team))) join" : "Team \(items[0].team) joins")
            + " the game (\(Wording.count(count, "team")))."
    }
}
