import Foundation
import Testing

@testable import Rules

// MARK: - Helpers

private typealias Game = ShakyWords
private typealias Effect = ShakyWords.Effect

/// `seconds` on the game clock.
private func s(_ seconds: Double) -> Instant { Instant(milliseconds: Int64((seconds * 1000).rounded())) }

private let paris = QuizQuestion(difficulty: .easy, text: "Capital of France?", answer: "Paris")
private let picard = QuizQuestion(difficulty: .medium, text: "Captain of the Enterprise-D?", answer: "Jean-Luc Picard")
private let jupiter = QuizQuestion(difficulty: .hard, text: "Largest planet?", answer: "Jupiter")

private func makeGame(
    teams: [String] = ["Red", "Blue", "Green"], questions: [QuizQuestion] = [paris, picard, jupiter],
    settings: ShakySettings = ShakySettings(), seed: UInt64 = 42
) throws(RuleError) -> Game {
    try Game(teams: teams, questions: questions, settings: settings, seed: seed)
}

/// A game already on question 1, opened at 0 s.
private func startedGame(
    teams: [String] = ["Red", "Blue", "Green"], questions: [QuizQuestion] = [paris, picard, jupiter],
    settings: ShakySettings = ShakySettings(), seed: UInt64 = 42
) throws(RuleError) -> Game {
    var game = try makeGame(teams: teams, questions: questions, settings: settings, seed: seed)
    _ = try game.apply(.start, at: s(0))
    return game
}

private func press(_ team: String, at seconds: Double, uncertainty: Int64 = 0, settle: Int64 = 0) -> Game.Event {
    .buzz(team: team, pressedAt: s(seconds), uncertaintyMs: uncertainty, settleMs: settle)
}

/// Applies `event`, expecting a refusal that leaves the game untouched; returns the refusal's code.
private func refusal(_ game: inout Game, _ event: Game.Event, at now: Instant) -> String? {
    refusalError(&game, event, at: now)?.code.rawValue
}

/// Applies `event`, expecting a refusal that leaves the game untouched; returns the refusal.
private func refusalError(_ game: inout Game, _ event: Game.Event, at now: Instant) -> RuleError? {
    let before = game
    do {
        _ = try game.apply(event, at: now)
        Issue.record("\(event) at \(now) was accepted")
        return nil
    } catch {
        #expect(game == before)
        return error
    }
}

extension ShakyWords.Effect {
    fileprivate var opened: ShakyWords.QuestionOpened? { if case .question(let value) = self { value } else { nil } }
    fileprivate var buzzUpdate: ShakyWords.BuzzUpdate? { if case .buzzed(let value) = self { value } else { nil } }
    fileprivate var revealed: ShakyWords.Reveal? { if case .reveal(let value) = self { value } else { nil } }
    fileprivate var finalBoard: [ShakyWords.Standing]? { if case .scoreboard(let value) = self { value } else { nil } }
    fileprivate var turnTeam: String? { if case .turn(let team, _) = self { team } else { nil } }
    fileprivate var turnDeadline: Instant? { if case .turn(_, let deadline) = self { deadline } else { nil } }
}

private func sortedLetters(_ text: String) -> [Character] { text.filter(LetterScrambler.isScrambled).sorted() }
private func skeleton(_ text: String) -> [Character?] { text.map { LetterScrambler.isScrambled($0) ? nil : $0 } }

// MARK: - Setup

