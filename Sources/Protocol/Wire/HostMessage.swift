/// Who reads a message as text: decides "your turn", "you are the Queen" and what a team may see.
public struct Perspective: Sendable, Equatable {
    /// The reader's team, when it plays in one.
    public var team: String?
    /// The reader's player name, when it is a player.
    public var name: String?

    /// Creates a perspective.
    public init(team: String? = nil, name: String? = nil) {
        self.team = team
        self.name = name
    }

    /// Whether `other` is the reader's team (names compare ignoring case).
    public func isMine(team other: String) -> Bool {
        guard let team else { return false }
        return team.lowercased() == other.lowercased()
    }
}

/// A message the host sends: its `type` names it on the wire and its stored properties are its fields.
///
/// Every message is encoded and decoded by `JSONCoding` (its synthesized `Codable` conformance is its one codec),
/// with `type` written first. Fields added later must be optional so that older peers still decode it.
public protocol HostMessage: Codable, Sendable, Equatable {
    /// The wire `type`.
    static var type: String { get }
    /// The line a person reads for this message (text mode, the client's piped mode), or nil when it shows nothing.
    func line(for reader: Perspective) -> String?
    /// Decodes this message from a wire object whose `type` is `Self.type`; nil when it does not fit.
    static func decode(_ object: JSONObject) -> Self?
}

extension HostMessage {
    public func line(for reader: Perspective) -> String? { nil }

    /// The wire object: `type` first, then the fields in declaration order, then `re` when given.
    public func object(re: JSONValue? = nil) -> JSONObject {
        var object: JSONObject = ["type": .string(Self.type)]
        // Encoding plain stored values cannot fail; a failure would be a programming error caught by the fixtures.
        if case .object(let fields)? = try? JSONCoding.encode(self) {
            for member in fields { object.append(member.key, member.value) }
        }
        if let re { object["re"] = re }
        return object
    }

    /// The wire value of this message.
    public var json: JSONValue { .object(object()) }

    /// One wire line (JSON and a newline), with `re` when this replies to a request with an `id`: the text of
    /// `object(re:)`, written in one pass when the message encodes in order (every synthesized one does).
    public func encodedLine(re: JSONValue? = nil) -> [UInt8] {
        guard let (fields, keys) = JSONCoding.streamed(self), fields.first == UInt8(ascii: "{"),
            !keys.contains("type"), re == nil || !keys.contains("re")
        else { return JSONEncoding.encodeLine(.object(object(re: re))) }
        var line: [UInt8] = []
        line.reserveCapacity(fields.count + 40)
        line.append(contentsOf: #"{"type":"#.utf8)
        JSONEncoding.writeString(Self.type, to: &line)
        if fields.count > 2 {
            line.append(UInt8(ascii: ","))
            line.append(contentsOf: fields[1..<(fields.count - 1)])
        }
        if let re {
            line.append(contentsOf: #","re":"#.utf8)
            JSONEncoding.write(re, to: &line)
        }
        line.append(UInt8(ascii: "}"))
        line.append(0x0A)
        return line
    }

    /// Decodes this message from a wire object whose `type` is `Self.type`; nil when it does not fit.
    public static func decode(_ object: JSONObject) -> Self? {
        guard object["type"]?.stringValue == type else { return nil }
        return try? JSONCoding.decode(Self.self, from: .object(object))
    }
}

/// A closed set of host messages that one side reads together (the session's, or one game mode's).
public protocol MessageFamily: Sendable, Equatable {
    /// The `type`s of the family's messages.
    static var types: [String] { get }
    /// Decodes a wire object of one of `types`; nil when its type is not in the family or its fields do not fit.
    static func decode(_ object: JSONObject) -> Self?
    /// The message inside.
    var message: any HostMessage { get }
}

extension MessageFamily {
    /// The line a person reads for this message.
    public func line(for reader: Perspective) -> String? { message.line(for: reader) }
}

/// A family read by one `FamilyDecoder` table (every family of the protocol): its types and decoding come from it.
public protocol DecodedFamily: MessageFamily {
    /// The family's table: one `member` entry per message type.
    static var decoder: FamilyDecoder<Self> { get }
}

extension DecodedFamily {
    /// The `type`s of the family's messages, from its table.
    public static var types: [String] { decoder.types }

    /// Decodes a wire object by its `type`, through the family's table.
    public static func decode(_ object: JSONObject) -> Self? { decoder.decode(object) }
}

/// Decodes a family member by trying the decoder registered for its `type`.
public struct FamilyDecoder<Family: Sendable>: Sendable {
    private let decoders: [String: @Sendable (JSONObject) -> Family?]

    /// Creates a decoder from one entry per message type: the type's name and how to wrap it.
    public init(_ entries: [(type: String, decode: @Sendable (JSONObject) -> Family?)]) {
        var decoders: [String: @Sendable (JSONObject) -> Family?] = [:]
        for entry in entries { decoders[entry.type] = entry.decode }
        self.decoders = decoders
    }

    /// The message types this decoder knows.
    public var types: [String] { decoders.keys.sorted() }

    /// Decodes `object` by its `type`.
    public func decode(_ object: JSONObject) -> Family? {
        guard let type = object["type"]?.stringValue, let decode = decoders[type] else { return nil }
        return decode(object)
    }
}

/// Builds a `FamilyDecoder` entry for message type `M` wrapped by `wrap`.
public func member<M: HostMessage, Family>(
    _ type: M.Type, _ wrap: @escaping @Sendable (M) -> Family
) -> (type: String, decode: @Sendable (JSONObject) -> Family?) {
    (M.type, { M.decode($0).map(wrap) })
}

/// Words shared by the lines of several messages.
public enum Wording {
    /// Whole seconds, rounded up: `12 s`.
    public static func seconds(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "" }
        return "\((max(0, milliseconds) + 999) / 1000) s"
    }

    /// Letters spread out so they read at a glance: `A P P L E`.
    public static func spaced(_ letters: String) -> String {
        letters.map { $0 == " " ? " " : String($0) }.joined(separator: " ")
    }

    /// `1 round`, `2 rounds`: a count that agrees with its noun.
    public static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : (plural ?? singular + "s"))"
    }

    /// `Ann`, `Ann and Bo`, `Ann, Bo and Cy`.
    public static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + last : last
    }
}
