// swift-tools-version: 6.0
// Partyline: a LAN party-game host. Toolchain only: no package dependencies.
import PackageDescription

let package = Package(
    name: "partyline",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "partyline-host", targets: ["PartylineHost"]),
        .executable(name: "partyline", targets: ["Client"]),
        .executable(name: "partyline-bench", targets: ["Bench"]),
    ],
    targets: [
        // Linux-only system headers (epoll, eventfd) behind a local module map; empty on Darwin.
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        // What every layer shares: JSON values, the one reader and the one Codable coder, the error vocabulary.
        .target(name: "Common"),
        .target(name: "Protocol", dependencies: ["Common"]),
        // Sockets, the readiness poller and the monotonic clock, shared by the host, the client and the bench.
        .target(name: "Net", dependencies: ["CSystem"]),
        .target(name: "Rules", dependencies: ["Common"]),
        // The host as a library: everything `partyline-host` does (`HostProgram.run`), and the core that the
        // in-process tests drive through TestSupport's `EmbeddedHost` (`package` declarations, so it builds in
        // release too). The phone page's files (Sources/Host/Web) are compiled in as `PackageResources` byte arrays.
        .target(name: "Host", dependencies: ["Protocol", "Rules", "Net", "CSystem"], resources: [.embedInCode("Web")]),
        // `partyline-host`: a few lines that hand the command line to `HostProgram.run`.
        .executableTarget(name: "PartylineHost", dependencies: ["Host"]),
        .executableTarget(name: "Client", dependencies: ["Protocol", "Net"]),
        // The packet-level delay line of the fairness tests and bench: namespaces joined by delaying TUN devices.
        .target(name: "DelayLine", dependencies: ["Net", "Rules", "CSystem"]),
        // What the end-to-end tests and the bench share: starting built products (the host above all), JSON test
        // clients, a delaying and cutting TCP proxy, fairness matches on the delay line, and the host in-process
        // (`EmbeddedHost`: host core, recording outlet, hand-moved clock). A library, not a test target, so the
        // bench can use it.
        .target(name: "TestSupport", dependencies: ["Protocol", "Net", "Rules", "DelayLine", "Host"]),
        // The bench's floor relay in C (epoll, no parsing), so the host is also measured against a floor with no
        // Swift in its path.
        .target(name: "CFloorRelay"),
        .executableTarget(name: "Bench", dependencies: ["Protocol", "Net", "TestSupport", "DelayLine", "CFloorRelay"]),
        .testTarget(name: "ProtocolTests", dependencies: ["Protocol", "Common", "TestSupport"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "Common"]),
        // The test targets that start the built `partyline-host` depend on `PartylineHost`, so that `swift test`
        // builds it first.
        .testTarget(
            name: "HostTests",
            dependencies: ["Host", "PartylineHost", "Bench", "Protocol", "Rules", "Net", "TestSupport", "DelayLine"]),
        .testTarget(name: "NetTests", dependencies: ["Net", "DelayLine"]),
        // The mode seam driven in-process (host core with a recording outlet, client views): no sockets, no clocks.
        .testTarget(
            name: "SeamTests", dependencies: ["Host", "PartylineHost", "Client", "Protocol", "Rules", "TestSupport"]),
        .testTarget(
            name: "ClientTests", dependencies: ["Client", "Protocol", "Net", "Host", "PartylineHost", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
