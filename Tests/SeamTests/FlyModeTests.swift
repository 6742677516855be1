import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Let Me Fly in-process: keys and typed lines to throws and catches, catch-up equal to live at every phase, the
/// records kept in the data folder, and the journal replaying to the same game.
@Suite("Let Me Fly, in-process")
struct FlyModeTests {
    /// Sends what a key does on `watcher`'s client.
    static func press(_ key: Key, on watcher: inout Watcher) {
        for action in watcher.state.handle(key, at: watcher.connection.host.now) {
            if case .send(let message) = action { watcher.connection.send(message.objectValue ?? [:]) }
        }
        watcher.update()
    }

    static func view(_ watcher: Watcher) throws -> FlyView { try #require(watcher.state.game as? FlyView) }

    static func game(_ host: EmbeddedHost) throws -> FlyHost { try #require(host.core.room.game as? FlyHost) }

    @Test func aGamePlaysByKeysAndTypedLinesAndCatchUpEqualsLiveAtEveryPhase() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        var bob = Watcher(try host.player("Bob", team: "Blue"), role: .player, name: "Bob", team: "Blue")
        let cleo = host.connect()
        cleo.send(line: "join ROOM Cleo Red")
        var board = Watcher(try host.watcher(.board), role: .board)
        #expect(host.console("start fly 2 round-seconds=10 break-seconds=3").first == "Started Let Me Fly.")
        ann.update()
        bob.update()
        #expect(try FlyModeTests.view(ann).phones.count == 5)
        #expect(cleo.text().contains("Let Me Fly!"))
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a round just opened")

        // Ann picks the flagship with 5, Cleo the brick by typing; the meter sweeps on Ann's screen.
        FlyModeTests.press(.character("5"), on: &ann)
        cleo.send(line: "phone brick")
        #expect(cleo.text().contains("You will throw the brick."))
        host.advance(by: 400)
        ann.update()
        #expect(ann.screen().contains { $0.contains("Power") && $0.contains("50 %") }, "\(ann.screen())")

        // Ann throws with Space at 50 %: 10 m/s, 2.039 s up, 5.097 m.
        let throwAt = host.now
        FlyModeTests.press(.character(" "), on: &ann)
        let thrown = try ann.connection.expect("thrown")
        #expect(thrown["power"] == 50)
        #expect(thrown["airMs"] == 2039)
        #expect(thrown["heightM"]?.doubleValue == 5.098 || thrown["heightM"]?.doubleValue == 5.097)
        #expect(thrown["landsAt"]?.intValue == throwAt + 2039)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a phone in the air")
        host.advance(by: 900)
        ann.update()
        #expect(ann.screen().contains { $0.contains("↑ out of sight") } == false, "5 m stays in sight")
        #expect(ann.screen().contains { $0.contains("▮") }, "the phone is drawn in the sky")

        // Bob has no throw yet; Cleo throws by typing t.
        cleo.send(line: "t")
        #expect(cleo.text().contains(">>> Up it goes"))

        // Ann catches 30 ms late with the flagship (window 70 ms): clean.
        host.advance(by: throwAt + 2039 + 30 - host.now)
        FlyModeTests.press(.character(" "), on: &ann)
        let caught = try ann.connection.expect("caught")
        #expect(caught["quality"] == "clean")
        #expect(caught["offsetMs"] == 30)
        let height = try #require(thrown["heightM"]?.doubleValue)
        #expect(caught["points"]?.intValue == Int64((height * 1.5).rounded()))
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "a clean catch")

        // The operator pauses; the meter and the round clock stand still.
        host.console("pause")
        host.advance(by: 2_000)
        try CatchUpTests.check(host, board: &board, player: &bob, phase: "a paused round")
        host.console("continue")

        // Bob throws; the round's clock runs out while his phone is up, and Cleo's phone was dropped.
        host.advance(by: 6_000)
        FlyModeTests.press(.enter, on: &bob)
        bob.update()
        let bobThrow = try #require(bob.connection.received.last { $0["type"] == "thrown" && $0["player"] == "Bob" })
        #expect(cleo.text().contains("You dropped it"), "nobody caught Cleo's phone within a second of landing")
        try CatchUpTests.check(host, board: &board, player: &bob, phase: "Bob's phone up near the end")
        let landsAt = try #require(bobThrow["landsAt"]?.intValue)
        let deadline = try #require(try FlyModeTests.view(bob).roundDeadline)
        #expect(deadline < landsAt - 200, "the round's clock runs out while Bob's phone is up")
        host.advance(by: deadline - host.now)
        try CatchUpTests.check(host, board: &board, player: &bob, phase: "time up, a phone still in the air")
        host.advance(by: landsAt - host.now - 200)
        FlyModeTests.press(.character(" "), on: &bob)
        let bobCaught = bob.connection.received.last { $0["type"] == "caught" && $0["player"] == "Bob" }
        #expect(bobCaught?["quality"] == "fumbled", "200 ms early with the mid-range phone")
        let over = try board.connection.expect("roundOver")
        #expect(over["number"] == 1 && over["nextInMs"] == 3000)
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "between rounds")

