import Common
import Foundation
import Protocol
import TestSupport
import Testing

/// A real host for the phone-page tests, its operator, and phone pages of the one shared browser, with the checks
/// every phone test makes at its end (no request to another origin, no exception, no dialog).
final class PhoneRig {
    /// The host the phones join.
    let host: HostProcess
    /// The operator, over JSON.
    let admin: TestClient
    /// The pages opened through `phone()`, closed with the rig.
    private(set) var pages: [BrowserPage] = []
    /// The origin the phones' pages come from (the proxy's, for a phone behind one, is checked by its test).
    var origin: String { "http://127.0.0.1:\(host.port)" }
    /// The URL a phone opens to join this host's room.
    var roomURL: String { "\(origin)/\(host.room)" }
    private var nextRequest = 1000

    /// Starts a host (fresh, no console) with `arguments` and the data folder `data` (a fresh one when nil).
    init(_ arguments: [String] = [], data: String? = nil) throws {
        host = try HostProcess(["--no-console", "--fresh"] + arguments, data: data, standardError: .discard)
        admin = try host.admin()
    }

    deinit { for page in pages { page.close() } }

    /// A fresh phone (its own storage), or a second tab of `other`'s phone.
    func phone(sharingContextWith other: BrowserPage? = nil) throws -> BrowserPage {
        guard let browser = try Browser.shared() else { throw BrowserError(Browser.unavailableReason) }
        let page = try browser.newPage(width: 390, height: 844, touch: true, sharingContextWith: other)
        pages.append(page)
        return page
    }

    /// Opens `url` (the room's by default) on `page`, types `name`, taps the team's button when the room has the
    /// team (`existing`) or types it as a new team, taps Join and waits for the lobby.
    func join(_ page: BrowserPage, name: String, team: String, existing: Bool = false, url: String? = nil) throws {
        try page.navigate(url ?? roomURL)
        // The form, once its look into the room has drawn the teams there (so the layout no longer moves).
        try page.waitFor(
            "document.getElementById('name') && document.querySelector('[data-screen=\"join\"] .chips')"
                + "?.childElementCount > 0", timeout: Patience.generous, "the join form with the room's teams")
        try page.type(name, into: "#name")
        if existing {
            try Self.tapExactly(page, ".chips button", team)
            try page.waitFor("document.getElementById('team').value === \(Self.literal(team))", "the team chosen")
        } else {
            try page.type(team, into: "#team")
        }
        try page.waitFor(
            "document.getElementById('name').value === \(Self.literal(name)) && "
                + "document.getElementById('team').value === \(Self.literal(team))", "the name and team typed")
        try page.tap(selector: "button[type=submit]", containing: "Join")
        try page.waitFor(Self.onScreen("lobby"), timeout: Patience.generous, "the lobby after joining")
    }

    /// Taps the enabled element matching `selector` whose text is exactly `text` (a card "flower" is not
    /// "sunflower"), waiting for it.
    static func tapExactly(_ page: BrowserPage, _ selector: String, _ text: String) throws {
        let box = try page.waitFor(
            """
            (() => {
              const e = [...document.querySelectorAll(\(literal(selector)))]
                .find((e) => e.textContent === \(literal(text)) && !e.disabled);
              if (!e) return null;
              e.scrollIntoView({ block: 'center' });
              const b = e.getBoundingClientRect();
              return b.width > 0 && b.height > 0 ? { x: b.left + b.width / 2, y: b.top + b.height / 2 } : null;
            })()
            """, timeout: Patience.generous, "\(selector) reading \(text)")
        try page.tap(x: box["x"]?.doubleValue ?? 0, y: box["y"]?.doubleValue ?? 0)
    }

    /// A JavaScript condition: the screen `id` (`join`, `lobby`, `game`, …) is the one shown.
    static func onScreen(_ id: String) -> String {
        "(() => { const s = document.querySelector('[data-screen=\"\(id)\"]'); return !!s && !s.hidden; })()"
    }

    /// A JavaScript condition: the page's visible text contains `text`.
    static func shows(_ text: String) -> String {
        "document.body.innerText.includes(\(Self.literal(text)))"
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        String(decoding: JSONEncoding.encode(.string(text)), as: UTF8.self)
    }

