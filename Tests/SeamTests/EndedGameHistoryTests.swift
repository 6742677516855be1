import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// Games the organiser stopped with `end` (issue #27): one stopped before anything was played is no 0-point game
/// in `history`; one stopped after play is kept and says it was ended.
@Suite("Ended games in history")
struct EndedGameHistoryTests {
    @Test func aGameEndedAtOnceIsNotKeptAndOneEndedAfterPlaySaysSo() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start shaky 3 easy")
        host.advance(by: 2_000)
        host.console("end")
        #expect(host.core.room.game == nil)
        #expect(host.core.storage.history().isEmpty, "\(host.core.storage.history())")

        host.console("start shaky 3 easy")
        host.advance(by: 1_000)
        ann.send(["type": "buzz"])
        host.advance(by: 1_000)
        host.console("end")
        let history = host.core.storage.history()
        #expect(history.count == 1, "\(history)")
        #expect(history.first?.contains("(ended by the organiser)") == true, "\(history)")

        // A game played to its end says nothing of the kind.
        host.console("start fly 1 round-seconds=5")
        host.advance(by: 30_000)
        let all = host.core.storage.history()
        #expect(all.count == 2, "\(all)")
        #expect(all.last?.contains("ended by") == false, "\(all)")
    }

    /// A compound-words game in `history` names its exercise and ranks by progress, as its final standings do.
    @Test func aWordsGameInHistoryNamesItsExerciseAndShowsWhatItsRanksStandFor() throws {
        let (host, ann, _, _) = try WordsSeamTests.room()
        host.console("start words cards en 1")
        ann.connection.send(try #require(try WordsSeamTests.pick(host, "Red")))
        host.console("end")
        let line = try #require(host.core.storage.history().first)
        #expect(line.contains(" words cards  "), "\(line)")
        #expect(line.contains("#1 Red 1/22"), "\(line)")
    }
}
