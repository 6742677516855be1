import Foundation
import Testing

@testable import Rules

/// The import format of the issue, with one code left out.
let issueHuntJSON = """
    {"id":"office","name":"Office hunt","stations":[
    {"name":"Kitchen","clue":"Where the cold things sleep","code":"FRDG",
     "puzzle":{"words":["dog","green","red","blue"],"outsider":"dog","link":"colours"}},
    {"name":"Desk","clue":"Where the work gets done",
     "question":{"text":"What do you sharpen before writing?","answer":"pencil"},
     "hints":[{"text":"It has lead.","costSeconds":30}],"success":"Sharp!"}]}
    """

@Suite("Station hunts as content")
struct HuntContentTests {
    @Test func theDemoHuntShipsWithFiveStationsAndTheirCodes() throws {
        let library = HuntLibrary()
        let demo = try #require(library.hunt(id: "demo"))
        #expect(demo.isBuiltin)
        #expect(demo.stations.count == 5)
        #expect(demo.stations.map(\.code) == ["YUMM", "KNCK", "READ", "PANE", "WATR"])
        #expect(library.listHunts().map(\.stationCount) == [5])
    }

    @Test func theIssuesFormatImportsAndMissingCodesAreGenerated() throws {
        let hunt = try HuntFile.decode(bytes: Array(issueHuntJSON.utf8))
        #expect(hunt.id == "office")
        #expect(hunt.stations.map(\.name) == ["Kitchen", "Desk"])
        #expect(hunt.stations[0].code == "FRDG")
        let generated = hunt.stations[1].code
        #expect(generated.count == Hunt.generatedCodeLength)
        // Six letters of twenty: 64 million codes, against guessing with throwaway teams (issue 29); the written
        // four-letter FRDG still loads as it is.
        #expect(generated.count == 6)
        #expect(generated.allSatisfy { Hunt.codeAlphabet.contains($0) }, "\(generated) uses only unambiguous letters")
        #expect(hunt.stations[1].hints == [Hunt.Hint(text: "It has lead.", costSeconds: 30)])
        #expect(hunt.stations[1].success == "Sharp!")
        guard case .puzzle(let puzzle) = hunt.stations[0].task,
            case .question(let text, let answer) = hunt.stations[1].task
        else {
            Issue.record("the tasks did not read")
            return
        }
        #expect(puzzle.outsider == "dog" && puzzle.difficulty == .medium)
        #expect(text.hasPrefix("What do you sharpen") && answer == "pencil")
        // The same file always gets the same code; another hunt gets another.
        #expect(try HuntFile.decode(bytes: Array(issueHuntJSON.utf8)).stations[1].code == generated)
        let other = issueHuntJSON.replacingOccurrences(of: "Office hunt", with: "Office hunt 2")
        #expect(try HuntFile.decode(bytes: Array(other.utf8)).stations[1].code != generated)
        // Written back, codes included, it reads the same.
        let again = try HuntFile.decode(bytes: Array(HuntFile.encode(hunt).utf8))
        #expect(again == hunt)
    }

    @Test func textThatATerminalWouldObeyIsRefused() throws {
        let puzzle = OutsiderPuzzle(
            difficulty: .easy, words: ["dog", "green", "red", "blue"], outsider: "dog", link: "c")
        let clean = Hunt.Station(name: "Kitchen", clue: "Cold", task: .puzzle(puzzle))
        var bad = clean
        bad.clue = "Cold \u{1B}]0;pwned\u{07}"
        #expect(throws: Hunt.Problem.self) { try Hunt(id: "x", name: "X", stations: [bad]).checked() }
        do {
            _ = try Hunt(id: "x", name: "X", stations: [bad]).checked()
        } catch {
            #expect(error.error.code == .badText)
            #expect(error.station == 0)
        }
        #expect(throws: Hunt.Problem.self) { try Hunt(id: "x", name: "X\u{200B}Y", stations: [clean]).checked() }
        var hint = clean
        hint.hints = [Hunt.Hint(text: "a\u{9B}2J", costSeconds: 10)]
        #expect(throws: Hunt.Problem.self) { try Hunt(id: "x", name: "X", stations: [hint]).checked() }
        #expect(throws: Never.self) { try Hunt(id: "x", name: "X", stations: [clean]).checked() }
    }

    @Test func generatedCodesAreDistinctAcrossManyStations() throws {
        let stations = (1...40).map { number in
            Hunt.Station(
                name: "Room \(number)", clue: "Clue \(number)",
                task: .question(text: "Question number \(number)?", answer: "answer"))
        }
        let hunt = try Hunt(id: "big", name: "Big", stations: stations).checked()
        #expect(Set(hunt.stations.map(\.code)).count == 40)
        #expect(hunt.stations.allSatisfy { Hunt.codeLengths.contains($0.code.count) })
    }

