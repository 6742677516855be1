/// Shaky Words on the wire (PROTOCOL.md §6.2): team trivia with scrambled letters and fair buzzing.
public enum ShakyWire: GameWire {
    public static let name = "shaky"
    public static let title = "Shaky Words"
    public static let startGrammar = StartGrammar(
        game: name,
        options: [
            .list("teams", note: "the teams with a player connected", help: "who plays"),
            .number("questions", 1...500, default: 10, help: "number of questions", bareWord: "QUESTIONS"),
            .choice(
                "difficulty", ["easy", "medium", "hard", "mixed"], default: "mixed",
                help: "which questions to draw (mixed spreads evenly)", isBare: true),
            .list("packs", note: "all built-in packs", help: "where questions come from", bareWord: "PACK,PACK…"),
            .number(
                "questionSeconds", 1...3600, default: 60, help: "buzz clock", houseRule: "--question-seconds"),
            .number(
                "afterBuzzSeconds", 1...3600, default: 20, help: "buzz clock left after the first buzz, at most",
                houseRule: "--after-buzz-seconds"),
            .number(
                "answerSeconds", 1...3600, default: 60, help: "answer clock of the team on turn",
                houseRule: "--answer-seconds"),
            .number(
                "revealSeconds", 0...3600, default: 5, help: "pause after a question; 0 waits for next",
                houseRule: "--reveal-seconds"),
            .flag(
                "strict", help: "no forgiveness for small spelling mistakes", houseRule: "--strict",
                switchWords: ["strict", "--strict"]),
            .choice(
                "judge", ["auto", "manual"], default: "auto",
                help: "auto: the host judges answers; manual: every answer waits for your accept/reject",
                houseRule: "--judge"),
            .flag("judgeByHand", help: "judge's first spelling: on is judge=manual"),
        ],
        example: "start shaky 10 mixed science,animals answer-seconds=30")

    /// One team's line on a scoreboard; equal scores share a rank (1, 1, 3).
    public struct Standing: Codable, Sendable, Equatable {
        /// The team.
        public var team: String
        /// Its points.
        public var score: Int
        /// Its competition rank.
        public var rank: Int
        /// How many questions it answered correctly.
        public var correct: Int

        /// Creates a standing.
        public init(team: String, score: Int, rank: Int, correct: Int) {
            self.team = team
            self.score = score
            self.rank = rank
            self.correct = correct
        }

        /// `#1 Red 300 · #2 Blue 0`, with `unit` after each score.
        public static func summary(_ standings: [Standing], unit: String = "") -> String {
            standings.map { "#\($0.rank) \($0.team) \($0.score)\(unit)" }.joined(separator: " · ")
        }
    }

    /// A game of Shaky Words started.
    public struct Intro: GameIntro {
        public static let type = "game"
        public static let gameName = ShakyWire.name
        /// Always `shaky`.
        public var game = ShakyWire.name
        /// The teams playing.
        public var teams: [String]
        /// How many questions.
        public var questions: Int

        /// Creates the intro.
        public init(teams: [String], questions: Int) {
            self.teams = teams
            self.questions = questions
        }

        public func line(for reader: Perspective) -> String? {
            "=== Shaky Words! \(Wording.count(questions, "question")). Teams: \(teams.joined(separator: ", ")) ==="
        }
    }

    /// A question opened (each team gets its own letters).
    public struct Question: HostMessage {
        public static let type = "question"
        /// 1-based number.
        public var number: Int
        /// How many questions the game has.
        public var of: Int
        /// The question.
        public var text: String
        /// The answer's letters scrambled (spaces and punctuation in place), for the reader's team.
        public var letters: String
        /// Letters already in place from the team's shakes, from the left.
        public var fixed: Int
        /// `easy`, `medium` or `hard`.
        public var difficulty: String
        /// The points on offer for the reader's team.
        public var points: Int
        /// The buzz clock's time left when sent; null when it does not run.
        @Nullable public var remainingMs: Int64?
        /// The buzz clock's end, host ms; null when it does not run.
        @Nullable public var deadline: Int64?
        /// The points the reader's team's next shake would cost (absent for boards and operators).
        public var shakeCost: Int?

