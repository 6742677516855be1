import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The three-station hunt the in-process and end-to-end tests play: a puzzle with two hints, a question with one,
/// a puzzle without hints.
let seamHuntJSON = """
    {"id":"office","name":"Office hunt","stations":[
    {"name":"Kitchen","clue":"Where the cold things sleep","code":"FRDG",
     "puzzle":{"words":["dog","green","red","blue"],"outsider":"dog","link":"colours"},
     "hints":[{"text":"Think of paint.","costSeconds":20},{"text":"One of them barks.","costSeconds":40}],
     "success":"Cool work!"},
    {"name":"Desk","clue":"Where the work gets done","code":"DESK",
     "question":{"text":"What do you sharpen before writing?","answer":"pencil"},
     "hints":[{"text":"It has lead.","costSeconds":30}]},
    {"name":"Door","clue":"Everyone came in through me","code":"KNCK",
     "puzzle":{"words":["knob","hinge","lock","cloud"],"outsider":"cloud","link":"parts of a door"}}]}
    """

extension EmbeddedHost {
    /// Adds the three-station office hunt to the host's data folder.
    func addOfficeHunt() throws {
        let hunt = try HuntFile.decode(bytes: Array(seamHuntJSON.utf8))
        let hunts = try #require(core.operators.tools.tool(ContentTool<Hunts>.self))
        try hunts.store.change { try $0.add(hunt) }
    }
}

/// The word numbers of a puzzle message, by word.
func wordNumbers(_ puzzle: JSONValue?) -> [String: Int] {
    var numbers: [String: Int] = [:]
    for (index, word) in (puzzle?["words"]?.arrayValue ?? []).enumerated() {
        if let word = word.stringValue { numbers[word] = index + 1 }
    }
    return numbers
}

@Suite("Odd One Out and the station hunt, in-process")
struct OutsiderHuntSeamTests {
    // MARK: Odd One Out

    @Test func oddOneOutCatchUpEqualsLiveAtEveryPhase() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        var board = Watcher(try host.watcher(.board), role: .board)
        #expect(host.console("start outsider 2 easy animals").first == "Started Odd One Out.")
        let game = try #require(host.core.room.game as? OutsiderHost)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "an open round")

        host.advance(by: 1_500)
        let outsider = try #require(game.record.puzzles.first?.puzzle.outsider)
        bob.send(["type": "pick", "word": .string(outsider)])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a round with one team locked in")

        host.console("pause")
        host.advance(by: 3_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a paused round")
        host.console("continue")

        ann.connection.send(["type": "pick", "choice": 1])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a reveal")
        let reveal = try #require(board.connection.received.last { $0["type"] == "reveal" })
        #expect(reveal["outsider"] == .string(outsider))
        #expect((reveal["results"]?.arrayValue?.first { $0["team"] == "Blue" }?["points"]?.intValue ?? 0) >= 90)

        host.advance(by: 5_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "round 2 with the scores of round 1")
        #expect(ann.screen().contains { $0.contains("Blue") && $0.contains("points") })

        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the final scoreboard")
    }

    @Test func oddOneOutPlaysWithKeysTextAndJSONAndAnswersASecondPickWithANotice() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let abe = try host.player("Abe", team: "Red")
        let cleo = host.connect()  // at nc
        cleo.send(line: "join ROOM Cleo Green")
        host.console("start outsider 1 medium food round-seconds=30")
        ann.update()
        let view = try #require(ann.state.game as? OutsiderView)
        #expect(view.phase == .round)
        let game = try #require(host.core.room.game as? OutsiderHost)
        let drawn = try #require(game.record.puzzles.first?.puzzle)
        let words = game.game.words
        let outsiderNumber = try #require(words.firstIndex(of: drawn.outsider)) + 1
        #expect(cleo.text().contains("Round 1/1"))

