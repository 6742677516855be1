import Foundation
import Protocol
import Rules
import Testing

@testable import Host

/// In-process checks for the hardening of issue #29: refusals by role, guessing limits, ghost teams.
@Suite("Hardening (issue 29)")
struct HardeningSeamTests {
    /// The code and message of the next `error` that reached `connection`.
    private func error(_ connection: EmbeddedConnection) throws -> (code: String, message: String) {
        let reply = try connection.expect("error")
        return (reply["code"]?.stringValue ?? "", reply["message"]?.stringValue ?? "")
    }

    @Test func aPlayersJudgeIsForbiddenWhateverIsRunning() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        _ = try host.player("Bob", team: "Blue")
        let judge: JSONObject = ["type": "judge", "id": 1, "team": "Red", "correct": true]
        ann.send(judge)
        #expect(try error(ann).code == "forbidden", "no game running yet")
        host.console("start fly 1")
        ann.send(judge)
        #expect(try error(ann).code == "forbidden", "another game than Shaky Words")
        host.console("end")
        host.console("start shaky 1")
        ann.send(judge)
        let refusal = try error(ann)
        #expect(refusal.code == "forbidden")
        #expect(refusal.message.contains("organiser"), "\(refusal.message)")
    }
}
