import Foundation
import Protocol
import Rules

/// Shaky Words on the wire: turns players' actions into `ShakyWords` events and its effects into messages.
final class ShakyHost: JournaledHosting {
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

    let name = "shaky"
    var game: ShakyWords
    let displayName = "Shaky Words"
    let record0: StartRecord
    var record: ([UInt8], Instant) -> Void = { _, _ in }
    /// Who buzzed in which order and how each question ended, for the game log.
    private var questionLog: [JSONValue] = []
    private var currentBuzzOrder: [String] = []
    private var currentResults: [JSONValue] = []

    init(record: StartRecord) throws(RuleError) {
        record0 = record
        game = try ShakyWords(teams: record.teams, questions: record.questions, settings: record.settings, seed: record.seed)
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
            throw RuleError(.badOption, "\"difficulty\" must be easy, medium, hard or mixed, not \"\(difficultyText)\".")
        }
        let packs = try options.strings("packs") ?? context.packs.listPacks().filter(\.isBuiltin).map(\.id)
        var rng = SplitMix64(seed: context.seed)
        let questions = try context.packs.drawQuestions(packIDs: packs, count: count, difficulty: difficulty, using: &rng)
        let host = context.options
        let reveal = try options.integer("revealSeconds", default: host.revealSeconds, in: 0...3600)
        let settings = ShakySettings(
            questionSeconds: try options.integer("questionSeconds", default: host.questionSeconds, in: 1...3600),
            afterBuzzSeconds: try options.integer("afterBuzzSeconds", default: host.afterBuzzSeconds, in: 1...3600),
            answerSeconds: try options.integer("answerSeconds", default: host.answerSeconds, in: 1...3600),
            revealSeconds: reveal == 0 ? nil : reveal,
            isForgiving: !(try options.bool("strict", default: host.isStrict)))
        return try ShakyHost(record: StartRecord(teams: teams, questions: questions, settings: settings, seedText: String(rng.next()),
                                                 packs: packs, difficulty: difficulty.rawValue))
    }

    static func restore(record json: JSONValue) throws -> ShakyHost {
        try ShakyHost(record: CodableBridge.value(StartRecord.self, from: json))
    }

    var startRecord: JSONValue { CodableBridge.json(record0) }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        let number = game.questionNumber.map { "question \($0)/\(game.questionCount)" } ?? "starting"
        var parts = ["Shaky Words", number, game.phase.rawValue]
        if game.isPaused { parts.append("paused") }
        if let team = game.teamOnTurn { parts.append("\(team) answering") }
        return parts.joined(separator: " · ")
    }

    // MARK: Applying events


    func start(at now: Instant) -> [Outgoing] {
        let intro = Outgoing(audience: .everyone, message: .object([
            "type": "game", "game": "shaky", "teams": .array(game.teams.map { .string($0) }),
            "questions": .number(game.questionCount)]))
        return [intro] + ((try? apply(.start, at: now)) ?? [])
    }

    func perform(_ action: PlayerAction, by player: Player, at now: Instant) throws(RuleError) -> [Outgoing] {
        let team = player.team
        switch action {
        case .buzz(let estimate, let settle):
            if game.hasBuzzed(team) {
                throw RuleError(.alreadyBuzzed, "Your team already buzzed for this question; your place is kept.")
            }
            return try apply(.buzz(team: team, pressedAt: Instant(milliseconds: estimate.pressedAt),
                                   uncertaintyMs: estimate.uncertainty, settleMs: settle), at: now)
        case .answer(let text):
            return try apply(.answer(team: team, text: text), at: now)
        case .shake:
            return try apply(.shake(team: team), at: now)
        case .command:
            throw RuleError(.wrongGame, "Commands belong to the Queen's game; this is Shaky Words (buzz, answer, shake).")
        }
    }


    func playerJoined(_ player: Player, at now: Instant) -> [Outgoing] {
        guard !game.teams.contains(where: { Room.key($0) == Room.key(player.team) }) else { return [] }
        return (try? apply(.addTeam(player.team), at: now)) ?? []
    }

    func playerRemoved(_ player: Player, at now: Instant) -> [Outgoing] { [] }


    func interpretFreeText(_ text: String, from player: Player) -> PlayerAction? {
        guard let team = game.teamOnTurn, Room.key(team) == Room.key(player.team) else { return nil }
        return .answer(text)
    }

    // MARK: Messages

    static func remaining(_ deadline: Instant?, _ now: Instant) -> JSONValue {
        deadline.map { .int(max(0, now.milliseconds(until: $0))) } ?? .null
    }

    static func standingsJSON(_ standings: [ShakyWords.Standing]) -> JSONValue {
        .array(standings.map { .object(["team": .string($0.team), "score": .number($0.score), "rank": .number($0.rank),
                                        "correct": .number($0.correctCount)]) })
    }

    private func questionMessage(number: Int, total: Int, text: String, difficulty: Difficulty, points: Int,
                                 letters: ShakyLetters?, deadline: Instant?, at now: Instant) -> JSONValue {
        .object(["type": "question", "number": .number(number), "of": .number(total), "text": .string(text),
                 "letters": .string(letters?.text ?? ""), "fixed": .number(letters?.fixedCount ?? 0), "difficulty": .string(difficulty.rawValue), "points": .number(points),
                 "remainingMs": ShakyHost.remaining(deadline, now), "deadline": deadline.map { .int($0.milliseconds) } ?? .null])
    }

    private func buzzedMessage(entries: [BuzzQueue.Entry], deadline: Instant?, at now: Instant) -> JSONValue {
        .object(["type": "buzzed", "order": .array(entries.map { .string($0.team) }),
                 "entries": .array(entries.map { .object(["team": .string($0.team), "offsetMs": .int($0.offsetMs),
                                                          "uncertaintyMs": .int($0.uncertaintyMs), "tie": .bool($0.isTied)]) }),
                 "remainingMs": ShakyHost.remaining(deadline, now), "deadline": deadline.map { .int($0.milliseconds) } ?? .null])
    }

    func messages(for effects: [ShakyWords.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .question(let opened):
                currentBuzzOrder = []
                currentResults = []
                // Each team sees its own arrangement; boards and operators see the first team's (never the answer).
                for team in game.teams {
                    outgoing.append(Outgoing(audience: .team(team), message: questionMessage(
                        number: opened.number, total: opened.total, text: opened.text, difficulty: opened.difficulty,
                        points: opened.pointsOnOffer, letters: opened.letters[team], deadline: opened.buzzDeadline, at: now)))
                }
                outgoing.append(Outgoing(audience: .spectators, message: questionMessage(
                    number: opened.number, total: opened.total, text: opened.text, difficulty: opened.difficulty,
                    points: opened.pointsOnOffer, letters: game.teams.first.flatMap { opened.letters[$0] }, deadline: opened.buzzDeadline, at: now)))
            case .teamJoined(let team, let letters):
                if let letters, let number = game.questionNumber, let text = game.questionText, let difficulty = game.questionDifficulty {
                    outgoing.append(Outgoing(audience: .team(team), message: questionMessage(
                        number: number, total: game.questionCount, text: text, difficulty: difficulty,
                        points: game.pointsOnOffer(for: team) ?? 0, letters: letters, deadline: game.buzzDeadline, at: now)))
                }
            case .buzzed(let update):
                currentBuzzOrder = update.entries.map(\.team)
                outgoing.append(Outgoing(audience: .everyone, message: buzzedMessage(entries: update.entries, deadline: update.buzzDeadline, at: now)))
            case .turn(let team, let deadline):
                outgoing.append(Outgoing(audience: .everyone, message: .object([
                    "type": "turn", "team": .string(team), "remainingMs": ShakyHost.remaining(deadline, now), "deadline": .int(deadline.milliseconds)])))
            case .hint(let team, let letters, let points):
                outgoing.append(Outgoing(audience: .team(team), message: .object([
                    "type": "hint", "letters": .string(letters.text), "fixed": .number(letters.fixedCount), "points": .number(points)])))
            case .result(let team, let correct, let points, let isMisspelling, let isTimedOut):
                var message: JSONObject = ["type": "result", "team": .string(team), "correct": .bool(correct), "points": .number(points),
                                           "timedOut": .bool(isTimedOut)]
                if isMisspelling { message["misspelled"] = true }  // the correct spelling follows in `reveal`
                currentResults.append(.object(message))
                outgoing.append(Outgoing(audience: .everyone, message: .object(message)))
            case .reveal(let reveal):
                outgoing.append(Outgoing(audience: .everyone, message: .object([
                    "type": "reveal", "number": .number(reveal.number), "answer": .string(reveal.answer), "scorer": .optional(reveal.scorer),
                    "points": .number(reveal.pointsAwarded), "scores": ShakyHost.standingsJSON(reveal.standings),
                    "nextInMs": ShakyHost.remaining(reveal.nextQuestionAt, now), "last": .bool(reveal.isLastQuestion)])))
                questionLog.append(.object(["number": .number(reveal.number), "question": .string(game.questionText ?? ""),
                                            "answer": .string(reveal.answer), "buzzOrder": .array(currentBuzzOrder.map { .string($0) }),
                                            "results": .array(currentResults), "scorer": .optional(reveal.scorer)]))
            case .scoreboard(let ranking):
                outgoing.append(Outgoing(audience: .everyone, message: .object([
                    "type": "scoreboard", "final": true, "ranking": ShakyHost.standingsJSON(ranking)])))
            case .paused:
                outgoing.append(Outgoing(audience: .everyone, message: .object(["type": "paused"])))
            case .resumed(let clocks):
                outgoing.append(Outgoing(audience: .everyone, message: .object([
                    "type": "resumed", "buzzRemainingMs": ShakyHost.remaining(clocks.buzzDeadline, now),
                    "answerRemainingMs": ShakyHost.remaining(clocks.answerDeadline, now),
                    "nextInMs": ShakyHost.remaining(clocks.nextQuestionAt, now)])))
            }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [JSONValue] {
        let now = game.pausedAt ?? current  // a paused game's clocks stand still: show what was left at the pause
        var messages: [JSONValue] = [.object(["type": "game", "game": "shaky", "teams": .array(game.teams.map { .string($0) }),
                                              "questions": .number(game.questionCount)])]
        switch game.phase {
        case .question:
            guard let number = game.questionNumber, let text = game.questionText, let difficulty = game.questionDifficulty else { break }
            let team = viewer.team.flatMap { name in game.teams.first { Room.key($0) == Room.key(name) } }
            let letters = team.flatMap { game.letters(for: $0) } ?? game.teams.first.flatMap { game.letters(for: $0) }
            let points = team.flatMap { game.pointsOnOffer(for: $0) } ?? 0
            messages.append(questionMessage(number: number, total: game.questionCount, text: text, difficulty: difficulty,
                                            points: points, letters: letters, deadline: game.buzzDeadline, at: now))
            if !game.queueEntries.isEmpty {
                messages.append(buzzedMessage(entries: game.queueEntries, deadline: game.buzzDeadline, at: now))
            }
            if let onTurn = game.teamOnTurn, let deadline = game.answerDeadline {
                messages.append(.object(["type": "turn", "team": .string(onTurn), "remainingMs": ShakyHost.remaining(deadline, now),
                                         "deadline": .int(deadline.milliseconds)]))
            }
        case .reveal:
            if let answer = game.revealedAnswer {
                let last = questionLog.last
                messages.append(.object(["type": "reveal", "number": .number(game.questionNumber ?? 0), "answer": .string(answer),
                                         "scorer": last?["scorer"] ?? .null, "scores": ShakyHost.standingsJSON(game.standings),
                                         "nextInMs": ShakyHost.remaining(game.nextQuestionAt, now),
                                         "last": .bool(game.questionNumber == game.questionCount)]))
            }
        case .finished:
            if let ranking = game.finalRanking {
                messages.append(.object(["type": "scoreboard", "final": true, "ranking": ShakyHost.standingsJSON(ranking)]))
            }
        case .notStarted:
            break
        }
        if game.isPaused { messages.append(.object(["type": "paused"])) }
        return messages
    }

    var scores: JSONValue? {
        .object(["type": "scores", "final": .bool(game.phase == .finished), "ranking": ShakyHost.standingsJSON(game.standings)])
    }

    var gameLog: JSONValue {
        .object(["teams": .array(game.teams.map { .string($0) }), "packs": .array(record0.packs.map { .string($0) }),
                 "difficulty": .string(record0.difficulty), "questions": .array(questionLog),
                 "ranking": ShakyHost.standingsJSON(game.finalRanking ?? game.standings)])
    }
}
