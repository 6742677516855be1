import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// A JSON `hello` with `name` and `code` (the phone page's "I have my rejoin code", PROTOCOL.md §4) comes back as
/// that player from another device, exactly as text mode's `rejoin NAME CODE`.
@Suite("Rejoining with the code from JSON")
struct JSONRejoinTests {
    /// A JSON player and their rejoin code, dropped (away, keeping their place).
    private func awayPlayer(_ host: EmbeddedHost, from peer: String = "10.0.0.1") throws -> (name: String, code: String)
    {
        let ann = host.connect(peer: peer)
        ann.send(["type": "hello", "room": "ROOM", "name": "Ann", "team": "Red", "clock": true])
        let welcome = try ann.expect("welcome")
        let code = try #require(welcome["code"]?.stringValue)
        ann.drop()
        return ("Ann", code)
    }

    /// A hello with a name and a code from another address, answered `re` its id.
    private func hello(_ host: EmbeddedHost, name: String, code: String, peer: String = "10.0.0.2")
        -> EmbeddedConnection
    {
        let phone = host.connect(peer: peer)
        phone.send([
            "type": "hello", "room": "ROOM", "name": .string(name), "code": .string(code), "clock": true,
            "id": "hello",
        ])
        return phone
    }

    @Test func theRightCodeComesBackAsThatPlayerFromAnotherAddress() throws {
        let host = try EmbeddedHost()
        let first = host.connect(peer: "10.0.0.1")
        first.send(["type": "hello", "room": "ROOM", "name": "Ann", "team": "Red"])
        let joined = try first.expect("welcome")
        let code = try #require(joined["code"]?.stringValue)
        first.drop()
        let phone = hello(host, name: "Ann", code: code.lowercased())
        let welcome = try phone.expect("welcome")
        #expect(welcome["re"]?.stringValue == "hello")
        #expect(welcome["player"] == joined["player"], "the same player, not a new one")
        #expect(welcome["name"]?.stringValue == "Ann")
        #expect(welcome["team"]?.stringValue == "Red")
        #expect(welcome["token"] == joined["token"])
        #expect(host.core.room.room.players.count == 1)
        #expect(phone.received.contains { $0["type"] == "sync" }, "its hello asked for clock sync")
    }

    @Test func theRightCodeTakesThePlaceOfAConnectedDevice() throws {
        let host = try EmbeddedHost()
        let first = host.connect(peer: "10.0.0.1")
        first.send(["type": "hello", "room": "ROOM", "name": "Ann", "team": "Red"])
        let code = try #require(try first.expect("welcome")["code"]?.stringValue)
        let phone = hello(host, name: "Ann", code: code)
        _ = try phone.expect("welcome")
        #expect(try first.expect("closing")["code"]?.stringValue == "replaced")
    }

    @Test func aWrongCodeOrAnotherPlayersCodeIsBadTokenAndJoinsNobody() throws {
        let host = try EmbeddedHost()
        let (name, code) = try awayPlayer(host)
        let bob = try host.player("Bob", team: "Blue")
        bob.drop()
        let bobsCode = try #require(host.core.room.room.player(named: "Bob")?.code)
        for (who, tried) in [(name, "AAAAAAA"), (name, bobsCode), ("Nobody", code)] {
            let phone = hello(host, name: who, code: tried)
            let refusal = try phone.expect("error")
            #expect(refusal["code"]?.stringValue == "bad_token", "\(who) \(tried)")
            #expect(refusal["re"]?.stringValue == "hello")
            #expect(refusal["message"]?.stringValue?.contains("has that code") == true)
            #expect(!phone.received.contains { $0["type"] == "welcome" })
        }
        #expect(host.core.room.room.players.count == 2, "nobody new joined")
    }

    @Test func wrongCodesAreThrottledAsTextRejoinsButNeverTheRightCodeOnItsOwnConnection() throws {
        let host = try EmbeddedHost()
        let (name, code) = try awayPlayer(host)
        // One connection guessing: five answers, then rate_limited (a hello on a connection not yet joined).
        let stranger = host.connect(peer: "10.0.0.9")
        var codes: [String] = []
        for guess in ["AAAAAAA", "CCCCCCC", "EEEEEEE", "FFFFFFF", "HHHHHHH", "KKKKKKK"] {
            stranger.send(["type": "hello", "room": "ROOM", "name": .string(name), "code": .string(guess), "id": 1])
            codes.append(try stranger.expect("error")["code"]?.stringValue ?? "")
        }
        #expect(codes == Array(repeating: "bad_token", count: 5) + ["rate_limited"])
        // The real player from the same address, on a connection of their own, comes straight back.
        let phone = hello(host, name: name, code: code, peer: "10.0.0.9")
        #expect(try phone.expect("welcome")["name"]?.stringValue == "Ann")
    }

    @Test func aWrongRoomIsToldBeforeAnyCodeIsTried() throws {
        let host = try EmbeddedHost()
        let (name, code) = try awayPlayer(host)
        let phone = host.connect(peer: "10.0.0.2")
        phone.send(["type": "hello", "room": "NOPE", "name": .string(name), "code": .string(code), "id": "hello"])
        #expect(try phone.expect("error")["code"]?.stringValue == "wrong_room")
    }

    @Test func aResumeTokenWinsOverACodeAndTheHelloRoundTripsItsCode() throws {
        let hello = Hello(room: "ROOM", name: "Ann", isSyncing: true, code: "KXT4M9R")
        #expect(hello.json["code"]?.stringValue == "KXT4M9R")
        let line = Array(hello.json.description.utf8)
        guard case .success(let envelope) = ClientMessageDecoding.decode(line: line, actions: [], tools: []),
            case .hello(let decoded) = envelope.message
        else {
            Issue.record("the hello did not decode")
            return
        }
        #expect(decoded == hello)
        let host = try EmbeddedHost()
        let first = host.connect(peer: "10.0.0.1")
        first.send(["type": "hello", "room": "ROOM", "name": "Ann", "team": "Red"])
        let token = try #require(try first.expect("welcome")["token"]?.stringValue)
        first.drop()
        let phone = host.connect(peer: "10.0.0.2")
        phone.send(["type": "hello", "room": "ROOM", "resume": .string(token), "name": "Ann", "code": "AAAAAAA"])
        #expect(try phone.expect("welcome")["name"]?.stringValue == "Ann", "resume decides; the code is ignored")
    }
}
