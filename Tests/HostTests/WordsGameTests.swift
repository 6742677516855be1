import Foundation
import Protocol
import Rules
import TestSupport
import Testing

/// Compound words over real TCP: a card race and a bingo game with two teams (one at `nc`) and a board, a dice
/// board played to its end, and the word-list commands of the command line — every client's bytes captured.
@Suite("Compound words over TCP", .timeLimit(.minutes(10)))
struct WordsGameTests {
    static let lists = WordListLibrary()

    /// The entry of `word` in list `list`.
    static func entry(_ word: String, list: String = "en") throws -> WordEntry {
        try #require(lists.list(id: list)?.entry(for: word), "no question word \(word)")
    }

    /// The 1-based number of a correct (or wrong) card of a JSON `hand`.
    static func card(in hand: JSONValue, correct: Bool = true) throws -> Int? {
        let entry = try entry(hand["word"]?.stringValue ?? "")
        let options = hand["options"]?.arrayValue ?? []
        return options.indices.first { options[$0].stringValue.map(entry.isCorrect) == correct }.map { $0 + 1 }
    }

    /// Reads a text-mode hand line: `>>> Your word (3/22): SUN + ?   1 flower · 2 — · 3 chair …`.
    static func textHand(_ line: String) -> (word: String, cards: [Int: String])? {
        guard let open = line.range(of: "): "), let plus = line.range(of: " + ?") else { return nil }
        let word = String(line[open.upperBound..<plus.lowerBound]).lowercased()
        var cards: [Int: String] = [:]
        for part in line[plus.upperBound...].components(separatedBy: " · ") {
            let words = part.split(separator: " ")
            guard words.count >= 2, let number = Int(words[0]), words[1] != "—" else { continue }
            cards[number] = String(words[1])
        }
        return (word, cards)
    }

    /// Reads a text-mode bingo card: the word from its first line, then `a1 flower`-style cells from four rows;
    /// nil when the card has no word any more (the team has BINGO).
    static func textCard(_ client: TestClient) throws -> (word: String, cells: [String: String])? {
        let head = try client.waitForText(">>> Your card")
        guard let start = head.range(of: "word: ") else { return nil }
        let word = String(head[start.upperBound...].prefix { $0 != " " }).lowercased()
        var cells: [String: String] = [:]
        for _ in 0..<4 {
            let row = try client.nextLine()
            let tokens = row.split(separator: " ").map(String.init)
            for (index, token) in tokens.enumerated() where WordsWire.cell(named: token) != nil {
                if index + 1 < tokens.count, WordsWire.cell(named: tokens[index + 1]) == nil, tokens[index + 1] != "·",
                    !tokens[index + 1].hasPrefix("[")
                {
                    cells[token] = tokens[index + 1]
                }
            }
        }
        return (word, cells)
    }

    /// Two teams: Ann (Red) over JSON, Bob (Blue) at `nc`, and a board; returns them and the operator.
    static func twoTeams(_ host: HostProcess) throws -> (TestClient, TestClient, TestClient, TestClient) {
        let admin = try host.admin()
        let red = try host.join("Ann", team: "Red")
        let blue = try host.connect()
        _ = try blue.waitForText("join ROOM NAME TEAM")
        try blue.send(line: "join \(host.room) Bob Blue")
        _ = try blue.waitForText("Welcome, Bob")
        let board = try host.board()
        _ = try board.waitFor("lobby") { ($0["players"]?.arrayValue?.count ?? 0) == 2 }
        return (admin, red, blue, board)
    }

