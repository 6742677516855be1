import Foundation
import Protocol
import Rules

/// The station hunt on the wire: turns teams' check-ins, picks, answers and hint requests into `StationHunt` events
/// and its effects into messages, and keeps each hunt's hall of fame when a hunt ends.
///
/// Secrets are routed narrowly: check-in codes never leave the host; a team's clue, task, hints, penalties and
/// solved stations go to that team only; everyone sees the progress (stations and times, never names or answers);
/// the operators see who solved which station and when.
final class HuntHost: GameAdapter {
    typealias Wire = HuntWire

    /// Everything that recreates the hunt with the journaled events.
    struct StartRecord: Codable {
        var teams: [String]
        var hunt: Hunt
        var settings: HuntSettings
        /// The game's seed as decimal text.
        var seedText: String
        /// The hunt's hall of fame when this game started (this game's finishers are added at the end).
        var hallOfFame: HallOfFame
        /// The day the game was played, for its hall-of-fame entries.
        var date: String
        /// An id for this game, so its runs enter a hall of fame once.
        var gameID: String
    }

    /// One solve as the game log keeps it.
    struct SolveRecord: Codable {
        var team: String
        var station: Int
        var name: String
        var elapsedMs: Int64
        var penaltiesMs: Int64
    }

    /// The readable record of a hunt (games/*.json).
    struct Log: Codable {
        var hunt: String
        var name: String
        var order: String
        var teams: [String]
        var solves: [SolveRecord]
        var ranking: [HuntWire.Ranked]
        var hallOfFame: [HuntWire.Fame]
    }

    static let entry = ModeEntry(
        HuntHost.self, aliases: ["stationhunt", "station-hunt", "treasure"],
        make: { (options, context) throws(RuleError) in try HuntHost.make(options: options, context: context) },
        restore: { try HuntHost(record: JSONCoding.decode(StartRecord.self, from: $0)) }, tools: [Hunts.tool])