        /// Creates a question message.
        public init(
            number: Int, of: Int, text: String, letters: String, fixed: Int, difficulty: String, points: Int,
            remainingMs: Int64?, deadline: Int64?, shakeCost: Int? = nil
        ) {
            self.number = number
            self.of = of
            self.text = text
            self.letters = letters
            self.fixed = fixed
            self.difficulty = difficulty
            self.points = points
            self.remainingMs = remainingMs
            self.deadline = deadline
            self.shakeCost = shakeCost
        }

        public func line(for reader: Perspective) -> String? {
            "Question \(number)/\(of) (\(difficulty), \(points) points): \(text)  Letters: "
                + ShakyWire.markedLetters(letters, fixed: fixed) + "  · buzz clock \(Wording.seconds(remainingMs))"
        }
    }

    /// One entry of the buzz order.
    public struct BuzzEntry: ListItem {
        /// The team.
        public var team: String
        /// Press time relative to the first entry, ms.
        public var offsetMs: Int64
        /// ± ms on the press time.
        public var uncertaintyMs: Int64
        /// Part of a tie group broken by a draw.
        public var tie: Bool
        /// In a `buzzedUpdate` only, where the entry goes when not at the end (PROTOCOL.md §6.0).
        public var at: Int?

        /// Creates an entry.
        public init(team: String, offsetMs: Int64, uncertaintyMs: Int64, tie: Bool, at: Int? = nil) {
            self.team = team
            self.offsetMs = offsetMs
            self.uncertaintyMs = uncertaintyMs
            self.tie = tie
            self.at = at
        }

        /// A team buzzes once per question.
        public var key: String { team }

        /// `Blue +37 ms ±4`, `Red +0 ms (tie)`.
        public var summary: String {
            "\(team) +\(offsetMs) ms" + (uncertaintyMs > 0 && offsetMs > 0 ? " ±\(uncertaintyMs)" : "")
                + (tie ? " (tie)" : "")
        }
    }

    /// A buzz was accepted: the queue in fair order.
    public struct Buzzed: HostMessage {
        public static let type = "buzzed"
        /// Team names in order: done, on turn, waiting.
        public var order: [String]
        /// The same teams with their press offsets.
        public var entries: [BuzzEntry]
        /// The buzz clock's time left; null when it no longer runs.
        @Nullable public var remainingMs: Int64?
        /// The buzz clock's end, host ms; null when it no longer runs.
        @Nullable public var deadline: Int64?
        /// The version of this order, which the `buzzedUpdate`s that follow continue (PROTOCOL.md §6.0).
        public var seq: Int?

        /// Creates the message from the queue's entries.
        public init(entries: [BuzzEntry], remainingMs: Int64?, deadline: Int64?, seq: Int? = nil) {
            order = entries.map(\.team)
            self.entries = entries
            self.remainingMs = remainingMs
            self.deadline = deadline
            self.seq = seq
        }

        public func line(for reader: Perspective) -> String? {
            let shown =
                entries.isEmpty ? order.joined(separator: ", ") : entries.map(\.summary).joined(separator: " · ")
            return "Buzz order: \(shown) · buzz clock \(Wording.seconds(remainingMs))"
        }
    }

    /// What changed in the buzz order since the last `buzzed` or `buzzedUpdate` (PROTOCOL.md §6.0, §6.2).
    public struct BuzzedUpdate: StateDelta {
        public static let type = "buzzedUpdate"
        public static let stateType = Buzzed.type
        /// The order's version after this change.
        public var seq: Int?
        /// Entries in the order now.
        public var count: Int
        /// New entries and entries that changed (a tie found, a place taken by an earlier press).
        public var entries: [BuzzEntry]
        /// The buzz clock's time left; null when it no longer runs.
        @Nullable public var remainingMs: Int64?
        /// The buzz clock's end, host ms; null when it no longer runs.
        @Nullable public var deadline: Int64?

