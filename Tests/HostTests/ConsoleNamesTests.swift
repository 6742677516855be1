import Foundation
import Protocol
import TestSupport
import Testing

/// The console names whom a closed connection was for (issue #27), not only "Connection #5".
@Suite("The console names players", .timeLimit(.minutes(10)))
struct ConsoleNamesTests {
    @Test func aClosedConnectionIsNamedByItsPlayer() throws {
        let host = try HostProcess()
        do { _ = try host.join("Bob", team: "Blue") }  // drops at once
        let line = try host.waitForErrorLine(containing: " closed: ")
        #expect(line.contains("Bob (Blue)'s connection"), "\(line)")
        host.stop()
    }
}
