import Protocol
import Rules
import Testing

@testable import Host

/// A team's paid hints are its own: whoever joins mid-question sees the letters as dealt, never another team's.
@Suite("Catch-up honours secrecy, in-process")
struct SecrecyTests {
    @Test func aBoardAndAPlayerOfAnotherTeamJoiningMidQuestionSeeTheUnhintedLetters() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        host.console("start shaky 3 easy")
        let dealt = try ann.expect("question")
        let blueDealt = try bob.expect("question")
        host.advance(by: 1_000)
        ann.send(["type": "shake"])
        ann.send(["type": "shake"])
        let hint = try ann.expect("hint")
        #expect(hint["fixed"] == 2 || hint["fixed"] == 1)
        let hinted = try #require(host.core.room.game as? ShakyHost).game.letters(for: "Red")
        #expect((hinted?.fixedCount ?? 0) > 0, "Red paid for hints")

        // A board that joins now: the first team's letters as they were dealt, no hint.
        let board = try host.watcher(.board)
        let boardQuestion = try board.expect("question")
        #expect(boardQuestion["fixed"] == 0)
        #expect(boardQuestion["letters"] == dealt["letters"], "the board sees Red's letters as dealt")
        #expect(boardQuestion["letters"]?.stringValue != hinted?.text, "the board sees no paid hint")
        #expect(!board.types().contains("hint"))

        // A new player of the other team: its own team's letters, no hint either.
        let cy = try host.player("Cy", team: "Blue")
        let cyQuestion = try cy.expect("question")
        #expect(cyQuestion["fixed"] == 0)
        #expect(cyQuestion["letters"] == blueDealt["letters"])
        #expect(cyQuestion["letters"]?.stringValue != hinted?.text)

        // An operator joining sees no hint; Red's own new member does.
        let admin = try host.watcher(.admin)
        #expect(try admin.expect("question")["fixed"] == 0)
        let dee = try host.player("Dee", team: "Red")
        #expect(try dee.expect("question")["fixed"]?.intValue == Int64(hinted?.fixedCount ?? -1))
    }
}
