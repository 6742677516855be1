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
        var seedText: Seed
        /// The hunt's hall of fame when this game started (this game's finishers are added at the end).
        var hallOfFame: HallOfFame
        /// The day the game was played, for its hall-of-fame entries.
        var date: String
        /// An id for this game, so its runs enter a hall of fame once.
        var gameID: String
        /// Whether this hunt was already played tonight (its codes may be known).
        var isRepeat: Bool?
    }

    /// One solve as the game log keeps it.
    struct SolveRecord: Codable {
        var team: String
        var station: Int
        var name: String
        var elapsedMs: Int64
        var penaltiesMs: Int64
    }

    /// One thing a team did, as the game log keeps it: check-ins, wrong codes, answers with their verdicts, hints.
    struct EventRecord: Codable {
        var team: String
        /// Hunt time, ms.
        var ms: Int64
        /// The station the team was at or heading for.
        var station: String
        /// `checked in`, `wrong code`, `locked out`, `wrong`, `right` or `hint`.
        var what: String
        /// The code, word or answer as typed; the hint's text.
        var typed: String?
        /// Time added (a wrong answer's penalty, a hint's cost), ms.
        var penaltyMs: Int64

        /// `3:04 Red at Fridge: wrong "cat" (+0:30)`.
        var line: String {
            let typed = self.typed.map { " \"\($0)\"" } ?? ""
            let penalty = penaltyMs > 0 ? " (+\(DurationText.clock(penaltyMs)))" : ""
            return "\(DurationText.clock(ms))  \(team) at \(station): \(what)\(typed)\(penalty)"
        }
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
        /// Everything the teams did, in order (absent in logs written before it was kept).
        var events: [EventRecord]?
    }

    static let entry = ModeEntry(
        HuntHost.self, aliases: ["stationhunt", "station-hunt", "treasure"],
        make: { (options, context) throws(RuleError) in try HuntHost.make(options: options, context: context) },
        restore: { try HuntHost(record: JSONCoding.decode(StartRecord.self, from: $0)) }, tools: [Hunts.tool],
        logLines: { HuntHost.logLines($0) }, logRows: { HuntHost.logRows($0) })

    var mode: ModeEntry { HuntHost.entry }
    var game: StationHunt
    let record: StartRecord
    /// Set while a step is built when a check-in code was wrong: the player's refusal, though the game changed.
    private var wrongCode: RuleError?
    /// What the teams did, for the game log (rebuilt from the journal on resume).
    private var events: [EventRecord] = []

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try StationHunt(
            hunt: record.hunt, teams: record.teams, settings: record.settings, seed: record.seedText.value)
    }

    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> HuntHost {
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
        // The teams with someone here (away players' teams would be ghosts), unless the operator names them.
        let present = context.room.teams.filter { context.room.members(of: $0).contains(where: \.isConnected) }
        let teams = try options.strings("teams").map { $0.map(context.room.canonicalTeam) } ?? present
        guard !teams.isEmpty else {
            throw RuleError(
                .noTeams, "A hunt needs at least one team with a player here; players join with a team name.")
        }
        let order = HuntSettings.Order(rawValue: try options.choice("order")) ?? .fixed
        let settings = HuntSettings(
            order: order, minutes: try options.integer("minutes"),
            penaltySeconds: try options.integer("penaltySeconds"), isForgiving: !(try options.bool("strict")),
            lateTeamWaitSeconds: try options.integer("lateWaitSeconds"))
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
                teams: teams, hunt: hunt, settings: settings, seedText: Seed(seed),
                hallOfFame: stored ?? HallOfFame(hunt: hunt.id, name: hunt.name), date: date,
                gameID: "\(date)-\(String(rng.next(), radix: 36))",
                isRepeat: context.played.contains(playedKey(hunt.id)) ? true : nil))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    /// The key under which the host remembers that the hunt `id` was played tonight.
    static func playedKey(_ id: String) -> String { "hunt: " + id }

    var playedContent: [String] { [Self.playedKey(game.hunt.id)] }

    var startNote: String? {
        guard record.isRepeat == true else { return nil }
        return "This hunt was already played tonight, so teams may remember its codes."
    }

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
            do {
                return try apply(.answer(team: team, text: word), at: context.now)
            } catch  where error.code == .badChoice && awaitsTypedLine(from: context.player) {
                // A line typed at a puzzle that is none of its words (`help`): say how to pick and what commands are.
                throw RuleError(
                    .badChoice, error.message + " Type 1-4 or a word; commands start with / now (/help, /scores).")
            }
        case .hint:
            return try apply(.hint(team: team), at: context.now)
        }
    }

    func includes(_ player: Player) -> Bool { game.team(named: player.team) != nil }

    /// A check-in tries a code: the host limits wrong ones per connection and address too.
    func isGuess(_ request: PlayRequest) -> Bool { request.type == "checkin" }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        // The first player back after a restart lets the hunt clock run again (`hostRestarted` held it).
        let back = game.isHeldForRestart ? (try? apply(.playerBack, at: now)) ?? Step() : Step()
        guard !includes(player) else { return back }
        return back + ((try? apply(.addTeam(player.team), at: now)) ?? Step())
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step { Step() }

    /// At its station's task a team's typed lines are its answer (or pick): commands need a leading `/` then,
    /// except the hunt's own `hint` and `checkin`. While it follows a clue, commands work as always.
    func awaitsTypedLine(from player: Player) -> Bool {
        guard game.pausedAt == nil, let team = game.team(named: player.team) else { return false }
        return game.task(for: team) != nil
    }

    /// Following a clue, a bare word is most likely the code read off the station's sheet: say how to check in
    /// (it is not taken as a code by itself, so that a mistyped command never counts as a wrong code).
    func helpForUnknownLine(_ text: String, from player: Player) -> String? {
        let word = text.trimmingCharacters(in: .whitespaces)
        guard let team = game.team(named: player.team), game.clue(for: team) != nil, !word.isEmpty,
            !word.contains(" ")
        else { return nil }
        return "To check in at a station, type checkin and the code posted there: checkin \(word.uppercased())"
    }

    /// At a task: `hint` asks for a hint, `checkin …` checks in (refused there, without cost), `1`–`4` (or
    /// `pick …`) picks at a puzzle, anything else is the answer (a word that is none of a puzzle's four is refused
    /// without cost). Following a clue, a bare line is nothing: a code needs
    /// `checkin` there, so that no mistyped command counts as a wrong code.
    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest? {
        guard let team = game.team(named: player.team), let task = game.task(for: team) else { return nil }
        let line = text.trimmingCharacters(in: .whitespaces)
        if case .action(let action)? = HuntWire.Action.parse(text: line) {
            switch action {
            case .hint, .checkIn: return action.request
            case .pick: if case .puzzle = task.kind { return action.request }
            case .answer: break
            }
        }
        return HuntWire.Action.answer(line).request
    }

    // MARK: The organiser's feed and the game log

    /// The station `team` is at or heading for, by name (the last one once it found every station).
    private func stationName(of team: String) -> String {
        guard let state = game.state(of: team), !state.route.isEmpty else { return "?" }
        return game.hunt.stations[state.route[min(state.solvedCount, state.route.count - 1)]].name
    }

    /// The station `team` is at or heading for, with its code (for the organiser).
    private func stationWithCode(of team: String) -> String {
        guard let state = game.state(of: team), state.solvedCount < state.route.count else { return "?" }
        let station = game.hunt.stations[state.route[state.solvedCount]]
        return "\(station.name), code \(station.code)"
    }

    /// Where each team is, for an operator who was not there (codes and answers included, as in the feed): `Red is
    /// at station 2/3: Desk, code DESK (answer: pencil; 1 hint taken; penalties 0:30).`, `Blue heads for station
    /// 1/3: Kitchen, code FRDG.`, `Gold found every station at 12:04 (penalties 1:00).`
    var operatorBriefing: [String] {
        guard game.phase == .running else { return [] }
        let finishedAt = Dictionary(game.solveLog.map { ($0.team, $0.solved.elapsedMs) }, uniquingKeysWith: { $1 })
        return game.teams.compactMap { team in
            guard let state = game.state(of: team) else { return nil }
            var details: [String] = []
            if game.task(for: team) != nil, state.solvedCount < state.route.count {
                switch game.hunt.stations[state.route[state.solvedCount]].task {
                case .puzzle(let puzzle): details.append("answer: \(puzzle.outsider)")
                case .question(_, let answer): details.append("answer: \(answer)")
                }
                if state.hintsShown > 0 { details.append("\(Wording.count(state.hintsShown, "hint")) taken") }
            }
            if state.penaltiesMs > 0 { details.append("penalties \(DurationText.clock(state.penaltiesMs))") }
            let said = details.isEmpty ? "" : " (" + details.joined(separator: "; ") + ")"
            guard state.solvedCount < state.route.count else {
                let time = finishedAt[team].map { " at \(DurationText.clock($0))" } ?? ""
                return "\(team) found every station\(time)\(said)."
            }
            let place = "station \(state.solvedCount + 1)/\(state.route.count): \(stationWithCode(of: team))"
            return game.task(for: team) != nil ? "\(team) is at \(place)\(said)." : "\(team) heads for \(place)\(said)."
        }
    }

    /// Notes what a team did for the game log and returns the organiser's feed line for it.
    private func note(
        _ team: String, _ what: String, typed: String? = nil, penaltyMs: Int64 = 0, station: String? = nil,
        at now: Instant
    ) -> Int64 {
        let ms = game.huntTime(at: now)
        events.append(
            EventRecord(
                team: team, ms: ms, station: station ?? stationName(of: team), what: what, typed: typed,
                penaltyMs: penaltyMs))
        return ms
    }

    static func logLines(_ json: JSONValue) -> [String] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return ModeEntry.plainLines(json) }
        var lines = [
            "Station hunt: \(log.name) (\(log.hunt)) · \(log.order) order · teams: "
                + log.teams.joined(separator: ", ")
        ]
        lines += (log.events ?? []).map { "  " + $0.line }
        lines.append("Ranking: " + log.ranking.map(\.summary).joined(separator: " · "))
        if !log.hallOfFame.isEmpty {
            lines.append(
                "Hall of fame: "
                    + log.hallOfFame.map { "#\($0.place) \($0.team) \(DurationText.clock($0.totalMs))" }
                    .joined(separator: " · "))
        }
        return lines
    }

    static func logRows(_ json: JSONValue) -> [[String]] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return [] }
        let header = ["hunt time", "ms", "team", "station", "what", "typed", "penalty ms"]
        return [header]
            + (log.events ?? []).map {
                [
                    DurationText.clock($0.ms), String($0.ms), $0.team, $0.station, $0.what, $0.typed ?? "",
                    String($0.penaltyMs),
                ]
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
            return OutsiderWire.Puzzle(
                number: task.number, of: task.total, words: words, hints: task.hints, hintCosts: task.hintCosts)
        case .question(let text, let letters):
            return HuntWire.Question(
                number: task.number, of: task.total, text: text, letters: letters, hints: task.hints,
                hintCosts: task.hintCosts)
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
        HuntWire.Scoreboard(ranking: shownRanking, hallOfFame: Self.fame(hallOfFame), timeUp: game.isTimeUp)
    }

    func messages(for effects: [StationHunt.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        let clock = DurationText.clock(game.huntTime(at: now))
        for effect in effects {
            switch effect {
            case .clue(let team, let clue):
                outgoing.append(Outgoing(.team(TeamName(team)), Self.clue(clue)))
                outgoing.append(
                    feed(
                        "\(team) heads for station \(clue.number)/\(clue.total): \(stationWithCode(of: team)).",
                        isSecondary: true))
            case .task(let team, let task):
                outgoing.append(Outgoing(.team(TeamName(team)), Self.task(task)))
                _ = note(team, "checked in", at: now)
                outgoing.append(
                    feed("\(team) checked in at \(stationName(of: team)) (\(task.number)/\(task.total))."))
            case .wrongCode(let team, let code, let attemptsLeft, let lockedUntil):
                // Answered to the player who typed it, as an error (the attempt still counts).
                let expected = stationWithCode(of: team)
                if let lockedUntil {
                    let seconds = (now.milliseconds(until: lockedUntil) + 999) / 1000
                    wrongCode = RuleError(
                        .codeLocked,
                        "Wrong code, \(game.settings.wrongCodeLimit) in a row: check-ins are locked for \(seconds) s.",
                        until: lockedUntil)
                    _ = note(team, "locked out", typed: code, at: now)
                    outgoing.append(
                        feed(
                            "\(team) typed the code \(code): wrong (their station: \(expected)); "
                                + "\(game.settings.wrongCodeLimit) in a row, check-ins locked for \(seconds) s."))
                } else {
                    wrongCode = RuleError(
                        .wrongCode,
                        "Not the code of your next station: \(Wording.count(attemptsLeft, "try", "tries")) left, "
                            + "then a \(game.settings.lockSeconds)-second lock.")
                    _ = note(team, "wrong code", typed: code, at: now)
                    outgoing.append(
                        feed(
                            "\(team) typed the code \(code): wrong (their station: \(expected)); "
                                + "\(Wording.count(attemptsLeft, "try", "tries")) left."))
                }
            case .wrongAnswer(let team, let answer, let penalty, let penalties):
                outgoing.append(
                    Outgoing(.team(TeamName(team)), HuntWire.Wrong(penaltyMs: penalty, penaltiesMs: penalties)))
                _ = note(team, "wrong", typed: answer, penaltyMs: penalty, at: now)
                outgoing.append(
                    feed(
                        "\(team) answered \"\(answer)\" at \(stationName(of: team)): wrong, "
                            + "+\(DurationText.clock(penalty)) (penalties \(DurationText.clock(penalties)))."))
            case .hint(let team, let hint):
                outgoing.append(Outgoing(.team(TeamName(team)), Self.hint(hint)))
                _ = note(team, "hint", typed: hint.text, penaltyMs: hint.costMs, at: now)
                outgoing.append(
                    feed(
                        "\(team) took hint \(hint.number)/\(hint.total) at \(stationName(of: team)) "
                            + "(+\(DurationText.clock(hint.costMs))): \(hint.text)", isSecondary: true))
            case .solved(let team, let solved):
                outgoing.append(
                    Outgoing(
                        .team(TeamName(team)),
                        HuntWire.Solved(
                            station: solved.number, of: solved.total, name: solved.name, answer: solved.answer,
                            success: solved.success, elapsedMs: solved.elapsedMs, penaltiesMs: solved.penaltiesMs,
                            last: solved.isLast)))
                _ = note(team, "right", typed: solved.typed, station: solved.name, at: now)
                let typed = solved.typed.map { " with \"\($0)\"" } ?? ""
                let done = solved.isLast ? " Every station found!" : ""
                outgoing.append(
                    .announcement(
                        .operators, Self.stationSolved(team, solved),
                        feed: "\(team) solved \(solved.name) (\(solved.number)/\(solved.total)) at \(clock)\(typed); "
                            + "penalties \(DurationText.clock(solved.penaltiesMs)).\(done)"))
            case .progress:
                // Every team's row, a growing state: whole once, then only the rows that changed.
                outgoing.append(.state(.everyone, progress))
            case .scoreboard(let ranking):
                outgoing.append(
                    .announcement(
                        .everyone, scoreboard,
                        feed: "The hunt is over: " + Self.ranking(ranking).map(\.summary).joined(separator: " · ") + "."
                    ))
            case .paused:
                break  // the generic `steer` announces every pause
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
            messages.append(progress)
            if viewer.role == .admin { messages += game.solveLog.map { Self.stationSolved($0.team, $0.solved) } }
            if viewer.role == .player, let team = viewer.team.flatMap(game.team(named:)) {
                if let clue = game.clue(for: team) { messages.append(Self.clue(clue)) }
                if let task = game.task(for: team) {
                    messages.append(Self.task(task))
                    messages += game.shownHints(for: team).map(Self.hint)
                }
            }
        case .notStarted:
            break
        }
        return messages
    }

    /// Every team's public progress, for live and catch-up alike: ghost teams (formed mid-hunt, never checked in)
    /// left out.
    private var progress: HuntWire.Progress {
        HuntWire.Progress(teams: game.progress.filter { game.isShown($0.team) }.map(HuntWire.TeamProgress.init(row:)))
    }

    /// The ranking everyone sees: ghost teams left out (the game log keeps every team) and the ranks counted
    /// among the teams shown, so no ghost at 0:00 ranks above a team that took a hint.
    private var shownRanking: [HuntWire.Ranked] {
        var shown = (game.finalRanking ?? game.ranking).filter { game.isShown($0.team) }
        for index in shown.indices {  // in ranking order: equal stations and time share the rank above
            let previous = index > 0 ? shown[index - 1] : nil
            let isTie = previous.map { $0.stations == shown[index].stations && $0.totalMs == shown[index].totalMs }
            shown[index].rank = isTie == true ? previous!.rank : index + 1
        }
        return Self.ranking(shown)
    }

    var scores: any HostMessage {
        HuntWire.Scores(final: game.phase == .finished, ranking: shownRanking)
    }

    var gameLog: JSONValue {
        let log = Log(
            hunt: game.hunt.id, name: game.hunt.name, order: game.settings.order.rawValue, teams: game.teams,
            solves: game.solveLog.map {
                SolveRecord(
                    team: $0.team, station: $0.solved.number, name: $0.solved.name, elapsedMs: $0.solved.elapsedMs,
                    penaltiesMs: $0.solved.penaltiesMs)
            }, ranking: Self.ranking(game.finalRanking ?? game.ranking), hallOfFame: Self.fame(hallOfFame),
            events: events)
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

/// What HuntHost does beyond the core every game has.
extension HuntHost: RosterAware, TypedLines, OperatorNotes, KeepsScore, KeepsRecords, GuardsSecrets {}

extension HuntHost: RestartAware {
    /// The hunt clock stands still until the first player is back: the time nobody could play is not charged.
    func hostRestarted(at now: Instant) -> Step { (try? apply(.hostRestarted, at: now)) ?? Step() }

    var isHeldForRestart: Bool { game.isHeldForRestart }
}

extension HuntWire: HostedWire {
    static var hostEntry: ModeEntry { HuntHost.entry }
}
