import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The dice board at `nc` (issue #27): every move of a team ends on that team's own prompt, other teams' moves
/// reach a player as one short progress line, and the catch-up after `rejoin` ends on where the team stands and
/// what it does now.
@Suite("The dice board in text mode")
struct WordsTextModeTests {
    /// The line a text player types for `team`'s step now: a right card, `r`, or the first way at a fork.
    static func move(_ host: EmbeddedHost, _ team: String) throws -> String {
        let game = try WordsSeamTests.game(host).game
        switch try #require(game.team(named: team)?.step) {
        case .rolling: return "r"
        case .choosing(_, _, let choices): return "go \(choices[0])"
        case .answering:
            return "\(try #require(try WordsSeamTests.pick(host, team)?["choice"]?.intValue))"
        }
    }

    /// The last non-empty line of `text`.
    static func last(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func everyMoveEndsOnTheTeamsPromptOthersAreOneLineAndTheCatchUpSaysWhatToDo() throws {
        let host = try EmbeddedHost()
        let cleo = host.connect()
        cleo.send(line: "join ROOM Cleo Green")
        let welcome = cleo.text()
        let code = try #require(
            welcome.split(separator: "\n").first { $0.hasPrefix("Your rejoin code: ") }?
                .dropFirst("Your rejoin code: ".count).prefix { $0 != " " })
        let dan = host.connect()
        dan.send(line: "join ROOM Dan Blue")
        host.console("start words board garden")
        _ = cleo.text()
        _ = dan.text()

        var sawDoneTile = false
        for _ in 0..<60 {
            guard host.core.room.game != nil else { break }
            host.advance(by: 1_000)  // people type at most a line or two a second
            // Green moves: Cleo's transcript ends on Green's own prompt.
            let before = try #require(try WordsSeamTests.game(host).game.team(named: "Green")?.doneTiles)
            cleo.send(line: try Self.move(host, "Green"))
            let green = cleo.text()
            guard host.core.room.game != nil else { break }
            #expect(Self.last(green).hasPrefix(">>> "), "Green's move did not end on a prompt:\n\(green)")
            let team = try #require(try WordsSeamTests.game(host).game.team(named: "Green"))
            if team.step == .rolling, team.doneTiles == before, let token = team.token {
                sawDoneTile = true  // the walk ended on a tile already done: roll again
                #expect(Self.last(green).hasPrefix(">>> Your turn: roll the die — type r."), "\(green)")
                #expect(before.contains(token))
            }
            // Blue moves: Cleo reads at most one short line of it.
            dan.send(line: try Self.move(host, "Blue"))
            let blue = cleo.text().split(separator: "\n")
            #expect(blue.count <= 1 && blue.allSatisfy { $0.hasPrefix("· Blue: ") }, "\(blue)")
        }
        #expect(sawDoneTile, "no walk ended on a tile already done")

        // Cleo drops and comes back: the catch-up ends on where Green stands and what to do.
        cleo.drop()
        let back = host.connect()
        back.send(line: "rejoin Cleo \(code)")
        // (The room's own lobby line may follow the game's catch-up: issue #27's polish, not the game's.)
        let catchUp = back.text().split(separator: "\n").filter { !$0.hasPrefix("Lobby: ") }.joined(separator: "\n")
        #expect(Self.last(catchUp).hasPrefix(">>> Your turn: "), "\(catchUp)")
        #expect(Self.last(catchUp).contains("tiles done"))
        let blueLines = catchUp.split(separator: "\n").filter { $0.contains("Blue") }
        #expect(blueLines.count <= 2, "the catch-up retells Blue's moves:\n\(blueLines.joined(separator: "\n"))")
        #expect(!catchUp.contains("finished tile"), "the catch-up retells every done tile:\n\(catchUp)")
    }
}

/// The dice board on a small terminal (issue #27): the fork's ways are never cut off at 60 columns.
@Suite("The dice board on a small terminal")
struct WordsSmallScreenTests {
    @Test func theForkPromptKeepsEveryWayAtSixtyColumns() throws {
        var (host, ann, _, _) = try WordsSeamTests.room()
        host.console("start words board garden")
        for _ in 0..<60 {
            let team = try #require(try WordsSeamTests.game(host).game.team(named: "Red"))
            if case .choosing(_, _, let choices)? = team.step {
                ann.update()
                let screen = ann.screen(width: 60, height: 20)
                let board = try #require(try WordsSeamTests.game(host).game.board)
                for (number, choice) in choices.enumerated() {
                    let word = try #require(board.tile(choice)?.word)
                    #expect(
                        screen.contains { $0.contains("\(number + 1) → \(word)") },
                        "the way to \(word) is cut off:\n\(screen.joined(separator: "\n"))")
                }
                #expect(screen.allSatisfy { ScreenText.width(of: $0) <= 60 })
                return
            }
            switch team.step {
            case .rolling?: ann.connection.send(["type": "roll"])
            default: ann.connection.send(try #require(try WordsSeamTests.pick(host, "Red")))
            }
        }
        Issue.record("sixty moves on the garden board met no fork")
    }
}