        /// Creates the delta.
        public init(seq: Int, count: Int, entries: [BuzzEntry], remainingMs: Int64?, deadline: Int64?) {
            self.seq = seq
            self.count = count
            self.entries = entries
            self.remainingMs = remainingMs
            self.deadline = deadline
        }

        public var changed: [BuzzEntry] { entries }
        /// Teams never leave the order of a question.
        public var removed: [String] { [] }

        /// `Buzzed: Blue +37 ms ±4 · Green +40 ms (tie) · 5 in the queue · buzz clock 18 s`.
        public func line(for reader: Perspective) -> String? {
            guard !entries.isEmpty else { return nil }
            return "Buzzed: " + entries.map(\.summary).joined(separator: " · ") + " · \(count) in the queue"
                + " · buzz clock \(Wording.seconds(remainingMs))"
        }
    }

    /// A team is on turn to answer.
    public struct Turn: HostMessage {
        public static let type = "turn"
        /// The team.
        public var team: String
        /// The answer clock's time left, ms.
        public var remainingMs: Int64
        /// The answer clock's end, host ms.
        public var deadline: Int64

        /// Creates the message.
        public init(team: String, remainingMs: Int64, deadline: Int64) {
            self.team = team
            self.remainingMs = remainingMs
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            if reader.isMine(team: team) {
                return ">>> Your turn, team \(team)! Type your answer (\(Wording.seconds(remainingMs))); every line is"
                    + " your answer now, commands start with / (/s shakes, /help, /quit)."
            }
            return "Team \(team) is answering (\(Wording.seconds(remainingMs)))."
        }
    }

    /// The team shook: one more letter in place (to that team only).
    public struct Hint: HostMessage {
        public static let type = "hint"
        /// The team's letters now.
        public var letters: String
        /// Letter positions now correct, from the left.
        public var fixed: Int
        /// The points now on offer for the team.
        public var points: Int
        /// The points the team's next shake would cost.
        public var shakeCost: Int?

        /// Creates the message.
        public init(letters: String, fixed: Int, points: Int, shakeCost: Int? = nil) {
            self.letters = letters
            self.fixed = fixed
            self.points = points
            self.shakeCost = shakeCost
        }

        public func line(for reader: Perspective) -> String? {
            "Hint: \(ShakyWire.markedLetters(letters, fixed: fixed)) (\(fixed) in place, now worth \(points) points)"
        }
    }

    /// How a team's turn ended.
    public struct Result: HostMessage {
        public static let type = "result"
        /// The team.
        public var team: String
        /// Whether it was right.
        public var correct: Bool
        /// Points won (0 when wrong).
        public var points: Int
        /// Whether the answer clock ran out.
        public var timedOut: Bool
        /// `true` only when a small misspelling was forgiven (the spelling follows in `reveal`).
        public var misspelled: Bool?
        /// `true` only when the quizmaster gave this verdict (judging by hand, or accepting an answer the judge
        /// refused: it then replaces the team's earlier `result` on this question).
        public var byQuizmaster: Bool?

        /// Creates the message.
        public init(
            team: String, correct: Bool, points: Int, timedOut: Bool, misspelled: Bool, byQuizmaster: Bool = false
        ) {
            self.team = team
            self.correct = correct
            self.points = points
            self.timedOut = timedOut
            self.misspelled = misspelled ? true : nil
            self.byQuizmaster = byQuizmaster ? true : nil
        }

        public func line(for reader: Perspective) -> String? {
            if correct {
                let spelling = misspelled == true ? " (small misspelling forgiven)" : ""
                let verdict = byQuizmaster == true ? " (the quizmaster's verdict)" : ""
                return "✔ \(team) is right\(spelling)\(verdict)! +\(points)"
            }
            return "✘ \(team): " + (timedOut ? "time is up." : "wrong.")
        }
    }

