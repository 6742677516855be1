import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

extension EmbeddedConnection {
    /// Hands the host one JSON line without ending the loop's turn (several lines then arrive in one turn).
    func post(_ message: JSONObject) {
        host.core.received(Array(JSONValue.object(message).description.utf8), from: id)
    }

    /// Bytes the host wrote to this connection that were not read yet.
    var unreadBytes: Int { host.outlet.output[id]?.reduce(0) { $0 + $1.bytes.count } ?? 0 }
}

/// Growing states (PROTOCOL.md §6.0) in-process: deltas that cost what changed, gaps that heal, halls that send
/// each player its own team.
@Suite("Growing states: whole once, then deltas")
struct GrowingStateTests {
    /// A host with `teams` players, one per team (`T000`, `T001`, …), and Shaky Words started.
    static func storm(teams: Int, fairness: Bool) throws -> (EmbeddedHost, [EmbeddedConnection]) {
        var options = EmbeddedHost.defaultOptions
        options.isFairnessEnabled = fairness
        options.questionSeconds = 600
        options.afterBuzzSeconds = 600
        options.answerSeconds = 600
        let host = try EmbeddedHost(options: options)
        var players: [EmbeddedConnection] = []
        for index in 0..<teams {
            let name = "T" + String(index + 1000).dropFirst()
            players.append(try host.player(name, team: name))
        }
        host.console("start shaky 2 easy")
        return (host, players)
    }

    /// The order the host's game holds.
    static func hostOrder(_ host: EmbeddedHost) throws -> [String] {
        try #require(host.core.room.game as? ShakyHost).game.queueEntries.map(\.team)
    }

    @Test func aClientThatDropsADeltaAsksForTheWholeOrderAndEndsWithTheRightOne() throws {
        let (host, players) = try Self.storm(teams: 12, fairness: false)
        var honest = Watcher(try host.watcher(.board), role: .board)
        var lossy = Watcher(try host.watcher(.board), role: .board)
        honest.update()
        lossy.update()
        var dropped: JSONValue?
        var resyncs: [JSONValue] = []
        /// The lossy board takes in what arrived, but loses the first `buzzedUpdate` after `after` buzzes.
        func feedLossy(dropAfter after: Int) {
            for (message, at) in lossy.connection.drainTimed() {
                if dropped == nil, message["type"] == "buzzedUpdate", (message["count"]?.intValue ?? 0) > after {
                    dropped = message
                    continue
                }
                for action in lossy.state.apply(message, at: at) {
                    guard case .send(let request) = action else { continue }
                    if request["type"] == "resync" { resyncs.append(request) }
                    lossy.connection.send(request.objectValue ?? [:])
                }
            }
        }
        for (index, player) in players.enumerated() {
            player.send(["type": "buzz"])
            honest.update()
            feedLossy(dropAfter: 4)
            if index == 5 {
                // One buzz after the lost delta: the client saw the gap and asked once; it shows no wrong order.
                #expect(dropped != nil, "a buzzedUpdate was dropped")
                #expect(resyncs == [["type": "resync", "state": "buzzed"]])
            }
        }
        feedLossy(dropAfter: 4)
        let order = try Self.hostOrder(host)
        #expect(order.count == 12)
        let shown = { (watcher: Watcher) in (watcher.state.game as? ShakyView)?.buzzOrder.map(\.team) }
        #expect(shown(honest) == order)
        #expect(shown(lossy) == order, "the lossy client resynced to the host's order")
        #expect(resyncs.count == 1, "one resync healed the gap")
        #expect(lossy.state.awaitingResync.isEmpty)
        // The honest board followed by deltas: after the first two buzzes it got no whole order.
        let wholes = honest.connection.received.filter { $0["type"] == "buzzed" }.count
        let deltas = honest.connection.received.filter { $0["type"] == "buzzedUpdate" }.count
        #expect(wholes == 2 && deltas == 10, "wholes \(wholes), deltas \(deltas)")
    }

