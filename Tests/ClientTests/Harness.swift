import Foundation
import TestSupport

/// The built `partyline`, without colours, its stdio piped or on `terminal` (a pseudo-terminal's child side), keeping
/// its places (resume tokens) in `stateHome` — by default the test run's own folder, never the user's.
func startClient(_ arguments: [String], terminal: FileHandle? = nil, stateHome: String? = nil) throws -> ChildProcess {
    let state = stateHome ?? testStateHome
    return try ChildProcess(
        BuiltProducts.path("partyline"), arguments,
        environment: ["NO_COLOR": "1", "TERM": "xterm", "XDG_STATE_HOME": state],
        standardInput: terminal, standardOutput: terminal, standardError: terminal.map { .handle($0) } ?? .pipe)
}

/// Where clients of this test run keep their places unless a test gives its own folder (hosts differ by port).
let testStateHome = NSTemporaryDirectory() + "partyline-test-state-\(ProcessInfo.processInfo.processIdentifier)"

extension HostProcess {
    /// A host for the client's tests: no console, a fresh room, its log discarded.
    static func forClients(discovery: Bool = false) throws -> HostProcess {
        try HostProcess(["--no-console", "--fresh"], discovery: discovery, standardError: .discard)
    }
}
