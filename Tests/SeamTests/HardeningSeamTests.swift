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

    // MARK: Guessing hunt codes

    /// A hunt with the office stations, started with the given players already joined.
    private func officeHunt(_ host: EmbeddedHost, options: String = "") throws {
        try host.addOfficeHunt()
        let started = host.console("start hunt office fixed 45" + options)
        #expect(started.first == "Started Station hunt.", "\(started)")
    }

    @Test func wrongCodesFromManyTeamsOnOneAddressAreLimitedAndCostOtherAddressesNothing() throws {
        let host = try EmbeddedHost()
        var guessers: [EmbeddedConnection] = []
        for index in 0..<8 {
            let connection = host.connect(peer: "10.9.9.9")
            connection.send([
                "type": "hello", "room": "ROOM", "name": .string("G\(index)"), "team": .string("T\(index)"),
            ])
            _ = try connection.expect("welcome")
            guessers.append(connection)
        }
        let honest = try host.player("Ann", team: "Red")  // 127.0.0.1
        try officeHunt(host)
        // Four wrong codes per team (one short of each team's lock), from eight throwaway teams on one address.
        var wrong = 0
        var limited: [String] = []
        for connection in guessers {
            for attempt in 0..<4 {
                connection.send(["type": "checkin", "code": .string("ZZZ\(attempt)"), "id": 1])
                let reply = try connection.expect("error")
                if reply["code"] == "wrong_code" { wrong += 1 }
                if reply["code"] == "rate_limited" { limited.append(reply["message"]?.stringValue ?? "") }
            }
        }
        #expect(wrong == GuessLimits.perAddress, "the address's wrong codes stop at its limit")
        #expect(limited.count == 32 - GuessLimits.perAddress)
        #expect(limited.allSatisfy { $0.contains("network address") && $0.contains("try again in 60 s") }, "\(limited)")
        // Refused guesses are not tried: even the right code waits, so refusing tells nothing about a code.
        guessers[7].send(["type": "checkin", "code": "FRDG", "id": 2])
        #expect(try guessers[7].expect("error")["code"] == "rate_limited")
        // The honest team on its own address checks in at once.
        honest.send(["type": "checkin", "code": "FRDG", "id": 3])
        #expect(try honest.expect("ok")["re"] == 3)
        // A minute later the address may guess again.
        host.advance(by: 60_000)
        guessers[7].send(["type": "checkin", "code": "FRDG", "id": 4])
        #expect(try guessers[7].expect("ok")["re"] == 4)
    }

    @Test func oneConnectionsWrongCodesAreLimitedAcrossTheTeamsLocks() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        try officeHunt(host)
        var codes: [String] = []
        for round in 0..<2 {
            if round > 0 { host.advance(by: 30_000) }  // the team's 30-second lock passes; the connection's minute not
            for attempt in 0..<5 {
                ann.send(["type": "checkin", "code": .string("ZZ\(round)\(attempt)"), "id": 1])
                codes.append(try ann.expect("error")["code"]?.stringValue ?? "")
            }
        }
        // Each fifth wrong code locks the team (and counts); ten in a minute are all one connection may make.
        let round = ["wrong_code", "wrong_code", "wrong_code", "wrong_code", "code_locked"]
        #expect(codes == round + round)
        ann.send(["type": "checkin", "code": "FRDG", "id": 2])  // the team is locked too; the connection says first
        let refusal = try ann.expect("error")
        #expect(refusal["code"] == "rate_limited")
        #expect(refusal["message"]?.stringValue?.contains("this connection: try again in 30 s") == true, "\(refusal)")
        host.advance(by: 30_000)
        ann.send(["type": "checkin", "code": "FRDG", "id": 3])
        #expect(try ann.expect("ok")["re"] == 3)
    }

    @Test func aTeamFormedMidHuntWaitsBeforeCheckingInAndStaysOutOfTheProgressUntilItDoes() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let board = try host.watcher(.board)
        try officeHunt(host)
        _ = board.drain()
        let late = try host.player("Lou", team: "Late")
        #expect(try late.expect("clue")["station"] == 1, "a late team gets its clue at once")
        // Ghost teams: no row for a team that never checked in, live or in a catch-up.
        let isProgress = { (message: JSONValue) in message["type"] == "progress" || message["type"] == "progressUpdate"
        }
        #expect(!board.drain().filter(isProgress).contains { $0.description.contains("Late") })
        let lateBoard = try host.watcher(.board)
        #expect(lateBoard.received.filter(isProgress).count == 1)
        #expect(!lateBoard.received.filter(isProgress).contains { $0.description.contains("Late") })
        late.send(["type": "checkin", "code": "FRDG", "id": 1])
        let wait = try late.expect("error")
        #expect(wait["code"] == "code_locked")
        #expect(wait["message"]?.stringValue?.contains("joined the running hunt") == true, "\(wait)")
        #expect(wait["message"]?.stringValue?.contains("60 seconds") == true, "\(wait)")
        ann.send(["type": "checkin", "code": "FRDG", "id": 2])
        #expect(try ann.expect("ok")["re"] == 2, "a team there at the start never waits")
        ann.send(["type": "hint"])  // Red's time now has 20 s of penalties
        host.advance(by: 60_000)
        late.send(["type": "checkin", "code": "FRDG", "id": 3])
        #expect(try late.expect("ok")["re"] == 3)
        #expect(
            board.drain().filter(isProgress).contains { $0.description.contains("Late") },
            "its row appears at its first check-in")
        // The scoreboard leaves out a ghost team too.
        _ = try host.player("Gus", team: "Ghost")
        host.console("end")
        let scoreboard = try board.expect("scoreboard")
        let ranking = scoreboard["ranking"]?.arrayValue ?? []
        let ranks = ranking.compactMap { row in row["team"]?.stringValue.map { "\($0) #\(row["rank"] ?? .null)" } }
        #expect(ranks == ["Late #1", "Red #2"], "the ghost at 0:00 neither shows nor ranks above Red: \(ranks)")
    }

    // MARK: Big rooms

    @Test func aTwoThousandTeamHuntStartWalksTheConnectionsAFewTimesNotOncePerTeam() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let teams = 2_000
        // Two thousand one-player teams join in one turn of the loop (a turn each would cost the test minutes).
        for index in 0..<teams {
            let id = SessionID(value: 10_000 + index)
            host.core.opened(id, peer: "10.1.1.1")
            let hello = #"{"type":"hello","room":"ROOM","name":"P\#(index)","team":"T\#(index)"}"#
            host.core.received(Array(hello.utf8), from: id)
        }
        host.turn()
        let admin = try host.watcher(.admin)
        _ = admin.drain()
        let before = host.core.room.connectionsWalked
        #expect(host.console("start hunt office fixed 45").first == "Started Station hunt.")
        // Each team's clue and each team's feed line for the operators: finding the operators once per line was
        // 2,000 walks over 2,001 connections (four million); once per step it is a few walks.
        let walked = host.core.room.connectionsWalked - before
        #expect(walked <= 10 * (teams + 1), "connections walked for the start: \(walked)")
        let feed = admin.drain().filter { $0["type"] == "feed" }
        #expect(feed.filter { $0["text"]?.stringValue?.contains("heads for station 1/3") == true }.count == teams)
        let last = host.outlet.take(SessionID(value: 10_000 + teams - 1)).flatMap(\.bytes)
        #expect(String(decoding: last, as: UTF8.self).contains(#""type":"clue""#), "the last team got its clue")
    }
}
