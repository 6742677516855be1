import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Compound words played in-process over the seam: catch-up equals live at every phase of every exercise, typed
/// commands, what each connection may see, the renderers at small sizes, and the journal.
@Suite("Compound words over the seam")
struct WordsSeamTests {
    /// The running game.
    static func game(_ host: EmbeddedHost) throws -> WordsHost { try #require(host.core.room.game as? WordsHost) }

    /// The JSON pick of a right (or wrong) option of `team`'s question, or nil when it has none.
    static func pick(_ host: EmbeddedHost, _ team: String, correct: Bool = true) throws -> JSONObject? {
        guard let game = host.core.room.game as? WordsHost else { return nil }
        guard let hand = game.game.team(named: team)?.hand,
            let entry = game.game.words.first(where: { $0.word == hand.word }),
            let slot = hand.cards.indices.first(where: { hand.cards[$0].map(entry.isCorrect) == correct })
        else { return nil }
        if let cells = hand.cells { return ["type": "pick", "cell": .int(Int64(cells[slot]))] }
        return ["type": "pick", "choice": .int(Int64(slot + 1))]
    }

    /// A host with Ann (Red, watched like the real client), Bob (Blue) and a board.
    static func room() throws -> (EmbeddedHost, Watcher, EmbeddedConnection, Watcher) {
        let host = try EmbeddedHost()
        let ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let board = Watcher(try host.watcher(.board), role: .board)
        return (host, ann, bob, board)
    }

    // MARK: Catch-up equals live

    @Test func theCardRaceAtEveryPhase() throws {
        var (host, ann, bob, board) = try Self.room()
        #expect(host.console("start words cards en 1") == ["Started Compound words."])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the first hands")
        #expect(ann.screen().contains { $0.contains("Your word (1 of 22)") })

        ann.connection.send(try #require(try Self.pick(host, "Red", correct: false)))
        host.advance(by: 1_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a lockout after a wrong card")
        #expect(ann.screen().contains { $0.contains("Think! Pick again in 2.0 s.") })
        // A pick during the lockout is refused; the connection keeps working.
        ann.connection.send(try #require(try Self.pick(host, "Red")).merging(["id": 4]))
        let refusal = try ann.connection.expect("error")
        #expect(refusal["code"] == "locked_out" && refusal["re"] == 4)

        host.console("pause")
        host.advance(by: 5_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a paused lockout")
        host.console("continue")
        host.advance(by: 2_500)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "after the lockout")

        ann.connection.send(try #require(try Self.pick(host, "Red")))
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a right card")
        #expect(ann.screen().contains { $0.contains("✔") })
        while let pick = try Self.pick(host, "Blue") { bob.send(pick) }
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "Blue through")
        #expect(board.screen().contains { $0.contains("Blue") && $0.contains("place 1") })
        #expect(host.core.room.game != nil, "Red still plays for second place")

        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the final standings")
        #expect(ann.screen().contains { $0.contains("FINAL STANDINGS") })
        #expect(ann.screen().contains { $0.contains("Blue wins!") })
    }

    @Test func teamBingoAtEveryPhase() throws {
        var (host, ann, bob, board) = try Self.room()
        host.console("start words bingo en 2 lines=rows,columns")
        let game = try Self.game(host)
        #expect(game.game.settings.lines == [.rows, .columns] && game.game.level == 2)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the first cards")
        ann.connection.send(try #require(try Self.pick(host, "Red", correct: false)))
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "an option taken away")
        ann.connection.send(try #require(try Self.pick(host, "Red")))
        bob.send(try #require(try Self.pick(host, "Blue")))
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a marked cell")
        #expect(ann.screen().contains { $0.contains("✔") })
        while let pick = try Self.pick(host, "Red") { ann.connection.send(pick) }
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "Red's bingo")
        #expect(ann.screen().contains { $0.contains("★") }, "the line that made BINGO is marked")
        #expect(board.connection.received.contains { $0["type"] == "bingo" && $0["team"] == "Red" })
        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the end of bingo")
    }

    @Test func theDiceBoardAtEveryPhase() throws {
        var (host, ann, _, board) = try Self.room()
        host.console("start words board garden")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "answering the start tile")
        ann.connection.send(try #require(try Self.pick(host, "Red")))
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "waiting for the roll")
        #expect(ann.screen().contains { $0.contains("Roll the die: press r") })
        var sawFork = false
        for _ in 0..<40 {
            let team = try #require(try Self.game(host).game.team(named: "Red"))
            switch team.step {
            case .rolling?: ann.connection.send(line: JSONValue.object(["type": "roll"]).description)
            case .choosing(_, _, let choices)?:
                if !sawFork {
                    sawFork = true
                    try CatchUpTests.check(host, board: &board, player: &ann, phase: "a fork")
                    #expect(ann.screen().contains { $0.contains("A fork on") })
                }
                ann.connection.send(["type": "move", "tile": .int(Int64(choices[0]))])
            default:
                ann.connection.send(try #require(try Self.pick(host, "Red")))
            }
        }
        #expect(sawFork, "forty moves on the garden board met no fork")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a board half done")
        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the end of the board")
    }

    // MARK: Who sees what, typed commands, the journal

    @Test func aTeamsHandGoesToTheTeamAndTheBoardsOnly() throws {
        var (host, ann, bob, board) = try Self.room()
        host.console("start words cards")
        ann.update()
        board.update()
        let bobsMessages = bob.drain()
        #expect(bobsMessages.contains { $0["type"] == "hand" && $0["team"] == "Blue" })
        #expect(!bobsMessages.contains { $0["type"] == "hand" && $0["team"] == "Red" }, "Blue saw Red's hand")
        #expect(board.connection.received.filter { $0["type"] == "hand" }.count == 2, "the board sees every hand")
        host.console("end")
        host.console("start words bingo")
        #expect(!bob.drain().contains { $0["type"] == "card" && $0["team"] == "Red" }, "Blue saw Red's card")
    }

    @Test func textModeReadsCardsCellsRollsAndForks() throws {
        let host = try EmbeddedHost()
        let cleo = host.connect()
        cleo.send(line: "join ROOM Cleo Green")
        _ = cleo.text()
        host.console("start words cards")
        let intro = cleo.text()
        #expect(intro.contains("=== Compound words: card race!"))
        #expect(intro.contains(">>> Your word (1/22)"))
        let slot = try #require(try Self.pick(host, "Green")?["choice"]?.intValue)
        cleo.send(line: "\(slot)")
        #expect(cleo.text().contains("✔ Green (Cleo)"))
        cleo.send(line: "pick 9")
        #expect(cleo.text().contains("Usage: a card: 1 to 4"))
        cleo.send(line: "zebra")
        #expect(cleo.text().contains("\"zebra\" is not one of your cards"))
        host.console("end")

        host.console("start words bingo")
        #expect(cleo.text().contains("  a1 "))
        let cell = try #require(try Self.pick(host, "Green")?["cell"]?.intValue)
        cleo.send(line: WordsWire.cellName(Int(cell)).uppercased())
        #expect(cleo.text().contains("✔ Green (Cleo)"))
        host.console("end")

        host.console("start words board")
        #expect(cleo.text().contains("Tiles, each with the tiles its paths lead to:"))
        cleo.send(line: "r")
        #expect(cleo.text().contains("Answer the word on your tile first."))
        cleo.send(line: "\(try #require(try Self.pick(host, "Green")?["choice"]?.intValue))")
        #expect(cleo.text().contains(">>> Your turn: roll the die — type r.   (your token is on tile 1, sun, done"))
        cleo.send(line: "roll")
        #expect(cleo.text().contains("Green rolled a "))
    }

    @Test func startOptionsAreReadWithClearRefusals() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let cases: [(String, String)] = [
            ("start words cards fr", "There is no word list \"fr\". Lists: sv, en."),
            ("start words cards en 7", "The list English compound words has no level 7; its levels are 1, 2, 3."),
            ("start words exercise=chess", "exercise must be cards, bingo or board, not \"chess\"."),
            ("start words bingo lines=rows,zigzag", "lines are rows, columns and diagonals, not \"zigzag\"."),
            ("start words board board=moon", "There is no dice board \"moon\". Boards: garden, skogen."),
            ("start words cards lockout-seconds=99", "lockout-seconds must be a whole number from 0 to 60."),
        ]
        for (line, message) in cases { #expect(host.console(line) == ["! " + message], "\(line)") }
        #expect(host.console("start words board sv") == ["Started Compound words."])
        let game = try Self.game(host)
        #expect(game.game.board?.id == "skogen" && game.game.listID == "sv", "the list's own board")
        host.console("end")
        host.console("start words cards sv 2 lockout-seconds=5 places=1")
        #expect(try Self.game(host).game.settings == .init(exercise: .cards, lockoutMilliseconds: 5_000, places: 1))
    }

    @Test(arguments: ["cards", "bingo", "board"])
    func theJournalReplaysToTheGameThePlayersSaw(exercise: String) throws {
        let (host, ann, bob, _) = try Self.room()
        host.console("start words \(exercise)")
        for round in 0..<12 {
            let team = try Self.game(host).game.team(named: round % 2 == 0 ? "Red" : "Blue")
            let connection = round % 2 == 0 ? ann.connection : bob
            switch team?.step {
            case .rolling?: connection.send(["type": "roll"])
            case .choosing(_, _, let choices)?: connection.send(["type": "move", "tile": .int(Int64(choices.last!))])
            default:
                if let pick = try Self.pick(host, team?.name ?? "", correct: round % 3 == 0) { connection.send(pick) }
            }
            host.advance(by: 1_500)
        }
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let game = try #require(replayed.game as? WordsHost)
        #expect(game.game == (try Self.game(host)).game)
        #expect(game.game.answers.count >= (exercise == "board" ? 3 : 6))
    }

    // MARK: The screen at every size

    @Test func everyScreenFitsFromEightyByTwentyFourDown() throws {
        var (host, ann, bob, board) = try Self.room()
        for exercise in ["cards", "bingo", "board"] {
            host.console("end")
            host.console("start words \(exercise)")
            if let pick = try Self.pick(host, "Red", correct: false) { ann.connection.send(pick) }
            if let pick = try Self.pick(host, "Blue") { bob.send(pick) }
            ann.update()
            board.update()
            let word = try #require(try Self.game(host).game.team(named: "Red")?.hand?.word)
            for (width, height) in [(80, 24), (64, 20), (40, 16), (30, 12), (20, 8)] {
                for watcher in [ann, board] {
                    var shown = watcher.state
                    shown.recent = []
                    let screen = render(shown, width: width, height: height, now: host.now, options: .plainText)
                    let label = "\(exercise) \(width)×\(height) \(watcher.state.role)"
                    #expect(screen.count == height, "\(label): \(screen.count) rows")
                    for line in screen {
                        #expect(ScreenText.width(of: line) <= width, "\(label): too wide: \(line)")
                        #expect(!line.contains("\u{1B}"), "\(label): an escape in plain text")
                    }
                    guard width >= 40 else { continue }
                    let text = screen.joined(separator: "\n")
                    switch (exercise, watcher.state.role) {
                    case ("bingo", _):
                        for row in ["a", "b", "c", "d"] {
                            #expect(screen.contains { $0.hasPrefix(" \(row) ") }, "\(label): card row \(row) missing")
                        }
                    case ("board", _):
                        #expect(text.contains("sun") && text.contains("door"), "\(label): the board's corners")
                    case (_, .player):
                        let first = word.uppercased().prefix(1)
                        let shown = [
                            word.uppercased(), Wording.spaced(word.uppercased()), "██", "│ \(first) │",
                            "│\(first)│",
                        ]
                        #expect(shown.contains { text.contains($0) }, "\(label): the word is not shown:\n\(text)")
                    default:
                        #expect(text.contains(word.uppercased()), "\(label): Red's word is not shown")
                    }
                }
            }
            // NO_COLOR keeps bold and inverse but writes no colour.
            let noColor = render(
                ann.state, width: 80, height: 24, now: host.now, options: RenderOptions(isColorEnabled: false))
            #expect(!noColor.joined().contains("\u{1B}[3"), "\(exercise): a colour escape with NO_COLOR")
            #expect(noColor.joined().contains("\u{1B}[1"), "\(exercise): bold is still there")
        }
    }

    @Test func theBoardFallsBackToAListingWhenTooNarrow() throws {
        var (host, ann, _, _) = try Self.room()
        host.console("start words board garden")
        ann.update()
        let narrow = render(ann.state, width: 30, height: 40, now: host.now, options: .plainText).joined(
            separator: "\n")
        #expect(narrow.contains("1 @Bsun → 2 5"), "the listing names tiles, tokens and neighbours:\n\(narrow)")
        let wide = render(ann.state, width: 80, height: 40, now: host.now, options: .plainText).joined(separator: "\n")
        #expect(wide.contains("@Bsun───"), "the map draws paths:\n\(wide)")
    }

    // MARK: The operator's content

    @Test func wordListsAreListedImportedEditedAndExportedFromTheConsoleAndAdminClients() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let listed = host.console("words list").joined(separator: "\n")
        #expect(
            listed.contains("sv  Svenska sammansatta ord  3 levels") && listed.contains("en  English compound words"))
        #expect(host.console("words show en").joined().contains("sun: flower* glasses* shine* spoon pig door"))

        // A file with a problem is refused by name and line; nothing is saved.
        let broken = host.data.path + "/garden.txt"
        try Data("# level 1\nsun: flower* glasses chair spoon\nsun: bow* coat cup pig\n".utf8).write(
            to: URL(fileURLWithPath: broken))
        let refusal = host.console("words import \(broken)").joined()
        #expect(refusal.hasPrefix("! \(broken): line 3: sun is already a question word on line 2."), "\(refusal)")
        #expect(!FileManager.default.fileExists(atPath: host.data.path + "/words/garden.txt"))

        var text = "# name: Garden words\n# language: en\n# level 1\n"
        for word in ["sun", "rain", "snow"] { text += "\(word): flower* glasses chair spoon\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: broken))
        #expect(host.console("words import \(broken)") == ["Imported word list garden (Garden words)."])
        #expect(FileManager.default.fileExists(atPath: host.data.path + "/words/garden.txt"), "atomically saved")
        #expect(host.console("words list").joined().contains("too small for bingo: level 1"))
        #expect(
            host.console("words add garden 1 moon: light* beam* chair spoon") == [
                "Added moon on level 1 of garden. "
                    + "Note: Level 1 of \"Garden words\" has 4 question words; a bingo card can need 13, so add 9 more."
            ])
        #expect(host.console("words add garden 1 moon: cake* chair spoon pig").first?.hasPrefix("! ") == true)
        #expect(host.console("words add en 1 moon: cake* chair spoon pig").first?.contains("built-in") == true)
        #expect(host.console("start words bingo garden").first?.contains("Bingo needs 13") == true)
        #expect(host.console("words export garden \(host.data.path)/out.json") == ["Wrote \(host.data.path)/out.json."])
        let exported = try WordListFile.decodeJSON(
            bytes: Array(try Data(contentsOf: URL(fileURLWithPath: host.data.path + "/out.json"))))
        #expect(exported.words.map(\.word) == ["sun", "rain", "snow", "moon"])

        // An admin client uses the same tool; files stay the console's.
        let admin = try host.watcher(.admin)
        admin.send([
            "type": "words", "action": "add", "list": "garden", "level": 2, "word": "bed",
            "options": ["room", "time", "cup", "pen"], "correct": ["room", "time"], "id": 1,
        ])
        let added = try admin.expect("ok")
        #expect(added["re"] == 1 && added["message"]?.stringValue?.hasPrefix("Added bed on level 2 of garden.") == true)
        admin.send(["type": "boards", "action": "create", "name": "Hall", "list": "garden", "id": 3])
        #expect(try admin.expect("ok")["created"] == "hall")
        admin.send(["type": "boards", "action": "tile", "board": "hall", "word": "sun", "x": 0, "y": 0])
        #expect(try admin.expect("ok")["message"] == "Added tile 1 (sun) to hall.")
        admin.send(["type": "words", "action": "list", "id": 2])
        #expect(try admin.expect("contents")["items"]?.arrayValue?.count == 3)
        admin.send(["type": "words", "action": "export", "id": "garden", "file": "/tmp/x.txt"])
        #expect(try admin.expect("error")["code"] == "forbidden")

        // A list kept in the data folder loads again at the next start.
        let again = try ContentStore<WordLists>(folder: host.data.path + "/words", log: Logger(level: .error) { _ in })
        #expect(again.problems.isEmpty)
        #expect(again.library.list(id: "garden")?.words.count == 5)
    }

    @Test func aBoardIsBuiltOnTheConsoleAndPlayed() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        #expect(host.console("board create Our path en 1").first?.hasPrefix("Created the board our-path") == true)
        #expect(host.console("board tile our-path sun 0 0") == ["Added tile 1 (sun) to our-path."])
        #expect(host.console("board tile our-path rain 2 0") == ["Added tile 2 (rain) to our-path."])
        #expect(host.console("board tile our-path snow 1 0").first?.contains("runs over tile 3") == false)
        #expect(host.console("board untile our-path 3") == ["Removed tile 3 and its paths."])
        #expect(host.console("start words board our-path").first?.contains("is on no path") == true)
        #expect(host.console("board path our-path 1 2") == ["Joined tiles 1 and 2."])
        #expect(host.console("board path our-path 1 3").first?.hasPrefix("! ") == true)
        #expect(host.console("board show our-path").joined(separator: "\n").contains("ready to play"))
        #expect(
            host.console("board list").joined().range(
                of: "our-path +Our path +2 tiles, 1 path; list en level 1", options: .regularExpression) != nil)
        #expect(host.console("start words board our-path") == ["Started Compound words."])
        let game = try Self.game(host)
        #expect(game.game.board?.tiles.map(\.word) == ["sun", "rain"])
        #expect(FileManager.default.fileExists(atPath: host.data.path + "/boards/our-path.json"))
        host.console("end")
        #expect(host.console("board tile garden cow 7 7").first?.contains("built-in") == true)
    }

    @Test func theTeachersCSVListsEveryAnswerOfAFinishedGame() throws {
        let (host, ann, bob, _) = try Self.room()
        host.console("start words cards en 1")
        ann.connection.send(try #require(try Self.pick(host, "Red", correct: false)))
        host.advance(by: 3_000)
        ann.connection.send(try #require(try Self.pick(host, "Red")))
        bob.send(try #require(try Self.pick(host, "Blue")))
        let answers = try Self.game(host).game.answers
        host.console("end")
        let reply = host.console("words history").joined(separator: "\n")
        #expect(reply.contains("Wrote 1 CSV file"), "\(reply)")
        #expect(reply.contains("3 answers, 1 wrong (Ann missed \(answers[0].word))"), "\(reply)")
        let games = host.data.path + "/games"
        let csv = try #require(
            try FileManager.default.contentsOfDirectory(atPath: games).first { $0.hasSuffix("-words.csv") })
        let text = try String(contentsOfFile: games + "/" + csv, encoding: .utf8)
        #expect(text.hasPrefix("team,player,word,answer,correct,ms\r\n"))
        #expect(text.contains("Red,Ann,\(answers[0].word),\(answers[0].answer),no,"))
        #expect(
            text.contains("Red,Ann,\(answers[1].word),\(answers[1].answer),yes,0\r\n"),
            "thinking starts after the lockout")
        #expect(text.components(separatedBy: "\r\n").count == 5)
        // The operator's feed said the same, answer by answer.
        #expect(host.console("status").isEmpty == false)
    }
}
