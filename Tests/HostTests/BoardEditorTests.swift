import Foundation
import Protocol
import Rules
import TestSupport
import Testing

/// The board editor's requests over real TCP (PROTOCOL.md §8.5 "The board editor"): no `hello`, the operator's
/// key or the teacher's board code in each request; a broken board refused in a child's words with the tiles and
/// paths to mark; a saved board kept in the library, in the data folder, and started at once.
@Suite("The board editor's requests", .timeLimit(.minutes(5)))
struct BoardEditorTests {
    /// A small board of English level-1 words: sun → rain → bed, in an L; `paths` as given.
    static func board(name: String = "Our path", paths: [[Int]]) -> JSONValue {
        let tiles: [JSONValue] = [
            ["id": 1, "word": "sun", "x": 0, "y": 0, "start": true], ["id": 2, "word": "rain", "x": 3, "y": 0],
            ["id": 3, "word": "bed", "x": 3, "y": 2],
        ]
        return [
            "name": .string(name), "list": "en", "level": 1, "tiles": .array(tiles),
            "paths": .array(paths.map { .array($0.map { .int(Int64($0)) }) }),
        ]
    }

    @Test func aCodeOpensTheEditorAndAValidBoardIsSavedAndStartsAtOnce() throws {
        let host = try HostProcess(["--rate", "10000"])
        let admin = try host.admin()
        let tablet = try host.connect()

        // Before any board code exists, a guess is refused; the operator's key opens the editor.
        try tablet.send(["type": "boardEditor", "action": "open", "key": "ACEFHKMN", "id": 1])
        #expect(try tablet.waitFor("error") { $0["re"] == 1 }["code"] == "bad_key")
        try tablet.send(["type": "boardEditor", "action": "open", "key": .string(host.adminKey), "id": 2])
        let opened = try tablet.waitFor("content") { $0["re"] == 2 }
        let english = try #require(opened["item"]?["lists"]?.arrayValue?.first { $0["id"] == "en" })
        let levelOne = try #require(english["levels"]?.arrayValue?.first { $0["level"] == 1 })
        #expect(levelOne["words"]?.arrayValue?.contains("sun") == true)
        #expect(!opened.description.contains("flower"), "the editor gets question words, never their answers")
        #expect(opened["item"]?["grid"] == [12, 8])

        // The teacher's code, from the console, saves boards too.
        try admin.send(["type": "console", "line": "board code", "id": 3])
        let shown = try #require(try admin.waitFor("ok") { $0["re"] == 3 }["message"]?.stringValue)
        let code = try #require(shown.split(separator: " ").dropFirst(3).first.map(String.init), "\(shown)")
        #expect(shown.contains("/edit.html"), "\(shown)")

        // A tile on no path: refused in the child's words, naming the tile to mark.
        try tablet.send([
            "type": "boardEditor", "action": "save", "key": .string(code.lowercased()),
            "board": Self.board(paths: [[1, 2]]),
            "id": 4,
        ])
        let lonely = try tablet.waitFor("error") { $0["re"] == 4 }
        #expect(lonely["code"] == "bad_board")
        #expect(lonely["message"] == "The tile “bed” has no path. Draw a path from it to another tile.")
        #expect(lonely["tiles"] == [3])
        // A path that is not straight: the path to mark.
        try tablet.send([
            "type": "boardEditor", "action": "save", "key": .string(code),
            "board": Self.board(paths: [[1, 2], [1, 3]]),
            "id": 5,
        ])
        let bent = try tablet.waitFor("error") { $0["re"] == 5 }
        #expect(bent["message"]?.stringValue?.contains("“sun”–“bed” must go straight") == true, "\(bent)")
        #expect(bent["paths"] == [[1, 3]])

        // The whole board: saved, in the library, and started at once.
        try tablet.send([
            "type": "boardEditor", "action": "save", "key": .string(code),
            "board": Self.board(paths: [[1, 2], [2, 3]]),
            "id": 6,
        ])
        let saved = try tablet.waitFor("ok") { $0["re"] == 6 }
        #expect(saved["created"] == "our-path")
        #expect(FileManager.default.fileExists(atPath: host.data + "/boards/our-path.json"))
        try admin.send(["type": "boards", "action": "show", "item": "our-path", "id": 7])
        let shownBoard = try admin.waitFor("content") { $0["re"] == 7 }
        #expect(shownBoard["item"]?["paths"] == [[1, 2], [2, 3]])

        // Saving again over it (a fourth tile) keeps the id; the name clash of a new board is refused.
        var grown = Self.board(paths: [[1, 2], [2, 3]])
        if case .object(var object) = grown, case .array(var tiles)? = object["tiles"] {
            tiles.append(["id": 4, "word": "foot", "x": 0, "y": 2])
            object["tiles"] = .array(tiles)
            object["paths"] = [[1, 2], [2, 3], [3, 4]]
            grown = .object(object)
        }
        try tablet.send([
            "type": "boardEditor", "action": "save", "key": .string(code), "board": grown, "replace": "our-path",
            "id": 8,
        ])
        #expect(try tablet.waitFor("ok") { $0["re"] == 8 }["created"] == "our-path")
        try tablet.send([
            "type": "boardEditor", "action": "save", "key": .string(code),
            "board": Self.board(paths: [[1, 2], [2, 3]]),
            "id": 9,
        ])
        #expect(try tablet.waitFor("error") { $0["re"] == 9 }["code"] == "bad_board")

        // The code opens nothing else: the tablet is not in the room.
        try tablet.send(["type": "start", "game": "words", "id": 10])
        #expect(try tablet.waitFor("error") { $0["re"] == 10 }["code"] == "not_joined")

        let red = try host.join("Ann", team: "Red")
        try admin.send(["type": "console", "line": "start words board our-path", "id": 11])
        _ = try admin.waitFor("ok") { $0["re"] == 11 }
        let intro = try red.waitFor("game")
        #expect(intro["exercise"] == "board" && intro["board"]?["id"] == "our-path")
        #expect(intro["board"]?["tiles"]?.arrayValue?.count == 4)

        // A new code retires the old one.
        try admin.send(["type": "console", "line": "board code new", "id": 12])
        _ = try admin.waitFor("ok") { $0["re"] == 12 }
        try tablet.send(["type": "boardEditor", "action": "open", "key": .string(code), "id": 13])
        #expect(try tablet.waitFor("error") { $0["re"] == 13 }["code"] == "bad_key")
        host.stop()
    }