@Suite struct ShakySetupTests {
    @Test func initRefusesBadSetups() {
        #expect(throws: RuleError.self) { try makeGame(teams: []) }
        #expect(throws: RuleError.self) { try makeGame(questions: []) }
        func code(_ make: () throws(RuleError) -> Game) -> String? {
            do {
                _ = try make()
                return nil
            } catch { return error.code.rawValue }
        }
        #expect(code { () throws(RuleError) in try makeGame(teams: []) } == "no_teams")
        #expect(code { () throws(RuleError) in try makeGame(questions: []) } == "no_questions")
        #expect(code { () throws(RuleError) in try makeGame(teams: ["Red", "red"]) } == "duplicate_team")
        #expect(code { () throws(RuleError) in try makeGame(teams: ["Red", " !"]) } == "invalid_team_name")
        #expect(
            code { () throws(RuleError) in try makeGame(settings: ShakySettings(answerSeconds: 0)) }
                == "invalid_settings")
        #expect(
            code { () throws(RuleError) in try makeGame(settings: ShakySettings(shakeCostPercent: 101)) }
                == "invalid_settings")
        #expect(code { () throws(RuleError) in try makeGame() } == nil)
    }

    @Test func settingsAreValidAtTheEndsOfTheirRangesAndRefusedOnePast() {
        typealias Field = WritableKeyPath<ShakySettings, Int>
        let ranges: [(Field, ClosedRange<Int>)] = [
            (\.questionSeconds, ShakySettings.questionSecondsRange),
            (\.afterBuzzSeconds, ShakySettings.afterBuzzSecondsRange),
            (\.answerSeconds, ShakySettings.answerSecondsRange),
            (\.shakeCostPercent, ShakySettings.shakeCostPercentRange),
        ]
        func error(_ change: (inout ShakySettings) -> Void) -> RuleError? {
            var settings = ShakySettings()
            change(&settings)
            do {
                try settings.validate()
                return nil
            } catch { return error }
        }
        for (field, range) in ranges {
            #expect(error { $0[keyPath: field] = range.lowerBound } == nil, "\(field) \(range.lowerBound)")
            #expect(error { $0[keyPath: field] = range.upperBound } == nil, "\(field) \(range.upperBound)")
            #expect(error { $0[keyPath: field] = range.lowerBound - 1 }?.code == .invalidSettings, "\(field)")
            #expect(error { $0[keyPath: field] = range.upperBound + 1 }?.code == .invalidSettings, "\(field)")
        }
        let reveal = ShakySettings.revealSecondsRange
        #expect(error { $0.revealSeconds = reveal.lowerBound } == nil)
        #expect(error { $0.revealSeconds = reveal.upperBound } == nil)
        #expect(error { $0.revealSeconds = reveal.upperBound + 1 }?.code == .invalidSettings)
        #expect(error { $0.revealSeconds = reveal.lowerBound - 1 }?.code == .invalidSettings)
        #expect(error { $0.questionSeconds = 3601 }?.message == "The buzz clock must be 1 to 3600 seconds, not 3601.")
    }

    @Test func settingsDefaultsAndLenientDecoding() throws {
        let defaults = ShakySettings()
        #expect(defaults.questionSeconds == 60 && defaults.afterBuzzSeconds == 20 && defaults.answerSeconds == 60)
        #expect(defaults.revealSeconds == 5 && defaults.isForgiving && defaults.shakeCostPercent == 25)
        #expect(defaults.basePoints.points(for: .easy) == 100)
        #expect(defaults.basePoints.points(for: .medium) == 200)
        #expect(defaults.basePoints.points(for: .hard) == 300)

        let partial = try JSONDecoder().decode(ShakySettings.self, from: Data(#"{"answerSeconds": 30}"#.utf8))
        #expect(partial == ShakySettings(answerSeconds: 30))
        let waiting = try JSONDecoder().decode(ShakySettings.self, from: Data(#"{"revealSeconds": null}"#.utf8))
        #expect(waiting.revealSeconds == nil)
        let custom = ShakySettings(
            questionSeconds: 45, revealSeconds: nil, isForgiving: false,
            basePoints: .init(easy: 1, medium: 2, hard: 3), shakeCostPercent: 10)
        #expect(try JSONDecoder().decode(ShakySettings.self, from: JSONEncoder().encode(custom)) == custom)
    }

    @Test func eventsBeforeTheStartAreRefused() throws {
        var game = try makeGame()
        #expect(game.phase == .notStarted)
        #expect(game.nextDeadline == nil)
        #expect(game.questionNumber == nil)
        #expect(refusal(&game, press("Red", at: 1), at: s(1)) == "not_started")
        #expect(refusal(&game, .answer(team: "Red", text: "Paris"), at: s(1)) == "not_started")
        #expect(refusal(&game, .shake(team: "Red"), at: s(1)) == "not_started")
        #expect(refusal(&game, .next, at: s(1)) == "not_started")
        #expect(refusal(&game, .pause, at: s(1)) == "not_started")
        #expect(try game.apply(.tick, at: s(1)).isEmpty)
    }

    @Test func startOpensQuestionOneWithEachTeamsOwnScramble() throws {
        var game = try makeGame(questions: [picard, paris])
        let effects = try game.apply(.start, at: s(2))
        #expect(effects.count == 1)
        let opened = try #require(effects.first?.opened)
        #expect(opened.number == 1 && opened.total == 2)
        #expect(opened.text == picard.text && opened.difficulty == .medium && opened.pointsOnOffer == 200)
        #expect(opened.buzzDeadline == s(62))
        #expect(Set(opened.letters.keys) == ["Red", "Blue", "Green"])
        for letters in opened.letters.values {
            #expect(letters.text != "JEAN-LUC PICARD")
            #expect(skeleton(letters.text) == skeleton("JEAN-LUC PICARD"))
            #expect(sortedLetters(letters.text) == sortedLetters("JEAN-LUC PICARD"))
            #expect(letters.fixedCount == 0 && letters.letterCount == 13)
        }
        #expect(Set(opened.letters.values.map(\.text)).count > 1)
        #expect(game.phase == .question)
        #expect(game.questionNumber == 1 && game.questionCount == 2)
        #expect(game.questionText == picard.text && game.questionDifficulty == .medium)
        #expect(game.letters(for: "Blue") == opened.letters["Blue"])
        #expect(game.pointsOnOffer(for: "Blue") == 200)
        #expect(game.buzzDeadline == s(62) && game.nextDeadline == s(62))
        #expect(game.revealedAnswer == nil && game.teamOnTurn == nil && game.answerDeadline == nil)
        #expect(refusal(&game, .start, at: s(3)) == "already_started")
    }

    @Test func addedTeamsJoinTheOpenQuestionAtOnce() throws {
        var game = try startedGame(teams: ["Red"], settings: ShakySettings(revealSeconds: 0))
        let effects = try game.apply(.addTeam("Blue"), at: s(1))
        guard case .teamJoined("Blue", let letters?) = try #require(effects.first) else {
            Issue.record("expected letters for the open question, got \(effects)")
            return
        }
        #expect(sortedLetters(letters.text) == sortedLetters("PARIS"))
        #expect(game.letters(for: "Blue") == letters)
        #expect(game.teams == ["Red", "Blue"] && game.scores["Blue"] == 0)
        #expect(refusal(&game, .addTeam("BLUE"), at: s(2)) == "duplicate_team")
        #expect(try game.apply(press("Blue", at: 3), at: s(3)).contains(.turn(team: "Blue", deadline: s(63))))
        _ = try game.apply(.next, at: s(4))
        #expect(try game.apply(.addTeam("Gold"), at: s(5)) == [.teamJoined(team: "Gold", letters: nil)])
        let next = try #require(try game.apply(.next, at: s(6)).first?.opened)
        #expect(Set(next.letters.keys) == ["Red", "Blue", "Gold"])
    }
}

// MARK: - Scrambling

@Suite struct ShakyScrambleTests {
    @Test func scrambleKeepsSpacesAndPunctuationAndPermutesLetters() {
        for seed in UInt64(0)..<200 {
            var rng = SplitMix64(seed: seed)
            let letters = LetterScrambler.scramble("  Jean-Luc Picard, Jr. ", fixing: 0, using: &rng)
            #expect(skeleton(letters.text) == skeleton("JEAN-LUC PICARD, JR."))
            #expect(sortedLetters(letters.text) == sortedLetters("JEANLUCPICARDJR"))
            #expect(letters.text != "JEAN-LUC PICARD, JR.")
            #expect(letters.letterCount == 15)
        }
    }

    @Test func scrambleDiffersWhenPossibleEvenForTwoLetters() {
        for seed in UInt64(0)..<50 {
            var rng = SplitMix64(seed: seed)
            #expect(LetterScrambler.scramble("ab", fixing: 0, using: &rng).text == "BA")
            #expect(LetterScrambler.scramble("Aa a", fixing: 0, using: &rng).text == "AA A")
        }
    }

    @Test func fixedLettersStayInPlace() {
        for seed in UInt64(0)..<100 {
            var rng = SplitMix64(seed: seed)
            let letters = LetterScrambler.scramble("Jean-Luc", fixing: 5, using: &rng)
            #expect(letters.text.hasPrefix("JEAN-L"))
            #expect(letters.text != "JEAN-LUC")
            #expect(letters.fixedCount == 5)
        }
    }

    @Test func digitsScrambleAndAccentedLettersStayWhole() {
        var rng = SplitMix64(seed: 3)
        let numbers = LetterScrambler.scramble("1984", fixing: 0, using: &rng)
        #expect(sortedLetters(numbers.text) == sortedLetters("1984") && numbers.text != "1984")
        let accents = LetterScrambler.scramble("Café", fixing: 0, using: &rng)
        #expect(sortedLetters(accents.text) == sortedLetters("CAFÉ") && accents.letterCount == 4)
    }
}

// MARK: - Buzzing

@Suite struct ShakyBuzzTests {
    @Test func firstBuzzCutsTheClockTo20Seconds() throws {
        var game = try startedGame(settings: ShakySettings(revealSeconds: 0))
        let effects = try game.apply(press("Red", at: 9.9), at: s(10))
        let update = try #require(effects.first?.buzzUpdate)
        #expect(update.team == "Red" && update.buzzDeadline == s(30))
        #expect(update.entries.map(\.team) == ["Red"])
        #expect(game.buzzDeadline == s(30))
        #expect(effects.last == .turn(team: "Red", deadline: s(70)))
    }

    @Test func firstBuzzDoesNotExtendAClockWithLessThan20SecondsLeft() throws {
        var game = try startedGame()
        let effects = try game.apply(press("Red", at: 45), at: s(45))
        #expect(effects.first?.buzzUpdate?.buzzDeadline == s(60))
        #expect(game.buzzDeadline == s(60))
    }

    @Test func buzzRefusals() throws {
        var game = try startedGame()
        #expect(refusal(&game, press("Gold", at: 1), at: s(1)) == "unknown_team")
        _ = try game.apply(press("Red", at: 1), at: s(1))
        #expect(refusal(&game, press("Red", at: 2), at: s(2)) == "already_buzzed")
        // The buzz clock (cut to 21 s) ran out before the host's tick: the buzz is still too late.
        #expect(refusal(&game, press("Blue", at: 21), at: s(21)) == "buzz_closed")
        _ = try game.apply(.tick, at: s(21))
        #expect(!game.isBuzzOpen && game.buzzDeadline == nil)
        #expect(refusal(&game, press("Blue", at: 22), at: s(22)) == "buzz_closed")
        _ = try game.apply(.answer(team: "Red", text: "Paris"), at: s(23))
        #expect(game.phase == .reveal)
        #expect(refusal(&game, press("Blue", at: 24), at: s(24)) == "buzz_closed")
    }

    @Test func queueFollowsPressesAndOvertakesWithinTheSettleWindow() throws {
        var game = try startedGame()
        let first = try game.apply(press("Red", at: 9.95, settle: 150), at: s(10))
        #expect(first.isEmpty)  // the order stays private while the head settles
        #expect(game.nextDeadline == s(10.15))
        #expect(game.teamOnTurn == nil)
        let second = try game.apply(press("Blue", at: 9.9, settle: 150), at: s(10.1))
        #expect(second.isEmpty)
        #expect(game.queueEntries.map(\.team) == ["Blue", "Red"])
        #expect(game.nextDeadline == s(10.15))
        let commit = try game.apply(.tick, at: s(10.15))
        #expect(commit.first?.buzzUpdate?.entries.map(\.team) == ["Blue", "Red"])
        #expect(commit.first?.buzzUpdate?.entries.map(\.offsetMs) == [0, 50])
        #expect(commit.dropFirst() == [.turn(team: "Blue", deadline: s(70.15))])
        // Green pressed earliest but arrived after the commit: it may pass Red, never Blue.
        let late = try game.apply(press("Green", at: 9.8), at: s(10.2))
        #expect(late.first?.buzzUpdate?.entries.map(\.team) == ["Blue", "Green", "Red"])
        #expect(game.teamOnTurn == "Blue" && game.answerDeadline == s(70.15))
        #expect(game.queueEntries.map(\.team) == ["Blue", "Green", "Red"])
        #expect(game.hasBuzzed("Green"))
    }

    @Test func tiesAreMarkedAndDrawnFromTheSeed() throws {
        func order(seed: UInt64) throws -> (teams: [String], tied: [Bool]) {
            var game = try startedGame(seed: seed)
            _ = try game.apply(press("Red", at: 10, uncertainty: 30, settle: 100), at: s(10.02))
            _ = try game.apply(press("Blue", at: 10.04, uncertainty: 30, settle: 100), at: s(10.05))
            let effects = try game.apply(.tick, at: s(10.12))  // the settled order is announced at the commit
            let entries = try #require(effects.first?.buzzUpdate?.entries)
            return (entries.map(\.team), entries.map(\.isTied))
        }
        var orders: Set<[String]> = []
        for seed in UInt64(1)...16 {
            let drawn = try order(seed: seed)
            #expect(drawn.tied == [true, true])
            #expect(try order(seed: seed).teams == drawn.teams)  // the same seed draws the same order
            orders.insert(drawn.teams)
        }
        #expect(orders == [["Red", "Blue"], ["Blue", "Red"]])
    }
}

// MARK: - Turns and answers

@Suite struct ShakyTurnTests {
    @Test func wrongAnswerPassesTheTurnAndTheTeamIsOut() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 5), at: s(5))
        _ = try game.apply(press("Blue", at: 6), at: s(6))
        let effects = try game.apply(.answer(team: "Red", text: "Lyon"), at: s(8))
        #expect(
            effects == [
                .result(team: "Red", correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: false),
                .turn(team: "Blue", deadline: s(68)),
            ])
        #expect(game.isOut("Red") && !game.isOut("Blue"))
        #expect(game.teamOnTurn == "Blue")
        #expect(refusal(&game, press("Red", at: 9), at: s(9)) == "already_buzzed")
        let error = refusalError(&game, .answer(team: "Red", text: "Paris"), at: s(9))
        #expect(error == RuleError(.notYourTurn, "Red is out for this question. It is Blue's turn to answer."))
        #expect(refusal(&game, .shake(team: "Red"), at: s(9)) == "team_out")
    }

    @Test func timeoutPassesTheTurn() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 5), at: s(5))
        _ = try game.apply(press("Blue", at: 6), at: s(6))
        #expect(game.nextDeadline == s(25))  // the buzz clock, cut by Red's buzz
        _ = try game.apply(.tick, at: s(25))
        #expect(game.nextDeadline == s(65))
        let effects = try game.apply(.tick, at: s(65))
        #expect(
            effects == [
                .result(team: "Red", correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: true),
                .turn(team: "Blue", deadline: s(125)),
            ])
        #expect(game.answerDeadline == s(125))
    }

    @Test func outOfTurnAnswersAreRefused() throws {
        var game = try startedGame()
        let nobody = refusalError(&game, .answer(team: "Red", text: "Paris"), at: s(1))
        #expect(nobody == RuleError(.notYourTurn, "Nobody is on turn to answer."))
        _ = try game.apply(press("Blue", at: 2), at: s(2))
        let other = refusalError(&game, .answer(team: "Red", text: "Paris"), at: s(3))
        #expect(other == RuleError(.notYourTurn, "It is Blue's turn to answer."))
        #expect(refusal(&game, .answer(team: "Gold", text: "Paris"), at: s(3)) == "unknown_team")
        #expect(refusal(&game, .answer(team: "Blue", text: " ?! "), at: s(3)) == "empty_answer")
    }

    @Test func correctAnswerScoresAndEndsTheQuestion() throws {
        var game = try startedGame()
        _ = try game.apply(press("Blue", at: 2), at: s(2))
        let effects = try game.apply(.answer(team: "Blue", text: "paris"), at: s(4))
        #expect(effects.count == 2)
        #expect(
            effects[0]
                == .result(team: "Blue", correct: true, pointsAwarded: 100, isMisspelling: false, isTimedOut: false))
        let reveal = try #require(effects[1].revealed)
        #expect(
            reveal.number == 1 && reveal.answer == "Paris" && reveal.scorer == "Blue" && reveal.pointsAwarded == 100)
        #expect(reveal.nextQuestionAt == s(9) && !reveal.isLastQuestion)
        #expect(reveal.standings.map(\.team) == ["Blue", "Red", "Green"])
        #expect(reveal.standings.map(\.rank) == [1, 2, 2])
        #expect(game.phase == .reveal && game.revealedAnswer == "Paris")
        #expect(game.scores == ["Red": 0, "Blue": 100, "Green": 0])
        #expect(game.correctCounts["Blue"] == 1)
        #expect(game.teamOnTurn == nil && game.nextDeadline == s(9))
        #expect(refusal(&game, .answer(team: "Blue", text: "paris"), at: s(5)) == "question_closed")
    }

    @Test func misspellingsAreForgivenOnlyWhenForgiving() throws {
        var forgiving = try startedGame()
        _ = try forgiving.apply(press("Red", at: 1), at: s(1))
        let accepted = try forgiving.apply(.answer(team: "Red", text: "Pariz"), at: s(2))
        #expect(
            accepted.first
                == .result(team: "Red", correct: true, pointsAwarded: 100, isMisspelling: true, isTimedOut: false))
        #expect(accepted.last?.revealed?.answer == "Paris")

        var strict = try startedGame(settings: ShakySettings(isForgiving: false))
        _ = try strict.apply(press("Red", at: 1), at: s(1))
        let refused = try strict.apply(.answer(team: "Red", text: "Pariz"), at: s(2))
        #expect(
            refused.first
                == .result(team: "Red", correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: false))
    }

    @Test func questionEndsWhenTheBuzzClockRunsOutWithNobodyQueued() throws {
        var game = try startedGame()
        #expect(try game.apply(.tick, at: s(59.999)).isEmpty)
        let effects = try game.apply(.tick, at: s(60))
        #expect(effects.count == 1)
        let reveal = try #require(effects.first?.revealed)
        #expect(reveal.scorer == nil && reveal.pointsAwarded == 0 && reveal.nextQuestionAt == s(65))
    }

    @Test func buzzClockEndingWhileSomeoneAnswersWaitsForTheQueue() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 50), at: s(50))
        _ = try game.apply(press("Blue", at: 55), at: s(55))
        #expect(try game.apply(.tick, at: s(60)).isEmpty)  // buzzing closes, Red still answers
        #expect(game.phase == .question && !game.isBuzzOpen)
        #expect(refusal(&game, .shake(team: "Green"), at: s(61)) == "buzz_closed")
        let wrong = try game.apply(.answer(team: "Red", text: "Lyon"), at: s(62))
        #expect(wrong.last == .turn(team: "Blue", deadline: s(122)))
        let last = try game.apply(.answer(team: "Blue", text: "Nice"), at: s(63))
        #expect(last.count == 2)
        #expect(
            last.first
                == .result(team: "Blue", correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: false))
        #expect(last.last?.revealed?.scorer == nil)
    }

    @Test func questionEndsWhenEveryTeamIsOutEvenWithTheClockRunning() throws {
        var game = try startedGame(teams: ["Red", "Blue"])
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(.answer(team: "Red", text: "Lyon"), at: s(2))
        #expect(game.phase == .question)
        _ = try game.apply(press("Blue", at: 3), at: s(3))
        let effects = try game.apply(.answer(team: "Blue", text: "Nice"), at: s(4))
        #expect(effects.last?.revealed?.scorer == nil)
        #expect(game.phase == .reveal)
    }

    @Test func lateTickHandlesEveryPassedDeadlineInOrder() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 45), at: s(45))  // buzz clock stays at 60, Red answers until 105
        #expect(game.answerDeadline == s(105))
        let effects = try game.apply(.tick, at: s(200))
        #expect(effects.count == 2)
        #expect(
            effects.first
                == .result(team: "Red", correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: true))
        // The reveal pause starts when the tick is handled, so nothing is skipped unseen.
        #expect(effects.last?.revealed?.nextQuestionAt == s(205))
    }

    @Test func lateSettleTickStartsTheAnswerClockWhenHandled() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 1, settle: 200), at: s(1))
        let effects = try game.apply(.tick, at: s(3))
        #expect(effects.first?.buzzUpdate?.entries.map(\.team) == ["Red"])
        #expect(effects.dropFirst() == [.turn(team: "Red", deadline: s(63))])
    }
}

