import Common
import Foundation
import Protocol
import TestSupport
import Testing

/// Coming back on another phone with the short rejoin code, and Let Me Fly's kept phone after a reload.
@Suite(
    "The phone page: another phone, and a reload in Let Me Fly",
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"),
    .timeLimit(.minutes(10)))
struct PhonePageRejoinTests {
    /// Waits for the join form (with the code field when `code`) once its look into the room has drawn the teams,
    /// so the layout no longer moves under a tap.
    static func waitForSettledForm(_ page: BrowserPage, code: Bool = false) throws {
        try page.waitFor(
            "document.getElementById('\(code ? "code" : "name")') && "
                + "document.querySelector('[data-screen=\"join\"] .chips')?.childElementCount > 0",
            timeout: Patience.generous, code ? "the code field" : "the join form")
    }

    @Test func aSecondPhoneComesBackWithTheRejoinCodeInPlaceWithItsPoints() throws {
        let rig = try PhoneRig()
        let bob = try PhonePageSessionTests.shakyRoom(rig)
        let first = try rig.phone()
        try rig.join(first, name: "Ann", team: "Red")
        try PhonePageSessionTests.startQuestion(rig)
        try first.waitFor(PhonePageSessionTests.question, timeout: Patience.generous, "the question")
        try first.tap(selector: "button.buzz")
        try first.waitFor("!document.getElementById('answer').closest('form').hidden", timeout: Patience.generous)
        try first.type("Rome", into: "#answer")
        try first.tap(selector: "button[type=submit]", containing: "Send answer")
        let final = try bob.waitFor("scoreboard") { $0["final"] == true }
        let red = try #require(final["ranking"]?.arrayValue?.first { $0["team"] == "Red" })
        let points = try #require(red["score"]?.intValue)
        #expect(points > 0, "\(final)")
        let code = try #require(
            try first.evaluate("JSON.parse(localStorage.getItem('pl:seat:\(rig.host.room):ann')).code").stringValue)

        // Another phone (its own storage): the name alone is taken, so it asks for the code.
        let second = try rig.phone()
        try second.navigate(rig.roomURL)
        try Self.waitForSettledForm(second)
        try second.type("Ann", into: "#name")
        try second.tap(selector: "button[type=submit]", containing: "Join")
        try second.waitFor(PhoneRig.onScreen("refused"), timeout: Patience.generous, "the name is taken")
        try second.tap(selector: "button", containing: "I have my rejoin code")
        try Self.waitForSettledForm(second, code: true)
        try second.type("Ann", into: "#name")
        try second.type(code.lowercased(), into: "#code")
        try second.tap(selector: "button[type=submit]", containing: "Join")
        try second.waitFor(PhoneRig.onScreen("lobby"), timeout: Patience.generous, "the lobby on the second phone")
        #expect(second.webSocketFrames.contains { $0.sent && $0.text.contains("\"code\"") }, "joined by the code")
        #expect(try second.evaluate("document.getElementById('who').textContent") == .string("Ann · Red"))
        // In place: the same Ann of Red, connected, no second identity, her team's points in the final scores.
        try second.waitFor(
            "document.querySelector('.final')?.innerText.includes('\(points)')", timeout: Patience.generous,
            "the last game's final scores with Red's \(points) points")
        let players = try rig.players()
        #expect(players.count == 2 && players["Ann"]?.team == "Red" && players["Ann"]?.connected == true, "\(players)")
        // The first phone stopped, saying why.
        try first.waitFor(
            PhoneRig.shows("Playing on another screen"), timeout: Patience.generous, "the first phone replaced")
        try PhoneRig.screenshot(second, "rejoin-by-code")
        rig.expectClean(second)
    }

    @Test func aWrongRejoinCodeSaysSoAndLetsTheCodeBeTypedAgain() throws {
        let rig = try PhoneRig()
        _ = try PhonePageSessionTests.shakyRoom(rig)
        let first = try rig.phone()
        try rig.join(first, name: "Ann", team: "Red")
        let second = try rig.phone()
        try second.navigate(rig.roomURL)
        try Self.waitForSettledForm(second)
        try second.type("Ann", into: "#name")
        try second.tap(selector: "button[type=submit]", containing: "Join")
        try second.tap(selector: "button", containing: "I have my rejoin code", timeout: Patience.generous)
        try Self.waitForSettledForm(second, code: true)
        try second.type("Ann", into: "#name")
        try second.type("AAAAAAA", into: "#code")
        try second.tap(selector: "button[type=submit]", containing: "Join")
        try second.waitFor(
            "document.getElementById('code') && " + PhoneRig.shows("has that code"), timeout: Patience.generous,
            "the refusal over the code form")
        #expect(try rig.players().count == 2, "nobody new joined")
        rig.expectClean(second)
    }

    @Test func letMeFlyAfterAReloadInALaterRoundShowsTheKeptPhoneAndNoPicker() throws {
        let rig = try PhoneRig()
        let bob = try rig.host.join("Bob", team: "Blue")
        let page = try rig.phone()
        try rig.join(page, name: "Ann", team: "Red")
        try rig.start("fly", ["rounds": 2, "roundSeconds": 60, "breakSeconds": 1, "periodMs": 1600])
        let picker = "document.body.innerText.includes('Your phone (before your first throw)')"
        try page.waitFor(picker, timeout: Patience.generous, "the phone picker before the first throw")
        try rig.pickPhone(page, "Old brick")
        _ = try bob.waitFor("picked") { $0["player"] == "Ann" }
        // Round 1: Bob and Ann throw and catch.
        try bob.send(["type": "throw"])
        _ = try bob.waitFor("thrown") { $0["player"] == "Bob" }
        try bob.send(["type": "catch"])
        try page.waitFor("!document.querySelector('button.flybtn').disabled", timeout: Patience.generous, "THROW")
        try page.tap(selector: "button.flybtn")
        _ = try bob.waitFor("thrown") { $0["player"] == "Ann" }
        try page.waitFor(
            "!document.querySelector('button.flybtn').disabled && /In the air|Catch it now/.test(document.body.innerText)",
            timeout: Patience.generous, "the phone in the air")
        try page.tap(selector: "button.flybtn")
        _ = try bob.waitFor("caught") { $0["player"] == "Ann" }
        _ = try bob.waitFor("round") { $0["number"] == 2 }

        try page.reload()
        try page.waitFor(
            PhoneRig.onScreen("game") + " && " + PhoneRig.shows("Round 2 of 2"), timeout: Patience.generous,
            "round 2 after the reload")
        try page.waitFor(PhoneRig.shows("Your phone: Old brick"), timeout: Patience.generous, "the kept phone")
        #expect(try page.evaluate(picker) == false, "no picker once the phone is kept")
        try PhoneRig.screenshot(page, "fly-reload-kept-phone")
        rig.expectClean(page)
    }
}

extension PhoneRig {
    /// Taps the phone picker's button for the phone named `name`.
    func pickPhone(_ page: BrowserPage, _ name: String) throws {
        try page.tap(selector: ".fly .chips button", containing: name, timeout: Patience.generous)
    }
}
