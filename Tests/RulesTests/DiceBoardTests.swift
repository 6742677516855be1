import Common
import Testing

@testable import Rules

/// A board of tiles at `(x, y)` (ids 1, 2, … in order) with `paths`, starting at tile 1.
func makeBoard(_ cells: [(Int, Int)], paths: [(Int, Int)], words: [String]? = nil) -> DiceBoard {
    let tiles = cells.enumerated().map { index, cell in
        DiceBoard.Tile(id: index + 1, word: words?[index] ?? "w", x: cell.0, y: cell.1, isStart: index == 0)
    }
    return DiceBoard(
        id: "test", name: "Test", list: "en", level: 1, tiles: tiles, paths: paths.map { DiceBoard.Path($0.0, $0.1) })
}

/// A straight line of `count` tiles, 1 – 2 – … – count, along row 0.
func lineBoard(_ count: Int) -> DiceBoard {
    makeBoard((0..<count).map { ($0, 0) }, paths: (1..<count).map { ($0, $0 + 1) })
}

/// Dice boards: their rules, moving on them, and the helpful die.
@Suite struct DiceBoardTests {
    @Test func theBuiltinBoardsAreCompleteAndUseTheirListsWords() throws {
        let boards = DiceBoardLibrary().boards
        #expect(boards.map(\.id) == ["garden", "skogen"])
        let lists = WordListLibrary()
        for board in boards {
            try board.checkStructure()
            #expect(board.completenessProblem == nil, "\(board.id): \(board.completenessProblem ?? "")")
            let list = try #require(lists.list(id: board.list))
            let words = Set(list.words(level: board.level).map(\.word))
            for tile in board.tiles { #expect(words.contains(tile.word), "\(board.id): \(tile.word)") }
            #expect(board.tiles.filter { board.neighbours(of: $0.id).count >= 3 }.count >= 2, "\(board.id) has forks")
        }
    }

    @Test func theJSONFormatRoundTripsAndNamesTheLineOfAProblem() throws {
        let garden = try #require(DiceBoardLibrary().board(id: "garden"))
        let again = try DiceBoardFile.decodeJSON(bytes: Array(DiceBoardFile.encodeJSON(garden).utf8))
        var expected = garden
        expected.isBuiltin = false
        #expect(again == expected)
        let broken = """
            {"name":"B","list":"en",
            "tiles":[{"id":1,"word":"sun","x":0,"y":0,"start":true},
            {"id":2,"word":"rain","x":1,"y":1}],
            "paths":[
            [1,2]]}
            """
        do {
            _ = try DiceBoardFile.decodeJSON(bytes: Array(broken.utf8))
            Issue.record("a diagonal path was accepted")
        } catch {
            #expect(error.code == .badBoard)
            #expect(
                error.message.hasPrefix("line 5: The path 1–2 must run along a row or a column"), "\(error.message)")
        }
    }

