import Foundation
import Rules
import TestSupport
import Testing

@testable import Host

/// Content imports are refused by their size before anything is read (issue 29).
@Suite("Import size", .timeLimit(.minutes(4)))
struct ImportSizeTests {
    @Test func aHugeHuntFileIsRefusedByItsSizeAndNothingChanges() throws {
        let data = TemporaryDirectory()
        let store = try ContentStore<Hunts>(folder: data.path + "/hunts", log: Logger(level: .error) { _ in })
        let huge = data.path + "/huge.json"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 60 << 20)  // 60 MB of zeros, sparse: nothing is written
        try handle.close()
        do {
            _ = try store.importFile(huge)
            Issue.record("a 60 MB hunt file was imported")
        } catch {
            #expect(error.code == .storage)
            #expect(error.message == "\(huge) is 60.0 MB; a hunt file may have at most 4 MB. Is it the right file?")
        }
        #expect(store.library.customHunts.isEmpty)
        // Not a file at all: a folder is refused without reading.
        do {
            _ = try store.importFile(data.path + "/hunts.json")
            Issue.record("a missing file was imported")
        } catch {
            #expect(error.message.contains("there is no such file"))
        }
        try FileManager.default.createDirectory(atPath: data.path + "/folder.json", withIntermediateDirectories: true)
        do {
            _ = try store.importFile(data.path + "/folder.json")
            Issue.record("a folder was imported")
        } catch {
            #expect(error.message.contains("not a regular file"))
        }
    }
}