// MARK: - Shakes

@Suite struct ShakyShakeTests {
    @Test func shakesCostAndFixTheNextLetterForThatTeamOnly() throws {
        var game = try startedGame(questions: [picard])
        let blueBefore = game.letters(for: "Blue")
        let first = try game.apply(.shake(team: "Red"), at: s(1))
        guard case .hint("Red", let letters, 150) = try #require(first.first), first.count == 1 else {
            Issue.record("expected one hint for Red at 150 points, got \(first)")
            return
        }
        #expect(letters.fixedCount == 1 && letters.text.hasPrefix("J"))
        #expect(skeleton(letters.text) == skeleton("JEAN-LUC PICARD"))
        #expect(sortedLetters(letters.text) == sortedLetters("JEANLUCPICARD"))
        #expect(game.letters(for: "Red") == letters)
        #expect(game.letters(for: "Blue") == blueBefore)
        #expect(game.pointsOnOffer(for: "Red") == 150 && game.pointsOnOffer(for: "Blue") == 200)

        let second = try game.apply(.shake(team: "Red"), at: s(2))
        guard case .hint(_, let more, 100) = try #require(second.first) else {
            Issue.record("expected a hint at 100 points, got \(second)")
            return
        }
        #expect(more.fixedCount == 2 && more.text.hasPrefix("JE"))
        #expect(game.shakeCount(for: "Red") == 2)

        // Shaking after the buzz, while on turn, is allowed, and the points won are the reduced ones.
        _ = try game.apply(press("Red", at: 3), at: s(3))
        _ = try game.apply(.shake(team: "Red"), at: s(4))
        #expect(game.letters(for: "Red")?.text.hasPrefix("JEA") == true)
        let result = try game.apply(.answer(team: "Red", text: "Jean Luc Picard"), at: s(5))
        #expect(
            result.first
                == .result(team: "Red", correct: true, pointsAwarded: 50, isMisspelling: false, isTimedOut: false))
        #expect(game.scores["Red"] == 50)
    }

    @Test func pointsOnOfferNeverDropBelowZero() throws {
        var game = try startedGame(questions: [jupiter], settings: ShakySettings(shakeCostPercent: 40))
        let offers = try (1...3).map { index in
            let effects = try game.apply(.shake(team: "Red"), at: s(Double(index)))
            guard case .hint(_, _, let points) = effects.first else { return -1 }
            return points
        }
        #expect(offers == [180, 60, 0])
        _ = try game.apply(press("Red", at: 5), at: s(5))
        let result = try game.apply(.answer(team: "Red", text: "Jupiter"), at: s(6))
        #expect(
            result.first
                == .result(team: "Red", correct: true, pointsAwarded: 0, isMisspelling: false, isTimedOut: false))
        #expect(game.correctCounts["Red"] == 1 && game.scores["Red"] == 0)
    }

    @Test func shakingStopsWithTwoLettersStillHidden() throws {
        var game = try startedGame(questions: [paris])
        for second in 1...3 { _ = try game.apply(.shake(team: "Red"), at: s(Double(second))) }
        let letters = try #require(game.letters(for: "Red"))
        #expect(letters.fixedCount == 3 && letters.text == "PARSI")
        #expect(refusal(&game, .shake(team: "Red"), at: s(4)) == "no_more_hints")
        #expect(game.pointsOnOffer(for: "Red") == 25)
    }

    @Test func shakeRefusals() throws {
        var game = try startedGame(questions: [paris])
        #expect(refusal(&game, .shake(team: "Gold"), at: s(1)) == "unknown_team")
        _ = try game.apply(.pause, at: s(1))
        #expect(refusal(&game, .shake(team: "Red"), at: s(2)) == "paused")
        _ = try game.apply(.resume, at: s(3))
        _ = try game.apply(.next, at: s(4))
        #expect(refusal(&game, .shake(team: "Red"), at: s(5)) == "question_closed")
    }
}

