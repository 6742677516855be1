import Foundation
import Protocol
import Rules

/// Odd One Out on the wire: turns teams' picks into `OddOneOut` events (judged by press time, like a buzz) and its
/// effects into messages.
///
/// Live messages and a late joiner's catch-up come from the same builders over the same Rules values, so they
/// cannot drift apart. Which word a team picked goes to that team only; everyone sees who locked in and in which
/// place; the outsider travels only in `reveal`.
final class OutsiderHost: GameAdapter {
    typealias Wire = OutsiderWire

    /// Everything that recreates the game with the journaled events.
    struct StartRecord: Codable {
        var teams: [String]
        var puzzles: [DrawnPuzzle]
        var settings: OutsiderSettings
        /// The game's seed as decimal text (JSON numbers cannot carry every UInt64).
        var seedText: Seed
        var packs: [String]
        var difficulty: String
        /// How many puzzles had to repeat from earlier games tonight.
        var repeated: Int?
    }

    /// One round as the game log keeps it.
    struct RoundRecord: Codable {
        var number: Int
        var words: [String]
        var outsider: String
        var link: String
        var results: [OutsiderWire.Result]
    }

    /// The readable record of a game (games/*.json).
    struct Log: Codable {
        var teams: [String]
        var packs: [String]
        var difficulty: String
        var rounds: [RoundRecord]
        var ranking: [ShakyWire.Standing]
    }

    static let entry = ModeEntry(
        OutsiderHost.self, aliases: ["oddoneout", "odd-one-out", "odd"],
        make: { (options, context) throws(RuleError) in try OutsiderHost.make(options: options, context: context) },
        restore: { try OutsiderHost(record: JSONCoding.decode(StartRecord.self, from: $0)) },
        tools: [OutsiderPacks.tool], logLines: { OutsiderHost.logLines($0) }, logRows: { OutsiderHost.logRows($0) })

