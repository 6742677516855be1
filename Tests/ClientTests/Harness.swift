import Foundation
import TestSupport

/// The built `partyline`, without colours, its stdio piped or on `terminal` (a pseudo-terminal's child side).
func startClient(_ arguments: [String], terminal: FileHandle? = nil) throws -> ChildProcess {
    try ChildProcess(BuiltProducts.path("partyline"), arguments, environment: ["NO_COLOR": "1", "TERM": "xterm"],
                     standardInput: terminal, standardOutput: terminal,
                     standardError: terminal.map { .handle($0) } ?? .pipe)
}

extension HostProcess {
    /// A host for the client's tests: no console, a fresh room, its log discarded.
    static func forClients(discovery: Bool = false) throws -> HostProcess {
        try HostProcess(["--no-console", "--fresh"], discovery: discovery, standardError: .discard)
    }
}
