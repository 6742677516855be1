import Protocol
import Testing

@testable import Client

/// Let Me Fly on the client: the meter and the flight drawn from the synced clock, keys to presses, and every
/// screen within its width down to small terminals, in plain text (as with NO_COLOR and no escapes).
@Suite("Let Me Fly on the full screen")
struct FlyRendererTests {
    /// The sizes checked: a classic terminal and smaller ones.
    static let sizes: [(width: Int, height: Int)] = [(80, 24), (60, 18), (40, 12), (30, 10)]

    static let game =
        #"{"type":"game","game":"fly","players":["Ann","Bob","Cy"],"rounds":3,"roundSeconds":30,"periodMs":1600,"topSpeed":20}"#
    static let phones =
        #"{"type":"phones","list":[{"id":"brick","name":"Old brick","multiplier":0.8,"catchWindowMs":250},{"id":"flip","name":"Flip phone","multiplier":0.9,"catchWindowMs":200},{"id":"midrange","name":"Mid-range","multiplier":1,"catchWindowMs":150},{"id":"pro","name":"Pro","multiplier":1.2,"catchWindowMs":110},{"id":"flagship","name":"Flagship","multiplier":1.5,"catchWindowMs":70}],"default":"midrange"}"#
    /// Round 1: the sweep starts at host 9 000 (client 10 000), throwing closes at host 39 000.
    static let round =
        #"{"type":"round","number":1,"of":3,"remainingMs":30000,"sweepStart":9000,"periodMs":1600,"deadline":39000}"#
    /// Ann at full power at host 9 800: 4.077 s up, 20.383 m, down at host 13 877.
    static let annThrown =
        #"{"type":"thrown","player":"Ann","team":"Red","phone":"flagship","power":100,"heightM":20.383,"airMs":4077,"landsAt":13877}"#
    static let annCaught =
        #"{"type":"caught","player":"Ann","team":"Red","phone":"flagship","quality":"clean","offsetMs":12,"heightM":20.383,"points":31,"streak":1,"score":31}"#
    static let bobThrown =
        #"{"type":"thrown","player":"Bob","team":"Blue","phone":"midrange","power":40,"heightM":3.262,"airMs":1631,"landsAt":11631}"#
    static let bobDropped =
        #"{"type":"caught","player":"Bob","team":"Blue","phone":"midrange","quality":"dropped","offsetMs":null,"heightM":3.262,"points":0,"streak":0,"score":0}"#
    static let challenged = #"{"type":"challenged","from":"Bob","to":"Ann","heightM":3.262}"#
    static let roundOver =
        #"{"type":"roundOver","number":1,"last":false,"missed":["Cy"],"ranking":[{"player":"Ann","team":"Red","phone":"flagship","score":31,"rank":1,"bestM":20.383,"streak":1},{"player":"Bob","team":"Blue","phone":"midrange","score":0,"rank":2,"bestM":0,"streak":0},{"player":"Cy","team":"Red","phone":"midrange","score":0,"rank":2,"bestM":0,"streak":0}],"nextInMs":5000,"deadline":19000}"#
    static let scoreboard =
        #"{"type":"scoreboard","final":true,"ranking":[{"player":"Ann","team":"Red","phone":"flagship","score":31,"rank":1,"bestM":20.383,"streak":1},{"player":"Bob","team":"Blue","phone":"midrange","score":0,"rank":2,"bestM":0,"streak":0}],"teams":[{"team":"Red","score":31,"rank":1},{"team":"Blue","score":0,"rank":2}]}"#
    static let allTime =
        #"{"type":"leaderboard","scope":"allTime","players":[{"rank":1,"player":"Ann","heightM":20.383,"phone":"flagship","points":31,"date":"2025-06-14T21:03:11Z"}],"phones":[{"rank":1,"phone":"flagship","heightM":20.383,"player":"Ann","throwCount":1,"caughtCount":1}]}"#

