import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// Right answers that count for reward characters beyond compound words, in-process: a right Shaky Words answer and
/// a right Odd One Out pick count for every connected player of the team who picked a character; a wrong one, a
/// player without a character and the other teams get nothing.
@Suite("Rewards: team answers count for the team's characters, in-process")
struct RewardsSeamTests {
    /// The `character` messages `connection` received since it was last drained.
    static func progress(_ connection: EmbeddedConnection) -> [JSONValue] {
        connection.drain().filter { $0["type"] == "character" }
    }

    @Test func aRightShakyAnswerCountsForEveryPlayerOfTheTeamWithACharacter() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let cy = try host.player("Cy", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        ann.send(["type": "character", "character": "fox"])
        bob.send(["type": "character", "character": "owl"])
        #expect(Self.progress(ann).first?["picked"] == true)
        _ = Self.progress(bob)
        host.console("start shaky 1 easy")
        let game = try #require(host.core.room.game as? ShakyHost)
        let answer = try #require(game.record.questions.first?.answer)
        cy.send(["type": "buzz"])
        cy.send(["type": "answer", "text": .string(answer)])
        let counted = Self.progress(ann)
        #expect(counted.count == 1, "Ann counts her teammate's right answer: \(counted)")
        #expect(counted.first?["rightAnswers"] == 1 && counted.first?["character"] == "fox")
        #expect(Self.progress(cy).isEmpty, "Cy picked no character")
        #expect(Self.progress(bob).isEmpty, "Blue was not right")
        #expect(host.core.room.rewards.book.progress(of: "Bob").rightAnswers == 0)
    }

    @Test func aRightOddOneOutPickCountsAndAWrongOneDoesNot() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        ann.send(["type": "character", "character": "frog"])
        bob.send(["type": "character", "character": "robot"])
        _ = Self.progress(ann) + Self.progress(bob)
        host.console("start outsider 1 easy animals")
        let game = try #require(host.core.room.game as? OutsiderHost)
        let puzzle = try #require(game.record.puzzles.first?.puzzle)
        host.advance(by: 1_000)
        bob.send(["type": "pick", "word": .string(puzzle.outsider)])
        ann.send(["type": "pick", "word": .string(try #require(puzzle.words.first { $0 != puzzle.outsider }))])
        host.advance(by: 1_000)
        let seen = bob.drain()
        #expect(seen.contains { $0["type"] == "reveal" })
        let counted = seen.filter { $0["type"] == "character" }
        #expect(counted.map { $0["rightAnswers"] } == [1], "\(counted)")
        #expect(Self.progress(ann).isEmpty, "a wrong pick counts nothing")
        // The game's log says who counted what.
        host.console("end")
        let records = host.core.room.rewards.gameRecords
        #expect(records.isEmpty, "taken for the finished game's log")
        let logs = try FileManager.default.contentsOfDirectory(atPath: host.data.path + "/games")
        let log = try #require(logs.first { $0.hasSuffix("outsider.json") })
        let text = try String(contentsOfFile: host.data.path + "/games/" + log, encoding: .utf8)
        #expect(text.contains("\"rewards\"") && text.contains("\"robot\""), "\(text)")
    }
}
