import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// The organiser runs the show (#18), in-process: the feed, judging by hand, a clean room, no repeats, safe stops.
@Suite("The organiser's console, in-process")
struct OrganiserTests {
    @Test func theConsoleFollowsTheGameWhilePlayersSeeNothingTheyShouldNot() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let admin = try host.watcher(.admin)
        let started = host.console("start shaky 2 easy")
        let game = try #require(host.core.room.game as? ShakyHost)
        let answer = try #require(game.game.currentAnswer)
        #expect(started.contains { $0.contains("Question 1/2") && $0.contains("answer: \(answer)") }, "\(started)")
        #expect(admin.drain().contains { $0["type"] == "feed" && $0["text"]?.stringValue?.contains(answer) == true })
        ann.send(["type": "buzz"])
        bob.send(["type": "buzz"])
        ann.send(["type": "answer", "text": "zebra crossing"])
        // Everything the players received before the reveal: neither the answer nor Red's wrong answer.
        for player in [ann, bob] {
            let seen = player.drain().map(\.description).joined()
            #expect(!seen.contains(answer), "the answer reached a player before the reveal")
            #expect(!seen.contains("zebra crossing"), "a typed answer reached the players")
            #expect(!seen.contains("\"feed\""), "the feed is for operators")
        }
        let feed = admin.drain().compactMap { $0["type"] == "feed" ? $0["text"]?.stringValue : nil }
        #expect(
            feed.contains { $0.hasPrefix("Red answered \"zebra crossing\": wrong. Overrule with: accept Red") },
            "\(feed)")
        #expect(feed.contains { $0.hasPrefix("Buzz order: Red") }, "the buzzes in order: \(feed)")
        #expect(feed.contains { $0.hasPrefix("Buzzed: Blue") }, "\(feed)")
        let shake = try host.player("Cid", team: "Blue")
        shake.send(["type": "shake"])
        shake.send(["type": "shake"])
        host.advance(by: 61_000)
        let later = admin.drain().compactMap { $0["type"] == "feed" ? $0["text"]?.stringValue : nil }
        #expect(later.contains { $0.hasPrefix("Blue shook: one more letter in place") }, "shakes: \(later)")
        #expect(later.contains { $0.hasPrefix("Revealed: \(answer).") }, "the reveal: \(later)")
    }

    @Test func theFeedSaysWhyANearMissWasRefused() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        host.console("start shaky 1 easy strict=on")
        let answer = try #require((host.core.room.game as? ShakyHost)?.game.currentAnswer)
        let nearMiss = String(answer.dropLast()) + (answer.last == "x" ? "y" : "x")
        ann.send(["type": "buzz"])
        ann.send(["type": "answer", "text": .string(nearMiss)])
        let feed = host.consoleLines.joined(separator: "\n")  // what the console showed since the start
        #expect(feed.contains("Red answered \"\(nearMiss)\": wrong (1 letter off, but strict is on)."), "\(feed)")
    }

    @Test func acceptChangesTheScoresEveryoneSeesAndIsJournaled() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let started = host.console("start shaky 2 easy")
        #expect(started.contains { $0.contains("Question 1/2 (easy, 100 points): ") }, "\(started)")
        ann.send(["type": "buzz"])
        ann.send(["type": "answer", "text": "certainly wrong"])
        host.advance(by: 21_000)  // buzzing closes: the question is revealed unanswered (the next opens at 25 s)
        #expect(try bob.expect("reveal")["scorer"] == .null)
        #expect(
            host.console("accept red").first
                == #"Red's answer "certainly wrong" to question 1 now counts as right: +100. Scores: #1 Red 100 · #2 Blue 0."#
        )
        let overruled = try bob.expect("overruled")
        #expect(
            host.consoleLines.contains {
                $0.hasSuffix("You counted Red's answer to question 1 as right (+100). Scores: #1 Red 100 · #2 Blue 0.")
            }, "\(host.consoleLines)")
        #expect(overruled["team"] == "Red")
        #expect(overruled["points"] == 100)
        #expect(host.console("accept Red") == [#"! Red's answer to question 1 already counts as right."#])
        host.advance(by: 5_000)  // the next question opens: a protest about question 1 still reaches it
        #expect(
            host.console("reject Red").first?.hasPrefix(
                #"Red's answer "certainly wrong" to question 1 now counts as wrong."#) == true)
        let second = try bob.expect("overruled")
        #expect(second["question"] == 1 && second["points"] == -100)
        host.console("accept Red")
        let live = try #require(host.core.room.game as? ShakyHost)
        let log = ShakyHost.logLines(live.gameLog).joined(separator: "\n")
        #expect(
            log.contains(#"Red (Ann): "certainly wrong" — right by the quizmaster (the judge said wrong), 100 points"#),
            "\(log)")
        host.core.storage.syncJournal()
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let game = try #require(replayed.game as? ShakyHost)
        #expect(game.game.scores["Red"] == 100, "the overrule survives a restart")
        #expect(game.game.answers(toQuestion: 1)?.answers.map(\.player) == ["Ann"], "who typed it survives too")
    }

    @Test func anAnswerAcceptedWhileTheQuestionIsOpenReplacesTheWrongVerdictOnEveryScreen() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start shaky 2 easy")
        ann.connection.send(["type": "buzz"])
        ann.connection.send(["type": "answer", "text": "napolean"])
        ann.update()
        #expect(ann.screen().contains { $0.contains("Red: wrong") }, "\(ann.screen().joined(separator: "\n"))")
        #expect(host.console("accept Red").first?.contains("now counts as right") == true)
        ann.update()
        let screen = ann.screen().joined(separator: "\n")
        #expect(!screen.contains("Red: wrong"), "the refused verdict stays beside the accepted one:\n\(screen)")
        #expect(screen.contains("Red"), "\(screen)")
        let line = ShakyWire.Result(
            team: "Red", correct: true, points: 100, timedOut: false, misspelled: false,
            byQuizmaster: true
        ).line(for: Perspective(team: "Red", name: "Ann"))
        #expect(line == "✔ Red is right (the quizmaster's verdict)! +100")
    }

    @Test func aVerdictDuringTheQueensGameSaysWhichGameHasVerdicts() throws {
        let host = try EmbeddedHost()
        _ = try ["Ann", "Bob", "Cid"].map { try host.player($0, team: $0) }
        host.console("start queen")
        let admin = try host.watcher(.admin)
        admin.send(["type": "judge", "team": "Ann", "correct": true])
        let refusal = try admin.expect("error")
        #expect(refusal["code"] == "wrong_game")
        #expect(refusal["message"] == "judge is a command of Shaky Words, but this is The Queen's game.")
    }

    @Test func kickingTheQueenWhileSheChoosesGivesTheCommandAtOnce() throws {
        let host = try EmbeddedHost()
        let names = ["Ann", "Bob", "Cid", "Dee"]
        let players = try names.map { try host.player($0, team: $0) }
        host.console("start queen")
        let queen = try #require((host.core.room.game as? QueenHost)?.game.queen)
        let citizen = try #require(zip(names, players).first { $0.0 != queen }?.1)
        #expect(try citizen.expect("round")["queen"]?.stringValue == queen)
        let reply = host.console("kick \(queen)")
        #expect(reply.contains { $0.hasPrefix("\(queen) was removed") }, "\(reply)")
        let order = try citizen.expect("order")  // no clock advanced: the room does not wait for a Queen who is gone
        #expect(order["text"]?.stringValue?.isEmpty == false)
    }

    @Test func judgingByHandHoldsEveryVerdictForTheOperator() throws {
        var options = EmbeddedHost.defaultOptions
        options.isJudgedByHand = true
        let host = try EmbeddedHost(options: options)
        let ann = try host.player("Ann", team: "Red")
        let board = try host.watcher(.board)
        host.console("start shaky 1 easy")
        let answer = try #require((host.core.room.game as? ShakyHost)?.game.currentAnswer)
        ann.send(["type": "buzz"])
        ann.send(["type": "answer", "text": .string(answer)])
        #expect(try board.expect("judging")["team"] == "Red")
        #expect(!board.types().contains("result"), "no verdict until the operator gives it")
        #expect(host.core.room.statusSummary.hasPrefix("WAITING FOR YOU: type accept Red or reject Red"))
        // An operator who connects now (or the console after a restart) learns the answer and what was typed.
        let lateOperator = try host.watcher(.admin)
        let briefing = lateOperator.drain().filter { $0["type"] == "feed" }.compactMap { $0["text"]?.stringValue }
        #expect(briefing.first?.hasSuffix("— answer: \(answer)") == true, "\(briefing)")
        #expect(briefing.last == "Red answered \"\(answer)\". Waiting for you: type accept Red or reject Red.")
        #expect(!board.types().contains("feed"), "boards get no briefing")
        host.advance(by: 80_000)  // past the 60 s answer clock (and under the 90 s idle timeout of the board)
        #expect(!board.types().contains("result"), "the answer clock does not run out while the quizmaster decides")
        #expect(
            host.console("accept Red").first?.hasPrefix("Red's answer \"\(answer)\" to question 1 is right: +100.")
                == true)
        #expect(try board.expect("result")["correct"] == true)
    }

    @Test func aKickedNameAndAddressStayOutUntilUnbanned() throws {
        let host = try EmbeddedHost()
        let cid = host.connect(peer: "10.1.2.3")
        cid.send(["type": "hello", "room": "ROOM", "name": "Cid", "team": "Red"])
        #expect(host.console("kick cid").first?.contains("removed for tonight") == true)
        #expect(cid.isClosed)
        let again = host.connect(peer: "10.1.2.3")
        again.send(["type": "hello", "room": "ROOM", "name": "Cedric", "team": "Red"])
        #expect(try again.expect("error")["code"] == "banned", "the address is barred")
        let elsewhere = host.connect(peer: "10.1.2.4")
        elsewhere.send(["type": "hello", "room": "ROOM", "name": "CID", "team": "Red"])
        #expect(try elsewhere.expect("error")["code"] == "banned", "the name is barred")
        #expect(host.console("unban Cid") == ["Cid may join again."])
        let back = host.connect(peer: "10.1.2.3")
        back.send(["type": "hello", "room": "ROOM", "name": "Cid", "team": "Red"])
        _ = try back.expect("welcome")

        // A player who is away is barred from the computer they played from too.
        let dee = host.connect(peer: "10.9.9.9")
        dee.send(["type": "hello", "room": "ROOM", "name": "Dee", "team": "Blue"])
        _ = try dee.expect("welcome")
        dee.drop()
        #expect(host.console("kick dee").first?.contains("their name and their computer may not join again") == true)
        let sameLaptop = host.connect(peer: "10.9.9.9")
        sameLaptop.send(["type": "hello", "room": "ROOM", "name": "Dora", "team": "Blue"])
        #expect(try sameLaptop.expect("error")["code"] == "banned")
        // Someone on the host's own computer: only the name.
        _ = try host.player("Eve", team: "Gold")
        #expect(host.console("kick eve").first?.contains("their name (they played from this computer)") == true)
        _ = try host.player("Fay", team: "Gold")
    }

    @Test func tidyAndANewGameLeaveNoGhostTeams() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        bob.drop()
        host.console("start shaky 1")
        #expect((host.core.room.game as? ShakyHost)?.game.teams == ["Red"], "an away team does not play")
        host.console("end")
        #expect(
            host.console("tidy")
                == [
                    "Nobody was removed. Kept Bob: away for less than two minutes, they may be on their way back "
                        + "(tidy! removes them too)."
                ])
        #expect(host.console("tidy!") == ["Removed 1 player who was away: Bob."])
        #expect(host.console("tidy") == ["Nobody is away; the room is tidy."])
        #expect(host.core.room.room.player(named: "Bob") == nil)
        host.console("start shaky 1 teams=Red")
        #expect((host.core.room.game as? ShakyHost)?.game.teams == ["Red"])
    }

    @Test func twoGamesInOneEveningRepeatNoQuestionWhileEnoughRemain() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        host.console("start shaky 8 easy animals")
        let first = try #require(host.core.room.game as? ShakyHost).record.questions.map(\.text)
        ann.send(["type": "buzz"])  // something played: a game ended before any play is not kept in history
        host.console("end")
        host.console("start shaky 8 easy animals")
        let second = try #require(host.core.room.game as? ShakyHost).record.questions.map(\.text)
        #expect(!second.contains(first[0]), "the question shown in the first game is not drawn again")
        #expect(!Set(second).isDisjoint(with: first.dropFirst()), "those drawn but never shown are free again")
        ann.send(["type": "buzz"])
        host.console("end")
        host.core.storage.syncJournal()
        let resumed = try JournalReplay.load(path: host.core.storage.journalPath)
        #expect(
            resumed.played == Set([first[0], second[0]].map(TextFolding.fold)),
            "a restarted host still knows what tonight's games showed")
        let listed = host.console("history")
        #expect(
            listed.first?.hasPrefix("Finished games:\n1. ") == true && listed.first?.contains("\n2. ") == true,
            "\(listed)")
        let oldest = host.console("history 1").first ?? ""
        #expect(oldest.contains("Shaky Words") && oldest.contains(first[0]), "game 1 is the first game: \(oldest)")
        #expect(host.console("history 2").first?.contains(second[0]) == true)
        #expect(host.console("history 9").first?.hasPrefix("! There is no finished game \"9\"") == true)
        let pool = host.core.storage.packs.pack(id: "animals")?.questions.filter { $0.difficulty == .easy }.count ?? 0
        let reply = host.console("start shaky \(pool) easy animals")
        #expect(reply.first?.contains("had to repeat") == true, "\(reply)")
    }

    @Test func quitDuringAGameAsksFirst() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        host.console("start shaky 1")
        #expect(host.console("quit").first?.contains("Type quit again") == true)
        #expect(host.core.isRunning)
        host.console("status")
        #expect(
            host.console("quit").first?.contains("Type quit again") == true, "another command in between asks again")
        host.advance(by: 31_000)
        #expect(
            host.console("quit").first?.contains("Type quit again") == true,
            "a confirmation half a minute later asks again")
        let admin = try host.watcher(.admin)
        admin.send(["type": "console", "line": "status"])
        #expect(!admin.drain().isEmpty, "the operator client got its answer")
        host.console("quit")
        #expect(!host.core.isRunning, "an operator client's line neither confirms nor cancels the console's quit")
    }

    @Test func theResumeQuestionSaysWhatWouldComeBack() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        host.console("start shaky 3 easy")
        host.core.storage.syncJournal()
        let during = try JournalReplay.load(path: host.core.storage.journalPath)
        #expect(during.isWorthResuming)
        #expect(
            during.summary.hasPrefix("The last host stopped during Shaky Words · question 1/3")
                && during.summary.hasSuffix("(room ROOM, 2 players: Ann, Bob)"), "\(during.summary)")
        host.console("end")
        host.console("quit")
        host.core.shutDown()  // as the server does once quit stopped its loop
        host.core.storage.syncJournal()
        let after = try JournalReplay.load(path: host.core.storage.journalPath)
        #expect(!after.isWorthResuming, "a clean quit between games asks nothing")
        #expect(after.summary == "The last host stopped between games (room ROOM, 2 players: Ann, Bob)")
    }

    @Test func quitWithAnExclamationMarkStopsAtOnce() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        host.console("start shaky 1")
        #expect(host.console("quit!") == ["Stopping the host…"])
        #expect(!host.core.isRunning)
    }

    @Test func aLockedRoomKeepsNewcomersForTheNextGame() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        host.console("start shaky 2")
        #expect(host.console("lock").first?.contains("locked") == true)
        let late = try host.player("Zed", team: "Green")
        #expect((host.core.room.game as? ShakyHost)?.game.teams == ["Red"])
        let notices = late.drain().filter { $0["type"] == "notice" }.compactMap { $0["message"]?.stringValue }
        #expect(notices == ["The game has started and the room is locked: you play in the next game."])
        // Dropping and coming back does not slip past the lock, nor does a restart of the host.
        let token = try #require(late.received.first { $0["type"] == "welcome" }?["token"]?.stringValue)
        late.drop()
        let back = host.connect()
        back.send(["type": "hello", "room": "ROOM", "resume": .string(token)])
        _ = try back.expect("welcome")
        #expect((host.core.room.game as? ShakyHost)?.game.teams == ["Red"], "still held for the next game")
        host.core.storage.syncJournal()
        #expect(try JournalReplay.load(path: host.core.storage.journalPath).heldForNextGame.count == 1)
        // A newcomer to a team that is playing plays with it at once, without a notice.
        let mate = try host.player("Abe", team: "red")
        #expect(!mate.types().contains("notice"))
        #expect((host.core.room.game as? ShakyHost)?.game.teams == ["Red"])
        host.console("unlock")
        _ = try host.player("Yan", team: "Gold")
        #expect((host.core.room.game as? ShakyHost)?.game.teams == ["Red", "Gold"])
    }

    @Test func aPausedGameSaysWhatToTypeFirst() throws {
        let host = try EmbeddedHost()
        for (name, team) in [("Ann", "Red"), ("Bob", "Blue"), ("Cy", "Green"), ("Dee", "Gold"), ("Eve", "Teal")] {
            _ = try host.player(name, team: team)
        }
        host.console("start shaky 2")
        host.console("pause")
        let summary = host.core.room.statusSummary
        #expect(summary.hasPrefix("WAITING FOR YOU: type continue (the game is paused) · Shaky Words · question 1/2"))
        // Cut to 60 columns (as the status bar does), the phase and what to type are what remain.
        #expect(String(summary.prefix(59)).contains("continue"))
        host.console("continue")
        #expect(!host.core.room.statusSummary.hasPrefix("WAITING FOR YOU"))
    }

    @Test func aMistypedPackNameIsCorrected() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let reply = host.console("start shaky 3 sciense")
        #expect(reply.first?.contains("Did you mean science?") == true, "\(reply)")
    }

    @Test func judgeIsSpelledAsOnTheCommandLineAndAMistypedOptionStartsNothing() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let typo = host.console("start shaky 3 judge-by-hnad=on")
        #expect(typo == ["! Shaky Words has no option \"judge-by-hnad\" here. Did you mean judge-by-hand?"])
        #expect(host.core.room.game == nil, "a mistyped option starts no game that ignores it")
        let unknown = host.console("start shaky colour=red")
        #expect(
            unknown.first?.hasPrefix("! Shaky Words has no option \"colour\" here. Its options: teams, questions, ")
                == true, "\(unknown)")
        let admin = try host.watcher(.admin)
        admin.send(["type": "start", "game": "shaky", "questions": 3, "judgeByHnad": true])
        let ok = try admin.expect("ok")["message"]?.stringValue ?? ""
        #expect(
            ok.hasSuffix("Ignored: Shaky Words has no option \"judge-by-hnad\" here. Did you mean judge-by-hand?"),
            "a JSON start keeps protocol 1's promise and says what it ignored: \(ok)")
        host.console("end")
        #expect(host.console("start shaky 3 judge=sometimes").first?.contains("judge must be manual or auto") == true)
        host.console("start shaky 3 judge=manual")
        #expect((host.core.room.game as? ShakyHost)?.game.settings.isJudgedByHand == true)
        host.console("end")
        host.console("start shaky 3 judge=auto")
        #expect((host.core.room.game as? ShakyHost)?.game.settings.isJudgedByHand == false)
    }
}
