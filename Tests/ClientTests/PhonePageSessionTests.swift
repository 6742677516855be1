import Foundation
import Protocol
import TestSupport
import Testing

/// A phone's session through what phones do mid-game: a reload, a locked screen, a second phone of the team, a
/// connection cut under it; each time it comes back in place, as the same player of the same team.
@Suite(
    "The phone page: coming back in place",
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"),
    .timeLimit(.minutes(10)))
struct PhonePageSessionTests {
    /// A room with Bob (Blue) over JSON and one shaky question open for a long while, from a pack the test knows.
    static func shakyRoom(_ rig: PhoneRig) throws -> TestClient {
        try rig.operate(["type": "packs", "action": "create", "name": "Phone"])
        try rig.operate([
            "type": "packs", "action": "add", "pack": "phone",
            "question": ["difficulty": "easy", "text": "The capital of Italy?", "answer": "Rome"],
        ])
        return try rig.host.join("Bob", team: "Blue")
    }

    /// Starts the one question, once the phones have joined.
    static func startQuestion(_ rig: PhoneRig) throws {
        try rig.start("shaky", ["questions": 1, "packs": ["phone"], "questionSeconds": 600, "answerSeconds": 600])
    }

    static let question = PhoneRig.shows("The capital of Italy?")

    /// The page shows Ann of Red, its game screen, the question; the host has one Ann, connected, in Red.
    static func expectInPlace(_ page: BrowserPage, _ rig: PhoneRig, name: String = "Ann", team: String = "Red") throws {
        try page.waitFor(
            PhoneRig.onScreen("game") + " && " + question, timeout: Patience.generous, "the question again")
        #expect(try page.evaluate("document.getElementById('who').textContent") == .string("\(name) · \(team)"))
        // Connected again (the net line empty), and so for the host.
        try page.waitFor("document.getElementById('net').textContent === ''", timeout: Patience.generous, "online")
        let deadline = Date().addingTimeInterval(Patience.generous)
        var players = try rig.players()
        while players[name]?.connected != true, Date() < deadline {
            _ = try? page.waitFor("new Promise((done) => setTimeout(() => done(true), 100))")
            players = try rig.players()
        }
        #expect(players[name]?.team == team && players[name]?.connected == true, "\(players)")
        #expect(players.count == 2, "no second identity: \(players.keys.sorted())")
    }

    @Test func aReloadAndALockedScreenComeBackInPlace() throws {
        let rig = try PhoneRig()
        let bob = try Self.shakyRoom(rig)
        let page = try rig.phone()
        try rig.join(page, name: "Ann", team: "Red")
        try Self.startQuestion(rig)
        try page.waitFor(Self.question, timeout: Patience.generous, "the question")

        try page.reload()
        try Self.expectInPlace(page, rig)
        #expect(page.webSocketFrames.contains { $0.sent && $0.text.contains("\"resume\"") }, "came back by token")

        // Locked: hidden and frozen (its socket silent), then shown again.
        try page.setHidden(true, freeze: true)
        try page.setHidden(false, freeze: true)
        try Self.expectInPlace(page, rig)
        try PhoneRig.screenshot(page, "after-lock")
        // It still plays: the buzz reaches the host as Red's.
        try page.tap(selector: "button.buzz")
        #expect(try bob.waitFor("buzzed")["order"] == ["Red"])
        rig.expectClean(page)
    }

    @Test func twoPhonesOfOneTeamBothPlayForIt() throws {
        let rig = try PhoneRig()
        let bob = try Self.shakyRoom(rig)
        let ann = try rig.phone()
        let abe = try rig.phone()
        try rig.join(ann, name: "Ann", team: "Red")
        try rig.join(abe, name: "Abe", team: "Red", existing: true)
        #expect(try rig.players()["Abe"]?.team == "Red")
        try Self.startQuestion(rig)
        for page in [ann, abe] { try page.waitFor(Self.question, timeout: Patience.generous, "the question") }
        // Ann buzzes; Abe's phone shows the team's turn and answers.
        try ann.tap(selector: "button.buzz")
        #expect(try bob.waitFor("buzzed")["order"] == ["Red"])
        try abe.waitFor("!document.getElementById('answer').closest('form').hidden", timeout: Patience.generous)
        try ann.waitFor("!document.getElementById('answer').closest('form').hidden", timeout: Patience.generous)
        try abe.type("Rome", into: "#answer")
        try abe.tap(selector: "button[type=submit]", containing: "Send answer")
        let result = try bob.waitFor("result")
        #expect(result["team"] == "Red" && result["correct"] == true, "\(result)")
        try abe.waitUntil("Abe's phone sent the answer", timeout: Patience.generous) {
            abe.webSocketFrames.contains { $0.sent && $0.text.contains("\"answer\"") }
        }
        for page in [ann, abe] {
            try page.waitFor("document.querySelector('.final')", timeout: Patience.generous, "the final scores")
            rig.expectClean(page)
        }
        try PhoneRig.screenshot(ann, "two-phones-final")
    }

    @Test func aPhoneWhoseConnectionIsCutRejoinsByItself() throws {
        let rig = try PhoneRig()
        let bob = try Self.shakyRoom(rig)
        let proxy = try TCPProxy(to: rig.host.port)
        defer { proxy.stop() }
        let origin = "http://127.0.0.1:\(proxy.port)"
        let page = try rig.phone()
        try rig.join(page, name: "Ann", team: "Red", url: "\(origin)/\(rig.host.room)")
        try Self.startQuestion(rig)
        try page.waitFor(Self.question, timeout: Patience.generous, "the question")
        let welcomes = page.webSocketFrames.filter { !$0.sent && $0.text.contains("\"welcome\"") }.count

        proxy.cut()
        try page.waitUntil("a second welcome", timeout: Patience.generous) {
            page.webSocketFrames.filter { !$0.sent && $0.text.contains("\"welcome\"") }.count > welcomes
        }
        _ = try bob.waitForState(Lobby.self) { lobby in lobby.players.contains { $0.name == "Ann" && $0.connected } }
        try Self.expectInPlace(page, rig)
        try page.tap(selector: "button.buzz")
        #expect(try bob.waitFor("buzzed")["order"] == ["Red"])
        rig.expectClean(page, origin: origin)
    }
}
