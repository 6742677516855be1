import Common
import Foundation
import Testing

@testable import Rules

/// Let Me Fly's rules: the physics, the meter, catch windows, streaks, challenges, achievements, rounds and replay,
/// all with injected instants.
@Suite struct LetMeFlyTests {
    // MARK: Helpers

    static let brick = FlyPhone.builtin[0]
    static let flagship = FlyPhone.builtin[4]

    private func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    /// A started game at instant 0 with players Ann (Red), Bob (Blue) and, if asked, Cy (Red).
    private func started(
        _ names: [String] = ["Ann", "Bob"], settings: FlySettings = FlySettings(), earned: [String: [String]] = [:]
    ) throws -> LetMeFly {
        let teams = ["Ann": "Red", "Bob": "Blue", "Cy": "Red"]
        var game = try LetMeFly(
            entrants: names.map { FlyEntrant(name: $0, team: teams[$0] ?? $0, earned: earned[$0] ?? []) },
            settings: settings)
        _ = try game.apply(.start, at: at(0))
        return game
    }

    /// The instant in the round opened at `sweepStart` when the meter reads `permille` on its way up (first sweep).
    private func rising(_ permille: Int64, from sweepStart: Instant = Instant(milliseconds: 0), period: Int64 = 1600)
        -> Instant
    {
        sweepStart.advanced(byMilliseconds: permille * period / 2000)
    }

    /// Throws for `name` at `press` and returns the throw.
    @discardableResult
    private func throwPhone(_ game: inout LetMeFly, _ name: String, at press: Instant) throws -> FlyThrow {
        let effects = try game.apply(.throwPhone(player: name, pressedAt: press), at: press)
        for case .thrown(let thrown) in effects { return thrown }
        Issue.record("no throw in \(effects)")
        throw RuleError(.wrongPhase, "no throw")
    }

    /// Catches `name`'s phone `offset` ms from its landing and returns the result.
    @discardableResult
    private func catchPhone(_ game: inout LetMeFly, _ name: String, offset: Int64) throws -> FlyCatch {
        guard case .inAir(let thrown)? = game.player(named: name)?.turn else {
            Issue.record("\(name) has nothing in the air")
            throw RuleError(.notInAir, "nothing up")
        }
        let press = thrown.landsAt.advanced(byMilliseconds: offset)
        let effects = try game.apply(.catchPhone(player: name, pressedAt: press), at: max(press, thrown.pressedAt))
        for case .caught(let result) in effects { return result }
        Issue.record("no catch in \(effects)")
        throw RuleError(.wrongPhase, "no catch")
    }

