import Foundation
import Protocol
import TestSupport
import Testing

/// A whole game of Odd One Out over real TCP, every client's bytes captured for the secrecy check.
@Suite("Odd One Out over TCP", .timeLimit(.minutes(10)))
struct OutsiderGameTests {
    /// Three puzzles whose links appear nowhere else, so a transcript shows exactly when each one was told.
    static let puzzles: [(outsider: String, words: [String], link: String)] = [
        ("trumpet", ["violin", "cello", "trumpet", "harp"], "the string family"),
        ("Sydney", ["Lisbon", "Madrid", "Sydney", "Rome"], "capitals of Europe"),
        ("pluto", ["mercury", "venus", "pluto", "mars"], "planets of today"),
    ]

    /// A data folder holding the puzzle pack `e2e` with `puzzles`.
    static func dataFolder() throws -> TemporaryDirectory {
        let data = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: data.path + "/puzzles", withIntermediateDirectories: true)
        let entries = puzzles.enumerated().map { index, puzzle -> JSONValue in
            [
                "difficulty": .string(["easy", "medium", "hard"][index]),
                "words": .array(puzzle.words.map { .string($0) }), "outsider": .string(puzzle.outsider),
                "link": .string(puzzle.link),
            ]
        }
        let pack: JSONValue = ["id": "e2e", "name": "End to end", "puzzles": .array(entries)]
        #expect(
            FileManager.default.createFile(
                atPath: data.path + "/puzzles/e2e.json", contents: Data(pack.description.utf8)))
        return data
    }

    /// The puzzle a `puzzle` message shows, and the 1-based number of its outsider there.
    static func identify(_ message: JSONValue) throws -> (outsider: String, link: String, number: Int) {
        let words = (message["words"]?.arrayValue ?? []).compactMap(\.stringValue)
        let puzzle = try #require(puzzles.first { Set($0.words) == Set(words) }, "unknown words \(words)")
        return (puzzle.outsider, puzzle.link, try #require(words.firstIndex(of: puzzle.outsider)) + 1)
    }

    @Test func threeRoundsWithThreeTeamsOneOverNcAndABoard() throws {
        let data = try OutsiderGameTests.dataFolder()
        let host = try HostProcess(["--reveal-seconds", "1"], data: data.path)
        let admin = try host.admin()
        let ann = try host.join("Ann", team: "Red")
        let abe = try host.join("Abe", team: "Red")
        let bob = try host.join("Bob", team: "Blue")
        let gil = try host.connect()  // a person at nc
        _ = try gil.waitForText("join ROOM NAME TEAM")
        try gil.send(line: "join \(host.room) Gil Green")
        _ = try gil.waitForText("Welcome, Gil")
        let board = try host.board()
        _ = try board.waitFor("lobby") { ($0["players"]?.arrayValue?.count ?? 0) == 4 }

        try admin.send([
            "type": "start", "game": "outsider", "rounds": 3, "difficulty": "mixed", "packs": ["e2e"],
            "roundSeconds": 30, "revealSeconds": 1, "id": 1,
        ])
        #expect(try admin.waitFor("ok") { $0["re"] == 1 }["message"] == "Started Odd One Out.")
        #expect(try board.waitFor("game")["rounds"] == 3)

        // Round 1: Red right first (its second terminal only hears so), Blue wrong, Green right by typing the word.
        let round1 = try ann.waitFor("puzzle")
        #expect(round1["number"] == 1 && round1["of"] == 3)
        #expect((round1["remainingMs"]?.intValue ?? 0) > 25_000)
        let first = try OutsiderGameTests.identify(round1)
        _ = try gil.waitForText("Round 1/3")
        try ann.send(["type": "pick", "choice": .number(first.number), "t": 123_456, "id": 2])
        #expect(try ann.waitFor("ok") { $0["re"] == 2 }["type"] == "ok")
        #expect(try abe.waitFor("picked")["word"] == .string(first.outsider))
        let lockedRed = try board.waitForState(OutsiderWire.LockedIn.self) { !$0.teams.isEmpty }
        #expect(lockedRed.teams == [OutsiderWire.LockIn(team: "Red", position: 1)])
        try abe.send(["type": "pick", "choice": 1, "id": 3])
        #expect(try abe.waitFor("notice")["message"]?.stringValue?.contains("first pick counts") == true)
        let wrong = (first.number % 4) + 1
        try bob.send(["type": "pick", "choice": .number(wrong)])
        try board.waitForState(OutsiderWire.LockedIn.self) { $0.teams.contains { $0.team == "Blue" } }
        try gil.send(line: first.outsider.uppercased())
        let reveal1 = try board.waitFor("reveal")
        #expect(reveal1["outsider"] == .string(first.outsider))
        #expect(reveal1["link"] == .string(first.link))
        let results = reveal1["results"]?.arrayValue ?? []
        #expect(results.map { $0["team"] } == ["Red", "Blue", "Green"], "press order")
        #expect(results.map { $0["correct"] } == [true, false, true])
        let base = round1["points"]?.intValue ?? 0
        let points = results[0]["points"]?.intValue ?? 0
        #expect(points * 2 >= base && points <= base, "\(points) of \(base): full at once, half at the buzzer")
        #expect(results[1]["points"] == 0)
        #expect(results[0]["ms"]?.intValue ?? -1 >= 0)
        _ = try gil.waitForText("The odd one out was: \(first.outsider)")

        // Round 2: only Blue picks; the operator ends the round.
        let round2 = try bob.waitFor("puzzle") { $0["number"] == 2 }
        let second = try OutsiderGameTests.identify(round2)
        try bob.send(["type": "pick", "word": .string(second.outsider.lowercased())])
        try board.waitForState(OutsiderWire.LockedIn.self) { $0.teams.contains { $0.team == "Blue" } }
        try admin.send(["type": "next", "id": 4])
        let reveal2 = try ann.waitFor("reveal") { $0["number"] == 2 }
        #expect(reveal2["results"]?.arrayValue?.first?["team"] == "Blue")
        #expect(reveal2["results"]?.arrayValue?.last?["choice"] == .null)

        // Round 3: Green picks by number from nc, then nobody else; the clock is skipped by the operator.
        let round3 = try gil.waitForText("Round 3/3")
        let third = try #require(
            OutsiderGameTests.puzzles.first { round3.contains($0.words[0]) && round3.contains($0.words[3]) })
        _ = try board.waitFor("puzzle") { $0["number"] == 3 }
        try gil.send(line: "pick \(third.outsider)")
        try board.waitForState(OutsiderWire.LockedIn.self) { $0.teams.contains { $0.team == "Green" } }
        try admin.send(["type": "next", "id": 5])
        _ = try board.waitFor("reveal") { $0["number"] == 3 }
        let scoreboard = try board.waitFor("scoreboard")
        #expect(scoreboard["final"] == true)
        let ranking = scoreboard["ranking"]?.arrayValue ?? []
        #expect(ranking.count == 3)
        #expect(ranking.first { $0["team"] == "Green" }?["correct"] == 2)
        #expect(ranking.first { $0["team"] == "Red" }?["correct"] == 1)
        #expect(ranking.first { $0["team"] == "Blue" }?["correct"] == 1)
        _ = try gil.waitForText("Final scoreboard")
        for client in [ann, abe, bob, admin] { _ = try client.waitFor("scoreboard") }

        // Every event each client received, in order (session chatter aside, the lobby's deltas too).
        let chatter: Set = ["lobby", "lobbyUpdate", "ok", "welcome", "ping", "sync", "pong", "status", "packs"]
        func events(_ client: TestClient) -> [String] {
            client.transcriptText.split(separator: "\n").compactMap { line in
                (try? JSONParsing.parse(String(line)))?["type"]?.stringValue
            }.filter { !chatter.contains($0) }
        }
        // Lock-ins are a growing state: the list whole while a change is half of it (the first two), then updates.
        let (whole, update) = ("lockedIn", "lockedInUpdate")
        let rest = ["puzzle", whole, "reveal", "puzzle", whole, "reveal", "scoreboard"]
        #expect(events(board) == ["game", "puzzle", whole, whole, update, "reveal"] + rest)
        #expect(
            events(bob)
                == [
                    "game", "puzzle", whole, "picked", whole, update, "reveal", "puzzle", "picked", whole,
                    "reveal", "puzzle", whole, "reveal", "scoreboard",
                ])
        #expect(events(ann) == ["game", "puzzle", "picked", whole, whole, update, "reveal"] + rest)
        #expect(events(abe) == ["game", "puzzle", "picked", whole, "notice", whole, update, "reveal"] + rest)

        // Secrecy: no outsider and no link before its reveal; what a team picked reaches that team only.
        let clients = [("ann", ann), ("abe", abe), ("bob", bob), ("gil", gil), ("board", board), ("admin", admin)]
        let feed = admin.transcriptText.split(separator: "\n").filter { $0.contains("\"type\":\"feed\"") }
        #expect(feed.contains { $0.contains("odd one out: \(first.outsider) (\(first.link))") }, "\(feed)")
        for (name, client) in clients {
            // The organiser's feed names each round's outsider at once (#18); nothing else does before the reveal.
            let text = client.transcriptText.split(separator: "\n").filter { !$0.contains("\"type\":\"feed\"") }
                .joined(separator: "\n")
            if name != "admin" { #expect(!client.transcriptText.contains("\"type\":\"feed\""), "\(name) got the feed") }
            for (round, puzzle) in [first, second].map({ ($0.outsider, $0.link) }).enumerated() {
                let revealAt =
                    text.range(of: "The odd one out was: \(puzzle.0)")?.lowerBound
                    ?? text.range(of: "\"outsider\":\"\(puzzle.0)\"")?.lowerBound
                let linkAt = text.range(of: puzzle.1)?.lowerBound
                #expect(revealAt != nil, "\(name) never saw round \(round + 1)'s reveal")
                #expect(
                    linkAt == nil || revealAt == nil || linkAt! >= revealAt!, "\(name) saw a link before its reveal")
            }
            let firstOutsiderKey = text.range(of: "\"outsider\":")?.lowerBound
            let firstReveal = text.range(of: "\"type\":\"reveal\"")?.lowerBound
            #expect(
                firstOutsiderKey == nil || firstOutsiderKey! > firstReveal!, "\(name) got an outsider outside a reveal")
            #expect(!text.contains("\"correct\"") || text.range(of: "\"correct\"")!.lowerBound > firstReveal!)
        }
        for (name, client) in [("bob", bob), ("board", board), ("admin", admin)] {
            let picked = client.transcriptText.split(separator: "\n").filter { $0.contains("\"type\":\"picked\"") }
            #expect(picked.count == (name == "bob" ? 2 : 0), "\(name) received another team's pick: \(picked)")
        }
        #expect(gil.transcriptText.components(separatedBy: "Your team picked").count - 1 == 2, "Green's own two picks")
        host.stop()
    }
}
