import Common
import Testing

@testable import Rules

/// The compound-words game: card race, team bingo and the dice board, with injected instants and seeds.
@Suite struct CompoundWordsTests {
    static let english = WordListLibrary().list(id: "en")!
    static let level1 = english.words(level: 1)

    static func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    static func game(
        _ exercise: CompoundWords.Exercise, teams: [String] = ["Red", "Blue"], words: [WordEntry] = level1,
        board: DiceBoard? = nil, lockout: Int64? = nil,
        lines: [CompoundWords.BingoLine] = CompoundWords.BingoLine.allCases,
        places: Int? = nil, seed: UInt64 = 1
    ) throws -> CompoundWords {
        var game = try CompoundWords(
            teams: teams, words: words, listID: "en", listName: "English", level: 1,
            board: board ?? (exercise == .board ? DiceBoardLibrary().board(id: "garden") : nil),
            settings: .init(exercise: exercise, lockoutMilliseconds: lockout, lines: lines, places: places), seed: seed)
        _ = try game.apply(.start, at: at(0))
        return game
    }

    /// The pick of a correct (or, with `correct: false`, a wrong) option of the team's hand; nil when there is none.
    static func pick(_ game: CompoundWords, _ team: String, correct: Bool = true) -> CompoundWords.Pick? {
        guard let hand = game.team(named: team)?.hand,
            let entry = game.words.first(where: { $0.word == hand.word }),
            let slot = hand.cards.indices.first(where: { hand.cards[$0].map(entry.isCorrect) == correct })
        else { return nil }
        if let cells = hand.cells { return .cell(cells[slot]) }
        return .card(slot + 1)
    }

    // MARK: Hands

