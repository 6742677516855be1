import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Every kind of operator the host has, watching one game: a JSON connection (its `feed` lines), the `--operator`
/// client (its list of recent events), a text-mode operator (`admin ROOM KEY` on nc) and the host's console.
struct Operators {
    let host: EmbeddedHost
    let json: EmbeddedConnection
    var client: Watcher
    let text: EmbeddedConnection

    /// The operators of `host`, joined now.
    init(_ host: EmbeddedHost, catalog: ScreenCatalog = .standard) throws {
        self.host = host
        json = try host.watcher(.admin)
        client = Watcher(try host.watcher(.admin), role: .admin, catalog: catalog)
        text = host.connect()
        text.send(line: "admin ROOM secret-key")
    }

    /// Forgets what every operator was shown so far.
    mutating func forget() {
        _ = json.drain()
        client.update()
        client.state.recent = []
        _ = text.text()
        host.consoleLines = []
    }

    /// Checks that each operator was shown `marker` in exactly one line since `forget`, and that the JSON operator
    /// got it in exactly one `feed` line.
    mutating func expectOnce(_ marker: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let feed = json.drain().compactMap { $0["type"] == "feed" ? $0["text"]?.stringValue : nil }
        client.update()
        let textLines = text.text().split(separator: "\n").map(String.init)
        let shown: [(String, [String])] = [
            ("the JSON operator's feed", feed), ("the operator client's recent events", client.state.recent),
            ("the text-mode operator", textLines), ("the console", host.consoleLines),
        ]
        for (who, lines) in shown {
            let matching = lines.filter { $0.contains(marker) }
            #expect(matching.count == 1, "\(who) shows \"\(marker)\" once: \(lines)", sourceLocation: sourceLocation)
        }
    }
}

/// A mode announces its news in one line (`Outgoing.announcement`); the room derives the operators' feed line from
/// it, so that the console, the operator client, a text-mode operator and a JSON operator's feed each show every
/// reveal exactly once.
@Suite("Announcements reach each operator once")
struct AnnouncementTests {
    @Test func theToyModesFlipIsInTheFeedThoughItWritesNoFeedLine() throws {
        let host = try EmbeddedHost(catalog: .withCoinToss)
        let ann = try host.player("Ann", team: "Red")
        var operators = try Operators(host, catalog: .withCoinToss)
        host.console("start coin 2")
        operators.forget()
        ann.send(["type": "call", "side": "heads"])
        operators.expectOnce("It is ")
        host.advance(by: 10_000)
        operators.expectOnce("Final: Red")
    }

    @Test func shakyWordsReveal() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        var operators = try Operators(host)
        host.console("start shaky 1 easy")
        let answer = try #require((host.core.room.game as? ShakyHost)?.game.currentAnswer)
        ann.send(["type": "buzz"])
        operators.forget()
        ann.send(["type": "answer", "text": .string(answer)])
        operators.expectOnce("Scores: ")
    }

    @Test func oddOneOutsReveal() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        var operators = try Operators(host)
        host.console("start outsider 1 easy animals reveal-seconds=0")
        let puzzle = try #require((host.core.room.game as? OutsiderHost)?.record.puzzles.first?.puzzle)
        operators.forget()
        ann.send(["type": "pick", "word": .string(puzzle.outsider)])
        host.advance(by: 200)  // the settle window
        operators.expectOnce("Scores: ")
    }

    @Test func theQueensReveal() throws {
        let host = try EmbeddedHost()
        var players: [String: EmbeddedConnection] = [:]
        for name in ["Ann", "Bob", "Cid", "Dee"] { players[name] = try host.player(name, team: name) }
        var operators = try Operators(host)
        host.console("start queen")
        let round = try #require((host.core.room.game as? QueenHost)?.game.currentRound)
        operators.forget()
        try #require(players[round.queen]).send(["type": "command", "text": "No. {1} hops on one leg"])
        operators.expectOnce("hops on one leg")
        host.advance(by: 6_000)
        operators.expectOnce("Reveal: ")
    }

    @Test func letMeFlysThrowAndRoundOver() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        var operators = try Operators(host)
        host.console("start fly 2 round-seconds=5 break-seconds=0")
        ann.send(["type": "phone", "choice": "flagship"])
        host.advance(by: 600)
        operators.forget()
        ann.send(["type": "throw"])
        operators.expectOnce("Ann threw the flagship")
        let thrown = try ann.expect("thrown")
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 3)
        ann.send(["type": "catch"])
        operators.forget()
        host.advance(by: 5_000)  // Bob never throws: time is up and the round is over
        operators.expectOnce("Round 1 is over.")
    }

    @Test func compoundWordsResults() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        var operators = try Operators(host)
        host.console("start words cards en 1")
        let word = try #require(WordsSeamTests.game(host).game.team(named: "Blue")?.hand?.word)
        let pick = try #require(try WordsSeamTests.pick(host, "Blue"))
        operators.forget()
        bob.send(pick)
        operators.expectOnce("\(word) + ")
    }

    @Test func theHuntsEnd() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        _ = try host.player("Ann", team: "Red")
        var operators = try Operators(host)
        #expect(host.console("start hunt office fixed 45").first == "Started Station hunt.")
        operators.forget()
        host.console("end")
        operators.expectOnce("over: ")
    }
}
