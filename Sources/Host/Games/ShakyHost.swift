import Foundation
import Protocol
import Rules

/// Shaky Words on the wire: turns players' actions into `ShakyWords` events and its effects into messages.
///
/// Live messages and a late joiner's catch-up are built by the same functions from the same Rules values
/// (`QuestionOpened`, `Reveal`, the queue's entries), so the two cannot drift apart.
final class ShakyHost: GameAdapter {
    typealias Wire = ShakyWire

    /// Everything that recreates the game with the journaled events.
    struct StartRecord: Codable {
        var teams: [String]
        var questions: [QuizQuestion]
        var settings: ShakySettings
        /// The game's seed, as decimal text: JSON numbers cannot carry every UInt64 exactly.
        var seedText: String
        var seed: UInt64 { UInt64(seedText) ?? 0 }
        var packs: [String]
        var difficulty: String
    }

    static let entry = ModeEntry(
        ShakyHost.self, aliases: ["shakywords", "shaky-words"],
        make: { (options, context) throws(RuleError) in try ShakyHost.make(options: options, context: context) },
        restore: { try ShakyHost.restore(record: $0) })

    var mode: ModeEntry { ShakyHost.entry }
    var game: ShakyWords
    let record: StartRecord
    /// One question as the game log keeps it.
    struct QuestionRecord: Codable {
        var number: Int
        var question: String
        var answer: String
        var buzzOrder: [String]
        var results: [ShakyWire.Result]
        var scorer: String?
    }

    /// The readable record of a game (games/*.json).
    struct Log: Codable {
        var teams: [String]
        var packs: [String]
        var difficulty: String
        var questions: [QuestionRecord]
        var ranking: [ShakyWire.Standing]
    }