    @Test func brokenHuntFilesNameTheLineAndTheStation() {
        func problem(_ json: String) -> RuleError? {
            refusalMessage { _ = try HuntFile.decode(bytes: Array(json.utf8)) }
        }
        let both = """
            {"name":"H","stations":[
            {"name":"A","clue":"c","question":{"text":"Q one?","answer":"alpha"},
             "puzzle":{"words":["a","b","c","d"],"outsider":"a","link":"l"}}]}
            """
        #expect(problem(both)?.message.hasPrefix("line 2:") == true)
        #expect(problem(both)?.message.contains("both") == true)
        let none = "{\"name\":\"H\",\"stations\":[\n{\"name\":\"A\",\"clue\":\"c\"}]}"
        #expect(problem(none)?.message.contains("neither") == true)
        let twice = """
            {"name":"H","stations":[
            {"name":"A","clue":"c","code":"ABCD","question":{"text":"Q one?","answer":"alpha"}},
            {"name":"B","clue":"c","code":"abcd","question":{"text":"Q two?","answer":"beta"}}]}
            """
        let duplicate = problem(twice)
        #expect(duplicate?.code == .badJSON)
        #expect(duplicate?.message.hasPrefix("line 3: station 2:") == true, "\(duplicate?.message ?? "")")
        #expect(duplicate?.message.contains("used twice") == true)
        let badCode = twice.replacingOccurrences(of: "\"abcd\"", with: "\"A\"")
        #expect(problem(badCode)?.message.contains("3 to 8 letters or digits") == true)
        let answerInQuestion = twice.replacingOccurrences(of: "\"beta\"", with: "\"two\"")
        #expect(problem(answerInQuestion)?.message.contains("appears in the question") == true)
        let noStations = #"{"name":"H","stations":[]}"#
        #expect(problem(noStations)?.message.contains("at least one station") == true)
        let badPuzzle = """
            {"name":"H","stations":[
            {"name":"A","clue":"c","puzzle":{"words":["a","b","c","d"],"outsider":"e","link":"l"}}]}
            """
        #expect(problem(badPuzzle)?.message.contains("not one of the four words") == true)
        let costly =
            #"{"name":"H","stations":[{"name":"A","clue":"c","question":{"text":"Q?","answer":"alpha"},"#
            + #""hints":[{"text":"t","costSeconds":9999}]}]}"#
        #expect(problem(costly)?.message.contains("0 to 3600") == true)
        #expect(problem("{\"name\":\"H\",\n\"stations\":[{\"name\":1}]}")?.message.hasPrefix("line 2:") == true)
    }

