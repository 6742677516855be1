import Foundation
import Rules
import TestSupport
import Testing

@testable import Host

/// Log lines kept for a test to read.
private final class LogLines {
    var lines: [String] = []
    var logger: Logger { Logger(level: .debug) { [self] in lines.append($0) } }
    var text: String { lines.joined(separator: "\n") }
}

private func write(_ text: String, to path: String) {
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), "could not write \(path)")
}

private func read(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private func files(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
}

/// A valid pack file's text.
private func packJSON(id: String?, name: String, answer: String = "Paris") -> String {
    let idMember = id.map { "\"id\": \"\($0)\", " } ?? ""
    return "{\(idMember)\"name\": \"\(name)\", \"questions\": [\n"
        + "  {\"difficulty\": \"easy\", \"text\": \"What is the capital of France?\", \"answer\": \"\(answer)\"}\n]}\n"
}

/// The data folder's content stores: one file format with import and export, one gate for every pack,
/// and no file the host did not read is ever overwritten.
@Suite("Content storage", .timeLimit(.minutes(10)))
struct ContentStorageTests {
    @Test func anExportedPackCopiedIntoPacksLoads() throws {
        let first = TemporaryDirectory()
        let csv = first.path + "/pub.csv"
        write(
            "difficulty,question,answer\r\neasy,Which planet is red?,Mars\r\nhard,Which metal is liquid?,Mercury\r\n",
            to: csv)
        #expect(try StorageTests.run(["pack", "import", csv, "--data", first.path]).status == 0)
        let exported = first.path + "/exported.json"
        let export = try StorageTests.run(["pack", "export", "pub", exported, "--data", first.path])
        #expect(export.status == 0, "\(export.output)")
        let exportedText = try #require(read(exported))
        #expect(read(first.path + "/packs/pub.json") == exportedText, "the data folder's file is the export format")

        // Another host's data folder, under a different file name.
        let second = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: second.path + "/packs", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: exported, toPath: second.path + "/packs/from-a-friend.json")
        let again = second.path + "/again.json"
        let reexport = try StorageTests.run(["pack", "export", "pub", again, "--data", second.path])
        #expect(reexport.status == 0, "\(reexport.output)")
        #expect(!reexport.output.contains("skipped"), "\(reexport.output)")
        #expect(read(again) == exportedText)

        let storage = try Storage(directory: second.path, log: LogLines().logger)
        #expect(storage.loadProblems.isEmpty)
        #expect(storage.packs.pack(id: "pub")?.questions.map(\.answer) == ["Mars", "Mercury"])
        // Saving writes back to the file it came from, not a second copy.
        try storage.packStore.change {
            try $0.renamePack("pub", to: "Pub night")
            return "pub"
        }
        #expect(files(in: second.path + "/packs") == ["from-a-friend.json"])
        #expect(try Storage(directory: second.path, log: LogLines().logger).packs.pack(id: "pub")?.name == "Pub night")
    }

    @Test func packsStoredByEarlierVersionsStillLoad() throws {
        let data = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: data.path + "/packs", withIntermediateDirectories: true)
        // The shape older hosts wrote: JSONEncoder's QuizPack with an isBuiltin member.
        write(
            """
            {
              "id" : "old",
              "isBuiltin" : false,
              "name" : "Old pack",
              "questions" : [
                { "answer" : "Paris", "difficulty" : "easy", "text" : "What is the capital of France?" }
              ]
            }
            """, to: data.path + "/packs/old.json")
        let storage = try Storage(directory: data.path, log: LogLines().logger)
        #expect(storage.loadProblems.isEmpty)
        #expect(storage.packs.pack(id: "old")?.name == "Old pack")
        #expect(storage.packs.pack(id: "old")?.isBuiltin == false)
    }

    @Test func filesInPacksPassTheLibrarysRules() throws {
        let data = TemporaryDirectory()
        let packs = data.path + "/packs"
        try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
        write(packJSON(id: "a-pub", name: "Pub"), to: packs + "/a.json")
        write(packJSON(id: "b-pub", name: "PUB!"), to: packs + "/b.json")  // the same name, folded
        write(packJSON(id: "short", name: "Short", answer: "Pa"), to: packs + "/c.json")
        write(packJSON(id: "science", name: "My Science"), to: packs + "/d.json")  // a built-in's id
        write("difficulty,question,answer\n", to: packs + "/e.csv")
        let storage = try Storage(directory: data.path, log: LogLines().logger)
        let problems = storage.loadProblems.joined(separator: "\n")
        #expect(storage.packs.customPacks.map(\.id) == ["a-pub", "science-2"])
        #expect(problems.contains("b.json was skipped: There is already a pack called \"PUB!\""))
        #expect(problems.contains("c.json was skipped: line 2: question 1: the answer \"Pa\" has 2 letters"))
        #expect(problems.contains("e.csv was not loaded"))
        #expect(storage.loadProblems.count == 3)
        // The pack that got a fresh id is saved back into its own file.
        try storage.packStore.change {
            try $0.renamePack("science-2", to: "Lab")
            return "science-2"
        }
        #expect(files(in: packs) == ["a.json", "b.json", "c.json", "d.json", "e.csv"])
        #expect(read(packs + "/d.json")?.contains("\"science-2\"") == true)
    }

    @Test func aBrokenPackFileIsKeptAsABackupWhenAPackTakesItsName() throws {
        let data = TemporaryDirectory()
        let packs = data.path + "/packs"
        try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
        let broken = "{\n  \"name\": \"Oops\",\n  \"questions\": [ { \"difficulty\": \"easy\", \n  ]\n}\n"
        write(broken, to: packs + "/oops.json")
        write("left over", to: packs + "/oops.json.broken-1")
        let log = LogLines()
        let storage = try Storage(directory: data.path, log: log.logger)
        #expect(
            storage.loadProblems == [
                "The quiz pack file \(packs)/oops.json was skipped: line 4, column 3: expected a "
                    + "member name in quotes but found ']'. Fix or remove the file; the host leaves it as it is."
            ])

        // The server's way today: change the library, then save the pack.
        var library = storage.packs
        let id = try library.createPack(named: "Oops")
        #expect(id == "oops")
        storage.packs = library
        try storage.savePack(id: id)
        #expect(read(packs + "/oops.json.broken-2") == broken, "the unreadable file is kept, not overwritten")
        #expect(read(packs + "/oops.json.broken-1") == "left over")
        #expect(log.text.contains("\(packs)/oops.json was not loaded when the host started"))
        #expect(log.text.contains("kept as oops.json.broken-2"))
        #expect(try PackFile.decodeJSON(Data(try #require(read(packs + "/oops.json")).utf8)).name == "Oops")

        // From now on the file is the pack's own: saving again keeps no further copies.
        try storage.packStore.change {
            try $0.addEntry(
                QuizQuestion(
                    difficulty: .easy, text: "Which planet is red?",
                    answer: "Mars"), toPack: "oops")
            return "oops"
        }
        #expect(files(in: packs) == ["oops.json", "oops.json.broken-1", "oops.json.broken-2"])
        #expect(log.lines.count == 1)
    }

    @Test func aFileThatAppearedAfterStartIsNeverOverwritten() throws {
        let data = TemporaryDirectory()
        let storage = try Storage(directory: data.path, log: LogLines().logger)
        let packs = data.path + "/packs"
        write(packJSON(id: "other", name: "Somebody else's"), to: packs + "/quiz.json")
        try storage.packStore.change { try $0.createPack(named: "Quiz") }
        #expect(read(packs + "/quiz.json.broken-1") == packJSON(id: "other", name: "Somebody else's"))
        #expect(read(packs + "/quiz.json")?.contains("\"Quiz\"") == true)

        // Deleting removes the pack's own file only.
        write("not mine", to: packs + "/gone.json")
        try storage.packStore.change {
            try $0.deletePack("quiz")
            return "quiz"
        }
        #expect(files(in: packs) == ["gone.json", "quiz.json.broken-1"])
    }

    @Test func changesTheRulesOrTheDiskRefuseLeaveNothingChanged() throws {
        let data = TemporaryDirectory()
        let storage = try Storage(directory: data.path, log: LogLines().logger)
        #expect(throws: RuleError(.packNameTaken, "There is already a pack called \"science\"; choose another name.")) {
            try storage.packStore.change { try $0.createPack(named: "science") }
        }
        #expect(
            throws: RuleError(
                .readOnly, "The built-in quiz pack \"science\" cannot be changed; copy it to make your own.")
        ) {
            try storage.packStore.change { _ in "science" }
        }
        // A file where the packs folder should be makes the write fail: the library is left as it was.
        try storage.packStore.change { try $0.createPack(named: "Kept") }
        try FileManager.default.removeItem(atPath: data.path + "/packs")
        write("not a folder", to: data.path + "/packs")
        let before = storage.packs.customPacks
        do {
            try storage.packStore.change { try $0.createPack(named: "Blocked") }
            Issue.record("saving over a folder should fail")
        } catch {
            #expect(error.code == .storage)
            #expect(error.message.hasPrefix("Could not save the quiz pack \"blocked\""))
            #expect(error.message.hasSuffix("Nothing was changed."))
        }
        #expect(storage.packs.customPacks == before)
        #expect(storage.packs.customPacks.map(\.id) == ["kept"])
    }

    @Test func importsNameTheFileAndLineAndExportsPickTheFormat() throws {
        let data = TemporaryDirectory()
        let storage = try Storage(directory: data.path, log: LogLines().logger)
        let bad = data.path + "/bad.csv"
        write(
            "difficulty,question,answer\r\neasy,What is the capital of France?,Paris\r\nhardest,Q?,Answer\r\n", to: bad)
        #expect(throws: RuleError(.badCSV, "\(bad): line 3: difficulty must be easy, medium or hard, not \"hardest\""))
        {
            try storage.packStore.importFile(bad)
        }
        let sheet = data.path + "/pub.xlsx"
        write("PK", to: sheet)
        #expect(throws: RuleError(.badField, "\(sheet): quiz pack files end in .json or .csv.")) {
            try storage.packStore.importFile(sheet)
        }
        #expect(throws: RuleError(.storage, "Could not read \(data.path)/none.json: there is no such file.")) {
            try storage.packStore.importFile(data.path + "/none.json")
        }
        let good = data.path + "/Friday Quiz.csv"
        write("difficulty,question,answer\nmedium,Which planet is red?,Mars\n", to: good)
        let pack = try storage.packStore.importFile(good)
        #expect(pack.id == "friday-quiz" && pack.name == "Friday Quiz")
        #expect(
            throws: RuleError(
                .packNameTaken, "\(good): There is already a pack called \"Friday Quiz\"; choose another name.")
        ) {
            try storage.packStore.importFile(good)
        }
        #expect(files(in: data.path + "/packs") == ["friday-quiz.json"])

        try storage.packStore.export(id: "friday-quiz", to: data.path + "/out.CSV")
        #expect(read(data.path + "/out.CSV") == "difficulty,question,answer\r\nmedium,Which planet is red?,Mars\r\n")
        try storage.packStore.export(id: "science", to: data.path + "/science.txt")
        #expect(
            try PackFile.decodeJSON(Data(try #require(read(data.path + "/science.txt")).utf8)).questions
                == BuiltinPacks.pack(id: "science")?.questions)
        #expect(throws: RuleError(.unknownPack, "There is no pack \"nope\". Type packs to list them.")) {
            try storage.packStore.export(id: "nope", to: data.path + "/nope.json")
        }
    }

    @Test func anUnreadableCommandLibraryIsKeptBeforeItIsOverwritten() throws {
        let data = TemporaryDirectory()
        let path = data.path + "/commands.json"
        let broken = "{\n  \"userCommands\": [],\n  \"hiddenBuiltinIDs\": [],\n  \"nextID\": \"one\"\n}\n"
        write(broken, to: path)
        let log = LogLines()
        let storage = try Storage(directory: data.path, log: log.logger)
        #expect(storage.loadProblems.count == 1)
        #expect(storage.loadProblems.first?.contains("line 4: \"nextID\" must be a number, not a string.") == true)
        #expect(storage.commands == CommandLibrary())

        var commands = storage.commands
        let added = try commands.add(text: "No. {1} sings a song.", kind: .citizenToAll, difficulty: .mild)
        storage.commands = commands
        try storage.saveCommands()
        #expect(read(path + ".broken-1") == broken)
        #expect(log.text.contains("kept as commands.json.broken-1"))
        try storage.saveCommands()
        #expect(!FileManager.default.fileExists(atPath: path + ".broken-2"), "only the unread file is kept")

        let reloaded = try Storage(directory: data.path, log: LogLines().logger)
        #expect(reloaded.loadProblems.isEmpty)
        #expect(reloaded.commands.command(id: added.id)?.text == "No. {1} sings a song.")
    }
}

extension ContentStorageTests {
    @Test func gamesEndingInTheSameSecondKeepTheirOrderWhateverTheirModes() throws {
        let data = TemporaryDirectory()
        let storage = try Storage(directory: data.path, log: LogLines().logger)
        // Within one second more often than not; the order must hold either way.
        for name in ["shaky", "fly", "queen", "fly"] {
            storage.saveGameLog(["marker": .string(name)], name: name, log: LogLines().logger)
        }
        let files = storage.gameLogFiles
        #expect(files.count == 4, "no log overwrote another: \(files)")
        let games = (1...4).compactMap { storage.gameLog(String($0))?.game }
        #expect(games == ["shaky", "fly", "queen", "fly"], "history numbers them in the order they ended: \(files)")
    }
}