        // Round 2: Ann challenges Bob; nobody throws; the clock ends the round and the game.
        host.advance(by: 3_000)
        ann.update()
        #expect(try FlyModeTests.view(ann).round == 2)
        ann.connection.send(["type": "challenge", "player": "bob"])
        let challenge = try bob.connection.expect("challenged")
        #expect(challenge["from"] == "Ann" && challenge["heightM"] == thrown["heightM"])
        try CatchUpTests.check(host, board: &board, player: &bob, phase: "a challenge open")
        host.advance(by: 10_000)
        let final = try board.connection.expect("scoreboard")
        #expect(final["ranking"]?.arrayValue?.first?["player"] == "Ann")
        #expect(final["teams"]?.arrayValue?.first?["team"] == "Red")
        #expect(try board.connection.expect("leaderboard")["scope"] == "game")
        try CatchUpTests.check(host, board: &board, player: &ann, phase: "the final scoreboard")
        #expect(host.core.room.game == nil)
    }

    @Test func aFlyRoundIsDealtToThePlayersWhoAreHereAndWaitsForNobodyWhoDropped() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let cleo = try host.player("Cleo", team: "Red")
        let cleoToken = try #require(cleo.received.first { $0["type"] == "welcome" }?["token"])
        let bobToken = try #require(bob.received.first { $0["type"] == "welcome" }?["token"])
        var board = Watcher(try host.watcher(.board), role: .board)
        cleo.drop()  // her laptop closed before the start
        host.console("start fly 3 round-seconds=30 break-seconds=0")
        #expect(try FlyModeTests.game(host).game.players.map(\.name) == ["Ann", "Bob"], "Cleo is away: not dealt in")

        /// Throws for `player` now and waits until the phone came down uncaught (a drop a second after landing).
        func throwAndLetFall(_ player: EmbeddedConnection, _ name: String) throws {
            player.send(["type": "throw"])
            guard case .inAir(let thrown)? = try FlyModeTests.game(host).game.player(named: name)?.turn else {
                Issue.record("\(name)'s phone is not up")
                return
            }
            host.advance(by: thrown.airMs + 1_100)
        }

        // Round 1: both here throw; the round ends when their phones are down, long before its 30 s clock.
        let opened = host.now
        host.advance(by: 400)
        try throwAndLetFall(ann, "Ann")
        try throwAndLetFall(bob, "Bob")
        let first = try board.connection.expect("roundOver")
        #expect(first["number"] == 1 && first["missed"] == [])
        #expect(host.now - opened < 10_000)

        // Round 2: Bob drops before throwing; Ann's throw ends the round, which does not wait for Bob.
        host.console("next")
        bob.drop()
        let secondOpened = host.now
        host.advance(by: 400)
        try throwAndLetFall(ann, "Ann")
        let second = try board.connection.expect("roundOver")
        #expect(second["number"] == 2 && second["missed"] == ["Bob"], "Bob missed it, keeping his place")
        #expect(host.now - secondOpened < 10_000, "ended when Ann's phone came down, not after 30 s")
        let bobsPoints = first["ranking"]?.arrayValue?.first { $0["player"] == "Bob" }?["score"]?.intValue
        #expect(
            try FlyModeTests.game(host).game.player(named: "Bob")?.score == bobsPoints.map(Int.init),
            "Bob kept his points")

        // Cleo comes back: she joins the game like a newcomer (a gameUpdate) and round 3 waits for her; so does Bob.
        let cleoBack = host.connect()
        cleoBack.send(["type": "hello", "room": "ROOM", "resume": cleoToken])
        let bobBack = host.connect()
        bobBack.send(["type": "hello", "room": "ROOM", "resume": bobToken])
        board.update()
        #expect(try FlyModeTests.view(board).players == ["Ann", "Bob", "Cleo"])
        #expect(
            board.connection.received.contains { $0["type"] == "gameUpdate" && $0["players"] == [["name": "Cleo"]] })
        host.console("next")
        host.advance(by: 400)
        try throwAndLetFall(ann, "Ann")
        try throwAndLetFall(bobBack, "Bob")
        #expect(try FlyModeTests.game(host).game.phase == .throwing, "the round waits for Cleo, who is here")
        try throwAndLetFall(cleoBack, "Cleo")
        #expect(try board.connection.expect("scoreboard")["final"] == true)
    }

    @Test func afterARestartAFlyRoundWaitsOnlyForThePlayersWhoComeBack() throws {
        let first = try EmbeddedHost()
        let ann = try first.player("Ann", team: "Red")
        _ = try first.player("Bob", team: "Blue")
        let token = try #require(ann.received.first { $0["type"] == "welcome" }?["token"])
        first.console("start fly 2 round-seconds=30 break-seconds=0")
        first.advance(by: 200)
        first.core.storage.syncJournal()
        // The host is killed; a new one resumes the journal. Only Ann comes back.
        let second = try EmbeddedHost()
        second.advance(by: first.now - second.now)
        second.core.adopt(try JournalReplay.load(path: first.core.storage.journalPath))
        let back = second.connect()
        back.send(["type": "hello", "room": "ROOM", "resume": token])
        _ = try back.expect("welcome")
        let opened = second.now
        second.advance(by: 400)
        back.send(["type": "throw"])
        guard case .inAir(let thrown)? = try FlyModeTests.game(second).game.player(named: "Ann")?.turn else {
            Issue.record("Ann's phone is not up")
            return
        }
        second.advance(by: thrown.airMs + 1_100)
        #expect(try FlyModeTests.game(second).game.phase != .throwing, "the round does not wait for Bob, who is away")
        #expect(second.now - opened < 10_000)
    }

    @Test func recordsAndAchievementsAreKeptInTheDataFolderAndNeverAnnouncedTwice() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        host.console("start fly 1 round-seconds=5")
        host.advance(by: 600)  // 75 %: 15 m/s, 3.058 s, 11.47 m
        ann.send(["type": "throw"])
        let thrown = try ann.expect("thrown")
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 5)
        ann.send(["type": "catch"])
        let earned = ann.drain().filter { $0["type"] == "achievement" }.compactMap { $0["id"]?.stringValue }
        #expect(earned == ["firstCatch", "club5", "club10", "perfectCatch"])
        // Bob asks for the all-time board: only he gets it.
        bob.send(["type": "top", "scope": "allTime"])
        let top = try bob.expect("leaderboard")
        #expect(top["players"]?.arrayValue?.first?["player"] == "Ann")
        #expect(!ann.types().contains("leaderboard"))
        host.advance(by: 6_000)
        let path = host.data.path + "/fly/records.json"
        let file = try JSONCoding.decode(
            FlyRecordFile.self, from: Array(try #require(FileManager.default.contents(atPath: path))))
        #expect(file.records.count == 1, "only throws that came down are kept (Bob did not throw)")
        #expect(file.records.first?.player == "Ann" && file.records.first?.quality == .clean)
        #expect(Set(file.achievements["ann"]?.earned.map(\.id) ?? []) == Set(earned))

        // The next game knows what Ann holds: the same catch earns nothing new.
        host.console("start fly 1 round-seconds=5")
        host.advance(by: 600)
        ann.send(["type": "throw"])
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 5)
        ann.send(["type": "catch"])
        #expect(!ann.drain().contains { $0["type"] == "achievement" })
    }

    @Test func theJournalReplaysToTheGameThePlayersSaw() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start fly 2")
        ann.send(["type": "phone", "choice": "pro"])
        host.advance(by: 700)
        ann.send(["type": "throw", "id": 1])
        #expect(try ann.expect("ok")["re"] == 1)
        host.advance(by: 3_000)
        ann.send(["type": "catch"])
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let game = try #require(replayed.game as? FlyHost)
        let live = try FlyModeTests.game(host)
        #expect(game.game == live.game)
        #expect(game.game.results.count == 1)
    }

    @Test func wrongInputGetsTheModesClearErrors() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let cleo = host.connect()
        cleo.send(line: "join ROOM Cleo Red")
        host.console("start fly")
        ann.send(["type": "catch", "id": 1])
        #expect(try ann.expect("error")["code"] == "not_in_air")
        ann.send(["type": "phone", "choice": "toaster", "id": 2])
        #expect(try ann.expect("error")["code"] == "unknown_phone")
        ann.send(["type": "challenge", "player": "Cleo", "id": 3])
        #expect(try ann.expect("error")["code"] == "no_height")
        ann.send(["type": "top", "scope": "forever", "id": 4])
        #expect(try ann.expect("error")["code"] == "bad_field")
        ann.send(["type": "throw", "t": "soon", "id": 5])
        #expect(try ann.expect("error")["code"] == "bad_field")
        ann.send(["type": "buzz", "id": 6])
        #expect(try ann.expect("error")["code"] == "wrong_game")
        ann.send(["type": "throw", "id": 7])
        ann.send(["type": "throw", "id": 8])
        #expect(try ann.expect("error")["code"] == "already_thrown")
        _ = cleo.text()
        cleo.send(line: "challenge")
        #expect(cleo.text().contains("Usage: challenge NAME"))
        cleo.send(line: "b")
        #expect(cleo.text().contains("That is a command of Shaky Words"))
        ann.send(["type": "ping", "id": 9])
        #expect(try ann.expect("pong")["re"] == 9, "the connection keeps working")
    }
}

