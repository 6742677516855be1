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

    /// Let Me Fly across an outage (issue #27): a phone in the air hangs there while the host is unreachable, and the
    /// catch-up that brings it back says it is still up and when it comes down.
    @Test func aPhoneInTheAirHangsThereDuringAnOutageAndIsSaidToBeBack() throws {
        // Ann's phone: up at host 9 800, down at host 13 877 (the client runs 1 000 ms ahead of the host).
        var state = FlyRendererTests.state([FlyRendererTests.annThrown])
        state.lostHost(at: 11_000, attempt: 1, nextAttemptAt: 11_500)
        #expect(FlyView.hostNow(state, 16_000) == 10_000, "the screen's clock stands still while the host is away")
        // Back (the host resumed where its clock stood): the catch-up brings the same throw again.
        let welcome =
            #"{"type":"welcome","room":"ABCD","role":"player","hostTime":10500,"name":"Ann","team":"Red","game":"fly"}"#
        for message in [welcome, FlyRendererTests.game, FlyRendererTests.round, FlyRendererTests.annThrown] {
            _ = state.apply(Fixtures.json(message), at: 16_000)
        }
        let notice = try #require(state.visibleNotice(now: 16_000)?.text)
        #expect(notice.contains("still in the air") && notice.contains("catch it"), "\(notice)")
    }
}