    /// A person at `nc` who joined with the plain-text `join` line.
    func ncPlayer(_ name: String, team: String) throws -> TestClient {
        let client = try host.connect()
        // From the browser's own address the banner waits for the first line (PROTOCOL.md §13a), so type at once.
        try client.send(line: "join \(host.room) \(name) \(team)")
        _ = try client.waitForText("Welcome, \(name)")
        return client
    }

    /// Sends an operator request and returns its `ok` (an error is thrown with its message).
    @discardableResult
    func operate(_ message: JSONObject) throws -> JSONValue {
        nextRequest += 1
        var request = message
        request["id"] = .number(nextRequest)
        try admin.send(request)
        let id = JSONValue.number(nextRequest)
        let reply = try admin.waitFor("ok", where: { $0["re"] == id })
        return reply
    }

    /// Starts `game` with `options` as the operator.
    func start(_ game: String, _ options: JSONObject = [:]) throws {
        var message = options
        message["type"] = "start"
        message["game"] = .string(game)
        try operate(message)
    }

    /// The players the host knows, by name, with their team and whether they are connected.
    func players() throws -> [String: (team: String, connected: Bool)] {
        nextRequest += 1
        try admin.send(["type": "status", "id": .number(nextRequest)])
        let id = JSONValue.number(nextRequest)
        let status = try admin.waitFor("status", where: { $0["re"] == id })
        var players: [String: (team: String, connected: Bool)] = [:]
        for entry in status["players"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue else { continue }
            players[name] = (entry["team"]?.stringValue ?? "", entry["connected"]?.boolValue ?? false)
        }
        return players
    }

    /// The checks every phone test ends with: no request outside the host's origin (or `origin`), no uncaught
    /// exception, no dialog.
    func expectClean(_ page: BrowserPage, origin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let outside = page.requests(outside: origin ?? self.origin)
        #expect(outside.isEmpty, "requests to another origin: \(outside)", sourceLocation: sourceLocation)
        #expect(page.exceptions.isEmpty, "\(page.report())", sourceLocation: sourceLocation)
        #expect(page.dialogs.isEmpty, "\(page.dialogs)", sourceLocation: sourceLocation)
    }

    /// Takes a screenshot of `page` named `name` (a PNG in `Browser.screenshotFolder`).
    @discardableResult
    static func screenshot(_ page: BrowserPage, _ name: String) throws -> String {
        let path = try page.screenshot(to: "phone-\(name).png")
        #expect(FileManager.default.fileExists(atPath: path))
        return path
    }
}

/// Joining from a phone: from the URL the host's QR code encodes, the lobby seen by every kind of client, the
/// page's security header, and hostile text shown as text.
@Suite(
    "The phone page: joining and hostile text",
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"),
    .timeLimit(.minutes(10)))