    @Test func structuralRulesRefuseWhatCannotBeDrawn() {
        let cases: [(DiceBoard, String)] = [
            (makeBoard([(0, 0), (0, 0)], paths: [(1, 2)]), "Tiles 1 and 2 are both at x 0, y 0."),
            (makeBoard([(0, 0), (12, 0)], paths: []), "Tile 2 at x 12, y 0 is off the grid"),
            (makeBoard([(0, 0), (2, 0), (1, 0)], paths: [(1, 2)]), "The path 1–2 runs over tile 3"),
            (makeBoard([(0, 0), (1, 0)], paths: [(1, 2), (2, 1)]), "The path 1–2 is there twice."),
            (makeBoard([(0, 0), (1, 0)], paths: [(1, 3)]), "The path 1–3 names tile 3"),
            (makeBoard([(0, 1), (2, 1), (1, 0), (1, 2)], paths: [(1, 2), (3, 4)]), "The paths 1–2 and 3–4 cross"),
            (makeBoard([(0, 0), (1, 0)], paths: [], words: ["sun", "two words"]), "Tile 2's word must be one word"),
        ]
        for (board, message) in cases {
            #expect {
                try board.checkStructure()
            } throws: { error in
                (error as? RuleError)?.message.hasPrefix(message) == true
            }
        }
    }

    @Test func completenessNamesWhatIsMissing() {
        var board = lineBoard(3)
        #expect(board.completenessProblem == nil)
        board.paths.removeLast()
        #expect(board.completenessProblem?.contains("Tile 3 (w)") == true)
        board = makeBoard([(0, 0), (1, 0), (3, 0), (4, 0)], paths: [(1, 2), (3, 4)])
        #expect(board.completenessProblem?.contains("cannot be reached") == true)
        board.tiles[0].isStart = false
        #expect(board.completenessProblem?.contains("no start tile") == true)
    }

    @Test func tokensNeverTurnBackExceptAtADeadEnd() {
        // 1 – 2 – 3 with 4 below 2: a fork at 2.
        let board = makeBoard([(0, 0), (1, 0), (2, 0), (1, 1)], paths: [(1, 2), (2, 3), (2, 4)])
        #expect(board.nextSteps(at: 2, cameFrom: nil) == [1, 3, 4], "the first step may go any way")
        #expect(board.nextSteps(at: 2, cameFrom: 1) == [3, 4], "no turning back at a fork")
        #expect(board.nextSteps(at: 3, cameFrom: 2) == [2], "a dead end sends the token back")
        #expect(board.reachable(from: 1, steps: 2) == [3, 4])
        #expect(board.reachable(from: 1, steps: 3) == [2], "after a dead end the token comes back")
        #expect(board.reachable(from: 2, steps: 1) == [1, 3, 4])
    }

    @Test func theHelpfulDieAlwaysReachesAnUnfinishedTileWhenOneIsWithinSix() {
        let line = lineBoard(8)
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300 {
            // Only tile 4 is left, three steps away: the die must show 3.
            let roll = line.rollHelpfulDie(from: 1, unfinished: [4], using: &rng)
            #expect(roll.value == 3 && roll.isHelpful)
        }
        var seen: Set<Int> = []
        for _ in 0..<300 {
            // Tiles 3 and 6 are left: 2 or 5, never anything else, and both come up.
            let roll = line.rollHelpfulDie(from: 1, unfinished: [3, 6], using: &rng)
            #expect([2, 5].contains(roll.value))
            seen.insert(roll.value)
        }
        #expect(seen == [2, 5])
        // On a ring a token can reach a tile either way round.
        let ring = makeBoard(
            [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)],
            paths: [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 1)])
        #expect(ring.helpfulNumbers(from: 1, unfinished: [4]) == [3, 5])
    }

    @Test func theDieIsFairWhenItCannotHelp() {
        let line = lineBoard(10)
        var rng = SplitMix64(seed: 7)
        var counts = [Int: Int]()
        for _ in 0..<6000 {
            // Only tile 10 is left, nine steps away: no number can reach it.
            let roll = line.rollHelpfulDie(from: 1, unfinished: [10], using: &rng)
            #expect(!roll.isHelpful)
            counts[roll.value, default: 0] += 1
        }
        #expect(counts.keys.sorted() == [1, 2, 3, 4, 5, 6])
        for (value, count) in counts {
            #expect((850...1150).contains(count), "\(value) came up \(count) times of 6000")
        }
    }

    @Test func theDieIsSeeded() {
        let board = lineBoard(12)
        var first = SplitMix64(seed: 99)
        var second = SplitMix64(seed: 99)
        let a = (0..<20).map { _ in board.rollHelpfulDie(from: 1, unfinished: [3, 5, 7], using: &first).value }
        let b = (0..<20).map { _ in board.rollHelpfulDie(from: 1, unfinished: [3, 5, 7], using: &second).value }
        #expect(a == b)
    }

    @Test func boardsAreBuiltTileByTileAndARefusedChangeChangesNothing() throws {
        var library = DiceBoardLibrary()
        let id = try library.createBoard(named: "Our path", list: "en", level: 1)
        let sun = try library.addTile(word: "sun", x: 0, y: 0, toBoard: id)
        let rain = try library.addTile(word: "rain", x: 2, y: 0, toBoard: id)
        #expect(library.board(id: id)?.start?.id == sun, "the first tile starts")
        #expect(library.board(id: id)?.completenessProblem?.contains("on no path") == true)
        try library.addPath(sun, rain, onBoard: id)
        #expect(library.board(id: id)?.completenessProblem == nil)
        let before = library
        #expect(throws: RuleError.self) { try library.addTile(word: "snow", x: 1, y: 0, toBoard: id) }
        #expect(library == before, "a tile on the path between two tiles is refused and nothing changes")
        let snow = try library.addTile(word: "snow", x: 0, y: 1, toBoard: id)
        try library.addPath(sun, snow, onBoard: id)
        try library.setStart(snow, onBoard: id)
        #expect(library.board(id: id)?.start?.id == snow)
        try library.removeTile(sun, fromBoard: id)
        #expect(library.board(id: id)?.paths.isEmpty == true, "a removed tile takes its paths")
        #expect(throws: RuleError.self) { try library.addTile(word: "x", x: 0, y: 0, toBoard: "garden") }
        let copy = try library.copyBoard("garden")
        #expect(library.board(id: copy)?.tiles == library.board(id: "garden")?.tiles)
        #expect(library.board(forList: "sv")?.id == "skogen")
    }
}