    /// The question is over: the answer and the standings.
    public struct Reveal: HostMessage {
        public static let type = "reveal"
        /// The question's number.
        public var number: Int
        /// The right answer.
        public var answer: String
        /// The team that scored, or null.
        @Nullable public var scorer: String?
        /// The points the scorer won.
        public var points: Int
        /// The standings after this question.
        public var scores: [Standing]
        /// Until the next question or the final scoreboard; null when the operator decides.
        @Nullable public var nextInMs: Int64?
        /// Whether this was the last question.
        public var last: Bool
        /// When the next question or the final scoreboard comes (host ms); null when the operator decides.
        @Nullable public var deadline: Int64?

        /// Creates the message.
        public init(
            number: Int, answer: String, scorer: String?, points: Int, scores: [Standing], nextInMs: Int64?,
            last: Bool, deadline: Int64?
        ) {
            self.number = number
            self.answer = answer
            self.scorer = scorer
            self.points = points
            self.scores = scores
            self.nextInMs = nextInMs
            self.last = last
            self.deadline = deadline
        }

        public func line(for reader: Perspective) -> String? {
            let next: String
            if let nextInMs {
                next = " " + (last ? "Final scores in" : "Next question in") + " \(Wording.seconds(nextInMs))."
            } else {
                next =
                    last
                    ? " The quizmaster will show the final scores." : " Waiting for the quizmaster's next question…"
            }
            return "The answer was: \(answer). Scores: \(Standing.summary(scores)).\(next)"
        }
    }

    /// The game is over: the final ranking.
    public struct Scoreboard: HostMessage {
        public static let type = "scoreboard"
        /// Always true.
        public var final = true
        /// The ranking, best first.
        public var ranking: [Standing]
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the message.
        public init(ranking: [Standing]) { self.ranking = ranking }

        public func line(for reader: Perspective) -> String? {
            "=== Final scoreboard: " + Standing.summary(ranking, unit: " points")
                + Wording.moreTeams(shown: ranking.count, total: total) + " ==="
        }
    }

    /// The standings, on request.
    public struct Scores: HostMessage {
        public static let type = "scores"
        /// Whether the game is over.
        public var final: Bool
        /// The standings, best first.
        public var ranking: [Standing]
        /// How many teams the whole table has: only in a hall's copy for a player, which lists fewer (their own
        /// team's row and the top rows, PROTOCOL.md §6.0.1); absent when every row is there.
        public var total: Int? = nil

        /// Creates the message.
        public init(final: Bool, ranking: [Standing]) {
            self.final = final
            self.ranking = ranking
        }

        public func line(for reader: Perspective) -> String? {
            "Scores: " + (ranking.isEmpty ? "none yet" : Standing.summary(ranking))
                + Wording.moreTeams(shown: ranking.count, total: total)
        }
    }

    /// The clocks run again.
    public struct Resumed: HostMessage {
        public static let type = "resumed"
        /// The buzz clock's time left, if it runs.
        @Nullable public var buzzRemainingMs: Int64?
        /// The answer clock's time left, if a team is on turn.
        @Nullable public var answerRemainingMs: Int64?
        /// Until the next question, during a reveal.
        @Nullable public var nextInMs: Int64?

        /// Creates the message.
        public init(buzzRemainingMs: Int64?, answerRemainingMs: Int64?, nextInMs: Int64?) {
            self.buzzRemainingMs = buzzRemainingMs
            self.answerRemainingMs = answerRemainingMs
            self.nextInMs = nextInMs
        }

        public func line(for reader: Perspective) -> String? { "The game continues." }
    }

    /// A team's answer waits for the quizmaster's verdict (judging by hand).
    public struct Judging: HostMessage {
        public static let type = "judging"
        /// The team whose answer waits.
        public var team: String

        /// Creates the message.
        public init(team: String) { self.team = team }