    @Test func aDeltaThatDoesNotFollowIsNotAppliedAndAStaleOneIsIgnored() throws {
        var state = ClientState(role: .board, room: "ROOM")
        _ = state.apply(ShakyWire.Intro(teams: ["A", "B", "C", "D"], questions: 1).json, at: 0)
        let entry = { (team: String) in ShakyWire.BuzzEntry(team: team, offsetMs: 0, uncertaintyMs: 1, tie: false) }
        let order = { (state: ClientState) in (state.game as? ShakyView)?.buzzOrder.map(\.team) }
        let whole = ShakyWire.Buzzed(entries: [entry("A"), entry("B")], remainingMs: 10, deadline: 20, seq: 3)
        _ = state.apply(whole.json, at: 1)
        let stale = ShakyWire.BuzzedUpdate(seq: 3, count: 3, entries: [entry("X")], remainingMs: 9, deadline: 20)
        #expect(state.apply(stale.json, at: 2).isEmpty)
        let skipping = ShakyWire.BuzzedUpdate(seq: 5, count: 3, entries: [entry("C")], remainingMs: 9, deadline: 20)
        #expect(state.apply(skipping.json, at: 3) == [.send(.resync(state: "buzzed"))])
        let next = ShakyWire.BuzzedUpdate(seq: 4, count: 3, entries: [entry("C")], remainingMs: 9, deadline: 20)
        #expect(state.apply(next.json, at: 4).isEmpty, "while the whole is on its way, deltas wait")
        #expect(order(state) == ["A", "B"])
        let resent = ShakyWire.Buzzed(
            entries: [entry("A"), entry("B"), entry("C")], remainingMs: 9, deadline: 20, seq: 5)
        _ = state.apply(resent.json, at: 5)
        let after = ShakyWire.BuzzedUpdate(seq: 6, count: 4, entries: [entry("D")], remainingMs: 8, deadline: 20)
        #expect(!state.apply(after.json, at: 6).contains(.send(.resync(state: "buzzed"))))
        #expect(order(state) == ["A", "B", "C", "D"])
        // A delta whose count does not add up asks for the whole.
        let wrong = ShakyWire.BuzzedUpdate(seq: 7, count: 9, entries: [entry("E")], remainingMs: 8, deadline: 20)
        #expect(state.apply(wrong.json, at: 7) == [.send(.resync(state: "buzzed"))])
        #expect(order(state) == ["A", "B", "C", "D"])
    }

    /// A scripted storm: 100 teams buzz, five per turn of the loop, 2 ms apart, fair buzzing on. Bytes are
    /// deterministic, so each connection's share is held to a budget that grows with the teams, not their square.
    @Test func aHundredTeamStormCostsEachClientAboutOneEntryPerTeam() throws {
        let teams = 100
        let (host, players) = try Self.storm(teams: teams, fairness: true)
        var board = Watcher(try host.watcher(.board), role: .board)
        board.update()
        for player in players { _ = player.drain() }
        for group in stride(from: 0, to: teams, by: 5) {
            for player in players[group..<(group + 5)] { player.post(["type": "buzz"]) }
            host.turn()
            host.advance(by: 2)
        }
        host.advance(by: 200)  // every settle window has passed
        #expect(try Self.hostOrder(host).count == teams)
        // Each entry is about 60 bytes; a message's own fields about 120. The whole order once per connection, a
        // delta per turn, the turn announcement: 2 KiB + 160 bytes a team. (Sending the whole order on every buzz
        // would cost about 60 × 100² / 2 = 300 KB.)
        let budget = 2048 + 160 * teams
        let sent = (players + [board.connection]).map(\.unreadBytes)
        #expect(sent.allSatisfy { $0 <= budget }, "bytes per connection: max \(sent.max() ?? 0), budget \(budget)")
        #expect(sent.allSatisfy { $0 >= 60 * teams }, "every connection got every entry: min \(sent.min() ?? 0)")
        // And what the board got adds up to the host's order, with no gap.
        var asked: [ClientAction] = []
        for (message, at) in board.connection.drainTimed() { asked += board.state.apply(message, at: at) }
        #expect(!asked.contains { if case .send = $0 { true } else { false } }, "no gap: \(asked)")
        #expect((board.state.game as? ShakyView)?.buzzOrder.map(\.team) == (try Self.hostOrder(host)))
    }

    @Test func aTurnChangeSendsTheWholeOrderOnlyWhenItChangedSinceTheLastWhole() throws {
        let (host, players) = try Self.storm(teams: 6, fairness: false)
        let board = try host.watcher(.board)
        for player in players {
            player.send(["type": "buzz"])
            host.advance(by: 5)  // in press order
        }
        let types = board.types()
        #expect(types.filter { $0 == "buzzed" }.count == 2 && types.filter { $0 == "buzzedUpdate" }.count == 4)
        players[0].send(["type": "answer", "text": "surely wrong"])
        let afterWrong = board.drain().compactMap { $0["type"]?.stringValue }
        #expect(afterWrong == ["result", "buzzed", "turn"], "the whole committed order before the next turn")
        players[1].send(["type": "answer", "text": "surely wrong too"])
        #expect(board.types() == ["result", "turn"], "unchanged since the last whole: not repeated")
    }

    @Test func aTextPlayerReadsEachChangeAsALine() throws {
        let (host, players) = try Self.storm(teams: 6, fairness: false)
        let person = host.connect()
        person.send(line: "join ROOM Tex Team9")
        _ = person.text()
        for player in players {
            player.send(["type": "buzz"])
            host.advance(by: 5)
        }
        let text = person.text()
        #expect(text.contains("Buzz order: T000 +0 ms"), "the first order whole: \(text)")
        #expect(text.contains("Buzzed: T005 +25 ms · 6 in the queue"), "each later buzz as one line: \(text)")
        #expect(!text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("{") }, "no JSON in text mode")
        let late = try host.player("Zed", team: "Team9")
        _ = late
        let during = person.text()
        #expect(!during.contains("Lobby"), "who came and went in the lobby is no line during a game: \(during)")
    }