/// The text tables the operator reads (the console's `leaderboard`, `partyline-host history --fly`).
@Suite("Let Me Fly leaderboards as text")
struct FlyLeaderboardTextTests {
    @Test func theKeptRecordsPrintAsTonightAndAllTimeTables() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        host.console("start fly 1 round-seconds=5")
        ann.send(["type": "phone", "choice": "pro"])
        host.advance(by: 600)
        ann.send(["type": "throw"])
        let thrown = try ann.expect("thrown")
        let game = try FlyModeTests.game(host)  // kept: the game ends with Ann's catch (she plays alone)
        let evening = try #require(host.core.storage.eveningStart, "a host notes when it opened the room")
        #expect(game.record.tonightSince == FlyRecordStore.date(evening), "the game counts tonight from there too")
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 3)
        ann.send(["type": "catch"])
        #expect(host.core.room.game == nil)

        // From the data folder alone, as `history --fly` reads it.
        let kept = FlyRecordStore(directory: host.data.path).leaderboardLines()
        #expect(kept.first == "All-time — players")
        let annRow = try #require(kept.first { $0.contains("Ann") })
        #expect(annRow.contains("11.47 m") && annRow.contains("Pro"))
        #expect(annRow.contains(String(FlyRecordStore.date(Date()).prefix(10))), "dated today")
        #expect(kept.contains { $0.contains("Pro") && $0.hasSuffix("1       1") })
        let tonight = FlyRecordStore(directory: host.data.path).leaderboardLines(tonight: "2999-01-01T00:00:00Z")
        #expect(tonight.contains("  (no caught throws yet)"), "nothing is later than the year 2999")

        // A broken file is reported, kept aside at the next save, and play goes on.
        let path = host.data.path + "/fly/records.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{ not json".utf8)))
        let broken = FlyRecordStore(directory: host.data.path)
        #expect(broken.leaderboardLines().first?.contains("could not be read") == true)
        broken.award("club5", to: "Ann", game: "g", date: "2025-01-01T00:00:00Z")
        #expect(broken.save() == nil)
        #expect(FileManager.default.fileExists(atPath: path + ".broken-1"))
        #expect(FlyRecordStore(directory: host.data.path).earned(by: "ann") == ["club5"])
    }

    /// The records tool: the console's `leaderboard`, an admin client's `flyRecords` and the console line it may send;
    /// tonight counts from when the host opened the room, as the journal notes it for the next host and the command
    /// line.
    @Test func theLeaderboardToolShowsTonightAndAllTimeToTheOperator() throws {
        let host = try EmbeddedHost()
        // A throw from long ago, kept in the records: all time, not tonight.
        let old = FlyRecord(
            game: "fly-old", round: 1, player: "Zed", team: "Zed", phone: "brick", heightMm: 19_000, airMs: 3_936,
            quality: .clean, points: 15, date: "2001-01-01T20:00:00Z")
        try FileManager.default.createDirectory(atPath: host.data.path + "/fly", withIntermediateDirectories: true)
        try Data(JSONCoding.bytes(FlyRecordFile(records: [old]))).write(
            to: URL(fileURLWithPath: host.data.path + "/fly/records.json"))

        #expect(host.console("leaderboard tonight").joined(separator: "\n").contains("(no caught throws yet)"))
        let ann = try host.player("Ann", team: "Red")
        host.console("start fly 1 round-seconds=5")
        ann.send(["type": "phone", "choice": "pro"])
        host.advance(by: 600)
        ann.send(["type": "throw"])
        let thrown = try ann.expect("thrown")
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 3)
        ann.send(["type": "catch"])
        #expect(host.core.room.game == nil)

        let both = host.console("leaderboard").joined(separator: "\n")
        #expect(both.contains("Tonight (since ") && both.contains("All-time — players"), "\(both)")
        let tonight = both.components(separatedBy: "All-time — players")[0]
        #expect(tonight.contains("Ann") && tonight.contains("11.47 m") && !tonight.contains("Zed"), "\(tonight)")
        #expect(both.components(separatedBy: "All-time — players")[1].contains("Zed"))
        let latest = host.console("leaderboard game").joined(separator: "\n")
        #expect(latest.contains("Latest game") && latest.contains("Ann") && !latest.contains("Zed"), "\(latest)")
        #expect(host.console("fly history all").joined().contains("Zed"), "history --fly reaches the same tool")
        #expect(host.console("history fly all") == host.console("fly history all"), "as on the command line")
        #expect(host.console("history --fly all") == host.console("fly history all"))
        #expect(host.console("help").joined(separator: "\n").contains("history · history N"))
        #expect(
            host.console("leaderboard yesterday")
                == [#"! There is no leaderboard "yesterday": say game, tonight or all (allTime)."#])
        #expect(host.console("leaderboard all time").first?.hasPrefix("! Usage:") == true)
        #expect(host.console("help").joined(separator: "\n").contains("leaderboard [game|tonight|all]"))

        // An admin client asks by type and gets the boards as data; or sends the console line.
        let admin = try host.watcher(.admin)
        admin.send(["type": "flyRecords", "action": "leaderboard", "scope": "tonight", "id": 1])
        let reply = try admin.expect("content")
        #expect(reply["re"] == 1 && reply["kind"] == "flyRecords")
        let board = try #require(reply["item"]?["boards"]?.arrayValue?.first)
        #expect(board["scope"] == "tonight")
        #expect(board["players"]?.arrayValue?.map { $0["player"] } == ["Ann"])
        admin.send(["type": "flyRecords", "action": "leaderboard", "scope": "sometime", "id": 2])
        #expect(try admin.expect("error")["code"] == "bad_field")
        admin.send(["type": "console", "line": "leaderboard all", "id": 3])
        let lines = try admin.expect("content")["lines"]?.arrayValue ?? []
        #expect(lines.contains { $0.stringValue?.contains("Zed") == true })
        let player = try host.player("Bob", team: "Blue")
        player.send(["type": "flyRecords", "action": "leaderboard", "id": 4])
        #expect(try player.expect("error")["code"] == "forbidden")

        // The command line reads the same evening from the journal.
        let later = try Storage(directory: host.data.path, log: Logger(level: .error) { _ in })
        let noted = try #require(later.eveningStart)
        let evening = try #require(host.core.storage.eveningStart)
        #expect(abs(noted.timeIntervalSince(evening)) < 1)
    }

}

