import Foundation
import Protocol
import Rules
import TestSupport
import Testing

@testable import Host

/// Recorded words (issue 26): `words audio LIST WORD FILE` keeps a checked recording per question word or compound
/// in the data folder, the host serves it at `/audio/LIST/WORD.EXT` by looking the word up, a list's export takes
/// its recordings along, and the game's messages name them.
@Suite("Recorded words", .timeLimit(.minutes(5)))
struct WordAudioTests {
    /// A tiny file that starts as an Ogg file does.
    static let ogg: [UInt8] = Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 7, count: 58)

    /// Writes `bytes` to `path`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The reply's readable line, or the refusal's message.
    static func run(_ tool: ContentTool<WordLists>, _ words: String, caller: ToolCaller = .console) -> String {
        guard let request = tool.parse(Array(words.split(separator: " ").map(String.init).dropFirst())) else {
            return "unparsed"
        }
        do {
            return try tool.run(request, caller: caller).line(for: Perspective()) ?? ""
        } catch {
            return "refused: " + error.message
        }
    }

    @Test func formatsAreKnownByTheirFirstBytes() {
        #expect(WordAudio.Format.sniffed(Self.ogg) == .ogg)
        #expect(WordAudio.Format.sniffed(Array("ID3\u{3}\0\0".utf8)) == .mp3)
        #expect(WordAudio.Format.sniffed([0xFF, 0xFB, 0x90, 0x64]) == .mp3)
        #expect(WordAudio.Format.sniffed(Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8)) == .wav)
        #expect(WordAudio.Format.sniffed([0, 0, 0, 0x20] + Array("ftypM4A ".utf8)) == .m4a)
        #expect(WordAudio.Format.sniffed(Array("<!doctype html>".utf8)) == nil)
        #expect(WordAudio.Format.sniffed(Array("RIFF\u{24}\0\0\0AVI LIST".utf8)) == nil)
        #expect(WordAudio.Format.sniffed([]) == nil)
    }

    @Test func aRecordingIsImportedForAWordOfTheListAndAnythingElseIsRefused() throws {
        let data = TemporaryDirectory(prefix: "partyline-audio-")
        let tool = try ContentTool<WordLists>(folder: data.path + "/words", log: Logger(level: .error) { _ in })
        let file = data.path + "/in/Sunflower.ogg"
        try Self.write(Self.ogg, to: file)

        let reply = Self.run(tool, "words audio en SunFlower \(file)")
        #expect(reply.contains("Recorded sunflower for en"), "\(reply)")
        let stored = data.path + "/words/audio/en/sunflower.ogg"
        #expect(FileManager.default.contents(atPath: stored).map(Array.init) == Self.ogg)
        #expect(Self.run(tool, "words audio en").contains("sunflower (.ogg)"))

        // Served only by looking the word up among the list's words.
        let list = try #require(tool.library.list(id: "en"))
        let audio = WordAudio(wordsFolder: data.path + "/words")
        let served = try #require(audio.served(list: list, file: "sunflower.ogg"))
        #expect(served.bytes == Self.ogg && served.contentType == "audio/ogg")
        #expect(audio.served(list: list, file: "SUNFLOWER.ogg")?.bytes == Self.ogg)
        for file in ["sunflower.mp3", "chair.ogg", "..%2F..%2Fwords%2Fen.ogg", "%2E%2E.ogg", "sunflower", ".ogg"] {
            #expect(audio.served(list: list, file: file) == nil, "\(file)")
        }

        // A file that is no audio, one too big, one misnamed, a word the list does not have, a client's import.
        let page = data.path + "/in/page.ogg"
        try Self.write(Array("<!doctype html><p>hello".utf8), to: page)
        #expect(Self.run(tool, "words audio en sun \(page)").contains("is not an audio file"))
        let big = data.path + "/in/big.ogg"
        try Self.write(Self.ogg + [UInt8](repeating: 1, count: WordAudio.maximumBytes), to: big)
        #expect(Self.run(tool, "words audio en sun \(big)").contains("at most 512 KiB"))
        let misnamed = data.path + "/in/sun.mp3"
        try Self.write(Self.ogg, to: misnamed)
        #expect(Self.run(tool, "words audio en sun \(misnamed)").contains("holds OGG audio"))
        let text = data.path + "/in/sun.txt"
        try Self.write(Array("sun".utf8), to: text)
        #expect(Self.run(tool, "words audio en sun \(text)").contains("recordings are .ogg"))
        #expect(Self.run(tool, "words audio en sunchair \(file)").contains("neither a question word nor a compound"))
        #expect(Self.run(tool, "words audio nolist sun \(file)").hasPrefix("refused"))
        #expect(Self.run(tool, "words audio en sun \(file)", caller: .client).contains("at its console"))
        #expect(Self.run(tool, "words audio en sun \(data.path)/in/none.ogg").contains("no such file"))
        #expect(!FileManager.default.fileExists(atPath: data.path + "/words/audio/en/sun.ogg"))

        #expect(Self.run(tool, "words audio en sunflower --remove").contains("Removed"))
        #expect(!FileManager.default.fileExists(atPath: stored))
    }

    @Test func anExportTakesTheRecordingsAlongAndAnImportBringsThemBack() throws {
        let data = TemporaryDirectory(prefix: "partyline-audio-")
        let tool = try ContentTool<WordLists>(folder: data.path + "/words", log: Logger(level: .error) { _ in })
        try Self.write(Self.ogg, to: data.path + "/in/sunflower.ogg")
        _ = Self.run(tool, "words audio en sunflower \(data.path)/in/sunflower.ogg")

        try FileManager.default.createDirectory(atPath: data.path + "/out", withIntermediateDirectories: true)
        let exported = Self.run(tool, "words export en \(data.path)/out/garden.txt")
        #expect(exported.contains("1 recording went to"), "\(exported)")
        let bundled = FileManager.default.contents(atPath: data.path + "/out/garden.audio/sunflower.ogg")
        #expect(bundled.map(Array.init) == Self.ogg)
        // Imported as a list of its own (names are unique), with a stray file in the bundle that is skipped with its
        // reason; the list and the good recording still come in.
        let text = try String(contentsOfFile: data.path + "/out/garden.txt", encoding: .utf8)
        try Self.write(
            Array(text.replacingOccurrences(of: "English compound words", with: "Garden").utf8),
            to: data.path + "/out/garden.txt")
        try Self.write(Array("not sound".utf8), to: data.path + "/out/garden.audio/sunglasses.ogg")

        let imported = Self.run(tool, "words import \(data.path)/out/garden.txt")
        #expect(imported.contains("Imported 1 recording") && imported.contains("is not an audio file"), "\(imported)")
        let found = tool.library.list(id: "garden")
        let garden = try #require(found, "the list garden was not imported")
        #expect(WordAudio(wordsFolder: data.path + "/words").recordings(list: garden) == ["sunflower": .ogg])

        _ = Self.run(tool, "words delete garden")
        #expect(!FileManager.default.fileExists(atPath: data.path + "/words/audio/garden"))
    }

    /// A list of one word, its recordings beside it, imported at a running host's console: the host serves them
    /// over HTTP, and the game names them on `hand` and `result`, with the list's language on `game`.
    @Test func theHostServesTheRecordingsAndTheGameNamesThem() throws {
        let data = TemporaryDirectory(prefix: "partyline-audio-")
        try Self.write(
            Array("# name: Trädgård\n# language: sv\n# level 1\nsol: ros* stol sked gris\n".utf8),
            to: data.path + "/tradgard.txt")
        try Self.write(Self.ogg, to: data.path + "/tradgard.audio/sol.ogg")
        try Self.write(Self.ogg, to: data.path + "/tradgard.audio/solros.ogg")
        let host = try HostProcess(["--rate", "10000"])
        host.console("words import \(data.path)/tradgard.txt")

        var answer = WebSocketEndToEndTests.Answer(status: 0, headers: [:], body: [])
        let deadline = Date().addingTimeInterval(Patience.generous)
        while answer.status != 200, Date() < deadline {
            answer = try WebSocketEndToEndTests.fetch(host, WebSocketEndToEndTests.get("/audio/tradgard/solros.ogg"))
            if answer.status != 200 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(answer.status == 200 && answer.body == Self.ogg)
        #expect(answer.headers["content-type"] == "audio/ogg")
        for path in [
            "/audio/tradgard/stol.ogg", "/audio/tradgard/solros.mp3", "/audio/tradgard/..%2ftradgard.ogg",
            "/audio/nolist/solros.ogg", "/audio/tradgard/../tradgard.txt", "/audio/tradgard/x/solros.ogg",
        ] {
            #expect(try WebSocketEndToEndTests.fetch(host, WebSocketEndToEndTests.get(path)).status == 404, "\(path)")
        }

        let admin = try host.admin()
        let player = try host.join("Ann", team: "Red")
        try admin.send(["type": "start", "game": "words", "exercise": "cards", "list": "tradgard", "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        let intro = try player.waitFor("game")
        #expect(intro["language"] == "sv")
        let hand = try player.waitFor("hand")
        #expect(hand["word"] == "sol" && hand["wordAudioURL"] == "/audio/tradgard/sol.ogg")
        let options = hand["options"]?.arrayValue ?? []
        let right = try #require(options.firstIndex(of: "ros"))
        try player.send(["type": "pick", "choice": .int(Int64(right + 1))])
        let result = try player.waitFor("result")
        #expect(result["compound"] == "solros" && result["audioURL"] == "/audio/tradgard/solros.ogg")
        let fetched = try WebSocketEndToEndTests.fetch(
            host, WebSocketEndToEndTests.get(try #require(result["audioURL"]?.stringValue)))
        #expect(fetched.status == 200 && fetched.body == Self.ogg)
    }
}
