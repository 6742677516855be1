import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// Nobody is locked out: a goodbye frees the name, a dropped player comes back by address or by a short code, and
/// on turn a text-mode line is the answer. In-process, with the host's clock moved by hand.
@Suite("Coming back, and typed lines on turn")
struct ComingBackTests {
    /// A player joined with JSON from `peer`.
    static func join(_ host: EmbeddedHost, _ name: String, team: String, from peer: String) -> EmbeddedConnection {
        let connection = host.connect(peer: peer)
        connection.send(["type": "hello", "room": "ROOM", "name": .string(name), "team": .string(team)])
        return connection
    }

    /// A text-mode player joined from `peer`, with the rejoin code the welcome showed.
    static func textPlayer(_ host: EmbeddedHost, _ name: String, team: String, from peer: String) throws
        -> (EmbeddedConnection, String)
    {
        let connection = host.connect(peer: peer)
        connection.send(line: "join ROOM \(name) \(team)")
        let text = connection.text()
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Your rejoin code: ") })
        let code = try #require(line.split(separator: " ").dropFirst(3).first.map(String.init))
        return (connection, code)
    }

    /// Ends a connection from the peer's side.
    static func drop(_ host: EmbeddedHost, _ connection: EmbeddedConnection) {
        host.core.closed(connection.id, reason: "the peer went away")
        host.turn()
    }

    @Test func aGoodbyeFreesTheNameAtOnceAndTheTeamKeepsItsPoints() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        host.console("start shaky 2 easy")
        let game = try #require(host.core.room.game as? ShakyHost)
        let answer = try #require(game.record.questions.first?.answer)
        ann.send(["type": "buzz"])
        ann.send(["type": "answer", "text": .string(answer)])
        let points = game.game.scores["Red"] ?? 0
        #expect(points > 0)

        ann.send(["type": "bye"])
        #expect(ann.isClosed)
        #expect(host.core.room.room.player(named: "Ann") == nil, "the name is free at once")
        let lobby = try #require(bob.drain().last { $0["type"] == "lobby" })
        #expect(lobby["players"]?.arrayValue?.contains { $0["name"] == "Ann" } == false)

