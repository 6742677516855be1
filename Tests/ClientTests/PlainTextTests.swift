import Foundation
import Protocol
import Testing

@testable import Client

/// What the `--plain` client prints (issue #27).
@Suite("Plain mode's lines")
struct PlainTextTests {
    @Test func theQueensLibraryIsAShortListWithTheQueenNamedNotAWallOfPlaceholders() throws {
        let entries = (1...66).map { number in
            #"{"id":"b\#(number)","text":"No. {1} bows to Queen {queen} (\#(number)).","kind":"citizenToQueen","#
                + #""difficulty":"mild","builtin":true,"hidden":false}"#
        }
        let listing = #"{"type":"library","commands":["# + entries.joined(separator: ",") + "]}"
        let state = Fixtures.state(name: "Cid", [Fixtures.welcome, listing])
        let text = try #require(EventText.line(for: Fixtures.json(listing), in: state))
        let lines = text.split(separator: "\n")
        #expect(lines.count <= EventText.libraryLimit + 2, "\(lines.count) lines")
        #expect(lines.contains { $0.hasPrefix("  b1  No. {1} bows to the Queen (1).") })
        #expect(!text.contains("{queen}"))
        #expect(lines.last?.contains("54 more: type commands WORD") == true, "\(text)")
    }

    @Test func oneHostFoundIsOfferedNotChosenFromOneToOne() {
        #expect(!DiscoveryList.joinQuestion(hostCount: 1).contains("[1-1"))
        #expect(DiscoveryList.joinQuestion(hostCount: 1).hasPrefix("Join it?"))
        #expect(DiscoveryList.joinQuestion(hostCount: 3).contains("[1-3, Enter = 1"))
    }

    @Test func aBoardsRecentEventsStartAgainWithEachGame() {
        let welcome = #"{"type":"welcome","room":"ABCD","role":"board","hostTime":9000}"#
        let over = FlyRendererTests.scoreboard
        let state = Fixtures.state(
            role: .board,
            [
                welcome, Fixtures.lobby, FlyRendererTests.game, FlyRendererTests.phones, FlyRendererTests.round,
                FlyRendererTests.annThrown, over, FlyRendererTests.game,
            ])
        #expect(!state.recent.contains { $0.contains("Ann threw") }, "the last game's throws: \(state.recent)")
        #expect(state.recent.count == 1, "\(state.recent)")
    }

    @Test func swedishLettersAreDrawnInTheBigFontLikeTheOthers() {
        #expect(BigFont.canRender("Blåbär och smörgås"))
        let word = ScreenRenderer.lettersBlock("BLÅBÄR", fixedCount: 0, preferred: .big, width: 80)
        #expect(word.count == ScreenRenderer.lettersBlock("BLABAR", fixedCount: 0, preferred: .big, width: 80).count)
        #expect(word.count >= BigFont.height, "not the boxed fallback: \(word)")
    }
}
