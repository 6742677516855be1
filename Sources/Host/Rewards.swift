import Foundation
import Protocol
import Rules

/// Every player's reward character, kept in the data folder (`rewards/players.json`) across games and host
/// restarts, as Let Me Fly keeps its records: read once, changed as players pick and answer, written atomically.
///
/// Right answers are counted from what the games announce (`rightAnswers(in:room:)`), so no mode needs to know about
/// rewards. A growth and a pick are written at once; plain counting is written at most once a second
/// (`saveIfDue`), at the end of each game and when the host stops. A file that cannot be read is reported, kept
/// beside as `players.json.broken-<n>` at the first save, and the evening goes on from an empty book.
final class RewardKeeper {
    /// The file (`rewards/players.json`) and what it holds, with this evening's changes.
    private var kept: KeptJSON<RewardBook>
    /// The file, or nil for a keeper that keeps nothing (no data folder).
    var path: String? { kept.path }
    /// What the file holds, with this evening's changes.
    var book: RewardBook { kept.value }
    /// Why the file could not be read, to tell the operator once.
    var problem: String? { kept.problem }
    /// What each player's character did in the running game, in the order they first counted, for its log.
    private(set) var gameRecords: [GameRecord] = []
    /// The last failure to save, said once until it changes or saving works again.
    private var lastProblem: String?

    /// What one player's character did in one game: the right answers counted and the stages reached.
    struct GameRecord: Codable, Equatable {
        /// The player's name as kept.
        var player: String
        /// Their character's id.
        var character: String
        /// The right answers counted in this game.
        var rightAnswers: Int
        /// The stage reached by the game's end.
        var stage: Int
        /// The stages reached in this game.
        var unlocked: [Int]
    }

    /// The book in `directory`'s `rewards/players.json` (nil: memory only).
    init(directory: String?) {
        kept = KeptJSON(
            path: directory.map { $0 + "/rewards/players.json" }, empty: RewardBook(), title: "the rewards",
            afresh: "characters start afresh tonight")
    }

    /// Where `name` stands, as the `character` message tells it (`picked`: in answer to their own pick).
    func message(for name: String, grew: Bool = false, picked: Bool = false) -> CharacterProgress {
        RewardKeeper.message(book.progress(of: name), grew: grew, picked: picked)
    }

    /// `progress` as the `character` message tells it.
    static func message(_ progress: RewardProgress, grew: Bool = false, picked: Bool = false) -> CharacterProgress {
        CharacterProgress(
            character: progress.character, stage: progress.stage, stages: Rewards.stages,
            rightAnswers: progress.rightAnswers, next: progress.next, canChange: progress.canChange,
            choices: Rewards.characters.map(\.id),
            upgrade: progress.character == nil ? nil : Rewards.upgrade(progress.stage), grew: grew, picked: picked)
    }

    /// `name` picks the character `id` now; written at once (a failure to write is returned as `problem`).
    func pick(_ id: String, for name: String) throws(RuleError) -> (message: CharacterProgress, problem: String?) {
        let progress = try kept.value.pick(id, for: name, date: RewardKeeper.now())
        kept.noteChanged()
        return (RewardKeeper.message(progress, picked: true), save())
    }

    /// Counts one right answer for each of `names` (a name twice counts twice) in the game `game`: the players who
    /// have a character, with where they now stand, in the order first named. A growth is written at once.
    func credit(_ names: [String], game: String?) -> (
        updates: [(name: String, progress: RewardProgress)], problem: String?
    ) {
        var order: [String] = []
        var counts: [String: (name: String, count: Int)] = [:]
        for name in names {
            let key = RewardBook.key(name)
            if counts[key] == nil { order.append(key) }
            counts[key, default: (name, 0)].count += 1
        }
        let date = RewardKeeper.now()
        var updates: [(name: String, progress: RewardProgress)] = []
        for key in order {
            guard let (name, count) = counts[key] else { continue }
            let before = book.progress(of: name).stage
            guard let progress = kept.value.credit(name, count: count, date: date, game: game),
                let character = progress.character
            else { continue }
            kept.noteChanged()
            updates.append((name, progress))
            let reached = progress.grew ? Array((before + 1)...progress.stage) : []
            if let index = gameRecords.firstIndex(where: { RewardBook.key($0.player) == key }) {
                gameRecords[index].rightAnswers += count
                gameRecords[index].stage = progress.stage
                gameRecords[index].character = character
                gameRecords[index].unlocked += reached
            } else {
                gameRecords.append(
                    GameRecord(
                        player: progress.name, character: character, rightAnswers: count, stage: progress.stage,
                        unlocked: reached))
            }
        }
        let grew = updates.contains { $0.progress.grew }
        return (updates, grew ? save() : nil)
    }

    /// What the characters did in the game that ends, for its log (then forgotten; also at a game's start).
    func takeGameRecords() -> [GameRecord] {
        defer { gameRecords = [] }
        return gameRecords
    }

    /// Writes the book if anything changed; a new failure is returned as a sentence for the operator (the same
    /// failure again is not, so a full disk is said once, not every second).
    func save() -> String? {
        let problem = write()
        defer { lastProblem = problem }
        return problem == lastProblem ? nil : problem
    }

    private func write() -> String? { kept.write() }

    /// ISO 8601 in UTC, second precision (text order is time order), as Let Me Fly's records write dates.
    static func now() -> String { FlyRecordStore.date(Date()) }

