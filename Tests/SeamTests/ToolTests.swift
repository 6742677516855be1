import Foundation
import Protocol
import Rules
import TestSupport
import Testing

@testable import Client
@testable import Host

/// A small content kind written for the test: riddles, one JSON file each.
struct Riddle: Codable, Sendable, Equatable {
    var id: String
    var name: String
    var answer: String
}

struct RiddleLibrary: ContentLibrary {
    var builtinItems = [Riddle(id: "sphinx", name: "What walks on four legs in the morning?", answer: "A person")]
    var customItems: [Riddle] = []

    func item(id: String) -> Riddle? { (builtinItems + customItems).first { $0.id == id } }
    func isBuiltin(id: String) -> Bool { builtinItems.contains { $0.id == id } }

    mutating func add(_ item: Riddle) throws(RuleError) -> String {
        guard !item.answer.isEmpty else { throw RuleError(.emptyAnswer, "A riddle needs an answer.") }
        guard self.item(id: item.id) == nil else { throw RuleError(.packNameTaken, "There is a riddle \(item.id).") }
        customItems.append(item)
        return item.id
    }

    mutating func remove(id: String) throws(RuleError) {
        guard !isBuiltin(id: id) else { throw RuleError(.readOnly, "\(id) is built in.") }
        customItems.removeAll { $0.id == id }
    }
}

enum Riddles: ManagedContent {
    typealias Library = RiddleLibrary
    static let folderName = "riddles"
    static let noun = "riddle"
    static let formats = ["json"]
    static let commandWord = "riddle"
    static let requestType = "riddles"

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> Riddle {
        do {
            return try JSONCoding.decode(Riddle.self, from: bytes)
        } catch {
            throw RuleError(.badJSON, "\(fileName): not a riddle (\(error)).")
        }
    }

    static func encode(_ item: Riddle, format: String) -> [UInt8] { (try? JSONCoding.bytes(item)) ?? [] }
    static func unknownItem(_ id: String) -> RuleError { RuleError(.unknownPack, "There is no riddle \"\(id)\".") }
    static func summary(of item: Riddle) -> (id: String, name: String, detail: String) {
        (item.id, item.name, "1 answer")
    }
    static func describe(_ item: Riddle) -> [String] { [item.name, "Answer: \(item.answer)"] }
}

/// The operator tools a mode brings: one noun on the console, one request type for admin clients, one command-line
/// word, all through the same `run`.
@Suite("Operator tools of a mode")
struct ToolTests {
    static let catalog: ModeCatalog = {
        var coin = CoinHost.entry
        coin.tools = [Riddles.tool]
        return ModeCatalog(entries: ModeCatalog.standard.entries + [coin])
    }()

    @Test func theConsoleAndAnAdminClientManageAModesContent() throws {
        let host = try EmbeddedHost(catalog: ToolTests.catalog)
        let listed = host.console("riddle list").joined(separator: "\n")
        #expect(listed.contains("sphinx"), "\(listed)")
        #expect(host.console("riddle show sphinx").joined().contains("Answer: A person"))
        #expect(host.console("riddle show nothing") == [#"! There is no riddle "nothing"."#])
        #expect(host.console("riddle frobnicate").first?.hasPrefix("! Usage:") == true)
        #expect(host.console("help").joined().contains("riddle import FILE"))

        // Import from the console (files live on the host); an admin client may not.
        let file = host.data.path + "/sfinx.json"
        try Data(#"{"id":"echo","name":"What answers without a mouth?","answer":"An echo"}"#.utf8).write(
            to: URL(fileURLWithPath: file))
        #expect(host.console("riddle import \(file)") == ["Imported riddle echo (What answers without a mouth?)."])
        #expect(FileManager.default.fileExists(atPath: host.data.path + "/riddles/echo.json"))

        let admin = try host.watcher(.admin)
        admin.send(["type": "riddles", "action": "list", "id": 1])
        let listing = try admin.expect("contents")
        #expect(listing["re"] == 1)
        #expect(listing["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["sphinx", "echo"])
        // The item is named by `item`: `id` stays the request's own id, answered as `re`.
        admin.send(["type": "riddles", "action": "show", "item": "echo", "id": 5])
        let shown = try admin.expect("content")
        #expect(shown["re"] == 5)
        #expect(shown["id"] == "echo")
        admin.send(["type": "riddles", "action": "import", "file": .string(file), "id": 2])
        #expect(try admin.expect("error")["code"] == "forbidden")
        // The operator's own console lines, sent by a client, run as on the console and answer as messages.
        admin.send(["type": "console", "line": "riddle delete echo", "id": 3])
        #expect(try admin.expect("ok")["message"] == "Deleted riddle echo.")
        #expect(!FileManager.default.fileExists(atPath: host.data.path + "/riddles/echo.json"))
        admin.send(["type": "console", "line": "quit", "id": 4])
        #expect(try admin.expect("error")["code"] == "forbidden")
        #expect(host.core.isRunning)

        // A player may not use an operator tool.
        let ann = try host.player("Ann", team: "Red")
        ann.send(["type": "riddles", "action": "list", "id": 5])
        #expect(try ann.expect("error")["code"] == "forbidden")
    }

    @Test func theOperatorsClientSendsUnknownColonLinesToTheHostsConsole() {
        var state = ClientState(role: .admin, room: "ROOM")
        #expect(state.handle(line: "riddle list", at: 1) == [.send(.console(line: "riddle list"))])
        var player = ClientState(role: .player, room: "ROOM", name: "Ann", team: "Red")
        guard case .print(let refusal)? = player.handle(line: "riddle list", at: 1).first else {
            Issue.record("a player's unknown line should be explained locally")
            return
        }
        #expect(refusal.hasPrefix("! Unknown command"))
    }
}
