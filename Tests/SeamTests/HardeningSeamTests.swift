import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// In-process checks for the hardening of issue #29: refusals by role, guessing limits, ghost teams.
@Suite("Hardening (issue 29)")
struct HardeningSeamTests {
    /// The code and message of the next `error` that reached `connection`.
    private func error(_ connection: EmbeddedConnection) throws -> (code: String, message: String) {
        let reply = try connection.expect("error")
        return (reply["code"]?.stringValue ?? "", reply["message"]?.stringValue ?? "")
    }

    @Test func aPlayersJudgeIsForbiddenWhateverIsRunning() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        let judge: JSONObject = ["type": "judge", "id": 1, "team": "Red", "correct": true]
        ann.send(judge)
        #expect(try error(ann).code == "forbidden", "no game running yet")
        host.console("start fly 1")
        ann.send(judge)
        #expect(try error(ann).code == "forbidden", "another game than Shaky Words")
        host.console("end")
        host.console("start shaky 1")
        ann.send(judge)
        let refusal = try error(ann)
        #expect(refusal.code == "forbidden")
        #expect(refusal.message.contains("organiser"), "\(refusal.message)")
    }

    @Test func aStrangersWrongRejoinCodesNeverLockOutTheRealPlayerBehindTheSameAddress() throws {
        let host = try EmbeddedHost()
        let (tex, code) = try ComingBackTests.textPlayer(host, "Tex", team: "Green", from: "10.0.0.1")
        ComingBackTests.drop(host, tex)
        // A stranger on the same shared address (a school's NAT) guesses from several connections.
        var refused = 0
        var answered = 0
        for _ in 0..<4 {
            let stranger = host.connect(peer: "10.0.0.1")
            for guess in ["AAAAAAA", "CCCCCCC", "EEEEEEE", "FFFFFFF", "HHHHHHH", "KKKKKKK"] {
                stranger.send(line: "rejoin Tex \(guess)")
                let reply = stranger.text()
                if reply.contains("Too many rejoin attempts") { refused += 1 }
                if reply.contains("No player \"Tex\" has that code") { answered += 1 }
            }
        }
        // The first connection gets five tries; once the address guessed wrong five times, one a connection.
        #expect(answered == 5 + 1 + 1 + 1, "guesses answered: \(answered)")
        #expect(refused == 24 - answered)
        // The real player, on a connection of their own from the same address, comes straight back.
        let back = host.connect(peer: "10.0.0.1")
        back.send(line: "rejoin Tex \(code)")
        #expect(back.text().contains("Welcome, Tex!"))
    }

    @Test func boardHandsOffKeepsCompoundWordHandsFromBoardsButNotFromOperators() throws {
        for (option, boardsSee) in [("", true), (" board-hands=off", false)] {
            let host = try EmbeddedHost()
            let board = try host.watcher(.board)
            let admin = try host.watcher(.admin)
            let ann = try host.player("Ann", team: "Red")
            _ = board.drain()
            _ = admin.drain()
            #expect(host.console("start words cards" + option).joined().contains("bad_option") == false)
            #expect(host.core.room.game is WordsHost, "\(option) starts")
            let hands = { (connection: EmbeddedConnection) in connection.types().filter { $0 == "hand" }.count }
            #expect(hands(ann) == 1)
            #expect(hands(admin) == 1, "operators always see the hands\(option)")
            #expect((hands(board) > 0) == boardsSee, "boards\(option)")
            // A board joining late gets the same in its catch-up.
            let late = try host.watcher(.board)
            #expect(late.received.contains { $0["type"] == "hand" } == boardsSee, "late board\(option)")
            let lateAdmin = try host.watcher(.admin)
            #expect(lateAdmin.received.contains { $0["type"] == "hand" })
        }
    }
}