    @Test func wrongCodesAreLimitedAndAWordOffTheLevelIsNamed() throws {
        let host = try HostProcess(["--rate", "10000"])
        let tablet = try host.connect()
        for attempt in 1...10 {
            try tablet.send(["type": "boardEditor", "action": "open", "key": "WRONG", "id": .int(Int64(attempt))])
            #expect(try tablet.waitFor("error") { $0["re"] == .int(Int64(attempt)) }["code"] == "bad_key")
        }
        try tablet.send(["type": "boardEditor", "action": "open", "key": .string(host.adminKey), "id": 11])
        #expect(try tablet.waitFor("error") { $0["re"] == 11 }["code"] == "rate_limited")

        let other = try host.connect(from: "127.0.0.2")
        var board = Self.board(paths: [[1, 2], [2, 3]])
        if case .object(var object) = board, case .array(var tiles)? = object["tiles"] {
            tiles[2] = ["id": 3, "word": "zebra", "x": 3, "y": 2]
            object["tiles"] = .array(tiles)
            board = .object(object)
        }
        try other.send([
            "type": "boardEditor", "action": "save", "key": .string(host.adminKey), "board": board, "id": 1,
        ])
        let stranger = try other.waitFor("error") { $0["re"] == 1 }
        #expect(stranger["code"] == "bad_board" && stranger["tiles"] == [3])
        #expect(stranger["message"]?.stringValue?.contains("“zebra” is not a word of level 1") == true, "\(stranger)")
        host.stop()
    }
}
