import Protocol
import Testing

@testable import Client
@testable import Host

/// The one list of modes (`GameModes.wires`) holds the host's catalog, the client's and the page's to the same
/// modes, and each check fails for a mode that misses what it checks.
@Suite("One checked list of modes")
struct ModeCatalogTests {
    @Test func theHostTheClientAndTheListAgree() {
        let problems = GameModes.problems(
            wires: GameModes.wires, hostModes: ModeCatalog.standard.entries.map(\.name),
            screens: ScreenCatalog.standard.screens.map { $0.gameName })
        #expect(problems.isEmpty, "\(problems)")
        #expect(ModeCatalog.standard.entries.map(\.name) == GameModes.names)
        #expect(ScreenCatalog.standard.screens.map { $0.gameName } == GameModes.names)
    }

    @Test func aModeWithNoHostEntryNoScreenAndNoPhoneViewIsNamed() {
        let problems = GameModes.problems(
            wires: GameModes.wires + [BrokenWire.self], hostModes: GameModes.names,
            screens: GameModes.names, webAssets: Set(GameModes.names.map(GameModes.webView(of:))))
        #expect(
            problems.contains(
                "Mode \"broken\" has no host entry: make its wire a HostedWire in Sources/Host/Games/."
            ))
        #expect(
            problems.contains(
                "Mode \"broken\" has no client screen: make its wire a ShownWire in Sources/Client/Modes/."
            ))
        #expect(problems.contains("Mode \"broken\" has no phone view: add Sources/Host/Web/mode-broken.js."))
        let extra = GameModes.problems(wires: GameModes.wires, hostModes: GameModes.names + ["broken"])
        #expect(extra == ["The host entry \"broken\" is no mode of GameModes.wires: add its wire there."])
    }

    @Test func aWireWithoutItsHostAndClientFilesStopsBothCatalogs() {
        let host = ModeCatalog.built(from: GameModes.wires + [BrokenWire.self])
        #expect(host.catalog.entries.map(\.name) == GameModes.names)
        #expect(host.problems.contains("Mode \"broken\" has no phone view: add Sources/Host/Web/mode-broken.js."))
        #expect(
            host.problems.contains(
                "Mode \"broken\" has no host entry: make its wire a HostedWire in Sources/Host/Games/."))
        let client = ScreenCatalog.built(from: GameModes.wires + [BrokenWire.self])
        #expect(
            client.problems.contains(
                "Mode \"broken\" has no client screen: make its wire a ShownWire in Sources/Client/Modes/."))
        #expect(ModeCatalog.built(from: GameModes.wires).problems.isEmpty)
        #expect(ScreenCatalog.built(from: GameModes.wires).problems.isEmpty)
    }

    @Test func aModeWhoseVocabularyCollidesIsNamedForEachCollision() {
        let problems = GameModes.problems(wires: GameModes.wires + [BrokenWire.self, BrokenWire.self])
        #expect(problems.contains("Two modes are called \"broken\": wire names must be unique."))
        #expect(problems.contains("Mode \"broken\" lists the action type \"guess\" twice."))
        #expect(problems.contains("Mode \"broken\" lists the message type \"round\" twice."))
        #expect(problems.contains("Mode \"broken\"'s message type \"welcome\" is already a session message."))
        #expect(problems.contains("Mode \"broken\"'s action type \"hello\" is already a session message."))
        #expect(!problems.contains { $0.contains("\"buzz\"") }, "modes may share action types (hunt and shaky: answer)")
        #expect(
            problems.contains { $0.hasPrefix("Mode \"broken\" reads the typed word \"h\", but the session takes it") })
        #expect(
            problems.contains { $0.hasPrefix("Mode \"broken\" reads the typed word \"n\", but the session takes it") })
        #expect(!problems.contains { $0.contains("\"shaky\"") && !$0.contains("broken") })
    }

    @Test func everySessionWordIsReadByTheSession() {
        for word in TextCommandParsing.sessionWords where !["rejoin", "resume"].contains(word) {
            #expect(TextCommandParsing.parse(word) != .freeText(word), "the session does not read \"\(word)\"")
        }
        #expect(TextCommandParsing.parse("higher") == .freeText("higher"))
    }
}

/// A mode that gets everything wrong on purpose: "Higher or lower" with `h` for higher, a repeated action and
/// message type, a session message's and another mode's types.
enum BrokenWire: GameWire {
    static let name = "broken"
    static let title = "Higher or lower"
    static let startGrammar = StartGrammar(usage: "start broken")

    struct Intro: GameIntro {
        static let type = "game"
        static let gameName = BrokenWire.name
        var game = BrokenWire.name
    }

    struct Round: HostMessage {
        static let type = "round"
        var number: Int
    }

    struct Welcome: HostMessage {
        static let type = "welcome"
    }

    enum Message: MessageFamily {
        case intro(Intro)
        case round(Round)
        case welcome(Welcome)

        static var types: [String] { ["game", "round", "round", "welcome"] }
        static func decode(_ object: JSONObject) -> Message? { nil }
        var message: any HostMessage {
            switch self {
            case .intro(let message): message
            case .round(let message): message
            case .welcome(let message): message
            }
        }
    }

    enum Action: GameAction {
        case guess(higher: Bool)

        static let types = ["guess", "guess", "hello", "buzz"]  // buzz is Shaky Words' too: allowed

        static func decode(_ request: PlayRequest) throws(ProtocolError) -> Action {
            throw ProtocolError(.unknownType, "Higher or lower takes nothing here.")
        }

        static func parse(text line: String) -> TextAction<Action>? {
            switch splitCommand(line).verb {
            case "h", "higher": .action(.guess(higher: true))
            case "n", "lower": .action(.guess(higher: false))
            default: nil
            }
        }

        static let textHelp = ["  h or n   higher or lower"]
        var request: PlayRequest { PlayRequest(type: "guess") }
        var pressedAt: Int64? { nil }
    }
}
