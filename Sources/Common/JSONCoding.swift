/// Converts `Codable` values to and from `JSONValue`: the one JSON coder of the project.
///
/// Objects keep the order in which members were encoded (a synthesized `encode(to:)` follows the
/// declaration order), so the wire reads naturally and encoding is deterministic. An optional that is
/// nil is left out, as usual for `Codable`; wrap it in `Nullable` where the wire shows an explicit `null`.
public enum JSONCoding {
    /// The JSON value of `value`.
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        let slot = Slot()
        try value.encode(to: ValueEncoder(slot: slot, codingPath: []))
        return slot.finish()
    }

    /// The compact JSON text of `value`: written in one pass when it encodes in order (every synthesized
    /// conformance does), else through its `JSONValue`; the same text either way.
    public static func bytes(_ value: some Encodable) throws -> [UInt8] {
        if let (bytes, _) = streamed(value) { return bytes }
        return JSONEncoding.encode(try encode(value))
    }

    /// `value`'s compact JSON written in one pass, with the keys of its outermost object; nil when the value does
    /// not encode in order, or fails (the tree's path then says why).
    public static func streamed(_ value: some Encodable) -> (bytes: [UInt8], rootKeys: [String])? {
        let writer = StreamWriter()
        let position = StreamPosition(codingPath: [])
        do {
            try writer.write(value, at: position)
        } catch {
            return nil
        }
        writer.finish(position)
        guard !writer.isFailed else { return nil }
        return (writer.bytes, writer.rootKeys)
    }

    /// Decodes a `T` from `json`.
    public static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        if let value = json as? T { return value }
        return try T(from: ValueDecoder(value: json, codingPath: []))
    }

    /// Decodes a `T` from JSON text.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: try JSONParsing.parse(bytes))
    }
}

