/// Writes a `Codable` value's compact JSON straight into bytes in one pass: the text `JSONCoding` makes through a
/// `JSONValue` tree, without the tree.
///
/// It holds for every value that encodes in order — each container written before the next sibling starts, no
/// key twice, as every synthesized conformance does. Anything else (a container used again after a sibling, a key
/// encoded twice, a value written twice, `superEncoder`) marks the write as failed, and `JSONCoding` takes the
/// tree's path instead, which gives such values their `Codable` meaning. So both paths always give the same text.
final class StreamWriter {
    /// The text so far.
    var bytes: [UInt8] = []
    /// Whether the value did something a one-pass write cannot follow.
    var isFailed = false
    /// The containers still open, innermost last.
    private var frames: [Frame] = []
    private var nextFrameID = 0
    /// The keys of the outermost object, in order (for `HostMessage`, which writes `type` and `re` around them).
    private(set) var rootKeys: [String] = []

    private struct Frame {
        let id: Int
        let isObject: Bool
        var count = 0
        /// Keys written, to refuse a second one (a set once there are many).
        var keys: [String] = []
        var keySet: Set<String>?
    }

    init() { bytes.reserveCapacity(256) }

    /// Opens an object or array; returns its frame's id.
    func open(isObject: Bool) -> Int {
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextFrameID += 1
        frames.append(Frame(id: nextFrameID, isObject: isObject))
        return nextFrameID
    }

    /// Whether frame `id` is still open.
    func isOpen(_ id: Int) -> Bool { frames.last(where: { $0.id == id }) != nil }

    /// Closes the frames opened after frame `id` (nested containers that are done); false when `id` is closed.
    private func closeAbove(_ id: Int) -> Bool {
        guard isOpen(id) else { return false }
        while let last = frames.last, last.id != id {
            frames.removeLast()
            bytes.append(last.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return true
    }

    /// Closes frame `id` and any frame inside it.
    func close(_ id: Int) {
        guard !isFailed else { return }
        guard closeAbove(id), let frame = frames.popLast() else { return fail() }
        bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// Starts a member of frame `id`: the comma and, in an object, the key; false (and failed) when it cannot.
    func beginMember(of id: Int, key: String?) -> Bool {
        guard !isFailed else { return false }
        guard closeAbove(id) else {
            fail()
            return false
        }
        let top = frames.count - 1
        if let key {
            guard frames[top].isObject, !hasKey(key, inFrameAt: top) else {
                fail()
                return false
            }
            if frames[top].keySet != nil {
                frames[top].keySet!.insert(key)
            } else if frames[top].keys.count >= 12 {
                frames[top].keySet = Set(frames[top].keys + [key])
            } else {
                frames[top].keys.append(key)
            }
            if top == 0 { rootKeys.append(key) }
        }
        if frames[top].count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[top].count += 1
        if let key {
            JSONEncoding.writeString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        return true
    }

    private func hasKey(_ key: String, inFrameAt index: Int) -> Bool {
        frames[index].keySet?.contains(key) ?? frames[index].keys.contains(key)
    }

    /// Gives up: the value is written through the tree.
    func fail() { isFailed = true }

    /// Writes a plain value, or encodes `value` at `position`; then closes what it opened (`{}` when nothing).
    func write(_ value: some Encodable, at position: StreamPosition) throws {
        switch value {
        case let json as JSONValue: JSONEncoding.write(json, to: &bytes)
        case let text as String: JSONEncoding.writeString(text, to: &bytes)
        case let flag as Bool: JSONEncoding.write(.bool(flag), to: &bytes)
        case let integer as Int: bytes.append(contentsOf: String(integer).utf8)
        case let integer as Int64: bytes.append(contentsOf: String(integer).utf8)
        case let integer as Int32: bytes.append(contentsOf: String(integer).utf8)
        case let number as Double: JSONEncoding.write(.double(number), to: &bytes)
        default:
            try value.encode(to: StreamEncoder(writer: self, position: position))
            return finish(position)
        }
        position.isWritten = true
    }

    /// Closes the container a position opened, or writes `{}` for a value that wrote nothing (as the tree does).
    func finish(_ position: StreamPosition) {
        guard !isFailed else { return }
        if let frame = position.frame {
            position.frame = nil
            close(frame)
        } else if !position.isWritten {
            bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        }
        position.isWritten = true
    }

    /// Writes an integer the tree would take (within Int64), or throws as the tree does.
    func writeInteger(_ value: some BinaryInteger, codingPath: [any CodingKey]) throws {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "beyond Int64"))
        }
        bytes.append(contentsOf: String(integer).utf8)
    }
}

/// Where one value is written: what it has written so far.
final class StreamPosition {
    /// The container the value opened, if any.
    var frame: Int?
    /// Whether the value wrote a plain value or opened a container.
    var isWritten = false
    /// Whether the container is an object.
    var isObject = false
    let codingPath: [any CodingKey]

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }
}

@available(*, unavailable)
extension StreamWriter: Sendable {}

@available(*, unavailable)
extension StreamPosition: Sendable {}

