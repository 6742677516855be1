import Protocol
import Testing

/// The two modes' actions read and write the same JSON, their text commands parse, and their lines read as README
/// shows them.
@Suite("Odd One Out and hunt wire")
struct OutsiderHuntWireTests {
    @Test func picksReadAChoiceOrAWordWithClearErrors() throws {
        let byNumber = try OutsiderWire.Action.decode(PlayRequest(type: "pick", fields: ["choice": 2, "t": 99]))
        #expect(byNumber == .pick(.number(2), pressedAt: 99))
        #expect(byNumber.request.json == ["type": "pick", "choice": 2, "t": 99])
        #expect(
            try OutsiderWire.Action.decode(PlayRequest(type: "pick", fields: ["word": "Dog"]))
                == .pick(.word("Dog"), pressedAt: nil))
        for fields: JSONObject in [["choice": 5], ["choice": "two"], [:], ["word": 3]] {
            do {
                _ = try OutsiderWire.Action.decode(PlayRequest(type: "pick", fields: fields))
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.code == .badField, "\(fields): \(error)")
            }
        }
        #expect(throws: ProtocolError.self) { _ = try OutsiderWire.Action.decode(PlayRequest(type: "buzz")) }
        #expect(try HuntWire.Action.decode(PlayRequest(type: "checkin", fields: ["code": "FRDG"])) == .checkIn("FRDG"))
        #expect(throws: ProtocolError.self) {
            _ = try HuntWire.Action.decode(
                PlayRequest(type: "checkin", fields: ["code": .string(String(repeating: "A", count: 33))]))
        }
        #expect(try HuntWire.Action.decode(PlayRequest(type: "hint")).request.json == ["type": "hint"])
    }

    @Test func textCommandsOfBothModes() {
        #expect(OutsiderWire.Action.parse(text: "3") == .action(.pick(.number(3), pressedAt: nil)))
        #expect(
            OutsiderWire.Action.parse(text: "pick guinea pig") == .action(.pick(.word("guinea pig"), pressedAt: nil)))
        #expect(OutsiderWire.Action.parse(text: "pick 4") == .action(.pick(.number(4), pressedAt: nil)))
        #expect(OutsiderWire.Action.parse(text: "5") == nil)
        #expect(OutsiderWire.Action.parse(text: "dog") == nil, "a bare word is free text, read against the round")
        if case .usage? = OutsiderWire.Action.parse(text: "pick") {} else { Issue.record("pick alone shows its usage") }
        #expect(HuntWire.Action.parse(text: "checkin k7qx") == .action(.checkIn("k7qx")))
        #expect(HuntWire.Action.parse(text: "check in FRDG") == .action(.checkIn("FRDG")))
        #expect(HuntWire.Action.parse(text: "code FRDG") == .action(.checkIn("FRDG")))
        #expect(HuntWire.Action.parse(text: "hint") == .action(.hint))
        #expect(HuntWire.Action.parse(text: "a pencil") == .action(.answer("pencil")))
        #expect(HuntWire.Action.parse(text: "2") == .action(.pick(.number(2))))
        if case .usage? = HuntWire.Action.parse(text: "checkin") {
        } else {
            Issue.record("checkin alone shows its usage")
        }
        #expect(HuntWire.Action.parse(text: "pencil") == nil)
    }

    @Test func linesReadAsTheReadmeShowsThem() {
        let puzzle = OutsiderWire.Puzzle(
            number: 1, of: 10, words: ["snake", "dog", "cat", "rabbit"], category: "Animals", difficulty: "easy",
            points: 100, remainingMs: 20_000, deadline: 30_000)
        #expect(
            puzzle.line(for: Perspective())
                == "Round 1/10 (Animals, 100 points): which is the odd one out?  "
                + "1 snake · 2 dog · 3 cat · 4 rabbit  · 20 s")
        // A player reads how to pick: until the team picks, a line is the pick.
        #expect(
            puzzle.line(for: Perspective(team: "Red"))
                == "Round 1/10 (Animals, 100 points): which is the odd one out?  "
                + "1 snake · 2 dog · 3 cat · 4 rabbit  · 20 s  Type 1-4 or the word (commands now start with /).")
        let question = HuntWire.Question(
            number: 2, of: 3, text: "What do you sharpen before writing?", letters: 6, hints: 2, hintCosts: [30, 60])
        #expect(
            question.line(for: Perspective(team: "Red"))
                == "Station 2/3: What do you sharpen before writing?  (6 letters)  Every line you type is your answer "
                + "now; a wrong one adds time. `hint` shows a hint (+30 s, then +60 s); other commands now start with /."
        )
        let station = OutsiderWire.Puzzle(number: 1, of: 3, words: ["green", "dog", "blue", "red"], hints: 0)
        #expect(
            station.line(for: Perspective(team: "Red"))
                == "Station 1/3: which is the odd one out?  1 green · 2 dog · 3 blue · 4 red  Type 1-4 or the word; a "
                + "wrong pick adds time. Commands now start with / (/help, /scores).")
        let reveal = OutsiderWire.Reveal(
            number: 1, outsider: "snake", link: "they have fur",
            results: [
                .init(team: "Red", choice: 1, word: "snake", correct: true, points: 95, ms: 2_100),
                .init(team: "Blue", choice: 3, word: "cat", correct: false, points: 0, ms: 3_400),
                .init(team: "Green", choice: nil, word: nil, correct: false, points: 0, ms: nil),
            ],
            scores: [
                .init(team: "Red", score: 95, rank: 1, correct: 1), .init(team: "Blue", score: 0, rank: 2, correct: 0),
                .init(team: "Green", score: 0, rank: 2, correct: 0),
            ], nextInMs: 5_000, deadline: 35_000, last: false)
        #expect(
            reveal.line(for: Perspective())
                == "The odd one out was: snake (the others: they have fur). "
                + "Red ✔ snake +95 (2.1 s) · Blue ✘ cat (3.4 s) · Green —. Scores: #1 Red 95 · #2 Blue 0 · #2 Green 0. Next round in 5 s."
        )
        let red = OutsiderWire.LockIn(team: "Red", position: 1)
        let blue = OutsiderWire.LockIn(team: "Blue", position: 2)
        let green = OutsiderWire.LockIn(team: "Green", position: 3)
        #expect(OutsiderWire.LockedIn(teams: [red]).line(for: Perspective(team: "red")) == "Your team locked in (1st).")
        #expect(
            OutsiderWire.LockedIn(teams: [red, blue]).line(for: Perspective(team: "Red"))
                == "Locked in: Your team (1st) · Blue (2nd).")
        #expect(
            OutsiderWire.LockedInUpdate(seq: 3, count: 3, items: [green]).line(for: Perspective(team: "Red"))
                == "Green locked in (3rd).")
        #expect(
            HuntWire.ProgressUpdate(
                seq: 2, count: 2,
                items: [.init(team: "Red", station: 1, of: 3, elapsedMs: 184_000, penaltiesMs: 0, finished: false)]
            ).line(for: Perspective()) == "Progress: Red 1/3")
        #expect(
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(Wording.ordinal) == [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
            ])
        #expect(Wording.clock(754_000) == "12:34")
        #expect(
            HuntWire.TeamProgress(team: "Red", station: 2, of: 5, elapsedMs: 1, penaltiesMs: 30_000, finished: false)
                .summary
                == "Red 2/5 (+0:30 penalties)", "a bare (+0:30) does not say what it is")
    }

    @Test func aClosedRoundInTheCatchUpShowsNoEmptyTimeAndNoPrompt() throws {
        let closed = OutsiderWire.Puzzle(
            number: 2, of: 5, words: ["cat", "dog", "cow", "car"], category: nil, difficulty: "easy", points: 100,
            remainingMs: nil, deadline: nil)
        let line = try #require(closed.line(for: Perspective(team: "Red", name: "Ann")))
        #expect(line == "Round 2/5 (100 points), closed: 1 cat · 2 dog · 3 cow · 4 car", "\(line)")
        let open = OutsiderWire.Puzzle(
            number: 2, of: 5, words: ["cat", "dog", "cow", "car"], category: nil, difficulty: "easy", points: 100,
            remainingMs: 12_000, deadline: 30_000)
        #expect(open.line(for: Perspective(team: "Red", name: "Ann"))?.contains("· 12 s  Type 1-4") == true)
    }
}
