import Common
import Foundation
import Protocol
import TestSupport
import Testing

/// The board editor (`/edit.html`) on a tablet and on a phone, driven by touch: the teacher's board code opens it,
/// words are dragged onto squares, paths drawn by dragging from tile to tile, a broken board is refused with its
/// tiles marked red on the grid, and the mended board saves and starts at once (`start words board ID`).
@Suite(
    "The phone page: the board editor",
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"),
    .timeLimit(.minutes(10)))
struct PhonePageBoardEditorTests {
    /// Drags one finger from (`x0`, `y0`) to (`x1`, `y1`) in `steps` moves (touchstart, touchmove…, touchend).
    static func drag(_ page: BrowserPage, from start: (x: Double, y: Double), to end: (x: Double, y: Double)) throws {
        func point(_ x: Double, _ y: Double) -> JSONValue {
            ["x": .double(x), "y": .double(y), "radiusX": 2, "radiusY": 2, "force": 1, "id": 0]
        }
        try page.send("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": [point(start.x, start.y)]])
        let steps = 8
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let x = start.x + (end.x - start.x) * t
            let y = start.y + (end.y - start.y) * t
            try page.send("Input.dispatchTouchEvent", ["type": "touchMove", "touchPoints": [point(x, y)]])
        }
        try page.send("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": []])
    }

    /// Scrolls the word list to the top of the screen: the words and the grid under them are then both in view.
    static func showWordsAndGrid(_ page: BrowserPage) throws {
        try page.evaluate("document.getElementById('words').scrollIntoView({ block: 'start' })")
    }

    /// The centre of grid square (`x`, `y`) on screen.
    static func square(_ page: BrowserPage, _ x: Int, _ y: Int) throws -> (x: Double, y: Double) {
        let box = try page.evaluate(
            """
            (() => { const b = document.getElementById('grid').getBoundingClientRect();
              return { left: b.left, top: b.top, w: b.width, h: b.height }; })()
            """)
        let width = (box["w"]?.doubleValue ?? 0) / 12
        let height = (box["h"]?.doubleValue ?? 0) / 8
        return (
            (box["left"]?.doubleValue ?? 0) + width * (Double(x) + 0.5),
            (box["top"]?.doubleValue ?? 0) + height * (Double(y) + 0.5)
        )
    }

    /// Drags `word` from the word list onto square (`x`, `y`); the grid must then show it there.
    static func place(_ page: BrowserPage, _ word: String, _ x: Int, _ y: Int) throws {
        try showWordsAndGrid(page)
        let box = try page.waitFor(
            """
            (() => { const b = [...document.querySelectorAll('#words button')]
                .find((e) => e.textContent === \(PhoneRig.literal(word)));
              if (!b) return null; const r = b.getBoundingClientRect();
              return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()
            """, timeout: Patience.generous, "the word \(word)")
        let to = try square(page, x, y)
        #expect(to.y < Double(page.viewport.height), "square \(x),\(y) is on screen")
        try drag(page, from: (box["x"]?.doubleValue ?? 0, box["y"]?.doubleValue ?? 0), to: to)
        try page.waitFor(
            "[...document.querySelectorAll('#grid g.tile')].some((g) => g.dataset.word === \(PhoneRig.literal(word)))",
            timeout: Patience.generous, "the tile \(word) on the grid")
    }

    /// Taps Save until the page answers it ("Checking your board…" or the host's reply): Chromium drops the click of
    /// a tap that comes a moment after a drag ends (as a tap that stops a fling), which no child's finger does.
    static func tapSave(_ page: BrowserPage) throws {
        try page.evaluate("document.getElementById('say').textContent = ''")
        for _ in 1...5 {
            try page.tap(selector: "#save")
            let answered = try? page.waitFor(
                "document.getElementById('say').textContent !== ''", timeout: 2, "the page answering Save")
            if answered != nil { return }
        }
        throw BrowserError("five taps on Save went unanswered")
    }

    /// Builds, refuses, mends, saves and starts a board on a page of `width` × `height`.
    func buildAndPlay(width: Int, height: Int, name: String) throws {
        let rig = try PhoneRig()
        let code = try #require(
            try rig.operate(["type": "console", "line": "board code"])["message"]?.stringValue?
                .split(separator: " ").dropFirst(3).first.map(String.init))
        guard let browser = try Browser.shared() else { throw BrowserError(Browser.unavailableReason) }
        let page = try browser.newPage(width: width, height: height, touch: true)
        defer { page.close() }
        try page.navigate("\(rig.origin)/edit.html")
        // A wrong code is told on the page; the right one opens the editor.
        try page.type("WRONG123", into: "#code")
        try page.tap(selector: "button[type=submit]", containing: "Start building")
        try page.waitFor(
            PhoneRig.shows("That code is not right."), timeout: Patience.generous, "the wrong code refused")
        try PhoneRig.screenshot(page, "editor-\(width)-code")
        try page.evaluate("document.getElementById('code').value = ''")
        try page.type(code, into: "#code")
        try page.tap(selector: "button[type=submit]", containing: "Start building")
        try page.waitFor("!document.getElementById('editor').hidden", timeout: Patience.generous, "the editor")
        try page.evaluate(
            "(() => { const s = document.getElementById('list'); s.value = 'en'; s.dispatchEvent(new Event('change')); })()"
        )
        try page.type(name, into: "#name")

        // Three words dragged onto the grid: sun and rain on one row, bed under rain.
        try Self.place(page, "sun", 1, 1)
        try Self.place(page, "rain", 5, 1)
        try Self.place(page, "bed", 5, 4)
        // One path by dragging sun → rain; bed has none yet.
        try Self.showWordsAndGrid(page)
        try Self.drag(page, from: try Self.square(page, 1, 1), to: try Self.square(page, 5, 1))
        try page.waitFor("document.querySelectorAll('#grid line.path').length === 1", "the path sun–rain")
        try Self.tapSave(page)
        try page.waitFor(
            PhoneRig.shows("The tile “bed” has no path."), timeout: Patience.generous, "the refusal in words")
        #expect(
            try page.evaluate("document.querySelector('#grid g.tile.bad')?.dataset.word") == "bed",
            "the lonely tile is marked on the grid")
        try PhoneRig.screenshot(page, "editor-\(width)-refused")

        // The missing path drawn by dragging rain → bed; saved; then started as a game.
        try Self.showWordsAndGrid(page)
        try Self.drag(page, from: try Self.square(page, 5, 1), to: try Self.square(page, 5, 4))
        try page.waitFor("document.querySelectorAll('#grid line.path').length === 2", "the path rain–bed")
        #expect(try page.evaluate("document.querySelectorAll('#grid .bad').length") == 0)
        try Self.tapSave(page)
        try page.waitFor(PhoneRig.shows("Saved!"), timeout: Patience.generous, "the saved board")
        try PhoneRig.screenshot(page, "editor-\(width)-saved")
        let id = try #require(
            try page.evaluate(
                "document.getElementById('say').textContent.match(/start words board (\\S+)\\.$/)?.[1]"
            ).stringValue)

        let red = try rig.host.join("Ann", team: "Red")
        try rig.operate(["type": "console", "line": .string("start words board \(id)")])
        let intro = try red.waitFor("game")
        #expect(intro["board"]?["id"] == .string(id))
        let tiles = intro["board"]?["tiles"]?.arrayValue ?? []
        #expect(Set(tiles.compactMap { $0["word"]?.stringValue }) == ["sun", "rain", "bed"])
        #expect(tiles.first { $0["start"] == true }?["word"] == "sun", "the first tile placed is the start")
        #expect(intro["board"]?["paths"]?.arrayValue?.count == 2)
        rig.expectClean(page)
    }

    @Test func aBoardBuiltByDragOnATabletSavesAndStarts() throws {
        try buildAndPlay(width: 1024, height: 768, name: "Tablet path")
    }

    @Test func aBoardBuiltByDragOnAPhoneSavesAndStarts() throws {
        try buildAndPlay(width: 390, height: 844, name: "Phone path")
    }
}