/// The `Encoder` of one position.
struct StreamEncoder: Encoder {
    let writer: StreamWriter
    let position: StreamPosition
    var codingPath: [any CodingKey] { position.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The position's container, opened the first time (asking again gives the same one, as in the tree).
    private func frame(isObject: Bool) -> Int {
        if let frame = position.frame, position.isObject == isObject, writer.isOpen(frame) { return frame }
        guard !position.isWritten else {
            writer.fail()
            return -1
        }
        position.isWritten = true
        position.isObject = isObject
        let frame = writer.open(isObject: isObject)
        position.frame = frame
        return frame
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamKeyedEncoder<Key>(writer: writer, frame: frame(isObject: true), path: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedEncoder(writer: writer, frame: frame(isObject: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleEncoder(writer: writer, position: position)
    }

    /// Writes a `JSONValue` as it is (members in their order), as the tree keeps it.
    func write(json: JSONValue) {
        guard !writer.isFailed, !position.isWritten else { return writer.fail() }
        position.isWritten = true
        JSONEncoding.write(json, to: &writer.bytes)
    }
}

private struct StreamKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: StreamWriter
    let frame: Int
    let path: [any CodingKey]
    var codingPath: [any CodingKey] { path }

    private func begin(_ key: Key) -> Bool { writer.beginMember(of: frame, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws {
        if begin(key) { writer.bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if begin(key) { JSONEncoding.write(.bool(value), to: &writer.bytes) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if begin(key) { JSONEncoding.writeString(value, to: &writer.bytes) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if begin(key) { JSONEncoding.write(.double(value), to: &writer.bytes) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if begin(key) { JSONEncoding.write(.double(Double(value)), to: &writer.bytes) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        if begin(key) { writer.bytes.append(contentsOf: String(value).utf8) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        if begin(key) { writer.bytes.append(contentsOf: String(value).utf8) }
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        guard begin(key) else { return }
        try writer.write(value, at: StreamPosition(codingPath: path + [key]))
    }

    private func encodeInteger(_ value: some BinaryInteger, _ key: Key) throws {
        if begin(key) { try writer.writeInteger(value, codingPath: path + [key]) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = begin(key) ? writer.open(isObject: true) : -1
        return KeyedEncodingContainer(StreamKeyedEncoder<NestedKey>(writer: writer, frame: nested, path: path + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = begin(key) ? writer.open(isObject: false) : -1
        return StreamUnkeyedEncoder(writer: writer, frame: nested, codingPath: path + [key])
    }

    mutating func superEncoder() -> any Encoder {
        writer.fail()
        return StreamEncoder(writer: writer, position: StreamPosition(codingPath: path))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.fail()
        return StreamEncoder(writer: writer, position: StreamPosition(codingPath: path + [key]))
    }
}

private struct StreamUnkeyedEncoder: UnkeyedEncodingContainer {
    let writer: StreamWriter
    let frame: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(writer: StreamWriter, frame: Int, codingPath: [any CodingKey]) {
        self.writer = writer
        self.frame = frame
        self.codingPath = codingPath
    }

    private mutating func begin() -> Bool {
        count += 1
        return writer.beginMember(of: frame, key: nil)
    }

    mutating func encodeNil() throws {
        if begin() { writer.bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
    }
    mutating func encode(_ value: some Encodable) throws {
        let path = codingPath + [IndexKey(count)]
        guard begin() else { return }
        try writer.write(value, at: StreamPosition(codingPath: path))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = begin() ? writer.open(isObject: true) : -1
        return KeyedEncodingContainer(StreamKeyedEncoder<NestedKey>(writer: writer, frame: nested, path: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = begin() ? writer.open(isObject: false) : -1
        return StreamUnkeyedEncoder(writer: writer, frame: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        writer.fail()
        return StreamEncoder(writer: writer, position: StreamPosition(codingPath: codingPath))
    }
}

private struct StreamSingleEncoder: SingleValueEncodingContainer {
    let writer: StreamWriter
    let position: StreamPosition
    var codingPath: [any CodingKey] { position.codingPath }

    /// Marks the position written; false (and failed) when it already was.
    private func begin() -> Bool {
        guard !writer.isFailed, !position.isWritten else {
            writer.fail()
            return false
        }
        position.isWritten = true
        return true
    }

    mutating func encodeNil() throws { if begin() { writer.bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) } }
    mutating func encode(_ value: Bool) throws { if begin() { JSONEncoding.write(.bool(value), to: &writer.bytes) } }
    mutating func encode(_ value: String) throws { if begin() { JSONEncoding.writeString(value, to: &writer.bytes) } }
    mutating func encode(_ value: Double) throws {
        if begin() { JSONEncoding.write(.double(value), to: &writer.bytes) }
    }
    mutating func encode(_ value: Float) throws {
        if begin() { JSONEncoding.write(.double(Double(value)), to: &writer.bytes) }
    }
    mutating func encode(_ value: Int) throws { if begin() { writer.bytes.append(contentsOf: String(value).utf8) } }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { if begin() { writer.bytes.append(contentsOf: String(value).utf8) } }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
    mutating func encode(_ value: some Encodable) throws {
        guard begin() else { return }
        // The value writes itself in this position (its container, if it opens one, is this position's).
        position.isWritten = false
        try writer.write(value, at: position)
    }

    private func encodeInteger(_ value: some BinaryInteger) throws {
        if begin() { try writer.writeInteger(value, codingPath: codingPath) }
    }
}
