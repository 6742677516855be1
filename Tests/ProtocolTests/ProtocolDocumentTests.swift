import Foundation
import Protocol
import Testing

/// PROTOCOL.md is held to the code: every JSON example decodes into its typed message and encodes back to the
/// same JSON, every message type has an example, and §12 lists exactly the error codes the code knows.
@Suite("PROTOCOL.md pins the wire")
struct ProtocolDocumentTests {
    static let document: String = {
        var folder = URL(fileURLWithPath: #filePath)
        while folder.path != "/" {
            folder.deleteLastPathComponent()
            let candidate = folder.appendingPathComponent("PROTOCOL.md")
            if let text = try? String(contentsOf: candidate, encoding: .utf8) { return text }
        }
        return ""
    }()

    /// Every JSON object line of the document's ```json blocks, with its line number.
    static var examples: [(line: Int, object: JSONObject)] {
        var result: [(Int, JSONObject)] = []
        var isInBlock = false
        for (index, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                isInBlock = line == "```json"
                continue
            }
            guard isInBlock, line.hasPrefix("{"), case .object(let object)? = try? JSONParsing.parse(String(line))
            else {
                continue
            }
            result.append((index + 1, object))
        }
        return result
    }

    /// The host's message families, each as a decoder that re-encodes what it read: the session's and those of
    /// every mode in `GameModes.wires`.
    static let hostFamilies: [(name: String, roundTrip: @Sendable (JSONObject) -> JSONObject?)] = {
        let session: @Sendable (JSONObject) -> JSONObject? = { SessionMessage.decode($0).map { $0.message.object() } }
        return [("session", session)] + GameModes.wires.map { ($0.name, roundTrip(of: $0)) }
    }()

    /// Decodes a message of `Wire`'s family and encodes it again.
    static func roundTrip<Wire: GameWire>(of wire: Wire.Type) -> @Sendable (JSONObject) -> JSONObject? {
        { Wire.Message.decode($0).map { $0.message.object() } }
    }

    /// Every game's client vocabularies: players' actions and the operator's commands.
    static let vocabularies: [any GameAction.Type] = GameModes.wires.flatMap { vocabularies(of: $0) }

    /// `Wire`'s player actions and operator commands.
    static func vocabularies<Wire: GameWire>(of wire: Wire.Type) -> [any GameAction.Type] {
        [Wire.Action.self, Wire.Command.self]
    }

    /// `Wire`'s host message types.
    static func messageTypes<Wire: GameWire>(of wire: Wire.Type) -> [String] { Wire.Message.types }

    static let actions = Set(vocabularies.flatMap { $0.types })

    /// The request types of the games' operator tools that have an example (their replies are session messages).
    static let tools: Set<String> = ["flyRecords", "hunts", "boardEditor"]

    /// A game request as its game reads it and writes it back; nil when no game reads it.
    static func rewritten(_ request: PlayRequest) -> JSONObject? {
        for vocabulary in vocabularies where vocabulary.types.contains(request.type) {
            if let action = try? vocabulary.decode(request) { return action.request.json.objectValue }
        }
        return nil
    }

    /// The example as the code writes it, or nil when no message type fits.
    static func reencoded(_ object: JSONObject) -> JSONObject? {
        var withoutRe = object
        let re = object["re"]
        withoutRe["re"] = nil
        for family in hostFamilies {
            guard var encoded = family.roundTrip(withoutRe) else { continue }
            if let re { encoded["re"] = re }
            if encoded == object { return encoded }
        }
        // A client message: decode it as the host does and write it as the client does.
        let decoded = ClientMessageDecoding.decode(.object(object), actions: actions, tools: tools)
        guard case .success(let envelope) = decoded else { return nil }
        var encoded: JSONObject?
        switch envelope.message {
        case .play(let request):
            encoded = rewritten(request)
        default:
            encoded = envelope.message.json.objectValue
        }
        if let id = envelope.id { encoded?["id"] = id }
        return encoded
    }

    /// What the host makes of a client message: a game action as its game reads it, anything else as decoded.
    enum HostReading: Equatable {
        case game(JSONObject, id: JSONValue?)
        case session(Result<ClientEnvelope, ProtocolError>)
    }

