import Foundation
import Testing

/// The phone page's pure JavaScript modules and static checks (`Tests/Web/*.test.mjs`) run under `node --test`
/// from `swift test`, when node is installed.
@Suite("The phone page's JavaScript under node", .timeLimit(.minutes(5)))
struct WebModuleTests {
    /// The package's root folder (this file is `Tests/ClientTests/WebModuleTests.swift`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `node` on `PATH` (or `$PARTYLINE_NODE`), nil when none is installed.
    static let node: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["PARTYLINE_NODE"], FileManager.default.isExecutableFile(atPath: chosen) {
            return chosen
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/node" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    @Test(.enabled(if: node != nil, "node is not installed (apt-get install nodejs): the page's JavaScript tests skip"))
    func nodeTestPassesForEveryWebModule() throws {
        let node = try #require(Self.node)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["--test", "Tests/Web/"]
        process.currentDirectoryURL = URL(fileURLWithPath: Self.packageRoot)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read to the end before waiting, so a full pipe never stalls node.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "node --test Tests/Web/ failed:\n\(text)")
        #expect(text.contains("# pass"), "node ran no tests:\n\(text)")
        #expect(text.contains("# fail 0"), "\(text)")
    }
}