        let again = ComingBackTests.join(host, "Ann", team: "red", from: "10.0.0.9")
        #expect(try again.expect("welcome")["team"] == "Red")
        #expect(game.game.scores["Red"] == points, "the team kept its points")
        again.send(["type": "scores", "id": 1])
        let scores = try again.expect("scores")
        #expect(scores["ranking"]?.arrayValue?.first { $0["team"] == "Red" }?["score"]?.intValue == Int64(points))
    }

    @Test func aDroppedPlayerTakesTheirNameBackFromTheSameAddressOnly() throws {
        let host = try EmbeddedHost()
        let first = ComingBackTests.join(host, "Ann", team: "Red", from: "10.0.0.5")
        let id = try first.expect("welcome")["player"]
        ComingBackTests.drop(host, first)
        #expect(host.core.room.room.player(named: "Ann")?.isConnected == false)

        let stranger = ComingBackTests.join(host, "Ann", team: "Blue", from: "10.0.0.6")
        let refusal = try stranger.expect("error")
        #expect(refusal["code"] == "name_taken")
        #expect(refusal["message"]?.stringValue?.contains("rejoin Ann CODE") == true)
        let otherSpelling = ComingBackTests.join(host, "ann", team: "Red", from: "10.0.0.5")
        #expect(try otherSpelling.expect("error")["code"] == "name_taken")

        let back = ComingBackTests.join(host, "Ann", team: "Blue", from: "10.0.0.5")
        let welcome = try back.expect("welcome")
        #expect(welcome["player"] == id)
        #expect(welcome["team"] == "Red", "the same player, team and all")
        #expect(host.core.room.room.players.count == 1)
    }

    @Test func theShortCodeBringsATextPlayerBackAndGuessingIsRateLimited() throws {
        let host = try EmbeddedHost()
        let (tex, code) = try ComingBackTests.textPlayer(host, "Tex", team: "Green", from: "10.0.0.1")
        #expect(code.count == 7)
        #expect(code.allSatisfy { Secrets.codeAlphabet.contains($0) })
        ComingBackTests.drop(host, tex)

        // A name-taken answer says how to come back (without the code).
        let other = host.connect(peer: "10.0.0.2")
        other.send(line: "join ROOM Tex Green")
        let taken = other.text()
        #expect(taken.contains("rejoin Tex CODE"))
        #expect(!taken.contains(code))

        // Wrong codes from one address: five tries a minute, then even the right one must wait.
        for guess in ["AAAAAAA", "CCCCCCC", "EEEEEEE", "FFFFFFF"] {
            other.send(line: "rejoin Tex \(guess)")
            #expect(other.text().contains("No player \"Tex\" has that code"))
        }
        other.send(line: "rejoin Nobody \(code)")
        #expect(other.text().contains("No player \"Nobody\" has that code"))
        other.send(line: "rejoin Tex \(code)")
        #expect(other.text().contains("Too many rejoin attempts"))
        host.advance(by: 61_000)
        other.send(line: "rejoin tex \(code.lowercased())")
        let back = other.text()
        #expect(back.contains("Welcome, Tex! You play for team Green."))
        #expect(back.contains("Your rejoin code: \(code)"))
        #expect(host.core.room.room.players.count == 1)
    }

    @Test func comingBackMidRoundRestoresTheQueensNumber() throws {
        let host = try EmbeddedHost()
        var codes: [String: String] = [:]
        var connections: [String: EmbeddedConnection] = [:]
        for (index, name) in ["Ann", "Bob", "Cy", "Dee"].enumerated() {
            let (connection, code) = try ComingBackTests.textPlayer(host, name, team: name, from: "10.0.1.\(index)")
            codes[name] = code
            connections[name] = connection
        }
        host.console("start queen")
        let game = try #require(host.core.room.game as? QueenHost)
        let round = try #require(game.game.currentRound)
        let citizen = try #require(round.numbers.keys.sorted().first)
        let number = try #require(round.numbers[citizen])
        #expect(connections[citizen]!.text().contains("Your secret number: \(number) <<<"))
        // `number` shows it again, to its owner alone.
        connections[citizen]!.send(line: "number")
        #expect(connections[citizen]!.text().contains("Your secret number: \(number) <<<"))
        for (name, connection) in connections where name != citizen {
            #expect(!connection.text().contains("Your secret number: \(number) <<<"))
        }
        // The choosing Queen's bare lines are her order: a command word is refused as an order naming nobody.
        let queen = connections[round.queen]!
        _ = queen.text()
        queen.send(line: "help")
        #expect(queen.text().contains("Your order names nobody"))
        queen.send(line: "No. 1 waves")
        #expect(game.game.currentOrder?.targets == [1])
        // Dropped and back with the code from elsewhere: the same number comes back.
        ComingBackTests.drop(host, connections[citizen]!)
        let back = host.connect(peer: "10.0.2.1")
        back.send(line: "rejoin \(citizen) \(codes[citizen]!)")
        #expect(back.text().contains("Your secret number: \(number) <<<"))
    }

    @Test func onTurnATypedLineIsTheAnswerAndCommandsTakeASlash() throws {
        let host = try EmbeddedHost()
        let admin = try host.watcher(.admin)
        let (tex, _) = try ComingBackTests.textPlayer(host, "Tex", team: "Red", from: "10.0.0.1")
        #expect(Sessions.banner.contains("commands then start with / (/help, /quit)"))
        host.console("start shaky 2 easy")
        _ = tex.text()
        tex.send(line: "pack")  // off turn: a command, refused as ever
        #expect(tex.text().contains("Only the operator can do that"))
        tex.send(line: "b")
        let turn = tex.text()
        #expect(turn.contains(">>> Your turn, team Red!"))
        #expect(turn.contains("commands start with / (/s shakes, /help, /quit)"))
        tex.send(line: "/scores")
        #expect(tex.text().contains("Scores:"))
        tex.send(line: "/help")
        #expect(tex.text().contains("Commands while playing"))
        tex.send(line: "pack")  // the answer: a group of wolves
        let result = try admin.expect("result")
        #expect(result["team"] == "Red")
        #expect(!tex.isClosed)
        // After the turn, words are commands again.
        tex.send(line: "scores")
        #expect(tex.text().contains("Scores:"))
    }

    @Test func aNaturalOrderReachesTheNumbersItNamesAndATimeOutIsAnnounced() throws {
        var options = EmbeddedHost.defaultOptions
        options.queenChooseSeconds = 30
        let host = try EmbeddedHost(options: options)
        var players: [String: EmbeddedConnection] = [:]
        for name in ["Ann", "Bob", "Cy", "Dee"] { players[name] = try host.player(name, team: name) }
        let board = try host.watcher(.board)
        host.console("start queen")
        let game = try #require(host.core.room.game as? QueenHost)
        let queen = try #require(game.game.queen)
        let numbers = try #require(game.game.currentRound?.numbers)
        players[queen]!.send(["type": "command", "text": "No. 2 sings to nr 3", "id": 1])
        let order = try board.expect("order")
        #expect(order["targets"] == [2, 3])
        host.advance(by: 61_000)
        let revealed = try board.expect("revealed")
        let holders = [2, 3].map { number in numbers.first { $0.value == number }!.key }
        #expect(revealed["targets"] == .array(holders.map { .string($0) }))

        // The next round's Queen lets the clock run out: everyone reads that the host picked.
        host.console("next")
        let next = try #require(game.game.queen)
        // Live clients answer the host's pings; silent for 90 s they would be closed.
        for connection in [board] + Array(players.values) { connection.send(["type": "ping"]) }
        host.advance(by: 31_000)
        let notices = board.drain().filter { $0["type"] == "notice" }.compactMap { $0["message"]?.stringValue }
        #expect(notices.contains("Time is up for Queen \(next): the host picked the order."))
        #expect(try players[next]!.expect("notice")["message"]?.stringValue?.contains("host picked") == true)
    }

    @Test func aJournalWrittenBeforeCodesStillLoads() throws {
        let old =
            #"{"k":"join","player":{"id":"p1","name":"Ann","team":"Red","#
            + #""token":"00112233445566778899aabbccddeeff","isConnected":true}}"#
        let record = try JSONCoding.decode(JournalRecord.self, from: Array(old.utf8))
        guard case .join(let player) = record else {
            Issue.record("not a join: \(record)")
            return
        }
        #expect(player.code == nil && player.name == "Ann")
        let now = try JSONCoding.encode(
            JournalRecord.join(
                Player(
                    id: "p2", name: "Bob", team: "Blue", token: "t", isConnected: true, disconnectedAt: nil,
                    code: "ACEFHKM")))
        #expect(now["player"]?["code"] == "ACEFHKM")
    }
}
