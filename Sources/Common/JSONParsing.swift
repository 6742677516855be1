/// Why a line is not acceptable JSON, with the byte offset where reading stopped.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, in plain words.
    public var reason: String
    /// The byte offset in the input where it was noticed.
    public var offset: Int

    /// Creates an error.
    public init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason) at byte \(offset)" }
}

/// A strict RFC 8259 JSON reader with a nesting limit, for untrusted input.
///
/// It never traps on any input: every malformed, truncated, over-deep or non-UTF-8 input
/// yields a `JSONParseError`. Integers that fit `Int64` stay exact; other numbers become `Double`.
public enum JSONParsing {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 32

    /// Parses exactly one JSON value from `bytes` (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else {
                throw JSONParseError("unexpected text after the JSON value", at: reader.index)
            }
            return value
        }
    }

    /// Parses exactly one JSON value from `text`.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses a whole file's JSON and remembers where each value starts, for errors that name a line.
    ///
    /// A leading byte-order mark is skipped. A parse error's `offset` counts from the start of `bytes`.
    public static func parseDocument(_ bytes: [UInt8]) throws(JSONParseError) -> JSONDocument {
        let skip = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONDocument in
            var reader = Reader(bytes: buffer, recordsPositions: true)
            reader.index = skip
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else {
                throw JSONParseError("unexpected text after the JSON value", at: reader.index)
            }
            return JSONDocument(value: value, bytes: bytes, offsets: reader.offsets)
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Whether `offsets` is filled in (only for documents: the wire path pays nothing for it).
        let recordsPositions: Bool
        var path: [JSONPathComponent] = []
        var offsets: [[JSONPathComponent]: Int] = [:]

        init(bytes: UnsafeBufferPointer<UInt8>, recordsPositions: Bool = false) {
            self.bytes = bytes
            self.recordsPositions = recordsPositions
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func fail(_ reason: String) -> JSONParseError { JSONParseError(reason, at: index) }

        mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
            guard index < bytes.count else { throw fail("the JSON ends too early") }
            if recordsPositions { offsets[path] = index }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
            case UInt8(ascii: "["): return try readArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "t"):
                try expectWord("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectWord("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectWord("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
            default: throw fail("unexpected character")
            }
        }

        mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail("the JSON ends too early") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw fail("unexpected word")
            }
            index += count
        }

        mutating func readObject(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParsing.maximumDepth else {
                throw fail("nested deeper than \(JSONParsing.maximumDepth) levels")
            }
            index += 1
            var object = JSONObject()
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw fail("the JSON ends too early") }
                guard bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
                let key = try readString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after a member name")
                }
                index += 1
                skipWhitespace()
                if recordsPositions { path.append(.key(key)) }
                let value = try readValue(depth: depth)
                if recordsPositions { path.removeLast() }
                object[key] = value  // a repeated key keeps the last value, as most readers do
                skipWhitespace()
                guard index < bytes.count else { throw fail("the JSON ends too early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(object)
                }
                throw fail("expected ',' or '}' in an object")
            }
        }

        mutating func readArray(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParsing.maximumDepth else {
                throw fail("nested deeper than \(JSONParsing.maximumDepth) levels")
            }
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                if recordsPositions { path.append(.index(elements.count)) }
                elements.append(try readValue(depth: depth))
                if recordsPositions { path.removeLast() }
                skipWhitespace()
                guard index < bytes.count else { throw fail("the JSON ends too early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                throw fail("expected ',' or ']' in an array")
            }
        }

        mutating func readHex4() throws(JSONParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("the JSON ends inside a \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail("bad hex digit in a \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func readString() throws(JSONParseError) -> String {
            index += 1  // opening quote
            let start = index
            // Fast path: no escapes.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    guard let string = String(validating: slice, as: UTF8.self) else {
                        throw JSONParseError("text is not valid UTF-8", at: start)
                    }
                    index += 1
                    return string
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw fail("control character inside a string") }
                index += 1
            }
            var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    guard let string = String(validating: scratch, as: UTF8.self) else {
                        throw JSONParseError("text is not valid UTF-8", at: start)
                    }
                    index += 1
                    return string
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw fail("the JSON ends inside an escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scratch.append(0x22)
                    case UInt8(ascii: "\\"): scratch.append(0x5C)
                    case UInt8(ascii: "/"): scratch.append(0x2F)
                    case UInt8(ascii: "b"): scratch.append(0x08)
                    case UInt8(ascii: "f"): scratch.append(0x0C)
                    case UInt8(ascii: "n"): scratch.append(0x0A)
                    case UInt8(ascii: "r"): scratch.append(0x0D)
                    case UInt8(ascii: "t"): scratch.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try readHex4()
                        if (0xD800...0xDBFF).contains(code) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else {
                                throw fail("lone high surrogate in a \\u escape")
                            }
                            index += 2
                            let low = try readHex4()
                            guard (0xDC00...0xDFFF).contains(low) else {
                                throw fail("bad low surrogate in a \\u escape")
                            }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(code) {
                            throw fail("lone low surrogate in a \\u escape")
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
                        scratch.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw fail("unknown escape")
                    }
                default:
                    if byte < 0x20 { throw fail("control character inside a string") }
                    scratch.append(byte)
                    index += 1
                }
            }
            throw fail("the JSON ends inside a string")
        }

        mutating func readNumber() throws(JSONParseError) -> JSONValue {
            let start = index
            var isInteger = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw fail("the JSON ends inside a number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            } else {
                throw fail("bad number")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                let digitsStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digitsStart else { throw fail("bad number: no digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                let digitsStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digitsStart else { throw fail("bad number: no digits in the exponent") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger, let integer = Int64(text) { return .int(integer) }
            guard let double = Double(text), double.isFinite else {
                throw JSONParseError("number out of range", at: start)
            }
            return .double(double)
        }
    }
}

/// Compact JSON encoding into bytes, with the escapes RFC 8259 requires.
public enum JSONEncoding {
    /// The compact JSON text of `value`.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        write(value, to: &output)
        return output
    }

    /// The compact JSON text of `value` followed by a newline: one wire line.
    public static func encodeLine(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        write(value, to: &output)
        output.append(0x0A)
        return output
    }

    /// Appends the compact JSON text of `value` to `output`.
    public static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let b): output.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
        case .int(let i): output.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite {
                if d.rounded() == d && abs(d) < 1e15 {
                    output.append(contentsOf: String(Int64(d)).utf8)
                } else {
                    output.append(contentsOf: "\(d)".utf8)
                }
            } else {
                output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            }
        case .string(let s): writeString(s, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var isFirst = true
            for member in object.members {
                if !isFirst { output.append(UInt8(ascii: ",")) }
                isFirst = false
                writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `string` as a quoted JSON string.
    public static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                output.append(0x5C)
                output.append(0x22)
            case UInt8(ascii: "\\"):
                output.append(0x5C)
                output.append(0x5C)
            case 0x0A:
                output.append(0x5C)
                output.append(UInt8(ascii: "n"))
            case 0x0D:
                output.append(0x5C)
                output.append(UInt8(ascii: "r"))
            case 0x09:
                output.append(0x5C)
                output.append(UInt8(ascii: "t"))
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