    var mode: ModeEntry { HuntHost.entry }
    var game: StationHunt
    let record: StartRecord
    /// Set while a step is built when a check-in code was wrong: the player's refusal, though the game changed.
    private var wrongCode: RuleError?

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try StationHunt(
            hunt: record.hunt, teams: record.teams, settings: record.settings, seed: UInt64(record.seedText) ?? 0)
    }

    static func make(options fields: JSONObject, context: GameContext) throws(RuleError) -> HuntHost {
        let options = StartOptions(fields: fields)
        let hunts = context.tools.tool(ContentTool<Hunts>.self)?.library ?? HuntLibrary()
        let known = hunts.hunts.map(\.id).joined(separator: ", ")
        guard let id = try options.string("hunt") else {
            throw RuleError(.badOption, "Name the hunt to play: start hunt ID. Hunts: \(known).")
        }
        guard
            let hunt = hunts.hunt(id: id) ?? hunts.hunts.first(where: { ContentNames.same($0.id, id) })
        else {
            throw RuleError(.unknownHunt, "There is no hunt \"\(id)\". Hunts: \(known).")
        }
        guard !context.room.teams.isEmpty else {
            throw RuleError(.noTeams, "A hunt needs at least one team in the lobby; players join with a team name.")
        }
        let orderText = try options.string("order") ?? "fixed"
        guard let order = HuntSettings.Order(rawValue: orderText.lowercased()) else {
            throw RuleError(.badOption, "order must be fixed or staggered, not \"\(orderText)\".")
        }
        let settings = HuntSettings(
            order: order, minutes: try options.integer("minutes", default: 45, in: HuntSettings.minutesRange),
            penaltySeconds: try options.integer("penaltySeconds", default: 30, in: HuntSettings.penaltySecondsRange),
            isForgiving: !(try options.bool("strict", default: context.options.isStrict)))
        var rng = SplitMix64(seed: context.seed)
        let seed = rng.next()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let date = formatter.string(from: Date())
        // A hall that cannot be read counts as empty here; the end of the game keeps the file aside before writing.
        let stored = (try? HallsOfFame(dataDirectory: context.dataDirectory).read(hunt: hunt.id)) ?? nil
        return try HuntHost(
            record: StartRecord(
                teams: context.room.teams, hunt: hunt, settings: settings, seedText: String(seed),
                hallOfFame: stored ?? HallOfFame(hunt: hunt.id, name: hunt.name), date: date,
                gameID: "\(date)-\(String(rng.next(), radix: 36))"))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    /// The hunt, its phase and each team's progress with its latest solve (`Red 2/3 Desk@3:04`): the console's view
    /// of who solved which station and when.
    var statusLine: String {
        var parts = ["Station hunt", game.hunt.name, game.phase.rawValue]
        if game.pausedAt != nil { parts.append("paused") }
        let latest = Dictionary(game.solveLog.map { ($0.team, $0.solved) }, uniquingKeysWith: { $1 })
        parts.append(
            game.progress.map { row in
                let last = latest[row.team].map { " \($0.name)@\(DurationText.clock($0.elapsedMs))" } ?? ""
                return HuntWire.TeamProgress(row: row).summary + last
            }.joined(separator: ", "))
        return parts.joined(separator: " · ")
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        let started = (try? apply(.start, at: now)) ?? Step()
        return .announcing([Outgoing(.everyone, intro(at: now))]) + started
    }

    func perform(_ action: HuntWire.Action, context: PlayContext) throws(RuleError) -> Step {
        let team = game.team(named: context.player.team) ?? context.player.team
        switch action {
        case .checkIn(let code):
            wrongCode = nil
            var step = try apply(.checkIn(team: team, code: code), at: context.now)
            step.refusal = wrongCode
            wrongCode = nil
            return step
        case .pick(.number(let number)):
            return try apply(.pick(team: team, choice: number - 1), at: context.now)
        case .pick(.word(let word)), .answer(let word):
            return try apply(.answer(team: team, text: word), at: context.now)
        case .hint:
            return try apply(.hint(team: team), at: context.now)
        }
    }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        guard game.team(named: player.team) == nil else { return Step() }
        return (try? apply(.addTeam(player.team), at: now)) ?? Step()
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step { Step() }

    /// At a question, a typed line is the answer; at a puzzle, a typed word of it is a pick.
    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest? {
        guard let team = game.team(named: player.team), let task = game.task(for: team) else { return nil }
        switch task.kind {
        case .question: return HuntWire.Action.answer(text).request
        case .puzzle(let words):
            let key = TextFolding.fold(text)
            return words.contains { TextFolding.fold($0) == key } ? HuntWire.Action.answer(text).request : nil
        }
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private func intro(at now: Instant) -> HuntWire.Intro {
        let frozen = game.pausedAt ?? now
        let remainingMs =
            game.phase == .notStarted ? Int64(game.settings.minutes) * 60_000 : remaining(game.endsAt, frozen) ?? 0
        return HuntWire.Intro(
            hunt: game.hunt.id, name: game.hunt.name, stations: game.stationCount, teams: game.teams,
            order: game.settings.order.rawValue, penaltySeconds: game.settings.penaltySeconds, remainingMs: remainingMs,
            deadline: game.phase == .notStarted ? now.milliseconds + remainingMs : game.endsAt.milliseconds)
    }

    private static func clue(_ clue: StationHunt.Clue) -> HuntWire.Clue {
        HuntWire.Clue(station: clue.number, of: clue.total, text: clue.text)
    }

    private static func task(_ task: StationHunt.Task) -> any HostMessage {
        switch task.kind {
        case .puzzle(let words):
            return OutsiderWire.Puzzle(number: task.number, of: task.total, words: words, hints: task.hints)
        case .question(let text, let letters):
            return HuntWire.Question(
                number: task.number, of: task.total, text: text, letters: letters, hints: task.hints)
        }
    }

    private static func hint(_ hint: StationHunt.HintShown) -> HuntWire.Hint {
        HuntWire.Hint(
            number: hint.number, of: hint.total, text: hint.text, costMs: hint.costMs, penaltiesMs: hint.penaltiesMs)
    }

    private static func stationSolved(_ team: String, _ solved: StationHunt.Solved) -> HuntWire.StationSolved {
        HuntWire.StationSolved(
            team: team, station: solved.number, of: solved.total, name: solved.name, elapsedMs: solved.elapsedMs,
            penaltiesMs: solved.penaltiesMs)
    }

    private static func ranking(_ ranking: [StationHunt.Ranked]) -> [HuntWire.Ranked] {
        ranking.map {
            HuntWire.Ranked(
                team: $0.team, rank: $0.rank, stations: $0.stations, totalMs: $0.totalMs, penaltiesMs: $0.penaltiesMs,
                finished: $0.isFinished)
        }
    }

    /// The hall of fame with this game's finished runs added (what `keepRecords` writes, unless the file changed).
    private var hallOfFame: HallOfFame {
        var hall = record.hallOfFame
        hall.name = game.hunt.name
        hall.record(runs)
        return hall
    }

    /// This game's finished runs, for the hall of fame.
    private var runs: [HallOfFame.Entry] {
        (game.finalRanking ?? []).filter(\.isFinished).map {
            HallOfFame.Entry(
                team: $0.team, totalMs: $0.totalMs, penaltiesMs: $0.penaltiesMs, date: record.date, game: record.gameID)
        }
    }

    private static func fame(_ hall: HallOfFame) -> [HuntWire.Fame] { HallsOfFame.fame(hall) }

    private var scoreboard: HuntWire.Scoreboard {
        HuntWire.Scoreboard(ranking: Self.ranking(game.finalRanking ?? game.ranking), hallOfFame: Self.fame(hallOfFame))
    }

    func messages(for effects: [StationHunt.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .clue(let team, let clue): outgoing.append(Outgoing(.team(team), Self.clue(clue)))
            case .task(let team, let task): outgoing.append(Outgoing(.team(team), Self.task(task)))
            case .wrongCode(_, let attemptsLeft, let lockedUntil):
                // Answered to the player who typed it, as an error (the attempt still counts).
                if let lockedUntil {
                    let seconds = (now.milliseconds(until: lockedUntil) + 999) / 1000
                    wrongCode = RuleError(
                        .codeLocked,
                        "That code is not right, and that was \(game.settings.wrongCodeLimit) wrong codes in a row: "
                            + "check-ins are locked for \(seconds) seconds.")
                } else {
                    wrongCode = RuleError(
                        .wrongCode,
                        "That is not the code of the station your clue leads to. "
                            + "\(Wording.count(attemptsLeft, "try", "tries")) left before a "
                            + "\(game.settings.lockSeconds)-second lock.")
                }
            case .wrongAnswer(let team, let penalty, let penalties):
                outgoing.append(Outgoing(.team(team), HuntWire.Wrong(penaltyMs: penalty, penaltiesMs: penalties)))
            case .hint(let team, let hint): outgoing.append(Outgoing(.team(team), Self.hint(hint)))
            case .solved(let team, let solved):
                outgoing.append(
                    Outgoing(
                        .team(team),
                        HuntWire.Solved(
                            station: solved.number, of: solved.total, name: solved.name, answer: solved.answer,
                            success: solved.success, elapsedMs: solved.elapsedMs, penaltiesMs: solved.penaltiesMs,
                            last: solved.isLast)))
                outgoing.append(Outgoing(.operators, Self.stationSolved(team, solved)))
            case .progress(let rows):
                outgoing.append(
                    Outgoing(.everyone, HuntWire.Progress(teams: rows.map(HuntWire.TeamProgress.init(row:)))))
            case .scoreboard:
                outgoing.append(Outgoing(.everyone, scoreboard))
            case .paused:
                outgoing.append(Outgoing(.everyone, Paused(at: now.milliseconds)))
            case .resumed(let endsAt):
                outgoing.append(
                    Outgoing(
                        .everyone,
                        HuntWire.Resumed(remainingMs: remaining(endsAt, now) ?? 0, deadline: endsAt.milliseconds)))
            }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at now: Instant) -> [any HostMessage] {
        var messages: [any HostMessage] = [intro(at: now)]
        switch game.phase {
        case .finished:
            messages.append(scoreboard)
        case .running:
            messages.append(HuntWire.Progress(teams: game.progress.map(HuntWire.TeamProgress.init(row:))))
            if viewer.role == .admin { messages += game.solveLog.map { Self.stationSolved($0.team, $0.solved) } }
            if viewer.role == .player, let team = viewer.team.flatMap(game.team(named:)) {
                if let clue = game.clue(for: team) { messages.append(Self.clue(clue)) }
                if let task = game.task(for: team) {
                    messages.append(Self.task(task))
                    messages += game.shownHints(for: team).map(Self.hint)
                }
            }
            if let pausedAt = game.pausedAt { messages.append(Paused(at: pausedAt.milliseconds)) }
        case .notStarted:
            break
        }
        return messages
    }

    var scores: (any HostMessage)? {
        HuntWire.Scores(final: game.phase == .finished, ranking: Self.ranking(game.finalRanking ?? game.ranking))
    }

    var gameLog: JSONValue {
        let log = Log(
            hunt: game.hunt.id, name: game.hunt.name, order: game.settings.order.rawValue, teams: game.teams,
            solves: game.solveLog.map {
                SolveRecord(
                    team: $0.team, station: $0.solved.number, name: $0.solved.name, elapsedMs: $0.solved.elapsedMs,
                    penaltiesMs: $0.solved.penaltiesMs)
            }, ranking: Self.ranking(game.finalRanking ?? game.ranking), hallOfFame: Self.fame(hallOfFame))
        return (try? JSONCoding.encode(log)) ?? .null
    }

    /// Adds this game's finished runs to the hunt's hall of fame in the data folder.
    func keepRecords(in storage: Storage) {
        guard game.phase == .finished, !runs.isEmpty else { return }
        do {
            try HallsOfFame(dataDirectory: storage.directory).record(
                hunt: game.hunt.id, name: game.hunt.name, runs: runs, log: storage.log)
        } catch {
            storage.log.error("Could not save the hall of fame of \(game.hunt.id): \(error)")
        }
    }
}

extension HuntWire.TeamProgress {
    /// The wire row of a team's progress.
    init(row: StationHunt.Progress) {
        self.init(
            team: row.team, station: row.stations, of: row.total, elapsedMs: row.elapsedMs,
            penaltiesMs: row.penaltiesMs,
            finished: row.isFinished)
    }
}
