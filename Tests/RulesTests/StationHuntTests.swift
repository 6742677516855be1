import Foundation
import Testing

@testable import Rules

private typealias Game = StationHunt

/// `seconds` on the game clock.
private func s(_ seconds: Double) -> Instant { Instant(milliseconds: Int64((seconds * 1000).rounded())) }

/// Three stations: a puzzle with two hints, a question with one, a puzzle without hints.
let threeStations = Hunt(
    id: "office", name: "Office hunt",
    stations: [
        Hunt.Station(
            name: "Kitchen", clue: "Where the cold things sleep", code: "FRDG",
            task: .puzzle(
                OutsiderPuzzle(
                    difficulty: .easy, words: ["dog", "green", "red", "blue"], outsider: "dog", link: "colours")),
            hints: [
                Hunt.Hint(text: "Think of colours.", costSeconds: 20),
                Hunt.Hint(text: "Not a colour: woof.", costSeconds: 40),
            ],
            success: "Cool!"),
        Hunt.Station(
            name: "Desk", clue: "Where the work gets done", code: "DESK",
            task: .question(text: "What do you sharpen before writing?", answer: "pencil"),
            hints: [Hunt.Hint(text: "It has lead.", costSeconds: 30)]),
        Hunt.Station(
            name: "Door", clue: "Everyone came in through me", code: "KNCK",
            task: .puzzle(
                OutsiderPuzzle(
                    difficulty: .easy, words: ["knob", "hinge", "lock", "cloud"], outsider: "cloud", link: "doors"))),
    ])

private func started(
    teams: [String] = ["Red", "Blue"], settings: HuntSettings = HuntSettings(), seed: UInt64 = 5
) throws -> Game {
    var game = try Game(hunt: threeStations, teams: teams, settings: settings, seed: seed)
    _ = try game.apply(.start, at: s(0))
    return game
}

/// Applies `event`, expecting a refusal that leaves the hunt unchanged; returns its code.
private func refusal(_ game: inout Game, _ event: Game.Event, at seconds: Double) -> String? {
    let before = game
    do {
        _ = try game.apply(event, at: s(seconds))
        Issue.record("\(event) was accepted")
        return nil
    } catch {
        #expect(game == before, "a refused event changed the hunt")
        return error.code.rawValue
    }
}

/// Solves `team`'s current station (checks in first), at `seconds`.
private func solveCurrent(_ game: inout Game, _ team: String, at seconds: Double) throws -> [Game.Effect] {
    let state = try #require(game.state(of: team))
    let station = threeStations.stations[state.route[state.solvedCount]]
    if state.stage == .travelling { _ = try game.apply(.checkIn(team: team, code: station.code), at: s(seconds)) }
    switch station.task {
    case .puzzle(let puzzle):
        let choice = try #require(game.state(of: team)?.words.firstIndex(of: puzzle.outsider))
        return try game.apply(.pick(team: team, choice: choice), at: s(seconds))
    case .question(_, let answer):
        return try game.apply(.answer(team: team, text: answer), at: s(seconds))
    }
}

extension StationHunt.Effect {
    fileprivate var clue: (team: String, clue: StationHunt.Clue)? {
        if case .clue(let t, let c) = self { (t, c) } else { nil }
    }
    fileprivate var solved: StationHunt.Solved? { if case .solved(_, let value) = self { value } else { nil } }
    fileprivate var scoreboard: [StationHunt.Ranked]? { if case .scoreboard(let value) = self { value } else { nil } }
    fileprivate var progressRows: [StationHunt.Progress]? { if case .progress(let rows) = self { rows } else { nil } }
}

