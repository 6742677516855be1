import Foundation
import Protocol
import TestSupport
import Testing

@testable import Client

/// No single key costs a point by accident: the key handling as a pure state machine (state, key → state, actions).
@Suite("Keys that cost points ask first; typing before the turn is a draft")
struct KeySafetyTests {
    /// Question 3 with a shake costing 75 points.
    static let question = Fixtures.question.replacingOccurrences(
        of: #""deadline":39000}"#, with: #""deadline":39000,"shakeCost":75}"#)
    static let buzzedRed =
        #"{"type":"buzzed","order":["Red"],"entries":[{"team":"Red","offsetMs":0,"uncertaintyMs":3,"tie":false}],"#
        + #""remainingMs":20000,"deadline":29000}"#

    /// Ann of Red looking at question 3, nobody buzzed yet.
    static var open: ClientState { Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, question]) }

    /// Types `text` key by key and returns every action that came out.
    static func type(_ text: String, into state: inout ClientState, at now: Int64 = 10_100) -> [ClientAction] {
        text.flatMap { state.handle(.character($0), at: now) }
    }

    @Test func typingAnAnswerBeforeBuzzingNeverBuzzesOrShakes() throws {
        var state = KeySafetyTests.open
        let actions = KeySafetyTests.type("napoleon bonaparte is", into: &state)
        #expect(actions.isEmpty, "no key of an answer fires: not the space, not the s")
        #expect(state.ui.answer == "napoleon bonaparte is")
        #expect(state.ui.confirmation == nil)
        let row = try #require((state.game as? any ShowsInputRow)?.inputRow(state))
        #expect(row.map(\.text).joined().contains("Draft answer › napoleon bonaparte is"))

        // Enter with a draft buzzes and keeps the draft for the turn.
        let buzz = state.handle(.enter, at: 10_200)
        #expect(buzz.compactMap(sent) == [.object(["type": "buzz", "t": 10_200])])
        #expect(state.ui.answer == "napoleon bonaparte is")
        _ = state.apply(Fixtures.json(KeySafetyTests.buzzedRed), at: 10_300)
        // Waiting in line, Enter does not buzz again: it says where the team stands.
        #expect(state.handle(.enter, at: 10_400).isEmpty)
        #expect(state.notice?.text.hasPrefix("Red is 1st in line") == true)
        // The turn comes: the draft is the answer, Enter sends it.
        _ = state.apply(Fixtures.json(Fixtures.turnRed), at: 10_500)
        #expect(state.ui.answer == "napoleon bonaparte is")
        let answer = state.handle(.enter, at: 10_600).compactMap(sent)
        #expect(answer == [.object(["type": "answer", "text": "napoleon bonaparte is"])])
    }

    @Test func spaceAndEnterBuzzOnlyOnAnEmptyLineAndSayWhatTheyDo() {
        var state = KeySafetyTests.open
        #expect(ScreenRenderer.keyHints(state, now: 10_100).contains("[Space]/[Enter] buzz"))
        #expect(state.handle(.character(" "), at: 10_100).compactMap(sent).map(\.typeName) == ["buzz"])
        _ = KeySafetyTests.type("x", into: &state)
        #expect(state.handle(.character(" "), at: 10_100).isEmpty, "inside a draft Space is a space")
        #expect(state.ui.answer == "x ")
        #expect(ScreenRenderer.keyHints(state, now: 10_100).contains("Enter buzzes (your answer waits"))
    }

    @Test func aShakeAsksFirstAndShowsItsCost() {
        var state = KeySafetyTests.open
        #expect(state.handle(.character("s"), at: 10_100).isEmpty)
        #expect(state.ui.confirmation?.question.hasPrefix("shake: −75 points, press s again") == true)
        // typing on keeps the s as the start of a word, and nothing is shaken
        #expect(KeySafetyTests.type("nake", into: &state).isEmpty)
        #expect(state.ui.answer == "snake" && state.ui.confirmation == nil)
        _ = state.handle(.escape, at: 10_100)
        #expect(state.ui.answer.isEmpty)
        // any other key says no
        _ = state.handle(.character("s"), at: 10_100)
        #expect(state.handle(.escape, at: 10_100).isEmpty)
        #expect(state.notice?.text == "Not shaken." && state.ui.answer.isEmpty)
        // pressing s five times shakes twice, each time after being told the cost
        let shakes = KeySafetyTests.type("sssss", into: &state).compactMap(sent).filter { $0.typeName == "shake" }
        #expect(shakes.count == 2)
        #expect(state.ui.confirmation != nil, "the fifth s asks again")
    }

    @Test func onTheTurnTabAsksBeforeShakingAndLettersAreTheAnswer() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, KeySafetyTests.question, Fixtures.turnRed])
        #expect(KeySafetyTests.type("sss", into: &state).isEmpty)
        #expect(state.ui.answer == "sss")
        #expect(state.handle(.tab, at: 10_100).isEmpty)
        #expect(state.ui.confirmation?.question.hasPrefix("shake: −75 points, press Tab again") == true)
        #expect(state.handle(.tab, at: 10_100).compactMap(sent).map(\.typeName) == ["shake"])
        #expect(state.ui.answer == "sss")
    }

    @Test func aTeamThatIsOutTypesNothingAndIsToldWhy() {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.shakyGame, KeySafetyTests.question, Fixtures.buzzed, Fixtures.turnRed,
            Fixtures.wrongRed, Fixtures.turnBlue,
        ])
        #expect(KeySafetyTests.type("hello", into: &state).isEmpty)
        #expect(state.ui.answer.isEmpty)
        #expect(state.notice?.text.hasPrefix("Your team is out for this question") == true)
        #expect(state.handle(.enter, at: 10_100).isEmpty)
        #expect(ScreenRenderer.keyHints(state, now: 10_100).hasPrefix("your team is out for this question"))
        #expect(state.handle(.tab, at: 10_100).isEmpty && state.ui.confirmation == nil)
    }

    @Test func theFooterOffersOnlyWhatIsPossible() {
        var state = KeySafetyTests.open
        _ = state.apply(Fixtures.json(Fixtures.buzzed), at: 10_100)
        let hints = ScreenRenderer.keyHints(state, now: 10_100)
        #expect(hints.hasPrefix("Red is 1st in line"))
        #expect(!hints.contains("buzz"))
        // Bob of Blue waits behind Red.
        let blue = Fixtures.state(
            name: "Bob", team: "Blue",
            [
                Fixtures.welcome.replacingOccurrences(of: "Ann", with: "Bob").replacingOccurrences(
                    of: "Red", with: "Blue"),
                Fixtures.shakyGame, KeySafetyTests.question, Fixtures.buzzed, Fixtures.turnRed,
            ])
        #expect(ScreenRenderer.keyHints(blue, now: 10_100).hasPrefix("Blue is 2nd in line"))
        // no shake once it would give the answer away (5 letters, 2 in place: one more leaves 2 free; 3 leaves 1)
        let nearlyDone = KeySafetyTests.question.replacingOccurrences(of: #""fixed":0"#, with: #""fixed":3"#)
        var late = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, nearlyDone])
        #expect(!ScreenRenderer.keyHints(late, now: 10_100).contains("shake"))
        _ = late.handle(.character("s"), at: 10_100)
        #expect(late.ui.confirmation == nil && late.ui.answer == "s", "s is only a letter then")
    }

    @Test func quittingDuringAQuestionAsksAndTypingOnKeepsTheLetters() {
        var state = KeySafetyTests.open
        #expect(KeySafetyTests.type("quebec", into: &state).isEmpty)
        #expect(state.ui.answer == "quebec")
        _ = state.handle(.control(0x15), at: 10_100)
        _ = state.handle(.character("q"), at: 10_100)
        #expect(state.ui.confirmation?.isQuit == true)
        #expect(state.handle(.character("y"), at: 10_100) == [.quit(status: 0, sayBye: true)])
    }

    // MARK: Plain mode: on turn, a line is the answer

    @Test func onTurnAPlainLineIsTheAnswerAndCommandsNeedASlash() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.turnRed])
        for word in ["pack", "help", "next", "scores", "quit", "s", "b"] {
            #expect(
                state.handle(line: word, at: 1).compactMap(sent) == [
                    .object(["type": "answer", "text": .string(word)])
                ])
        }
        #expect(state.handle(line: "/quit", at: 1) == [.quit(status: 0, sayBye: true)])
        #expect(state.handle(line: "/scores", at: 1).compactMap(sent).map(\.typeName) == ["scores"])
        guard case .print(let help)? = state.handle(line: "/help", at: 1).first else {
            Issue.record("/help printed nothing")
            return
        }
        #expect(help.contains("commands then start"))
        #expect(state.handle(line: "/s", at: 1).compactMap(sent).map(\.typeName) == ["shake"])
        // Off turn the words are commands as before.
        var off = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.turnBlue])
        #expect(off.handle(line: "scores", at: 1).compactMap(sent).map(\.typeName) == ["scores"])
        #expect(off.handle(line: "quit", at: 1) == [.quit(status: 0, sayBye: true)])
    }

    @Test func theChoosingQueensPlainLinesAreHerOrder() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Ann")])
        #expect(
            state.handle(line: "No. 2 sings to No. 1", at: 1).compactMap(sent)
                == [.object(["type": "command", "text": "No. 2 sings to No. 1", "save": false])])
        #expect(
            state.handle(line: "pick b12", at: 1).compactMap(sent)
                == [.object(["type": "command", "template": "b12", "save": false])])
        #expect(
            state.handle(line: "Say cheese, #1", at: 1).compactMap(sent)
                == [.object(["type": "command", "text": "Say cheese, #1", "save": false])])
        #expect(state.handle(line: "/commands sing", at: 1).compactMap(sent).map(\.typeName) == ["library"])
        // A citizen asks for their number again.
        var citizen = Fixtures.state([Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid")])
        #expect(citizen.handle(line: "number", at: 1).compactMap(sent) == [.object(["type": "number"])])
    }

    // MARK: The Queen's number

    @Test func theNumberShowsWhileHIsHeldAndHidesAfter() {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Cid"), Fixtures.secret,
        ])
        #expect(state.queen?.isSecretShown(at: 10_100) == false)
        _ = state.handle(.character("h"), at: 10_100)
        #expect(state.queen?.isSecretShown(at: 12_000) == true)
        // a held key repeats: each repeat keeps it shown
        for time in stride(from: Int64(10_200), through: 15_000, by: 100) {
            _ = state.handle(.character("h"), at: time)
        }
        #expect(state.queen?.isSecretShown(at: 17_900) == true)
        #expect(state.queen?.isSecretShown(at: 18_100) == false)
        _ = state.handle(.character("h"), at: 20_000)
        _ = state.handle(.escape, at: 20_100)
        #expect(state.queen?.isSecretShown(at: 20_200) == false)
        // a new round hides it
        _ = state.handle(.character("h"), at: 21_000)
        _ = state.apply(
            Fixtures.json(Fixtures.round(queen: "Bob").replacingOccurrences(of: #""number":1"#, with: #""number":2"#)),
            at: 21_100)
        #expect(state.queen?.isSecretShown(at: 21_200) == false)
    }
}

