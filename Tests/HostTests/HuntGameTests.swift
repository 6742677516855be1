import Foundation
import Protocol
import Rules
import TestSupport
import Testing

/// A whole station hunt over real TCP, every client's bytes captured for the secrecy check.
@Suite("The station hunt over TCP", .timeLimit(.minutes(10)))
struct HuntGameTests {
    /// Three stations; the desk has no code in the file, so the host generates one.
    static let huntJSON = """
        {"id":"office","name":"Office hunt","stations":[
        {"name":"Kitchen","clue":"Where the cold things sleep","code":"FRDG",
         "puzzle":{"words":["dog","green","red","blue"],"outsider":"dog","link":"colours"},
         "hints":[{"text":"Think of paint.","costSeconds":20}],"success":"Cool work!"},
        {"name":"Desk","clue":"Where the work gets done",
         "question":{"text":"What do you sharpen before writing?","answer":"pencil"},
         "hints":[{"text":"It has lead.","costSeconds":30}],"success":"Sharp!"},
        {"name":"Door","clue":"Everyone came in through me","code":"KNCK",
         "puzzle":{"words":["knob","hinge","lock","cloud"],"outsider":"cloud","link":"parts of a door"}}]}
        """

    /// A data folder holding the hunt `office`, and the hunt as the host will read it (codes generated alike).
    static func dataFolder() throws -> (TemporaryDirectory, Hunt) {
        let data = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: data.path + "/hunts", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: data.path + "/hunts/office.json", contents: Data(huntJSON.utf8)))
        return (data, try HuntFile.decode(bytes: Array(huntJSON.utf8)))
    }

    /// The 1-based number of `word` in a `puzzle` message.
    static func number(of word: String, in puzzle: JSONValue) throws -> Int {
        let words = puzzle["words"]?.arrayValue ?? []
        return try #require(words.firstIndex(of: .string(word))) + 1
    }

    @Test func twoTeamsOneOverNcFromTheFirstClueToTheHallOfFame() throws {
        let (data, hunt) = try HuntGameTests.dataFolder()
        let deskCode = hunt.stations[1].code
        let host = try HostProcess([], data: data.path)
        let admin = try host.admin()
        let ann = try host.join("Ann", team: "Red")
        let abe = try host.join("Abe", team: "Red")
        let gil = try host.connect()  // a person at nc
        _ = try gil.waitForText("join ROOM NAME TEAM")
        try gil.send(line: "join \(host.room) Gil Green")
        _ = try gil.waitForText("Welcome, Gil")
        let board = try host.board()
        _ = try board.waitFor("lobby") { ($0["players"]?.arrayValue?.count ?? 0) == 3 }

        try admin.send([
            "type": "start", "game": "hunt", "hunt": "office", "order": "staggered", "minutes": 10,
            "penaltySeconds": 30, "id": 1,
        ])
        #expect(try admin.waitFor("ok") { $0["re"] == 1 }["message"] == "Started Station hunt.")
        let intro = try board.waitFor("game")
        #expect(intro["stations"] == 3)
        #expect((intro["remainingMs"]?.intValue ?? 0) > 590_000)
        // Staggered: Red starts at the kitchen, Green at the desk.
        #expect(try ann.waitFor("clue")["text"] == "Where the cold things sleep")
        #expect(try abe.waitFor("clue")["station"] == 1)
        _ = try gil.waitForText("Clue 1/3: Where the work gets done")

        // Red: a wrong code (an error that counts), the right one, a hint, a wrong pick, the right pick.
        try ann.send(["type": "checkin", "code": "ZZZZ", "id": 2])
        let wrongCode = try ann.waitFor("error") { $0["re"] == 2 }
        #expect(wrongCode["code"] == "wrong_code")
        #expect(wrongCode["message"]?.stringValue?.contains("4 tries left") == true)
        try abe.send(["type": "checkin", "code": "frdg", "id": 3])
        _ = try abe.waitFor("ok") { $0["re"] == 3 }
        let puzzle = try ann.waitFor("puzzle")
        #expect(try abe.waitFor("puzzle") == puzzle, "every terminal of the team")
        #expect(puzzle["hints"] == 1)
        try ann.send(["type": "hint", "id": 4])
        let hint = try abe.waitFor("hint")
        #expect(hint["text"] == "Think of paint.")
        #expect(hint["penaltiesMs"] == 20_000)
        try ann.send(["type": "pick", "choice": .number(try HuntGameTests.number(of: "red", in: puzzle))])
        let wrong = try ann.waitFor("wrong")
        #expect(wrong["penaltyMs"] == 30_000 && wrong["penaltiesMs"] == 50_000)
        _ = try board.waitFor("progress") { $0["teams"]?.arrayValue?.first?["penaltiesMs"] == 50_000 }
        try abe.send(["type": "pick", "choice": .number(try HuntGameTests.number(of: "dog", in: puzzle))])
        let solved = try ann.waitFor("solved")
        #expect(solved["name"] == "Kitchen" && solved["answer"] == "dog" && solved["success"] == "Cool work!")
        #expect(try ann.waitFor("clue")["text"] == "Where the work gets done")
        let log = try admin.waitFor("stationSolved")
        #expect(log["team"] == "Red" && log["name"] == "Kitchen")

        // Green, from nc: its desk question, a hint, a wrong answer, the right one, then the door and the kitchen.
        try gil.send(line: "checkin \(deskCode.lowercased())")
        _ = try gil.waitForText("What do you sharpen before writing?  (6 letters")
        try gil.send(line: "hint")
        _ = try gil.waitForText("Hint 1/1 (+30 s): It has lead.")
        try gil.send(line: "pen")
        _ = try gil.waitForText("+30 s penalty")
        try gil.send(line: "pencil")
        _ = try gil.waitForText("Desk solved (pencil)")
        _ = try gil.waitForText("Clue 2/3: Everyone came in through me")
        try gil.send(line: "check in KNCK")
        let door = try gil.waitForText("Station 2/3: which is the odd one out?")
        let cloud = try #require(door.range(of: #"(\d) cloud"#, options: .regularExpression)).lowerBound
        try gil.send(line: String(door[cloud]))
        _ = try gil.waitForText("Door solved (cloud)")
        try gil.send(line: "checkin FRDG")
        try gil.send(line: "dog")
        _ = try gil.waitForText("You found every station!")

        // Red finishes: the desk and the door.
        try ann.send(["type": "checkin", "code": .string(deskCode)])
        _ = try ann.waitFor("question")
        try ann.send(["type": "answer", "text": "Pencil!"])
        _ = try ann.waitFor("clue") { $0["station"] == 3 }
        try abe.send(["type": "checkin", "code": "KNCK"])
        try abe.send(["type": "answer", "text": "cloud"])
        let final = try board.waitFor("scoreboard")
        #expect(final["final"] == true)
        let ranking = final["ranking"]?.arrayValue ?? []
        #expect(ranking.map { $0["stations"] } == [3, 3])
        #expect(ranking.allSatisfy { $0["finished"] == true })
        let fame = final["hallOfFame"]?.arrayValue ?? []
        #expect(Set(fame.compactMap { $0["team"]?.stringValue }) == ["Red", "Green"])
        #expect(fame.first?["place"] == 1)
        _ = try gil.waitForText("Hall of fame")
        for client in [ann, abe, admin] { _ = try client.waitFor("scoreboard") }
        host.stop()
        let stored = try HallOfFame.decode(
            bytes: Array(try #require(FileManager.default.contents(atPath: data.path + "/halls/office.json"))))
        #expect(stored.entries.count == 2)

        // Secrecy. No check-in code ever reaches a player or a board; the organiser's feed shows them (#18) and
        // nothing else the operators get does.
        let operatorFeed = admin.transcriptText.split(separator: "\n").filter { $0.contains("\"type\":\"feed\"") }
        let operatorRest = admin.transcriptText.split(separator: "\n").filter { !$0.contains("\"type\":\"feed\"") }
            .joined(separator: "\n")
        #expect(operatorFeed.contains { $0.contains("Kitchen, code \(hunt.stations[0].code)") }, "\(operatorFeed)")
        let clients = [("ann", ann), ("abe", abe), ("gil", gil), ("board", board)]
        for (name, client) in clients {
            for code in hunt.stations.map(\.code) {
                #expect(!client.transcriptText.contains(code), "\(name) received the code \(code)")
                #expect(!operatorRest.contains(code), "the operator received the code \(code) outside the feed")
            }
        }
        // Boards get no clue, task, hint, answer or success message; operators only in their feed.
        let secrets = [
            "cold things", "work gets done", "came in through", "sharpen", "pencil", "\"words\"", "Think of paint",
            "It has lead", "Cool work", "Sharp!", "cloud", "\"answer\"",
        ]
        for (name, text) in [("board", board.transcriptText), ("admin", operatorRest)] {
            for secret in secrets {
                #expect(!text.contains(secret), "\(name) received \"\(secret)\"")
            }
        }
        // A team's hint, penalty and solve reach that team only: Red never asked the desk's hint, Green the kitchen's.
        #expect(!ann.transcriptText.contains("It has lead") && !abe.transcriptText.contains("It has lead"))
        #expect(!gil.transcriptText.contains("Think of paint"))
        #expect(
            ann.transcriptText.components(separatedBy: "\"type\":\"wrong\"").count - 1 == 1, "only Red's own penalty")
        #expect(gil.transcriptText.components(separatedBy: "penalty (").count - 1 == 1, "only Green's own penalty")
        // Each team saw each clue once, when it got there.
        #expect(gil.transcriptText.components(separatedBy: "Where the cold things sleep").count - 1 == 1)
        #expect(ann.transcriptText.components(separatedBy: "Everyone came in through me").count - 1 == 1)
        let greenKitchen = try #require(gil.transcriptText.range(of: "Where the cold things sleep")?.lowerBound)
        let greenDoor = try #require(gil.transcriptText.range(of: "Door solved")?.lowerBound)
        #expect(greenDoor < greenKitchen, "Green got the kitchen's clue only after the door")
    }

    @Test func aHuntStartNeedsAKnownHunt() throws {
        let host = try HostProcess()
        let admin = try host.admin()
        _ = try host.join("Ann", team: "Red")
        try admin.send(["type": "start", "game": "hunt", "hunt": "attic", "id": 2])
        let error = try admin.waitFor("error") { $0["re"] == 2 }
        #expect(error["code"] == "unknown_hunt")
        #expect(error["message"]?.stringValue?.contains("demo") == true)
        host.stop()
    }
}