    @Test func everyHandHoldsFourDifferentOptionsOfItsWordWithACorrectOne() throws {
        for seed in UInt64(0)..<40 {
            for level in CompoundWordsTests.english.levels {
                var game = try CompoundWords(
                    teams: ["Red"], words: CompoundWordsTests.english.words(level: level), listID: "en", listName: "en",
                    level: level, settings: .init(exercise: .cards, lockoutMilliseconds: 0), seed: seed)
                var effects = try game.apply(.start, at: Self.at(0))
                var now: Int64 = 0
                while !game.isFinished {
                    for case .hand(_, let hand) in effects {
                        let entry = try #require(game.words.first { $0.word == hand.word })
                        let cards = hand.cards.compactMap { $0 }
                        #expect(
                            cards.contains(where: entry.isCorrect), "seed \(seed): \(hand.word) has no correct card")
                        #expect(cards.allSatisfy(entry.options.contains))
                        #expect(Set(cards).count == cards.count)
                    }
                    now += 10
                    // Play a wrong card first when there is one, so hands are seen with missing cards too.
                    let pick = try #require(Self.pick(game, "Red", correct: false) ?? Self.pick(game, "Red"))
                    effects = try game.apply(.pick(team: "Red", player: "Ann", pick), at: Self.at(now))
                }
            }
        }
    }

    // MARK: The card race

    @Test func aCorrectCardScoresAndDealsTheNextWordAWrongOneIsGoneAndLocksOut() throws {
        var game = try Self.game(.cards)
        let first = try #require(game.team(named: "Red")?.hand)
        #expect(first.number == 1 && first.of == Self.level1.count && first.cards.count == 4)

        let wrong = try #require(Self.pick(game, "Red", correct: false))
        let effects = try game.apply(.pick(team: "Red", player: "Ann", wrong), at: Self.at(1_000))
        guard case .card(let slot) = wrong, case .result(let answer, nil)? = effects.first else {
            Issue.record("no wrong result: \(effects)")
            return
        }
        #expect(!answer.correct && answer.player == "Ann" && answer.word == first.word)
        #expect(effects.contains(.lockout(team: "Red", until: Self.at(4_000))), "3 s by default")
        let hand = try #require(game.team(named: "Red")?.hand)
        #expect(hand.cards[slot - 1] == nil, "the wrong card is gone")
        #expect(hand.cards.compactMap { $0 }.count == 3 && hand.word == first.word)
        #expect(game.nextDeadline == Self.at(4_000))

        // Picks during the lockout are refused; the tick at its end frees the team.
        let right = try #require(Self.pick(game, "Red"))
        #expect(throws: RuleError.self) { try game.apply(.pick(team: "Red", player: "Ann", right), at: Self.at(3_999)) }
        do {
            _ = try game.apply(.pick(team: "Red", player: "Bob", right), at: Self.at(3_999))
        } catch {
            #expect(error.code == .lockedOut)
            #expect(error.message.contains("1 s"))
        }
        #expect(try game.apply(.tick, at: Self.at(3_999)).isEmpty)
        #expect(try game.apply(.tick, at: Self.at(4_000)) == [.lockout(team: "Red", until: nil)])
        #expect(game.nextDeadline == nil)
        // Blue was never locked out.
        let blue = try #require(Self.pick(game, "Blue"))
        _ = try game.apply(.pick(team: "Blue", player: "Cy", blue), at: Self.at(3_500))

        let done = try game.apply(.pick(team: "Red", player: "Ann", right), at: Self.at(5_500))
        guard case .result(let correct, let compound?)? = done.first else {
            Issue.record("no correct result: \(done)")
            return
        }
        #expect(correct.correct && compound == first.word + correct.answer)
        #expect(correct.ms == 1_500, "time counts from the end of the lockout")
        #expect(done.contains(.progress(team: "Red")))
        #expect(game.team(named: "Red")?.hand?.number == 2)
        #expect(game.team(named: "Red")?.score == 1)
        #expect(game.answers.map(\.player) == ["Ann", "Cy", "Ann"])
    }

    @Test(arguments: [Int64(0), 1_500, 10_000])
    func theLockoutIsConfigurable(milliseconds: Int64) throws {
        var game = try Self.game(.cards, lockout: milliseconds)
        let wrong = try #require(Self.pick(game, "Red", correct: false))
        let effects = try game.apply(.pick(team: "Red", player: "Ann", wrong), at: Self.at(100))
        let lockouts = effects.filter { if case .lockout = $0 { true } else { false } }
        #expect(lockouts == (milliseconds == 0 ? [] : [.lockout(team: "Red", until: Self.at(100 + milliseconds))]))
        let right = try #require(Self.pick(game, "Red"))
        _ = try game.apply(.tick, at: Self.at(100 + milliseconds))
        _ = try game.apply(.pick(team: "Red", player: "Ann", right), at: Self.at(100 + milliseconds))
    }

    @Test func theFirstTeamThroughWinsAndTheOthersFinishForPlaces() throws {
        let words = Array(Self.level1.prefix(5))
        var game = try Self.game(.cards, words: words, lockout: 0)
        var now: Int64 = 0
        func playThrough(_ team: String) throws -> [CompoundWords.Effect] {
            var effects: [CompoundWords.Effect] = []
            while let pick = Self.pick(game, team) {
                now += 100
                effects += try game.apply(.pick(team: team, player: team, pick), at: Self.at(now))
            }
            return effects
        }
        let red = try playThrough("Red")
        #expect(red.contains(.finished(team: "Red", place: 1)))
        #expect(!game.isFinished, "Blue still plays for second place")
        #expect(game.standings.map(\.team) == ["Red", "Blue"])
        #expect(game.standings[0].place == 1 && game.standings[0].done == 5)
        #expect(throws: RuleError(.teamFinished, "Your team is through already, in place 1. Well done!")) {
            try game.apply(.pick(team: "Red", player: "Ann", .card(1)), at: Self.at(now))
        }
        let blue = try playThrough("Blue")
        #expect(blue.suffix(2) == [.finished(team: "Blue", place: 2), .ended])
        #expect(game.isFinished)

        var short = try Self.game(.cards, words: words, lockout: 0, places: 1)
        while let pick = Self.pick(short, "Blue") {
            _ = try short.apply(.pick(team: "Blue", player: "Bo", pick), at: Self.at(1))
        }
        #expect(short.isFinished, "places=1 ends the game at the first team through")
        #expect(short.standings.map(\.rank) == [1, 2])
    }

    // MARK: Bingo

    @Test func bingoLinesOfEveryKindAndNoFalseBingo() {
        func card(marked: [Int], options: [Int] = []) -> [CompoundWords.Cell?] {
            (0..<16).map { cell in
                marked.contains(cell)
                    ? CompoundWords.Cell(text: "x", isMarked: true)
                    : options.contains(cell) ? CompoundWords.Cell(text: "o", isMarked: false) : nil
            }
        }
        let all = CompoundWords.lines(CompoundWords.BingoLine.allCases)
        #expect(all.count == 10)
        for row in 0..<4 {
            let line = (0..<4).map { row * 4 + $0 }
            #expect(CompoundWords.completedLine(through: line[2], in: card(marked: line), lines: all) == line)
        }
        for column in 0..<4 {
            let line = (0..<4).map { $0 * 4 + column }
            #expect(CompoundWords.completedLine(through: line[0], in: card(marked: line), lines: all) == line)
        }
        #expect(
            CompoundWords.completedLine(through: 10, in: card(marked: [0, 5, 10, 15]), lines: all) == [0, 5, 10, 15])
        #expect(CompoundWords.completedLine(through: 9, in: card(marked: [3, 6, 9, 12]), lines: all) == [3, 6, 9, 12])
        // No false bingo: three of a line, a line of options not marked, a line through another cell, a kind
        // not chosen.
        #expect(CompoundWords.completedLine(through: 2, in: card(marked: [0, 1, 2]), lines: all) == nil)
        #expect(CompoundWords.completedLine(through: 3, in: card(marked: [0, 1, 2], options: [3]), lines: all) == nil)
        #expect(CompoundWords.completedLine(through: 4, in: card(marked: [0, 1, 2, 3, 4]), lines: all) == nil)
        let rowsOnly = CompoundWords.lines([.rows])
        #expect(CompoundWords.completedLine(through: 5, in: card(marked: [0, 5, 10, 15]), lines: rowsOnly) == nil)
        #expect(CompoundWords.completedLine(through: 4, in: card(marked: [0, 4, 8, 12]), lines: rowsOnly) == nil)
        // The most marks without a line is 12; the 13th correct answer always makes one.
        let twelve = (0..<16).filter { ![0, 6, 11, 13].contains($0) }
        #expect(all.allSatisfy { line in !line.allSatisfy(twelve.contains) })
    }

    @Test func bingoPutsFourOptionsOnFreeCellsAndAWrongPickTakesOneAway() throws {
        var game = try Self.game(.bingo)
        let red = try #require(game.team(named: "Red"))
        let hand = try #require(red.hand)
        let cells = try #require(hand.cells)
        #expect(Set(cells).count == 4)
        #expect(red.cells.compactMap { $0 }.count == 4, "only the four options are on the card")
        for (card, cell) in zip(hand.cards, cells) { #expect(red.cells[cell]?.text == card) }

        let wrong = try #require(Self.pick(game, "Red", correct: false))
        guard case .cell(let wrongCell) = wrong else { return }
        let effects = try game.apply(.pick(team: "Red", player: "Ann", wrong), at: Self.at(500))
        #expect(game.team(named: "Red")?.cells[wrongCell] == nil, "the wrong option is gone from its cell")
        #expect(game.team(named: "Red")?.cells.compactMap { $0 }.count == 3, "the team goes on with one fewer")
        #expect(!effects.contains { if case .lockout = $0 { true } else { false } }, "no lockout in bingo by default")
        #expect(throws: RuleError.self) {
            try game.apply(.pick(team: "Red", player: "Ann", .cell(wrongCell)), at: Self.at(600))
        }
        #expect(throws: RuleError.self) {
            try game.apply(.pick(team: "Red", player: "Ann", .card(1)), at: Self.at(600))
        }

        let right = try #require(Self.pick(game, "Red"))
        guard case .cell(let rightCell) = right else { return }
        _ = try game.apply(.pick(team: "Red", player: "Ann", right), at: Self.at(700))
        let after = try #require(game.team(named: "Red"))
        #expect(after.cells[rightCell]?.isMarked == true)
        #expect(after.cells[rightCell]?.text.hasPrefix(hand.word) == true, "a marked cell shows the compound")
        #expect(after.cells.compactMap { $0 }.filter { !$0.isMarked }.count == 4, "the next word's four options")
        #expect(after.hand?.word != hand.word)
    }

    @Test(arguments: [
        [CompoundWords.BingoLine.rows, .columns, .diagonals], [.rows], [.columns], [.diagonals], [.rows, .diagonals],
    ])
    func bingoIsCalledExactlyWhenAChosenLineIsFull(lines: [CompoundWords.BingoLine]) throws {
        let chosen = CompoundWords.lines(lines)
        for seed in UInt64(0)..<30 {
            var game = try Self.game(.bingo, teams: ["Red"], lines: lines, seed: seed)
            var rng = SplitMix64(seed: seed)
            var now: Int64 = 0
            var turns = 0
            while !game.isFinished {
                turns += 1
                #expect(turns < 200, "seed \(seed): bingo never came")
                if turns >= 200 { return }
                let wrongFirst = rng.next() % 3 == 0
                let pick = try #require(
                    (wrongFirst ? Self.pick(game, "Red", correct: false) : nil) ?? Self.pick(game, "Red"))
                now += 10
                let effects = try game.apply(.pick(team: "Red", player: "Ann", pick), at: Self.at(now))
                let cells = try #require(game.team(named: "Red")?.cells)
                let full = chosen.filter { $0.allSatisfy { cells[$0]?.isMarked == true } }
                let called = effects.compactMap { effect -> [Int]? in
                    if case .bingo(_, let line) = effect { return line }
                    return nil
                }
                if called.isEmpty {
                    #expect(full.isEmpty, "seed \(seed): a full line \(full) was not called")
                    #expect(cells.compactMap { $0 }.filter { !$0.isMarked }.count >= 1, "options are on the card")
                } else {
                    #expect(called.count == 1 && full.contains(called[0]), "seed \(seed): \(called) is no full line")
                    #expect(effects.suffix(2) == [.finished(team: "Red", place: 1), .ended])
                }
            }
            let marks = game.team(named: "Red")?.cells.compactMap { $0 }.filter(\.isMarked).count ?? 0
            #expect(marks >= 4 && marks <= (lines == [.diagonals] ? 15 : 13))
        }
    }

    // MARK: The dice board

    /// A T-shaped board on English words: 1 – 2 – 3 along the top, 4 under 2.
    static let tee = DiceBoard(
        id: "tee", name: "Tee", list: "en", level: 1,
        tiles: [
            .init(id: 1, word: "sun", x: 0, y: 0, isStart: true), .init(id: 2, word: "rain", x: 1, y: 0),
            .init(id: 3, word: "snow", x: 2, y: 0), .init(id: 4, word: "foot", x: 1, y: 1),
        ], paths: [.init(1, 2), .init(2, 3), .init(2, 4)])

    @Test func theTokenAnswersTheStartTileFirstThenRollsWalksAndChoosesAtForks() throws {
        // The first seed whose first roll is 2: the walk stops at the fork on tile 2 with one step left.
        var chosenSeed: UInt64?
        for seed in UInt64(0)..<64 {
            var game = try Self.game(.board, teams: ["Red"], board: Self.tee, seed: seed)
            _ = try game.apply(.pick(team: "Red", player: "Ann", Self.pick(game, "Red")!), at: Self.at(10))
            let effects = try game.apply(.roll(team: "Red", player: "Ann"), at: Self.at(20))
            if effects.first == .rolled(team: "Red", roll: .init(value: 2, isHelpful: true)) {
                chosenSeed = seed
                break
            }
        }
        var game = try Self.game(.board, teams: ["Red"], board: Self.tee, seed: try #require(chosenSeed))
        let start = try #require(game.team(named: "Red"))
        #expect(start.token == 1 && start.step == .answering && start.hand?.tile == 1 && start.hand?.word == "sun")
        #expect(throws: RuleError(.wrongPhase, "Answer the word on your tile first.")) {
            try game.apply(.roll(team: "Red", player: "Ann"), at: Self.at(5))
        }
        let done = try game.apply(.pick(team: "Red", player: "Ann", Self.pick(game, "Red")!), at: Self.at(10))
        #expect(done.contains(.tileDone(team: "Red", tile: 1)))
        #expect(game.team(named: "Red")?.step == .rolling)
        #expect(throws: RuleError.self) { try game.apply(.pick(team: "Red", player: "Ann", .card(1)), at: Self.at(15)) }

        let rolled = try game.apply(.roll(team: "Red", player: "Ann"), at: Self.at(20))
        #expect(
            rolled == [
                .rolled(team: "Red", roll: .init(value: 2, isHelpful: true)),
                .moved(team: "Red", path: [2], at: 2, stepsLeft: 1, choices: [3, 4]),
            ])
        #expect(throws: RuleError(.badMove, "From here you can go to 3 (snow) or 4 (foot).")) {
            try game.apply(.move(team: "Red", player: "Ann", .tile(1)), at: Self.at(25))
        }
        let moved = try game.apply(.move(team: "Red", player: "Ann", .word("FOOT")), at: Self.at(30))
        #expect(moved.first == .moved(team: "Red", path: [4], at: 4, stepsLeft: 0, choices: []))
        guard case .hand(_, let hand)? = moved.last else {
            Issue.record("no hand on the new tile: \(moved)")
            return
        }
        #expect(hand.tile == 4 && hand.word == "foot" && hand.number == 2 && hand.of == 4)
    }

    @Test func aTokenLandingOnADoneTileRollsAgainAndEveryRollCouldReachAnUnfinishedTile() throws {
        var doneLandings = 0
        for seed in UInt64(0)..<40 {
            var game = try Self.game(.board, teams: ["Red"], board: Self.tee, seed: seed)
            var coin = SplitMix64(seed: seed)
            var now: Int64 = 0
            while !game.isFinished {
                now += 10
                #expect(now < 5_000, "seed \(seed): the board never ends")
                if now >= 5_000 { return }
                let team = try #require(game.team(named: "Red"))
                let unfinished = Set([1, 2, 3, 4]).subtracting(team.doneTiles)
                switch team.step {
                case .answering?:
                    _ = try game.apply(.pick(team: "Red", player: "Ann", Self.pick(game, "Red")!), at: Self.at(now))
                case .rolling?:
                    let from = try #require(team.token)
                    let effects = try game.apply(.roll(team: "Red", player: "Ann"), at: Self.at(now))
                    guard case .rolled(_, let roll)? = effects.first else { return }
                    let reach = Self.tee.reachable(from: from, steps: roll.value)
                    #expect(
                        !reach.isDisjoint(with: unfinished), "seed \(seed): \(roll.value) from \(from) reaches none")
                case .choosing(_, _, let choices)?:
                    // A child who often takes a done tile when it can: the token may land on it.
                    let done = choices.first(where: { team.doneTiles.contains($0) })
                    let tile = (coin.next() % 2 == 0 ? done : nil) ?? choices[Int(coin.next() % UInt64(choices.count))]
                    let effects = try game.apply(.move(team: "Red", player: "Ann", .tile(tile)), at: Self.at(now))
                    if case .moved(_, _, let at, 0, _)? = effects.first, team.doneTiles.contains(at) {
                        doneLandings += 1
                        #expect(effects.count == 1, "no question on a done tile")
                        #expect(game.team(named: "Red")?.step == .rolling)
                        #expect(game.team(named: "Red")?.hand == nil)
                    }
                case nil:
                    return
                }
            }
        }
        #expect(doneLandings > 0, "no seed landed on a done tile")
    }

    @Test func aDiceBoardIsPlayedToItsEndByOneTeam() throws {
        for seed in UInt64(0)..<10 {
            var game = try Self.game(.board, teams: ["Red"], seed: seed)
            var choice = SplitMix64(seed: seed)
            var now: Int64 = 0
            var rolls = 0
            var lastEffects: [CompoundWords.Effect] = []
            while !game.isFinished {
                now += 10
                let team = try #require(game.team(named: "Red"))
                switch team.step {
                case .answering?:
                    lastEffects = try game.apply(
                        .pick(team: "Red", player: "Ann", Self.pick(game, "Red")!), at: Self.at(now))
                case .rolling?:
                    rolls += 1
                    lastEffects = try game.apply(.roll(team: "Red", player: "Ann"), at: Self.at(now))
                case .choosing(_, _, let choices)?:
                    let tile = choices[Int(choice.next() % UInt64(choices.count))]
                    lastEffects = try game.apply(.move(team: "Red", player: "Ann", .tile(tile)), at: Self.at(now))
                case nil:
                    Issue.record("no step")
                    return
                }
                #expect(rolls < 500, "seed \(seed): the board never ends")
                if rolls >= 500 { return }
            }
            #expect(lastEffects.suffix(2) == [.finished(team: "Red", place: 1), .ended])
            #expect(game.team(named: "Red")?.doneTiles.count == 16)
            #expect(game.standings.first?.done == 16 && game.standings.first?.of == 16)
        }
    }

    @Test func aBoardWithAStrangeWordOrMissingPiecesIsRefusedAtTheStart() {
        var strange = Self.tee
        strange.tiles[3].word = "zebra"
        #expect(throws: RuleError(.badBoard, "Tile 4's word \"zebra\" is not a question word of level 1 of English.")) {
            _ = try Self.game(.board, board: strange)
        }
        var lonely = Self.tee
        lonely.paths.removeLast()
        #expect(throws: RuleError.self) { _ = try Self.game(.board, board: lonely) }
        #expect(throws: RuleError.self) { _ = try Self.game(.bingo, words: Array(Self.level1.prefix(12))) }
    }

    // MARK: Steering, teams, the log, replay

    @Test func pauseFreezesLockoutsAndTheThinkingClock() throws {
        var game = try Self.game(.cards)
        _ = try game.apply(
            .pick(team: "Red", player: "Ann", Self.pick(game, "Red", correct: false)!), at: Self.at(1_000))
        #expect(try game.apply(.steer(.pause), at: Self.at(2_000)) == [.paused])
        #expect(game.nextDeadline == nil)
        #expect(throws: RuleError.self) {
            try game.apply(.pick(team: "Blue", player: "Bo", .card(1)), at: Self.at(2_500))
        }
        #expect(try game.apply(.tick, at: Self.at(9_000)).isEmpty, "no lockout ends while paused")
        let resumed = try game.apply(.steer(.resume), at: Self.at(12_000))
        #expect(resumed == [.resumed, .lockout(team: "Red", until: Self.at(14_000))], "2 s of lockout were left")
        _ = try game.apply(.tick, at: Self.at(14_000))
        _ = try game.apply(.pick(team: "Red", player: "Ann", Self.pick(game, "Red")!), at: Self.at(14_250))
        #expect(game.answers.last?.ms == 250)
        #expect(throws: RuleError.self) { try game.apply(.steer(.next), at: Self.at(15_000)) }
        #expect(try game.apply(.steer(.end), at: Self.at(15_000)) == [.ended])
        #expect(game.isFinished)
    }

    @Test func aTeamThatJoinsLateGetsItsFirstQuestion() throws {
        var game = try Self.game(.bingo)
        let effects = try game.apply(.addTeam("Green"), at: Self.at(100))
        #expect(effects.first == .teamJoined("Green"))
        #expect(effects.contains { if case .card("Green", _, _) = $0 { true } else { false } })
        #expect(game.team(named: "Green")?.hand?.cells?.count == 4)
        #expect(try game.apply(.addTeam("Green"), at: Self.at(200)).isEmpty)
    }

    @Test(arguments: CompoundWords.Exercise.allCases)
    func replayingTheSameEventsGivesTheSameGame(exercise: CompoundWords.Exercise) throws {
        var live = try Self.game(exercise, seed: 77)
        var events: [(CompoundWords.Event, Int64)] = [(.start, 0)]
        var rng = SplitMix64(seed: 5)
        var now: Int64 = 0
        for _ in 0..<60 where !live.isFinished {
            now += Int64(rng.next() % 4_000)
            let team = rng.next() % 2 == 0 ? "Red" : "Blue"
            let state = try #require(live.team(named: team))
            let event: CompoundWords.Event
            switch state.step {
            case .rolling?: event = .roll(team: team, player: "P")
            case .choosing(_, _, let choices)?: event = .move(team: team, player: "P", .tile(choices[0]))
            default:
                guard let pick = Self.pick(live, team, correct: rng.next() % 2 == 0) ?? Self.pick(live, team) else {
                    continue
                }
                event = .pick(team: team, player: "P", pick)
            }
            for candidate in [(CompoundWords.Event.tick, now), (event, now)] {
                if (try? live.apply(candidate.0, at: Self.at(candidate.1))) != nil { events.append(candidate) }
            }
        }
        var replayed = try CompoundWords(
            teams: ["Red", "Blue"], words: Self.level1, listID: "en", listName: "English", level: 1,
            board: exercise == .board ? DiceBoardLibrary().board(id: "garden") : nil,
            settings: .init(exercise: exercise), seed: 77)
        for (event, at) in events { _ = try replayed.apply(event, at: Self.at(at)) }
        #expect(replayed == live)
        #expect(live.answers.count > 10)
    }

    @Test func theTeachersSheetListsEveryAnswer() {
        let answers = [
            WordAnswer(team: "Red", player: "Ann", word: "sun", answer: "spoon", correct: false, ms: 2_300),
            WordAnswer(team: "Red", player: "Ann", word: "sun", answer: "flower", correct: true, ms: 900),
            WordAnswer(team: "Blue, the best", player: "Bo", word: "rain", answer: "cup", correct: false, ms: 40),
        ]
        #expect(
            WordAnswerSheet.csv(answers) == """
                team,player,word,answer,correct,ms\r
                Red,Ann,sun,spoon,no,2300\r
                Red,Ann,sun,flower,yes,900\r
                "Blue, the best",Bo,rain,cup,no,40\r

                """)
        let missed = WordAnswerSheet.missedWords(answers)
        #expect(missed.map(\.player) == ["Ann", "Bo"])
        #expect(missed.map(\.words) == [["sun"], ["rain"]])
    }
}