/// The places the client keeps between runs: one token per host, room and name.
@Suite("Kept places")
struct ResumePlacesTests {
    static func place(_ name: String, room: String = "ABCD", at time: Int64 = 1_000) -> ResumePlaces.Place {
        ResumePlaces.Place(
            host: "10.0.0.1:4747", room: room, name: name, team: "Red", token: "t-\(name)", savedAt: time)
    }

    @Test func placesAreFoundByHostRoomAndNameAndForgotten() {
        var places = ResumePlaces()
        places.keep(ResumePlacesTests.place("Ann"))
        places.keep(ResumePlacesTests.place("Bob", at: 2_000))
        places.keep(ResumePlacesTests.place("Ann", room: "WXYZ"))
        #expect(places.place(host: "10.0.0.1:4747", room: "ABCD", name: "ann", now: 3_000)?.token == "t-Ann")
        #expect(places.place(host: "10.0.0.1:4747", room: "ABCD", name: nil, now: 3_000)?.name == "Bob", "newest")
        #expect(places.place(host: "10.0.0.2:4747", room: "ABCD", name: "Ann", now: 3_000) == nil)
        // a token older than the kept time is not tried
        #expect(places.place(host: "10.0.0.1:4747", room: "ABCD", name: "Ann", now: 1_000 + 12 * 3600) == nil)
        places.keep(ResumePlacesTests.place("Ann", at: 2_500))
        #expect(places.places.filter { $0.name == "Ann" && $0.room == "ABCD" }.count == 1, "replaced, not added")
        places.forget(host: "10.0.0.1:4747", room: "ABCD", name: "ANN")
        #expect(places.place(host: "10.0.0.1:4747", room: "ABCD", name: "Ann", now: 3_000) == nil)
        #expect(places.place(host: "10.0.0.1:4747", room: "WXYZ", name: "Ann", now: 3_000) != nil)
    }

    @Test func theFileLivesInTheStateFolderAndIsWrittenPrivately() throws {
        #expect(
            ResumeFile.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path.hasSuffix("/places.json")
                == true)
        #if !canImport(Darwin)
            #expect(ResumeFile.standard(environment: ["XDG_STATE_HOME": "/s"])?.path == "/s/partyline/places.json")
            #expect(ResumeFile.standard(environment: ["HOME": "/h"])?.path == "/h/.local/state/partyline/places.json")
        #endif
        #expect(ResumeFile.standard(environment: [:]) == nil)
        let folder = TemporaryDirectory()
        let file = ResumeFile(path: folder.path + "/deep/partyline/places.json")
        var places = ResumePlaces()
        places.keep(ResumePlacesTests.place("Ann"))
        try file.save(places)
        #expect(file.load() == places)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(ResumeFile(path: folder.path + "/missing.json").load() == ResumePlaces())
        #expect(try ClientOptions.parse(["--forget"]).0.isForgetting)
    }
}