    @Test func aCardRaceWithTwoTeamsOneAtNcAndABoard() throws {
        let host = try HostProcess(["--rate", "10000"])
        let (admin, red, blue, board) = try Self.twoTeams(host)
        try admin.send([
            "type": "start", "game": "words", "exercise": "cards", "list": "en", "level": 1, "lockoutSeconds": 1,
            "id": 1,
        ])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        let intro = try board.waitFor("game")
        #expect(intro["exercise"] == "cards" && intro["words"] == 22 && intro["lockoutMs"] == 1000)
        _ = try blue.waitForText("=== Compound words: card race!")

        // Red plays a wrong card: it is gone, the team waits, a pick meanwhile is refused; then the right one.
        var hand = try red.waitFor("hand") { $0["team"] == "Red" }
        let wrong = try #require(try Self.card(in: hand, correct: false))
        try red.send(["type": "pick", "choice": .int(Int64(wrong))])
        let missed = try board.waitFor("result") { $0["team"] == "Red" }
        #expect(missed["correct"] == false && missed["compound"] == .null && missed["player"] == "Ann")
        let lockout = try red.waitFor("lockout") { $0["team"] == "Red" }
        #expect(lockout["ms"] == 1000)
        hand = try red.waitFor("hand") { $0["team"] == "Red" }
        #expect(hand["options"]?.arrayValue?[wrong - 1] == .null, "the wrong card's place is empty")
        try red.send(["type": "pick", "choice": .int(Int64(try #require(try Self.card(in: hand)))), "id": 2])
        #expect(try red.waitFor("error") { $0["re"] == 2 }["code"] == "locked_out")
        _ = try red.waitFor("lockout") { $0["team"] == "Red" && $0["ms"] == 0 }
        try red.send(["type": "pick", "choice": .int(Int64(try #require(try Self.card(in: hand))))])
        let right = try board.waitFor("result") { $0["team"] == "Red" && $0["correct"] == true }
        #expect(right["compound"]?.stringValue?.hasPrefix(hand["word"]?.stringValue ?? "?") == true)

        // Blue, at nc, plays through the whole level by typing card numbers and one word.
        var typedWord = false
        var blueWords = 0
        while blueWords < 22 {
            let line = try blue.waitForText(">>> Your word (")
            let (word, cards) = try #require(Self.textHand(line))
            let entry = try Self.entry(word)
            let right = try #require(cards.first { entry.isCorrect($0.value) })
            try blue.send(line: typedWord ? String(right.key) : right.value.uppercased())
            typedWord = true
            _ = try blue.waitForText("✔ Blue (Bob): \(word) + \(right.value) = ")
            blueWords += 1
        }
        _ = try blue.waitForText("*** Blue is through — place 1! ***")
        let through = try board.waitFor("progress") { $0["team"] == "Blue" && $0["place"] == 1 }
        #expect(through["done"] == 22 && through["of"] == 22)

        // Red finishes for second place; the game ends by itself.
        while true {
            hand = try red.waitFor("hand") { $0["team"] == "Red" }
            try red.send(["type": "pick", "choice": .int(Int64(try #require(try Self.card(in: hand))))])
            if hand["number"] == 22 { break }
        }
        let final = try board.waitFor("scoreboard")
        let ranking = final["ranking"]?.arrayValue ?? []
        #expect(ranking.map { $0["team"] } == ["Blue", "Red"])
        #expect(ranking.map { $0["place"] } == [1, 2])
        _ = try blue.waitForText("=== Final: #1 Blue 22/22 (place 1), 0 wrong · #2 Red 22/22 (place 2), 1 wrong ===")

        // A team's hand is its own: the other team's players never see it; the board sees both.
        let redBytes = red.transcriptText
        #expect(!redBytes.contains("\"type\":\"hand\",\"team\":\"Blue\""))
        #expect(!blue.transcriptText.contains("Red's word"))
        #expect(board.transcriptText.contains("\"type\":\"hand\",\"team\":\"Blue\""))
        #expect(board.transcriptText.contains("\"type\":\"hand\",\"team\":\"Red\""))
        #expect(!redBytes.contains("\"type\":\"feed\""), "the teacher's feed is for operators")
        let feed = try admin.waitFor("feed") { $0["text"]?.stringValue?.hasPrefix("Blue · Bob · ") == true }
        #expect(feed["text"]?.stringValue?.contains(": right, ") == true, "the teacher's feed: \(feed)")
        host.stop()
    }

    @Test func teamBingoWithTwoTeamsOneAtNcAndABoard() throws {
        let host = try HostProcess(["--rate", "10000"])
        let (admin, red, blue, board) = try Self.twoTeams(host)
        try admin.send(["type": "start", "game": "words", "exercise": "bingo", "level": 2, "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }

        // Blue at nc: one wrong cell first (it is cleared), then right cells until BINGO.
        var card = try #require(try Self.textCard(blue))
        let first = try Self.entry(card.word)
        let wrong = try #require(card.cells.first { !first.isCorrect($0.value) })
        try blue.send(line: wrong.key)
        _ = try blue.waitForText("✘ Blue (Bob): \(card.word) + \(wrong.value) is no word.")
        card = try #require(try Self.textCard(blue))
        #expect(card.cells[wrong.key] == nil, "the wrong option left its cell")
        for turn in 0..<20 {
            let entry = try Self.entry(card.word)
            let right = try #require(card.cells.first { entry.isCorrect($0.value) }, "\(card)")
            let number = try #require(WordsWire.cell(named: right.key)) + 1
            try blue.send(line: turn % 2 == 0 ? right.key.uppercased() : String(number))
            _ = try blue.waitForText("✔ Blue (Bob): \(card.word) + \(right.value) = ")
            // Then the next card, or — with a full line — the last card without a word, and BINGO.
            guard let next = try Self.textCard(blue) else { break }
            card = next
        }
        _ = try blue.waitForText("*** BINGO! Blue has a line: ")
        let bingo = try board.waitFor("bingo")
        #expect(bingo["team"] == "Blue" && bingo["cells"]?.arrayValue?.count == 4)
        let lastCard = try board.waitFor("card") { $0["team"] == "Blue" && $0["word"] == .null }
        let cells = lastCard["cells"]?.arrayValue ?? []
        for cell in bingo["cells"]?.arrayValue?.compactMap(\.intValue) ?? [] {
            #expect(cells[Int(cell)]["marked"] == true, "cell \(cell) of the BINGO line is marked")
        }
        #expect(try board.waitFor("progress") { $0["team"] == "Blue" && $0["place"] != .null }["place"] == 1)

        // Red over JSON marks a cell; the game goes on for second place until the operator ends it.
        let redCard = try red.waitFor("card") { $0["team"] == "Red" }
        let redEntry = try Self.entry(redCard["word"]?.stringValue ?? "")
        let redCells = redCard["cells"]?.arrayValue ?? []
        let redCell = try #require(
            redCells.indices.first { redCells[$0]["text"]?.stringValue.map(redEntry.isCorrect) == true })
        try red.send(["type": "pick", "cell": .int(Int64(redCell)), "id": 3])
        _ = try red.waitFor("ok") { $0["re"] == 3 }
        let marked = try board.waitFor("card") {
            $0["team"] == "Red" && $0["cells"]?.arrayValue?[redCell]["marked"] == true
        }
        #expect(marked["cells"]?.arrayValue?[redCell]["text"]?.stringValue?.hasPrefix(redEntry.word) == true)
        try admin.send(["type": "end", "id": 4])
        let final = try board.waitFor("scoreboard")
        #expect(final["ranking"]?.arrayValue?.map { $0["team"] } == ["Blue", "Red"])

        #expect(!red.transcriptText.contains("\"type\":\"card\",\"team\":\"Blue\""), "Red saw Blue's card")
        #expect(!blue.transcriptText.contains("Red's card"), "Blue saw Red's card")
        #expect(board.transcriptText.contains("\"type\":\"card\",\"team\":\"Red\""))
        host.stop()
    }

    @Test func aDiceBoardPlayedToItsEndByOneTeamWithABoardWatching() throws {
        let host = try HostProcess(["--rate", "10000"])  // the test plays faster than any child
        let admin = try host.admin()
        let red = try host.join("Ann", team: "Red")
        let watcher = try host.board()
        let nc = try host.connect()
        _ = try nc.waitForText("join ROOM NAME TEAM")
        try nc.send(line: "watch \(host.room)")
        try admin.send(["type": "start", "game": "words", "exercise": "board", "list": "garden", "lockoutSeconds": 0])
        let intro = try watcher.waitFor("game")
        #expect(try red.waitFor("moved")["tile"] == 1, "every token starts on the start tile")
        let tiles = intro["board"]?["tiles"]?.arrayValue ?? []
        #expect(tiles.count == 16 && intro["board"]?["paths"]?.arrayValue?.count == 19)
        _ = try nc.waitForText("Tiles, each with the tiles its paths lead to:")
        _ = try nc.waitForText("1 sun (start) → 2, 5")

        var done: Set<Int64> = []
        var rolls = 0
        var forks = 0
        var finished = false
        while !finished {
            #expect(rolls < 300, "the board never ended")
            if rolls >= 300 { break }
            let hand = try red.waitFor("hand") { $0["team"] == "Red" }
            try red.send(["type": "pick", "choice": .int(Int64(try #require(try Self.card(in: hand))))])
            let tile = try red.waitFor("tile") { $0["team"] == "Red" }
            #expect(tile["tile"] == hand["tile"])
            done.insert(tile["tile"]?.intValue ?? 0)
            if done.count == 16 { break }
            // Roll until the token stops on an unfinished tile (choosing at every fork).
            while true {
                rolls += 1
                try red.send(["type": "roll"])
                let rolled = try red.waitFor("rolled")
                #expect((1...6).contains(rolled["value"]?.intValue ?? 0))
                var moved = try red.waitFor("moved")
                while let choices = moved["choices"]?.arrayValue, !choices.isEmpty {
                    forks += 1
                    let pick = choices[forks % choices.count]
                    try red.send(
                        forks % 3 == 0
                            ? ["type": "move", "word": pick["word"] ?? ""]
                            : ["type": "move", "tile": pick["tile"] ?? 0])
                    moved = try red.waitFor("moved")
                }
                if let at = moved["tile"]?.intValue, !done.contains(at) { break }
            }
            finished = done.count == 16
        }
        #expect(done.count == 16)
        let final = try watcher.waitFor("scoreboard")
        let winner = final["ranking"]?.arrayValue?.first
        #expect(winner?["place"] == 1 && winner?["done"] == 16)
        #expect(forks > 0, "the garden has forks")
        _ = try nc.waitForText("*** Red is through — place 1! ***")
        #expect(watcher.transcriptText.contains("\"type\":\"moved\""))
        #expect(nc.transcriptText.contains("Red's token walked"))
        host.stop()
        // The game log keeps every answer for the teacher's CSV.
        let written = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "--words", "--data", host.data])
        #expect(written.terminationStatus == 0, "\(written.errors)")
        #expect(written.output.contains("Wrote 1 CSV file"), "\(written.output)")
        #expect(
            written.output.contains("board, English compound words level 1: 16 answers, 0 wrong"), "\(written.output)")
        let csv = try ChildProcess.run(
            BuiltProducts.path("partyline-host"), ["history", "1", "--csv", "--data", host.data])
        let rows = csv.output.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first == "team,player,word,answer,correct,ms" && rows.count == 17, "\(csv.output) \(csv.errors)")
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("Red,Ann,") && $0.contains(",yes,") })
        let account = try ChildProcess.run(BuiltProducts.path("partyline-host"), ["history", "1", "--data", host.data])
        #expect(account.output.contains("#1 Red: 16/16, 16 right, place 1"), "\(account.output)")
    }

    @Test func wordListsFromTheCommandLine() throws {
        let data = TemporaryDirectory()
        let file = data.path + "/garden.txt"
        var text = "# name: Garden words\n# level 1\n"
        for word in ["sun", "rain", "snow", "star", "foot", "bed", "fire", "sea", "cup", "pan", "bird", "door", "day"] {
            text += "\(word): flower* glasses chair spoon\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let host = BuiltProducts.path("partyline-host")
        let imported = try ChildProcess.run(host, ["words", "import", file, "--data", data.path])
        #expect(
            imported.terminationStatus == 0 && imported.output.contains("Imported word list garden (Garden words)."))
        let listed = try ChildProcess.run(host, ["words", "list", "--data", data.path]).output
        #expect(
            listed.range(of: "garden +Garden words +1 level, 13 words", options: .regularExpression) != nil,
            "\(listed)")
        let out = data.path + "/out.json"
        #expect(
            try ChildProcess.run(host, ["words", "export", "garden", out, "--data", data.path]).terminationStatus == 0)
        #expect(
            try WordListFile.decodeJSON(bytes: Array(Data(contentsOf: URL(fileURLWithPath: out)))).words.count == 13)
        try Data("# level 1\nsun: flower* flower chair spoon\n".utf8).write(
            to: URL(fileURLWithPath: data.path + "/bad.txt"))
        let refused = try ChildProcess.run(host, ["words", "import", data.path + "/bad.txt", "--data", data.path])
        #expect(refused.terminationStatus != 0)
        #expect(
            refused.errors.contains("bad.txt: line 2: sun: \"flower\" is marked both right and wrong."),
            "\(refused.errors)")
        // The imported list plays: a game over it starts.
        let running = try HostProcess([], data: data.path)
        let ann = try running.join("Ann", team: "Red")
        let admin = try running.admin()
        try admin.send(["type": "start", "game": "words", "exercise": "bingo", "list": "garden", "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        #expect(try ann.waitFor("game")["list"] == "garden")
        running.stop()
    }
}