    private func expectRefusal(
        _ code: ErrorCode, _ game: inout LetMeFly, _ event: LetMeFly.Event, at now: Instant,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = game
        do {
            let effects = try game.apply(event, at: now)
            Issue.record("expected \(code), got \(effects)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(game == before, "a refused event changes nothing", sourceLocation: sourceLocation)
    }

    private func achievements(_ effects: [LetMeFly.Effect]) -> [FlyAchievement] {
        effects.compactMap { if case .achievement(_, let earned) = $0 { earned } else { nil } }
    }

    // MARK: Physics

    @Test func heightsFollowHalfGTimesHalfTheAirTimeSquared() {
        #expect(FlyPhysics.heightMillimetres(airMs: 2000) == 4905, "2.0 s of air gives 4.905 m")
        #expect(FlyPhysics.heightMillimetres(airMs: 0) == 0)
        #expect(FlyPhysics.heightMillimetres(airMs: 1000) == 1226)  // 0.5 · 9.81 · 0.25 = 1.22625
        #expect(FlyPhysics.heightMillimetres(airMs: 4000) == 19620)
        // t = 2v/g: 20 m/s is 4.0775 s up and down and 20.38 m high (v²/2g).
        let air = FlyPhysics.airMilliseconds(speed: 20)
        #expect(air == 4077)
        #expect(FlyPhysics.heightMillimetres(airMs: air) == 20383)
        #expect(FlyPhysics.launchSpeed(powerPermille: 500, topSpeed: 20) == 10)
        #expect(FlyPhysics.airMilliseconds(speed: 9.81) == 2000)
        #expect(FlyPhysics.metres(4905) == "4.91 m")
        #expect(FlyPhysics.metres(12_400) == "12.40 m")
        #expect(FlyPhysics.metres(20) == "0.02 m")
    }

    @Test func powerIsReadOffTheSweepAtBothEndsAndTheMiddle() {
        let start = at(10_000)
        func power(_ after: Int64) -> Int {
            FlyPhysics.powerPermille(at: start.advanced(byMilliseconds: after), sweepStart: start, periodMs: 1600)
        }
        #expect(power(0) == 0, "the sweep starts empty")
        #expect(power(800) == 1000, "full at half a period")
        #expect(power(1600) == 0, "empty again after a whole period")
        #expect(power(400) == 500)
        #expect(power(1200) == 500, "on the way down")
        #expect(power(2400) == 1000, "and it keeps sweeping")
        #expect(power(-300) == 0, "nothing before the sweep starts")
        #expect(power(1) == 1)  // 2000/1600 = 1.25 permille a millisecond, rounded
        #expect(power(799) == 999)
    }

    @Test func aThrowAtFullPowerFliesFourSecondsAndTwentyMetres() throws {
        var game = try started()
        let thrown = try throwPhone(&game, "Ann", at: at(800))
        #expect(thrown.powerPermille == 1000)
        #expect(thrown.airMs == 4077)
        #expect(thrown.heightMm == 20383)
        #expect(thrown.landsAt == at(800 + 4077))
        #expect(thrown.phone == "midrange", "who picks nothing throws the middle phone")
    }

    // MARK: Catch windows

    @Test(arguments: FlyPhone.builtin)
    func catchWindowsAtTheirEdges(phone: FlyPhone) throws {
        let window = phone.catchWindowMs
        let cases: [(Int64, FlyQuality)] = [
            (0, .clean), (window, .clean), (-window, .clean), (window + 1, .fumbled), (-window - 1, .fumbled),
            (2 * window, .fumbled), (-2 * window, .fumbled), (2 * window + 1, .dropped), (-2 * window - 1, .dropped),
        ]
        for (offset, expected) in cases {
            #expect(FlyPhysics.quality(offsetMs: offset, windowMs: window) == expected, "\(phone.id) at \(offset)")
            var game = try started(["Ann"])
            _ = try game.apply(.pickPhone(player: "Ann", phone: phone.id), at: at(10))
            try throwPhone(&game, "Ann", at: rising(600))
            let result = try catchPhone(&game, "Ann", offset: offset)
            #expect(result.quality == expected, "\(phone.id) caught \(offset) ms from the landing")
            #expect(result.offsetMs == offset)
        }
        #expect(FlyPhysics.quality(offsetMs: nil, windowMs: window) == .dropped)
    }

    @Test func anUncaughtPhoneIsDroppedOneSecondAfterLanding() throws {
        var game = try started(["Ann", "Bob"])
        let thrown = try throwPhone(&game, "Ann", at: rising(600))
        let grace = thrown.landsAt.advanced(byMilliseconds: FlyPhysics.catchGraceMs)
        #expect(game.nextDeadline == grace)
        #expect(try game.apply(.tick, at: grace.advanced(byMilliseconds: -1)).isEmpty)
        let effects = try game.apply(.tick, at: grace)
        guard case .caught(let result)? = effects.first else {
            Issue.record("no drop in \(effects)")
            return
        }
        #expect(result.quality == .dropped)
        #expect(result.offsetMs == nil)
        #expect(result.points == 0)
        expectRefusal(.notInAir, &game, .catchPhone(player: "Ann", pressedAt: grace), at: grace)
    }

    @Test func scoresMultiplyHeightPhoneAndBonusAndHalveForAFumble() throws {
        // 12.4 m with the flagship (×1.5) and a +10 % streak: 12.4 × 1.5 × 1.1 = 20.46 → 20.
        #expect(FlyPhysics.points(heightMm: 12_400, multiplierPercent: 150, bonusPercent: 110, quality: .clean) == 20)
        #expect(FlyPhysics.points(heightMm: 12_400, multiplierPercent: 150, bonusPercent: 110, quality: .fumbled) == 10)
        #expect(FlyPhysics.points(heightMm: 12_400, multiplierPercent: 150, bonusPercent: 110, quality: .dropped) == 0)
        // Halves round up: 5 m × 1.0 = 5.0; a fumble 2.5 → 3.
        #expect(FlyPhysics.points(heightMm: 5000, multiplierPercent: 100, bonusPercent: 100, quality: .fumbled) == 3)
        #expect(FlyPhysics.points(heightMm: 4905, multiplierPercent: 80, bonusPercent: 100, quality: .clean) == 4)
    }

    // MARK: Streaks

    @Test func theStreakBonusGrowsWithCleanCatchesAboveFiveMetresAndResets() throws {
        var settings = FlySettings()
        settings.rounds = 8
        settings.breakSeconds = 1
        var game = try started(["Ann"], settings: settings)
        /// Plays one round for Ann: a throw at `permille` power and a catch `offset` ms from the landing.
        func round(_ permille: Int64, offset: Int64?) throws -> FlyCatch {
            let sweep = try #require(game.sweepStart)
            try throwPhone(&game, "Ann", at: rising(permille, from: sweep))
            let result: FlyCatch
            if let offset {
                result = try catchPhone(&game, "Ann", offset: offset)
            } else {
                let due = try #require(game.nextDeadline)
                let effects = try game.apply(.tick, at: due)
                result = try #require(effects.compactMap { if case .caught(let r) = $0 { r } else { nil } }.first)
            }
            if let next = game.nextRoundAt { _ = try game.apply(.tick, at: next) }
            return result
        }
        let first = try round(800, offset: 0)  // 16 m/s: 10.45 m
        #expect(first.bonusPercent == 100 && first.streak == 1)
        let second = try round(800, offset: 10)
        #expect(second.bonusPercent == 110 && second.streak == 2)
        let low = try round(300, offset: 0)  // 6 m/s: 1.83 m, clean but too low to count
        #expect(low.bonusPercent == 120 && low.streak == 2)
        let third = try round(800, offset: -5)
        #expect(third.bonusPercent == 120 && third.streak == 3)
        #expect(
            third.points
                == FlyPhysics.points(
                    heightMm: third.thrown.heightMm, multiplierPercent: 100,
                    bonusPercent: 120, quality: .clean))
        let fumble = try round(800, offset: 200)  // midrange window 150: a fumble
        #expect(fumble.quality == .fumbled && fumble.bonusPercent == 130 && fumble.streak == 0)
        let afterFumble = try round(800, offset: 0)
        #expect(afterFumble.bonusPercent == 100 && afterFumble.streak == 1)
        let drop = try round(800, offset: nil)
        #expect(drop.quality == .dropped && drop.streak == 0 && drop.points == 0)
        let afterDrop = try round(800, offset: 0)
        #expect(afterDrop.bonusPercent == 100)
        #expect(
            game.player(named: "Ann")?.score
                == [first, second, low, third, fumble, afterFumble, drop, afterDrop]
                .map(\.points).reduce(0, +))
    }