/// An optional that is written as an explicit `null` when it has no value (plain optionals are left out).
///
/// Decoding accepts a missing member as well as `null`.
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The value, or nil for `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A `Nullable` member may be missing altogether.
    public func decode<V>(_ type: Nullable<V>.Type, forKey key: Key) throws -> Nullable<V> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ValueDecoder {
            self = decoder.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .int(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            let members = try container.decode([String: JSONValue].self)
            var object = JSONObject()
            for key in members.keys.sorted() { object.append(key, members[key]!) }
            self = .object(object)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? ValueEncoder {
            encoder.slot.content = .value(self)
            return
        }
        if let encoder = encoder as? StreamEncoder { return encoder.write(json: self) }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let integer): try container.encode(integer)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let object):
            try container.encode(Dictionary(object.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }
}

extension JSONObject: Codable {
    public init(from decoder: any Decoder) throws {
        guard case .object(let object) = try JSONValue(from: decoder) else {
            throw DecodingError.typeMismatch(
                JSONObject.self, .init(codingPath: decoder.codingPath, debugDescription: "expected an object"))
        }
        self = object
    }

    public func encode(to encoder: any Encoder) throws { try JSONValue.object(self).encode(to: encoder) }
}

// MARK: - Encoding

/// Where one encoded value is being built; containers hold references so nested encoding fills them in place.
final class Slot {
    enum Content {
        case empty
        case value(JSONValue)
        case object(ObjectBuilder)
        case array(ArrayBuilder)
    }

    var content = Content.empty

    func finish() -> JSONValue {
        switch content {
        case .empty: return .object(JSONObject())
        case .value(let value): return value
        case .object(let builder):
            var object = JSONObject()
            for key in builder.keys { object.append(key, builder.slots[key]!.finish()) }
            return .object(object)
        case .array(let builder): return .array(builder.slots.map { $0.finish() })
        }
    }

    var objectBuilder: ObjectBuilder {
        if case .object(let builder) = content { return builder }
        let builder = ObjectBuilder()
        content = .object(builder)
        return builder
    }

    var arrayBuilder: ArrayBuilder {
        if case .array(let builder) = content { return builder }
        let builder = ArrayBuilder()
        content = .array(builder)
        return builder
    }
}

final class ObjectBuilder {
    var keys: [String] = []
    var slots: [String: Slot] = [:]

    func slot(for key: String) -> Slot {
        if let slot = slots[key] { return slot }
        let slot = Slot()
        keys.append(key)
        slots[key] = slot
        return slot
    }
}

final class ArrayBuilder {
    var slots: [Slot] = []

    func append() -> Slot {
        let slot = Slot()
        slots.append(slot)
        return slot
    }
}

struct ValueEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedEncoder<Key>(builder: slot.objectBuilder, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedEncoder(builder: slot.arrayBuilder, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleEncoder(slot: slot, codingPath: codingPath)
    }
}

/// Encodes one value into `slot`: plain values directly, anything else through its own `encode(to:)`.
private func encodeValue(_ value: some Encodable, into slot: Slot, codingPath: [any CodingKey]) throws {
    switch value {
    case let json as JSONValue: slot.content = .value(json)
    case let text as String: slot.content = .value(.string(text))
    case let flag as Bool: slot.content = .value(.bool(flag))
    case let integer as Int: slot.content = .value(.int(Int64(integer)))
    case let integer as Int64: slot.content = .value(.int(integer))
    case let integer as Int32: slot.content = .value(.int(Int64(integer)))
    case let number as Double: slot.content = .value(.double(number))
    default: try value.encode(to: ValueEncoder(slot: slot, codingPath: codingPath))
    }
}

private func integerValue<T: BinaryInteger>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
    guard let integer = Int64(exactly: value) else {
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "beyond Int64"))
    }
    return .int(integer)
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let builder: ObjectBuilder
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { builder.slot(for: key.stringValue).content = .value(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(.bool(value))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(.string(value))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(.double(value))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(.double(Double(value)))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(.int(Int64(value)))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(.int(value))
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try encodeValue(value, into: builder.slot(for: key.stringValue), codingPath: codingPath + [key])
    }

    private func encodeInteger(_ value: some BinaryInteger, _ key: Key) throws {
        builder.slot(for: key.stringValue).content = .value(try integerValue(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            KeyedEncoder<NestedKey>(
                builder: builder.slot(for: key.stringValue).objectBuilder, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedEncoder(builder: builder.slot(for: key.stringValue).arrayBuilder, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        ValueEncoder(slot: builder.slot(for: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(slot: builder.slot(for: key.stringValue), codingPath: codingPath + [key])
    }
}

/// An array element's place in a coding path.
struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { intValue = Int(stringValue) }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let builder: ArrayBuilder
    let codingPath: [any CodingKey]
    var count: Int { builder.slots.count }

    mutating func encodeNil() throws { builder.append().content = .value(.null) }
    mutating func encode(_ value: some Encodable) throws {
        let path = codingPath + [IndexKey(count)]
        try encodeValue(value, into: builder.append(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedEncoder<NestedKey>(builder: builder.append().objectBuilder, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedEncoder(builder: builder.append().arrayBuilder, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(slot: builder.append(), codingPath: codingPath) }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { slot.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { slot.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { slot.content = .value(.double(value)) }
    mutating func encode(_ value: Float) throws { slot.content = .value(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { slot.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: Int16) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: Int32) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: Int64) throws { slot.content = .value(.int(value)) }
    mutating func encode(_ value: UInt) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: UInt8) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: UInt16) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: UInt32) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: UInt64) throws {
        slot.content = .value(try integerValue(value, codingPath: codingPath))
    }
    mutating func encode(_ value: some Encodable) throws { try encodeValue(value, into: slot, codingPath: codingPath) }
}

// MARK: - Decoding

struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: JSONValue].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedDecoder<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedDecoder(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleDecoder(value: value, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.kindName)"))
}

/// Reads a plain value from `value`, or decodes a `T` through its own `init(from:)`.
private func decodeValue<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey]) throws -> T {
    switch type {
    case is JSONValue.Type: return value as! T
    case is String.Type:
        guard case .string(let text) = value else { throw mismatch(type, value, codingPath) }
        return text as! T
    case is Bool.Type:
        guard case .bool(let flag) = value else { throw mismatch(type, value, codingPath) }
        return flag as! T
    case is Int.Type: return Int(try integer(value, codingPath)) as! T
    case is Int64.Type: return try integer(value, codingPath) as! T
    case is Double.Type:
        guard let number = value.doubleValue else { throw mismatch(type, value, codingPath) }
        return number as! T
    default: return try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }
}

private func integer(_ value: JSONValue, _ codingPath: [any CodingKey]) throws -> Int64 {
    guard let integer = value.intValue else { throw mismatch(Int64.self, value, codingPath) }
    return integer
}

private func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) throws
    -> T
{
    guard let number = T(exactly: try integer(value, codingPath)) else {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) is out of range"))
    }
    return number
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decodeValue(type, from: member(key), codingPath: codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decodeValue(type, from: member(key), codingPath: codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decodeValue(type, from: member(key), codingPath: codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try decodeValue(Double.self, from: member(key), codingPath: codingPath + [key]))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, member(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try integer(type, member(key), codingPath + [key])
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeValue(type, from: member(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try decodeValue(type, from: value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleDecoder: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type, from: value, codingPath: codingPath) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type, from: value, codingPath: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type, from: value, codingPath: codingPath) }
    func decode(_ type: Float.Type) throws -> Float {
        Float(try decodeValue(Double.self, from: value, codingPath: codingPath))
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type, from: value, codingPath: codingPath) }
}
