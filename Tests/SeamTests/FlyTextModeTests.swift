import Foundation
import Protocol
import Rules
import Testing

@testable import Client
@testable import Host

/// Let Me Fly at `nc` (issue #27): a text-mode player aims by typing the power and catches on the host's
/// countdown, and ends within the gap PROTOCOL.md §14 states of a full-screen player of equal skill.
@Suite("Let Me Fly in text mode")
struct FlyTextModeTests {
    @Test func aTextPlayerAimsByTypingAndCatchesOnTheCountdownWithinTenPercentOfTheScreen() throws {
        let host = try EmbeddedHost()
        var ann = Watcher(try host.player("Ann", team: "Red"), role: .player, name: "Ann", team: "Red")
        let tex = host.connect()
        tex.send(line: "join ROOM Tex Blue")
        #expect(host.console("start fly 3 round-seconds=30 break-seconds=0").first == "Started Let Me Fly.")
        let opening = tex.text()
        #expect(opening.contains("t 60 throws at 60 %"), "\(opening)")
        #expect(!opening.contains("go by feel"), "\(opening)")

        /// Tex's reaction to the CATCH NOW line in each round, ms (a person waiting for it: 200–400).
        let reactions: [Int64] = [200, 300, 400]
        for (round, reaction) in reactions.enumerated() {
            let opened = host.now
            // Ann, skilled on the meter, presses at 98 % (784 ms into a 1600 ms sweep); Tex types t.
            host.advance(by: 784)
            ann.update()
            FlyModeTests.press(.character(" "), on: &ann)
            tex.send(line: "t")
            let game = try FlyModeTests.game(host).game
            guard case .inAir(let annThrow)? = game.player(named: "Ann")?.turn,
                case .inAir(let texThrow)? = game.player(named: "Tex")?.turn
            else {
                Issue.record("both phones should be up in round \(round + 1)")
                return
            }
            #expect(annThrow.powerPermille == 980)
            #expect(texThrow.powerPermille == 950, "t throws at 95 %, the most a typed throw may have")
            #expect(tex.text().contains(">>> Up it goes at 95 % power"))

            // Tex's countdown: 3… 2… 1… a second apart, then CATCH NOW exactly at the landing.
            host.advance(by: texThrow.landsAt.milliseconds - 1 - host.now)
            let countdown = tex.text()
            #expect(countdown.components(separatedBy: "\n").filter { $0.hasSuffix("…") } == ["3…", "2…", "1…"])
            #expect(!countdown.contains("CATCH NOW"))
            host.advance(by: 1)
            #expect(tex.text().contains(">>> CATCH NOW! type c + Enter <<<"))

            // Both catch: Tex `reaction` ms after the line, Ann 40 ms after her landing (clean with ±150 ms).
            let presses = [
                (at: texThrow.landsAt.milliseconds + reaction, isTex: true),
                (at: annThrow.landsAt.milliseconds + 40, isTex: false),
            ].sorted { $0.at < $1.at }
            for press in presses {
                host.advance(by: press.at - host.now)
                if press.isTex {
                    tex.send(line: "c")
                } else {
                    ann.update()
                    FlyModeTests.press(.character(" "), on: &ann)
                }
            }
            let caught = tex.text()
            #expect(caught.contains("You caught"), "round \(round + 1), \(reaction) ms: \(caught)")
            #expect(!caught.contains("fumbled") && !caught.contains("dropped"), "\(caught)")
            #expect(host.now - opened < 30_000)
            if round < reactions.count - 1 { host.console("next") }
        }
        let finished = try #require(host.core.room.finishedGame as? FlyHost)
        let players = finished.game.players
        let annScore = try #require(players.first { $0.name == "Ann" }?.score)
        let texScore = try #require(players.first { $0.name == "Tex" }?.score)
        #expect(texScore > 0)
        #expect(texScore * 100 >= annScore * 90, "Tex \(texScore) vs Ann \(annScore): more than 10 % behind")
        #expect(texScore <= annScore, "typing must not beat the meter: Tex \(texScore) vs Ann \(annScore)")
    }

    @Test func aTypedPowerOutOfRangeGetsItsUsageAndTheGameGoesOn() throws {
        let host = try EmbeddedHost()
        let tex = host.connect()
        tex.send(line: "join ROOM Tex Blue")
        host.console("start fly 1 round-seconds=30")
        _ = tex.text()
        tex.send(line: "t 100")
        #expect(tex.text().contains("Usage: t [POWER]"))
        tex.send(line: "t 60%")
        #expect(tex.text().contains(">>> Up it goes at 60 % power"))
        tex.send(line: "c")
        let early = tex.text()
        #expect(early.contains("You dropped it"), "a catch typed long before the cue misses: \(early)")
    }
}
