import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// What issue #27 asks of small terminals: the hunt's code lock read whole with its countdown, the dice board's
/// team list kept at 60×20.
@Suite("Text mode and small terminals (issue #27)")
struct SmallScreenTests {
    /// Takes in what arrived for `watcher` and returns the last `error` among it.
    static func lastError(_ watcher: inout Watcher) -> JSONValue? {
        var last: JSONValue?
        for (message, at) in watcher.connection.drainTimed() {
            _ = watcher.state.apply(message, at: at)
            if message["type"] == "error" { last = message }
        }
        return last
    }

    /// The hunt's lock after 5 wrong codes: the `error` says when it ends, and the screen counts it down at 80 and at
    /// 60 columns with the whole refusal readable.
    @Test func theHuntsCodeLockCountsDownOnTheScreen() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        host.console("start hunt demo")
        for attempt in 1...5 {
            ann.connection.send(["type": "checkin", "code": "WRNG", "id": .number(attempt)])
        }
        let locked = try #require(Self.lastError(&ann))
        #expect(locked["code"] == "code_locked")
        #expect(locked["remainingMs"] == 30_000)
        #expect(locked["deadline"]?.intValue == host.now + 30_000)
        host.advance(by: 3_000)
        for (width, height) in [(80, 24), (60, 20)] {
            var shown = ann.state
            shown.recent = []
            let screen = render(shown, width: width, height: height, now: host.now, options: .plainText)
            let text = screen.joined(separator: "\n")
            #expect(
                text.contains("Check-ins are locked: \(ScreenText.clock(27_000)) left."), "\(width)×\(height):\n\(text)"
            )
            // The refusal itself is never cut: every word of it is on the screen.
            let words = locked["message"]?.stringValue?.split(separator: " ") ?? []
            let shownWords = Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" }))
            #expect(words.allSatisfy { shownWords.contains($0) }, "\(width)×\(height):\n\(text)")
        }
        // A later refusal while locked says the same deadline.
        ann.connection.send(["type": "checkin", "code": "WRNG", "id": 6])
        let again = try #require(Self.lastError(&ann))
        #expect(again["code"] == "code_locked" && again["remainingMs"] == 27_000)
        // Once the lock is over the screen says how to check in again.
        host.advance(by: 28_000)
        ann.update()
        let after = ann.screen(width: 60, height: 20).joined(separator: "\n")
        #expect(!after.contains("locked"), "\(after)")
        #expect(after.contains("type the code posted there"), "\(after)")
        // A wrong code that does not lock carries no deadline.
        ann.connection.send(["type": "checkin", "code": "WRNG", "id": 7])
        let wrong = try #require(Self.lastError(&ann))
        #expect(wrong["code"] == "wrong_code" && wrong["deadline"] == nil && wrong["remainingMs"] == nil)
    }

    /// Compound words at 60×20 with four teams: whatever the player's own part shows (a word in big letters, a
    /// right compound, a fork), the team list stays on the screen with every team.
    @Test(arguments: ["cards en 1", "bingo en 1", "board garden"])
    func theTeamListStaysOnASixtyByTwentyScreen(exercise: String) throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let others = try ["Blue", "Green", "Gold"].map { try host.player("P" + $0, team: $0) }
        host.console("start words \(exercise)")
        var checked = 0
        for _ in 0..<40 {
            guard host.core.room.game != nil else { break }
            ann.update()
            let screen = ann.screen(width: 60, height: 20)
            let text = screen.joined(separator: "\n")
            let teamsRow = try #require(
                screen.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Teams") },
                "no team list at 60×20 (\(exercise)):\n\(text)")
            // The list: a row a team (`  Red ███░ 3/16`), or on a short screen `Teams: Red 3/16 ◀ you · Blue 2/16`.
            let list = screen[teamsRow...].joined(separator: "\n")
            for team in ["Red", "Blue", "Green", "Gold"] {
                #expect(
                    list.range(of: "\\b\(team)\\b", options: .regularExpression) != nil,
                    "\(team) is cut off the team list at 60×20 (\(exercise)):\n\(text)")
            }
            // The player's own cards stay too (bingo's options are on its card's cells).
            if let hand = try WordsSeamTests.game(host).game.team(named: "Red")?.hand, hand.cells == nil,
                let card = hand.cards.compactMap({ $0 }).last
            {
                #expect(text.contains(" \(hand.cards.lastIndex(of: card)! + 1) \(card)"), "\(text)")
            }
            checked += 1
            host.advance(by: 3_500)  // past any lockout
            let game = try WordsSeamTests.game(host).game
            switch game.team(named: "Red")?.step ?? .answering {
            case .rolling: ann.connection.send(["type": "roll"])
            case .choosing(_, _, let choices): ann.connection.send(["type": "move", "tile": .int(Int64(choices[0]))])
            case .answering:
                // Now and then a wrong card first, so a lockout and a wrong answer are drawn too.
                let wrong = checked % 3 == 1 ? try WordsSeamTests.pick(host, "Red", correct: false) : nil
                guard let pick = try wrong ?? WordsSeamTests.pick(host, "Red") else { break }
                ann.connection.send(pick)
            }
            _ = others.map { $0.drain() }
        }
        #expect(checked >= 10)
    }

    /// A hunt whose clock runs out says "Time's up!" (text and screen), and the final times name their penalties.
    @Test func aHuntThatRunsOutOfTimeSaysTimesUpAndNamesThePenalties() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let nc = host.connect()
        nc.send(line: "join ROOM Cid Blue")
        host.console("start hunt demo fixed 1")
        let live = try #require(host.core.room.game as? HuntHost)
        let station = live.game.hunt.stations[0]
        ann.connection.send(["type": "checkin", "code": .string(station.code)])
        guard case .puzzle(let puzzle) = station.task else {
            Issue.record("the demo's first station is a puzzle")
            return
        }
        let wrong = try #require(puzzle.words.first { $0 != puzzle.outsider })
        ann.connection.send(["type": "answer", "text": .string(wrong)])
        ann.connection.send(["type": "answer", "text": .string(puzzle.outsider)])
        _ = nc.text()
        host.advance(by: 61_000)
        #expect(host.core.room.game == nil)
        let over = nc.text()
        #expect(over.contains("=== Time's up! Hunt over: "), "\(over)")
        ann.update()
        let screen = ann.screen(width: 60, height: 20).joined(separator: "\n")
        #expect(screen.contains("TIME'S UP! HUNT OVER"), "\(screen)")
        #expect(screen.contains("(+0:30 penalties)"), "\(screen)")
    }

    /// A compound-words pick refused during the think pause ("Think first: … in 3 s") is not shown after the pause.
    @Test func theThinkFirstRefusalGoesWithTheLockout() throws {
        var (host, ann, _, _) = try WordsSeamTests.room()
        host.console("start words cards en 1")
        ann.connection.send(try #require(try WordsSeamTests.pick(host, "Red", correct: false)))
        ann.connection.send(try #require(try WordsSeamTests.pick(host, "Red")))
        let refusal = try #require(Self.lastError(&ann))
        #expect(refusal["code"] == "locked_out" && refusal["deadline"]?.intValue == host.now + 3_000)
        #expect(ann.state.visibleNotice(now: host.now)?.text.hasPrefix("Think first") == true)
        host.advance(by: 3_100)
        ann.update()
        #expect(ann.state.visibleNotice(now: host.now) == nil, "a stale 'Think first' after the pause")
    }

    /// `hunt list` (and every content listing) lines its columns up.
    @Test func contentListingsLineTheirColumnsUp() throws {
        let host = try EmbeddedHost()
        host.console(
            "hunt create Office party hunt | name=Kitchen | clue=Where the cold things sleep | words=dog, green, red, "
                + "blue | outsider=dog | link=colours")
        let rows = host.console("hunt list").joined(separator: "\n").split(separator: "\n").dropFirst()
        #expect(rows.count == 2)
        let names = rows.compactMap { row in
            ["The party hunt", "Office party hunt"].compactMap { row.range(of: $0) }.first
        }
        let columns = Set(zip(rows, names).map { row, name in row.distance(from: row.startIndex, to: name.lowerBound) })
        #expect(names.count == 2 && columns.count == 1, "\(rows.joined(separator: "\n"))")
    }
}