    /// Who buzzed in which order and how each question ended, for the game log.
    private var questionLog: [QuestionRecord] = []
    private var currentBuzzOrder: [String] = []
    /// How each turn of the current (or just revealed) question ended, for the log and for late joiners.
    private var currentResults: [ShakyWire.Result] = []

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try ShakyWords(
            teams: record.teams, questions: record.questions, settings: record.settings, seed: record.seed)
    }

    static func make(options fields: JSONObject, context: GameContext) throws(RuleError) -> ShakyHost {
        let options = StartOptions(fields: fields)
        let teams = context.room.teams
        guard !teams.isEmpty else {
            throw RuleError(.noTeams, "Shaky Words needs at least one team in the lobby; players join with a team name.")
        }
        let count = try options.integer("questions", default: 10, in: 1...500)
        let difficultyText = try options.string("difficulty") ?? "mixed"
        guard let difficulty = DifficultyChoice(rawValue: difficultyText.lowercased()) else {
            throw RuleError(.badOption, "difficulty must be easy, medium, hard or mixed, not \"\(difficultyText)\".")
        }
        let packs = try options.strings("packs") ?? context.packs.listPacks().filter(\.isBuiltin).map(\.id)
        var rng = SplitMix64(seed: context.seed)
        let questions = try context.packs.drawQuestions(
            packIDs: packs, count: count, difficulty: difficulty, using: &rng)
        let host = context.options
        let reveal = try options.integer(
            "revealSeconds", default: host.revealSeconds, in: ShakySettings.revealSecondsRange)
        let settings = ShakySettings(
            questionSeconds: try options.integer(
                "questionSeconds", default: host.questionSeconds, in: ShakySettings.questionSecondsRange),
            afterBuzzSeconds: try options.integer(
                "afterBuzzSeconds", default: host.afterBuzzSeconds, in: ShakySettings.afterBuzzSecondsRange),
            answerSeconds: try options.integer(
                "answerSeconds", default: host.answerSeconds, in: ShakySettings.answerSecondsRange),
            revealSeconds: reveal == 0 ? nil : reveal,
            isForgiving: !(try options.bool("strict", default: host.isStrict)))
        return try ShakyHost(
            record: StartRecord(
                teams: teams, questions: questions, settings: settings, seedText: String(rng.next()), packs: packs,
                difficulty: difficulty.rawValue))
    }

    static func restore(record json: JSONValue) throws -> ShakyHost {
        try ShakyHost(record: JSONCoding.decode(StartRecord.self, from: json))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        let number = game.questionNumber.map { "question \($0)/\(game.questionCount)" } ?? "starting"
        var parts = ["Shaky Words", number, game.phase.rawValue]
        if game.isPaused { parts.append("paused") }
        if let team = game.teamOnTurn { parts.append("\(team) answering") }
        return parts.joined(separator: " · ")
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        .announcing([Outgoing(.everyone, intro)]) + ((try? apply(.start, at: now)) ?? Step())
    }

    func perform(_ action: ShakyWire.Action, context: PlayContext) throws(RuleError) -> Step {
        let team = context.player.team
        switch action {
        case .buzz(let stamp):
            if game.hasBuzzed(team) {
                throw RuleError(.alreadyBuzzed, "Your team already buzzed for this question; your place is kept.")
            }
            let press = context.estimatePress(stamp)
            return try apply(
                .buzz(
                    team: team, pressedAt: Instant(milliseconds: press.pressedAt), uncertaintyMs: press.uncertainty,
                    settleMs: context.settleMilliseconds), at: context.now)
        case .answer(let text):
            return try apply(.answer(team: team, text: text), at: context.now)
        case .shake:
            return try apply(.shake(team: team), at: context.now)
        }
    }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        guard !game.teams.contains(where: { Room.key($0) == Room.key(player.team) }) else { return Step() }
        return (try? apply(.addTeam(player.team), at: now)) ?? Step()
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step { Step() }

    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest? {
        guard awaitsTypedLine(from: player) else { return nil }
        return ShakyWire.Action.answer(text).request
    }

    /// On the team's turn, its players' typed lines are its answer.
    func awaitsTypedLine(from player: Player) -> Bool {
        guard let team = game.teamOnTurn else { return false }
        return Room.key(team) == Room.key(player.team)
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: ShakyWire.Intro { ShakyWire.Intro(teams: game.teams, questions: game.questionCount) }

    private static func standings(_ standings: [ShakyWords.Standing]) -> [ShakyWire.Standing] {
        standings.map { ShakyWire.Standing(team: $0.team, score: $0.score, rank: $0.rank, correct: $0.correctCount) }
    }

    /// The question as `team` sees it (spectators: the first team's letters, never the answer).
    private func question(_ opened: ShakyWords.QuestionOpened, for team: String?, at now: Instant)
        -> ShakyWire.Question
    {
        // A team sees its own letters with its hints; boards and operators the first team's as dealt.
        let letters = team.flatMap { opened.letters[$0] } ?? game.spectatorLetters
        let points = team.flatMap { game.pointsOnOffer(for: $0) } ?? opened.pointsOnOffer
        let deadline = game.isBuzzOpen ? opened.buzzDeadline : nil
        return ShakyWire.Question(
            number: opened.number, of: opened.total, text: opened.text, letters: letters?.text ?? "",
            fixed: letters?.fixedCount ?? 0, difficulty: opened.difficulty.rawValue, points: points,
            remainingMs: remaining(deadline, now), deadline: deadline?.milliseconds,
            shakeCost: team.flatMap { game.nextShakeCost(for: $0) })
    }

    private func buzzed(_ entries: [BuzzQueue.Entry], deadline: Instant?, at now: Instant) -> ShakyWire.Buzzed {
        ShakyWire.Buzzed(
            entries: entries.map {
                ShakyWire.BuzzEntry(
                    team: $0.team, offsetMs: $0.offsetMs, uncertaintyMs: $0.uncertaintyMs, tie: $0.isTied)
            }, remainingMs: remaining(deadline, now), deadline: deadline?.milliseconds)
    }

    private func turn(_ team: String, deadline: Instant, at now: Instant) -> ShakyWire.Turn {
        ShakyWire.Turn(team: team, remainingMs: remaining(deadline, now) ?? 0, deadline: deadline.milliseconds)
    }

    private func reveal(_ reveal: ShakyWords.Reveal, at now: Instant) -> ShakyWire.Reveal {
        ShakyWire.Reveal(
            number: reveal.number, answer: reveal.answer, scorer: reveal.scorer, points: reveal.pointsAwarded,
            scores: ShakyHost.standings(reveal.standings), nextInMs: remaining(reveal.nextQuestionAt, now),
            last: reveal.isLastQuestion, deadline: reveal.nextQuestionAt?.milliseconds)
    }

    func messages(for effects: [ShakyWords.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .question(let opened):
                currentBuzzOrder = []
                currentResults = []
                // Each team sees its own arrangement; boards and operators see the first team's (never the answer).
                for team in game.teams { outgoing.append(Outgoing(.team(team), question(opened, for: team, at: now))) }
                outgoing.append(Outgoing(.spectators, question(opened, for: nil, at: now)))
            case .teamJoined(let team, let letters):
                if letters != nil, let opened = game.shownQuestion {
                    outgoing.append(Outgoing(.team(team), question(opened, for: team, at: now)))
                }
            case .buzzed(let update):
                currentBuzzOrder = update.entries.map(\.team)
                outgoing.append(Outgoing(.everyone, buzzed(update.entries, deadline: update.buzzDeadline, at: now)))
            case .turn(let team, let deadline):
                outgoing.append(Outgoing(.everyone, turn(team, deadline: deadline, at: now)))
            case .hint(let team, let letters, let points):
                outgoing.append(
                    Outgoing(
                        .team(team),
                        ShakyWire.Hint(
                            letters: letters.text, fixed: letters.fixedCount, points: points,
                            shakeCost: game.nextShakeCost(for: team))))
            case .result(let team, let correct, let points, let isMisspelling, let isTimedOut):
                let result = ShakyWire.Result(
                    team: team, correct: correct, points: points, timedOut: isTimedOut, misspelled: isMisspelling)
                currentResults.append(result)
                outgoing.append(Outgoing(.everyone, result))
            case .reveal(let ended):
                outgoing.append(Outgoing(.everyone, reveal(ended, at: now)))
                questionLog.append(
                    QuestionRecord(
                        number: ended.number, question: game.questionText ?? "", answer: ended.answer,
                        buzzOrder: currentBuzzOrder, results: currentResults, scorer: ended.scorer))
            case .scoreboard(let ranking):
                outgoing.append(Outgoing(.everyone, ShakyWire.Scoreboard(ranking: ShakyHost.standings(ranking))))
            case .paused:
                outgoing.append(Outgoing(.everyone, Paused(at: now.milliseconds)))
            case .resumed(let clocks):
                outgoing.append(
                    Outgoing(
                        .everyone,
                        ShakyWire.Resumed(
                            buzzRemainingMs: remaining(clocks.buzzDeadline, now),
                            answerRemainingMs: remaining(clocks.answerDeadline, now),
                            nextInMs: remaining(clocks.nextQuestionAt, now))))
            }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [any HostMessage] {
        let now = game.pausedAt ?? current  // a paused game's clocks stand still: show what was left at the pause
        var messages: [any HostMessage] = [intro]
        let team = viewer.team.flatMap { name in game.teams.first { Room.key($0) == Room.key(name) } }
        switch game.phase {
        case .question, .reveal:
            // What a viewer who was there has seen of this question: it, the queue, how turns ended, the reveal.
            guard let opened = game.shownQuestion else { break }
            messages.append(question(opened, for: team, at: now))
            if !game.queueEntries.isEmpty {
                messages.append(buzzed(game.queueEntries, deadline: game.buzzDeadline, at: now))
            }
            messages += currentResults as [any HostMessage]
            if let onTurn = game.teamOnTurn, let deadline = game.answerDeadline {
                messages.append(turn(onTurn, deadline: deadline, at: now))
            }
            if game.phase == .reveal, let last = game.lastReveal { messages.append(reveal(last, at: now)) }
        case .finished:
            if let ranking = game.finalRanking {
                messages.append(ShakyWire.Scoreboard(ranking: ShakyHost.standings(ranking)))
            }
        case .notStarted:
            break
        }
        if let pausedAt = game.pausedAt { messages.append(Paused(at: pausedAt.milliseconds)) }
        return messages
    }

    var scores: (any HostMessage)? {
        ShakyWire.Scores(final: game.phase == .finished, ranking: ShakyHost.standings(game.standings))
    }

    var gameLog: JSONValue {
        let log = Log(
            teams: game.teams, packs: record.packs, difficulty: record.difficulty, questions: questionLog,
            ranking: ShakyHost.standings(game.finalRanking ?? game.standings))
        return (try? JSONCoding.encode(log)) ?? .null
    }
}
