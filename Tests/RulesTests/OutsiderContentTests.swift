import Foundation
import Testing

@testable import Rules

/// The message of the refusal `body` throws, or nil (recorded) when it throws none.
func refusalMessage(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> RuleError? {
    do {
        try body()
        Issue.record("no refusal", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error is RuleError, "\(error)", sourceLocation: sourceLocation)
        return error as? RuleError
    }
}

@Suite("Odd One Out puzzle packs")
struct OutsiderContentTests {
    @Test func theBuiltInPacksLoadWithEveryPuzzleChecked() throws {
        let library = OutsiderPackLibrary()
        #expect(library.builtinPacks.count >= 6)
        for pack in library.builtinPacks {
            #expect(pack.isBuiltin)
            #expect(pack.puzzles.count >= 40, "\(pack.id) has \(pack.puzzles.count) puzzles")
            for puzzle in pack.puzzles {
                #expect(try puzzle.checked() == puzzle, "\(pack.id): \(puzzle.words) is not in its checked form")
                #expect(puzzle.others.count == 3)
            }
            #expect(Set(pack.puzzles.map(\.sameness)).count == pack.puzzles.count, "\(pack.id) repeats a puzzle")
        }
        #expect(
            library.listPacks().first { $0.id == "animals" }?.puzzleCount == library.pack(id: "animals")?.puzzles.count)
    }

    @Test func aPuzzleNeedsFourDistinctWordsWithTheOutsiderAmongThem() throws {
        let good = OutsiderPuzzle(
            difficulty: .easy, words: [" dog", "green ", "red", "blue"], outsider: "Dog", link: " colours ")
        let checked = try good.checked()
        #expect(checked.words == ["dog", "green", "red", "blue"])
        #expect(checked.outsider == "dog", "the outsider is spelt as among the words")
        #expect(checked.link == "colours")
        let three = try OutsiderPuzzle(difficulty: .easy, words: ["green", "red", "blue"], outsider: "dog", link: "x")
            .checked()
        #expect(three.words == ["dog", "green", "red", "blue"])
        let cases: [(OutsiderPuzzle, String)] = [
            (
                OutsiderPuzzle(difficulty: .easy, words: ["a", "b", "c", "d", "e"], outsider: "a", link: "x"),
                "four words"
            ),
            (
                OutsiderPuzzle(difficulty: .easy, words: ["dog", "red", "Red!", "blue"], outsider: "dog", link: "x"),
                "twice"
            ),
            (
                OutsiderPuzzle(difficulty: .easy, words: ["cat", "green", "red", "blue"], outsider: "dog", link: "x"),
                "four words"
            ),
            (
                OutsiderPuzzle(
                    difficulty: .easy, words: ["cat", "green", "red", "blue", "x"], outsider: "dog", link: "x"), "four"
            ),
            (
                OutsiderPuzzle(difficulty: .easy, words: ["dog", "green", "red", "blue"], outsider: "dog", link: " "),
                "link"
            ),
            (
                OutsiderPuzzle(difficulty: .easy, words: ["dog", "", "red", "blue"], outsider: "dog", link: "x"),
                "empty"
            ),
            (
                OutsiderPuzzle(difficulty: .easy, words: ["dog", "red", "blue", "cat"], outsider: "pig", link: "x"),
                "not one of"
            ),
        ]
        for (puzzle, words) in cases {
            let error = refusalMessage { _ = try puzzle.checked() }
            #expect(error?.code == .badPuzzle)
            #expect(error?.message.contains(words) == true, "\(puzzle.words): \(error?.message ?? "")")
        }
    }

    @Test func textThatATerminalWouldObeyIsRefused() throws {
        let escape = OutsiderPuzzle(
            difficulty: .easy, words: ["dog", "green", "red\u{1B}[2J", "blue"], outsider: "dog", link: "c")
        #expect(throws: RuleError.self) { try escape.checked() }
        do {
            _ = try escape.checked()
        } catch {
            #expect(error.code == .badText)
            #expect(error.message.hasPrefix("A word may not contain control characters"), "\(error.message)")
        }
        let link = OutsiderPuzzle(
            difficulty: .easy, words: ["dog", "green", "red", "blue"], outsider: "dog", link: "\u{202E}x")
        #expect(throws: RuleError.self) { try link.checked() }
        var library = OutsiderPackLibrary()
        #expect(throws: RuleError.self) { try library.createPack(named: "Bell\u{07}s") }
    }

    @Test func jsonAndCsvFilesRoundTripAndNameTheLineAtFault() throws {
        let json = """
            {"name":"Colours and more","puzzles":[
              {"difficulty":"easy","words":["dog","green","red","blue"],"outsider":"dog","link":"colours"},
              {"difficulty":"hard","words":["oak","elm","ash"],"outsider":"rose","link":"trees"}
            ]}
            """
        let pack = try OutsiderPackFile.decodeJSON(bytes: Array(json.utf8))
        #expect(pack.id == "colours-and-more")
        #expect(pack.puzzles.count == 2)
        #expect(pack.puzzles[1].words == ["rose", "oak", "elm", "ash"])
        let again = try OutsiderPackFile.decodeJSON(bytes: Array(OutsiderPackFile.encodeJSON(pack).utf8))
        #expect(again == pack)
        let csv = OutsiderPackFile.encodeCSV(pack)
        #expect(csv.hasPrefix("difficulty,outsider,word1,word2,word3,link\r\n"))
        #expect(csv.contains("easy,dog,green,red,blue,colours"))
        let fromCSV = try OutsiderPackFile.decodeCSV(csv, name: "Colours and more")
        #expect(fromCSV.puzzles.map(\.sameness) == pack.puzzles.map(\.sameness))
        #expect(fromCSV.puzzles.map(\.outsider) == ["dog", "rose"])

        let badJSON = """
            {"name":"Bad","puzzles":[
              {"difficulty":"easy","words":["dog","green","red","blue"],"outsider":"dog","link":"colours"},
              {"difficulty":"easy","words":["dog","green","red","blue"],"outsider":"cat","link":"colours"}
            ]}
            """
        let jsonError = refusalMessage { _ = try OutsiderPackFile.decodeJSON(bytes: Array(badJSON.utf8)) }
        #expect(jsonError?.code == .badJSON)
        #expect(jsonError?.message.hasPrefix("line 3:") == true, "\(jsonError?.message ?? "")")
        let repeated = badJSON.replacingOccurrences(of: "\"cat\"", with: "\"dog\"")
        #expect(
            refusalMessage { _ = try OutsiderPackFile.decodeJSON(bytes: Array(repeated.utf8)) }?.message
                .contains("same four words as puzzle 1") == true)
        let missing = #"{"name":"X","puzzles":[{"words":["a","b","c","d"],"outsider":"a","link":"l"}]}"#
        #expect(
            refusalMessage { _ = try OutsiderPackFile.decodeJSON(bytes: Array(missing.utf8)) }?.message
                .contains("has no \"difficulty\"") == true)

        let badCSV =
            "difficulty,outsider,word1,word2,word3,link\neasy,dog,green,red,blue,colours\nmedium,cat,cat,b,c,l\n"
        let csvError = refusalMessage { _ = try OutsiderPackFile.decodeCSV(badCSV, name: "x") }
        #expect(csvError?.code == .badCSV)
        #expect(csvError?.message.hasPrefix("line 3:") == true, "\(csvError?.message ?? "")")
        let noHeader = "easy,dog,green,red,blue,colours\n"
        #expect(
            refusalMessage { _ = try OutsiderPackFile.decodeCSV(noHeader, name: "x") }?.message
                .contains("header difficulty,outsider,word1,word2,word3,link") == true)
        let tough = "difficulty,outsider,word1,word2,word3,link\nsilly,dog,green,red,blue,colours\n"
        #expect(
            refusalMessage { _ = try OutsiderPackFile.decodeCSV(tough, name: "x") }?.message
                .contains("easy, medium or hard") == true)
    }

    @Test func customPacksAreCreatedEditedCopiedAndDeletedButBuiltInsAreReadOnly() throws {
        var library = OutsiderPackLibrary()
        let id = try library.createPack(named: "Office party")
        #expect(id == "office-party")
        let puzzle = OutsiderPuzzle(
            difficulty: .medium, outsider: "stapler", others: ["Monday", "Friday", "Sunday"], link: "days")
        try library.addEntry(puzzle, toPack: id)
        #expect(refusalMessage { try library.addEntry(puzzle, toPack: id) }?.code == .duplicatePuzzle)
        let edited = OutsiderPuzzle(
            difficulty: .hard, outsider: "mouse", others: ["April", "May", "June"], link: "months")
        try library.editEntry(at: 0, inPack: id, to: edited)
        #expect(library.pack(id: id)?.puzzles.first?.outsider == "mouse")
        #expect(refusalMessage { try library.editEntry(at: 3, inPack: id, to: edited) }?.code == .badQuestionIndex)
        try library.renamePack(id, to: "Office fun")
        #expect(library.pack(id: id)?.name == "Office fun")
        #expect(refusalMessage { try library.renamePack(id, to: "animals") }?.code == .packNameTaken)
        #expect(refusalMessage { try library.addEntry(puzzle, toPack: "animals") }?.code == .readOnly)
        #expect(refusalMessage { try library.deletePack("animals") }?.code == .readOnly)
        let copy = try library.copyPack("animals")
        #expect(library.pack(id: copy)?.name == "Animals (copy)")
        #expect(library.pack(id: copy)?.isBuiltin == false)
        #expect(library.isBuiltin(id: "animals") && !library.isBuiltin(id: copy))
        #expect(try library.removeEntry(at: 0, fromPack: id).outsider == "mouse")
        try library.deletePack(id)
        #expect(library.pack(id: id) == nil)
        #expect(refusalMessage { try library.deletePack(id) }?.code == .unknownPack)
        // Import keeps a free id and makes a fresh one when it is taken.
        let imported = try library.add(OutsiderPack(id: "animals", name: "Wild", puzzles: [puzzle]))
        #expect(imported == "animals-2")
        #expect(library.customItems.map(\.id) == [copy, "animals-2"])
    }

    @Test func drawingHonoursPacksDifficultyAndCounts() throws {
        let library = OutsiderPackLibrary()
        var rng = SplitMix64(seed: 11)
        let drawn = try library.draw(packIDs: ["animals", "food"], count: 12, difficulty: .mixed, using: &rng)
        #expect(drawn.count == 12)
        #expect(Set(drawn.map(\.puzzle.sameness)).count == 12, "no puzzle twice")
        #expect(Set(drawn.map(\.puzzle.difficulty)) == Set(Difficulty.allCases), "mixed spreads over difficulties")
        #expect(Set(drawn.map(\.category)).isSubset(of: ["Animals", "Food & Drink"]))
        let hard = try library.draw(packIDs: ["sport"], count: 5, difficulty: .hard, using: &rng)
        #expect(hard.allSatisfy { $0.puzzle.difficulty == .hard && $0.category == "Sport & Games" })
        #expect(
            refusalMessage {
                _ = try library.draw(packIDs: ["nope"], count: 1, difficulty: .mixed, using: &rng)
            }?
            .code == .unknownPack)
        #expect(
            refusalMessage { _ = try library.draw(packIDs: [], count: 1, difficulty: .mixed, using: &rng) }?
                .code == .noPacks)
        let tooMany = refusalMessage {
            _ = try library.draw(packIDs: ["words"], count: 500, difficulty: .easy, using: &rng)
        }
        #expect(tooMany?.code == .notEnoughQuestions)
        // The same seed draws the same puzzles.
        var first = SplitMix64(seed: 3)
        var second = SplitMix64(seed: 3)
        #expect(
            try library.draw(packIDs: ["geography"], count: 8, difficulty: .mixed, using: &first)
                == library.draw(packIDs: ["geography"], count: 8, difficulty: .mixed, using: &second))
    }
}
