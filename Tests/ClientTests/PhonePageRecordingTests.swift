import Foundation
import Protocol
import TestSupport
import Testing

/// A word list with recordings imported at the host's console: after a right card the phone page plays the
/// compound's recording, fetched from the host at the address the `result` names (issue 26).
@Suite(
    "Recorded compounds on the phone page", .timeLimit(.minutes(5)),
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"))
struct PhonePageRecordingTests {
    @Test func aRightCardPlaysTheCompoundsRecordingFromTheHost() throws {
        let folder = NSTemporaryDirectory() + "partyline-recordings-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/tradgard.audio", withIntermediateDirectories: true)
        try Data("# name: Trädgård\n# language: sv\n# level 1\nsol: ros* stol sked gris\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/tradgard.txt"))
        let ogg = Data("OggS".utf8 + [0, 2] + [UInt8](repeating: 7, count: 58))
        try ogg.write(to: URL(fileURLWithPath: folder + "/tradgard.audio/solros.ogg"))
        let host = try HostProcess(["--rate", "10000"])
        host.console("words import \(folder)/tradgard.txt")

        let page = try #require(try Browser.shared()).newPage()
        defer { page.close() }
        try page.navigate("http://127.0.0.1:\(host.port)/\(host.room)")
        _ = try page.waitFor(
            "fetch('/audio/tradgard/solros.ogg').then((r) => r.status === 200)", timeout: Patience.generous,
            "the imported recording served")
        try page.type("Ann", into: "#name")
        try page.type("Red", into: "#team")
        _ = try page.tap(selector: "button", containing: "Join")
        _ = try page.waitFor("!document.querySelector('[data-screen=lobby]').hidden", timeout: 15, "the lobby")
        let admin = try host.admin()
        try admin.send(["type": "start", "game": "words", "exercise": "cards", "list": "tradgard", "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }

        let fetches = { page.requests.filter { $0.hasSuffix("/audio/tradgard/solros.ogg") }.count }
        let fetchedBefore = fetches()  // the check above fetched it once
        _ = try page.tap(selector: ".words button", containing: "ros", timeout: 15)
        let spoken = try page.waitFor(
            "(window.partylineSpoken || []).find((s) => s.via === 'audio')", timeout: 10, "the compound spoken")
        #expect(spoken["text"] == "solros" && spoken["url"] == "/audio/tradgard/solros.ogg", "\(page.report())")
        #expect(spoken["lang"] == "sv-SE", "the list's language came with the game")
        try page.waitUntil("the page fetched the recording to play it") { fetches() > fetchedBefore }
        _ = try? page.screenshot(to: "recorded-compound.png")
    }
}