struct PhonePageTests {
    /// The URL the host's `qr` answer draws: decoded with zbarimg when installed, else read from its caption.
    static func qrURL(_ rig: PhoneRig) throws -> String {
        let reply = try rig.operate(["type": "console", "line": "qr"])
        let drawing = try #require(reply["message"]?.stringValue)
        let lines = drawing.components(separatedBy: "\n")
        let url = try #require(
            lines.lazy.compactMap { line in line.range(of: "or open ").map { String(line[$0.upperBound...]) } }.first)
        if QRScan.isAvailable {
            // The code alone (the caption beside it cut off) read by an independent decoder.
            let code = lines.map { line in
                line.range(of: "   Scan").map { String(line[..<$0.lowerBound]) }
                    ?? line.range(of: "   or open").map { String(line[..<$0.lowerBound]) } ?? line
            }
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: code)) == url)
        }
        // The code the project encodes for that URL reads back the same.
        let encoded = try QRCode(encoding: url)
        if QRScan.isAvailable { #expect(try QRScan.decode(image: encoded.pgm(scale: 3)) == url) }
        return url
    }

    @Test func aPhoneJoinsFromTheQRCodesURLAndEveryClientSeesItInTheLobby() throws {
        let rig = try PhoneRig()
        let bob = try rig.host.join("Bob", team: "Blue")
        let cy = try rig.ncPlayer("Cy", team: "Green")
        let url = try Self.qrURL(rig)
        let parsed = try #require(URL(string: url))
        #expect(parsed.scheme == "http")
        #expect(parsed.port == Int(rig.host.port))
        #expect(parsed.path == "/" + rig.host.room)
        // The test's host listens on loopback only: the phone opens the same port and room there.
        let page = try rig.phone()
        try rig.join(page, name: "Ann", team: "Blue", existing: true, url: "\(rig.origin)\(parsed.path)")
        try page.waitFor(PhoneRig.shows("Bob"), timeout: Patience.generous, "Bob in the phone's lobby")
        try page.waitFor(PhoneRig.shows("Cy"), timeout: Patience.generous, "Cy in the phone's lobby")
        #expect(try page.evaluate("document.getElementById('who').textContent") == "Ann · Blue")
        try PhoneRig.screenshot(page, "lobby")

        _ = try bob.waitForState(Lobby.self) { lobby in
            lobby.players.contains { $0.name == "Ann" && $0.team == "Blue" && $0.connected }
        }
        _ = try cy.waitForText("Ann (Blue) is here")
        #expect(try rig.players()["Ann"]?.team == "Blue")
        // The phone's hello as a player (after the join form's peek as a board) was a protocol-1 hello for the
        // room; the welcome answered it.
        let first = try #require(page.webSocketFrames.first { $0.sent && $0.text.contains("\"player\"") })
        #expect(first.url == "ws://127.0.0.1:\(rig.host.port)/ws")
        let hello = try JSONParsing.parse(first.text)
        #expect(hello["type"] == "hello" && hello["room"] == .string(rig.host.room) && hello["name"] == "Ann")
        #expect(page.webSocketFrames.contains { !$0.sent && $0.text.contains("\"welcome\"") })
        rig.expectClean(page)
    }

    @Test func aNewTeamTypedOnThePhoneIsCreated() throws {
        let rig = try PhoneRig()
        let page = try rig.phone()
        try rig.join(page, name: "Dee", team: "Night Owls")
        #expect(try rig.players()["Dee"]?.team == "Night Owls")
        try page.waitFor(PhoneRig.shows("Night Owls (your team)"), timeout: Patience.generous)
        rig.expectClean(page)
    }

    @Test func theHTMLCarriesTheContentSecurityPolicy() throws {
        let rig = try PhoneRig()
        for path in ["/", "/\(rig.host.room)", "/board"] {
            let client = try rig.host.connect()
            try client.send(raw: Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(rig.host.port)\r\n\r\n".utf8))
            var headers: [String] = []
            while true {
                let line = try client.nextLine()
                if line.isEmpty { break }
                headers.append(line)
            }
            #expect(headers.first == "HTTP/1.1 200 OK", "\(path): \(headers)")
            let policy = headers.first { $0.lowercased().hasPrefix("content-security-policy:") }
            let value = try #require(policy, "\(path): \(headers)").drop { $0 != ":" }.dropFirst()
                .trimmingCharacters(in: .whitespaces)
            for directive in [
                "default-src 'self'", "script-src 'self'", "connect-src 'self'", "object-src 'none'",
                "frame-ancestors 'none'",
            ] {
                #expect(value.contains(directive), "\(path): \(value)")
            }
            #expect(!value.contains("unsafe-inline") && !value.contains("unsafe-eval"), "\(value)")
        }
    }

    /// Names as the hostile guest types them (each at most 24 characters, as the host allows).
    static let hostileName = "<svg onload=pwned=1>"
    static let hostileTeam = "<img src=x onerror=p=1>"
    static let hostileOther = "<script>pwned=4</script>"
    static let hostileQuestion = "Which <b>tag</b>? <img src=x onerror=window.pwned=2><script>window.pwned=3</script>"
    static let hostileAnswer = "<i>ok</i>"
    static let hostileOrder = "No. 1 <img src=x onerror=window.pwned=5> bows"

    /// Nothing ran and nothing was injected on `page`: no `pwned`/`p`, no `img`, one `script` (the module).
    static func expectInert(_ page: BrowserPage, _ rig: PhoneRig, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let state = try page.evaluate(
            """
            ({ pwned: typeof window.pwned, p: typeof window.p, img: document.querySelectorAll('img').length,
               wide: document.documentElement.scrollWidth > innerWidth || innerWidth !== 390,
               script: document.querySelectorAll('script').length,
               b: document.querySelectorAll('main b, main i').length })
            """)
        #expect(
            state == ["pwned": "undefined", "p": "undefined", "img": 0, "wide": false, "script": 1, "b": 0], "\(state)",
            sourceLocation: sourceLocation)
        rig.expectClean(page, sourceLocation: sourceLocation)
    }

    @Test func hostileNamesQuestionsAndOrdersRenderAsInertText() throws {
        let rig = try PhoneRig(["--reveal-seconds", "1"])
        try rig.operate(["type": "packs", "action": "create", "name": "Hostile"])
        try rig.operate([
            "type": "packs", "action": "add", "pack": "hostile",
            "question": [
                "difficulty": "easy", "text": .string(Self.hostileQuestion), "answer": .string(Self.hostileAnswer),
            ],
        ])
        let other = try rig.host.join(Self.hostileOther, team: "Blue")
        let cy = try rig.ncPlayer("Cy", team: "Green")
        let page = try rig.phone()
        try rig.join(page, name: Self.hostileName, team: Self.hostileTeam)
        try page.waitFor(PhoneRig.shows(Self.hostileOther), timeout: Patience.generous, "the other's name as text")
        #expect(try page.evaluate(PhoneRig.shows(Self.hostileName)) == true)
        #expect(try page.evaluate(PhoneRig.shows(Self.hostileTeam)) == true)
        try Self.expectInert(page, rig)
        try PhoneRig.screenshot(page, "hostile-lobby")

        // A pack question and answer with HTML, shown as text.
        try rig.start("shaky", ["questions": 1, "packs": ["hostile"], "questionSeconds": 60, "revealSeconds": 1])
        try page.waitFor(PhoneRig.shows(Self.hostileQuestion), timeout: Patience.generous, "the question as text")
        try Self.expectInert(page, rig)
        try page.tap(selector: "button.buzz")
        #expect(try other.waitFor("buzzed")["order"] == [.string(Self.hostileTeam)])
        try page.waitFor("!document.getElementById('answer').closest('form').hidden", timeout: Patience.generous)
        try page.type("<i>ok</i>", into: "#answer")
        try page.tap(selector: "button[type=submit]", containing: "Send answer")
        let result = try other.waitFor("result")
        #expect(result["team"] == .string(Self.hostileTeam) && result["correct"] == true, "\(result)")
        try page.waitFor("document.querySelector('.final')", timeout: Patience.generous, "the final scores")
        #expect(
            try page.evaluate("document.querySelector('.reveal-answer').textContent") == .string(Self.hostileAnswer))
        try Self.expectInert(page, rig)

        // A Queen's order with HTML, whoever is Queen.
        try rig.start("queen", ["countdownSeconds": 1, "chooseSeconds": 120])
        let round = try other.waitFor("round")
        switch round["queen"]?.stringValue {
        case Self.hostileName:
            // Once the library has loaded (the list above the form grows, moving it).
            try page.waitFor("document.querySelectorAll('.cmds li button').length > 0", timeout: Patience.generous)
            try page.type(Self.hostileOrder, into: "#qown")
            try page.tap(selector: "button[type=submit]", containing: "Give my order")
        case Self.hostileOther:
            try other.send(["type": "command", "text": .string(Self.hostileOrder)])
        default:
            try cy.send(line: Self.hostileOrder)
        }
        try page.waitFor(
            "document.querySelector('.order-text')?.textContent === \(PhoneRig.literal(Self.hostileOrder))",
            timeout: Patience.generous, "the order as text")
        try PhoneRig.screenshot(page, "hostile-order")
        try Self.expectInert(page, rig)
    }
}
