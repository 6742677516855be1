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
        var seedText: Seed
        var seed: UInt64 { seedText.value }
        var packs: [String]
        var difficulty: String
        /// How many questions had to repeat from earlier games tonight.
        var repeated: Int?
    }

    static let entry = ModeEntry(
        ShakyHost.self, aliases: ["shakywords", "shaky-words"],
        make: { (options, context) throws(RuleError) in try ShakyHost.make(options: options, context: context) },
        restore: { try ShakyHost.restore(record: $0) },
        logLines: { ShakyHost.logLines($0) }, logRows: { ShakyHost.logRows($0) })

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
        /// Every answer typed (and every turn that ran out), with its verdict and whether the quizmaster gave it.
        var answers: [AnswerLine]?
    }

    /// One answer as the game log keeps it.
    struct AnswerLine: Codable {
        var team: String
        /// Who typed it, when known.
        var player: String?
        /// What was typed ("" when the answer clock ran out).
        var text: String
        /// `right`, `forgiven`, `wrong`, `timeout`, or `waiting` (judging by hand, no verdict yet).
        var verdict: String
        /// Whether the quizmaster gave or changed the verdict.
        var byHand: Bool
        /// What the automatic judge had said when the quizmaster changed it (`wrong`, `forgiven`, …).
        var judge: String?
        var points: Int
        /// Milliseconds from the question's opening.
        var ms: Int64
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
    /// Whether buzzing was open after the last step, to send the whole order once when it closes.
    private var wasBuzzOpen = false
    /// How each turn of the current (or just revealed) question ended, for the log and for late joiners.
    private var currentResults: [ShakyWire.Result] = []
    /// The quizmaster's overrules on the revealed question, for the catch-up.
    private var currentOverrules: [ShakyWire.Overruled] = []

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try ShakyWords(
            teams: record.teams, questions: record.questions, settings: record.settings, seed: record.seed)
    }

    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> ShakyHost {
        // The teams with someone here (away players' teams would be ghosts scoring 0), unless the operator names them.
        let present = context.room.teams.filter { team in context.room.members(of: team).contains(where: \.isConnected)
        }
        let teams = try options.strings("teams").map { $0.map(context.room.canonicalTeam) } ?? present
        guard !teams.isEmpty else {
            throw RuleError(
                .noTeams, "Shaky Words needs at least one team with a player here; players join with a team name.")
        }
        let count = try options.integer("questions")
        let difficulty = DifficultyChoice(rawValue: try options.choice("difficulty")) ?? .mixed
        let packs = try options.strings("packs") ?? context.packs.listPacks().filter(\.isBuiltin).map(\.id)
        var rng = SplitMix64(seed: context.seed)
        let (questions, repeated) = try context.packs.draw(
            packIDs: packs, count: count, difficulty: difficulty, avoiding: context.played, using: &rng)
        let host = context.options
        let reveal = try options.integer("revealSeconds")
        var settings = ShakySettings(
            questionSeconds: try options.integer("questionSeconds"),
            afterBuzzSeconds: try options.integer("afterBuzzSeconds"),
            answerSeconds: try options.integer("answerSeconds"),
            revealSeconds: reveal == 0 ? nil : reveal,
            isForgiving: !(try options.bool("strict")))
        settings.isJudgedByHand = try judgedByHand(options, default: host.isJudgedByHand)
        return try ShakyHost(
            record: StartRecord(
                teams: teams, questions: questions, settings: settings, seedText: Seed(rng.next()), packs: packs,
                difficulty: difficulty.rawValue, repeated: repeated))
    }

    /// `judge=manual|auto`, spelled as the host's `--judge` (and `judge-by-hand=on|off`, its first spelling).
    private static func judgedByHand(_ options: StartOptions, default value: Bool) throws(RuleError) -> Bool {
        let alias = try options.bool("judgeByHand", default: value)
        guard let judge = try options.string("judge") else { return alias }
        switch judge.lowercased() {
        case "manual", "hand", "by-hand": return true
        case "auto", "automatic": return false
        default: throw RuleError(.badOption, "judge must be manual or auto, not \"\(judge)\".")
        }
    }

    static func restore(record json: JSONValue) throws -> ShakyHost {
        try ShakyHost(record: JSONCoding.decode(StartRecord.self, from: json))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }

    var playedContent: [String] {
        record.questions.prefix(game.questionNumber ?? 0).map { TextFolding.fold($0.text) }
    }

    var startNote: String? {
        guard let repeated = record.repeated, repeated > 0 else { return nil }
        return
            "\(Wording.count(repeated, "question")) had to repeat from earlier tonight: "
            + "the packs have no more new ones."
    }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        let number = game.questionNumber.map { "question \($0)/\(game.questionCount)" } ?? "starting"
        let phase: String
        switch game.phase {
        case .notStarted: phase = "starting"
        case .question: phase = game.teamAwaitingVerdict != nil ? "an answer waits for your verdict" : "question open"
        case .reveal: phase = "answer shown"
        case .finished: phase = "over"
        }
        var parts = ["Shaky Words", number, phase]
        if game.isPaused { parts.append("paused") }
        if let team = game.teamOnTurn { parts.append("\(team) answering") }
        return parts.joined(separator: " · ")
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        .announcing([Outgoing(.everyone, intro)]) + ((try? apply(.start, at: now)) ?? Step())
    }

    /// The game's spelling of a player's team (a team re-formed as "red" after "Red" left is still Red).
    private func team(of player: Player) -> String {
        if teamsByKey.count != game.teams.count {
            // Teams are only ever added; the first spelling of a key is the game's.
            teamsByKey = [:]
            for team in game.teams where teamsByKey[Room.key(team)] == nil { teamsByKey[Room.key(team)] = team }
        }
        return teamsByKey[Room.key(player.team)] ?? player.team
    }
    /// The game's teams by name key, so a storm of 1,000 presses does not fold every team name for each press.
    private var teamsByKey: [String: String] = [:]

    func perform(_ action: ShakyWire.Action, context: PlayContext) throws(RuleError) -> Step {
        let team = team(of: context.player)
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
            return try apply(.answer(team: team, text: text, player: context.player.name), at: context.now)
        case .shake:
            return try apply(.shake(team: team), at: context.now)
        }
    }

    func perform(command: ShakyWire.Command, at now: Instant) throws(RuleError) -> Step {
        switch command {
        case .judge(let named, let correct):
            guard let team = game.teams.first(where: { Room.key($0) == Room.key(named) }) else {
                throw RuleError(.unknownTeam, "There is no team called \(named) in this game.")
            }
            var step = try apply(.judge(team: team, correct: correct), at: now)
            step.reply = verdictReply(team: team)
            return step
        }
    }

    /// The quizmaster's line for a question: "Question 1/10 (easy, 100 points): … — answer: elephant".
    static func feedLine(_ opened: ShakyWords.QuestionOpened, answer: String) -> String {
        "Question \(opened.number)/\(opened.total) (\(opened.difficulty.rawValue), \(opened.pointsOnOffer) points): "
            + "\(opened.text) — answer: \(answer)"
    }

    var operatorBriefing: [String] {
        guard let opened = game.shownQuestion, let answer = game.currentAnswer else { return [] }
        var lines = [ShakyHost.feedLine(opened, answer: answer)]
        if !game.queueEntries.isEmpty {
            lines.append("Buzz order: " + game.queueEntries.map(\.team).joined(separator: " · "))
        }
        for record in game.answers where !record.text.isEmpty && record.verdict != nil {
            lines.append(
                "\(record.team) answered \"\(record.text)\": \(record.verdict!.isCorrect ? "right" : "wrong").")
        }
        if let team = game.teamAwaitingVerdict, let record = game.answers.last(where: { $0.team == team }) {
            lines.append("\(team) answered \"\(record.text)\". Waiting for you: type accept \(team) or reject \(team).")
        }
        return lines
    }

    /// What the quizmaster's verdict changed, in words: `Red's answer "Napolean" to question 3 now counts as right:
    /// +200. Scores: #1 Red 300 · #2 Blue 100.`
    private func verdictReply(team: String) -> String? {
        guard let (number, answer) = game.latestAnswer(of: team) else { return nil }
        let verdict = answer.verdict?.isCorrect == true ? "right" : "wrong"
        let change = answer.points > 0 ? ": +\(answer.points)" : ""
        let scores = ShakyWire.Standing.summary(ShakyWire.Standing.list(game.standings))
        let counts = answer.judgedAs == nil ? "is" : "now counts as"
        return
            "\(team)'s answer \"\(answer.text)\" to question \(number) \(counts) \(verdict)\(change). "
            + "Scores: \(scores)."
    }

    var operatorPrompt: String? {
        if let team = game.teamAwaitingVerdict { return "accept \(team) or reject \(team)" }
        if game.phase == .reveal, game.nextQuestionAt == nil, !game.isPaused {
            return game.lastReveal?.isLastQuestion == true ? "next for the final scores" : "next for the next question"
        }
        return nil
    }

    func includes(_ player: Player) -> Bool { game.teams.contains(where: { Room.key($0) == Room.key(player.team) }) }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        guard !includes(player) else { return Step() }
        return (try? apply(.addTeam(player.team), at: now)) ?? Step()
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step { Step() }

    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest? {
        guard awaitsTypedLine(from: player) else { return nil }
        return ShakyWire.Action.answer(text).request
    }

    /// The answers to the current question as the game log keeps them.
    private static func answerLines(_ answers: [ShakyWords.AnswerRecord], openedAt opened: Instant) -> [AnswerLine] {
        func word(_ verdict: AnswerVerdict?, text: String) -> String {
            switch verdict {
            case .exact?: "right"
            case .misspelling?: "forgiven"
            case .wrong?: text.isEmpty ? "timeout" : "wrong"
            case nil: "waiting"
            }
        }
        return answers.map { record in
            AnswerLine(
                team: record.team, player: record.player, text: record.text,
                verdict: word(record.verdict, text: record.text), byHand: record.isByHand,
                judge: record.judgedAs.map { word($0, text: record.text) }, points: record.points,
                ms: opened.milliseconds(until: record.at))
        }
    }

    // MARK: The game log for people

    static func logLines(_ json: JSONValue) -> [String] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return ModeEntry.plainLines(json) }
        var lines = [
            "Shaky Words · teams: \(log.teams.joined(separator: ", ")) · packs: \(log.packs.joined(separator: ", "))"
                + " · \(log.difficulty)"
        ]
        for question in log.questions {
            lines.append("Q\(question.number). \(question.question) — \(question.answer)")
            if !question.buzzOrder.isEmpty { lines.append("    buzzed: \(question.buzzOrder.joined(separator: ", "))") }
            for answer in question.answers ?? [] {
                let who = answer.player.map { "\(answer.team) (\($0))" } ?? answer.team
                let typed = answer.text.isEmpty ? "no answer" : "\"\(answer.text)\""
                let hand =
                    answer.judge.map { " by the quizmaster (the judge said \($0))" }
                    ?? (answer.byHand ? " by the quizmaster" : "")
                lines.append(
                    "    \(who): \(typed) — \(answer.verdict)\(hand), \(answer.points) points, "
                        + String(format: "%.1f s", Double(answer.ms) / 1000))
            }
        }
        lines.append("Ranking: " + ShakyWire.Standing.summary(log.ranking, unit: " points"))
        return lines
    }

    static func logRows(_ json: JSONValue) -> [[String]] {
        guard let log = try? JSONCoding.decode(Log.self, from: json) else { return [] }
        var rows = [
            [
                "question", "text", "answer", "team", "player", "typed", "verdict", "by quizmaster", "judge said",
                "points", "ms",
            ]
        ]
        for question in log.questions {
            for answer in question.answers ?? [] {
                rows.append([
                    String(question.number), question.question, question.answer, answer.team, answer.player ?? "",
                    answer.text, answer.verdict, answer.byHand ? "yes" : "no", answer.judge ?? "",
                    String(answer.points),
                    String(answer.ms),
                ])
            }
        }
        return rows
    }

    // MARK: The quizmaster's feed

    /// `Red answered "Napolean": right, forgiven (1 letter off), +200` — what was typed and why the judge decided.
    private func verdictLine(team: String, correct: Bool, points: Int, isTimedOut: Bool) -> String {
        guard !isTimedOut, let record = game.answers.last(where: { $0.team == team }) else {
            return "\(team): time is up."
        }
        let said = "\(team) answered \"\(record.text)\": "
        if record.isByHand { return said + (correct ? "right (your verdict), +\(points)" : "wrong (your verdict)") }
        switch record.verdict {
        case .exact?: return said + "right, +\(points)"
        case .misspelling(let distance)?:
            return said + "right, forgiven (\(Wording.count(distance, "letter")) off), +\(points)"
        case .wrong?, nil:
            return said + "wrong\(nearMiss(record.text)). Overrule with: accept \(team)"
        }
    }

    /// Why a near miss (1 or 2 letters off) was refused: " (1 letter off, but strict is on)"; nothing for an answer
    /// that is simply something else.
    private func nearMiss(_ text: String) -> String {
        let expected = Array(TextFolding.compact(game.currentAnswer ?? ""))
        let distance = AnswerJudge.editDistance(Array(TextFolding.compact(text)), expected)
        guard (1...2).contains(distance) else { return "" }
        let off = Wording.count(distance, "letter") + " off"
        if !game.settings.isForgiving { return " (\(off), but strict is on)" }
        if AnswerJudge.allowedEdits(forLetterCount: expected.count) == 0 { return " (\(off): too short to forgive)" }
        return " (\(off): more than an answer this long forgives)"
    }

    /// On the team's turn, its players' typed lines are its answer.
    func awaitsTypedLine(from player: Player) -> Bool {
        guard let team = game.teamOnTurn else { return false }
        return Room.key(team) == Room.key(player.team)
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: ShakyWire.Intro { ShakyWire.Intro(teams: game.teams, questions: game.questionCount) }

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
            scores: ShakyWire.Standing.list(reveal.standings), nextInMs: remaining(reveal.nextQuestionAt, now),
            last: reveal.isLastQuestion, deadline: reveal.nextQuestionAt?.milliseconds)
    }

    func messages(for effects: [ShakyWords.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .question(let opened):
                currentBuzzOrder = []
                currentResults = []
                currentOverrules = []
                // A new question's order starts afresh: its first `buzzed` goes out whole.
                outgoing.append(.endState(ShakyWire.Buzzed.self, .everyone))
                // Each team sees its own arrangement; boards and operators see the first team's (never the answer).
                for team in game.teams {
                    outgoing.append(Outgoing(.team(TeamName(team)), question(opened, for: team, at: now)))
                }
                outgoing.append(
                    .announcement(
                        .spectators, question(opened, for: nil, at: now),
                        feed: ShakyHost.feedLine(opened, answer: game.currentAnswer ?? "?")))
            case .teamJoined(let team, let letters):
                if letters != nil, let opened = game.shownQuestion {
                    outgoing.append(Outgoing(.team(TeamName(team)), question(opened, for: team, at: now)))
                }
            case .buzzed(let update):
                let isFirst = currentBuzzOrder.isEmpty
                currentBuzzOrder = update.entries.map(\.team)
                let message = buzzed(update.entries, deadline: update.buzzDeadline, at: now)
                // The order is a growing state: the whole once, then each buzz as a small `buzzedUpdate`.
                outgoing.append(.state(.everyone, message))
                if isFirst {
                    outgoing.append(feed("Buzz order: " + message.entries.map(\.summary).joined(separator: " · ")))
                } else if let entry = message.entries.first(where: { $0.team == update.team }) {
                    let queue = Wording.count(message.entries.count, "team")
                    outgoing.append(feed("Buzzed: \(entry.summary) · \(queue) in the queue."))
                }
            case .turn(let team, let deadline):
                // Readers that ignore deltas get the whole committed order at every turn (unless they hold it).
                if !game.queueEntries.isEmpty {
                    let order = buzzed(game.queueEntries, deadline: game.buzzDeadline, at: now)
                    outgoing.append(.wholeState(.everyone, order))
                }
                outgoing.append(Outgoing(.everyone, turn(team, deadline: deadline, at: now)))
            case .hint(let team, let letters, let points):
                outgoing.append(
                    Outgoing(
                        .team(TeamName(team)),
                        ShakyWire.Hint(
                            letters: letters.text, fixed: letters.fixedCount, points: points,
                            shakeCost: game.nextShakeCost(for: team))))
                outgoing.append(
                    feed("\(team) shook: one more letter in place, now worth \(points).", isSecondary: true))
            case .result(let team, let correct, let points, let isMisspelling, let isTimedOut):
                let byHand = !isTimedOut && game.latestAnswer(of: team)?.answer.isByHand == true
                let result = ShakyWire.Result(
                    team: team, correct: correct, points: points, timedOut: isTimedOut, misspelled: isMisspelling,
                    byQuizmaster: byHand)
                // The quizmaster's acceptance replaces the team's earlier verdict on this question.
                if byHand, correct { currentResults.removeAll { Room.key($0.team) == Room.key(team) } }
                currentResults.append(result)
                outgoing.append(
                    .announcement(
                        .everyone, result,
                        feed: verdictLine(team: team, correct: correct, points: points, isTimedOut: isTimedOut)))
            case .reveal(let ended):
                let scores = ShakyWire.Standing.summary(ShakyWire.Standing.list(ended.standings))
                outgoing.append(
                    .announcement(
                        .everyone, reveal(ended, at: now), feed: "Revealed: \(ended.answer). Scores: \(scores)."))
                questionLog.append(
                    QuestionRecord(
                        number: ended.number, question: ended.question, answer: ended.answer,
                        buzzOrder: currentBuzzOrder, results: currentResults, scorer: ended.scorer,
                        answers: ShakyHost.answerLines(ended.answers, openedAt: ended.openedAt)))
                if let prompt = operatorPrompt { outgoing.append(feed("Waiting for you: type \(prompt).")) }
            case .scoreboard(let ranking):
                // A question the operator ended before its reveal still belongs in the log, with what was typed.
                if let number = game.questionNumber, questionLog.last?.number != number, let text = game.questionText {
                    questionLog.append(
                        QuestionRecord(
                            number: number, question: text, answer: game.currentAnswer ?? "",
                            buzzOrder: currentBuzzOrder, results: currentResults, scorer: nil,
                            answers: ShakyHost.answerLines(
                                game.answers, openedAt: game.questionOpenedAt ?? Instant(milliseconds: 0))))
                }
                outgoing.append(Outgoing(.everyone, ShakyWire.Scoreboard(ranking: ShakyWire.Standing.list(ranking))))
            case .paused:
                break  // the generic `steer` announces every pause
            case .awaitingVerdict(let team, let text):
                outgoing.append(
                    .announcement(
                        .everyone, ShakyWire.Judging(team: team),
                        feed: "\(team) answered \"\(text)\" (the answer is \(game.currentAnswer ?? "?")). "
                            + "Waiting for you: type accept \(team) or reject \(team)."))
            case .overruled(let team, let correct, let points, let standings, let number):
                let message = ShakyWire.Overruled(
                    team: team, correct: correct, points: points, scores: ShakyWire.Standing.list(standings),
                    question: number)
                outgoing.append(.announcement(.everyone, message, feed: message.quizmastersLine))
                if game.phase == .reveal, game.questionNumber == number { currentOverrules.append(message) }
                if let logged = questionLog.lastIndex(where: { $0.number == number }),
                    let (answers, openedAt) = game.answers(toQuestion: number)
                {
                    questionLog[logged].answers = ShakyHost.answerLines(answers, openedAt: openedAt)
                }
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
        // When buzzing closes the order is final: the whole of it, for readers that ignore deltas.
        let isBuzzOpen = game.phase == .question && game.isBuzzOpen
        if wasBuzzOpen && !isBuzzOpen && game.phase == .question && !game.queueEntries.isEmpty
            && game.isBuzzOrderSettled
        {
            outgoing.append(.wholeState(.everyone, buzzed(game.queueEntries, deadline: game.buzzDeadline, at: now)))
        }
        wasBuzzOpen = isBuzzOpen
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
            // While the head of the queue settles the order stays private, as it does live.
            if !game.queueEntries.isEmpty, game.isBuzzOrderSettled {
                messages.append(buzzed(game.queueEntries, deadline: game.buzzDeadline, at: now))
            }
            messages += currentResults as [any HostMessage]
            if let onTurn = game.teamOnTurn, let deadline = game.answerDeadline {
                messages.append(turn(onTurn, deadline: deadline, at: now))
            }
            if let team = game.teamAwaitingVerdict { messages.append(ShakyWire.Judging(team: team)) }
            if game.phase == .reveal, let last = game.lastReveal {
                messages.append(reveal(last, at: now))
                messages += currentOverrules as [any HostMessage]
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
        ShakyWire.Scores(final: game.phase == .finished, ranking: ShakyWire.Standing.list(game.standings))
    }

    var gameLog: JSONValue {
        let log = Log(
            teams: game.teams, packs: record.packs, difficulty: record.difficulty, questions: questionLog,
            ranking: ShakyWire.Standing.list(game.finalRanking ?? game.standings))
        return (try? JSONCoding.encode(log)) ?? .null
    }
}

/// What ShakyHost does beyond the core every game has.
extension ShakyHost: RosterAware, TypedLines, OperatorNotes, KeepsScore {}

extension ShakyWire: HostedWire {
    static var hostEntry: ModeEntry { ShakyHost.entry }
}
