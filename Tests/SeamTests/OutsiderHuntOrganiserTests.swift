import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// Odd One Out and the station hunt on the organiser's console (#18): the feed says what happens (answers and codes
/// included, for the operators only), the status line says when the game waits, the game log keeps every pick,
/// code and answer, and an evening repeats no puzzle while new ones remain; text-mode players pick and answer with
/// bare lines (#17).
@Suite("Odd One Out and the hunt for the organiser", .timeLimit(.minutes(10)))
struct OutsiderHuntOrganiserTests {
    private func feed(_ admin: EmbeddedConnection) -> [String] {
        admin.drain().compactMap { $0["type"] == "feed" ? $0["text"]?.stringValue : nil }
    }

    @Test func theFeedShowsEachRoundsOutsiderAndEachLockInWhilePlayersSeeNeither() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let admin = try host.watcher(.admin)
        let started = host.console("start outsider 2 easy animals reveal-seconds=0")
        let game = try #require(host.core.room.game as? OutsiderHost)
        let puzzle = game.record.puzzles[0].puzzle
        #expect(
            started.contains {
                $0.contains("Round 1/2 (Animals, easy, 100)") && $0.contains("odd one out: \(puzzle.outsider)")
            },
            "\(started)")
        let numbers = wordNumbers(try ann.expect("puzzle"))
        let wrong = try #require(puzzle.others.first)
        ann.send(["type": "pick", "word": .string(puzzle.outsider)])
        bob.send(["type": "pick", "choice": .number(try #require(numbers[wrong]))])
        host.advance(by: 200)  // the settle window
        let lines = feed(admin)
        #expect(
            lines.contains {
                $0.hasPrefix("Red locked in 1st: ") && $0.contains("\(puzzle.outsider) — right, 100 points")
            }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Blue locked in 2nd: ") && $0.contains("— wrong") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Revealed: \(puzzle.outsider).") }, "\(lines)")
        #expect(lines.last == "Waiting for you: type next for the next round.")
        #expect(host.core.room.statusSummary.hasPrefix("WAITING FOR YOU: type next for the next round"))
        // Before the reveal nothing Blue got said the outsider (Red's own pick went to Red only); never the feed.
        let seen = bob.drain().map(\.description)
        let beforeReveal = seen.prefix { !$0.contains("\"reveal\"") }.joined()
        #expect(!beforeReveal.contains("\"outsider\":"), "the outsider leaked")
        #expect(
            beforeReveal.contains("\"lockedIn\",\"teams\":[{\"team\":\"Red\",\"position\":1}]"),
            "who locked in, never what")
        #expect(!(seen + ann.drain().map(\.description)).joined().contains("\"feed\""), "the feed is for operators")
        #expect(seen.contains { $0.contains("\"reveal\"") && $0.contains("\"nextInMs\":null") })
        // An operator who was not there is briefed: the round with its outsider, the reveal, what the game awaits.
        let revealBriefing = feed(try host.watcher(.admin))
        #expect(revealBriefing.first?.hasSuffix("odd one out: \(puzzle.outsider) (\(puzzle.link))") == true)
        #expect(revealBriefing.dropFirst().first?.hasPrefix("Revealed: \(puzzle.outsider).") == true)
        #expect(revealBriefing.last == "Waiting for you: type next for the next round.", "\(revealBriefing)")
        #expect(host.console("next").first == "Moving on.")
        #expect(host.core.room.game.map { ($0 as? any OperatorNotes)?.operatorPrompt == nil } == true)
        // In an open round: the round and each lock-in with its verdict.
        let second = game.record.puzzles[1].puzzle
        bob.send(["type": "pick", "word": .string(second.outsider)])
        host.advance(by: 200)
        let roundBriefing = feed(try host.watcher(.admin))
        #expect(roundBriefing.count == 2, "\(roundBriefing)")
        #expect(roundBriefing.first?.hasPrefix("Round 2/2 ") == true)
        #expect(roundBriefing.last?.hasPrefix("Blue locked in 1st: ") == true)
        #expect(roundBriefing.last?.contains("\(second.outsider) — right") == true, "\(roundBriefing)")
    }

    @Test func aPausedGameWaitsForTheOrganiserFirstOnTheStatusLine() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        _ = try host.player("Ann", team: "Red")
        for start in ["start outsider 2 easy animals", "start hunt office"] {
            host.console(start)
            #expect(!host.core.room.statusSummary.hasPrefix("WAITING FOR YOU"), "\(start)")
            host.console("pause")
            #expect(
                host.core.room.statusSummary.hasPrefix("WAITING FOR YOU: type continue (the game is paused)"),
                "\(start): \(host.core.room.statusSummary)")
            host.console("continue")
            #expect(!host.core.room.statusSummary.hasPrefix("WAITING FOR YOU"), "\(start)")
            host.console("end")
        }
    }

    @Test func twoGamesInOneEveningRepeatNoPuzzleWhileEnoughRemainAndTheLogKeepsEveryPick() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        host.console("start outsider 5 easy animals")
        let first = try #require(host.core.room.game as? OutsiderHost).record.puzzles.map(\.puzzle.playedKey)
        _ = ann.drain()
        ann.send(["type": "pick", "choice": 1])
        host.advance(by: 21_000)
        let log = try #require(host.core.room.game?.record.log)
        let lines = OutsiderHost.entry.logLines(log)
        #expect(lines.first?.hasPrefix("Odd One Out · teams: Red · packs: animals · easy") == true)
        #expect(lines.contains { $0.hasPrefix("    Red: 1 ") && $0.contains(" points, ") }, "\(lines)")
        let rows = OutsiderHost.entry.logRows(log)
        #expect(
            rows.first == ["round", "words", "outsider", "link", "team", "choice", "word", "correct", "points", "ms"])
        #expect(rows.count == 2 && rows[1][4] == "Red" && rows[1][5] == "1", "\(rows)")
        let firstShown = try #require(host.core.room.game as? OutsiderHost).game.roundNumber ?? 0
        #expect(firstShown >= 1 && firstShown < first.count, "the game ends before its last puzzle")
        host.console("end")

        host.console("start outsider 5 easy animals")
        let secondGame = try #require(host.core.room.game as? OutsiderHost)
        let second = secondGame.record.puzzles.map(\.puzzle.playedKey)
        let secondShown = secondGame.game.roundNumber ?? 0
        #expect(
            Set(first.prefix(firstShown)).isDisjoint(with: second),
            "a puzzle shown in the first game is not drawn again")
        host.console("end")
        host.core.storage.syncJournal()
        let resumed = try JournalReplay.load(path: host.core.storage.journalPath)
        #expect(
            resumed.played == Set(first.prefix(firstShown) + second.prefix(secondShown)),
            "only the puzzles shown count as played, and a restarted host still knows them")
        let pool =
            (try #require(host.core.operators.tools.tool(ContentTool<OutsiderPacks>.self))).library
            .pack(id: "animals")?.puzzles.filter { $0.difficulty == .easy }.count ?? 0
        let reply = host.console("start outsider \(pool) easy animals")
        let repeated = firstShown + secondShown
        #expect(
            reply.first?.contains("\(repeated) puzzle\(repeated == 1 ? "" : "s") had to repeat from earlier tonight")
                == true, "\(reply)")
        host.console("end")
        #expect(host.console("start outsider 2 animls").first?.contains("Did you mean animals?") == true)
    }

    @Test func awayTeamsDoNotPlayUnlessNamed() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        bob.drop()
        host.console("start outsider 2")
        #expect((host.core.room.game as? OutsiderHost)?.game.teams == ["Red"])
        host.console("end")
        host.console("start hunt demo")
        #expect((host.core.room.game as? HuntHost)?.game.teams == ["Red"])
        host.console("end")
        host.console("start hunt demo teams=Red,Blue")
        #expect((host.core.room.game as? HuntHost)?.game.teams == ["Red", "Blue"])
    }

    @Test func theHuntFeedShowsCodesAnswersAndHintsToOperatorsOnly() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let ann = try host.player("Ann", team: "Red")
        let nc = host.connect()
        nc.send(line: "join ROOM Gil Green")
        let admin = try host.watcher(.admin)
        host.console("start hunt office")
        var lines = feed(admin)
        #expect(lines.contains("Red heads for station 1/3: Kitchen, code FRDG."), "\(lines)")
        ann.send(["type": "checkin", "code": "WRNG"])
        ann.send(["type": "checkin", "code": "frdg"])
        ann.send(["type": "hint"])
        let words = try #require((host.core.room.game as? HuntHost)?.game.state(of: "Red")?.words)
        let wrong = try #require(words.firstIndex(of: "red"))
        ann.send(["type": "pick", "choice": .number(wrong + 1)])
        host.advance(by: 65_000)
        ann.send(["type": "answer", "text": "Dog"])
        lines = feed(admin)
        let expected = [
            "Red typed the code WRNG: wrong (their station: Kitchen, code FRDG); 4 tries left.",
            "Red checked in at Kitchen (1/3).",
            "Red took hint 1/2 at Kitchen (+0:20): Think of paint.",
            "Red answered \"red\" at Kitchen: wrong, +0:30 (penalties 0:50).",
            "Red solved Kitchen (1/3) at 1:05 with \"dog\"; penalties 0:50.",
            "Red heads for station 2/3: Desk, code DESK.",
        ]
        for line in expected { #expect(lines.contains(line), "missing \(line) in \(lines)") }
        // Players never see the feed, nor a code they did not type.
        let annSeen = ann.drain().map(\.description).joined()
        #expect(!annSeen.contains("\"feed\"") && !annSeen.contains("DESK"))
        let ncSeen = nc.text()
        #expect(!ncSeen.contains("FRDG") && !ncSeen.contains("WRNG") && !ncSeen.contains("Think of paint"))

        // The game log keeps every code, answer and hint, and a restart rebuilds it from the journal.
        let log = try #require(host.core.room.game?.record.log)
        let rows = HuntHost.entry.logRows(log)
        #expect(rows.first == ["hunt time", "ms", "team", "station", "what", "typed", "penalty ms"])
        #expect(rows.dropFirst().map { $0[4] } == ["wrong code", "checked in", "hint", "wrong", "right"], "\(rows)")
        #expect(rows.dropFirst().map { $0[5] } == ["WRNG", "", "Think of paint.", "red", "dog"])
        #expect(HuntHost.entry.logLines(log).contains("  1:05  Red at Kitchen: right \"dog\""))
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let restored = try #require(replayed.game)
        #expect(HuntHost.entry.logRows(restored.record.log) == rows)

        // An operator who was not there is briefed on where every team is, codes and answers included.
        ann.send(["type": "checkin", "code": "DESK"])
        ann.send(["type": "hint"])
        let briefing = feed(try host.watcher(.admin))
        #expect(
            briefing == [
                "Red is at station 2/3: Desk, code DESK (answer: pencil; 1 hint taken; penalties 1:20).",
                "Green heads for station 1/3: Kitchen, code FRDG.",
            ], "\(briefing)")
        #expect(!ann.drain().contains { $0["type"] == "feed" }, "players get no briefing")

        // The same hunt again tonight: the start says teams may know its codes.
        host.console("end")
        #expect(host.console("start hunt office").first?.contains("already played tonight") == true)
    }

    @Test func aTextModePlayerPicksAndAnswersWithBareLinesAndUsesCommandsWithASlash() throws {
        let host = try EmbeddedHost()
        try host.addOfficeHunt()
        let nc = host.connect()
        nc.send(line: "join ROOM Gil Green")
        host.console("start outsider 2 easy animals reveal-seconds=0")
        var text = nc.text()
        #expect(text.contains("Type 1-4 or the word (commands now start with /)."), "\(text)")
        nc.send(line: "scores")
        text = nc.text()
        #expect(text.contains("\"scores\" is not one of the four words"), "\(text)")
        #expect(text.contains("commands start with /"))
        nc.send(line: "/scores")
        #expect(nc.text().contains("#1 Green"))
        nc.send(line: "3")
        host.advance(by: 200)
        text = nc.text()
        #expect(text.contains("Your team picked 3"))
        #expect(text.contains("Waiting for the quizmaster's next round"), "\(text)")
        nc.send(line: "scores")  // picked: commands work without the slash again
        #expect(nc.text().contains("#1 Green"))
        host.console("end")

        host.console("start hunt office")
        nc.send(line: "checkin FRDG")
        nc.send(line: "hint")
        #expect(nc.text().contains("Hint 1/2 (+20 s): Think of paint."))
        nc.send(line: "dog")
        nc.send(line: "checkin DESK")
        text = nc.text()
        #expect(text.contains("Every line you type is your answer now"), "\(text)")
        #expect(text.contains("`hint` shows a hint (+30 s)"), "\(text)")
        nc.send(line: "4")  // at a question a number is an answer, not a pick
        #expect(nc.text().contains("+30 s penalty"))
        nc.send(line: "/scores")
        #expect(!nc.text().contains("penalty"), "a command with a slash costs nothing")
        nc.send(line: "pencil")
        #expect(nc.text().contains("Desk solved (pencil)"))
    }
}