@Suite("Station hunt rules")
struct StationHuntTests {
    @Test func inFixedOrderEveryTeamGetsTheFirstClueAndTheSameRoute() throws {
        var game = try Game(hunt: threeStations, teams: ["Red", "Blue"], seed: 1)
        let effects = try game.apply(.start, at: s(0))
        let clues = effects.compactMap(\.clue)
        #expect(clues.map(\.team) == ["Red", "Blue"])
        #expect(
            clues.allSatisfy { $0.clue == StationHunt.Clue(number: 1, total: 3, text: "Where the cold things sleep") })
        #expect(game.state(of: "Red")?.route == [0, 1, 2])
        #expect(game.state(of: "Blue")?.route == [0, 1, 2])
        #expect(effects.last?.progressRows?.map(\.stations) == [0, 0])
        #expect(game.nextDeadline == s(45 * 60))
    }

    @Test func staggeredTeamsStartAtDifferentStationsAndGoRound() throws {
        let two = try started(settings: HuntSettings(order: .staggered))
        #expect(two.state(of: "Red")?.route == [0, 1, 2])
        #expect(two.state(of: "Blue")?.route == [1, 2, 0])
        #expect(two.clue(for: "Blue")?.text == "Where the work gets done")
        #expect(two.clue(for: "Blue")?.number == 1)
        var three = try started(teams: ["A", "B", "C"], settings: HuntSettings(order: .staggered))
        #expect(["A", "B", "C"].map { three.state(of: $0)!.route.first! } == [0, 1, 2])
        _ = try three.apply(.addTeam("D"), at: s(10))
        #expect(three.state(of: "D")?.route == [0, 1, 2], "a late fourth team starts at station 3 mod 3")
        #expect(three.clue(for: "D")?.number == 1)
    }

    @Test func aRightCodeOpensTheTaskAndCodesAreReadLoosely() throws {
        var game = try started()
        #expect(refusal(&game, .pick(team: "Red", choice: 0), at: 1) == "wrong_phase")
        let effects = try game.apply(.checkIn(team: "Red", code: " fr-dg "), at: s(5))
        guard case .task(let team, let task)? = effects.first else {
            Issue.record("no task: \(effects)")
            return
        }
        #expect(team == "Red")
        #expect(task.number == 1 && task.hints == 2)
        guard case .puzzle(let words) = task.kind else {
            Issue.record("the kitchen has a puzzle")
            return
        }
        #expect(Set(words) == ["dog", "green", "red", "blue"])
        #expect(refusal(&game, .checkIn(team: "Red", code: "FRDG"), at: 6) == "already_checked_in")
        #expect(refusal(&game, .checkIn(team: "Red", code: "KNCK"), at: 6) == "already_checked_in", "solve first")
        // A later station's code is a wrong code like any other: it counts and says nothing about the route.
        guard
            case .wrongCode(team: "Blue", code: "KNCK", let left, nil)? = try game.apply(
                .checkIn(team: "Blue", code: "KNCK"), at: s(6)
            ).first
        else {
            Issue.record("a later station's code should count as a wrong code")
            return
        }
        #expect(left == 4)
        #expect(refusal(&game, .checkIn(team: "Blue", code: "  "), at: 6) == "empty_answer")
    }

    @Test func fiveWrongCodesLockCheckInsForThirtySeconds() throws {
        var game = try started()
        var left: [Int] = []
        for attempt in 1...4 {
            let effects = try game.apply(.checkIn(team: "Red", code: "AAA\(attempt)"), at: s(Double(attempt)))
            guard case .wrongCode("Red", "AAA\(attempt)", let attemptsLeft, nil)? = effects.first else {
                Issue.record("attempt \(attempt): \(effects)")
                return
            }
            left.append(attemptsLeft)
        }
        #expect(left == [4, 3, 2, 1])
        let fifth = try game.apply(.checkIn(team: "Red", code: "NOPE"), at: s(5))
        #expect(fifth == [.wrongCode(team: "Red", code: "NOPE", attemptsLeft: 0, lockedUntil: s(35))])
        // Locked: even the right code is refused, and the refusal does not count.
        #expect(refusal(&game, .checkIn(team: "Red", code: "FRDG"), at: 20) == "code_locked")
        // Another team is not locked.
        #expect(try game.apply(.checkIn(team: "Blue", code: "FRDG"), at: s(21)).count == 1)
        // The lock ends; the count started again from zero.
        let again = try game.apply(.checkIn(team: "Red", code: "WRONG"), at: s(35))
        #expect(again == [.wrongCode(team: "Red", code: "WRONG", attemptsLeft: 4, lockedUntil: nil)])
        _ = try game.apply(.checkIn(team: "Red", code: "FRDG"), at: s(36))
        #expect(game.state(of: "Red")?.stage == .solving)
        #expect(game.state(of: "Red")?.wrongCodes == 0)
    }

    @Test func aWrongPickOrAnswerCostsThePenaltyAndTheTeamTriesAgain() throws {
        var game = try started(settings: HuntSettings(penaltySeconds: 45))
        _ = try game.apply(.checkIn(team: "Red", code: "FRDG"), at: s(10))
        let words = try #require(game.state(of: "Red")?.words)
        let wrong = try #require(words.firstIndex(of: "red"))
        let effects = try game.apply(.pick(team: "Red", choice: wrong), at: s(12))
        #expect(effects.first == .wrongAnswer(team: "Red", answer: "red", penaltyMs: 45_000, penaltiesMs: 45_000))
        #expect(effects.last?.progressRows?.first?.penaltiesMs == 45_000)
        #expect(game.state(of: "Red")?.stage == .solving)
        #expect(refusal(&game, .answer(team: "Red", text: "cat"), at: 13) == "bad_choice")
        // A word typed as an answer counts as a pick.
        let solved = try game.apply(.answer(team: "Red", text: "Dog!"), at: s(20))
        let detail = try #require(solved.compactMap(\.solved).first)
        #expect(detail.name == "Kitchen")
        #expect(detail.answer == "dog")
        #expect(detail.success == "Cool!")
        #expect(detail.typed == "dog", "what the team typed, for the organiser and the game log")
        #expect(detail.elapsedMs == 20_000)
        #expect(solved.compactMap(\.clue).first?.clue.number == 2)
        // The question: a wrong answer, then a forgiven misspelling.
        _ = try game.apply(.checkIn(team: "Red", code: "DESK"), at: s(30))
        #expect(refusal(&game, .pick(team: "Red", choice: 0), at: 31) == "bad_choice")
        #expect(
            try game.apply(.answer(team: "Red", text: "pen"), at: s(31)).first
                == .wrongAnswer(team: "Red", answer: "pen", penaltyMs: 45_000, penaltiesMs: 90_000))
        let right = try game.apply(.answer(team: "Red", text: "pencel"), at: s(40))
        #expect(right.compactMap(\.solved).first?.answer == "pencil")
        #expect(right.compactMap(\.solved).first?.typed == "pencel")
        #expect(game.state(of: "Red")?.penaltiesMs == 90_000)
    }

    @Test func hintsComeOneByOneAtTheirCost() throws {
        var game = try started()
        #expect(refusal(&game, .hint(team: "Red"), at: 1) == "wrong_phase")
        _ = try game.apply(.checkIn(team: "Red", code: "FRDG"), at: s(2))
        let first = try game.apply(.hint(team: "Red"), at: s(3))
        guard case .hint("Red", let shown)? = first.first else {
            Issue.record("no hint: \(first)")
            return
        }
        #expect(
            shown
                == StationHunt.HintShown(
                    number: 1, total: 2, text: "Think of colours.", costMs: 20_000, penaltiesMs: 20_000))
        _ = try game.apply(.hint(team: "Red"), at: s(4))
        #expect(refusal(&game, .hint(team: "Red"), at: 5) == "no_more_hints")
        #expect(game.state(of: "Red")?.penaltiesMs == 60_000)
        #expect(game.shownHints(for: "Red").map(\.penaltiesMs) == [20_000, 60_000])
        #expect(game.shownHints(for: "Blue").isEmpty)
        // The next station starts with its own hints.
        _ = try solveCurrent(&game, "Red", at: 6)
        _ = try game.apply(.checkIn(team: "Red", code: "DESK"), at: s(7))
        #expect(game.shownHints(for: "Red").isEmpty)
        _ = try game.apply(.hint(team: "Red"), at: s(8))
        #expect(game.state(of: "Red")?.penaltiesMs == 90_000)
    }

    @Test func theHuntEndsWhenEveryTeamFinishedRankedByTimeWithPenalties() throws {
        var game = try started()
        _ = try solveCurrent(&game, "Red", at: 10)
        _ = try game.apply(.checkIn(team: "Blue", code: "FRDG"), at: s(11))
        _ = try game.apply(.hint(team: "Blue"), at: s(11))  // +20 s
        _ = try solveCurrent(&game, "Blue", at: 12)
        _ = try solveCurrent(&game, "Red", at: 20)
        _ = try solveCurrent(&game, "Blue", at: 21)
        let blueLast = try solveCurrent(&game, "Blue", at: 22)
        #expect(blueLast.compactMap(\.solved).first?.isLast == true)
        #expect(blueLast.compactMap(\.clue).isEmpty, "no clue after the last station")
        #expect(blueLast.last?.progressRows?.first?.isFinished == true)
        #expect(game.state(of: "Blue")?.stage == .finished)
        #expect(refusal(&game, .checkIn(team: "Blue", code: "FRDG"), at: 23) == "already_finished")
        #expect(game.phase == .running, "Red is still out")
        let last = try solveCurrent(&game, "Red", at: 30)
        let ranking = try #require(last.compactMap(\.scoreboard).first, "everyone finished, so the hunt ended")
        #expect(ranking.map(\.team) == ["Red", "Blue"])
        #expect(ranking.map(\.totalMs) == [30_000, 42_000], "Blue's 22 s plus its 20 s hint")
        #expect(ranking.map(\.isFinished) == [true, true])
        #expect(game.phase == .finished)
        #expect(game.nextDeadline == nil)
    }

    @Test func whenTimeIsUpStationsCountFirstThenTime() throws {
        var game = try started(teams: ["Red", "Blue", "Gold"], settings: HuntSettings(minutes: 1))
        _ = try solveCurrent(&game, "Blue", at: 10)
        _ = try solveCurrent(&game, "Red", at: 20)
        _ = try solveCurrent(&game, "Red", at: 40)
        _ = try game.apply(.checkIn(team: "Gold", code: "FRDG"), at: s(41))
        _ = try game.apply(
            .pick(team: "Gold", choice: try #require(game.state(of: "Gold")?.words.firstIndex(of: "red"))), at: s(42))
        _ = try game.apply(.checkIn(team: "Blue", code: "DESK"), at: s(50))
        _ = try game.apply(.hint(team: "Blue"), at: s(51))  // Blue: 10 s + 30 s hint = 40 s
        #expect(game.nextDeadline == s(60))
        let end = try game.apply(.tick, at: s(61))
        let ranking = try #require(end.compactMap(\.scoreboard).first)
        #expect(ranking.map(\.team) == ["Red", "Blue", "Gold"])
        #expect(ranking.map(\.stations) == [2, 1, 0])
        #expect(ranking.map(\.totalMs) == [40_000, 40_000, 30_000])
        #expect(ranking.map(\.rank) == [1, 2, 3])
        #expect(game.phase == .finished)
        #expect(refusal(&game, .checkIn(team: "Gold", code: "FRDG"), at: 62) == "game_over")
        // Equal stations: the lower total wins; equal totals share a rank.
        var tied = try started(teams: ["A", "B"], settings: HuntSettings(minutes: 1))
        _ = try solveCurrent(&tied, "A", at: 10)
        _ = try solveCurrent(&tied, "B", at: 10)
        _ = try tied.apply(.steer(.end), at: s(11))
        #expect(tied.finalRanking?.map(\.rank) == [1, 1])
    }

    @Test func pausesStopTheHuntClockAndTheLock() throws {
        var game = try started()
        for attempt in 1...5 { _ = try game.apply(.checkIn(team: "Red", code: "X\(attempt)X"), at: s(Double(attempt))) }
        #expect(game.state(of: "Red")?.lockedUntil == s(35))
        _ = try game.apply(.steer(.pause), at: s(10))
        #expect(game.nextDeadline == nil)
        #expect(refusal(&game, .checkIn(team: "Blue", code: "FRDG"), at: 11) == "paused")
        #expect(refusal(&game, .steer(.next), at: 11) == "wrong_phase")
        #expect(game.huntTime(at: s(100)) == 10_000)
        let resumed = try game.apply(.steer(.resume), at: s(110))
        #expect(resumed == [.resumed(endsAt: s(45 * 60 + 100))])
        #expect(game.state(of: "Red")?.lockedUntil == s(135))
        let solved = try solveCurrent(&game, "Blue", at: 115)
        #expect(solved.compactMap(\.solved).first?.elapsedMs == 15_000)
    }

    @Test func aRestartHoldsTheHuntClockUntilAPlayerIsBack() throws {
        var game = try started()
        #expect(try game.apply(.hostRestarted, at: s(60)).isEmpty)
        #expect(game.nextDeadline == nil && game.isHeldForRestart)
        #expect(game.huntTime(at: s(75)) == 60_000, "nobody could play: the clock stands still")
        #expect(try game.apply(.playerBack, at: s(75)) == [.resumed(endsAt: s(45 * 60 + 15))])
        #expect(game.huntTime(at: s(80)) == 65_000)
        #expect(try game.apply(.playerBack, at: s(90)).isEmpty, "only the first one back lets it run")
        // A hunt the operator paused stays paused across a restart, for `continue`.
        _ = try game.apply(.steer(.pause), at: s(100))
        _ = try game.apply(.hostRestarted, at: s(100))
        _ = try game.apply(.playerBack, at: s(120))
        #expect(game.isPaused && !game.isHeldForRestart)
        #expect(try game.apply(.steer(.resume), at: s(130)) == [.resumed(endsAt: s(45 * 60 + 45))])
    }

    @Test func replayingTheEventsGivesTheSameHunt() throws {
        let events: [(Game.Event, Double)] = [
            (.start, 0), (.checkIn(team: "Red", code: "nope"), 1), (.checkIn(team: "Red", code: "FRDG"), 2),
            (.hint(team: "Red"), 3), (.pick(team: "Red", choice: 1), 4), (.pick(team: "Red", choice: 2), 5),
            (.addTeam("Gold"), 6), (.steer(.pause), 7), (.steer(.resume), 9),
            (.checkIn(team: "Gold", code: "FRDG"), 10),
            (.answer(team: "Gold", text: "dog"), 11), (.steer(.end), 12),
        ]
        func play() throws -> (Game, [[Game.Effect]]) {
            var game = try Game(
                hunt: threeStations, teams: ["Red", "Blue"], settings: HuntSettings(order: .staggered), seed: 77)
            var effects: [[Game.Effect]] = []
            for (event, at) in events {
                do {
                    effects.append(try game.apply(event, at: s(at)))
                } catch {
                    effects.append([])  // a refusal replays as a refusal
                }
            }
            return (game, effects)
        }
        let (first, firstEffects) = try play()
        let (second, secondEffects) = try play()
        #expect(first == second)
        #expect(firstEffects == secondEffects)
        #expect(first.phase == .finished)
        let decoded = try JSONDecoder().decode([Game.Event].self, from: JSONEncoder().encode(events.map(\.0)))
        #expect(decoded == events.map(\.0))
        // The game itself survives a JSON round trip (the host never needs it, but equality must hold).
        let copy = try JSONDecoder().decode(Game.self, from: JSONEncoder().encode(first))
        #expect(copy == first)
    }
}
