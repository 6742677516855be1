import Protocol
import Testing

@testable import Client

/// Host messages of Odd One Out and the station hunt, shaped as the host sends them.
enum ModeFixtures {
    static let outsiderGame =
        #"{"type":"game","game":"outsider","teams":["Red","Blue","Green"],"rounds":10,"roundSeconds":20}"#
    /// Round 2; its clock ends at host time 29 000 (20 s after the host's 9 000).
    static let puzzle =
        #"{"type":"puzzle","number":2,"of":10,"words":["elephant","sparrow","eagle","pigeon"],"category":"Animals","difficulty":"medium","points":200,"remainingMs":20000,"deadline":29000}"#
    static let picked = #"{"type":"picked","choice":1,"word":"elephant"}"#
    static let lockedRed = #"{"type":"lockedIn","teams":[{"team":"Red","position":1}],"seq":1}"#
    static let lockedBlue =
        #"{"type":"lockedIn","teams":[{"team":"Red","position":1},{"team":"Blue","position":2}],"seq":2}"#
    static let lockedGreen = #"{"type":"lockedInUpdate","seq":3,"count":3,"teams":[{"team":"Green","position":3}]}"#
    static let outsiderReveal =
        #"{"type":"reveal","number":2,"outsider":"elephant","link":"birds","results":[{"team":"Red","choice":1,"word":"elephant","correct":true,"points":180,"ms":4000},{"team":"Blue","choice":3,"word":"eagle","correct":false,"points":0,"ms":6100},{"team":"Green","choice":null,"word":null,"correct":false,"points":0,"ms":null}],"scores":[{"team":"Red","score":380,"rank":1,"correct":2},{"team":"Blue","score":150,"rank":2,"correct":1},{"team":"Green","score":0,"rank":3,"correct":0}],"nextInMs":5000,"deadline":14000,"last":false}"#
    static let outsiderFinal =
        #"{"type":"scoreboard","final":true,"ranking":[{"team":"Red","score":1380,"rank":1,"correct":7},{"team":"Blue","score":950,"rank":2,"correct":5}]}"#

    static let huntGame =
        #"{"type":"game","game":"hunt","hunt":"office","name":"Office hunt","stations":3,"teams":["Red","Blue"],"order":"fixed","penaltySeconds":30,"remainingMs":2700000,"deadline":2709000}"#
    static let clue =
        #"{"type":"clue","station":2,"of":3,"text":"Where the work gets done, between the stapler and the monitor that never sleeps"}"#
    static let huntPuzzle =
        #"{"type":"puzzle","number":1,"of":3,"words":["green","dog","blue","red"],"hints":2,"hintCosts":[20,40]}"#
    static let question =
        #"{"type":"question","number":2,"of":3,"text":"What do you sharpen before writing?","letters":6,"hints":1}"#
    static let hint = #"{"type":"hint","number":1,"of":1,"text":"It has lead.","costMs":30000,"penaltiesMs":60000}"#
    static let progress =
        #"{"type":"progress","teams":[{"team":"Red","station":1,"of":3,"elapsedMs":64000,"penaltiesMs":60000,"finished":false},{"team":"Blue","station":0,"of":3,"elapsedMs":0,"penaltiesMs":0,"finished":false}],"seq":1}"#
    static let redDone =
        #"{"type":"progressUpdate","seq":2,"count":2,"teams":[{"team":"Red","station":3,"of":3,"elapsedMs":754000,"penaltiesMs":60000,"finished":true}]}"#
    static let stationSolved =
        #"{"type":"stationSolved","team":"Red","station":1,"of":3,"name":"Kitchen","elapsedMs":64000,"penaltiesMs":30000}"#
    static let huntOver =
        #"{"type":"scoreboard","final":true,"ranking":[{"team":"Red","rank":1,"stations":3,"totalMs":814000,"penaltiesMs":60000,"finished":true},{"team":"Blue","rank":2,"stations":1,"totalMs":300000,"penaltiesMs":0,"finished":false}],"hallOfFame":[{"place":1,"team":"Owls","totalMs":700000,"date":"2025-05-30"},{"place":2,"team":"Red","totalMs":814000,"date":"2025-06-01"}]}"#
}

/// Every size a mode's screens are checked at: a classic terminal, a big one and two small ones.
let modeSizes: [(width: Int, height: Int)] = [(80, 24), (120, 40), (50, 16), (32, 12)]

