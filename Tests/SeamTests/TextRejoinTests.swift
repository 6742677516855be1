import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// Coming back at `nc` (issue #27 polish): a rejoin is short, so the game's catch-up is what the player reads.
@Suite("Rejoining in text mode")
struct TextRejoinTests {
    @Test func aRejoinSaysWelcomeBackWithoutReprintingTheHelp() throws {
        let host = try EmbeddedHost()
        let cleo = host.connect()
        cleo.send(line: "join ROOM Cleo Green")
        let welcome = cleo.text()
        #expect(welcome.contains("Commands while playing:"), "a first join lists the commands")
        let code = try #require(
            welcome.split(separator: "\n").first { $0.hasPrefix("Your rejoin code: ") }?
                .dropFirst("Your rejoin code: ".count).prefix { $0 != " " })
        cleo.drop()
        let back = host.connect()
        back.send(line: "rejoin Cleo \(code)")
        let again = back.text()
        #expect(again.contains("Welcome back: you kept your place. Type help for the commands."), "\(again)")
        #expect(!again.contains("Commands while playing:"), "\(again)")
        back.send(line: "help")
        #expect(back.text().contains("Commands while playing:"))
    }
}