        public func line(for reader: Perspective) -> String? {
            "\(team) answered; waiting for the quizmaster's verdict."
        }
    }

    /// The quizmaster overruled a verdict after the question: the points changed and the standings now.
    public struct Overruled: HostMessage {
        public static let type = "overruled"
        /// The team.
        public var team: String
        /// The verdict now.
        public var correct: Bool
        /// Points added (or, when negative, taken back).
        public var points: Int
        /// The standings now.
        public var scores: [Standing]
        /// The question whose answer it was (absent from older hosts: the one just revealed).
        public var question: Int?

        /// Creates the message.
        public init(team: String, correct: Bool, points: Int, scores: [Standing], question: Int? = nil) {
            self.team = team
            self.correct = correct
            self.points = points
            self.scores = scores
            self.question = question
        }

        public func line(for reader: Perspective) -> String? { "The quizmaster counts " + verdict }

        /// The verdict told to the quizmaster who gave it: "You counted Red's answer … as right (+100). Scores: …".
        public var quizmastersLine: String { "You counted " + verdict }

        private var verdict: String {
            let change = points >= 0 ? "+\(points)" : "\(points)"
            let which = question.map { " to question \($0)" } ?? ""
            return "\(team)'s answer\(which) as \(correct ? "right" : "wrong") (\(change)). "
                + "Scores: \(Standing.summary(scores))."
        }
    }

    /// `letters` spaced out with the first `fixed` letters (those in place) in brackets, readable without colour:
    /// `[E] [L] P H A N T E`.
    public static func markedLetters(_ letters: String, fixed: Int) -> String {
        var seen = 0
        return letters.map { character -> String in
            guard character.isLetter || character.isNumber else { return character == " " ? " " : String(character) }
            seen += 1
            return seen <= fixed ? "[\(character)]" : String(character)
        }.joined(separator: " ")
    }

    /// Everything the host sends during Shaky Words.
    public enum Message: DecodedFamily {
        case intro(Intro)
        case question(Question)
        case buzzed(Buzzed)
        case buzzedUpdate(BuzzedUpdate)
        case turn(Turn)
        case hint(Hint)
        case result(Result)
        case reveal(Reveal)
        case scoreboard(Scoreboard)
        case scores(Scores)
        case resumed(Resumed)
        case judging(Judging)
        case overruled(Overruled)

        /// The family's table: one entry per message type.
        public static let decoder = FamilyDecoder<Message>([
            member(Judging.self, Message.judging), member(Overruled.self, Message.overruled),
            member(Intro.self, Message.intro), member(Question.self, Message.question),
            member(Buzzed.self, Message.buzzed), member(BuzzedUpdate.self, Message.buzzedUpdate),
            member(Turn.self, Message.turn), member(Hint.self, Message.hint),
            member(Result.self, Message.result), member(Reveal.self, Message.reveal),
            member(Scoreboard.self, Message.scoreboard), member(Scores.self, Message.scores),
            member(Resumed.self, Message.resumed),
        ])