// MARK: - Operator, clocks and the end

@Suite struct ShakyFlowTests {
    @Test func pauseFreezesAndResumeShiftsEveryClock() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 10), at: s(10))  // buzz clock 30 s, answer clock 70 s
        #expect(try game.apply(.pause, at: s(12)) == [.paused])
        #expect(game.isPaused && game.pausedAt == s(12) && game.nextDeadline == nil)
        #expect(try game.apply(.tick, at: s(100)).isEmpty)
        #expect(refusal(&game, press("Blue", at: 100), at: s(100)) == "paused")
        #expect(refusal(&game, .answer(team: "Red", text: "Paris"), at: s(100)) == "paused")
        #expect(refusal(&game, .next, at: s(100)) == "paused")
        #expect(refusal(&game, .pause, at: s(100)) == "already_paused")
        let resumed = try game.apply(.resume, at: s(112))
        #expect(resumed == [.resumed(.init(buzzDeadline: s(130), answerDeadline: s(170), nextQuestionAt: nil))])
        #expect(game.buzzDeadline == s(130) && game.answerDeadline == s(170) && game.nextDeadline == s(130))
        #expect(refusal(&game, .resume, at: s(113)) == "not_paused")

        _ = try game.apply(.answer(team: "Red", text: "Paris"), at: s(114))  // reveal until 119 s
        _ = try game.apply(.pause, at: s(115))
        let again = try game.apply(.resume, at: s(120))
        #expect(again == [.resumed(.init(buzzDeadline: nil, answerDeadline: nil, nextQuestionAt: s(124)))])
        #expect(game.nextDeadline == s(124))
    }

    @Test func pauseAlsoShiftsAPendingSettle() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 10, settle: 500), at: s(10))
        _ = try game.apply(.pause, at: s(10.2))
        _ = try game.apply(.resume, at: s(20.2))
        #expect(game.nextDeadline == s(20.5))
        #expect(try game.apply(.tick, at: s(20.5)).last == .turn(team: "Red", deadline: s(80.5)))
    }

    @Test func revealAdvancesByItselfAfterRevealSeconds() throws {
        var game = try startedGame(questions: [paris, picard])
        _ = try game.apply(.tick, at: s(60))  // nobody buzzed: reveal until 65 s
        #expect(try game.apply(.tick, at: s(64.9)).isEmpty)
        let next = try game.apply(.tick, at: s(65))
        let opened = try #require(next.first?.opened)
        #expect(opened.number == 2 && opened.buzzDeadline == s(125))
        _ = try game.apply(.tick, at: s(125))
        let final = try game.apply(.tick, at: s(130))
        #expect(final.first?.finalBoard?.count == 3)
        #expect(game.phase == .finished && game.nextDeadline == nil)
    }

    @Test func withoutARevealPauseTheOperatorMovesOn() throws {
        for reveal in [0, nil] as [Int?] {
            var game = try startedGame(questions: [paris, picard], settings: ShakySettings(revealSeconds: reveal))
            let ended = try game.apply(.next, at: s(5))  // the operator ends the open question
            #expect(ended.first?.revealed?.scorer == nil)
            #expect(ended.first?.revealed?.nextQuestionAt == nil)
            #expect(game.phase == .reveal && game.nextDeadline == nil)
            #expect(try game.apply(.tick, at: s(1000)).isEmpty)
            #expect(try game.apply(.next, at: s(1001)).first?.opened?.number == 2)
            _ = try game.apply(.next, at: s(1002))
            let last = try game.apply(.next, at: s(1003))
            #expect(last.first?.finalBoard != nil && game.phase == .finished)
        }
    }

    @Test func scoreboardSharesRanksOnTies() throws {
        var game = try startedGame(
            teams: ["Red", "Blue", "Green", "Gold"], questions: [paris, paris, jupiter],
            settings: ShakySettings(revealSeconds: 0))
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(.answer(team: "Red", text: "Paris"), at: s(2))
        _ = try game.apply(.next, at: s(3))
        _ = try game.apply(press("Blue", at: 4), at: s(4))
        _ = try game.apply(.answer(team: "Blue", text: "Paris"), at: s(5))
        _ = try game.apply(.next, at: s(6))
        _ = try game.apply(.shake(team: "Gold"), at: s(7))
        _ = try game.apply(.shake(team: "Gold"), at: s(7))
        _ = try game.apply(.shake(team: "Gold"), at: s(7))
        _ = try game.apply(press("Gold", at: 8), at: s(8))
        _ = try game.apply(.answer(team: "Gold", text: "Jupiter"), at: s(9))  // 300 - 3 × 75 = 75
        let effects = try game.apply(.next, at: s(10))
        let board = try #require(effects.first?.finalBoard)
        #expect(
            board == [
                .init(rank: 1, team: "Red", score: 100, correctCount: 1),
                .init(rank: 1, team: "Blue", score: 100, correctCount: 1),
                .init(rank: 3, team: "Gold", score: 75, correctCount: 1),
                .init(rank: 4, team: "Green", score: 0, correctCount: 0),
            ])
        #expect(game.finalRanking == board)
        #expect(refusal(&game, .next, at: s(11)) == "game_over")
        #expect(refusal(&game, .end, at: s(11)) == "game_over")
        #expect(refusal(&game, press("Red", at: 11), at: s(11)) == "game_over")
        #expect(refusal(&game, .addTeam("Late"), at: s(11)) == "game_over")
        #expect(refusal(&game, .start, at: s(11)) == "game_over")
    }

    @Test func endStopsAtOnceEvenWhilePaused() throws {
        var game = try startedGame()
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(.answer(team: "Red", text: "Paris"), at: s(2))
        _ = try game.apply(.next, at: s(3))
        _ = try game.apply(.pause, at: s(4))
        let effects = try game.apply(.end, at: s(5))
        #expect(effects.count == 1)
        #expect(effects.first?.finalBoard?.first == .init(rank: 1, team: "Red", score: 100, correctCount: 1))
        #expect(game.phase == .finished && !game.isPaused && game.nextDeadline == nil)
    }

    @Test func theAnswerAppearsInNoEffectBeforeTheReveal() throws {
        var game = try makeGame(questions: [picard])
        var effects = try game.apply(.start, at: s(0))
        effects += try game.apply(press("Red", at: 1), at: s(1))
        effects += try game.apply(.shake(team: "Red"), at: s(2))
        effects += try game.apply(.shake(team: "Blue"), at: s(2))
        effects += try game.apply(.answer(team: "Red", text: "Kirk"), at: s(3))
        let encoded = try String(decoding: JSONEncoder().encode(effects), as: UTF8.self)
        #expect(!TextFolding.compact(encoded).contains("jeanlucpicard"))
        #expect(!encoded.contains("JEAN-LUC PICARD"))
        let reveal = try game.apply(.next, at: s(4))
        #expect(reveal.first?.revealed?.answer == "Jean-Luc Picard")
    }

    @Test func replayingTheSameEventsGivesTheSameGame() throws {
        // Red and Blue tie (20 ms apart, 40 ms uncertainty each): the seed decides who answers first.
        let script: [(Game.Event, Double)] = [
            (.start, 0), (.shake(team: "Blue"), 1),
            (press("Red", at: 1.98, uncertainty: 40, settle: 100), 2.0),
            (press("Blue", at: 2.0, uncertainty: 40, settle: 100), 2.05),
            (.tick, 2.1), (.tick, 62.1), (.tick, 122.1), (.tick, 127.1),
            (.addTeam("Gold"), 128), (.pause, 129), (.resume, 130), (press("Gold", at: 131), 131),
            (.answer(team: "Gold", text: "Jean Luc Pickard"), 132), (.tick, 137), (.end, 140),
        ]
        // The host journals events as JSON: replay from the decoded journal.
        let journal = try JSONEncoder().encode(script.map(\.0))
        let decoded = try JSONDecoder().decode([Game.Event].self, from: journal)
        #expect(decoded == script.map(\.0))

        func play(_ events: [Game.Event], seed: UInt64) throws -> (Game, [[Effect]]) {
            var game = try makeGame(seed: seed)
            var log: [[Effect]] = []
            for (event, (_, seconds)) in zip(events, script) {
                log.append(try game.apply(event, at: s(seconds)))
            }
            return (game, log)
        }
        let (first, firstLog) = try play(script.map(\.0), seed: 7)
        let (second, secondLog) = try play(decoded, seed: 7)
        #expect(first == second)
        #expect(firstLog == secondLog)
        #expect(first.phase == .finished)
        #expect(first.finalRanking?.first == .init(rank: 1, team: "Gold", score: 200, correctCount: 1))
        #expect(
            firstLog[12].first
                == .result(
                    team: "Gold", correct: true, pointsAwarded: 200, isMisspelling: true,
                    isTimedOut: false))
        #expect(firstLog[2].isEmpty && firstLog[3].isEmpty)  // settling: the order is not announced yet
        #expect(firstLog[4].first?.buzzUpdate?.entries.allSatisfy { $0.isTied } == true)
        let (_, otherLog) = try play(script.map(\.0), seed: 8)
        #expect(otherLog[0] != firstLog[0])  // another seed scrambles differently

        let restored = try JSONDecoder().decode(Game.self, from: JSONEncoder().encode(first))
        #expect(restored == first)
    }
}