    @Test func aTextPlayerInTheLobbyReadsEachJoinAsALine() throws {
        let host = try EmbeddedHost()
        let person = host.connect()
        person.send(line: "join ROOM Tex Red")
        _ = try host.player("Ann", team: "Green")
        _ = try host.player("Bob", team: "Gold")
        _ = person.text()
        _ = try host.player("Zed", team: "Blue")
        #expect(person.text().contains("Lobby, 4 players: Zed (Blue) is here"), "a join as one line")
        host.console("start shaky 2 easy")
        _ = person.text()
        _ = try host.player("Amy", team: "Blue")
        let during = person.text()
        #expect(!during.contains("Lobby"), "not while the game runs: \(during)")
        let late = host.connect()
        late.send(line: "join ROOM Lee Green")
        let joined = late.text()
        #expect(joined.contains("Shaky Words") && !joined.contains("Lobby"), "nor in a mid-game catch-up: \(joined)")
        host.console("end")
        _ = person.text()
        _ = try host.player("Bo", team: "Blue")
        #expect(person.text().contains("Lobby, 7 players: Bo (Blue) is here"), "again once the game is over")
    }

    @Test func aJoinerCatchesUpWithTheNumberedOrderAndFollowsTheDeltas() throws {
        let (host, players) = try Self.storm(teams: 8, fairness: false)
        for player in players.prefix(5) {
            player.send(["type": "buzz"])
            host.advance(by: 5)
        }
        var late = Watcher(try host.watcher(.board), role: .board)
        late.update()
        let caught = try #require(late.connection.received.last { $0["type"] == "buzzed" })
        #expect(caught["seq"]?.intValue != nil, "the catch-up's order is numbered")
        for player in players.suffix(3) {
            player.send(["type": "buzz"])
            host.advance(by: 5)
        }
        var actions: [ClientAction] = []
        for (message, at) in late.connection.drainTimed() { actions += late.state.apply(message, at: at) }
        #expect(!actions.contains { if case .send = $0 { true } else { false } }, "the deltas apply: \(actions)")
        #expect((late.state.game as? ShakyView)?.buzzOrder.map(\.team) == (try Self.hostOrder(host)))
    }

    /// A hall: more than 200 players. Each player gets its own team's list and every team's size; boards keep the
    /// whole list. Players joining one by one, 50 ms apart, cost each player a few KiB of lobby, not the room's list.
    @Test func aHallSendsPlayersTheirTeamAndTheSizesAndBoardsEverything() throws {
        let host = try EmbeddedHost()
        var board = Watcher(try host.watcher(.board), role: .board)
        var players: [Watcher] = []
        let teams = 24
        let count = 240
        for index in 0..<count {
            let name = "P\(index)"
            let team = "Team" + String(index % teams)
            players.append(Watcher(try host.player(name, team: team), role: .player, name: name, team: team))
            host.advance(by: 50)
        }
        host.advance(by: 2_000)  // the last team sizes (every 2 s)
        board.update()
        #expect(board.state.lobby.count == count, "the board lists everyone")
        for index in players.indices {
            players[index].update()
            let state = players[index].state
            #expect(state.lobby.allSatisfy { $0.team == state.team }, "a player lists its own team")
            #expect(state.lobby.count == count / teams)
            // The first 10 teams and its own (PROTOCOL.md §6.0.1), followed through every delta, with the total.
            let own = index % teams
            let expected = (0..<GameRoom.hallTopRows).map { "Team\($0)" } + (own >= 10 ? ["Team\(own)"] : [])
            #expect(state.teamSizes?.teams.map(\.team) == expected)
            #expect(state.teamSizes?.total == teams)
            #expect(state.teamSizes?.count == count)
            #expect(state.teamSizes?.teams.allSatisfy { $0.players == count / teams } == true)
            #expect(state.awaitingResync.isEmpty)
        }
        let bytes = players.map { $0.connection.textLines.reduce(0) { $0 + $1.utf8.count + 1 } }
        let average = bytes.reduce(0, +) / count
        // Up to 200 players everyone has the whole list: the whole once (≤ 55 bytes a player) and a ~125-byte delta
        // per later join; in the hall a player's own team, the sizes and a delta per teammate. The old lobby sent
        // the whole list on every join: about 55 × 200³ / 6 / 200 ≈ 370 KB per player here.
        #expect(average <= 24 * 1024, "average bytes per player while \(count) joined one by one: \(average)")
        print("hall of \(count): average \(average) bytes per player, max \(bytes.max() ?? 0)")
    }
}
