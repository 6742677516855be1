import Foundation
import Testing

@testable import Rules

private typealias Game = OddOneOut

/// `seconds` on the game clock.
private func s(_ seconds: Double) -> Instant { Instant(milliseconds: Int64((seconds * 1000).rounded())) }

private let colours = DrawnPuzzle(
    puzzle: OutsiderPuzzle(
        difficulty: .easy, words: ["dog", "green", "red", "blue"], outsider: "dog", link: "colours"),
    category: "Mixed")
private let planets = DrawnPuzzle(
    puzzle: OutsiderPuzzle(
        difficulty: .hard, words: ["Mars", "Venus", "Moon", "Saturn"], outsider: "Moon", link: "planets"),
    category: "Space")

/// A game on round 1, opened at 0 s: 20-second rounds, 5-second reveals, 100/200/300 points.
private func started(
    teams: [String] = ["Red", "Blue", "Green"], puzzles: [DrawnPuzzle] = [colours, planets],
    settings: OutsiderSettings = OutsiderSettings(), seed: UInt64 = 7
) throws -> Game {
    var game = try Game(teams: teams, puzzles: puzzles, settings: settings, seed: seed)
    _ = try game.apply(.start, at: s(0))
    return game
}

/// The 0-based choice of `word` in the open round.
private func choice(_ game: Game, _ word: String) throws -> Int { try #require(game.choice(forWord: word)) }

private func pick(_ team: String, _ choice: Int, at seconds: Double, settle: Int64 = 0) -> Game.Event {
    .pick(team: team, choice: choice, pressedAt: s(seconds), uncertaintyMs: 0, settleMs: settle)
}

/// Applies `event`, expecting a refusal that leaves the game unchanged; returns its code.
private func refusal(_ game: inout Game, _ event: Game.Event, at now: Instant) -> String? {
    let before = game
    do {
        _ = try game.apply(event, at: now)
        Issue.record("\(event) was accepted")
        return nil
    } catch {
        #expect(game == before, "a refused event changed the game")
        return error.code.rawValue
    }
}

extension OddOneOut.Effect {
    fileprivate var reveal: OddOneOut.Reveal? { if case .reveal(let value) = self { value } else { nil } }
    fileprivate var opened: OddOneOut.RoundOpened? { if case .round(let value) = self { value } else { nil } }
    fileprivate var locked: (team: String, position: Int)? {
        if case .locked(let team, let position) = self { (team, position) } else { nil }
    }
}

@Suite("Odd One Out rules")
struct OddOneOutTests {
    @Test func pointsFallWithTimeToHalfAtTheBuzzer() {
        #expect(OutsiderSettings.points(base: 100, elapsedMs: 0, limitMs: 20_000) == 100)
        #expect(OutsiderSettings.points(base: 100, elapsedMs: 10_000, limitMs: 20_000) == 75)
        #expect(OutsiderSettings.points(base: 100, elapsedMs: 20_000, limitMs: 20_000) == 50)
        #expect(OutsiderSettings.points(base: 300, elapsedMs: 1_000, limitMs: 20_000) == 293)  // 292.5 rounds up
        #expect(
            OutsiderSettings.points(base: 200, elapsedMs: 99_000, limitMs: 20_000) == 100, "late presses hold at half")
        #expect(OutsiderSettings.points(base: 200, elapsedMs: -50, limitMs: 20_000) == 200)
    }

    @Test func theRoundShowsFourShuffledWordsButNeverTheOutsider() throws {
        var game = try Game(teams: ["Red"], puzzles: [colours, planets], seed: 3)
        let effects = try game.apply(.start, at: s(0))
        let opened = try #require(effects.compactMap(\.opened).first)
        #expect(Set(opened.words) == Set(colours.puzzle.words))
        #expect(opened.number == 1 && opened.total == 2)
        #expect(opened.points == 100 && opened.category == "Mixed")
        #expect(opened.deadline == s(20))
        // Different seeds give different orders (the outsider is not always first).
        let orders = try Set((1...20).map { seed in try started(seed: UInt64(seed)).words })
        #expect(orders.count > 3)
        #expect(orders.contains { $0.first != "dog" })
    }

    @Test func aRightPickScoresByItsPressTimeAndAWrongOneScoresNothing() throws {
        var game = try started()
        let dog = try choice(game, "dog")
        let red = try choice(game, "red")
        _ = try game.apply(pick("Blue", red, at: 2), at: s(2.1))
        _ = try game.apply(pick("Red", dog, at: 4), at: s(4.2))
        let effects = try game.apply(pick("Green", dog, at: 10), at: s(10.05))
        let reveal = try #require(effects.compactMap(\.reveal).first, "every team picked, so the round ended")
        #expect(reveal.outsider == "dog")
        #expect(reveal.link == "colours")
        #expect(reveal.outsiderChoice == dog)
        let results = Dictionary(uniqueKeysWithValues: reveal.results.map { ($0.team, $0) })
        #expect(results["Red"]?.points == 90)  // 100 × (1 − 4/20 ÷ 2)
        #expect(results["Red"]?.elapsedMs == 4_000)
        #expect(results["Blue"]?.points == 0)
        #expect(results["Blue"]?.isCorrect == false)
        #expect(results["Blue"]?.word == "red")
        #expect(results["Green"]?.points == 75)
        #expect(game.scores == ["Red": 90, "Blue": 0, "Green": 75])
        #expect(reveal.standings.map(\.team) == ["Red", "Green", "Blue"])
        #expect(reveal.nextRoundAt == s(15.05))
    }

    @Test func aTeamPicksOnceAndItsFirstPickIsFinal() throws {
        var game = try started()
        let dog = try choice(game, "dog")
        let blue = try choice(game, "blue")
        _ = try game.apply(pick("Red", blue, at: 1), at: s(1))
        #expect(refusal(&game, pick("Red", dog, at: 2), at: s(2)) == "already_picked")
        #expect(game.pick(of: "Red")?.choice == blue)
        #expect(refusal(&game, pick("Blue", 4, at: 2), at: s(2)) == "bad_choice")
        #expect(refusal(&game, pick("Nobody", dog, at: 2), at: s(2)) == "unknown_team")
    }

    @Test func theClockEndsTheRoundAndTeamsThatDidNotPickScoreNothing() throws {
        var game = try started()
        _ = try game.apply(pick("Red", try choice(game, "dog"), at: 3), at: s(3))
        #expect(game.nextDeadline == s(20))
        let effects = try game.apply(.tick, at: s(20))
        let reveal = try #require(effects.compactMap(\.reveal).first)
        #expect(reveal.results.map(\.team) == ["Red", "Blue", "Green"])
        #expect(reveal.results[1].choice == nil && reveal.results[1].points == 0)
        #expect(refusal(&game, pick("Blue", 0, at: 20.5), at: s(20.5)) == "round_closed")
        // The reveal pause opens round 2 by itself; the last reveal leads to the scoreboard.
        let next = try game.apply(.tick, at: s(25))
        #expect(next.compactMap(\.opened).first?.number == 2)
        #expect(next.compactMap(\.opened).first?.points == 300)
        _ = try game.apply(.tick, at: s(45))
        #expect(game.phase == .reveal)
        #expect(game.lastReveal?.isLastRound == true)
        let end = try game.apply(.tick, at: s(50))
        guard case .scoreboard(let ranking)? = end.last else {
            Issue.record("no scoreboard after the last reveal: \(end)")
            return
        }
        #expect(ranking.first?.team == "Red")
        #expect(ranking.map(\.rank) == [1, 2, 2], "equal scores share a rank")
        #expect(game.phase == .finished)
        #expect(game.nextDeadline == nil)
    }

    @Test func pressTimeNotArrivalOrdersTheLockInsWithinTheSettleWindow() throws {
        var game = try started(teams: ["Red", "Blue", "Green", "Gold"])
        let dog = try choice(game, "dog")
        // Red arrives first but Blue pressed earlier; both land within Red's 50 ms settle window.
        let first = try game.apply(pick("Red", dog, at: 5.00, settle: 50), at: s(5.03))
        #expect(first.compactMap(\.locked).isEmpty, "nothing is announced while the window settles")
        _ = try game.apply(pick("Blue", dog, at: 4.99, settle: 50), at: s(5.06))
        #expect(game.nextDeadline == s(5.08))
        let settled = try game.apply(.tick, at: s(5.08))
        #expect(settled.compactMap(\.locked).map(\.team) == ["Blue", "Red"])
        #expect(settled.compactMap(\.locked).map(\.position) == [1, 2])
        // A later pick opens a new window and takes the next place.
        _ = try game.apply(pick("Green", dog, at: 7, settle: 50), at: s(7))
        let later = try game.apply(.tick, at: s(7.05))
        #expect(later.compactMap(\.locked).map(\.position) == [3])
        #expect(game.lockedPicks.map(\.team) == ["Blue", "Red", "Green"])
        // A press cannot claim to be earlier than the round nor later than its arrival.
        let last = try game.apply(pick("Gold", dog, at: -30), at: s(8))
        let reveal = try #require(last.compactMap(\.reveal).first)
        #expect(reveal.results.first { $0.team == "Gold" }?.elapsedMs == 0)
        #expect(last.compactMap(\.locked).map(\.team) == ["Gold"], "ending the round announces waiting picks first")
    }

    @Test func aLateTickRevealsAndOpensTheNextRoundInOneStepKeepingEachRoundsWords() throws {
        var game = try started()
        let firstWords = game.words
        let effects = try game.apply(.tick, at: s(26))  // the round clock (20 s) and the reveal pause (5 s) both passed
        let reveal = try #require(effects.compactMap(\.reveal).first)
        #expect(reveal.words == firstWords)
        #expect(effects.compactMap(\.opened).first?.number == 2)
        #expect(Set(game.words) == Set(planets.puzzle.words))
        #expect(game.roundDeadline == s(45), "round 2 opened when the pause ended, at 25 s")
    }

    @Test func pausedTimeDoesNotCostPoints() throws {
        var game = try started(teams: ["Red", "Blue"])
        let dog = try choice(game, "dog")
        _ = try game.apply(.steer(.pause), at: s(2))
        #expect(game.nextDeadline == nil)
        #expect(refusal(&game, pick("Red", dog, at: 3), at: s(3)) == "paused")
        let resumed = try game.apply(.steer(.resume), at: s(12))
        #expect(resumed == [.resumed(roundDeadline: s(30), nextRoundAt: nil)])
        _ = try game.apply(pick("Red", dog, at: 14), at: s(14))  // 4 s of round time
        #expect(
            refusal(&game, pick("Blue", dog, at: 31), at: s(31)) == "round_closed", "the round clock ran out at 30 s")
        let effects = try game.apply(.tick, at: s(30))
        #expect(effects.compactMap(\.reveal).count == 1)
        #expect(game.lastReveal?.results.first { $0.team == "Red" }?.points == 90)
        #expect(game.lastReveal?.results.first { $0.team == "Blue" }?.choice == nil, "Blue picked after time ran out")
    }

    @Test func theOperatorSkipsAndEnds() throws {
        var game = try started()
        let skipped = try game.apply(.steer(.next), at: s(1))
        #expect(skipped.compactMap(\.reveal).first?.results.allSatisfy { $0.choice == nil } == true)
        let next = try game.apply(.steer(.next), at: s(2))
        #expect(next.compactMap(\.opened).first?.number == 2)
        _ = try game.apply(pick("Red", try choice(game, "Moon"), at: 3), at: s(3))
        let end = try game.apply(.steer(.end), at: s(4))
        #expect(game.phase == .finished)
        guard case .scoreboard(let ranking)? = end.last else {
            Issue.record("end did not show the scoreboard")
            return
        }
        #expect(ranking.map(\.score) == [0, 0, 0], "an unfinished round scores nothing")
        #expect(ranking.map(\.rank) == [1, 1, 1])
        #expect(refusal(&game, .steer(.end), at: s(5)) == "game_over")
    }

    @Test func aTeamJoiningMidRoundPlaysItAndTheRoundWaitsForIt() throws {
        var game = try started(teams: ["Red"])
        _ = try game.apply(.addTeam("Blue"), at: s(1))
        _ = try game.apply(pick("Red", try choice(game, "dog"), at: 2), at: s(2))
        #expect(game.phase == .round, "Blue has not picked yet")
        _ = try game.apply(pick("Blue", try choice(game, "dog"), at: 3), at: s(3))
        #expect(game.phase == .reveal)
        #expect(throws: RuleError.self) { _ = try game.apply(.addTeam("red"), at: s(4)) }
    }

    @Test func replayingTheEventsGivesTheSameGame() throws {
        let events: [(Game.Event, Double)] = [
            (.start, 0), (pick("Red", 1, at: 1.5, settle: 30), 1.6), (pick("Blue", 0, at: 1.4, settle: 30), 1.62),
            (.tick, 1.7), (.addTeam("Gold"), 2), (.tick, 20), (.steer(.pause), 22), (.steer(.resume), 30),
            (.tick, 31), (.tick, 33), (pick("Gold", 2, at: 34), 34), (.steer(.end), 35),
        ]
        func play() throws -> (Game, [[Game.Effect]]) {
            var game = try Game(teams: ["Red", "Blue", "Green"], puzzles: [colours, planets], seed: 99)
            var effects: [[Game.Effect]] = []
            for (event, at) in events { effects.append(try game.apply(event, at: s(at))) }
            return (game, effects)
        }
        let (first, firstEffects) = try play()
        let (second, secondEffects) = try play()
        #expect(first == second)
        #expect(firstEffects == secondEffects)
        // The journal form of the events (JSON) replays too.
        let encoded = try JSONEncoder().encode(events.map(\.0))
        let decoded = try JSONDecoder().decode([Game.Event].self, from: encoded)
        #expect(decoded == events.map(\.0))
    }

    @Test func startNeedsTeamsPuzzlesAndSaneSettings() {
        #expect(throws: RuleError.self) { _ = try Game(teams: [], puzzles: [colours], seed: 1) }
        #expect(throws: RuleError.self) { _ = try Game(teams: ["Red"], puzzles: [], seed: 1) }
        #expect(throws: RuleError.self) {
            _ = try Game(teams: ["Red"], puzzles: [colours], settings: OutsiderSettings(roundSeconds: 1), seed: 1)
        }
        #expect(throws: RuleError.self) { _ = try Game(teams: ["Red", "red!"], puzzles: [colours], seed: 1) }
    }
}
