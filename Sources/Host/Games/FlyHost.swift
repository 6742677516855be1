import Foundation
import Protocol
import Rules

/// Let Me Fly on the wire: presses become `LetMeFly` events (stamped and bounded like buzzes), effects become
/// messages, and the game's throws and achievements go into the data folder's records as they happen.
///
/// Nothing in the game is secret: every message goes to everyone, except a leaderboard asked for with `top`.
final class FlyHost: GameAdapter {
    typealias Wire = FlyWire

    /// Everything that recreates the game with the journaled events.
    struct StartRecord: Codable {
        var entrants: [FlyEntrant]
        var settings: FlySettings
        var phones: [FlyPhone]
        /// The game's id in the records (`fly-20250614-210311-3f9a`).
        var game: String
        /// The data folder whose `fly/records.json` this game adds to (nil: it keeps nothing).
        var dataDirectory: String?
        /// When tonight began (ISO 8601, UTC), for tonight's leaderboard; nil in records written before games noted
        /// it (tonight then counts back along the game clock).
        var tonightSince: String?
    }

    /// The readable record of a game (games/*.json); `ranking` entries read like every game log's.
    struct GameLog: Codable {
        struct Entry: Codable {
            var player: String
            var rank: Int
            var score: Int
            var phone: String
            var bestM: Double
        }

        /// The game's id in the records (the log file's `game` is the mode's name).
        var id: String
        var settings: FlySettings
        var throwsMade: [FlyRecord]
        var ranking: [Entry]
        var teams: [FlyWire.TeamStanding]
    }

    static let entry = ModeEntry(
        FlyHost.self, aliases: ["letmefly", "let-me-fly"],
        make: { (options, context) throws(RuleError) in try FlyHost.make(options: options, context: context) },
        restore: { try FlyHost(record: JSONCoding.decode(StartRecord.self, from: $0)) },
        tools: [{ storage in FlyRecordsTool(storage: storage) }],
        logLines: { FlyHost.logLines($0) }, logRows: { FlyHost.logRows($0) })

