import Foundation
import Protocol
import TestSupport
import Testing

/// The reward character on a phone (390×844, touch): picked in the lobby, grown by right cards in a card race
/// (the growth shown, the badge and the sheet at the new stage), and in the teacher's list.
@Suite(
    "The phone page: a reward character that grows", .timeLimit(.minutes(10)),
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"))
struct PhonePageRewardsTests {
    /// The stage the header badge draws (its picture's label, `Fox, stage 2`), or "" with no picture.
    static let badge = "document.querySelector('.rw-badge svg')?.getAttribute('aria-label') || ''"

    @Test func pickAFoxAnswerRightAndSeeItGrow() throws {
        let rig = try PhoneRig(["--rate", "10000"])
        let page = try rig.phone()
        try rig.join(page, name: "Ann", team: "Red")

        // The lobby offers the characters; the fox is picked by touch.
        try page.waitFor(
            "document.querySelectorAll('.rw-card .rw-choices button').length === 5", timeout: Patience.generous,
            "the characters to pick in the lobby")
        try PhoneRig.screenshot(page, "rewards-pick")
        try PhoneRig.tapExactly(page, ".rw-card .rw-choices button", "Fox")
        try page.waitFor(PhoneRig.shows("Your Fox"), timeout: Patience.generous, "the picked fox in the lobby")
        #expect(try page.evaluate(Self.badge) == "Fox, stage 1")
        #expect(try page.evaluate(PhoneRig.shows("3 more right answers to grow.")) == true)
        try PhoneRig.screenshot(page, "rewards-picked")

        // A card race: three right cards by touch, and the fox grows.
        try rig.start("words", ["exercise": "cards", "list": "en", "lockoutSeconds": 0])
        var right = 0
        var sawGrowth = false
        let deadline = Date().addingTimeInterval(Patience.generous * 4)
        while right < 3, Date() < deadline {
            let state = try page.waitFor(PhonePageModeTests.wordsState, timeout: Patience.generous, "the words view")
            let word = state["word"]?.stringValue ?? ""
            let cards = state["cards"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard !word.isEmpty, let card = cards.first(where: { PhonePageModeTests.isCorrect($0, for: word) }) else {
                _ = try? page.waitFor("false", timeout: 0.2)
                continue
            }
            try PhoneRig.tapExactly(page, ".words .words4 button", card)
            right += 1
            let changed =
                "(() => { const s = \(PhonePageModeTests.wordsState); return !!document.querySelector('.rw-grow') "
                + "|| (s && s.word !== \(PhoneRig.literal(word))); })()"
            _ = try page.waitFor(changed, timeout: Patience.generous, "the next word after \(word)")
        }
        #expect(right == 3)
        // The growth: the little fox gives way to the one with a scarf (shot once its animation has played).
        let grown =
            "(() => { const g = document.querySelector('.rw-grow'); return !!g && g.getAnimations({ subtree: true })"
            + ".every((a) => a.playState === 'finished') && !!g.querySelector('svg[aria-label=\"Fox, stage 2\"]'); })()"
        if (try? page.waitFor(grown, timeout: Patience.generous, "the growth")) != nil {
            sawGrowth = true
            try PhoneRig.screenshot(page, "rewards-grow")
        }
        #expect(sawGrowth, "the fox's growth is shown")
        try page.waitFor("\(Self.badge) === 'Fox, stage 2'", timeout: Patience.generous, "the badge at stage 2")
        try page.waitFor("!document.querySelector('.rw-grow')", timeout: Patience.generous, "the growth over")

        // The badge opens the character anywhere, during the game too.
        _ = try page.tap(selector: ".rw-badge")
        try page.waitFor(
            "(() => { const s = document.querySelector('.rw-sheet'); return !s.hidden && s.innerText.includes("
                + "'Stage 2 of 4 — a scarf') && s.innerText.includes('7 more right answers'); })()",
            timeout: Patience.generous, "the sheet with the grown fox")
        #expect(try page.evaluate("!!document.querySelector('.rw-sheet svg[aria-label=\"Fox, stage 2\"]')") == true)
        #expect(try page.evaluate(PhoneRig.shows("Pick another")) == false, "a grown fox stays")
        try PhoneRig.screenshot(page, "rewards-sheet")
        _ = try page.tap(selector: ".rw-sheet button", containing: "Close")
        try page.waitFor("document.querySelector('.rw-sheet').hidden", "the sheet closed")

        // The teacher's list has it.
        try rig.admin.send(["type": "rewards", "action": "list", "id": 77])
        let listed = try rig.admin.waitFor("content") { $0["re"] == 77 }
        let first = listed["lines"]?.arrayValue?.first?.stringValue ?? ""
        #expect(first.hasPrefix("Ann: fox, stage 2 of 4, 3 right answers"), "\(listed)")
        rig.expectClean(page)
    }
}
