import Foundation
import Protocol
import Rules
import TestSupport
import Testing

/// Every game played to its end by touch on a phone page, beside a JSON client and a person at `nc`, the operator
/// starting each with short options: what the page shows, and what the others saw of the phone's play.
@Suite(
    "The phone page: every game by touch",
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"),
    .timeLimit(.minutes(10)))
struct PhonePageModeTests {
    /// A room of three teams: the phone's Ann (Red), Bob over JSON (Blue), Cy at nc (Green).
    struct Room {
        let rig: PhoneRig
        let page: BrowserPage
        let bob: TestClient
        let cy: TestClient
    }

    /// The room with its three players, the phone joined in its lobby.
    static func room(_ arguments: [String] = [], data: String? = nil) throws -> Room {
        let rig = try PhoneRig(arguments, data: data)
        let bob = try rig.host.join("Bob", team: "Blue")
        let cy = try rig.ncPlayer("Cy", team: "Green")
        let page = try rig.phone()
        try rig.join(page, name: "Ann", team: "Red")
        #expect(try rig.players()["Ann"]?.team == "Red")
        return Room(rig: rig, page: page, bob: bob, cy: cy)
    }

    /// Waits for the final scores on the page and shoots them as `name`.
    static func expectFinal(_ room: Room, _ name: String, containing texts: [String] = ["Red"]) throws {
        try room.page.waitFor(
            "document.querySelector('[data-screen=\"game\"] .final')", timeout: Patience.generous, "the final scores")
        for text in texts {
            #expect(
                try room.page.evaluate("document.querySelector('.final').innerText.includes(\(PhoneRig.literal(text)))")
                    == true, "\(text)")
        }
        try PhoneRig.screenshot(room.page, name)
        room.rig.expectClean(room.page)
    }

    @Test func shakyWordsBuzzAndAnswer() throws {
        let room = try Self.room()
        try room.rig.operate(["type": "packs", "action": "create", "name": "Phone"])
        try room.rig.operate([
            "type": "packs", "action": "add", "pack": "phone",
            "question": ["difficulty": "easy", "text": "The capital of France?", "answer": "Paris"],
        ])
        try room.rig.start("shaky", ["questions": 1, "packs": ["phone"], "questionSeconds": 120, "revealSeconds": 1])
        let page = room.page
        try page.waitFor(PhoneRig.shows("The capital of France?"), timeout: Patience.generous, "the question")
        try PhoneRig.screenshot(page, "shaky")
        try page.tap(selector: "button.buzz")
        #expect(try room.bob.waitFor("buzzed")["order"] == ["Red"])
        try page.waitFor("!document.getElementById('answer').closest('form').hidden", timeout: Patience.generous)
        try PhoneRig.screenshot(page, "shaky-turn")
        try page.type("paris", into: "#answer")
        try page.tap(selector: "button[type=submit]", containing: "Send answer")
        let result = try room.bob.waitFor("result")
        #expect(result["team"] == "Red" && result["correct"] == true, "\(result)")
        _ = try room.cy.waitForText("Paris")
        try Self.expectFinal(room, "shaky-final")
        let final = try room.bob.waitFor("scoreboard")
        #expect(final["ranking"]?.arrayValue?.first?["team"] == "Red")
    }

    @Test func oddOneOutPick() throws {
        let room = try Self.room()
        try room.rig.start("outsider", ["rounds": 1, "roundSeconds": 120, "revealSeconds": 1])
        let page = room.page
        try page.waitFor(
            "document.querySelectorAll('.words4 button:not([disabled])').length === 4", timeout: Patience.generous)
        try PhoneRig.screenshot(page, "outsider")
        let word = try page.evaluate("document.querySelectorAll('.words4 button')[2].textContent")
        try PhoneRig.tapExactly(page, ".words4 button", try #require(word.stringValue))
        let locked = try room.bob.waitFor("lockedIn") {
            $0["teams"]?.arrayValue?.contains { $0["team"] == "Red" } == true
        }
        #expect(locked["teams"]?.arrayValue?.count == 1)
        try page.waitFor(PhoneRig.shows("Your team picked"), timeout: Patience.generous)
        try room.bob.send(["type": "pick", "choice": 1])
        try room.cy.send(line: "2")
        let reveal = try room.bob.waitFor("reveal")
        let red = reveal["results"]?.arrayValue?.first { $0["team"] == "Red" }
        #expect(red?["word"] == word, "\(reveal)")
        try Self.expectFinal(room, "outsider-final")
    }

    @Test func queensGameHoldTheNumberAndOrder() throws {
        let room = try Self.room()
        try room.rig.start("queen", ["countdownSeconds": 1, "chooseSeconds": 120])
        let page = room.page
        var held = false
        var ordered = false
        // The Queen is drawn at random each round (1 in 3 for Ann): deal until the phone has been both, which
        // 30 rounds make all but certain ((2/3)^30 ≈ 5·10⁻⁶), and most runs reach in two or three.
        for number in 1...30 where !(held && ordered) {
            let round = try room.bob.waitFor("round") { $0["number"] == .number(number) }
            let queen = round["queen"]?.stringValue
            if queen == "Ann" {
                try page.waitFor("document.querySelector('#qown')?.offsetParent", timeout: Patience.generous)
                try PhoneRig.screenshot(page, "queen-choosing")
                // Once the library has loaded (the list above the form grows, moving it).
                try page.waitFor("document.querySelectorAll('.cmds li button').length > 0", timeout: Patience.generous)
                try page.type("No. 1 waves to No. 2", into: "#qown")
                try page.tap(selector: "button[type=submit]", containing: "Give my order")
                let order = try room.bob.waitFor("order") { $0["queen"] == "Ann" }
                #expect(order["text"]?.stringValue?.contains("waves to") == true, "\(order)")
                ordered = true
            } else {
                // Hidden until held; shown while the finger is down; hidden again when it lifts.
                try page.waitFor("document.querySelector('button.hold')?.offsetParent", timeout: Patience.generous)
                #expect(try page.evaluate("/\\d/.test(document.querySelector('button.hold').textContent)") == false)
                let box = try page.evaluate(
                    "(() => { const b = document.querySelector('button.hold').getBoundingClientRect(); "
                        + "return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; })()")
                let point: JSONValue = ["x": box["x"] ?? 100, "y": box["y"] ?? 300, "id": 0]
                try page.send("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": [point]])
                let shown = try page.waitFor(
                    "(() => { const t = document.querySelector('button.hold').textContent; "
                        + "return /^\\d+$/.test(t) && t; })()",
                    timeout: Patience.generous, "the number while held")
                if !held { try PhoneRig.screenshot(page, "queen-held") }
                try page.send("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": []])
                try page.waitFor(
                    "!/\\d/.test(document.querySelector('button.hold').textContent)", timeout: Patience.generous)
                if queen == "Bob" {
                    try room.bob.send(["type": "command", "text": "No. 1 bows to the Queen"])
                } else {
                    try room.cy.send(line: "No. 1 bows to the Queen")
                }
                let revealed = try room.bob.waitFor("revealed")
                let numbers = revealed["numbers"]?.objectValue ?? [:]
                #expect(numbers["Ann"]?.intValue.map { String($0) } == shown.stringValue, "\(revealed)")
                held = true
            }
            if queen == "Ann" { _ = try room.bob.waitFor("revealed") }
            try page.waitFor(PhoneRig.shows("Who holds which number"), timeout: Patience.generous)
            if number == 1 { try PhoneRig.screenshot(page, "queen-revealed") }
            if !(held && ordered) { try room.rig.operate(["type": "next"]) }
        }
        #expect(held && ordered, "in 30 rounds the phone both held a number and was the Queen")
        try room.rig.operate(["type": "end"])
        try room.page.waitFor("document.querySelector('.final')", timeout: Patience.generous, "the game over")
        _ = try room.cy.waitForText("Game over")
        try PhoneRig.screenshot(page, "queen-final")
        room.rig.expectClean(page)
    }

    @Test func letMeFlyThrowAndCatch() throws {
        let room = try Self.room()
        try room.rig.start("fly", ["rounds": 1, "roundSeconds": 60, "breakSeconds": 0, "periodMs": 1600])
        let page = room.page
        // Bob (JSON) and Cy (nc) throw and catch first; the round ends when the phone's throw is down too.
        _ = try room.bob.waitFor("round")
        try room.bob.send(["type": "throw"])
        _ = try room.bob.waitFor("thrown") { $0["player"] == "Bob" }
        try room.bob.send(["type": "catch"])
        try room.cy.send(line: "throw")
        _ = try room.bob.waitFor("thrown") { $0["player"] == "Cy" }
        try room.cy.send(line: "catch")
        _ = try room.bob.waitFor("caught") { $0["player"] == "Cy" }
        try page.waitFor("!document.querySelector('button.flybtn').disabled", timeout: Patience.generous, "THROW")
        try PhoneRig.screenshot(page, "fly")
        try page.tap(selector: "button.flybtn")
        let thrown = try room.bob.waitFor("thrown") { $0["player"] == "Ann" }
        try page.waitFor(
            "!document.querySelector('button.flybtn').disabled"
                + " && /In the air|Catch it now/.test(document.body.innerText)",
            timeout: Patience.generous, "the phone in the air")
        try PhoneRig.screenshot(page, "fly-air")
        try page.tap(selector: "button.flybtn")
        let caught = try room.bob.waitFor("caught") { $0["player"] == "Ann" }
        #expect(caught["heightM"] == thrown["heightM"])
        #expect(caught["quality"] != nil)
        _ = try room.cy.waitForText("Ann")
        try Self.expectFinal(room, "fly-final", containing: ["Ann"])
    }

    /// A two-station hunt with known codes.
    static let huntJSON = """
        {"id":"phone","name":"Phone hunt","stations":[
        {"name":"Kitchen","clue":"Where the cold things sleep","code":"FRDG",
         "puzzle":{"words":["dog","green","red","blue"],"outsider":"dog","link":"colours"},
         "hints":[{"text":"Think of paint.","costSeconds":20}],"success":"Cool work!"},
        {"name":"Door","clue":"Everyone came in through me","code":"KNCK",
         "question":{"text":"What do you sharpen before writing?","answer":"pencil"}}]}
        """

    /// Waits for the hunt's full-screen moment `title` (a station found or solved) and taps it away as a guest does
    /// (near its top edge, over the page's header bar, harmless should it have closed by itself meanwhile).
    static func dismissMoment(_ page: BrowserPage, _ title: String) throws {
        try page.waitFor(
            "document.getElementById('moment-title').textContent === " + PhoneRig.literal(title),
            timeout: Patience.generous, "the moment \(title)")
        try page.tap(x: 195, y: 12)
        try page.waitFor("document.getElementById('moment').hidden", timeout: Patience.generous, "the moment closed")
    }

    @Test func stationHuntCheckInAndSolve() throws {
        let data = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: data.path + "/hunts", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(atPath: data.path + "/hunts/phone.json", contents: Data(Self.huntJSON.utf8)))
        let room = try Self.room(data: data.path)
        try room.rig.start("hunt", ["hunt": "phone", "minutes": 10, "teams": ["Red", "Green"]])
        let page = room.page
        try page.waitFor(PhoneRig.shows("Where the cold things sleep"), timeout: Patience.generous, "the first clue")
        try PhoneRig.screenshot(page, "hunt-clue")
        try page.type("frdg", into: "#hcode")
        try page.tap(selector: "button[type=submit]", containing: "Check in")
        try Self.dismissMoment(page, "Found it!")
        try page.waitFor("document.querySelectorAll('.words4 button').length === 4", timeout: Patience.generous)
        try PhoneRig.screenshot(page, "hunt-puzzle")
        try PhoneRig.tapExactly(page, ".words4 button", "dog")
        let solved = try room.rig.admin.waitFor("stationSolved") { $0["team"] == "Red" }
        #expect(solved["name"] == "Kitchen")
        try Self.dismissMoment(page, "Solved!")
        try page.waitFor(PhoneRig.shows("Everyone came in through me"), timeout: Patience.generous, "the second clue")
        try page.type("KNCK", into: "#hcode")
        try page.tap(selector: "button[type=submit]", containing: "Check in")
        try Self.dismissMoment(page, "Found it!")
        try page.waitFor("document.getElementById('hanswer')", timeout: Patience.generous)
        try PhoneRig.screenshot(page, "hunt-task")
        try page.type("pencil", into: "#hanswer")
        try page.tap(selector: "button[type=submit]", containing: "Send answer")
        _ = try room.rig.admin.waitFor("stationSolved") { $0["team"] == "Red" && $0["name"] == "Door" }
        try Self.dismissMoment(page, "Every station found!")
        try page.waitFor(PhoneRig.shows("found every station"), timeout: Patience.generous)
        // Cy, at nc, hunts too.
        try room.cy.send(line: "checkin FRDG")
        let puzzle = try room.cy.waitForText("which is the odd one out?")
        let dog = try #require(puzzle.range(of: #"(\d) dog"#, options: .regularExpression)).lowerBound
        try room.cy.send(line: String(puzzle[dog]))
        _ = try room.cy.waitForText("Kitchen solved")
        try room.cy.send(line: "checkin KNCK")
        try room.cy.send(line: "pencil")
        _ = try room.cy.waitForText("You found every station!")
        try Self.expectFinal(room, "hunt-final", containing: ["Red", "Green"])
        #expect(try room.bob.waitFor("scoreboard")["ranking"]?.arrayValue?.count == 2)
    }

    // MARK: Compound words

    static let lists = WordListLibrary()

    /// Whether `option` joins `word` into a compound of the English list.
    static func isCorrect(_ option: String, for word: String) -> Bool {
        lists.list(id: "en")?.entry(for: word.lowercased())?.isCorrect(option) ?? false
    }

    /// What the words view shows: the question word, the cards or cells that can be tapped, fork buttons, whether
    /// the die can be rolled, and whether the game is over.
    static let wordsState = """
        (() => {
          const root = document.querySelector('.words');
          if (!root) return null;
          const texts = (sel) => [...root.querySelectorAll(sel)].filter((b) => !b.disabled).map((b) => b.textContent);
          const roll = [...root.querySelectorAll('button')].find((b) => b.textContent.startsWith('Roll the die'));
          return { word: (root.querySelector('.qword .huge') || {}).textContent || '',
            cards: texts('.words4 button'), cells: texts('.grid16 button'), forks: texts('.chips button'),
            roll: !!roll && !roll.disabled, over: !!document.querySelector('.final'),
            done: [...root.querySelectorAll('svg text.done')].map((t) => t.textContent),
            snapshot: root.innerText + '|' + (root.querySelector('svg')?.getAttribute('aria-label') || '') };
        })()
        """

    /// Plays the phone's team through a words exercise by touch, always the right card or cell, until the final.
    static func playWords(
        _ page: BrowserPage, shots: String, neighbours: [String: [String]] = [:], keepAlive: () throws -> Void
    ) throws {
        let deadline = Date().addingTimeInterval(Patience.generous * 8)
        var shot = false
        var lastSign = Date()
        while Date() < deadline {
            if Date().timeIntervalSince(lastSign) > 10 {
                try keepAlive()
                lastSign = Date()
            }
            let state = try page.waitFor(Self.wordsState, timeout: Patience.generous, "the words view")
            if state["over"] == true { return }
            let word = state["word"]?.stringValue ?? ""
            let cards = state["cards"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let cells = state["cells"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let forks = state["forks"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if !shot, !word.isEmpty, !(cards.isEmpty && cells.isEmpty) {
                try PhoneRig.screenshot(page, shots)
                shot = true
            }
            let done = Set(state["done"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            // At a fork, the way with the nearest tile not done yet (the board's paths, as the intro gave them).
            func distance(_ start: String) -> Int {
                var seen: Set<String> = [start]
                var layer = [start]
                for steps in 0..<64 {
                    if layer.contains(where: { !done.contains($0) }) { return steps }
                    layer = layer.flatMap { neighbours[$0] ?? [] }.filter { seen.insert($0).inserted }
                    if layer.isEmpty { break }
                }
                return 64
            }
            if let fork = forks.min(by: { distance($0) < distance($1) }) {
                try PhoneRig.tapExactly(page, ".words .chips button", fork)
            } else if !word.isEmpty, let card = cards.first(where: { isCorrect($0, for: word) }) {
                try PhoneRig.tapExactly(page, ".words .words4 button", card)
            } else if !word.isEmpty, let cell = cells.first(where: { isCorrect($0, for: word) }) {
                try PhoneRig.tapExactly(page, ".words .grid16 button", cell)
            } else if !word.isEmpty, let card = cards.first ?? cells.first {
                // A word this test's list does not know: any card (a wrong one is taken away; no lockout).
                try PhoneRig.tapExactly(page, ".words .words4 button, .words .grid16 button", card)
            } else if state["roll"] == true {
                try page.tap(selector: ".words button", containing: "Roll the die")
            }
            let before = PhoneRig.literal(state["snapshot"]?.stringValue ?? "")
            let changed =
                "(() => { const s = \(Self.wordsState); return s && (s.over || s.snapshot !== \(before)); })()"
            _ = try? page.waitFor(changed, timeout: 5, "the words view to change")
        }
        Issue.record("the words game did not end by touch")
    }

    @Test(arguments: ["cards", "bingo"])
    func compoundWords(exercise: String) throws {
        try Self.playCompoundWords(exercise: exercise)
    }

    @Test func compoundWordsOnTheDiceBoard() throws {
        try Self.playCompoundWords(exercise: "board")
    }

    /// One game of compound words, `exercise`, played to its end by the phone's team.
    static func playCompoundWords(exercise: String) throws {
        let room = try Self.room(["--rate", "10000"])
        var options: JSONObject = ["exercise": .string(exercise), "lockoutSeconds": 0, "places": 1]
        if exercise == "board" { options["list"] = "garden" } else { options["list"] = "en" }
        try room.rig.start("words", options)
        // Bob and Cy only watch: they say something now and then, as idle connections are closed after 90 s.
        var neighbours: [String: [String]] = [:]
        if exercise == "board" {
            let board = try room.bob.waitFor("game")["board"]
            var words: [Int64: String] = [:]
            for tile in board?["tiles"]?.arrayValue ?? [] {
                if let id = tile["id"]?.intValue, let word = tile["word"]?.stringValue { words[id] = word }
            }
            for path in board?["paths"]?.arrayValue ?? [] {
                guard let ends = path.arrayValue, ends.count == 2, let a = ends[0].intValue.flatMap({ words[$0] }),
                    let b = ends[1].intValue.flatMap({ words[$0] })
                else { continue }
                neighbours[a, default: []].append(b)
                neighbours[b, default: []].append(a)
            }
            #expect(!neighbours.isEmpty, "the board's paths from the intro")
        }
        try Self.playWords(room.page, shots: "words-\(exercise)", neighbours: neighbours) {
            try room.bob.send(["type": "ping"])
            try room.cy.send(line: "ping")
        }
        let result = try room.bob.waitFor("result") { $0["team"] == "Red" }
        #expect(result["player"] == "Ann")
        let final = try room.bob.waitFor("scoreboard")
        #expect(final["ranking"]?.arrayValue?.first?["team"] == "Red", "\(final)")
        _ = try room.cy.waitForText("Red")
        try Self.expectFinal(room, "words-\(exercise)-final")
    }
}