        public var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .question(let message): message
            case .buzzed(let message): message
            case .buzzedUpdate(let message): message
            case .turn(let message): message
            case .hint(let message): message
            case .result(let message): message
            case .reveal(let message): message
            case .scoreboard(let message): message
            case .scores(let message): message
            case .resumed(let message): message
            case .judging(let message): message
            case .overruled(let message): message
            }
        }
    }

    /// What the quizmaster may ask of Shaky Words: a verdict on a team's answer.
    public enum Command: GameAction {
        /// Counts `team`'s answer (waiting for a verdict, or already judged on this question) as right or wrong.
        case judge(team: String, correct: Bool)

        public static let types = ["judge"]

        private enum Field: String { case team, verdict }

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Command {
            let fields = MessageFields(request)
            guard request.type == "judge" else {
                throw fields.error(.unknownType, "Shaky Words takes no \"\(request.type)\" from the operator.")
            }
            let team = try fields.requiredString(Field.team.rawValue, limit: FieldLimits.name)
            switch try fields.requiredString(Field.verdict.rawValue, limit: 16) {
            case "accept", "right": return .judge(team: team, correct: true)
            case "reject", "wrong": return .judge(team: team, correct: false)
            case let other: throw fields.error(.badField, "\"verdict\" must be accept or reject, not \"\(other)\".")
            }
        }

        public var request: PlayRequest {
            guard case .judge(let team, let correct) = self else { return PlayRequest(type: "judge") }
            return PlayRequest(
                type: "judge",
                fields: [
                    Field.team.rawValue: .string(team), Field.verdict.rawValue: .string(correct ? "accept" : "reject"),
                ])
        }

        public var pressedAt: Int64? { nil }

        public static func parse(text line: String) -> TextAction<Command>? {
            let (verb, rest) = splitCommand(line)
            guard verb == "accept" || verb == "reject" else { return nil }
            guard !rest.isEmpty else { return .usage("\(verb) TEAM   e.g. \(verb) Red") }
            return .action(.judge(team: rest, correct: verb == "accept"))
        }

        public static let textHelp = [
            "accept TEAM · reject TEAM       overrule the judge, or give the verdict (--judge manual)"
        ]
    }

    /// What a team does in Shaky Words.
    public enum Action: GameAction {
        /// Claims the right to answer; `pressedAt` is the client's clock at the key press, when it knows it.
        case buzz(pressedAt: Int64?)
        /// The team on turn answers.
        case answer(String)
        /// One more letter in place, for a cost.
        case shake

        public static let types = ["buzz", "answer", "shake"]

        public static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            let fields = MessageFields(request)
            switch request.type {
            case "buzz": return .buzz(pressedAt: try fields.integer("t"))
            case "answer": return .answer(try fields.requiredString("text"))
            case "shake": return .shake
            default: throw fields.error(.unknownType, "Shaky Words has no \"\(request.type)\".")
            }
        }

        public var request: PlayRequest {
            switch self {
            case .buzz(let pressedAt):
                return PlayRequest(type: "buzz", fields: pressedAt.map { ["t": .int($0)] } ?? JSONObject())
            case .answer(let text): return PlayRequest(type: "answer", fields: ["text": .string(text)])
            case .shake: return PlayRequest(type: "shake")
            }
        }

        public var pressedAt: Int64? {
            if case .buzz(let stamp) = self { return stamp }
            return nil
        }

        public static func parse(text line: String) -> TextAction<Action>? {
            let (verb, rest) = splitCommand(line)
            switch verb {
            case "b", "buzz", "!": return rest.isEmpty ? .action(.buzz(pressedAt: nil)) : nil
            case "a", "answer":
                return rest.isEmpty
                    ? .usage("answer YOUR ANSWER   (or just type it when it is your turn)") : .action(.answer(rest))
            case "s", "shake": return rest.isEmpty ? .action(.shake) : nil
            default: return nil
            }
        }

        public static let textHelp = [
            "  b or buzz        claim the right to answer",
            "  a TEXT           answer (or just type your answer when it is your turn)",
            "  s or shake       a hint: one more letter in place, costs points",
        ]
    }
}

extension ShakyWire.Buzzed: GrowingState {
    public var items: [ShakyWire.BuzzEntry] { entries }

    public func delta(seq: Int, changed: [ShakyWire.BuzzEntry], removed: [String]) -> ShakyWire.BuzzedUpdate {
        ShakyWire.BuzzedUpdate(
            seq: seq, count: entries.count, entries: changed, remainingMs: remainingMs, deadline: deadline)
    }

    public func updated(items: [ShakyWire.BuzzEntry], by delta: ShakyWire.BuzzedUpdate) -> ShakyWire.Buzzed {
        ShakyWire.Buzzed(entries: items, remainingMs: delta.remainingMs, deadline: delta.deadline, seq: seq)
    }
}
