import Foundation
import Protocol
import Rules
import TestSupport
import Testing

@testable import Client
@testable import Host

/// Odd One Out's puzzle packs and the station hunts are operator tools: the console, admin clients and the command
/// line list, show, import, export and edit them; hunts also print their sheets and show their hall of fame.
@Suite("The puzzle-pack and hunt tools", .timeLimit(.minutes(10)))
struct GameToolTests {
    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func puzzlePacksAreCreatedEditedImportedAndExportedFromTheConsole() throws {
        let host = try EmbeddedHost()
        let listed = host.console("puzzles list").joined(separator: "\n")
        #expect(listed.range(of: "animals +Animals +", options: .regularExpression) != nil, "\(listed)")
        #expect(listed.contains(" puzzles (14 easy, "), "\(listed)")
        #expect(host.console("help").joined(separator: "\n").contains("puzzles add ID DIFFICULTY | OUTSIDER |"))

        #expect(host.console("puzzles create Office party") == ["Created puzzle pack office-party."])
        #expect(
            host.console("puzzles add office-party easy | stapler | Monday | Friday | Sunday | days of the week")
                == ["Added puzzle 1 to office-party."])
        #expect(
            host.console("puzzles add office-party hard | mouse | April | May | June | months")
                == ["Added puzzle 2 to office-party."])
        // A puzzle breaking a rule is refused with the rule; a built-in pack cannot change.
        #expect(host.console("puzzles add office-party easy | cat | cat | b | c | l").first?.hasPrefix("! ") == true)
        #expect(
            host.console("puzzles add animals easy | a | b | c | d | e").first?.contains("cannot be changed") == true)
        #expect(host.console("puzzles add office-party easy | too few").first?.hasPrefix("! Usage:") == true)
        #expect(
            host.console("puzzles edit office-party 2 medium | mouse | April | May | July | months")
                == ["Changed puzzle 2 of office-party."])
        let shown = host.console("puzzles show office-party").joined(separator: "\n")
        #expect(shown.contains("2. [medium] mouse · April · May · July → mouse (months)"), "\(shown)")

        let csv = host.data.path + "/office.csv"
        #expect(host.console("puzzles export office-party \(csv)") == ["Wrote \(csv)."])
        let exported = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(exported.contains("medium,mouse,April,May,July,months"), "\(exported)")
        #expect(host.console("puzzles remove office-party 1") == ["Removed puzzle 1 (stapler) from office-party."])
        #expect(host.console("puzzles import \(csv)").first?.hasPrefix("Imported puzzle pack office") == true)
        #expect(FileManager.default.fileExists(atPath: host.data.path + "/puzzles/office-party.json"))

        // A custom pack plays at once.
        _ = try host.player("Ann", team: "Red")
        #expect(host.console("start outsider 1 office-party").first == "Started Odd One Out.")
    }

    @Test func anAdminClientEditsPuzzlesAsJSONButImportsNoFiles() throws {
        let host = try EmbeddedHost()
        let admin = try host.watcher(.admin)
        admin.send(["type": "puzzles", "action": "create", "name": "Colours", "id": 1])
        #expect(try admin.expect("ok")["created"] == "colours")
        let puzzle: JSONValue = [
            "difficulty": "easy", "words": ["dog", "green", "red", "blue"], "outsider": "dog", "link": "colours",
        ]
        admin.send(["type": "puzzles", "action": "add", "item": "colours", "puzzle": puzzle])
        #expect(try admin.expect("ok")["message"] == "Added puzzle 1 to colours.")
        admin.send(["type": "puzzles", "action": "add", "item": "colours", "puzzle": "dog"])
        #expect(try admin.expect("error")["code"] == "bad_puzzle")
        admin.send(["type": "puzzles", "action": "show", "item": "colours"])
        let detail = try admin.expect("content")
        #expect(detail["item"]?["puzzles"]?.arrayValue?.first?["outsider"] == "dog")
        admin.send(["type": "puzzles", "action": "import", "file": "/etc/passwd"])
        #expect(try admin.expect("error")["code"] == "forbidden")
    }

    @Test func huntsAreBuiltAndEditedStationByStationAndKeepTheirCodes() throws {
        let host = try EmbeddedHost()
        #expect(host.console("hunt list").joined(separator: "\n").contains("demo  The party hunt  5 stations"))
        let demo = host.console("hunt show demo").joined(separator: "\n")
        #expect(demo.contains("1. Fridge (code YUMM): "), "the organiser sees the codes: \(demo)")

        let created = host.console(
            "hunt create Office hunt | name=Kitchen | clue=Where the cold things sleep | code=FRDG "
                + "| words=dog, green, red, blue | outsider=dog | link=colours | hint=20 Think of paint.")
        #expect(created.first?.hasPrefix("Created the hunt office-hunt") == true, "\(created)")
        let added = host.console(
            "hunt add office-hunt name=Desk | clue=Where the work gets done | question=What do you sharpen? "
                + "| answer=pencil | hint=It has lead. | success=Sharp!")
        #expect(added.first?.hasPrefix("Added station 2 to office-hunt: Desk (code ") == true, "\(added)")
        #expect(host.console("hunt add office-hunt name=Door | clue=x").first?.contains("needs a task") == true)
        #expect(host.console("hunt add office-hunt name=Door | colour=red").first?.contains("no field") == true)

        // An edit changes only what it names: the code and the task stay.
        #expect(
            host.console("hunt edit office-hunt 1 clue=Where the milk is cold")
                == ["Changed station 1 of office-hunt: Kitchen (code FRDG)."])
        var shown = host.console("hunt show office-hunt").joined(separator: "\n")
        #expect(shown.contains("1. Kitchen (code FRDG): Where the milk is cold"), "\(shown)")
        #expect(shown.contains("odd one out: dog · green · red · blue → dog (colours)"))
        #expect(shown.contains("hint (+20 s): Think of paint."))
        #expect(shown.contains("hint (+30 s): It has lead."))
        #expect(host.console("hunt move office-hunt 2 1") == ["Moved station 2 of office-hunt to place 1."])
        shown = host.console("hunt show office-hunt").joined(separator: "\n")
        #expect(shown.contains("1. Desk"))
        #expect(host.console("hunt remove office-hunt 3").first?.contains("no station 3") == true)
        #expect(host.console("hunt edit demo 1 clue=x").first?.contains("cannot be changed") == true)
        #expect(host.console("hunt copy demo Our party").first?.hasPrefix("Copied demo to the hunt our-party") == true)
        #expect(host.console("hunt show our-party").joined().contains("1. Fridge (code YUMM)"))

        // The file in the data folder keeps the codes; the hunt plays at once.
        let file = try String(contentsOfFile: host.data.path + "/hunts/office-hunt.json", encoding: .utf8)
        #expect(file.contains("\"FRDG\""))
        _ = try host.player("Ann", team: "Red")
        #expect(host.console("start hunt office-hunt").first == "Started Station hunt.")
    }

    @Test func sheetsPrintAsTextMarkdownOrHTMLAndTheHallOfFameShows() throws {
        let host = try EmbeddedHost()
        let text = host.console("hunt print demo").joined(separator: "\n")
        #expect(text.contains("Code: YUMM"))
        #expect(text.contains("Station 1 of 5: Fridge"))
        #expect(!text.contains("cold things"), "a sheet never shows the clue")
        #expect(host.console("hunt print demo --markdown").joined(separator: "\n").contains("Code: YUMM"))
        #expect(host.console("hunt print demo html").joined(separator: "\n").contains("<html"))
        #expect(host.console("hunt print demo --pdf").first?.hasPrefix("! Usage:") == true)
        #expect(host.console("hunt print nowhere") == [#"! There is no hunt "nowhere". See `hunt list`."#])
        // A file keeps one sheet a page (form feeds); its extension picks the format.
        let file = host.data.path + "/sheets.txt"
        // Printed at the running host's console, each sheet has the QR code of its check-in address (issue 26).
        let address = host.core.pageAddress
        #expect(address.hasPrefix("http://") && address.hasSuffix("/ROOM"), "\(address)")
        #expect(
            host.console("hunt print demo \(file)") == [
                "Wrote \(file): 5 sheets (text), one per station. "
                    + "Print it and tape each sheet where its station is. "
                    + "Each has a QR code that checks a team in at \(address) (while this host runs)."
            ])
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written == HuntSheets.sheets(try #require(HuntLibrary().hunt(id: "demo")), pageAddress: address))
        #expect(written.components(separatedBy: "\u{0C}").count == 5)
        #expect(host.console("hunt print demo \(host.data.path)/sheets.html").first?.contains("(html)") == true)
        #expect(
            host.console("hunt history demo") == [
                "demo: Hall of fame of The party hunt\n  Nobody has finished this hunt yet."
            ])

        let run = HallOfFame.Entry(team: "Owls", totalMs: 701_000, penaltiesMs: 30_000, date: "2025-05-30", game: "g")
        try HallsOfFame(dataDirectory: host.data.path).record(
            hunt: "demo", name: "The party hunt", runs: [run], log: Logger(level: .error) { _ in })
        #expect(
            host.console("hunt history demo")
                == ["demo: Hall of fame of The party hunt\n  #1  Owls  11:41 (+0:30 penalties)  2025-05-30"])
        // An admin client sees the hall of fame; sheets (every code on them) print on the host only.
        let admin = try host.watcher(.admin)
        admin.send(["type": "hunts", "action": "print", "item": "demo", "format": "markdown"])
        let refused = try admin.expect("error")
        #expect(refused["code"] == "forbidden")
        #expect(refused["message"]?.stringValue?.contains("partyline-host hunt print demo") == true)
        #expect(!admin.drain().contains { $0.description.contains("YUMM") })
        admin.send(["type": "hunts", "action": "history", "item": "demo", "id": 7])
        let hall = try admin.expect("content")
        #expect(hall["re"] == 7)
        #expect(hall["name"] == "Hall of fame of The party hunt")
        #expect(hall["item"]?["entries"]?.arrayValue?.first?["penaltiesMs"] == 30_000)
        // The operator's full-screen client shows it as a panel, like every content item.
        var client = ClientState(role: .admin, room: "ROOM")
        _ = client.apply(hall, at: 1)
        #expect(client.ui.panel == ["#1  Owls  11:41 (+0:30 penalties)  2025-05-30"])
        // A broken hall of fame is said, not shown as empty.
        try write("{ broken", to: HallsOfFame(dataDirectory: host.data.path).path(hunt: "demo"))
        #expect(host.console("hunt history demo").first?.hasPrefix("! The hall of fame") == true)
    }

    @Test func theCommandLineImportsListsPrintsAndShowsTheHallOfFame() throws {
        let data = TemporaryDirectory()
        let host = BuiltProducts.path("partyline-host")
        let source = data.path + "/office.json"
        try write(
            #"{"id":"office","name":"Office hunt","stations":[{"name":"Kitchen","clue":"Cold","code":"FRDG","#
                + #""puzzle":{"words":["dog","green","red","blue"],"outsider":"dog","link":"colours"}}]}"#,
            to: source)
        let imported = try ChildProcess.run(host, ["hunt", "import", source, "--data", data.path])
        #expect(imported.terminationStatus == 0, "\(imported.errors)")
        #expect(imported.output == "Imported hunt office (Office hunt).\n")
        let listed = try ChildProcess.run(host, ["--data", data.path, "hunt", "list"])
        #expect(
            listed.output.range(of: "office +Office hunt +1 station", options: .regularExpression) != nil,
            "\(listed.output)")
        let html = try ChildProcess.run(host, ["hunt", "print", "office", "--html", "--data", data.path])
        #expect(html.terminationStatus == 0, "\(html.errors)")
        #expect(html.output.contains("<html") && html.output.contains("FRDG"))
        let demo = try #require(HuntLibrary().hunt(id: "demo"))
        let plain = try ChildProcess.run(host, ["hunt", "print", "demo", "--data", data.path])
        #expect(plain.output.contains("Code: YUMM"), "\(plain.errors)")
        let file = data.path + "/sheets.txt"
        let written = try ChildProcess.run(host, ["hunt", "print", "demo", file, "--data", data.path])
        #expect(written.output.hasPrefix("Wrote \(file): 5 sheets (text)"), "\(written.errors)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == HuntSheets.sheets(demo))
        let hall = try ChildProcess.run(host, ["history", "--hunt", "office", "--data", data.path])
        #expect(hall.terminationStatus == 0, "\(hall.errors)")
        #expect(hall.output == "office: Hall of fame of Office hunt\n  Nobody has finished this hunt yet.\n")
        let puzzles = data.path + "/Office party.csv"
        try write("difficulty,outsider,word1,word2,word3,link\neasy,stapler,Monday,Friday,Sunday,days\n", to: puzzles)
        let pack = try ChildProcess.run(host, ["puzzles", "import", puzzles, "--data", data.path])
        #expect(pack.output == "Imported puzzle pack office-party (Office party).\n", "\(pack.errors)")
        let missing = try ChildProcess.run(host, ["history", "--hunt", "nowhere", "--data", data.path])
        #expect(missing.terminationStatus == 2)
        #expect(missing.errors.contains(#"There is no hunt "nowhere""#))
    }
}