    // MARK: Phones

    @Test func phonesArePickedBeforeTheFirstThrowAndThenKept() throws {
        var game = try started()
        expectRefusal(.unknownPhone, &game, .pickPhone(player: "Ann", phone: "toaster"), at: at(5))
        expectRefusal(.unknownPlayer, &game, .pickPhone(player: "Zed", phone: "brick"), at: at(5))
        #expect(
            try game.apply(.pickPhone(player: "ann", phone: "FLAGSHIP"), at: at(5))
                == [.phonePicked(player: "Ann", phone: "flagship")])
        let thrown = try throwPhone(&game, "Ann", at: at(400))
        #expect(thrown.phone == "flagship")
        expectRefusal(.phoneLocked, &game, .pickPhone(player: "Ann", phone: "brick"), at: at(500))
        #expect(game.standings.first { $0.player == "Bob" }?.phone == "midrange")
        #expect(FlyPhone.builtin.count >= 4)
        #expect(FlyPhone.builtin.first!.multiplierPercent < FlyPhone.builtin.last!.multiplierPercent)
        #expect(FlyPhone.builtin.first!.catchWindowMs > FlyPhone.builtin.last!.catchWindowMs)
        #expect(LetMeFlyTests.flagship.multiplierText == "×1.5" && LetMeFlyTests.brick.multiplierText == "×0.8")
    }

    // MARK: Rounds

    @Test func aRoundEndsWhenEveryoneCaughtOrDroppedBeforeItsClock() throws {
        var game = try started(["Ann", "Bob"])
        try throwPhone(&game, "Ann", at: at(400))
        try catchPhone(&game, "Ann", offset: 0)
        #expect(game.phase == .throwing, "Bob may still throw")
        let thrown = try throwPhone(&game, "Bob", at: at(5000))
        let effects = try game.apply(.catchPhone(player: "Bob", pressedAt: thrown.landsAt), at: thrown.landsAt)
        guard case .roundOver(let summary)? = effects.first(where: { if case .roundOver = $0 { true } else { false } })
        else {
            Issue.record("the round did not end: \(effects)")
            return
        }
        #expect(summary.number == 1 && summary.missed.isEmpty && !summary.isLast)
        #expect(summary.nextRoundAt == thrown.landsAt.advanced(bySeconds: 5))
        #expect(game.phase == .between)
        // The break ends with the next round, its meter starting afresh.
        let opened = try game.apply(.tick, at: try #require(summary.nextRoundAt))
        #expect(opened.first == .round(try #require(game.currentRound)))
        #expect(game.roundNumber == 2 && game.sweepStart == summary.nextRoundAt)
    }

    @Test func whenTheClockRunsOutWhoDidNotThrowMissesAndPhonesUpStillComeDown() throws {
        var game = try started(["Ann", "Bob"])
        let deadline = try #require(game.roundDeadline)
        #expect(deadline == at(30_000))
        let thrown = try throwPhone(&game, "Ann", at: at(29_000))
        let effects = try game.apply(.tick, at: deadline)
        #expect(effects == [.timeUp(round: 1, missed: ["Bob"])])
        #expect(game.phase == .landing, "Ann's phone is still up")
        expectRefusal(.roundClosed, &game, .throwPhone(player: "Bob", pressedAt: deadline), at: deadline)
        let landing = try game.apply(.catchPhone(player: "Ann", pressedAt: thrown.landsAt), at: thrown.landsAt)
        let summary = landing.compactMap { if case .roundOver(let s) = $0 { s } else { nil } }.first
        #expect(summary?.missed == ["Bob"])
        #expect(game.player(named: "Bob")?.score == 0)
    }

    @Test func aThrowPressedInTimeButArrivingLateStillCounts() throws {
        var game = try started(["Ann"])
        // Stamped 20 ms before the clock ran out, read 30 ms after: the press counts, like a buzz.
        let effects = try game.apply(.throwPhone(player: "Ann", pressedAt: at(29_980)), at: at(30_030))
        #expect(effects.contains { if case .thrown = $0 { true } else { false } })
        // A press stamped before the round opened counts from the opening (power 0).
        var other = try started(["Ann"])
        let thrown = try other.apply(.throwPhone(player: "Ann", pressedAt: at(-200)), at: at(10))
        #expect(
            thrown.first
                == .thrown(
                    try #require(
                        other.player(named: "Ann").flatMap {
                            if case .inAir(let up) = $0.turn { up } else { nil }
                        })))
        guard case .inAir(let early)? = other.player(named: "Ann")?.turn else { return }
        #expect(early.pressedAt == at(0) && early.powerPermille == 0 && early.heightMm == 0)
    }

    @Test func oneThrowARoundAndCatchesOnlyForPhonesInTheAir() throws {
        var game = try started()
        expectRefusal(.notInAir, &game, .catchPhone(player: "Ann", pressedAt: at(100)), at: at(100))
        try throwPhone(&game, "Ann", at: at(300))
        expectRefusal(.alreadyThrown, &game, .throwPhone(player: "Ann", pressedAt: at(400)), at: at(400))
        try catchPhone(&game, "Ann", offset: 0)
        expectRefusal(.notInAir, &game, .catchPhone(player: "Ann", pressedAt: at(5000)), at: at(5000))
        expectRefusal(.unknownPlayer, &game, .throwPhone(player: "Zed", pressedAt: at(400)), at: at(400))
    }

    @Test func nextClosesThrowingPauseFreezesTheClockAndEndFinishes() throws {
        var game = try started(["Ann", "Bob"])
        _ = try game.apply(.steer(.pause), at: at(10_000))
        expectRefusal(.paused, &game, .throwPhone(player: "Ann", pressedAt: at(11_000)), at: at(11_000))
        expectRefusal(.alreadyPaused, &game, .steer(.pause), at: at(11_000))
        #expect(game.nextDeadline == nil, "nothing runs while paused with no phone up")
        let resumed = try game.apply(.steer(.resume), at: at(15_000))
        #expect(game.roundDeadline == at(35_000), "five paused seconds added")
        #expect(game.sweepStart == at(5000), "the meter continues where it stood")
        #expect(resumed.first == .resumed(round: game.currentRound, nextRoundAt: nil))
        try throwPhone(&game, "Ann", at: at(16_000))
        let closed = try game.apply(.steer(.next), at: at(16_500))
        #expect(closed == [.timeUp(round: 1, missed: ["Bob"])])
        expectRefusal(.roundRunning, &game, .steer(.next), at: at(16_600))
        let ended = try game.apply(.steer(.end), at: at(17_000))
        #expect(ended == [.finished(players: game.standings, teams: game.teamStandings)])
        #expect(game.phase == .finished && game.nextDeadline == nil)
        expectRefusal(.gameOver, &game, .tick, at: at(18_000))
    }

    @Test func theLastRoundEndsTheGameWithPlayerAndTeamRankings() throws {
        var settings = FlySettings()
        settings.rounds = 1
        var game = try started(["Ann", "Bob", "Cy"], settings: settings)
        for (name, permille) in [("Ann", Int64(900)), ("Bob", 500), ("Cy", 700)] {
            try throwPhone(&game, name, at: rising(permille))
            try catchPhone(&game, name, offset: name == "Bob" ? 10_000 : 0)
        }
        #expect(game.phase == .finished)
        let standings = game.standings
        #expect(standings.map(\.player) == ["Ann", "Cy", "Bob"])
        #expect(standings.map(\.rank) == [1, 2, 3])
        let red = try #require(game.teamStandings.first)
        #expect(red.team == "Red" && red.rank == 1)
        #expect(red.score == standings[0].score + standings[1].score, "a team scores its players' sum")
        #expect(game.teamStandings.last?.score == 0)
    }

    @Test func playersJoinAndLeaveMidGame() throws {
        var game = try started(["Ann"])
        #expect(
            try game.apply(.addPlayer(FlyEntrant(name: "Dee", team: "Gold")), at: at(100))
                == [.playerAdded(FlyEntrant(name: "Dee", team: "Gold"))])
        expectRefusal(.duplicatePlayer, &game, .addPlayer(FlyEntrant(name: "dee", team: "X")), at: at(100))
        try throwPhone(&game, "Ann", at: at(400))
        try catchPhone(&game, "Ann", offset: 0)
        #expect(game.phase == .throwing, "Dee may still throw")
        let effects = try game.apply(.removePlayer("Dee"), at: at(9000))
        #expect(effects.contains { if case .roundOver = $0 { true } else { false } }, "nobody else is waiting")
        expectRefusal(.unknownPlayer, &game, .pickPhone(player: "Dee", phone: "brick"), at: at(9000))
    }

    @Test func aRoundWaitsForThePlayersWhoAreHereAndNotForOneWhoDropped() throws {
        var game = try started(["Ann", "Bob", "Cy"])
        try throwPhone(&game, "Ann", at: at(400))
        try catchPhone(&game, "Ann", offset: 0)
        // Bob's connection drops before he throws: the round now waits for Cy only.
        #expect(try game.apply(.playerAway("Bob"), at: at(2000)).isEmpty)
        expectRefusal(.wrongPhase, &game, .playerAway("bob"), at: at(2000))
        try throwPhone(&game, "Cy", at: at(2400))
        guard case .inAir(let thrown)? = game.player(named: "Cy")?.turn else { throw RuleError(.notInAir, "") }
        let landing = thrown.landsAt
        let effects = try game.apply(.catchPhone(player: "Cy", pressedAt: landing), at: landing)
        let over = effects.compactMap { effect -> FlyRoundSummary? in
            if case .roundOver(let summary) = effect { summary } else { nil }
        }
        #expect(over.map(\.missed) == [["Bob"]], "the round ended without Bob, who missed it")
        #expect(game.player(named: "Bob")?.isActive == true, "Bob keeps his place")

        // Back in round 2, Bob is waited for again; he may throw as before.
        _ = try game.apply(.steer(.next), at: at(20_000))
        #expect(try game.apply(.playerBack("Bob"), at: at(20_100)).isEmpty)
        expectRefusal(.wrongPhase, &game, .playerBack("Bob"), at: at(20_100))
        for name in ["Ann", "Cy"] {
            try throwPhone(&game, name, at: at(20_400))
            try catchPhone(&game, name, offset: 0)
        }
        #expect(game.phase == .throwing, "the round waits for Bob")
        try throwPhone(&game, "Bob", at: at(25_000))
        try catchPhone(&game, "Bob", offset: 0)
        #expect(game.phase == .between)
    }

    @Test func aPlayerAwayMayStillThrowIfBackInTimeAndEveryoneAwayLeavesItToTheClock() throws {
        var game = try started(["Ann", "Bob"])
        _ = try game.apply(.playerAway("Ann"), at: at(100))
        _ = try game.apply(.playerAway("Bob"), at: at(200))
        #expect(game.phase == .throwing, "nobody is here: the round's clock decides, not an empty room")
        _ = try game.apply(.playerBack("Ann"), at: at(1000))
        try throwPhone(&game, "Ann", at: at(1200))
        try catchPhone(&game, "Ann", offset: 0)
        #expect(game.phase == .between, "Bob is away: not waited for")
        #expect(game.lastSummary?.missed == ["Bob"])
        expectRefusal(.unknownPlayer, &game, .playerAway("Zed"), at: at(30_000))
    }

    // MARK: Challenges

    @Test func challengesAreSettledByTheChallengedPlayersNextThrow() throws {
        var settings = FlySettings()
        settings.rounds = 3
        var game = try started(["Ann", "Bob"], settings: settings)
        expectRefusal(.noHeight, &game, .challenge(from: "Ann", to: "Bob"), at: at(10))
        let ann = try throwPhone(&game, "Ann", at: rising(700))
        try catchPhone(&game, "Ann", offset: 0)
        expectRefusal(.badChallenge, &game, .challenge(from: "Ann", to: "ann"), at: at(10))
        expectRefusal(.unknownPlayer, &game, .challenge(from: "Ann", to: "Zed"), at: at(10))
        // Bob's phone is already up when Ann challenges: that throw does not settle it.
        let up = try throwPhone(&game, "Bob", at: rising(900))
        let made = try game.apply(.challenge(from: "Ann", to: "bob"), at: up.pressedAt)
        #expect(made == [.challenged(FlyChallenge(from: "Ann", to: "Bob", heightMm: ann.heightMm, sinceThrows: 1))])
        let first = try game.apply(.catchPhone(player: "Bob", pressedAt: up.landsAt), at: up.landsAt)
        #expect(!first.contains { if case .challengeSettled = $0 { true } else { false } })
        // Round 2: Bob throws higher and catches: beaten, and an achievement.
        _ = try game.apply(.tick, at: try #require(game.nextRoundAt))
        let sweep = try #require(game.sweepStart)
        let higher = try throwPhone(&game, "Bob", at: rising(950, from: sweep))
        let settled = try game.apply(.catchPhone(player: "Bob", pressedAt: higher.landsAt), at: higher.landsAt)
        let result = settled.compactMap { if case .challengeSettled(let r) = $0 { r } else { nil } }.first
        #expect(
            result?.won == true && result?.heightMm == higher.heightMm && result?.challenge.heightMm == ann.heightMm)
        #expect(achievements(settled).contains(.challengeWon))
        #expect(game.challenges.isEmpty)
        // Round 3: challenged again, Bob throws higher but drops it: not beaten.
        try throwPhone(&game, "Ann", at: rising(700, from: sweep))
        try catchPhone(&game, "Ann", offset: 0)
        _ = try game.apply(.tick, at: try #require(game.nextRoundAt))
        let third = try #require(game.sweepStart)
        _ = try game.apply(.challenge(from: "Ann", to: "Bob"), at: third)
        let dropped = try throwPhone(&game, "Bob", at: rising(1000, from: third))
        let lost = try game.apply(.tick, at: dropped.landsAt.advanced(byMilliseconds: FlyPhysics.catchGraceMs))
        let outcome = lost.compactMap { if case .challengeSettled(let r) = $0 { r } else { nil } }.first
        #expect(outcome?.won == false && outcome?.quality == .dropped)
    }

    // MARK: Achievements

    @Test func achievementsAreEarnedOnceEverAndAnnouncedWhenEarned() throws {
        var settings = FlySettings()
        settings.rounds = 6
        settings.breakSeconds = 1
        var game = try started(["Ann"], settings: settings, earned: ["Ann": ["club5", "someFutureBadge"]])
        var earned: [FlyAchievement] = []
        func round(_ permille: Int64, offset: Int64?) throws {
            let sweep = try #require(game.sweepStart)
            let press = rising(permille, from: sweep)
            let effects = try game.apply(.throwPhone(player: "Ann", pressedAt: press), at: press)
            earned += achievements(effects)
            let thrown = try #require(effects.compactMap { if case .thrown(let t) = $0 { t } else { nil } }.first)
            let landing: [LetMeFly.Effect]
            if let offset {
                let catchAt = thrown.landsAt.advanced(byMilliseconds: offset)
                landing = try game.apply(.catchPhone(player: "Ann", pressedAt: catchAt), at: catchAt)
            } else {
                landing = try game.apply(.tick, at: thrown.landsAt.advanced(byMilliseconds: FlyPhysics.catchGraceMs))
            }
            earned += achievements(landing)
            if let next = game.nextRoundAt { _ = try game.apply(.tick, at: next) }
        }
        try round(1000, offset: 15)  // 20.38 m, perfect: first catch, clubs 10 and 20 (5 already held)
        #expect(earned == [.fullPower, .firstCatch, .club10, .club20, .perfectCatch])
        earned = []
        try round(1000, offset: 50)
        #expect(earned.isEmpty, "nothing is earned twice")
        try round(900, offset: 0)
        #expect(earned == [.safeHands], "three clean catches in a row")
        earned = []
        try round(500, offset: nil)
        try round(500, offset: nil)
        #expect(earned.isEmpty)
        try round(500, offset: 1000)
        #expect(earned == [.butterfingers], "the third drop of the game")
        #expect(game.player(named: "Ann")?.earned.contains("someFutureBadge") == true, "unknown ids are kept")
        #expect(FlyAchievement.allCases.count >= 8)
        #expect(Set(FlyAchievement.allCases.map(\.title)).count == FlyAchievement.allCases.count)
    }

    @Test func catchAchievementsNeedARealFlight() throws {
        var settings = FlySettings()
        settings.rounds = 6
        settings.breakSeconds = 1
        var game = try started(["Ann"], settings: settings)
        var earned: [FlyAchievement] = []
        func round(_ permille: Int64) throws -> FlyThrow {
            let sweep = try #require(game.sweepStart)
            let press = rising(permille, from: sweep)
            earned += achievements(try game.apply(.throwPhone(player: "Ann", pressedAt: press), at: press))
            guard case .inAir(let thrown)? = game.player(named: "Ann")?.turn else { throw RuleError(.notInAir, "-") }
            earned += achievements(
                try game.apply(.catchPhone(player: "Ann", pressedAt: thrown.landsAt), at: thrown.landsAt))
            if let next = game.nextRoundAt { _ = try game.apply(.tick, at: next) }
            return thrown
        }
        // Three 0 % throws (0 m, 0 ms up) caught at once, perfectly and cleanly: no skill, nothing earned.
        for _ in 0..<3 { #expect(try round(0).heightMm == 0) }
        #expect(earned.isEmpty, "\(earned)")
        #expect(game.player(named: "Ann")?.score == 0)
        // 23 % of 20 m/s flies 1.08 m: a real flight.
        let real = try round(230)
        #expect(real.heightMm >= FlyPhysics.realFlightMm && real.heightMm < 1100)
        #expect(earned == [.firstCatch, .perfectCatch])
        earned = []
        _ = try round(300)
        _ = try round(300)
        #expect(earned == [.safeHands], "three clean real flights in a row")
    }

    @Test func aPhoneUpWhenTheHostStoppedHangsUntilItsThrowerIsBack() throws {
        var game = try started(["Ann", "Bob"])
        let up = try throwPhone(&game, "Ann", at: rising(900))
        let bobs = try throwPhone(&game, "Bob", at: rising(950))
        // The host stops 500 ms after Ann's press and starts again; everyone is away until they come back.
        let restart = up.pressedAt.advanced(byMilliseconds: 500)
        #expect(try game.apply(.hostRestarted, at: restart).isEmpty)
        _ = try game.apply(.playerAway("Ann"), at: restart)
        _ = try game.apply(.playerAway("Bob"), at: restart)
        let hold = restart.advanced(byMilliseconds: FlyPhysics.restartHoldMs)
        #expect(game.nextDeadline == hold, "no landing is due, and the round's clock waits")
        #expect(game.isPaused && game.isHeldForRestart)
        let roundDeadline = try #require(game.roundDeadline)
        // Long after the landings nothing has come down: the phones hang.
        let late = bobs.landsAt.advanced(byMilliseconds: 5000)
        #expect(!(try game.apply(.tick, at: late)).contains { if case .caught = $0 { true } else { false } })
        // Ann is back: her phone flies on with as long as it had left, and she catches it at its new landing.
        let effects = try game.apply(.playerBack("Ann"), at: late)
        #expect(game.roundDeadline == roundDeadline.advanced(byMilliseconds: restart.milliseconds(until: late)))
        #expect(!game.isPaused && !game.isHeldForRestart)
        guard case .backInAir(let again)? = effects.last else {
            Issue.record("not back in the air: \(effects)")
            return
        }
        #expect(again.landsAt == late.advanced(byMilliseconds: restart.milliseconds(until: up.landsAt)))
        #expect(again.heightMm == up.heightMm && again.airMs == up.airMs)
        #expect(try catchPhone(&game, "Ann", offset: 0).quality == .clean)
        // Bob never comes back: after the hold his phone flies on (with at least 3 s) and comes down without him.
        let released = try game.apply(.tick, at: hold)
        guard case .backInAir(let bobsAgain)? = released.first else {
            Issue.record("Bob's phone does not fly on: \(released)")
            return
        }
        #expect(bobsAgain.landsAt >= hold.advanced(byMilliseconds: FlyPhysics.restartLeftMs))
        let grace = bobsAgain.landsAt.advanced(byMilliseconds: FlyPhysics.catchGraceMs)
        let dropped = try game.apply(.tick, at: grace)
        #expect(dropped.contains { if case .caught(let result) = $0 { result.quality == .dropped } else { false } })
        #expect(game.phase == .between, "the round ends once both phones are down")
    }

    @Test func theDaredevilAndARollNeedTheFlagshipAndAStreak() throws {
        var settings = FlySettings()
        settings.rounds = 5
        settings.breakSeconds = 1
        var game = try started(["Ann"], settings: settings)
        _ = try game.apply(.pickPhone(player: "Ann", phone: "flagship"), at: at(1))
        var earned: [FlyAchievement] = []
        for _ in 0..<5 {
            let sweep = try #require(game.sweepStart)
            let press = rising(750, from: sweep)  // 15 m/s: 11.47 m
            earned += achievements(try game.apply(.throwPhone(player: "Ann", pressedAt: press), at: press))
            guard case .inAir(let thrown)? = game.player(named: "Ann")?.turn else { return }
            earned += achievements(
                try game.apply(.catchPhone(player: "Ann", pressedAt: thrown.landsAt), at: thrown.landsAt))
            if let next = game.nextRoundAt { _ = try game.apply(.tick, at: next) }
        }
        #expect(earned.contains(.daredevil))
        #expect(earned.contains(.onARoll), "five clean catches above 5 m")
        #expect(game.player(named: "Ann")?.streak == 5)
    }

    // MARK: Replay

    @Test func replayingTheJournaledEventsGivesTheSameGame() throws {
        var settings = FlySettings()
        settings.rounds = 2
        let entrants = [FlyEntrant(name: "Ann", team: "Red"), FlyEntrant(name: "Bob", team: "Blue", earned: ["club5"])]
        var live = try LetMeFly(entrants: entrants, settings: settings)
        var journal: [(LetMeFly.Event, Instant)] = []
        func play(_ event: LetMeFly.Event, _ when: Int64) {
            if (try? live.apply(event, at: at(when))) != nil { journal.append((event, at(when))) }
        }
        play(.start, 0)
        play(.pickPhone(player: "Bob", phone: "pro"), 50)
        play(.throwPhone(player: "Ann", pressedAt: at(700)), 705)
        play(.throwPhone(player: "Bob", pressedAt: at(1100)), 1110)
        play(.challenge(from: "Ann", to: "Bob"), 1200)
        play(.catchPhone(player: "Ann", pressedAt: at(4200)), 4210)
        play(.tick, 6000)
        play(.addPlayer(FlyEntrant(name: "Cy", team: "Red")), 6500)
        play(.steer(.pause), 7000)
        play(.steer(.resume), 9000)
        play(.tick, 30_000)
        play(.steer(.next), 30_100)
        #expect(journal.count >= 10)
        // Through JSON, as the journal keeps them.
        var replayed = try LetMeFly(entrants: entrants, settings: settings)
        for (event, when) in journal {
            let decoded = try JSONCoding.decode(LetMeFly.Event.self, from: try JSONCoding.encode(event))
            #expect(decoded == event)
            _ = try replayed.apply(decoded, at: when)
        }
        #expect(replayed == live)
        #expect(replayed.results == live.results && !live.results.isEmpty)
    }

    // MARK: Leaderboards

    @Test func leaderboardsRankBestCaughtThrowsPerPlayerAndPerPhone() {
        func record(_ player: String, _ phone: String, _ height: Int, _ quality: FlyQuality, _ date: String)
            -> FlyRecord
        {
            FlyRecord(
                game: "g", round: 1, player: player, team: player, phone: phone, heightMm: height, airMs: 0,
                quality: quality, points: height / 1000, date: date)
        }
        let records = [
            record("Ann", "brick", 8000, .clean, "2024-01-01T20:00:00Z"),
            record("ann", "flagship", 12_000, .fumbled, "2025-06-14T21:00:00Z"),
            record("Bob", "flagship", 19_000, .dropped, "2025-06-14T21:01:00Z"),
            record("Bob", "pro", 12_000, .clean, "2025-06-14T21:02:00Z"),
            record("Cy", "brick", 3000, .clean, "2025-06-14T21:03:00Z"),
        ]
        let players = FlyLeaderboard.players(records)
        #expect(players.map(\.player) == ["ann", "Bob", "Cy"], "dropped throws never count; ties: earlier first")
        #expect(players.map(\.rank) == [1, 1, 3])
        #expect(players.first?.phone == "flagship")
        #expect(FlyLeaderboard.players(records, limit: 1).count == 1)
        let phones = FlyLeaderboard.phones(records)
        #expect(phones.map(\.phone) == ["flagship", "pro", "brick"], "equal bests: the earlier first")
        #expect(phones.map(\.rank) == [1, 1, 3])
        #expect(phones.first?.throwCount == 2 && phones.first?.caughtCount == 1 && phones.first?.player == "ann")
        let tonight = FlyLeaderboard.since("2025-06-14T00:00:00Z", records)
        #expect(tonight.count == 4)
        #expect(FlyLeaderboard.players(tonight).first { $0.player.lowercased() == "ann" }?.heightMm == 12_000)
        let lines = FlyLeaderboard.lines(
            title: "All-time", players: players, phones: phones, phoneNames: ["flagship": "Flagship"])
        #expect(lines.first == "All-time — players")
        #expect(lines.contains { $0.contains("12.00 m") && $0.contains("Flagship") && $0.contains("2025-06-14") })
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(FlyLeaderboard.lines(title: "Tonight", players: [], phones: []).contains("  (no caught throws yet)"))
    }
}
