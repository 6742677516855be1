import Foundation
import Protocol
import TestSupport
import Testing

@testable import Client

/// A `--plain` client that was kicked (issue #27): it says so and ends; started again while barred it says so once
/// and what happens next, and the organiser's `unban` lets it in without a restart.
@Suite("A kicked plain client", .timeLimit(.minutes(10)))
struct KickedPlainClientTests {
    @Test func aBarredPlainClientSaysSoOnceAndJoinsByItselfAfterUnban() throws {
        let host = try HostProcess.forClients()
        let admin = try host.admin()
        let state = TemporaryDirectory()
        let arguments = ["127.0.0.1:\(host.port)", "--name", "Kim", "--team", "Red", "--room", host.room, "--plain"]
        let kim = try startClient(arguments, stateHome: state.path)
        defer { kim.stop() }
        try kim.waitForLine(containing: "joined room \(host.room) as Kim (Red)")
        try admin.send(["type": "kick", "name": "Kim", "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }
        #expect(kim.waitForExit() == 1, "a kicked client ends")

        let again = try startClient(arguments, stateHome: state.path)
        defer { again.stop() }
        try again.waitForLine(containing: "! The organiser removed Kim for tonight")
        try again.waitForLine(containing: "You join by yourself once the organiser lets you back in (unban Kim)")
        // Past the hello timeout (10 s) and one retry (15 s) it neither repeats the refusal nor gives up.
        let quiet = Date().addingTimeInterval(16)
        while Date() < quiet { _ = try? again.waitForLine("a line", timeout: 0.5) { _ in true } }
        #expect(
            again.transcript.components(separatedBy: "removed Kim for tonight").count == 2,
            "the refusal is said once:\n\(again.transcript)")
        #expect(!again.transcript.contains("did not answer"), "\(again.transcript)")
        try admin.send(["type": "unban", "name": "Kim", "id": 2])
        _ = try admin.waitFor("ok") { $0["re"] == 2 }
        try again.waitForLine(containing: "joined room \(host.room) as Kim (Red)", timeout: 60)
    }
}
