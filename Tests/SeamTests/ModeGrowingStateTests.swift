import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The growing lists of Let Me Fly and Compound words (PROTOCOL.md §6.0): a game's roster is sent whole once and then
/// as numbered `gameUpdate`s; scripted storms of about a hundred players or teams cost each connection bytes that grow
/// with the count, not its square.
@Suite("Growing states in Let Me Fly and Compound words")
struct ModeGrowingStateTests {
    /// `prefix` and a three-digit number: `F000`, `F001`, ….
    static func name(_ prefix: String, _ index: Int) -> String { prefix + String(index + 1000).dropFirst() }

    /// Players who connect, then all say hello in one turn of the loop (`names` with their teams).
    static func joinInOneTurn(_ host: EmbeddedHost, _ names: [(name: String, team: String)]) -> [EmbeddedConnection] {
        let connections = names.map { _ in host.connect() }
        for (connection, joiner) in zip(connections, names) {
            connection.post([
                "type": "hello", "room": "ROOM", "name": .string(joiner.name), "team": .string(joiner.team),
            ])
        }
        host.turn()
        return connections
    }

    /// Bytes of the unread lines of each type on `connection` (what `unreadBytes` counts, split by `type`).
    static func unreadBytesByType(_ connection: EmbeddedConnection) -> [String: Int] {
        var bytes: [String: Int] = [:]
        let chunks = connection.host.outlet.output[connection.id] ?? []
        let text = chunks.flatMap(\.bytes)
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let type = (try? JSONParsing.parse(Array(line)))?["type"]?.stringValue ?? "?"
            bytes[type, default: 0] += line.count + 1
        }
        return bytes
    }

    /// Takes in what arrived on `watcher` and returns what the client asked the host for.
    static func follow(_ watcher: inout Watcher) -> [ClientAction] {
        var actions: [ClientAction] = []
        for (message, at) in watcher.connection.drainTimed() { actions += watcher.state.apply(message, at: at) }
        return actions
    }

    static func fly(_ host: EmbeddedHost) throws -> FlyHost { try #require(host.core.room.game as? FlyHost) }

    static func flyView(_ watcher: Watcher) throws -> FlyView { try #require(watcher.state.game as? FlyView) }

    static func words(_ host: EmbeddedHost) throws -> WordsHost { try #require(host.core.room.game as? WordsHost) }

    static func wordsView(_ watcher: Watcher) throws -> WordsView { try #require(watcher.state.game as? WordsView) }

    // MARK: Let Me Fly's roster

    @Test func aFlyRosterIsWholeOnceThenANameAJoinAndALossyBoardHealsWithOneResync() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        let text = host.connect()
        text.send(line: "join ROOM Tex Green")
        var honest = Watcher(try host.watcher(.board), role: .board)
        var lossy = Watcher(try host.watcher(.board), role: .board)
        host.console("start fly 2 round-seconds=600")
        _ = Self.follow(&honest)
        _ = Self.follow(&lossy)
        _ = text.text()
        var dropped: JSONValue?
        var resyncs: [JSONValue] = []
        for index in 0..<6 {
            _ = try host.player(Self.name("N", index), team: "Gold")
            honest.update()
            for (message, at) in lossy.connection.drainTimed() {
                if dropped == nil, message["type"] == "gameUpdate", message["count"] == 5 {
                    dropped = message  // lost on the way: the next one does not follow
                    continue
                }
                for case .send(let request) in lossy.state.apply(message, at: at) {
                    if request["type"] == "resync" { resyncs.append(request) }
                    lossy.connection.send(request.objectValue ?? [:])
                }
            }
        }
        for (message, at) in lossy.connection.drainTimed() { _ = lossy.state.apply(message, at: at) }
        let roster = try Self.fly(host).game.players.map(\.name)
        #expect(roster == ["Ann", "Bob", "Tex"] + (0..<6).map { Self.name("N", $0) })
        #expect(try Self.flyView(honest).players == roster)
        #expect(try Self.flyView(lossy).players == roster, "the lossy board resynced to the host's roster")
        #expect(dropped != nil && resyncs == [["type": "resync", "state": "game"]], "one resync healed the gap")
        #expect(lossy.state.awaitingResync.isEmpty)
        // The honest board got the roster whole once and then one name per join.
        let types = honest.connection.received.compactMap { $0["type"]?.stringValue }
        #expect(types.filter { $0 == "game" }.count == 1 && types.filter { $0 == "gameUpdate" }.count == 6)
        let last = try #require(honest.connection.received.last { $0["type"] == "gameUpdate" })
        #expect(last == ["type": "gameUpdate", "seq": 7, "count": 9, "players": [["name": "N005"]]])
        // A text player reads each join as a line, never the game's banner again.
        let lines = text.text()
        #expect(lines.contains("N005 joins the game (9 players)."), "\(lines)")
        #expect(!lines.contains("=== Let Me Fly"), "\(lines)")
        // A board joining now gets the numbered roster and follows the next join without asking.
        var late = Watcher(try host.watcher(.board), role: .board)
        late.update()
        #expect(late.connection.received.last { $0["type"] == "game" }?["seq"] == 7)
        _ = try host.player("Zed", team: "Gold")
        #expect(Self.follow(&late).isEmpty, "the delta applies to the catch-up")
        #expect(try Self.flyView(late).players == roster + ["Zed"])
    }

    @Test func aNewGamesRosterAnswersAResyncTheLastGameLeftOpen() throws {
        var state = ClientState(role: .board, room: "ROOM")
        let intro = { (players: [String], seq: Int) in
            FlyWire.Intro(players: players, rounds: 1, roundSeconds: 30, periodMs: 1600, topSpeed: 20, seq: seq)
        }
        let players = { (state: ClientState) in (state.game as? FlyView)?.players }
        _ = state.apply(intro(["Ann", "Bob"], 1).json, at: 0)
        let skipping = FlyWire.IntroUpdate(seq: 3, count: 3, items: [FlyWire.Entrant(name: "Cy")])
        #expect(state.apply(skipping.json, at: 1) == [.send(.resync(state: "game"))])
        // The game ends before the whole roster comes back; the next game's intro is a whole roster of its own.
        _ = state.apply(FlyWire.Scoreboard(ranking: [], teams: []).json, at: 2)
        _ = state.apply(intro(["Ann", "Bob", "Cy"], 1).json, at: 3)
        let next = FlyWire.IntroUpdate(seq: 2, count: 4, items: [FlyWire.Entrant(name: "Dee")])
        #expect(state.apply(next.json, at: 4).isEmpty)
        #expect(players(state) == ["Ann", "Bob", "Cy", "Dee"], "the new game's deltas apply")
        // A count that does not add up asks for the whole roster once.
        let wrong = FlyWire.IntroUpdate(seq: 3, count: 9, items: [FlyWire.Entrant(name: "Eve")])
        #expect(state.apply(wrong.json, at: 5) == [.send(.resync(state: "game"))])
        #expect(players(state) == ["Ann", "Bob", "Cy", "Dee"])
    }

    /// A scripted storm: 100 players in 10 teams start a round; 50 more join mid-round, five per turn of the loop;
    /// all 150 throw, five per turn 2 ms apart, and catch each phone as it lands. Bytes are deterministic: each
    /// connection's share is held to a budget that grows with the players, and the roster's share to the whole roster
    /// once and a name per join.
    @Test func aHundredPlayerFlyRoundCostsEachClientAFewHundredBytesAPlayer() throws {
        let players = 100
        let joiners = 50
        let host = try EmbeddedHost()
        var connections: [EmbeddedConnection] = []
        for index in 0..<players {
            connections.append(try host.player(Self.name("F", index), team: "Team" + String(index % 10)))
        }
        var board = Watcher(try host.watcher(.board), role: .board)
        host.console("start fly 2 round-seconds=600 break-seconds=0")
        board.update()
        for connection in connections { _ = connection.drain() }
        let early = connections + [board.connection]
        for group in stride(from: 0, to: joiners, by: 5) {
            connections += Self.joinInOneTurn(
                host, (group..<(group + 5)).map { (Self.name("J", $0), "Team" + String($0 % 10)) })
            host.advance(by: 2)
        }
        host.advance(by: 700)  // the meter near 90 %: high throws, achievements for many
        for group in stride(from: 0, to: connections.count, by: 5) {
            for connection in connections[group..<(group + 5)] { connection.post(["type": "throw"]) }
            host.turn()
            host.advance(by: 2)
        }
        // Each phone caught as it lands (a clean catch), those landing at the same instant in one turn.
        let game = try Self.fly(host)
        var landings: [(at: Int64, player: String)] = []
        for player in game.game.players {
            if case .inAir(let thrown) = player.turn { landings.append((thrown.landsAt.milliseconds, player.name)) }
        }
        #expect(landings.count == players + joiners, "everyone threw")
        let byName = Dictionary(
            uniqueKeysWithValues: zip(
                (0..<players).map { Self.name("F", $0) } + (0..<joiners).map { Self.name("J", $0) }, connections))
        for landing in landings.sorted(by: { $0.at < $1.at }) {
            if landing.at > host.now { host.advance(by: landing.at - host.now) }
            byName[landing.player]?.post(["type": "catch"])
        }
        host.turn()
        #expect(game.game.phase == .between, "the round ended when the last phone was caught")
        #expect(game.game.results.allSatisfy { $0.quality == .clean })

        let count = players + joiners
        // Per player, everyone gets its thrown (~125 bytes), caught (~150), the round's ranking entry (~100) and up
        // to five first-time achievements (~100 each, caught from 10 m at the landing): about 950 bytes, so 1.25 KiB
        // a player and 4 KiB for the rest. The roster whole once (~10 bytes a name) and ~80 bytes per turn of joins.
        let budget = 4096 + 1280 * count
        let rosterBudget = 300 + 10 * players + 80 * (joiners / 5) + 12 * joiners
        for connection in early {
            let bytes = Self.unreadBytesByType(connection)
            let sent = connection.unreadBytes
            #expect(sent <= budget, "bytes to connection \(connection.id): \(sent), budget \(budget)")
            #expect(sent >= 350 * count, "every throw and catch reached connection \(connection.id): \(sent)")
            let roster = (bytes["game"] ?? 0) + (bytes["gameUpdate"] ?? 0)
            #expect(roster <= rosterBudget, "roster bytes \(roster), budget \(rosterBudget)")
        }
        // Sending the whole roster on each join would have cost every connection about 10 × 125 × 50 = 62 KB.
        print("fly storm of \(count): max \(early.map(\.unreadBytes).max() ?? 0) bytes per connection")
        var asked: [ClientAction] = []
        for (message, at) in board.connection.drainTimed() { asked += board.state.apply(message, at: at) }
        #expect(!asked.contains { if case .send = $0 { true } else { false } }, "no gap: \(asked)")
        #expect(try Self.flyView(board).players == game.game.players.map(\.name))
    }

    // MARK: Compound words' teams

    @Test func aWordsTeamFormedMidGameCostsItsNameNotTheBoardAgain() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        let text = host.connect()
        text.send(line: "join ROOM Tex Green")
        var board = Watcher(try host.watcher(.board), role: .board)
        #expect(host.console("start words board") == ["Started Compound words."])
        board.update()
        _ = text.text()
        let intro = try #require(board.connection.received.last { $0["type"] == "game" })
        #expect(intro["seq"] == 1 && intro["board"]?["tiles"] != nil)
        var gold = Watcher(try host.player("Gil", team: "Gold"), role: .player, name: "Gil", team: "Gold")
        _ = try host.player("Tim", team: "Teal")
        board.update()
        gold.update()
        let updates = board.connection.received.filter { $0["type"] == "gameUpdate" }
        #expect(
            updates == [
                ["type": "gameUpdate", "seq": 2, "count": 4, "teams": [["team": "Gold"]]],
                ["type": "gameUpdate", "seq": 3, "count": 5, "teams": [["team": "Teal"]]],
            ])
        #expect(board.connection.received.filter { $0["type"] == "game" }.count == 1, "the board went once")
        let teams = try Self.words(host).game.teams.map(\.name)
        #expect(try Self.wordsView(board).teams == teams)
        #expect(try Self.wordsView(board).board?.tiles.isEmpty == false, "the board stays drawn")
        // The newcomer's catch-up lists its team, numbered, and the next join follows it.
        let caught = gold.connection.received.filter { $0["type"] == "game" || $0["type"] == "gameUpdate" }
        #expect(caught.map { $0["seq"] } == [2, 3])
        #expect(try Self.wordsView(gold).myTeam(gold.state) == "Gold")
        #expect(try Self.wordsView(gold).teams == teams)
        let lines = text.text()
        #expect(lines.contains("Team Gold joins the game (4 teams)."), "\(lines)")
        #expect(!lines.contains("Tiles, each with the tiles"), "the board listing is not repeated: \(lines)")
    }

    /// A scripted storm in team bingo: 100 teams of one play; 50 more teams form mid-game, five per turn; then every
    /// team marks a right cell, five per turn of the loop. Each player's share grows with the teams (a result and a
    /// progress per team, its own card); a board's too, with every team's card.
    @Test func aHundredTeamBingoCostsEachClientAFewHundredBytesATeam() throws {
        let teams = 100
        let joiners = 50
        let host = try EmbeddedHost()
        var connections: [EmbeddedConnection] = []
        for index in 0..<teams {
            connections.append(try host.player(Self.name("W", index), team: Self.name("T", index)))
        }
        var board = Watcher(try host.watcher(.board), role: .board)
        #expect(host.console("start words bingo en 1") == ["Started Compound words."])
        board.update()
        for connection in connections { _ = connection.drain() }
        let players = connections
        for group in stride(from: 0, to: joiners, by: 5) {
            connections += Self.joinInOneTurn(
                host, (group..<(group + 5)).map { (Self.name("V", $0), Self.name("U", $0)) })
            host.advance(by: 2)
        }
        let all = (0..<teams).map { Self.name("T", $0) } + (0..<joiners).map { Self.name("U", $0) }
        for group in stride(from: 0, to: all.count, by: 5) {
            for index in group..<(group + 5) {
                connections[index].post(try #require(try WordsSeamTests.pick(host, all[index])))
            }
            host.turn()
            host.advance(by: 2)
        }
        let count = teams + joiners
        let game = try Self.words(host)
        #expect(game.game.teams.count == count)
        #expect(game.game.teams.allSatisfy { $0.done == 1 }, "every team marked a cell")

        // Per team, everyone gets its result (~125 bytes), its progress (~100) and the lobby's line for a newcomer
        // (~30); a player its own cards (~250 each); a board every card (~350). The team list goes whole once (~8
        // bytes a name), then ~70 bytes per new team: each team joins with its first card, and a game's states go
        // out before its other messages, so a new team's name is a delta of its own.
        let playerBudget = 2048 + 320 * count
        let boardBudget = 2048 + 320 * count + 512 * count
        let rosterBudget = 400 + 10 * teams + 72 * joiners
        for connection in players + [board.connection] {
            let sent = connection.unreadBytes
            let budget = connection === board.connection ? boardBudget : playerBudget
            #expect(sent <= budget, "bytes to connection \(connection.id): \(sent), budget \(budget)")
            #expect(sent >= 200 * count, "every result reached connection \(connection.id): \(sent)")
            let bytes = Self.unreadBytesByType(connection)
            let roster = (bytes["game"] ?? 0) + (bytes["gameUpdate"] ?? 0)
            #expect(roster <= rosterBudget, "team list bytes \(roster), budget \(rosterBudget)")
        }
        let most = players.map(\.unreadBytes).max() ?? 0
        print(
            "bingo storm of \(count) teams: at most \(most) bytes a player, \(board.connection.unreadBytes) the board")
        var asked: [ClientAction] = []
        for (message, at) in board.connection.drainTimed() { asked += board.state.apply(message, at: at) }
        #expect(!asked.contains { if case .send = $0 { true } else { false } }, "no gap: \(asked)")
        #expect(try Self.wordsView(board).teams == all)
        #expect(try Self.wordsView(board).cards.count == count, "the board holds every card")
    }
}