    var mode: ModeEntry { FlyHost.entry }
    var game: LetMeFly
    let record: StartRecord
    /// The data folder's records, with this game merged in as it goes.
    let records: FlyRecordStore
    /// Whether the operator was told that the records file could not be read.
    private var isProblemReported = false
    /// The catch cues already sent, by player, throw and seconds before the landing (not journaled: a restart
    /// sends only the cues still to come).
    private var sentCues: Set<String> = []

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try LetMeFly(entrants: record.entrants, settings: record.settings, phones: record.phones)
        records = FlyRecordStore(directory: record.dataDirectory)
    }

    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> FlyHost {
        let settings = FlySettings(
            rounds: try options.integer("rounds"), roundSeconds: try options.integer("roundSeconds"),
            periodMs: Int64(try options.integer("periodMs")), topSpeed: try options.integer("topSpeed"),
            breakSeconds: try options.integer("breakSeconds"))
        let store = FlyRecordStore(directory: context.dataDirectory)
        // The players who are here: one away joins the game when they come back (`playerJoined`), so no round
        // waits for a laptop that was closed before the start.
        let present = context.room.players.filter(\.isConnected)
        guard !present.isEmpty else {
            throw RuleError(
                .tooFewPlayers,
                "Let Me Fly needs at least one player here; players who are away join when they are back.")
        }
        let entrants = present.map { FlyEntrant(name: $0.name, team: $0.team, earned: store.earned(by: $0.name)) }
        let stamp = FlyRecordStore.date(Date()).filter { $0.isNumber }
        let id = "fly-\(stamp.prefix(8))-\(stamp.dropFirst(8).prefix(6))-\(String(context.seed & 0xFFFF, radix: 16))"
        let evening = context.tools.tool(FlyRecordsTool.self)?.eveningStart
        return try FlyHost(
            record: StartRecord(
                entrants: entrants, settings: settings, phones: FlyPhone.builtin, game: id,
                dataDirectory: context.dataDirectory, tonightSince: evening.map(FlyRecordStore.date)))
    }

    // MARK: The catch countdown (text mode)

    /// The cues still to send for phones in the air: 3, 2 and 1 s before the landing (those after the throw) and
    /// the landing itself, with the key that marks each sent.
    private var dueCues: [(at: Instant, player: String, inMs: Int64, key: String)] {
        var cues: [(Instant, String, Int64, String)] = []
        for player in game.players where player.hangsSince == nil {  // a hanging phone's landing is not known yet
            guard case .inAir(let thrown) = player.turn else { continue }
            for seconds in [3, 2, 1, 0] as [Int64] {
                let at = thrown.landsAt.advanced(byMilliseconds: -seconds * 1000)
                let key = "\(player.name)#\(thrown.index)#\(seconds)"
                guard seconds == 0 || at > thrown.pressedAt, !sentCues.contains(key) else { continue }
                cues.append((at, player.name, seconds * 1000, key))
            }
        }
        return cues
    }

    var nextDeadline: Instant? {
        [game.nextDeadline, dueCues.map(\.at).min()].compactMap { $0 }.min()
    }

    func tick(at now: Instant) -> Step {
        var cues: [Outgoing] = []
        for cue in dueCues.sorted(by: { $0.at < $1.at }) where cue.at <= now {
            sentCues.insert(cue.key)
            // A cue the host could not send in time (a restart, a stall) is stale: only the landing's still helps.
            guard now.milliseconds - cue.at.milliseconds < 500 || cue.inMs == 0 else { continue }
            cues.append(Outgoing(.playerNamed(cue.player), FlyWire.CatchCue(player: cue.player, inMs: cue.inMs)))
        }
        guard let due = game.nextDeadline, due <= now else { return .announcing(cues) }
        var step = (try? apply(.tick, at: now)) ?? Step()
        step.messages.insert(contentsOf: cues, at: 0)
        return step
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        var parts = ["Let Me Fly"]
        if game.roundNumber > 0 { parts.append("round \(game.roundNumber)/\(game.settings.rounds)") }
        switch game.phase {
        case .notStarted: parts.append("starting")
        case .throwing:
            let thrown = game.players.filter { $0.isActive && $0.turn != .waiting }.count
            let playing = game.players.filter(\.isActive).count
            parts.append("throwing (\(thrown)/\(playing) thrown)")
        case .landing: parts.append("time is up, phones coming down")
        case .between: parts.append("between rounds")
        case .finished: parts.append("over")
        }
        let up = game.players.filter { if case .inAir = $0.turn { true } else { false } }.count
        if up > 0 { parts.append(Wording.count(up, "phone") + " up") }
        if game.isPaused { parts.append("paused") }
        return parts.joined(separator: " · ")
    }

    var operatorPrompt: String? {
        guard game.phase == .between, game.nextRoundAt == nil, !game.isPaused else { return nil }
        return "next for round \(game.roundNumber + 1)"
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        // The roster is a growing state (PROTOCOL.md §6.0): whole now, then a `gameUpdate` per mid-game join.
        var opening: [Outgoing] = [.state(.everyone, intro), Outgoing(.everyone, phones)]
        if let problem = records.problem {
            isProblemReported = true
            opening.append(Outgoing(.operators, Notice(problem)))
        }
        return .announcing(opening) + ((try? apply(.start, at: now)) ?? Step())
    }

    func perform(_ action: FlyWire.Action, context: PlayContext) throws(RuleError) -> Step {
        let name = context.player.name
        switch action {
        case .throwPhone(let stamp):
            let press = Instant(milliseconds: context.estimatePress(stamp).pressedAt)
            return try apply(.throwPhone(player: name, pressedAt: press), at: context.now)
        case .catchPhone(let stamp):
            let press = Instant(milliseconds: context.estimatePress(stamp).pressedAt)
            return try apply(.catchPhone(player: name, pressedAt: press), at: context.now)
        case .throwAtPower(let percent):
            return try apply(
                .throwAtPower(player: name, powerPermille: percent * 10, pressedAt: context.now), at: context.now)
        case .catchOnCue:
            // Typed on the CATCH NOW line (sent at the landing): the reader's reaction does not count against them.
            let press = context.now.advanced(byMilliseconds: -FlyPhysics.cueReactionMs)
            return try apply(.catchPhone(player: name, pressedAt: press), at: context.now)
        case .phone(let choice):
            return try apply(.pickPhone(player: name, phone: choice), at: context.now)
        case .challenge(let target):
            return try apply(.challenge(from: name, to: target), at: context.now)
        case .leaderboard(let scope):
            return .announcing([Outgoing(.player(context.player.id), leaderboard(scope ?? .game, at: context.now))])
        }
    }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        if let playing = game.player(named: player.name) {
            // Back after a drop: rounds wait for them again (a removed player stays out of this game).
            guard playing.isActive, playing.isAway else { return Step() }
            return (try? apply(.playerBack(playing.name), at: now)) ?? Step()
        }
        let entrant = FlyEntrant(name: player.name, team: player.team, earned: records.earned(by: player.name))
        return (try? apply(.addPlayer(entrant), at: now)) ?? Step()
    }

    func playerAway(_ player: Player, at now: Instant) -> Step {
        guard let playing = game.player(named: player.name), playing.isActive, !playing.isAway else { return Step() }
        let wasDue = game.phase == .throwing && playing.turn == .waiting
        guard var step = try? apply(.playerAway(playing.name), at: now) else { return Step() }
        if wasDue {
            step.messages.insert(
                feed("\(playing.name) is away: the round does not wait for them.", isSecondary: true), at: 0)
        }
        return step
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step {
        (try? apply(.removePlayer(player.name), at: now)) ?? Step()
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: FlyWire.Intro {
        FlyWire.Intro(
            players: game.players.map(\.name), rounds: game.settings.rounds, roundSeconds: game.settings.roundSeconds,
            periodMs: game.settings.periodMs, topSpeed: game.settings.topSpeed)
    }

    private var phones: FlyWire.Phones {
        FlyWire.Phones(
            list: game.phones.map {
                FlyWire.Phone(
                    id: $0.id, name: $0.name, multiplier: Double($0.multiplierPercent) / 100,
                    catchWindowMs: $0.catchWindowMs)
            }, default: game.defaultPhone.id)
    }

    private func round(_ round: FlyRound, at now: Instant) -> FlyWire.Round {
        FlyWire.Round(
            number: round.number, of: round.of, remainingMs: remaining(round.deadline, now) ?? 0,
            sweepStart: round.sweepStart.milliseconds, periodMs: round.periodMs, deadline: round.deadline.milliseconds)
    }

    private static func thrown(_ thrown: FlyThrow) -> FlyWire.Thrown {
        FlyWire.Thrown(
            player: thrown.player, team: thrown.team, phone: thrown.phone, power: (thrown.powerPermille + 5) / 10,
            heightM: FlyWire.metres(thrown.heightMm), airMs: thrown.airMs, landsAt: thrown.landsAt.milliseconds)
    }

    private static func caught(_ result: FlyCatch) -> FlyWire.Caught {
        FlyWire.Caught(
            player: result.thrown.player, team: result.thrown.team, phone: result.thrown.phone,
            quality: result.quality.rawValue, offsetMs: result.offsetMs,
            heightM: FlyWire.metres(result.thrown.heightMm),
            points: result.points, streak: result.streak, score: result.score)
    }

    /// A challenge as announced: with the challenged player's best so far when it already beats the height.
    private func challenged(_ challenge: FlyChallenge) -> FlyWire.Challenged {
        let best = game.player(named: challenge.to)?.bestMm.flatMap { $0 >= challenge.heightMm ? $0 : nil }
        return FlyWire.Challenged(
            from: challenge.from, to: challenge.to, heightM: FlyWire.metres(challenge.heightMm),
            bestM: best.map(FlyWire.metres))
    }

    private static func standings(_ standings: [FlyStanding]) -> [FlyWire.Standing] {
        standings.map {
            FlyWire.Standing(
                player: $0.player, team: $0.team, phone: $0.phone, score: $0.score, rank: $0.rank,
                bestM: FlyWire.metres($0.bestMm), streak: $0.streak)
        }
    }

    private static func teams(_ teams: [FlyTeamStanding]) -> [FlyWire.TeamStanding] {
        teams.map { FlyWire.TeamStanding(team: $0.team, score: $0.score, rank: $0.rank) }
    }

    private func roundOver(_ summary: FlyRoundSummary, at now: Instant) -> FlyWire.RoundOver {
        FlyWire.RoundOver(
            number: summary.number, last: summary.isLast, missed: summary.missed,
            ranking: FlyHost.standings(summary.standings), nextInMs: remaining(summary.nextRoundAt, now),
            deadline: summary.nextRoundAt?.milliseconds)
    }

    private var scoreboard: FlyWire.Scoreboard {
        FlyWire.Scoreboard(ranking: FlyHost.standings(game.standings), teams: FlyHost.teams(game.teamStandings))
    }

    /// When "tonight" began: when the host opened the room (noted at the start), else the host's start as the game
    /// clock counts from it.
    func tonightSince(at now: Instant) -> String {
        record.tonightSince ?? FlyRecordStore.date(Date().addingTimeInterval(-Double(now.milliseconds) / 1000))
    }

    /// The leaderboard of `scope`: this game's throws, tonight's or every recorded one.
    func leaderboard(_ scope: FlyWire.Scope, at now: Instant) -> FlyWire.Leaderboard {
        let chosen: [FlyRecord]
        switch scope {
        case .game: chosen = game.results.map { FlyRecord($0, game: record.game, date: "") }
        case .tonight: chosen = FlyLeaderboard.since(tonightSince(at: now), records.file.records)
        case .allTime: chosen = records.file.records
        }
        return FlyRecordStore.leaderboard(scope, records: chosen, phoneOrder: game.phones.map(\.id))
    }

    // MARK: The organiser's feed (nothing in this game is secret: it only brings the game to the host's console)

    private func feed(_ text: String, isSecondary: Bool = false) -> Outgoing {
        Outgoing(.operators, FeedLine(text, isSecondary: isSecondary))
    }

    /// A message's line as a spectator reads it, for the feed.
    private func feed(_ message: any HostMessage, isSecondary: Bool = false) -> Outgoing {
        feed(message.line(for: Perspective()) ?? "", isSecondary: isSecondary)
    }

    /// `Round 2/3 open: 30 s to throw for Ann, Bob and Cleo.`
    private func roundFeed(_ opened: FlyRound) -> Outgoing {
        let names = game.players.filter(\.isActive).map(\.name)
        return feed(
            "Round \(opened.number)/\(opened.of) open: \(game.settings.roundSeconds) s to throw for "
                + names.joined(separator: ", ") + ".")
    }

    func messages(for effects: [LetMeFly.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        var today: String { FlyRecordStore.date(Date()) }
        var shouldSave = false
        for effect in effects {
            switch effect {
            case .round(let opened):
                outgoing.append(Outgoing(.everyone, round(opened, at: now)))
                outgoing.append(roundFeed(opened))
            case .playerAdded(let entrant):
                outgoing.append(.state(.everyone, intro))  // the roster grew: a `gameUpdate` names the newcomer
                outgoing.append(feed("\(entrant.name) joins the game.", isSecondary: true))
            case .phonePicked(let player, let phone):
                let picked = FlyWire.Picked(player: player, phone: phone)
                outgoing += [Outgoing(.everyone, picked), feed(picked, isSecondary: true)]
            case .thrown(let thrown):
                let message = FlyHost.thrown(thrown)
                outgoing += [Outgoing(.everyone, message), feed(message)]
            case .backInAir(let thrown):
                // Its thrower, coming back, reads it in the catch-up (with `stillInAir`); the others' screens move
                // the landing.
                outgoing += [
                    Outgoing(.everyone, FlyHost.thrown(thrown)),
                    feed("\(thrown.player)'s phone flies on after the restart.", isSecondary: true),
                ]
            case .caught(let result):
                records.record(result, game: record.game, date: today)
                shouldSave = true
                let message = FlyHost.caught(result)
                outgoing += [Outgoing(.everyone, message), feed(message)]
            case .timeUp(let number, let missed):
                let message = FlyWire.TimeUp(round: number, missed: missed)
                outgoing += [Outgoing(.everyone, message), feed(message)]
            case .challenged(let challenge):
                let message = challenged(challenge)
                outgoing += [Outgoing(.everyone, message), feed(message)]
            case .challengeSettled(let result):
                let message = FlyWire.ChallengeOver(
                    from: result.challenge.from, to: result.challenge.to,
                    targetM: FlyWire.metres(result.challenge.heightMm), heightM: FlyWire.metres(result.heightMm),
                    quality: result.quality.rawValue, won: result.won)
                outgoing += [Outgoing(.everyone, message), feed(message)]
            case .achievement(let player, let achievement):
                records.award(achievement.rawValue, to: player, game: record.game, date: today)
                shouldSave = true
                let message = FlyWire.Achievement(
                    player: player, id: achievement.rawValue, name: achievement.title,
                    description: achievement.description)
                outgoing += [Outgoing(.everyone, message), feed(message)]
            case .roundOver(let summary):
                shouldSave = true
                let message = roundOver(summary, at: now)
                outgoing += [Outgoing(.everyone, message), feed(message)]
                if let prompt = operatorPrompt { outgoing.append(feed("Waiting for you: type \(prompt).")) }
            case .finished:
                shouldSave = true
                outgoing += [Outgoing(.everyone, scoreboard), feed(scoreboard)]
            case .paused:
                break  // the generic `steer` announces every pause
            case .resumed(let opened, let nextRoundAt):
                outgoing.append(
                    Outgoing(
                        .everyone,
                        FlyWire.Resumed(
                            remainingMs: opened.flatMap { remaining($0.deadline, now) },
                            deadline: opened?.deadline.milliseconds, sweepStart: opened?.sweepStart.milliseconds,
                            nextInMs: remaining(nextRoundAt, now))))
            }
        }
        // Written after the effects are merged; a replay merges the same throws again and changes nothing.
        if shouldSave, let problem = records.save() { outgoing.append(Outgoing(.operators, Notice(problem))) }
        if effects.contains(where: { if case .finished = $0 { true } else { false } }) {
            outgoing += FlyWire.Scope.allCases.map { Outgoing(.everyone, leaderboard($0, at: now)) }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [any HostMessage] {
        let now = game.pausedAt ?? current
        var messages: [any HostMessage] = [intro, phones]
        for player in game.players {
            if let phone = player.pickedPhone { messages.append(FlyWire.Picked(player: player.name, phone: phone)) }
        }
        switch game.phase {
        case .throwing, .landing, .between:
            messages.append(FlyWire.Scores(final: false, ranking: FlyHost.standings(game.standings), teams: []))
            if let opened = game.latestRound { messages.append(round(opened, at: now)) }
            // This round's throws as they went up and came down.
            let turns = game.players.compactMap { player -> (FlyThrow, FlyCatch?)? in
                switch player.turn {
                case .inAir(let thrown): (thrown, nil)
                case .done(let result): (result.thrown, result)
                case .waiting, .missed: nil
                }
            }
            for (thrown, result) in turns.sorted(by: { $0.0.pressedAt < $1.0.pressedAt }) {
                messages.append(FlyHost.thrown(thrown))
                if let result { messages.append(FlyHost.caught(result)) }
            }
            if let notice = stillInAir(for: viewer, at: now) { messages.append(notice) }
            if game.phase != .throwing {
                let missed = game.players.filter { $0.turn == .missed }.map(\.name)
                messages.append(FlyWire.TimeUp(round: game.roundNumber, missed: missed))
            }
            if game.phase == .between, let summary = game.lastSummary { messages.append(roundOver(summary, at: now)) }
            messages += game.challenges.map(challenged)
        case .finished:
            messages.append(scoreboard)
            messages += FlyWire.Scope.allCases.map { leaderboard($0, at: current) }
        case .notStarted:
            break
        }
        return messages
    }

    /// The viewer's own phone is up (back after a drop or a host restart): how long it has left, and to catch it.
    private func stillInAir(for viewer: Viewer, at now: Instant) -> Notice? {
        guard viewer.role == .player, let name = viewer.name, let player = game.player(named: name),
            player.hangsSince == nil, case .inAir(let thrown) = player.turn
        else { return nil }
        let left = now.milliseconds(until: thrown.landsAt)
        guard left > 0 else { return nil }
        return Notice(
            "Your phone is still in the air and comes down in \(left / 1000).\(left / 100 % 10) s: catch it!")
    }

    var scores: any HostMessage {
        FlyWire.Scores(
            final: game.phase == .finished, ranking: FlyHost.standings(game.standings),
            teams: FlyHost.teams(game.teamStandings))
    }

    var gameLog: JSONValue {
        let log = GameLog(
            id: record.game, settings: record.settings,
            throwsMade: game.results.map { FlyRecord($0, game: record.game, date: "") },
            ranking: game.standings.map {
                GameLog.Entry(
                    player: $0.player, rank: $0.rank, score: $0.score, phone: $0.phone, bestM: FlyWire.metres($0.bestMm)
                )
            }, teams: FlyHost.teams(game.teamStandings))
        return (try? JSONCoding.encode(log)) ?? .null
    }

    // MARK: The game log for people

    /// `partyline-host history GAME`: the settings, every throw round by round, the rankings.
    static func logLines(_ json: JSONValue) -> [String] {
        guard let log = try? JSONCoding.decode(GameLog.self, from: json) else { return ModeEntry.plainLines(json) }
        let settings = log.settings
        var lines = [
            "Let Me Fly · \(log.id) · \(Wording.count(settings.rounds, "round")) of \(settings.roundSeconds) s"
                + " · top speed \(settings.topSpeed) m/s"
        ]
        let names = FlyRecordStore.phoneNames
        for round in Set(log.throwsMade.map(\.round)).sorted() {
            lines.append("Round \(round)")
            for made in log.throwsMade where made.round == round {
                let how =
                    switch made.quality {
                    case .clean: "caught cleanly"
                    case .fumbled: "fumbled (half points)"
                    case .dropped: "dropped"
                    }
                lines.append(
                    "    \(made.player) (\(made.team), \(names[made.phone] ?? made.phone)): "
                        + "\(FlyPhysics.metres(made.heightMm)), \(how), \(Wording.count(made.points, "point"))")
            }
        }
        lines.append(
            "Ranking: "
                + log.ranking.map {
                    "#\($0.rank) \($0.player) \($0.score) ("
                        + ($0.bestM > 0 ? "best catch \(FlyWire.heightText($0.bestM))" : "no catch") + ")"
                }.joined(separator: " · "))
        lines.append("Teams: " + log.teams.map { "#\($0.rank) \($0.team) \($0.score)" }.joined(separator: " · "))
        return lines
    }

    /// `partyline-host history GAME --csv`: one row per throw that came down.
    static func logRows(_ json: JSONValue) -> [[String]] {
        guard let log = try? JSONCoding.decode(GameLog.self, from: json) else { return [] }
        var rows = [["round", "player", "team", "phone", "height m", "air ms", "catch", "points"]]
        for made in log.throwsMade {
            let metres = String(format: "%.3f", FlyWire.metres(made.heightMm))
            rows.append([
                String(made.round), made.player, made.team, made.phone, metres, String(made.airMs),
                made.quality.rawValue, String(made.points),
            ])
        }
        return rows
    }
}

/// What FlyHost does beyond the core every game has.
extension FlyHost: RosterAware, OperatorNotes, KeepsScore {}

extension FlyHost: RestartAware {
    /// Phones in the air when the host stopped hang until their throwers are back (`LetMeFly.Event.hostRestarted`).
    func hostRestarted(at now: Instant) -> Step { (try? apply(.hostRestarted, at: now)) ?? Step() }

    var isHeldForRestart: Bool { game.isHeldForRestart }
}

extension FlyWire: HostedWire {
    static var hostEntry: ModeEntry { FlyHost.entry }
}
