import Foundation
import Protocol
import TestSupport
import Testing

/// Quiz packs on disk: broken files are reported by name and line, imports and exports round-trip.
@Suite("Packs on disk", .timeLimit(.minutes(10)))
struct StorageTests {
    @Test func aBrokenPackFileIsReportedByNameAndLineAndTheHostStillRuns() throws {
        let data = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: data.path + "/packs", withIntermediateDirectories: true)
        let broken =
            "{\n  \"id\": \"oops\",\n  \"name\": \"Oops\",\n  \"questions\": [ { \"difficulty\": \"easy\", \n  ]\n}\n"
        #expect(FileManager.default.createFile(atPath: data.path + "/packs/oops.json", contents: Data(broken.utf8)))
        let host = try HostProcess([], data: data.path)
        let admin = try host.admin()
        try admin.send(["type": "packs", "action": "list", "id": 1])
        let packs = try admin.waitFor("packs")
        #expect((packs["packs"]?.arrayValue?.count ?? 0) >= 8)
        host.stop()
        let errors = host.errorOutput()
        #expect(errors.contains("oops.json"))
        #expect(errors.contains("line 5"))
        #expect(
            FileManager.default.fileExists(atPath: data.path + "/packs/oops.json"), "a broken file is never deleted")
    }

    @Test func packsImportFromCSVAndExportAgain() throws {
        let data = TemporaryDirectory()
        let csv = data.path + "/pub.csv"
        let text =
            "difficulty,question,answer\r\neasy,\"Which fruit, yellow and curved, do monkeys love?\",Banana\r\nhard,Which metal is liquid at room temperature?,Mercury\r\n"
        #expect(FileManager.default.createFile(atPath: csv, contents: Data(text.utf8)))
        let imported = try StorageTests.run(["pack", "import", csv, "--data", data.path])
        #expect(imported.status == 0)
        #expect(imported.output.contains("2 questions"))
        let exported = data.path + "/out.json"
        let export = try StorageTests.run(["pack", "export", "pub", exported, "--data", data.path])
        #expect(export.status == 0, "\(export.output)")
        let json = try JSONParsing.parse(Array(try #require(FileManager.default.contents(atPath: exported))))
        #expect(json["questions"]?.arrayValue?.count == 2)
        #expect(json["questions"]?.arrayValue?.first?["text"] == "Which fruit, yellow and curved, do monkeys love?")
        let bad = data.path + "/bad.csv"
        #expect(
            FileManager.default.createFile(
                atPath: bad, contents: Data("difficulty,question,answer\nhardest,Q?,Answer\n".utf8)))
        let refused = try StorageTests.run(["pack", "import", bad, "--data", data.path])
        #expect(refused.status != 0)
        #expect(refused.output.contains("line 2"))
    }

    @Test func newConnectionsPerAddressAreLimited() throws {
        let host = try HostProcess(["--connection-rate", "3"])
        var refused = 0
        var clients: [TestClient] = []
        for _ in 0..<8 {
            let client = try host.connect()
            clients.append(client)
        }
        // Each connection is either refused (`rate_limited`, then closed) or taken in (it answers a ping).
        for (index, client) in clients.enumerated() {
            try? client.send(["type": "ping", "id": .int(Int64(index))])
            while let line = try? client.nextLine() {
                if line.contains("rate_limited") { refused += 1 }
                if line.contains("rate_limited") || line.contains("pong") { break }
            }
        }
        #expect(refused >= 4)
        host.stop()
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let finished = try ChildProcess.run(BuiltProducts.path("partyline-host"), arguments)
        return (finished.terminationStatus, finished.output + finished.errors)
    }
}