@Suite("Odd One Out and the station hunt on the full screen")
struct OutsiderHuntScreenTests {
    /// The welcome for `role`: Ann of team Red, or a board or operator (host clock 1000 ms behind the client).
    static func welcome(_ role: Role) -> String {
        role == .player
            ? Fixtures.welcome : #"{"type":"welcome","room":"ABCD","role":"\#(role.rawValue)","hostTime":9000}"#
    }

    static func outsider(_ messages: [String], role: Role = .player) -> ClientState {
        Fixtures.state(role: role, [welcome(role), Fixtures.lobby, ModeFixtures.outsiderGame] + messages)
    }

    static func hunt(_ messages: [String], role: Role = .player) -> ClientState {
        Fixtures.state(role: role, [welcome(role), Fixtures.lobby, ModeFixtures.huntGame] + messages)
    }

    @Test(arguments: modeSizes.indices)
    func aRoundShowsTheFourNumberedWordsTheClockAndWhoLockedIn(size: Int) {
        let state = Self.outsider([ModeFixtures.puzzle, ModeFixtures.lockedBlue])
        let text = screen(state, modeSizes[size]).text
        if modeSizes[size].height >= 16 {
            for word in ["[1] elephant", "[2] sparrow", "[3] eagle", "[4] pigeon"] { #expect(text.contains(word)) }
            #expect(text.contains("2. Blue"))
            #expect(text.contains("Time left"))
        }
        #expect(text.contains("Round 2 of 10"))
        if modeSizes[size].width >= 80 { #expect(text.contains("[1]-[4] pick the odd one out")) }
        checkStyled(state, modeSizes[size])
    }

    @Test func theClockCountsDownAndAPickShowsOnlyToTheTeam() {
        let open = Self.outsider([ModeFixtures.puzzle])
        // host deadline 29 000 = client 30 000; at 10 100 that is 19.9 s
        #expect(screen(open, (80, 24), now: 10_100).text.contains("Time left   19.9 s"))
        #expect(screen(open, (80, 24), now: 26_000).text.contains("Time left   4.0 s"))
        let picked = Self.outsider([ModeFixtures.puzzle, ModeFixtures.picked, ModeFixtures.lockedRed])
        let text = screen(picked, (80, 24)).text
        #expect(text.contains("Your team picked 1 (elephant) — locked in."))
        #expect(text.contains("[1] elephant ◀ your pick") && !text.contains("elephant ✔"), "a pick is not a verdict")
        #expect(text.contains("1. Red"))
    }

    @Test func lockInsFollowTheirUpdatesAndAMissedOneAsksForTheWholeList() throws {
        let followed = Self.outsider([ModeFixtures.puzzle, ModeFixtures.lockedBlue, ModeFixtures.lockedGreen])
        let view = try #require(followed.game as? OutsiderView)
        #expect(view.locked.map(\.team) == ["Red", "Blue", "Green"])
        #expect(followed.awaitingResync.isEmpty)
        // The update after the first lock-in went missing: the client asks once and keeps what it had.
        var lossy = Self.outsider([ModeFixtures.puzzle, ModeFixtures.lockedRed])
        let asked = lossy.apply(Fixtures.json(ModeFixtures.lockedGreen), at: 10_000)
        #expect(asked == [.send(.resync(state: "lockedIn"))])
        #expect((lossy.game as? OutsiderView)?.locked.map(\.team) == ["Red"])
        _ = lossy.apply(Fixtures.json(ModeFixtures.lockedBlue), at: 10_100)
        #expect(lossy.awaitingResync.isEmpty, "the whole list answers the resync")
        // A new round's list starts afresh.
        let next = ModeFixtures.puzzle.replacingOccurrences(of: #""number":2"#, with: #""number":3"#)
        _ = lossy.apply(Fixtures.json(next), at: 10_200)
        #expect((lossy.game as? OutsiderView)?.locked.isEmpty == true)
    }

    @Test func progressFollowsItsUpdatesAndAnUpdateThatDoesNotAddUpAsksForTheWhole() throws {
        let board = Self.hunt([ModeFixtures.progress, ModeFixtures.redDone], role: .board)
        let rows = try #require(board.game as? HuntView).progress
        #expect(rows.map(\.team) == ["Red", "Blue"] && rows[0].finished && !rows[1].finished)
        var wrong = Self.hunt([ModeFixtures.progress], role: .board)
        let miscounted = ModeFixtures.redDone.replacingOccurrences(of: #""count":2"#, with: #""count":3"#)
        #expect(wrong.apply(Fixtures.json(miscounted), at: 10_000) == [.send(.resync(state: "progress"))])
        #expect((wrong.game as? HuntView)?.progress.first?.finished == false)
    }

    @Test func keysPickOnlyDuringARoundAndOnlyOnce() throws {
        var state = Self.outsider([ModeFixtures.puzzle])
        let actions = state.handle(.character("3"), at: 10_500)
        let pick = try #require(actions.compactMap(sent).first)
        #expect(pick["type"] == "pick" && pick["choice"] == 3 && pick["t"] == 10_500)
        _ = state.apply(Fixtures.json(ModeFixtures.picked), at: 10_600)
        #expect(state.handle(.character("2"), at: 10_700).isEmpty)
        #expect(state.notice?.text.contains("already picked") == true)
        // Plain mode: a typed word of the round is a pick.
        var plain = Self.outsider([ModeFixtures.puzzle])
        let typed = plain.handle(line: "Eagle", at: 10_800)
        #expect(typed.compactMap(sent).first?["word"] == "Eagle")
        #expect(plain.handle(line: "pick 4", at: 10_900).compactMap(sent).first?["choice"] == 4)
        var board = Self.outsider([ModeFixtures.puzzle], role: .board)
        #expect(board.handle(.character("1"), at: 11_000).isEmpty)
    }

    @Test(arguments: modeSizes.indices)
    func theRevealShowsTheOutsiderTheLinkAndEveryResult(size: Int) {
        let state = Self.outsider([ModeFixtures.puzzle, ModeFixtures.outsiderReveal])
        let lines = screen(state, modeSizes[size])
        let text = lines.text
        #expect(text.contains("the odd one out was"))
        if modeSizes[size].height >= 24 {
            #expect(showsLetters("ELEPHANT", in: lines, width: modeSizes[size].width))
            #expect(text.contains("Red ✔ elephant +180 (4.0 s)"))
            #expect(text.contains("Blue ✘ eagle (6.1 s)"))
            #expect(text.contains("Green —"))
            #expect(text.contains("Next round in"))
        }
        let final = Self.outsider([ModeFixtures.puzzle, ModeFixtures.outsiderFinal])
        #expect(screen(final, modeSizes[size]).text.contains(modeSizes[size].height >= 16 ? "Red wins!" : "FINAL"))
    }

    @Test(arguments: modeSizes.indices)
    func aHuntPlayerSeesItsClueThenItsTaskAndEveryonesProgress(size: Int) {
        let travelling = Self.hunt([ModeFixtures.clue, ModeFixtures.progress])
        let text = screen(travelling, modeSizes[size]).text
        #expect(text.contains("Station 2 of 3"))
        #expect(text.contains("Code ›"))
        if modeSizes[size].height >= 24 {
            #expect(text.contains("between the stapler"))
            #expect(text.contains("1/3 +1:00"))
            #expect(text.contains("Your penalties so far: +1:00"))
        }
        let puzzle = Self.hunt([ModeFixtures.huntPuzzle, ModeFixtures.progress])
        let puzzleText = screen(puzzle, modeSizes[size]).text
        #expect(puzzleText.contains("which is the odd one out?") || puzzleText.contains("Station 1 of 3"))
        if modeSizes[size].height >= 16 { #expect(puzzleText.contains("[2] dog")) }
        if modeSizes[size].height >= 24 {
            #expect(puzzleText.contains("2 hints available (Tab; each adds time)"), "none taken yet: \(puzzleText)")
        }
        let question = Self.hunt([ModeFixtures.question, ModeFixtures.hint, ModeFixtures.progress])
        let questionText = screen(question, modeSizes[size]).text
        #expect(questionText.contains("Your answer ›"))
        if modeSizes[size].height >= 24 {
            #expect(questionText.contains("What do you sharpen before writing?"))
            #expect(questionText.contains("(6 letters)"))
            #expect(questionText.contains("Hint 1 (+30 s): It has lead."))
        }
        checkStyled(question, modeSizes[size])
    }

    @Test func huntKeysTypeACodeOrAnAnswerAndPickAtAPuzzle() throws {
        var state = Self.hunt([ModeFixtures.clue])
        for character in "frdg" { #expect(state.handle(.character(character), at: 10_500).isEmpty) }
        #expect(screen(state, (80, 24)).text.contains("Code › frdg"))
        let checkIn = try #require(state.handle(.enter, at: 10_600).compactMap(sent).first)
        #expect(checkIn["type"] == "checkin" && checkIn["code"] == "frdg")
        #expect(state.ui.answer.isEmpty)
        _ = state.apply(Fixtures.json(ModeFixtures.huntPuzzle), at: 10_700)
        // A wrong pick or a hint adds time, so one key only asks: the same key (or Enter) does it, another declines.
        #expect(state.handle(.character("2"), at: 10_800).isEmpty)
        #expect(screen(state, (80, 24)).text.contains("Press 2 again to pick dog (or Enter; a wrong pick adds 30 s"))
        #expect(state.handle(.character("2"), at: 10_810).compactMap(sent).first?["choice"] == 2)
        #expect(state.handle(.character("3"), at: 10_820).isEmpty)
        #expect(state.handle(.enter, at: 10_830).compactMap(sent).first?["choice"] == 3)
        #expect(state.handle(.character("4"), at: 10_840).isEmpty)
        #expect(state.handle(.character("x"), at: 10_850).isEmpty, "another key says no")
        #expect(state.ui.confirmation == nil)
        #expect(state.handle(.tab, at: 10_900).isEmpty)
        #expect(state.ui.confirmation?.question.hasPrefix("Press Tab again for a hint (+20 s to your time") == true)
        #expect(state.handle(.tab, at: 10_910).compactMap(sent).first?["type"] == "hint")
        _ = state.apply(Fixtures.json(ModeFixtures.question), at: 11_000)
        for character in "pencil" { _ = state.handle(.character(character), at: 11_100) }
        let answer = try #require(state.handle(.enter, at: 11_200).compactMap(sent).first)
        #expect(answer["type"] == "answer" && answer["text"] == "pencil")
        // Plain mode at a question: every line is the answer (a number too), but `hint`, `checkin …` and `/…`.
        var plain = Self.hunt([ModeFixtures.question])
        #expect((plain.game as? any AwaitsTypedLines)?.awaitsTypedLine(plain) == true)
        #expect(plain.handle(line: "checkin K7QX", at: 11_300).compactMap(sent).first?["code"] == "K7QX")
        #expect(plain.handle(line: "a pen", at: 11_400).compactMap(sent).first?["text"] == "a pen")
        #expect(plain.handle(line: "4", at: 11_450).compactMap(sent).first?["text"] == "4")
        #expect(plain.handle(line: "scores", at: 11_460).compactMap(sent).first?["text"] == "scores")
        #expect(plain.handle(line: "/scores", at: 11_470).compactMap(sent).first?["type"] == "scores")
        #expect(plain.handle(line: "hint", at: 11_480).compactMap(sent).first?["type"] == "hint")
        #expect(plain.handle(line: "graphite stick", at: 11_500).compactMap(sent).first?["text"] == "graphite stick")
        // Following a clue, commands work without the slash.
        var walking = Self.hunt([ModeFixtures.clue])
        #expect((walking.game as? any AwaitsTypedLines)?.awaitsTypedLine(walking) == false)
        #expect(walking.handle(line: "scores", at: 11_600).compactMap(sent).first?["type"] == "scores")
    }

    @Test(arguments: modeSizes.indices)
    func boardsAndOperatorsSeeProgressTheLogAndTheHallOfFame(size: Int) {
        let board = Self.hunt([ModeFixtures.progress, ModeFixtures.redDone], role: .board)
        let text = screen(board, modeSizes[size]).text
        #expect(text.contains("Progress"))
        #expect(text.contains("done 12:34"))
        #expect(!text.contains("Code ›"))
        let admin = Self.hunt([ModeFixtures.progress, ModeFixtures.stationSolved], role: .admin)
        #expect(
            screen(admin, modeSizes[size]).text.contains("1:04  Red solved Kitchen (1/3)")
                || modeSizes[size].height < 16)
        let over = Self.hunt([ModeFixtures.progress, ModeFixtures.huntOver])
        let overText = screen(over, modeSizes[size]).text
        #expect(overText.contains("HUNT OVER"))
        // Team names in one column: the times line up.
        #expect(
            overText.contains("#1  Red   3 stations  13:34 (+1:00 penalties)  ◀ your team")
                || modeSizes[size].width < 60)
        #expect(overText.contains("#2  Blue  1 station  5:00") || modeSizes[size].width < 50)
        if modeSizes[size].height >= 16 {
            #expect(overText.contains("Hall of fame"))
            #expect(overText.contains("#1  Owls  11:40  2025-05-30"))
            #expect(overText.contains("#2  Red   13:34  2025-06-01"))
        }
        let finished = Self.hunt([ModeFixtures.progress, ModeFixtures.redDone])
        #expect(screen(finished, modeSizes[size]).text.contains("You found every station!"))
    }
}