/// Let Me Fly for the organiser (#18): the console's feed, the wait for `next`, the game log.
@Suite("Let Me Fly for the organiser")
struct FlyOrganiserTests {
    /// The organiser's console follows the game (#18): rounds, throws with their heights, catches and drops,
    /// challenges and achievements, and says when the game waits for `next`.
    @Test func theConsoleFollowsThrowsCatchesChallengesAndWaitsForNext() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let admin = try host.watcher(.admin)
        let started = host.console("start fly 2 round-seconds=5 break-seconds=0")
        #expect(started.contains { $0.hasSuffix("Round 1/2 open: 5 s to throw for Ann, Bob.") }, "\(started)")
        ann.send(["type": "phone", "choice": "flagship"])
        host.advance(by: 600)
        ann.send(["type": "throw"])
        let thrown = try ann.expect("thrown")
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 3)
        ann.send(["type": "catch"])
        ann.send(["type": "challenge", "player": "Bob"])
        host.advance(by: 5_000)  // Bob never throws: time is up, the round is over, the game waits for the operator
        let console = host.consoleLines.joined(separator: "\n")
        for expected in [
            "Ann picked the flagship.", "Ann threw the flagship: 11.47 m (75 % power).", "Ann caught it cleanly",
            "★ Ann earned “First flight”", "Ann challenges Bob to beat 11.47 m.",
            "Time is up for round 1. No throw: Bob.",
            "Round 1 is over. Scores: #1 Ann", "Waiting for you: type next for round 2.",
        ] {
            #expect(console.contains(expected), "the console shows \(expected)\n\(console)")
        }
        #expect(host.core.room.statusSummary.hasPrefix("WAITING FOR YOU: type next for round 2 · Let Me Fly"))
        #expect(admin.drain().contains { $0["type"] == "feed" && $0["text"]?.stringValue?.contains("11.47 m") == true })
        #expect(!ann.drain().contains { $0["type"] == "feed" } && !bob.drain().contains { $0["type"] == "feed" })

        host.console("next")
        #expect((host.core.room.game as? any OperatorNotes)?.operatorPrompt == nil, "a round is being played")
        #expect(host.core.room.statusSummary.hasPrefix("Let Me Fly · round 2/2 · throwing (0/2 thrown)"))
    }

    /// The game log for people and for spreadsheets: every throw that came down, the rankings.
    @Test func theGameLogListsEveryThrowAndItsRowsForASpreadsheet() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        host.console("start fly 1 round-seconds=5")
        ann.send(["type": "phone", "choice": "pro"])
        host.advance(by: 600)
        ann.send(["type": "throw"])
        let thrown = try ann.expect("thrown")
        let log = try FlyModeTests.game(host).gameLog
        host.advance(by: (thrown["airMs"]?.intValue ?? 0) + 3)
        ann.send(["type": "catch"])
        #expect(host.core.room.game == nil)
        let (_, written, game) = try #require(host.core.storage.gameLog("1"))
        #expect(game == "fly" && log != written, "the log written at the end holds the catch")
        let lines = FlyHost.logLines(written)
        #expect(lines.first?.hasPrefix("Let Me Fly · fly-") == true)
        #expect(lines.contains("Round 1"))
        #expect(lines.contains("    Ann (Red, Pro): 11.47 m, caught cleanly, 14 points"), "\(lines)")
        #expect(lines.last == "Teams: #1 Red 14")
        let rows = FlyHost.logRows(written)
        #expect(rows.first == ["round", "player", "team", "phone", "height m", "air ms", "catch", "points"])
        #expect(rows.dropFirst().first == ["1", "Ann", "Red", "pro", "11.467", "3058", "clean", "14"])
        #expect(FlyHost.logLines(.string("not a log")).first == "\"not a log\"", "anything else shows as JSON")
    }
}