    /// Game actions are compared as typed actions, so an example may leave out a default (`"save": false`).
    static func hostReading(_ object: JSONObject) -> HostReading {
        let decoded = ClientMessageDecoding.decode(.object(object), actions: actions, tools: tools)
        if case .success(let envelope) = decoded, case .play(let request) = envelope.message {
            if let action = rewritten(request) { return .game(action, id: envelope.id) }
        }
        return .session(decoded)
    }

    @Test func everyExampleDecodesAndEncodesBackToItself() {
        let examples = Self.examples
        #expect(examples.count > 40, "PROTOCOL.md should have its examples (found \(examples.count))")
        for (line, object) in examples {
            let encoded = Self.reencoded(object)
            #expect(encoded != nil, "PROTOCOL.md line \(line): no message type reads \(JSONValue.object(object))")
            guard let encoded, encoded != object else { continue }
            // Client messages may be written with defaults left out; what the host reads must still be the same.
            #expect(
                Self.hostReading(encoded) == Self.hostReading(object),
                "PROTOCOL.md line \(line): \(JSONValue.object(object)) encodes back as \(JSONValue.object(encoded))")
        }
    }

    /// Decodes a host message of any family, typed.
    static func hostMessage(_ object: JSONObject) -> (any HostMessage)? {
        if let message = SessionMessage.decode(object)?.message { return message }
        for wire in GameModes.wires {
            if let message = message(object, of: wire) { return message }
        }
        return nil
    }

    static func message<Wire: GameWire>(_ object: JSONObject, of wire: Wire.Type) -> (any HostMessage)? {
        Wire.Message.decode(object)?.message
    }

    /// The one-pass writer gives every example the tree's bytes, with and without `re`.
    @Test func everyHostExampleIsWrittenInOnePassAsTheTreeWritesIt() throws {
        var written = 0
        for (line, object) in Self.examples {
            var withoutRe = object
            withoutRe["re"] = nil
            guard let message = Self.hostMessage(withoutRe) else { continue }
            let isOnePass = JSONCoding.streamed(message) != nil
            #expect(isOnePass, "PROTOCOL.md line \(line): not written in one pass")
            for re: JSONValue? in [nil, 7, "a\"b"] {
                let tree = JSONEncoding.encodeLine(.object(message.object(re: re)))
                #expect(
                    message.encodedLine(re: re) == tree,
                    "PROTOCOL.md line \(line): \(String(decoding: message.encodedLine(re: re), as: UTF8.self))")
            }
            written += 1
        }
        #expect(written > 60, "only \(written) host examples")
    }

    @Test func everyHostMessageTypeHasAnExample() {
        let shown = Set(Self.examples.compactMap { $0.object["type"]?.stringValue })
        for type in SessionMessage.types + GameModes.wires.flatMap({ Self.messageTypes(of: $0) }) {
            #expect(shown.contains(type), "PROTOCOL.md has no example of the \(type) message")
        }
        for type in ClientMessage.typeNames + Array(Self.actions) {
            #expect(shown.contains(type), "PROTOCOL.md has no example of the client's \(type) message")
        }
    }

    @Test func theErrorCodeTableListsExactlyTheCodesTheCodeKnows() throws {
        let start = try #require(Self.document.range(of: "## 12. Error codes"))
        let end = try #require(Self.document.range(of: "\n## 13.", range: start.upperBound..<Self.document.endIndex))
        let section = Self.document[start.upperBound..<end.lowerBound]
        var documented: Set<String> = []
        for row in section.split(separator: "\n") where row.hasPrefix("| `") {
            // The first cell may name several codes: `| `too_few_players` / `too_many_players` | … |`.
            let cell = row.dropFirst(2).prefix { $0 != "|" }
            let quoted = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            documented.formUnion(quoted.filter { $0.offset % 2 == 1 }.map { String($0.element) })
        }
        let known = Set(ErrorCode.all.map(\.rawValue))
        #expect(
            documented.subtracting(known).isEmpty, "documented but unknown: \(documented.subtracting(known).sorted())")
        #expect(
            known.subtracting(documented).isEmpty, "known but undocumented: \(known.subtracting(documented).sorted())")
    }
}
