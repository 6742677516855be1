import Foundation
import Testing

@testable import Rules

@Suite struct QueenGameTests {
    // MARK: - Helpers

    private func names(_ count: Int) -> [String] { (1...count).map { "P\($0)" } }

    private func at(_ seconds: Int) -> Instant { Instant(milliseconds: Int64(seconds) * 1000) }

    private func makeGame(
        players: Int = 4, settings: QueenSettings = QueenSettings(),
        commands: [QueenCommand] = [], seed: UInt64 = 1
    ) throws(RuleError) -> QueenGame {
        try QueenGame(players: names(players), settings: settings, commands: commands, seed: seed)
    }

    /// Expects `body` to throw a RuleError with `code` and to leave the game unchanged.
    private func expectRefusal(
        _ code: String, _ game: inout QueenGame, _ event: QueenGame.Event, at now: Instant,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = game
        do {
            let effects = try game.apply(event, at: now)
            Issue.record("expected \(code), got \(effects)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code.rawValue == code, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(game == before, "a refused event changes nothing", sourceLocation: sourceLocation)
    }

    private func initError(_ body: () throws(RuleError) -> QueenGame) -> RuleError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// Plays `rounds` full rounds (deal, a one-number command, reveal) and returns each dealt round.
    private func playRounds(players: Int, rounds: Int, seed: UInt64) throws -> [QueenRound] {
        var game = try makeGame(players: players, seed: seed)
        var now = at(0)
        var dealt: [QueenRound] = []
        dealt.reserveCapacity(rounds)
        for _ in 0..<rounds {
            _ = try game.apply(.next, at: now)
            let round = try #require(game.currentRound)
            dealt.append(round)
            _ = try game.apply(.command(player: round.queen, choice: .text("No. {1} waves.")), at: now)
            now = try #require(game.nextDeadline)
            _ = try game.apply(.tick, at: now)
        }
        return dealt
    }

    /// Pearson's chi-square statistic of `counts` against a uniform distribution.
    private func chiSquare(_ counts: [Int]) -> Double {
        let total = Double(counts.reduce(0, +))
        let expected = total / Double(counts.count)
        return counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
    }

    // Bounds a uniform sample exceeds with probability about 1e-7 (chi-square upper tail).
    private let chiSquareBound3 = 35.0  // 3 degrees of freedom
    private let chiSquareBound5 = 40.0  // 5 degrees of freedom
    private let chiSquareBound2 = 30.0  // 2 degrees of freedom
    private let chiSquareBound19 = 70.0  // 19 degrees of freedom

    // MARK: - Start and settings

    @Test func settingsAreValidAtTheEndsOfTheirRangesAndRefusedOnePast() {
        typealias Field = WritableKeyPath<QueenSettings, Int>
        let ranges: [(Field, ClosedRange<Int>)] = [
            (\.chooseSeconds, QueenSettings.chooseSecondsRange),
            (\.countdownSeconds, QueenSettings.countdownSecondsRange),
            (\.maxPlayers, QueenSettings.playerCountRange),
        ]
        func error(_ change: (inout QueenSettings) -> Void) -> RuleError? {
            var settings = QueenSettings()
            change(&settings)
            do {
                try settings.validate()
                return nil
            } catch { return error }
        }
        for (field, range) in ranges {
            #expect(error { $0[keyPath: field] = range.lowerBound } == nil, "\(field) \(range.lowerBound)")
            #expect(error { $0[keyPath: field] = range.upperBound } == nil, "\(field) \(range.upperBound)")
            #expect(error { $0[keyPath: field] = range.lowerBound - 1 }?.code == .badSettings, "\(field)")
            #expect(error { $0[keyPath: field] = range.upperBound + 1 }?.code == .badSettings, "\(field)")
        }
        #expect(QueenSettings.playerCountRange.upperBound == QueenSettings.playerLimit)
        let next = QueenSettings.autoNextSecondsRange
        #expect(error { $0.autoNextSeconds = next.lowerBound } == nil)
        #expect(error { $0.autoNextSeconds = next.upperBound } == nil)
        #expect(error { $0.autoNextSeconds = next.upperBound + 1 }?.code == .badSettings)
        #expect(error { $0.minPlayers = 2 }?.code == .badSettings)
        #expect(
            error { $0.chooseSeconds = 0 }?.message
                == "The Queen's time to choose a command must be 1 to 3600 seconds, not 0.")
    }

    @Test func startRefusals() {
        #expect(
            initError { () throws(RuleError) in try makeGame(players: 2) }
                == RuleError(.tooFewPlayers, "The Queen's game needs at least 3 players; 2 are connected."))
        #expect(initError { () throws(RuleError) in try makeGame(players: 10) }?.code == .tooManyPlayers)
        #expect(initError { () throws(RuleError) in try makeGame(players: 9) } == nil)
        #expect(
            initError { () throws(RuleError) in try makeGame(players: 30, settings: QueenSettings(maxPlayers: 30)) }
                == nil)
        #expect(
            initError { () throws(RuleError) in try makeGame(players: 31, settings: QueenSettings(maxPlayers: 31)) }?
                .code == .badSettings)
        #expect(
            initError { () throws(RuleError) in try makeGame(players: 4, settings: QueenSettings(minPlayers: 5)) }?
                .code == .tooFewPlayers)
        #expect(
            initError { () throws(RuleError) in try makeGame(players: 4, settings: QueenSettings(minPlayers: 2)) }?
                .code == .badSettings)
        #expect(
            initError { () throws(RuleError) in try makeGame(players: 4, settings: QueenSettings(chooseSeconds: 0)) }?
                .code == .badSettings)
        #expect(
            initError { () throws(RuleError) in
                try QueenGame(players: ["Ana", "Bo", "Ana"], settings: QueenSettings(), commands: [], seed: 1)
            }?.code == .duplicatePlayer)
    }

    @Test func settingsDecodeWithDefaults() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(QueenSettings.self, from: Data("{}".utf8)) == QueenSettings())
        let custom = try decoder.decode(
            QueenSettings.self,
            from: Data(#"{"maxPlayers": 12, "autoNextSeconds": 8, "kinds": ["citizenToAll"]}"#.utf8))
        #expect(custom == QueenSettings(maxPlayers: 12, autoNextSeconds: 8, kinds: [.citizenToAll]))
        let settings = QueenSettings(minPlayers: 4, countdownSeconds: 3, difficulties: [.mild])
        #expect(try decoder.decode(QueenSettings.self, from: JSONEncoder().encode(settings)) == settings)
    }

    @Test func commandsAreFilteredBySettings() throws {
        let game = try makeGame(
            settings: QueenSettings(kinds: [.citizenToQueen, .citizenToAll], difficulties: [.bold]),
            commands: BuiltinCommands.all)
        #expect(!game.commands.isEmpty)
        #expect(game.commands.allSatisfy { $0.kind != .citizenToCitizen && $0.difficulty == .bold })
        #expect(
            game.commands.count
                == BuiltinCommands.all.filter {
                    $0.kind != .citizenToCitizen && $0.difficulty == .bold
                }.count)
    }

    // MARK: - Deal

    @Test func dealIsAPermutationOverTheCitizens() throws {
        for players in 3...12 {
            for seed in UInt64(1)...5 {
                var game = try makeGame(players: players, settings: QueenSettings(maxPlayers: 12), seed: seed)
                #expect(game.phase == .waitingForDeal && game.roundNumber == 0)
                let effects = try game.apply(.deal, at: at(3))
                let round = try #require(game.currentRound)
                let citizens = names(players).filter { $0 != round.queen }
                #expect(names(players).contains(round.queen))
                #expect(Set(round.numbers.keys) == Set(citizens))
                #expect(round.numbers.values.sorted() == Array(1..<players))
                #expect(round.salt.count == 16)
                #expect(
                    effects.first == .round(number: 1, queen: round.queen, players: names(players), salt: round.salt))
                #expect(
                    Array(effects.dropFirst())
                        == citizens.map { QueenGame.Effect.secret(player: $0, number: round.numbers[$0]!) })
                #expect(game.phase == .choosing)
                #expect(game.nextDeadline == at(63))
                #expect(game.queen == round.queen && game.number(of: round.queen) == nil)
                #expect(citizens.allSatisfy { game.number(of: $0) == round.numbers[$0] })
            }
        }
    }

    @Test func saltsDifferBetweenRounds() throws {
        let rounds = try playRounds(players: 4, rounds: 50, seed: 9)
        #expect(Set(rounds.map(\.salt)).count == 50)
        #expect(rounds.map(\.number) == Array(1...50))
    }

    @Test func queenNeverRulesTwiceInARowWithFourOrMore() throws {
        for players in [4, 5, 9] {
            let rounds = try playRounds(players: players, rounds: 400, seed: UInt64(players))
            for (previous, next) in zip(rounds, rounds.dropFirst()) {
                #expect(previous.queen != next.queen, "round \(next.number) with \(players) players")
            }
            #expect(Set(rounds.map(\.queen)) == Set(names(players)), "every player gets to rule")
        }
    }

    @Test func queenMayRepeatWithThree() throws {
        let rounds = try playRounds(players: 3, rounds: 300, seed: 3)
        let repeats = zip(rounds, rounds.dropFirst()).filter { $0.queen == $1.queen }.count
        // Uniform choice repeats a third of the time: about 100 of 299.
        #expect(repeats > 60 && repeats < 140)
    }

    @Test func queenChoiceIsUniform() throws {
        let three = try playRounds(players: 3, rounds: 3000, seed: 11)
        let counts = names(3).map { name in three.filter { $0.queen == name }.count }
        #expect(chiSquare(counts) < chiSquareBound2, "\(counts)")

        // With 5 players the next Queen is uniform among the 4 others: 20 possible transitions.
        let five = try playRounds(players: 5, rounds: 4000, seed: 12)
        var transitions: [String: Int] = [:]
        for (previous, next) in zip(five, five.dropFirst()) {
            transitions["\(previous.queen)>\(next.queen)", default: 0] += 1
        }
        let cells = names(5).flatMap { from in names(5).filter { $0 != from }.map { "\(from)>\($0)" } }
        #expect(transitions.count == 20)
        #expect(chiSquare(cells.map { transitions[$0, default: 0] }) < chiSquareBound19)
    }

    @Test func dealIsUniform() throws {
        // Which number each player holds, over the rounds they are not Queen: 4 numbers with 5 players.
        let rounds = try playRounds(players: 5, rounds: 10000, seed: 21)
        for player in names(5) {
            var counts = [0, 0, 0, 0]
            for round in rounds { if let number = round.numbers[player] { counts[number - 1] += 1 } }
            #expect(counts.reduce(0, +) > 7500)
            #expect(chiSquare(counts) < chiSquareBound3, "\(player): \(counts)")
        }
        // The whole deal: with 4 players, the 6 orders of the numbers over the 3 citizens (in roster order).
        let four = try playRounds(players: 4, rounds: 12000, seed: 22)
        var orders: [[Int]: Int] = [:]
        for round in four {
            orders[round.players.filter { $0 != round.queen }.map { round.numbers[$0]! }, default: 0] += 1
        }
        #expect(orders.count == 6)
        #expect(chiSquare(Array(orders.values)) < chiSquareBound5, "\(orders)")
    }

    @Test func biasedShufflesFailTheSameBounds() {
        // The bounds above are tight enough to catch the classic shuffle mistakes with the same sample sizes.
        var rng = SplitMix64(seed: 5)
        func naive(_ count: Int) -> [Int] {  // swaps every position with any position: not uniform
            var numbers = Array(1...count)
            for index in numbers.indices { numbers.swapAt(index, Int.random(in: 0..<count, using: &rng)) }
            return numbers
        }
        func sattolo(_ count: Int) -> [Int] {  // never leaves an element in place: only cyclic orders
            var numbers = Array(1...count)
            for index in stride(from: count - 1, to: 0, by: -1) {
                numbers.swapAt(index, Int.random(in: 0..<index, using: &rng))
            }
            return numbers
        }
        for shuffle in [naive, sattolo] {
            var first = [0, 0, 0, 0]
            for _ in 0..<8000 { first[shuffle(4)[0] - 1] += 1 }
            #expect(chiSquare(first) > chiSquareBound3, "\(first)")
            var orders: [[Int]: Int] = [:]
            for _ in 0..<12000 { orders[shuffle(3), default: 0] += 1 }
            let cells = [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]].map {
                orders[$0, default: 0]
            }
            #expect(chiSquare(cells) > chiSquareBound5, "\(cells)")
        }
    }

    @Test func dealRefusals() throws {
        var game = try makeGame(players: 3)
        _ = try game.apply(.deal, at: at(0))
        expectRefusal("round_running", &game, .deal, at: at(1))
        expectRefusal("round_running", &game, .next, at: at(1))
        let queen = try #require(game.queen)
        _ = try game.apply(.command(player: queen, choice: .text("No. {1} waves.")), at: at(2))
        expectRefusal("round_running", &game, .next, at: at(3))
        _ = try game.apply(.tick, at: at(7))
        #expect(game.phase == .revealed)
        _ = try game.apply(.removePlayer("P1"), at: at(8))
        expectRefusal("too_few_players", &game, .next, at: at(9))
    }

    // MARK: - Commands

    @Test func placeholdersAreFilledWithDistinctDealtNumbers() throws {
        var seen = Set<Int>()
        for seed in UInt64(1)...200 {
            var game = try makeGame(players: 6, seed: seed)
            _ = try game.apply(.deal, at: at(0))
            let queen = try #require(game.queen)
            let text = "No. {1} lends No. {2} a hat, No. {3} applauds, No. {1} bows to {queen}."
            let effects = try game.apply(.command(player: queen, choice: .text(text)), at: at(10))
            let order = try #require(game.currentOrder)
            #expect(order.targets.count == 3)
            #expect(Set(order.targets).count == 3, "distinct numbers")
            #expect(order.targets.allSatisfy { (1...5).contains($0) })
            let (a, b, c) = (order.targets[0], order.targets[1], order.targets[2])
            #expect(order.text == "No. \(a) lends No. \(b) a hat, No. \(c) applauds, No. \(a) bows to \(queen).")
            #expect(effects == [.order(text: order.text, targets: order.targets, revealAt: at(15))])
            #expect(game.phase == .countdown && game.nextDeadline == at(15))
            seen.formUnion(order.targets)
        }
        #expect(seen == Set(1...5), "every dealt number gets named")
    }

    @Test func queenCanUseALibraryCommand() throws {
        let commands = [
            QueenCommand(
                id: "b07", text: "No. {1} tells {queen} a riddle.", kind: .citizenToQueen,
                difficulty: .mild, isBuiltin: true)
        ]
        var game = try makeGame(players: 3, commands: commands)
        _ = try game.apply(.deal, at: at(0))
        let queen = try #require(game.queen)
        _ = try game.apply(.command(player: queen, choice: .template(id: "b07")), at: at(1))
        let order = try #require(game.currentOrder)
        #expect(order.text == "No. \(order.targets[0]) tells \(queen) a riddle.")
    }

    @Test func commandRefusals() throws {
        let commands = [
            QueenCommand(
                id: "u1", text: "No. {1}, No. {2}, No. {3} and No. {4} form a band.",
                kind: .citizenToAll, difficulty: .medium)
        ]
        var game = try makeGame(players: 4, commands: commands)
        expectRefusal("wrong_phase", &game, .command(player: "P1", choice: .text("No. {1} waves.")), at: at(0))
        _ = try game.apply(.deal, at: at(0))
        let queen = try #require(game.queen)
        let citizen = try #require(game.players.first { $0 != queen })
        expectRefusal("not_queen", &game, .command(player: citizen, choice: .text("No. {1} waves.")), at: at(1))
        expectRefusal("unknown_command", &game, .command(player: queen, choice: .template(id: "b99")), at: at(1))
        expectRefusal("empty_command", &game, .command(player: queen, choice: .text("  ")), at: at(1))
        expectRefusal("bad_placeholder", &game, .command(player: queen, choice: .text("No. {one} waves.")), at: at(1))

        let before = game
        do {
            _ = try game.apply(.command(player: queen, choice: .template(id: "u1")), at: at(1))
            Issue.record("a 4-number command was accepted with 3 numbered players")
        } catch {
            #expect(
                error
                    == RuleError(
                        .tooManyTargets,
                        "That command names 4 numbers but only 3 players hold numbers."))
        }
        #expect(game == before)

        _ = try game.apply(.command(player: queen, choice: .text("No. {1} waves.")), at: at(2))
        expectRefusal("wrong_phase", &game, .command(player: queen, choice: .text("No. {1} waves again.")), at: at(3))
    }

    @Test func theAutomaticCommandDrawsTonightsCommandsLast() throws {
        let commands = [
            QueenCommand(id: "u1", text: "No. {1} hops.", kind: .citizenToAll, difficulty: .mild),
            QueenCommand(id: "u2", text: "No. {1} spins.", kind: .citizenToAll, difficulty: .mild),
        ]
        for seed in UInt64(1)...20 {
            var game = try QueenGame(
                players: ["A", "B", "C"], commands: commands, seed: seed,
                playedEarlier: [QueenGame.playedKey("No. {1}  HOPS.")])
            _ = try game.apply(.deal, at: at(0))
            _ = try game.apply(.tick, at: at(60))
            #expect(game.currentOrder?.text.hasSuffix("spins.") == true, "hops was given earlier tonight")
            #expect(game.givenCommands == ["No. {1} spins."])
            // Every command given tonight: the draw takes a fitting one again rather than the built-in fallback.
            var again = try QueenGame(
                players: ["A", "B", "C"], commands: commands, seed: seed,
                playedEarlier: Set(commands.map { QueenGame.playedKey($0.text) }))
            _ = try again.apply(.deal, at: at(0))
            _ = try again.apply(.tick, at: at(60))
            let text = try #require(again.currentOrder?.text)
            #expect(text.hasSuffix("hops.") || text.hasSuffix("spins."), "\(text)")
        }
    }

    @Test func queenTimeoutPicksALibraryCommand() throws {
        let commands = [
            QueenCommand(id: "u1", text: "No. {1} hops.", kind: .citizenToAll, difficulty: .mild),
            QueenCommand(id: "u2", text: "No. {1} spins for {queen}.", kind: .citizenToQueen, difficulty: .mild),
            QueenCommand(
                id: "u3", text: "No. {1}, No. {2} and No. {3} stack hands.", kind: .citizenToCitizen,
                difficulty: .mild),
        ]
        var picked = Set<String>()
        for seed in UInt64(1)...60 {
            var game = try makeGame(players: 3, commands: commands, seed: seed)
            _ = try game.apply(.deal, at: at(0))
            #expect(try game.apply(.tick, at: Instant(milliseconds: 59_999)).isEmpty, "not yet")
            let effects = try game.apply(.tick, at: at(60))
            let order = try #require(game.currentOrder)
            #expect(effects == [.order(text: order.text, targets: order.targets, revealAt: at(65))])
            let queen = try #require(game.queen)
            let n = order.targets[0]
            if order.text == "No. \(n) hops." { picked.insert("u1") }
            if order.text == "No. \(n) spins for \(queen)." { picked.insert("u2") }
            #expect(order.targets.count == 1, "u3 needs 3 numbers and only 2 are dealt")
            #expect(game.phase == .countdown)
        }
        #expect(picked == ["u1", "u2"])
    }

    @Test func queenTimeoutFallsBackWhenNoCommandFits() throws {
        let tooBig = [
            QueenCommand(
                id: "u1", text: "No. {1}, No. {2} and No. {3} stack hands.",
                kind: .citizenToCitizen, difficulty: .mild)
        ]
        for commands in [[], tooBig] {
            var game = try makeGame(players: 3, commands: commands, seed: 4)
            _ = try game.apply(.deal, at: at(0))
            _ = try game.apply(.tick, at: at(60))
            let order = try #require(game.currentOrder)
            #expect(order.targets.count == 2 && Set(order.targets) == [1, 2])
            #expect(order.text == "No. \(order.targets[0]) tells a joke to No. \(order.targets[1]).")
        }
    }

    @Test func fallbackForASingleNumberedPlayerIsValid() throws {
        let template = try CommandTemplate("No. {1} tells Queen {queen} a joke.")
        #expect(template.targetCount == 1 && template.mentionsQueen)
    }

    // MARK: - Reveal, next, auto-next

    @Test func countdownThenRevealWithTheRightMapping() throws {
        var game = try makeGame(players: 5, seed: 8)
        _ = try game.apply(.deal, at: at(0))
        let round = try #require(game.currentRound)
        _ = try game.apply(
            .command(player: round.queen, choice: .text("No. {1} gives No. {2} a thumbs-up.")),
            at: at(20))
        let order = try #require(game.currentOrder)
        #expect(try game.apply(.tick, at: Instant(milliseconds: 24_999)).isEmpty)
        #expect(game.phase == .countdown)
        let effects = try game.apply(.tick, at: at(25))
        let holder = { (number: Int) in round.numbers.first { $0.value == number }!.key }
        let targets = order.targets.map(holder)
        #expect(effects == [.revealed(numbers: round.numbers, targets: targets, salt: round.salt, round: 1)])
        #expect(game.phase == .revealed)
        #expect(game.nextDeadline == nil, "without auto-next the operator deals")
        #expect(
            game.history == [
                QueenRoundRecord(
                    round: 1, queen: round.queen, numbers: round.numbers,
                    command: order.text, targets: targets, salt: round.salt)
            ])
        #expect(try game.apply(.tick, at: at(500)).isEmpty)

        let next = try game.apply(.next, at: at(600))
        guard case .round(number: 2, _, _, _) = next.first else {
            Issue.record("expected round 2, got \(next)")
            return
        }
        #expect(game.roundNumber == 2 && game.phase == .choosing && game.currentOrder == nil)
    }

    @Test func autoNextDealsAtTheDeadline() throws {
        var game = try makeGame(players: 4, settings: QueenSettings(autoNextSeconds: 10), seed: 2)
        _ = try game.apply(.deal, at: at(0))
        _ = try game.apply(.command(player: game.queen!, choice: .text("No. {1} waves.")), at: at(5))
        _ = try game.apply(.tick, at: at(10))
        #expect(game.phase == .revealed && game.nextDeadline == at(20))
        #expect(try game.apply(.tick, at: at(19)).isEmpty)
        let effects = try game.apply(.tick, at: at(20))
        #expect(effects.count == 4, "round plus 3 secrets")
        #expect(game.roundNumber == 2 && game.phase == .choosing && game.nextDeadline == at(80))

        // When a player has left, the automatic deal waits for the operator instead.
        _ = try game.apply(.removePlayer("P1"), at: at(21))
        _ = try game.apply(.removePlayer("P2"), at: at(21))
        _ = try game.apply(.command(player: game.queen!, choice: .text("No. {1} waves.")), at: at(25))
        _ = try game.apply(.tick, at: at(30))
        let deferred = try game.apply(.tick, at: at(40))
        #expect(
            deferred == [
                .dealDeferred(
                    RuleError(
                        .tooFewPlayers,
                        "The Queen's game needs at least 3 players; 2 are connected."))
            ])
        #expect(game.phase == .revealed && game.nextDeadline == nil && game.roundNumber == 2)
    }

    @Test func aQueenWhoLeavesWhileChoosingGetsTheAutomaticCommandAtOnce() throws {
        let bow = QueenCommand(id: "q", text: "No. {1} bows to {queen}.", kind: .citizenToQueen, difficulty: .mild)
        var game = try makeGame(players: 5, commands: [bow], seed: 9)
        _ = try game.apply(.deal, at: at(0))
        let queen = try #require(game.queen)
        let citizen = try #require(game.players.first { $0 != queen })
        #expect(try game.apply(.removePlayer(citizen), at: at(1)).isEmpty, "a citizen leaving changes nothing yet")
        #expect(game.phase == .choosing)
        let effects = try game.apply(.removePlayer(queen), at: at(2))
        guard case .order(_, let targets, let revealAt)? = effects.first else {
            Issue.record("the automatic command should come at once: \(effects)")
            return
        }
        #expect(revealAt == at(7) && game.phase == .countdown && !targets.isEmpty)
        #expect(game.currentOrder?.text.contains(queen) == false, "the command names no Queen who has left")

        // Paused, the command waits for the end of the pause and then comes at once.
        var paused = try makeGame(players: 4, seed: 10)
        _ = try paused.apply(.deal, at: at(0))
        _ = try paused.apply(.steer(.pause), at: at(1))
        #expect(try paused.apply(.removePlayer(try #require(paused.queen)), at: at(2)).isEmpty)
        _ = try paused.apply(.steer(.resume), at: at(30))
        #expect(paused.nextDeadline == at(30))
        guard case .order? = try paused.apply(.tick, at: at(30)).first else {
            Issue.record("the command should come as the pause ends")
            return
        }
    }

    @Test func lateTickCatchesUpEveryPassedDeadline() throws {
        var game = try makeGame(players: 3, settings: QueenSettings(countdownSeconds: 0, autoNextSeconds: 0), seed: 6)
        _ = try game.apply(.deal, at: at(0))
        let effects = try game.apply(.tick, at: at(100))
        // Timeout order, immediate reveal, immediate next deal (round + 2 secrets); then the new Queen chooses.
        #expect(effects.count == 5)
        guard case .order = effects[0], case .revealed = effects[1], case .round(number: 2, _, _, _) = effects[2] else {
            Issue.record("unexpected effects \(effects)")
            return
        }
        #expect(game.phase == .choosing && game.nextDeadline == at(160))
    }

    // MARK: - Pause, players, end

    @Test func pauseFreezesTheClocks() throws {
        var game = try makeGame(players: 4, seed: 3)
        _ = try game.apply(.deal, at: at(0))
        #expect(try game.apply(.pause, at: at(10)) == [.paused])
        #expect(game.isPaused && game.nextDeadline == nil)
        #expect(try game.apply(.tick, at: at(100)).isEmpty)
        expectRefusal("paused", &game, .command(player: game.queen!, choice: .text("No. {1} waves.")), at: at(101))
        expectRefusal("already_paused", &game, .pause, at: at(101))
        #expect(try game.apply(.resume, at: at(200)) == [.resumed(nextDeadline: at(250))])
        #expect(game.phase == .choosing && !game.isPaused)
        expectRefusal("not_paused", &game, .resume, at: at(201))

        _ = try game.apply(.command(player: game.queen!, choice: .text("No. {1} waves.")), at: at(210))
        #expect(game.currentOrder?.revealAt == at(215))
        _ = try game.apply(.pause, at: Instant(milliseconds: 212_500))
        _ = try game.apply(.resume, at: at(300))
        #expect(game.nextDeadline == Instant(milliseconds: 302_500))
        #expect(game.currentOrder?.revealAt == Instant(milliseconds: 302_500), "the reveal moves with the clock")
        #expect(try game.apply(.tick, at: at(302)).isEmpty)
        guard case .revealed = try game.apply(.tick, at: Instant(milliseconds: 302_500)).first else {
            Issue.record("expected the reveal")
            return
        }
    }

    @Test func playersJoinAndLeaveBetweenDeals() throws {
        var game = try makeGame(players: 4, seed: 7)
        _ = try game.apply(.deal, at: at(0))
        let round = try #require(game.currentRound)
        let leaver = try #require(round.players.first { $0 != round.queen })
        let leaverNumber = try #require(game.number(of: leaver))

        #expect(try game.apply(.addPlayer("Zoe"), at: at(1)).isEmpty)
        #expect(try game.apply(.removePlayer(leaver), at: at(1)).isEmpty)
        #expect(game.number(of: "Zoe") == nil, "a joiner waits for the next deal")
        #expect(game.number(of: leaver) == leaverNumber, "a leaver keeps their number this round")
        #expect(game.currentRound == round)
        expectRefusal("already_playing", &game, .addPlayer("Zoe"), at: at(2))
        expectRefusal("unknown_player", &game, .removePlayer(leaver), at: at(2))

        _ = try game.apply(.command(player: round.queen, choice: .text("No. {1} waves.")), at: at(3))
        let revealed = try game.apply(.tick, at: at(8))
        guard case .revealed(let numbers, _, _, _) = revealed.first else {
            Issue.record("expected the reveal")
            return
        }
        #expect(numbers[leaver] == leaverNumber)
        _ = try game.apply(.next, at: at(9))
        let second = try #require(game.currentRound)
        #expect(Set(second.players) == Set(names(4)).subtracting([leaver]).union(["Zoe"]))
        #expect(second.numbers[leaver] == nil)

        var full = try makeGame(players: 9)
        expectRefusal("too_many_players", &full, .addPlayer("Zoe"), at: at(0))
    }

    @Test func endFinishesWithTheHistory() throws {
        var game = try makeGame(players: 3, seed: 13)
        for round in 0..<2 {
            _ = try game.apply(.next, at: at(round * 100))
            _ = try game.apply(.command(player: game.queen!, choice: .text("No. {1} waves.")), at: at(round * 100 + 1))
            _ = try game.apply(.tick, at: at(round * 100 + 6))
        }
        _ = try game.apply(.next, at: at(300))
        let cutShort = try #require(game.currentRound)
        let effects = try game.apply(.end, at: at(301))
        #expect(game.history.count == 2, "the round cut short is not recorded")
        // The round cut short still opens its commitment (no targets: no order was carried out).
        #expect(
            effects == [
                .revealed(numbers: cutShort.numbers, targets: [], salt: cutShort.salt, round: cutShort.number),
                .ended(history: game.history),
            ])
        #expect(game.phase == .finished && game.nextDeadline == nil)
        expectRefusal("game_over", &game, .next, at: at(302))
        expectRefusal("game_over", &game, .end, at: at(302))
        expectRefusal("game_over", &game, .addPlayer("Zoe"), at: at(302))
        #expect(try game.apply(.tick, at: at(400)).isEmpty)
    }

    // MARK: - Replay

    private let script: [(seconds: Int, event: QueenGame.Event)] = [
        (0, .deal),
        (1, .addPlayer("Zoe")),
        (61, .tick),
        (66, .tick),
        (70, .next),
        (72, .pause),
        (80, .resume),
        (90, .removePlayer("P2")),
        (138, .tick),
        (143, .tick),
        (150, .deal),
        (151, .end),
    ]

    private func replay(_ events: [(seconds: Int, event: QueenGame.Event)], seed: UInt64) throws
        -> (QueenGame, [QueenGame.Effect])
    {
        var game = try makeGame(players: 4, commands: BuiltinCommands.all, seed: seed)
        var effects: [QueenGame.Effect] = []
        for step in events { effects += try game.apply(step.event, at: at(step.seconds)) }
        return (game, effects)
    }

    @Test func replayIsDeterministic() throws {
        let (first, firstEffects) = try replay(script, seed: 42)
        let (second, secondEffects) = try replay(script, seed: 42)
        #expect(first == second)
        #expect(firstEffects == secondEffects)
        #expect(first.history.count == 2)

        // The journal form: events survive JSON and replay to the same game.
        let data = try JSONEncoder().encode(script.map(\.event))
        let decoded = try JSONDecoder().decode([QueenGame.Event].self, from: data)
        #expect(decoded == script.map(\.event))
        let (third, thirdEffects) = try replay(zip(script.map(\.seconds), decoded).map { ($0, $1) }, seed: 42)
        #expect(third == first && thirdEffects == firstEffects)

        let (_, otherEffects) = try replay(script, seed: 43)
        #expect(otherEffects != firstEffects, "the seed matters")
    }

    @Test func savedGameContinuesIdentically() throws {
        var game = try makeGame(players: 5, commands: BuiltinCommands.all, seed: 77)
        _ = try game.apply(.deal, at: at(0))
        var restored = try JSONDecoder().decode(QueenGame.self, from: JSONEncoder().encode(game))
        #expect(restored == game)
        for step in [(60, QueenGame.Event.tick), (65, .tick), (70, .next), (130, .tick)] {
            let expected = try game.apply(step.1, at: at(step.0))
            let actual = try restored.apply(step.1, at: at(step.0))
            #expect(actual == expected)
            #expect(!actual.isEmpty)
        }
    }

    // MARK: - Numbers named as people write them

    @Test func naturalMentionsNameTheirNumberAndOnlyThere() {
        let numbers = { (text: String) in CommandTemplate.namedMentions(in: text).map(\.number) }
        #expect(numbers("No. 2 sings to No. 4") == [2, 4])
        #expect(numbers("no 2, nr 3, Nr. 1, #5, No.6 and n° 7") == [2, 3, 1, 5, 6, 7])
        #expect(numbers("(#2) hugs no3.") == [2, 3])
        #expect(numbers("piano 2, No. 2nd, nobody 4, casino 3, No. 123, no one") == [])
        #expect(
            CommandTemplate.libraryText(of: "No. 2 sings to #4, then no 2 bows to {queen}.")
                == "No. {1} sings to No. {2}, then No. {1} bows to {queen}.")
        #expect(CommandTemplate.libraryText(of: "No. {1} hugs nr 3") == "No. {1} hugs No. {2}")
        #expect(CommandTemplate.libraryText(of: "Everyone claps.") == "Everyone claps.")
    }

    @Test func aNaturalOrderNamesExactlyTheNumbersWritten() throws {
        for seed in UInt64(1)...30 {
            var game = try makeGame(players: 5, seed: seed)
            _ = try game.apply(.deal, at: at(0))
            let queen = try #require(game.queen)
            _ = try game.apply(.command(player: queen, choice: .text("No. 2 sings to no 4")), at: at(1))
            let order = try #require(game.currentOrder)
            #expect(order.targets == [2, 4])
            #expect(order.text == "No. 2 sings to no 4", "kept as written")
            _ = try game.apply(.tick, at: at(6))
            let round = try #require(game.currentRound)
            let holder = { (number: Int) in round.numbers.first { $0.value == number }!.key }
            #expect(game.history.last?.targets == [holder(2), holder(4)])
        }
    }

    @Test func placeholdersNeverDrawANumberNamedAsWritten() throws {
        for seed in UInt64(1)...50 {
            var game = try makeGame(players: 4, seed: seed)
            _ = try game.apply(.deal, at: at(0))
            _ = try game.apply(.command(player: game.queen!, choice: .text("#3 and No. {1} swap seats")), at: at(1))
            let order = try #require(game.currentOrder)
            #expect(order.targets.count == 2 && order.targets[1] == 3 && order.targets[0] != 3)
        }
    }

    @Test func anOrderNamingNobodyOrANumberNotInPlayIsRefusedWithAHint() throws {
        var game = try makeGame(players: 4)
        _ = try game.apply(.deal, at: at(0))
        let queen = try #require(game.queen)
        for text in ["No. 5 dances", "#0 dances", "No. 1 and No. 2 and No. 3 and {1} dance"] {
            expectRefusal(
                text.contains("{1}") ? "too_many_targets" : "bad_placeholder", &game,
                .command(player: queen, choice: .text(text)), at: at(1))
        }
        for text in ["Everyone dances", "pick b12", "commands sing"] {
            do {
                _ = try game.apply(.command(player: queen, choice: .text(text)), at: at(1))
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.code == .badPlaceholder)
                #expect(error.message.contains("No. 1 sings to No. 2") && error.message.contains("No. 1 to No. 3"))
            }
        }
        // The library's commands keep their meaning: "No. 1" there is text, not a number.
        let library = [
            QueenCommand(
                id: "u1", text: "No. {1} hums the No. 1 hit.", kind: .citizenToAll,
                difficulty: .mild)
        ]
        var other = try makeGame(players: 4, commands: library)
        _ = try other.apply(.deal, at: at(0))
        _ = try other.apply(.command(player: other.queen!, choice: .template(id: "u1")), at: at(1))
        #expect(other.currentOrder?.targets.count == 1)
    }
}