@Suite struct ShakyJudgingTests {
    @Test func byHandEveryAnswerWaitsForTheVerdict() throws {
        var settings = ShakySettings()
        settings.isJudgedByHand = true
        var game = try startedGame(teams: ["Red", "Blue"], settings: settings)
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(press("Blue", at: 1.5), at: s(1.5))
        let waiting = try game.apply(.answer(team: "Red", text: "Lyon"), at: s(2))
        #expect(waiting == [.awaitingVerdict(team: "Red", text: "Lyon")])
        #expect(game.teamAwaitingVerdict == "Red")
        #expect(game.answerDeadline == nil, "the answer clock stops while the quizmaster decides")
        #expect(refusal(&game, .answer(team: "Red", text: "Paris"), at: s(3)) == "awaiting_verdict")
        // Even a long wait does not time the team out.
        _ = try game.apply(.tick, at: s(200))
        #expect(game.teamAwaitingVerdict == "Red")
        let accepted = try game.apply(.judge(team: "Red", correct: true), at: s(201))
        #expect(
            accepted.first
                == .result(team: "Red", correct: true, pointsAwarded: 100, isMisspelling: false, isTimedOut: false))
        #expect(game.scores["Red"] == 100)
        #expect(game.answers.last?.isByHand == true)
    }

    @Test func aRejectedAnswerPassesTheTurn() throws {
        var settings = ShakySettings()
        settings.isJudgedByHand = true
        var game = try startedGame(teams: ["Red", "Blue"], settings: settings)
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(press("Blue", at: 1.5), at: s(1.5))
        _ = try game.apply(.answer(team: "Red", text: "Paris"), at: s(2))
        let rejected = try game.apply(.judge(team: "Red", correct: false), at: s(3))
        #expect(
            rejected.contains(
                .result(team: "Red", correct: false, pointsAwarded: 0, isMisspelling: false, isTimedOut: false)))
        #expect(game.teamOnTurn == "Blue")
        #expect(game.scores["Red"] == 0)
    }

    @Test func acceptingAWrongAnswerWhileTheQuestionIsOpenScoresItAndEndsTheQuestion() throws {
        var game = try startedGame(teams: ["Red", "Blue"])
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(press("Blue", at: 1.5), at: s(1.5))
        _ = try game.apply(.answer(team: "Red", text: "Parris ville"), at: s(2))
        #expect(game.teamOnTurn == "Blue")
        let effects = try game.apply(.judge(team: "Red", correct: true), at: s(3))
        #expect(
            effects.first
                == .result(team: "Red", correct: true, pointsAwarded: 100, isMisspelling: false, isTimedOut: false))
        #expect(game.phase == .reveal)
        #expect(game.scores["Red"] == 100)
    }

    @Test func overrulesAfterTheRevealMoveThePointsBothWays() throws {
        var game = try startedGame(teams: ["Red", "Blue"])
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(press("Blue", at: 1.5), at: s(1.5))
        _ = try game.apply(.answer(team: "Red", text: "Lyon"), at: s(2))
        _ = try game.apply(.answer(team: "Blue", text: "Paris"), at: s(3))
        #expect(game.phase == .reveal)
        let accept = try game.apply(.judge(team: "Red", correct: true), at: s(4))
        guard case .overruled(let team, let correct, let points, let standings, let question)? = accept.first else {
            Issue.record("expected an overrule, got \(accept)")
            return
        }
        #expect(team == "Red" && correct && points == 100 && question == 1)
        #expect(standings.map { $0.score } == [100, 100])
        #expect(game.lastReveal?.standings == standings, "a late joiner's reveal shows the scores as they are now")
        let reject = try game.apply(.judge(team: "Blue", correct: false), at: s(5))
        #expect(reject.first.map { if case .overruled(_, false, -100, _, 1) = $0 { true } else { false } } == true)
        #expect(game.scores == ["Red": 100, "Blue": 0])
        #expect(refusal(&game, .judge(team: "Blue", correct: false), at: s(6)) == "nothing_to_judge")
        #expect(refusal(&game, .judge(team: "Green", correct: true), at: s(6)) == "unknown_team")
    }

    @Test func aProtestAfterTheNextQuestionOpenedOverrulesTheQuestionBefore() throws {
        var game = try startedGame(teams: ["Red", "Blue"], settings: ShakySettings(isForgiving: false))
        _ = try game.apply(.shake(team: "Red"), at: s(0.5))  // Red's answer is worth 75 now
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(.answer(team: "Red", text: "Parris", player: "Ann"), at: s(2))  // strict: a near miss
        _ = try game.apply(press("Blue", at: 3), at: s(3))
        _ = try game.apply(.answer(team: "Blue", text: "Lyon"), at: s(4))
        #expect(game.phase == .reveal)
        _ = try game.apply(.tick, at: s(10))  // the reveal pause is over: question 2 is open
        #expect(game.questionNumber == 2)
        let effects = try game.apply(.judge(team: "Red", correct: true), at: s(11))
        guard case .overruled("Red", true, let points, _, let question)? = effects.first else {
            Issue.record("expected an overrule of question 1, got \(effects)")
            return
        }
        #expect(points == 75 && question == 1, "the points on offer for Red at question 1, after its shake")
        #expect(game.scores == ["Red": 75, "Blue": 0])
        #expect(game.phase == .question && game.questionNumber == 2, "question 2 goes on untouched")
        let record = try #require(game.answers(toQuestion: 1)?.answers.first { $0.team == "Red" })
        #expect(record.verdict == .exact && record.judgedAs == .wrong && record.isByHand && record.player == "Ann")
        #expect(game.latestAnswer(of: "Red")?.question == 1)
        // Red answers question 2 wrong: now `accept Red` means that answer, the latest one.
        _ = try game.apply(press("Red", at: 12), at: s(12))
        _ = try game.apply(.answer(team: "Red", text: "Kirk"), at: s(13))
        #expect(game.latestAnswer(of: "Red")?.question == 2)
        _ = try game.apply(.judge(team: "Blue", correct: true), at: s(14))  // Blue's "Lyon" at question 1
        #expect(game.scores == ["Red": 75, "Blue": 100])
        #expect(game.questionNumber == 2 && game.phase == .question)
    }

    @Test func aTurnThatRanOutCannotBeAcceptedAndAPauseHoldsVerdicts() throws {
        var game = try startedGame(teams: ["Red", "Blue"])
        _ = try game.apply(press("Red", at: 1), at: s(1))
        _ = try game.apply(.tick, at: s(62))  // Red's answer clock runs out with nothing typed
        #expect(
            refusalError(&game, .judge(team: "Red", correct: true), at: s(63))?.message
                == "Red typed no answer to question 1: nothing to accept.")
        _ = try game.apply(.steer(.pause), at: s(64))
        #expect(refusal(&game, .judge(team: "Red", correct: false), at: s(65)) == "paused")
    }

    @Test func aTeamThatNeverAnsweredCannotBeJudged() throws {
        var game = try startedGame(teams: ["Red", "Blue"])
        #expect(refusal(&game, .judge(team: "Red", correct: true), at: s(1)) == "nothing_to_judge")
    }
}