        // The full-screen client: a number key sends a stamped pick.
        let actions = ann.state.handle(.character(Character(String(outsiderNumber))), at: host.now)
        guard case .send(let pick)? = actions.first else {
            Issue.record("the key sent nothing: \(actions)")
            return
        }
        #expect(pick["type"] == "pick")
        #expect(pick["choice"]?.intValue == Int64(outsiderNumber))
        #expect(pick["t"]?.intValue == host.now)
        ann.connection.send(pick.objectValue ?? [:])
        _ = try abe.expect("picked")
        // A teammate's second pick is not counted; it hears so.
        abe.send(["type": "pick", "choice": 1, "id": 4])
        #expect(try abe.expect("ok")["re"] == 4)
        #expect(try abe.expect("notice")["message"]?.stringValue?.contains("first pick counts") == true)
        abe.send(["type": "pick", "word": "nonsense", "id": 5])
        // Text mode: the word itself is a pick.
        cleo.send(line: words.first { $0 != drawn.outsider } ?? "")
        let text = cleo.text()
        #expect(text.contains("Your team picked"))
        #expect(text.contains("The odd one out was: \(drawn.outsider)"))
        // Odd One Out's vocabulary only: a buzz is refused in the mode's words.
        host.console("start outsider 1")
        ann.connection.send(["type": "buzz", "id": 9])
        #expect(try ann.connection.expect("error")["code"] == "wrong_game")
        cleo.send(line: "7")
        #expect(cleo.text().contains("Unknown command"))
    }

    @Test func oddOneOutJournalsAndReplaysToTheSameGame() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start outsider 3")
        host.advance(by: 700)
        ann.send(["type": "pick", "choice": 2])
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let game = try #require(replayed.game as? OutsiderHost)
        let live = try #require(host.core.room.game as? OutsiderHost)
        #expect(game.game == live.game)
        #expect(game.game.pick(of: "Red")?.choice == 1)
    }

    // MARK: Station hunt

    @Test func theHuntsCatchUpEqualsLiveAtEveryPhase() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        var board = Watcher(try host.watcher(.board), role: .board)
        var admin = Watcher(try host.watcher(.admin), role: .admin)
        #expect(host.console("start hunt office fixed 10").first == "Started Station hunt.")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the first clue")

        ann.connection.send(["type": "checkin", "code": "ABCD"])
        host.advance(by: 2_000)
        ann.connection.send(["type": "checkin", "code": "frdg"])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "checked in at a puzzle")
        ann.connection.send(["type": "hint"])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a puzzle with a hint")
        let numbers = wordNumbers(ann.connection.received.last { $0["type"] == "puzzle" })
        ann.connection.send(["type": "pick", "choice": .number(numbers["red"] ?? 1)])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "after a wrong pick")
        ann.connection.send(["type": "pick", "word": "Dog"])
        host.advance(by: 1_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the second clue")
        ann.connection.send(["type": "checkin", "code": "DESK"])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "at a question")

        host.console("pause")
        host.advance(by: 4_000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a paused hunt")
        host.console("continue")

        ann.connection.send(["type": "answer", "text": "pencil"])
        ann.connection.send(["type": "checkin", "code": "KNCK"])
        ann.connection.send(["type": "answer", "text": "cloud"])
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a team that finished")
        #expect(ann.screen().contains { $0.contains("You found every station") })
        admin.update()
        var lateAdmin = Watcher(try host.watcher(.admin), role: .admin)
        lateAdmin.update()
        #expect(lateAdmin.screen() == admin.screen(), "\(difference(lateAdmin.screen(), admin.screen()))")
        #expect(admin.screen().contains { $0.contains("Red solved Door") })

        bob.send(["type": "checkin", "code": "FRDG"])
        host.console("end")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the final ranking")
        #expect(board.screen().contains { $0.contains("Hall of fame") })
        #expect(board.screen().contains { $0.contains("#1  Red") })
    }

    @Test func aHuntFromTheTextModeWithWrongCodesTheLockAndAHint() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let ann = try host.player("Ann", team: "Red")
        let nc = host.connect()
        nc.send(line: "join ROOM Gil Green")
        let joined = nc.text()
        let help = try #require(joined.range(of: "Commands while playing"))
        let again = try #require(joined.range(of: "Your rejoin code again: "), "\(joined)")
        #expect(help.upperBound < again.lowerBound, "the code is repeated under the help that pushed it away")
        host.console("start hunt office penalty-seconds=45")
        #expect(nc.text().contains("Clue 1/3: Where the cold things sleep"))
        // A bare code read off the sheet is not taken as a code (a typo would count), but says how to check in.
        nc.send(line: "frdg")
        #expect(
            nc.text().contains("! To check in at a station, type checkin and the code posted there: checkin FRDG"))
        // A wrong code is an error with `re`, not an `ok`; it counts towards the lock.
        for attempt in 1...4 {
            ann.send(["type": "checkin", "code": "WRNG", "id": .number(attempt)])
            let refusal = try ann.expect("error")
            #expect(refusal["code"] == "wrong_code")
            #expect(refusal["re"] == .number(attempt))
            #expect(refusal["message"]?.stringValue?.contains("\(5 - attempt) tr") == true)
        }
        ann.send(["type": "checkin", "code": "WRNG", "id": 5])
        #expect(try ann.expect("error")["code"] == "code_locked")
        ann.send(["type": "checkin", "code": "FRDG", "id": 6])
        let locked = try ann.expect("error")
        #expect(locked["code"] == "code_locked")
        #expect(locked["message"]?.stringValue?.contains("30 more seconds") == true)
        host.advance(by: 30_000)
        ann.send(["type": "checkin", "code": "FRDG", "id": 7])
        #expect(try ann.expect("ok")["re"] == 7)
        #expect(try ann.expect("puzzle")["hints"] == 2)

        // The nc player: checks in by text, asks a hint, picks wrong, then types the word.
        nc.send(line: "checkin FRDG")
        #expect(nc.text().contains("Station 1/3: which is the odd one out?"))
        nc.send(line: "hint")
        #expect(nc.text().contains("Hint 1/2 (+20 s): Think of paint."))
        let game = try #require(host.core.room.game as? HuntHost)
        let words = try #require(game.game.state(of: "Green")?.words)
        nc.send(line: "\(try #require(words.firstIndex(of: "green")) + 1)")
        #expect(nc.text().contains("+45 s penalty"))
        nc.send(line: "dog")
        let solved = nc.text()
        #expect(solved.contains("Kitchen solved (dog)"))
        #expect(solved.contains("Clue 2/3: Where the work gets done"))
        nc.send(line: "checkin DESK")
        nc.send(line: "pencel")
        #expect(nc.text().contains("Desk solved (pencil)"))
        nc.send(line: "buzz")
        #expect(nc.text().contains("That is a command of Shaky Words, but this is Station hunt."))
        // Nothing a client received carries a check-in code of a station it did not type.
        for code in ["KNCK"] {
            #expect(!ann.drain().contains { $0.description.contains(code) })
            #expect(!nc.text().contains(code))
        }
    }

    @Test func theHallOfFameIsKeptInTheDataFolderAcrossHunts() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let ann = try host.player("Ann", team: "Red")
        func playThrough(_ client: EmbeddedConnection, wait: Int64) throws {
            host.advance(by: wait)
            for (code, answer) in [("FRDG", "dog"), ("DESK", "pencil"), ("KNCK", "cloud")] {
                client.send(["type": "checkin", "code": .string(code)])
                client.send(["type": "answer", "text": .string(answer)])
            }
        }
        host.console("start hunt office")
        try playThrough(ann, wait: 90_000)
        let first = try ann.expect("scoreboard")
        #expect(first["hallOfFame"]?.arrayValue?.first?["team"] == "Red")
        #expect(first["hallOfFame"]?.arrayValue?.first?["totalMs"] == 90_000)
        let halls = HallsOfFame(dataDirectory: host.core.storage.directory)
        let stored = try #require(try halls.read(hunt: "office"))
        #expect(stored.entries.map(\.team) == ["Red"])
        #expect(FileManager.default.fileExists(atPath: halls.path(hunt: "office")))

        host.console("start hunt office")
        try playThrough(ann, wait: 30_000)
        let second = try ann.expect("scoreboard")
        #expect(second["hallOfFame"]?.arrayValue?.map { $0["totalMs"]?.intValue } == [30_000, 90_000])
        #expect(try halls.read(hunt: "office")?.entries.count == 2)
        let log = try #require(
            try FileManager.default.contentsOfDirectory(atPath: host.core.storage.gamesDirectory).first {
                $0.hasSuffix("-hunt.json")
            })
        let saved = try JSONParsing.parse(
            Array(try #require(FileManager.default.contents(atPath: host.core.storage.gamesDirectory + "/" + log))))
        #expect(saved["solves"]?.arrayValue?.count == 3)
    }

    @Test func theHuntJournalsAndReplaysToTheSameGame() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start hunt office staggered")
        ann.send(["type": "checkin", "code": "nope"])
        ann.send(["type": "checkin", "code": "FRDG"])
        ann.send(["type": "hint"])
        host.advance(by: 5_000)
        ann.send(["type": "answer", "text": "red"])
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let game = try #require(replayed.game as? HuntHost)
        let live = try #require(host.core.room.game as? HuntHost)
        #expect(game.game == live.game)
        #expect(game.game.state(of: "Red")?.penaltiesMs == 50_000)
        #expect(game.game.state(of: "Blue")?.route.first == 1)
    }

    @Test func startRefusesAMissingOrUnknownHunt() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let admin = try host.watcher(.admin)
        admin.send(["type": "start", "game": "hunt", "id": 1])
        let missing = try admin.expect("error")
        #expect(missing["code"] == "bad_option")
        #expect(missing["message"]?.stringValue?.contains("demo") == true)
        admin.send(["type": "start", "game": "hunt", "hunt": "nope", "id": 2])
        #expect(try admin.expect("error")["code"] == "unknown_hunt")
        admin.send(["type": "start", "game": "hunt", "hunt": "demo", "order": "sideways", "id": 3])
        #expect(try admin.expect("error")["code"] == "bad_option")
        admin.send(["type": "start", "game": "outsider", "packs": ["nope"], "id": 4])
        #expect(try admin.expect("error")["code"] == "unknown_pack")
    }
}

extension OutsiderHuntSeamTests {
    @Test func theConsoleStatusShowsEachTeamsLatestSolveAndTheHuntsScores() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start hunt office")
        host.advance(by: 64_000)
        ann.send(["type": "checkin", "code": "FRDG"])
        ann.send(["type": "answer", "text": "dog"])
        let status = host.core.room.statusSummary
        #expect(status.contains("Station hunt · Office hunt · running"), "\(status)")
        #expect(status.contains("Red 1/3 Kitchen@1:04"), "\(status)")
        #expect(status.contains("Blue 0/3"), "\(status)")
        let scores = host.console("scores").joined(separator: "\n")
        #expect(scores.contains("#1 Red 1 station 1:04"), "\(scores)")
    }
}
