import Foundation
import Rules
import TestSupport
import Testing

@testable import Host

private func write(_ text: String, to path: String) {
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), "could not write \(path)")
}

private func read(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private func files(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
}

private func quietLog() -> Logger { Logger(level: .error) { _ in } }

/// The puzzle packs of a data folder, as the `puzzles` tool keeps them.
private func puzzleStore(_ data: TemporaryDirectory) throws -> ContentStore<OutsiderPacks> {
    try ContentTool<OutsiderPacks>(folder: data.path + "/" + OutsiderPacks.folderName, log: quietLog()).store
}

/// The hunts of a data folder, as the `hunt` tool keeps them.
private func huntStore(_ data: TemporaryDirectory) throws -> ContentStore<Hunts> {
    try ContentTool<Hunts>(folder: data.path + "/" + Hunts.folderName, log: quietLog()).store
}

/// A hunt without codes, in the import format of the issue.
private let codelessHunt = """
    {"id":"garden","name":"Garden hunt","stations":[
    {"name":"Shed","clue":"Where the tools sleep","question":{"text":"What do you dig with?","answer":"spade"}},
    {"name":"Pond","clue":"Where the frogs sing",
     "puzzle":{"words":["frog","newt","toad","rose"],"outsider":"rose","link":"amphibians"}}]}
    """

/// Odd One Out's puzzle packs and the hunts live in the data folder like quiz packs: one file each, read at start
/// (broken files reported by name and line and left alone), saved atomically, imported and exported by extension.
@Suite("Puzzle packs, hunts and halls of fame in the data folder", .timeLimit(.minutes(10)))
struct GameContentStorageTests {
    @Test func puzzlePacksImportFromCSVAndJSONAndComeBackAfterARestart() throws {
        let data = TemporaryDirectory()
        let storage = try puzzleStore(data)
        #expect(storage.library.builtinPacks.count >= 6)
        let csv = data.path + "/Office party.csv"
        write(
            "difficulty,outsider,word1,word2,word3,link\r\neasy,stapler,Monday,Friday,Sunday,days\r\n"
                + "hard,mouse,April,May,June,months\r\n", to: csv)
        let pack = try storage.importFile(csv)
        #expect(pack.id == "office-party")
        #expect(pack.puzzles.count == 2)
        #expect(files(in: data.path + "/puzzles") == ["office-party.json"])
        try storage.export(id: "office-party", to: data.path + "/out.csv")
        #expect(read(data.path + "/out.csv")?.contains("hard,mouse,April,May,June,months") == true)
        try storage.export(id: "animals", to: data.path + "/animals.json")
        #expect(read(data.path + "/animals.json")?.contains("\"outsider\"") == true)

        let restarted = try puzzleStore(data)
        #expect(
            restarted.library.pack(id: "office-party")?.puzzles.map(\.outsider) == [
                "stapler", "mouse",
            ])
        #expect(restarted.problems.isEmpty, "\(restarted.problems)")
        // Refusals name the file and the line; nothing is saved.
        let bad = data.path + "/bad.csv"
        write("difficulty,outsider,word1,word2,word3,link\neasy,cat,cat,b,c,l\n", to: bad)
        #expect(throws: RuleError.self) { try storage.importFile(bad) }
        do {
            try storage.importFile(bad)
        } catch {
            #expect(error.message.hasPrefix("\(bad): line 2:"), "\(error.message)")
        }
        #expect(files(in: data.path + "/puzzles") == ["office-party.json"])
    }

    @Test func brokenFilesAreReportedByNameAndLineAndKeptAside() throws {
        let data = TemporaryDirectory()
        for folder in ["puzzles", "hunts"] {
            try FileManager.default.createDirectory(atPath: data.path + "/" + folder, withIntermediateDirectories: true)
        }
        write("{\"name\":\"Broken\",\"puzzles\":[\n{\"difficulty\":\"easy\"}]}", to: data.path + "/puzzles/broken.json")
        write("{\"name\":\"Garden hunt\",\n\"stations\":[]}", to: data.path + "/hunts/garden.json")
        write("difficulty,outsider\n", to: data.path + "/puzzles/stray.csv")
        let storage = try huntStore(data)
        let problems = (try puzzleStore(data).problems + storage.problems).joined(separator: "\n")
        #expect(problems.contains("puzzles/broken.json was skipped: line 2:"), "\(problems)")
        #expect(problems.contains("hunts/garden.json was skipped: line 1:"), "\(problems)")
        #expect(problems.contains("stray.csv was not loaded"), "\(problems)")
        // Importing a hunt whose file name is taken by the broken file keeps that file aside first.
        let source = data.path + "/garden-source.json"
        write(codelessHunt, to: source)
        let hunt = try storage.importFile(source)
        #expect(hunt.id == "garden")
        #expect(files(in: data.path + "/hunts") == ["garden.json", "garden.json.broken-1"])
        #expect(read(data.path + "/hunts/garden.json.broken-1")?.contains("\"stations\":[]") == true)
    }

    @Test func anImportedHuntKeepsItsGeneratedCodesInItsFile() throws {
        let data = TemporaryDirectory()
        let storage = try huntStore(data)
        #expect(storage.library.hunt(id: "demo") != nil)
        let source = data.path + "/garden-source.json"
        write(codelessHunt, to: source)
        let hunt = try storage.importFile(source)
        let codes = hunt.stations.map(\.code)
        #expect(codes.allSatisfy { $0.count == Hunt.generatedCodeLength })
        let stored = try #require(read(data.path + "/hunts/garden.json"))
        for code in codes { #expect(stored.contains("\"code\" : \"\(code)\"")) }
        let restarted = try huntStore(data)
        #expect(restarted.library.hunt(id: "garden")?.stations.map(\.code) == codes)
        try storage.export(id: "demo", to: data.path + "/demo.json")
        #expect(read(data.path + "/demo.json")?.contains("\"YUMM\"") == true)
        #expect(throws: RuleError.self) { try storage.export(id: "nope", to: data.path + "/x.json") }
        #expect(throws: RuleError.self) { try storage.importFile(data.path + "/garden.csv") }
    }

    @Test func theHallOfFameIsWrittenAtomicallyAndABrokenOneIsKeptAside() throws {
        let data = TemporaryDirectory()
        let halls = HallsOfFame(dataDirectory: data.path)
        #expect(try halls.read(hunt: "demo") == nil)
        let run = HallOfFame.Entry(team: "Red", totalMs: 600_000, penaltiesMs: 0, date: "2025-06-01", game: "g1")
        let hall = try halls.record(hunt: "demo", name: "The party hunt", runs: [run], log: quietLog())
        #expect(hall.entries == [run])
        #expect(try halls.read(hunt: "demo") == hall)
        #expect(files(in: halls.directory) == ["demo.json"], "no temporary file is left behind")
        write("{ not json", to: halls.path(hunt: "demo"))
        #expect(throws: RuleError.self) { try halls.read(hunt: "demo") }
        let faster = HallOfFame.Entry(team: "Blue", totalMs: 500_000, penaltiesMs: 0, date: "2025-06-02", game: "g2")
        let again = try halls.record(hunt: "demo", name: "The party hunt", runs: [faster], log: quietLog())
        #expect(again.entries == [faster])
        #expect(files(in: halls.directory) == ["demo.json", "demo.json.broken-1"])
    }
}
