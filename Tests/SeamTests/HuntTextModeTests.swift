import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The station hunt at `nc` (issue #27).
@Suite("The station hunt in text mode")
struct HuntTextModeTests {
    @Test func theDemoHuntPlayedStaggeredNeverSaysItIsOverBeforeTheLastStation() throws {
        let host = try EmbeddedHost()
        let ann = host.connect()
        ann.send(line: "join ROOM Ann Red")
        let bea = host.connect()
        bea.send(line: "join ROOM Bea Blue")
        host.console("start hunt demo staggered")
        let live = try #require(host.core.room.game as? HuntHost)
        let route = try #require(live.game.state(of: "Blue")?.route)
        #expect(route.first != 0, "staggered: Blue does not start where Red does")
        _ = bea.text()
        for (number, index) in route.enumerated() {
            host.advance(by: 2_000)
            let station = live.game.hunt.stations[index]
            bea.send(line: "checkin \(station.code)")
            switch station.task {
            case .puzzle(let puzzle): bea.send(line: puzzle.outsider)
            case .question(_, let answer): bea.send(line: answer)
            }
            let text = bea.text()
            let solved = try #require(text.split(separator: "\n").first { $0.hasPrefix("✔ \(station.name) solved") })
            let isLast = number == route.count - 1
            #expect(solved.contains("You found every station!") == isLast, "\(solved)")
            for early in ["finished the hunt", "nearly there", "Keep going"] where isLast || early != "Keep going" {
                #expect(!solved.contains(early), "station \(number + 1) of \(route.count) says \"\(early)\": \(solved)")
            }
        }
    }

    @Test func aPuzzleWordAlreadyShownWrongIsRefusedWithoutAnotherPenalty() throws {
        let host = try EmbeddedHost()
        let ann = host.connect()
        ann.send(line: "join ROOM Ann Red")
        host.console("start hunt demo")
        let live = try #require(host.core.room.game as? HuntHost)
        let station = live.game.hunt.stations[0]
        guard case .puzzle(let puzzle) = station.task else {
            Issue.record("the demo's first station is a puzzle")
            return
        }
        ann.send(line: "checkin \(station.code)")
        let wrong = try #require(puzzle.words.first { $0 != puzzle.outsider })
        ann.send(line: wrong)
        let penalty = try #require(live.game.state(of: "Red")?.penaltiesMs)
        #expect(penalty > 0)
        _ = ann.text()
        ann.send(line: wrong.uppercased())
        let again = ann.text()
        #expect(again.contains("You already tried \"\(wrong)\""), "\(again)")
        #expect(live.game.state(of: "Red")?.penaltiesMs == penalty, "a word shown wrong cost its penalty twice")
        ann.send(line: puzzle.outsider)
        #expect(ann.text().contains("✔ \(station.name) solved"))
    }
}