    static func state(_ messages: [String], role: Role = .player) -> ClientState {
        var welcome = Fixtures.welcome
        if role == .board { welcome = #"{"type":"welcome","room":"ABCD","role":"board","hostTime":9000}"# }
        return Fixtures.state(role: role, [welcome, Fixtures.lobby, game, phones, round] + messages)
    }

    /// The screen at client time `now` at every size, each checked for its shape; the text at 80×24.
    static func screens(_ state: ClientState, now: Int64) -> [String] {
        var first: [String] = []
        for size in sizes {
            let lines = screen(state, size, now: now)
            if first.isEmpty { first = lines }
        }
        return first
    }

    @Test func thePowerMeterSweepsWithTheSyncedClock() throws {
        let state = FlyRendererTests.state([])
        // Client = host + 1000: the sweep starts at client 10 000.
        let quarter = FlyRendererTests.screens(state, now: 10_400).text
        #expect(quarter.contains("Power") && quarter.contains(" 50 %"), "\(quarter)")
        let full = FlyRendererTests.screens(state, now: 10_800).text
        #expect(full.contains(" 100 %"))
        #expect(full.contains("████████████████████████████████████████"), "a full bar at 80 columns")
        #expect(FlyRendererTests.screens(state, now: 11_600).text.contains(" 0 %"))
        #expect(FlyRendererTests.screens(state, now: 12_000).text.contains(" 50 %"), "and it sweeps again")
        #expect(full.contains("Round 1 of 3 · 29.2 s left to throw"))
        #expect(full.contains("Your phone: Mid-range ×1.0, ±150 ms"))
        #expect(full.contains(" Keys 1–5 pick a phone: 1 brick · 2 flip · 3 midrange · 4 pro · 5 flagship\n"))
        let small = screen(state, (40, 12), now: 10_800).joined(separator: "\n")
        #expect(!small.contains("pick a phone") && small.contains("100 %"), "a small screen keeps the meter:\n\(small)")
        #expect(full.contains("Space throw"))
        let view = try #require(state.game as? FlyView)
        #expect(view.power(atHost: 9_400) == 50)
        // Paused: the meter stands still where it was.
        var paused = state
        _ = paused.apply(Fixtures.json(#"{"type":"paused","at":9400}"#), at: 10_500)
        #expect(FlyRendererTests.screens(paused, now: 13_000).text.contains(" 50 %"))
    }

    @Test func thePhoneLeavesTheScreenAboveSixMetresAndComesBack() {
        let state = FlyRendererTests.state([FlyRendererTests.annThrown])
        // 0.3 s after the press (host 10 100 = client 11 100): 5.6 m, on screen.
        let low = FlyRendererTests.screens(state, now: 11_100).text
        #expect(low.contains("▮") && !low.contains("out of sight"), "\(low)")
        #expect(low.contains("Space or c CATCH") && !low.contains("challenge"), "c catches while your phone is up")
        // 1 s after: 15 m, out of sight.
        let high = FlyRendererTests.screens(state, now: 11_800).text
        #expect(high.contains("↑ out of sight") && !high.contains("    ▮"))
        // 0.2 s before landing: back in sight near the ground; then landed.
        #expect(!FlyRendererTests.screens(state, now: 14_677).text.contains("out of sight"))
        #expect(FlyRendererTests.screens(state, now: 14_900).text.contains("landed!"))
        #expect(
            FlyView.height(
                of: FlyView.Flight(
                    player: "Ann", phone: "flagship", power: 100, heightM: 20.383,
                    airMs: 4077, landsAt: 13_877), atHost: 9_800 + 2_038) > 20.3)
    }

    @Test func throwsCatchesAndChallengesAreShownToPlayersAndBoards() {
        let messages = [
            FlyRendererTests.bobThrown, FlyRendererTests.annThrown, FlyRendererTests.bobDropped,
            FlyRendererTests.annCaught, FlyRendererTests.challenged,
        ]
        let player = FlyRendererTests.screens(FlyRendererTests.state(messages), now: 15_000).text
        #expect(player.contains("You 20.38 m  clean (12 ms late)  +31"))
        #expect(player.contains("Bob challenges you to beat 3.26 m!"))
        #expect(player.contains("Bob          Mid-range  3.26 m  dropped (no catch)  0"))
        #expect(player.contains("#1  Ann  31 pts   20.38 m  Flagship   streak 1"))
        let board = FlyRendererTests.screens(FlyRendererTests.state(messages, role: .board), now: 15_000).text
        #expect(board.contains("Ann          Flagship   20.38 m  clean (12 ms late)  +31"))
        #expect(board.contains("Bob challenges Ann to beat 3.26 m"))
        #expect(!board.contains("Power"))
        let between = FlyRendererTests.state(messages + [FlyRendererTests.roundOver])
        #expect(between.phaseTag != FlyRendererTests.state(messages).phaseTag, "a notice of the round ends with it")
        let text = FlyRendererTests.screens(between, now: 16_000).text
        #expect(text.contains("Round 1 is over · round 2 in 4.9 s") || text.contains("round 2 in"))
        #expect(text.contains("No throw: Cy"))
        // When the operator decides: players wait for the quizmaster, the operator is told what to type.
        let waiting = FlyRendererTests.roundOver.replacingOccurrences(
            of: #""nextInMs":5000,"deadline":19000"#, with: #""nextInMs":null,"deadline":null"#)
        let player2 = FlyRendererTests.screens(FlyRendererTests.state(messages + [waiting]), now: 16_000).text
        #expect(player2.contains("Round 1 is over · waiting for the quizmaster to start round 2"), "\(player2)")
        let admin = #"{"type":"welcome","room":"ABCD","role":"admin","hostTime":9000}"#
        let operatorState = Fixtures.state(
            role: .admin,
            [admin, Fixtures.lobby, FlyRendererTests.game, FlyRendererTests.phones, FlyRendererTests.round] + messages
                + [waiting])
        #expect(screen(operatorState, (80, 24), now: 16_000).joined().contains("type :next to start round 2"))
    }

    @Test func theFinalScreenShowsPlayersTeamsAndTheLeaderboards() {
        let state = FlyRendererTests.state([FlyRendererTests.scoreboard, FlyRendererTests.allTime])
        let text = FlyRendererTests.screens(state, now: 20_000).text
        #expect(text.contains("FINAL SCOREBOARD"))
        #expect(text.contains("Teams  #1 Red 31 · #2 Blue 0"))
        #expect(text.contains("All-time — highest catches"))
        #expect(text.contains("20.38 m") && text.contains("2025-06-14"))
        #expect(text.contains("Ann wins!"))
        #expect(state.game?.isOver == true)
    }

    @Test func keysThrowCatchPickAndChallenge() throws {
        var state = FlyRendererTests.state([])
        let pick = state.handle(.character("5"), at: 10_100)
        #expect(pick == [.send(#"{"type":"phone","choice":"flagship"}"#.json)])
        let thrown = state.handle(.character(" "), at: 10_400)
        #expect(thrown == [.send(#"{"type":"throw","t":10400}"#.json)])
        _ = state.apply(Fixtures.json(FlyRendererTests.annThrown), at: 10_810)
        let caught = state.handle(.enter, at: 14_880)
        #expect(caught == [.send(#"{"type":"catch","t":14880}"#.json)])
        // While the phone is up, c catches too (as in text mode), never a challenge.
        #expect(state.handle(.character("c"), at: 14_890) == [.send(#"{"type":"catch","t":14890}"#.json)])
        _ = state.apply(Fixtures.json(FlyRendererTests.annCaught), at: 14_900)
        _ = state.handle(.character("c"), at: 15_000)
        for character in "bob" { _ = state.handle(.character(character), at: 15_000) }
        #expect(state.handle(.enter, at: 15_000) == [.send(#"{"type":"challenge","player":"bob"}"#.json)])
        // Typed lines (plain mode): no meter to watch, so the power is typed (alone: 95 %), as at nc.
        #expect(state.handle(line: "t", at: 20_000) == [.send(#"{"type":"throw","power":95}"#.json)])
        #expect(state.handle(line: "t 60", at: 20_000) == [.send(#"{"type":"throw","power":60}"#.json)])
        #expect(state.handle(line: "top all", at: 20_000) == [.send(#"{"type":"top","scope":"allTime"}"#.json)])
        #expect(state.handle(line: "phone", at: 20_000).first.map { "\($0)" }?.contains("Usage: phone ID") == true)
    }
}

extension String {
    /// This JSON text as a value (test fixtures).
    fileprivate var json: JSONValue { Fixtures.json(self) }

    @Test func theOperatorsRecentListShowsAFeedLineThatOnlyRepeatsTheGameOnce() {
        let welcome = #"{"type":"welcome","room":"ABCD","role":"admin","hostTime":9000}"#
        let state = Fixtures.state(
            role: .admin,
            [
                welcome, Fixtures.lobby, FlyRendererTests.game, FlyRendererTests.phones, FlyRendererTests.round,
                FlyRendererTests.annThrown, #"{"type":"feed","text":"Ann threw the flagship: 20.38 m (100 % power)."}"#,
                #"{"type":"feed","text":"Waiting for you: type next for round 2."}"#,
            ])
        let thrown = state.recent.filter { $0.contains("Ann threw the flagship") }
        // An operator's recent events are the feed's lines: each event once (issue #27).
        #expect(thrown == ["· Ann threw the flagship: 20.38 m (100 % power)."], "\(state.recent)")
        #expect(state.recent.last == "· Waiting for you: type next for round 2.")
    }
}