    var mode: ModeEntry { OutsiderHost.entry }
    var game: OddOneOut
    let record: StartRecord
    private var roundLog: [RoundRecord] = []
    /// Who locked in during the shown round, in press order, as the lock-ins were announced (the list ends with its
    /// round, which the game may have closed in the same step).
    private var lockIns: [OutsiderWire.LockIn] = []

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try OddOneOut(
            teams: record.teams, puzzles: record.puzzles, settings: record.settings, seed: record.seedText.value)
    }

    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> OutsiderHost {
        // The teams with someone here (away players' teams would be ghosts scoring 0), unless the operator names them.
        let present = context.room.teams.filter { context.room.members(of: $0).contains(where: \.isConnected) }
        let teams = try options.strings("teams").map { $0.map(context.room.canonicalTeam) } ?? present
        guard !teams.isEmpty else {
            throw RuleError(
                .noTeams, "Odd One Out needs at least one team with a player here; players join with a team name.")
        }
        let rounds = try options.integer("rounds")
        let difficulty = DifficultyChoice(rawValue: try options.choice("difficulty")) ?? .mixed
        let library = context.tools.tool(ContentTool<OutsiderPacks>.self)?.library ?? OutsiderPackLibrary()
        let packs = try options.strings("packs") ?? library.builtinPacks.map(\.id)
        var rng = SplitMix64(seed: context.seed)
        let (puzzles, repeated) = try library.draw(
            packIDs: packs, count: rounds, difficulty: difficulty, avoiding: context.played, using: &rng)
        let reveal = try options.integer("revealSeconds")
        let settings = OutsiderSettings(
            roundSeconds: try options.integer("roundSeconds"),
            revealSeconds: reveal == 0 ? nil : reveal)
        return try OutsiderHost(
            record: StartRecord(
                teams: teams, puzzles: puzzles, settings: settings, seedText: Seed(rng.next()),
                packs: packs, difficulty: difficulty.rawValue, repeated: repeated > 0 ? repeated : nil))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    /// The puzzles shown so far (a game ended early leaves the rest for later tonight).
    var playedContent: [String] { record.puzzles.prefix(game.roundNumber ?? 0).map(\.puzzle.playedKey) }

    var startNote: String? {
        guard let repeated = record.repeated, repeated > 0 else { return nil }
        return
            "\(Wording.count(repeated, "puzzle")) had to repeat from earlier tonight: the packs have no more new ones."
    }

    var operatorPrompt: String? {
        guard game.phase == .reveal, game.nextRoundAt == nil, game.pausedAt == nil else { return nil }
        return game.lastReveal?.isLastRound == true ? "next for the final scores" : "next for the next round"
    }

    var statusLine: String {
        var parts = ["Odd One Out", game.roundNumber.map { "round \($0)/\(game.roundCount)" } ?? "starting"]
        switch game.phase {
        case .notStarted: parts.append("starting")
        case .round: parts.append("round open")
        case .reveal: parts.append("outsider shown")
        case .finished: parts.append("over")
        }
        if game.pausedAt != nil { parts.append("paused") }
        if game.phase == .round { parts.append("\(game.lockedPicks.count)/\(game.teams.count) locked in") }
        return parts.joined(separator: " · ")
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        .announcing([Outgoing(.everyone, intro)]) + ((try? apply(.start, at: now)) ?? Step())
    }

    func perform(_ action: OutsiderWire.Action, context: PlayContext) throws(RuleError) -> Step {
        guard case .pick(let choice, let stamp) = action else { return Step() }
        let team = team(of: context.player)
        // A teammate's pick after the first: the first counts, and this one only hears so.
        if game.phase == .round, game.pausedAt == nil, let first = game.pick(of: team) {
            let word = game.words[first.choice]
            return .announcing([
                Outgoing(
                    .player(context.player.playerID),
                    Notice("Your team already picked \(first.choice + 1) (\(word)); the first pick counts."))
            ])
        }
        let index: Int
        switch choice {
        case .number(let number): index = number - 1
        case .word(let word):
            guard game.phase == .round else {
                index = 0
                break
            }  // the rules say why it is refused
            guard let found = game.choice(forWord: word) else {
                throw RuleError(
                    .badChoice,
                    "\"\(ContentText.excerpt(word, limit: 30))\" is not one of the four words ("
                        + game.words.joined(separator: ", ") + "): pick 1 to 4 or a word. While your team picks, "
                        + "commands start with / (/help, /scores).")
            }
            index = found
        }
        let press = context.estimatePress(stamp)
        return try apply(
            .pick(
                team: team, choice: index, pressedAt: Instant(milliseconds: press.pressedAt),
                uncertaintyMs: press.uncertainty, settleMs: context.settleMilliseconds), at: context.now)
    }

    func includes(_ player: Player) -> Bool { game.teams.contains { Room.key($0) == Room.key(player.team) } }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        guard !includes(player) else { return Step() }
        return (try? apply(.addTeam(player.team), at: now)) ?? Step()
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step { Step() }

    /// The game's spelling of a player's team.
    private func team(of player: Player) -> String {
        game.teams.first { Room.key($0) == Room.key(player.team) } ?? player.team
    }

    /// While a round is open and a player's team has not picked, the player's typed lines are its pick: commands
    /// need a leading `/` then (a word of the round may be `next` or `help`).
    func awaitsTypedLine(from player: Player) -> Bool {
        game.phase == .round && game.pausedAt == nil && game.pick(of: team(of: player)) == nil
    }

    /// A typed line while the team picks: `1`–`4`, `pick …` or a word (any other line is refused as no word of the
    /// round, without cost). After the team picked, a word of the round still reaches the game (its answer says the
    /// first pick counts).
    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest? {
        let line = text.trimmingCharacters(in: .whitespaces)
        if awaitsTypedLine(from: player) {
            if case .action(let action)? = OutsiderWire.Action.parse(text: line) { return action.request }
            return OutsiderWire.Action.pick(.word(line), pressedAt: nil).request
        }
        guard game.phase == .round, game.choice(forWord: line) != nil else { return nil }
        return OutsiderWire.Action.pick(.word(line), pressedAt: nil).request
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: OutsiderWire.Intro {
        OutsiderWire.Intro(teams: game.teams, rounds: game.roundCount, roundSeconds: game.settings.roundSeconds)
    }

    private func puzzle(_ opened: OddOneOut.RoundOpened, at now: Instant) -> OutsiderWire.Puzzle {
        let deadline = game.phase == .round ? opened.deadline : nil
        return OutsiderWire.Puzzle(
            number: opened.number, of: opened.total, words: opened.words, category: opened.category,
            difficulty: opened.difficulty.rawValue, points: opened.points, remainingMs: remaining(deadline, now),
            deadline: deadline?.milliseconds)
    }

    private static func results(_ reveal: OddOneOut.Reveal) -> [OutsiderWire.Result] {
        reveal.results.map {
            OutsiderWire.Result(
                team: $0.team, choice: $0.choice.map { $0 + 1 }, word: $0.word, correct: $0.isCorrect,
                points: $0.points,
                ms: $0.elapsedMs)
        }
    }

    private func reveal(_ reveal: OddOneOut.Reveal, at now: Instant) -> OutsiderWire.Reveal {
        OutsiderWire.Reveal(
            number: reveal.number, outsider: reveal.outsider, link: reveal.link, results: Self.results(reveal),
            scores: ShakyWire.Standing.list(reveal.standings), nextInMs: remaining(reveal.nextRoundAt, now),
            deadline: reveal.nextRoundAt?.milliseconds, last: reveal.isLastRound)
    }

    func messages(for effects: [OddOneOut.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .round(let opened):
                // A new round's lock-ins start afresh: its first `lockedIn` goes out whole.
                lockIns = []
                outgoing.append(.endState(OutsiderWire.LockedIn.self, .everyone))
                outgoing.append(.announcement(.everyone, puzzle(opened, at: now), feed: roundLine(opened)))
            case .teamJoined(let team):
                // A new team simply plays the open round; the roster shows in the next reveal's scores.
                outgoing.append(feed("\(team) joined the game (0 points).", isSecondary: true))
            case .picked(let team, let choice, let word):
                outgoing.append(Outgoing(.team(TeamName(team)), OutsiderWire.Picked(choice: choice + 1, word: word)))
            case .locked(let team, let position):
                // The list is a growing state: whole once, then the lock-ins of each turn as one small update.
                lockIns.append(OutsiderWire.LockIn(team: team, position: position))
                outgoing.append(.state(.everyone, OutsiderWire.LockedIn(teams: lockIns)))
                outgoing.append(feed(lockedLine(team, position: position)))
            case .reveal(let ended):
                outgoing.append(.announcement(.everyone, reveal(ended, at: now), feed: revealLine(ended)))
                roundLog.append(
                    RoundRecord(
                        number: ended.number, words: ended.words, outsider: ended.outsider, link: ended.link,
                        results: Self.results(ended)))
                if let prompt = operatorPrompt { outgoing.append(feed("Waiting for you: type \(prompt).")) }
            case .scoreboard(let ranking):
                outgoing.append(Outgoing(.everyone, ShakyWire.Scoreboard(ranking: ShakyWire.Standing.list(ranking))))
            case .paused:
                break  // the generic `steer` announces every pause
            case .resumed(let roundDeadline, let nextRoundAt):
                outgoing.append(
                    Outgoing(
                        .everyone,
                        OutsiderWire.Resumed(
                            remainingMs: remaining(roundDeadline, now), nextInMs: remaining(nextRoundAt, now))))
            }
        }
        return outgoing
    }

    // MARK: The organiser's feed and the game log

    /// `Round 3/10 (Animals, easy, 100): snake · dog · cat · rabbit — odd one out: snake (they have fur)`: the
    /// organiser may know the outsider; it never reaches a player before the reveal.
    private func roundLine(_ opened: OddOneOut.RoundOpened) -> String {
        let drawn = record.puzzles.indices.contains(opened.number - 1) ? record.puzzles[opened.number - 1] : nil
        let answer = drawn.map { " — odd one out: \($0.puzzle.outsider) (\($0.puzzle.link))" } ?? ""
        return "Round \(opened.number)/\(opened.total) (\(opened.category), \(opened.difficulty.rawValue), "
            + "\(opened.points)): \(opened.words.joined(separator: " · "))\(answer)"
    }

    /// `Red locked in 1st: 2 dog — right, 95 points (2.1 s)`.
    private func lockedLine(_ team: String, position: Int) -> String {
        let place = "\(team) locked in \(Wording.ordinal(position))"
        // The pick is in the open round, or (when the round ended in the same step) in its reveal.
        if let pick = game.pick(of: team), game.words.indices.contains(pick.choice),
            let opened = game.shownRound,
            let drawn = record.puzzles.indices.contains(opened.number - 1) ? record.puzzles[opened.number - 1] : nil
        {
            let word = game.words[pick.choice]
            let right = drawn.puzzle.isOutsider(word)
            let points = OutsiderSettings.points(
                base: opened.points, elapsedMs: pick.elapsedMs, limitMs: Int64(game.settings.roundSeconds) * 1000)
            let verdict = right ? "right, \(points) points" : "wrong"
            return "\(place): \(pick.choice + 1) \(word) — \(verdict) (\(Self.seconds(pick.elapsedMs)))"
        }
        if let result = game.lastReveal?.results.first(where: { $0.team == team }), let word = result.word,
            let choice = result.choice
        {
            let verdict = result.isCorrect ? "right, \(result.points) points" : "wrong"
            let time = result.elapsedMs.map { " (\(Self.seconds($0)))" } ?? ""
            return "\(place): \(choice + 1) \(word) — \(verdict)\(time)"
        }
        return place
    }

    /// `Revealed: snake. Red ✔ snake +95 (2.1 s) · Blue ✘ cat (3.4 s). Scores: #1 Red 95 · #2 Blue 0.`
    private func revealLine(_ ended: OddOneOut.Reveal) -> String {
        let results = Self.results(ended).map(\.summary).joined(separator: " · ")
        let scores = ShakyWire.Standing.summary(ShakyWire.Standing.list(ended.standings))
        return "Revealed: \(ended.outsider). \(results). Scores: \(scores)."
    }

    /// The feed an operator who was not there needs: the open round with its outsider and each lock-in with its
    /// verdict, or the round just revealed and what the game waits for.
    var operatorBriefing: [String] {
        guard game.phase == .round || game.phase == .reveal, let opened = game.shownRound else { return [] }
        var lines = [roundLine(opened)]
        if game.phase == .round {
            lines += game.lockedPicks.map { lockedLine($0.team, position: $0.position ?? 0) }
        } else if let ended = game.lastReveal {
            lines.append(revealLine(ended))
            if let prompt = operatorPrompt { lines.append("Waiting for you: type \(prompt).") }
        }
        return lines
    }

    /// `2.1 s`.
    private static func seconds(_ milliseconds: Int64) -> String {
        "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }

    static func logLines(_ json: JSONValue) -> [String] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return ModeEntry.plainLines(json) }
        var lines = [
            "Odd One Out · teams: \(log.teams.joined(separator: ", ")) · packs: \(log.packs.joined(separator: ", "))"
                + " · \(log.difficulty)"
        ]
        for round in log.rounds {
            lines.append(
                "R\(round.number). \(round.words.joined(separator: " · ")) — \(round.outsider) (\(round.link))")
            for result in round.results {
                guard let word = result.word, let choice = result.choice else {
                    lines.append("    \(result.team): no pick")
                    continue
                }
                let time = result.ms.map { ", " + seconds($0) } ?? ""
                lines.append(
                    "    \(result.team): \(choice) \(word) — \(result.correct ? "right" : "wrong"), "
                        + "\(result.points) points\(time)")
            }
        }
        lines.append("Ranking: " + ShakyWire.Standing.summary(log.ranking, unit: " points"))
        return lines
    }

    static func logRows(_ json: JSONValue) -> [[String]] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return [] }
        var rows = [["round", "words", "outsider", "link", "team", "choice", "word", "correct", "points", "ms"]]
        for round in log.rounds {
            for result in round.results {
                rows.append([
                    String(round.number), round.words.joined(separator: " "), round.outsider, round.link, result.team,
                    result.choice.map(String.init) ?? "", result.word ?? "", result.correct ? "yes" : "no",
                    String(result.points), result.ms.map(String.init) ?? "",
                ])
            }
        }
        return rows
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [any HostMessage] {
        let now = game.pausedAt ?? current  // a paused game's clocks stand still
        var messages: [any HostMessage] = [intro]
        // Looked up only while a round is open: a hall's joiner after the game must not fold every team's name.
        var team: String? { viewer.team.flatMap { name in game.teams.first { Room.key($0) == Room.key(name) } } }
        switch game.phase {
        case .round, .reveal:
            guard let opened = game.shownRound else { break }
            messages.append(puzzle(opened, at: now))
            if game.phase == .round {
                // The standings as the last reveal left them (a reveal's catch-up carries its own).
                messages.append(ShakyWire.Scores(final: false, ranking: ShakyWire.Standing.list(game.standings)))
                if let team, let pick = game.pick(of: team) {
                    messages.append(OutsiderWire.Picked(choice: pick.choice + 1, word: game.words[pick.choice]))
                }
                let locked = game.lockedPicks.map { OutsiderWire.LockIn(team: $0.team, position: $0.position ?? 0) }
                if !locked.isEmpty { messages.append(OutsiderWire.LockedIn(teams: locked)) }
            } else if let last = game.lastReveal {
                messages.append(reveal(last, at: now))
            }
        case .finished:
            if let ranking = game.finalRanking {
                messages.append(ShakyWire.Scoreboard(ranking: ShakyWire.Standing.list(ranking)))
            }
        case .notStarted:
            break
        }
        return messages
    }

    var scores: any HostMessage {
        ShakyWire.Scores(
            final: game.phase == .finished, ranking: ShakyWire.Standing.list(game.finalRanking ?? game.standings))
    }

    var gameLog: JSONValue {
        let log = Log(
            teams: game.teams, packs: record.packs, difficulty: record.difficulty, rounds: roundLog,
            ranking: ShakyWire.Standing.list(game.finalRanking ?? game.standings))
        return (try? JSONCoding.encode(log)) ?? .null
    }
}

/// What OutsiderHost does beyond the core every game has.
extension OutsiderHost: RosterAware, TypedLines, OperatorNotes, KeepsScore {}

extension OutsiderWire: HostedWire {
    static var hostEntry: ModeEntry { OutsiderHost.entry }
}