    /// The players whose right answer `message` announces: a compound-words pick by its player; a Shaky Words
    /// verdict and an Odd One Out reveal by team, for every connected member of a team that was right.
    static func rightAnswers(in message: any HostMessage, room: Room) -> [String] {
        func members(_ team: String) -> [String] { room.members(of: team).filter(\.isConnected).map(\.name) }
        switch message {
        case let result as WordsWire.Result where result.correct: return [result.player]
        case let result as ShakyWire.Result where result.correct: return members(result.team)
        case let reveal as OutsiderWire.Reveal: return reveal.results.filter(\.correct).flatMap { members($0.team) }
        default: return []
        }
    }
}

extension RewardKeeper.GameRecord {
    /// `Ann: fox, 4 right answers, stage 2 of 4 (reached stage 2)`.
    var line: String {
        let reached = unlocked.isEmpty ? "" : " (reached stage \(unlocked.map(String.init).joined(separator: ", ")))"
        return "\(player): \(character), \(Wording.count(rightAnswers, "right answer")), stage \(stage) of "
            + "\(Rewards.stages)\(reached)"
    }

    /// The lines a finished game's log adds for its rewards (`history N`); none when it has no `rewards`.
    static func lines(inLog log: JSONValue) -> [String] {
        guard let records = log["rewards"].flatMap({ try? JSONCoding.decode([Self].self, from: $0) }),
            !records.isEmpty
        else { return [] }
        return ["", "Rewards (characters grown by right answers):"] + records.map { "  " + $0.line }
    }
}

/// The rewards as an operator tool: the console's `rewards` (and `history --rewards`), admin clients'
/// `{"type":"rewards","action":"list"}` and `partyline-host history --rewards [--csv]`: every player's character,
/// stage, right answers and each stage reached with its date and game.
final class RewardsTool: OperatorTool {
    /// The data folder the rewards are read from (afresh at each request).
    let storage: Storage

    /// The tool on `storage`'s data folder.
    init(storage: Storage) { self.storage = storage }

    /// `rewards` on the console and the command line.
    var noun: String { "rewards" }
    /// `reward` and `characters` work too.
    var aliases: [String] { ["reward", "characters"] }
    /// `{"type":"rewards","action":"list"}` from admin clients.
    var requestType: String { "rewards" }
    /// The console's help line.
    var usage: [String] {
        ["rewards [--csv]                 the players' characters and what they unlocked (history --rewards)"]
    }

    /// `rewards`, `rewards history`, `rewards --csv` (or `csv`): the list, readable or as a spreadsheet.
    func parse(_ words: [String]) -> ToolRequest? {
        var rest = words.map { $0.lowercased() }
        rest.removeAll { ["history", "list"].contains($0) }
        let isCSV = rest.contains("--csv") || rest.contains("csv")
        rest.removeAll { ["--csv", "csv"].contains($0) }
        guard rest.isEmpty else { return nil }
        return ToolRequest(action: "list", fields: isCSV ? ["csv": true] : [:])
    }

    /// Every player's character, stage and unlocks as a `content` (or, with `csv`, the spreadsheet in an `ok`).
    func run(_ request: ToolRequest, caller: ToolCaller) throws(RuleError) -> any HostMessage {
        guard request.action == "list" || request.action == "history" else {
            throw RuleError(.unknownCommand, "The rewards answer \"list\" (with \"csv\": true for a spreadsheet).")
        }
        let keeper = RewardKeeper(directory: storage.directory)
        let entries = keeper.book.entries
        if request.fields["csv"]?.boolValue == true {
            return OkReply(message: RewardsTool.csv(entries).trimmingCharacters(in: .newlines))
        }
        var lines: [String] = keeper.problem.map { [$0, ""] } ?? []
        if entries.isEmpty { lines.append("No player has picked a character yet.") }
        for entry in entries {
            let progress = keeper.book.progress(of: entry.name)
            let next = progress.next.map { "; \($0 - progress.rightAnswers) more to grow" } ?? "; fully grown"
            lines.append(
                "\(entry.name): \(entry.character ?? "?"), stage \(progress.stage) of \(Rewards.stages), "
                    + "\(Wording.count(entry.rightAnswers, "right answer"))\(next)")
            for unlock in entry.unlocked {
                lines.append(
                    "    stage \(unlock.stage) (\(Rewards.upgrade(unlock.stage))) \(FlyRecordsTool.local(unlock.date))"
                        + (unlock.game.map { " in \($0)" } ?? ""))
            }
        }
        return ContentDetail(
            kind: requestType, id: "rewards", name: "Characters and what they unlocked", builtin: false,
            item: (try? JSONCoding.encode(keeper.book)) ?? .null, lines: lines)
    }

    /// One row per stage reached (the first stage at the pick), for a spreadsheet: who, which character, the stage
    /// and its upgrade, after how many right answers, when and in which game.
    static func csv(_ entries: [RewardBook.Entry]) -> String {
        var rows: [[String]] = []
        for entry in entries {
            var stages = [(entry.character ?? "", 1, entry.picked ?? "", "")]
            stages += entry.unlocked.map { ($0.character, $0.stage, $0.date, $0.game ?? "") }
            for (character, stage, date, game) in stages {
                rows.append([
                    entry.name, character, "\(stage)", Rewards.upgrade(stage),
                    "\(Rewards.thresholds[min(max(stage, 1), Rewards.stages) - 1])", date, game,
                ])
            }
        }
        return CSV.document(
            header: ["player", "character", "stage", "upgrade", "afterRightAnswers", "date", "game"], rows: rows)
    }
}
