import Common
import Testing

@testable import Rules

/// What the tablet's board editor gets from the board rules: each flaw with the tiles and paths to mark and a
/// sentence naming tiles by their words, the console's wording unchanged, and whole boards saved or replaced.
@Suite struct DiceBoardEditorTests {
    @Test func eachFlawNamesItsTilesAndPathsInWordsAndKeepsTheConsoleWording() {
        let words = ["sun", "rain", "bed", "fire"]
        // 1 sun (0,0) · 2 rain (2,0) · 3 bed (1,1) · 4 fire (1,-) … laid out per case.
        let crossing = makeBoard(
            [(0, 1), (2, 1), (1, 0), (1, 2)], paths: [(1, 2), (3, 4)], words: words)
        #expect(crossing.firstFlaw == .pathsCross(DiceBoard.Path(1, 2), DiceBoard.Path(3, 4)))
        #expect(crossing.firstFlaw?.paths == [DiceBoard.Path(1, 2), DiceBoard.Path(3, 4)])
        #expect(
            crossing.firstFlaw?.editorMessage(on: crossing)
                == "The paths “sun”–“rain” and “bed”–“fire” cross. Paths may only meet at a tile.")
        #expect(throws: RuleError(.badBoard, "The paths 1–2 and 3–4 cross; paths may meet only at tiles.")) {
            try crossing.checkStructure()
        }

        let over = makeBoard([(0, 0), (1, 0), (2, 0)], paths: [(1, 3)], words: words)
        #expect(
            over.firstFlaw?.editorMessage(on: over)
                == "The path “sun”–“bed” goes over “rain”. Join tiles that are next to each other.")
        #expect(over.firstFlaw?.tiles == [2])

        let bent = makeBoard([(0, 0), (1, 1)], paths: [(1, 2)], words: words)
        #expect(bent.firstFlaw == .pathNotStraight(DiceBoard.Path(1, 2)))
        #expect(bent.firstFlaw?.message(on: bent).contains("tile 1 is at 0,0 and tile 2 at 1,1") == true)

        let away = makeBoard([(0, 0), (1, 0), (5, 5), (6, 5)], paths: [(1, 2), (3, 4)], words: words)
        #expect(away.firstFlaw == .unreachable(3))
        #expect(away.firstFlaw?.editorMessage(on: away) == "Nobody can reach “bed” from the start. Draw a path to it.")
        #expect(away.completenessProblem == "Tile 3 (bed) of \"Test\" cannot be reached from the start tile.")

        var noStart = makeBoard([(0, 0), (1, 0)], paths: [(1, 2)], words: words)
        noStart.tiles[0].isStart = false
        #expect(noStart.firstFlaw == .noStart && noStart.firstFlaw?.tiles == [])
        #expect(makeBoard([(0, 0), (1, 0)], paths: [(1, 2)], words: words).firstFlaw == nil)
    }

    @Test func aWholeBoardIsSavedCompleteAndReplacedUnderItsID() throws {
        var library = DiceBoardLibrary()
        var board = makeBoard([(0, 0), (3, 0)], paths: [(1, 2)], words: ["sun", "rain"])
        board.id = ""
        board.name = "Our path"
        let id = try library.save(board, replacing: nil)
        #expect(id == "our-path" && library.board(id: id)?.tiles.count == 2)

        var incomplete = board
        incomplete.paths = []
        #expect(throws: RuleError.self) { try library.save(incomplete, replacing: id) }
        #expect(library.board(id: id)?.paths.count == 1, "a refused save changes nothing")

        var grown = board
        grown.tiles.append(DiceBoard.Tile(id: 3, word: "bed", x: 3, y: 2))
        grown.paths.append(DiceBoard.Path(2, 3))
        #expect(try library.save(grown, replacing: id) == id)
        #expect(library.board(id: id)?.tiles.count == 3)
        #expect(throws: RuleError.self) { try library.save(grown, replacing: nil) }  // the name is taken
        #expect(throws: RuleError.self) { try library.save(grown, replacing: "garden") }  // built in
    }
}