    @Test func customHuntsAreEditedStationByStation() throws {
        var library = HuntLibrary()
        let id = try library.add(try HuntFile.decode(bytes: Array(issueHuntJSON.utf8)))
        #expect(id == "office")
        let door = Hunt.Station(
            name: "Door", clue: "Everyone came in through me",
            task: .puzzle(
                OutsiderPuzzle(difficulty: .easy, outsider: "cloud", others: ["knob", "hinge", "lock"], link: "doors")))
        try library.addStation(door, toHunt: id)
        let hunt = try #require(library.hunt(id: id))
        #expect(hunt.stations.count == 3)
        #expect(hunt.stations[2].code.count == Hunt.generatedCodeLength, "a new station gets a code")
        #expect(hunt.stations[0].code == "FRDG", "other codes stay")
        try library.moveStation(at: 2, to: 0, inHunt: id)
        #expect(library.hunt(id: id)?.stations.map(\.name) == ["Door", "Kitchen", "Desk"])
        var dup = door
        dup.code = "FRDG"
        #expect(
            refusalMessage { try library.replaceStation(at: 0, inHunt: id, with: dup) }?.message.contains("used twice")
                == true)
        try library.removeStation(at: 0, fromHunt: id)
        #expect(refusalMessage { try library.removeStation(at: 7, fromHunt: id) }?.code == .badQuestionIndex)
        #expect(refusalMessage { try library.addStation(door, toHunt: "demo") }?.code == .readOnly)
        #expect(refusalMessage { try library.deleteHunt("nope") }?.code == .unknownHunt)
        try library.renameHunt(id, to: "Office fun")
        #expect(refusalMessage { try library.renameHunt(id, to: "The party hunt") }?.code == .huntNameTaken)
        let copy = try library.copyHunt("demo")
        #expect(library.hunt(id: copy)?.stations.map(\.code) == library.hunt(id: "demo")?.stations.map(\.code))
        #expect(
            refusalMessage { _ = try library.add(Hunt(id: "x", name: "Office fun", stations: [door])) }?.code
                == .huntNameTaken)
    }

    @Test func printedSheetsShowTheCodeLargeAndPlainButNoClueOrAnswer() throws {
        let hunt = try HuntFile.decode(bytes: Array(issueHuntJSON.utf8))
        let text = HuntSheets.sheets(hunt)
        let sheets = text.components(separatedBy: "\u{0C}\n")
        #expect(sheets.count == 2)
        #expect(sheets[0].contains("Code: FRDG"))
        #expect(sheets[0].contains("Station 1 of 2: Kitchen"))
        #expect(sheets[1].contains("Code: \(hunt.stations[1].code)"))
        // The large letters are the big font at twice its size: F's top bar is ten characters of ink.
        #expect(sheets[0].contains("##########  ########"), "no block letters in:\n\(sheets[0])")
        for line in text.split(separator: "\n") { #expect(line.count <= HuntSheets.width, "too wide: \(line)") }
        for secret in ["cold things", "colours", "pencil", "sharpen", "It has lead", "Sharp!"] {
            #expect(!text.contains(secret), "the sheets give away \"\(secret)\"")
        }
        let markdown = HuntSheets.sheets(hunt, format: .markdown)
        #expect(markdown.contains("**Code: FRDG**"))
        let html = HuntSheets.sheets(hunt, format: .html)
        #expect(html.contains("<p class=\"code\">FRDG</p>"))
        #expect(html.components(separatedBy: "class=\"sheet\"").count == 3)
        // A long code falls back to the smaller letters so it still fits.
        var long = hunt
        long.stations[0].code = "ABCDEFGH"
        #expect(HuntSheets.text(long, station: 0).split(separator: "\n").allSatisfy { $0.count <= HuntSheets.width })
    }

    @Test func theHallOfFameKeepsTheTenFastestFinishedRunsOnce() throws {
        var hall = HallOfFame(hunt: "office", name: "Office hunt")
        #expect(hall.title == "Hall of fame of Office hunt")
        #expect(hall.lines() == ["Nobody has finished this hunt yet."])
        hall.record(
            (1...12).map { number in
                HallOfFame.Entry(
                    team: "Team \(number)", totalMs: Int64(100_000 - number * 1_000), penaltiesMs: 0,
                    date: "2025-06-01", game: "g1")
            })
        #expect(hall.entries.count == HallOfFame.size)
        #expect(hall.entries.first?.team == "Team 12")
        #expect(hall.entries.map(\.totalMs) == hall.entries.map(\.totalMs).sorted())
        hall.record([HallOfFame.Entry(team: "team 12", totalMs: 1, penaltiesMs: 0, date: "2025-06-01", game: "g1")])
        #expect(hall.entries.first?.team == "Team 12", "a game recorded twice counts once")
        hall.record([
            HallOfFame.Entry(team: "Speedy", totalMs: 61_000, penaltiesMs: 30_000, date: "2025-06-02", game: "g2")
        ])
        #expect(hall.entries.first?.team == "Speedy")
        #expect(hall.lines()[0] == "#1  Speedy   1:01 (+0:30 penalties)  2025-06-02")
        let decoded = try HallOfFame.decode(bytes: hall.encoded())
        #expect(decoded == hall)
        let broken = refusalMessage {
            _ = try HallOfFame.decode(bytes: Array("{\"hunt\":\"x\",\n\"name\":3,\"entries\":[]}".utf8))
        }
        #expect(broken?.message.hasPrefix("line 2:") == true, "\(broken?.message ?? "")")
        #expect(HallOfFame.clock(3_723_000) == "1:02:03")
    }
}

extension HuntContentTests {
    /// README.md, found by walking up from this file.
    static let readme: String = {
        var folder = URL(fileURLWithPath: #filePath)
        while folder.path != "/" {
            folder.deleteLastPathComponent()
            if let text = try? String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8) {
                return text
            }
        }
        return ""
    }()

    @Test func theReadmeShowsTheDemoHuntsFirstSheetExactlyAsPrinted() throws {
        let demo = try #require(HuntLibrary().hunt(id: "demo"))
        let sheet = HuntSheets.text(demo, station: 0)
        #expect(
            HuntContentTests.readme.contains("```\n" + sheet + "```\n"),
            "README's hunt print example is stale:\n\(sheet)")
    }
}
