import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The two game adapters driven in-process: who gets which message, what stays secret, what is journaled.
@Suite("Game adapters, in-process")
struct AdapterTests {
    @Test func shakyWordsRoutesLettersHintsAndTheAnswerNarrowly() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let board = try host.watcher(.board)
        let admin = try host.watcher(.admin)
        admin.send(["type": "start", "game": "shaky", "questions": 2, "difficulty": "easy", "id": "go"])
        // The operator's ok comes before the game's first broadcast.
        let adminTypes = admin.types()
        #expect(adminTypes.firstIndex(of: "ok") ?? 99 < adminTypes.firstIndex(of: "game") ?? -1)
        let game = try #require(host.core.room.game as? ShakyHost)
        let answer = try #require(game.record.questions.first?.answer)
        let redLetters = try ann.expect("question")["letters"]?.stringValue
        _ = try bob.expect("question")
        #expect(
            try board.expect("question")["letters"]?.stringValue == redLetters, "boards see the first team's letters")

        ann.send(["type": "shake"])
        let hint = try ann.expect("hint")
        #expect(hint["fixed"] == 1)
        #expect(!bob.types().contains("hint"), "a team's hint is its own")
        #expect(!board.types().contains("hint"))

        ann.send(["type": "buzz", "id": 1])
        #expect(try ann.expect("ok")["re"] == 1)
        #expect(try bob.expect("turn")["team"] == "Red")
        ann.send(["type": "answer", "text": "zzz"])
        #expect(try bob.expect("result")["correct"] == false)

        // Nobody saw the answer before the reveal.
        for connection in [ann, bob, board] {
            let before = connection.received.map(\.description).joined()
            #expect(!before.lowercased().contains(answer.lowercased()), "the answer leaked before the reveal")
        }
        host.advance(by: 20_000)
        #expect(try board.expect("reveal")["answer"]?.stringValue == answer)

        // The accepted events are journaled, in order, before anything is sent (the room journals each step first).
        host.core.storage.syncJournal()
        let journal = try String(contentsOfFile: host.core.storage.journalPath, encoding: .utf8)
        let shake = try #require(journal.range(of: "\"shake\""))
        let buzz = try #require(journal.range(of: "\"buzz\""))
        #expect(shake.lowerBound < buzz.lowerBound)
        #expect(journal.contains("\"answer\""))
    }

    @Test func shakyWordsRefusesWhatItShould() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let board = try host.watcher(.board)
        ann.send(["type": "buzz", "id": 1])
        #expect(try ann.expect("error")["code"] == "no_game")
        host.console("start shaky 1")
        board.send(["type": "buzz", "id": 2])
        #expect(try board.expect("error")["code"] == "forbidden")
        ann.send(["type": "command", "text": "No. {1} sings"])
        #expect(try ann.expect("error")["code"] == "wrong_game")
        ann.send(["type": "answer", "text": "x", "id": 3])
        let refusal = try ann.expect("error")
        #expect(refusal["code"] == "not_your_turn")
        #expect(refusal["re"] == 3)
        ann.send(["type": "buzz", "t": "soon", "id": 4])
        #expect(try ann.expect("error")["message"] == #""t" must be a whole number, not a string."#)
        #expect(host.console("next").first == "Moving on.")
        #expect(host.console("pause").first?.hasPrefix("Paused: every clock stands still") == true)
        #expect(host.console("pause") == ["! The game is already paused."])
        #expect(host.console("continue").first == "Continuing: the clocks run again.")
    }

    @Test func theQueensSecretsGoToTheirOwnersAlone() throws {
        let host = try EmbeddedHost()
        var players: [String: EmbeddedConnection] = [:]
        for name in ["Ann", "Bob", "Cid", "Dee"] { players[name] = try host.player(name, team: name) }
        let board = try host.watcher(.board)
        host.console("start queen")
        let game = try #require(host.core.room.game as? QueenHost)
        let round = try #require(game.game.currentRound)
        for (name, connection) in players {
            let secrets = connection.drain().filter { $0["type"] == "secret" }
            if name == round.queen {
                #expect(secrets.isEmpty, "the Queen holds no number")
            } else {
                #expect(secrets.count == 1)
                #expect(
                    secrets.first?["number"]?.intValue.map(Int.init) == round.numbers[name], "\(name) got their own")
            }
        }
        #expect(!board.types().contains("secret"))

        // A citizen may not save to the library; the Queen may, and her words become the order.
        let citizen = try #require(players.first { $0.key != round.queen }?.value)
        citizen.send(["type": "library", "action": "add", "text": "No. {1} hops", "id": 5])
        #expect(try citizen.expect("error")["code"] == "forbidden")
        let queen = try #require(players[round.queen])
        queen.send(["type": "command", "text": "No. {1} hops on one leg", "save": true, "id": 6])
        let reply = queen.types()
        #expect(reply.prefix(2) == ["notice", "ok"], "the save notice, then the ok, then the broadcasts: \(reply)")
        #expect(try board.expect("order")["text"]?.stringValue?.hasSuffix("hops on one leg") == true)
        #expect(host.core.storage.commands.commands(matching: "hops on one leg").count == 1)

        host.advance(by: 6_000)
        let revealed = try board.expect("revealed")
        let check = DealCommitment.verify(
            commitment: revealed["commitment"]?.stringValue ?? "", room: "ROOM", round: round.number,
            saltHex: revealed["salt"]?.stringValue ?? "", numbers: round.numbers)
        #expect(check, "the reveal opens the commitment")
    }

    @Test func textModePlaysTheRunningGamesCommands() throws {
        let host = try EmbeddedHost()
        let tex = host.connect()
        tex.send(line: "join ROOM Tex Green")
        #expect(tex.text().contains("Welcome, Tex"))
        tex.send(line: "b")
        #expect(tex.text().contains("No game is running yet"))
        host.console("start shaky 1")
        #expect(tex.text().contains("Question 1/1"))
        tex.send(line: "pick b01")
        #expect(tex.text().contains("That is a command of The Queen's game, but this is Shaky Words."))
        tex.send(line: "b")
        #expect(tex.text().contains("Your turn, team Green"))
        #expect(!tex.textLines.contains { $0.hasPrefix("{") }, "text mode never gets JSON")
    }
}
