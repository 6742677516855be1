import Testing

@testable import Protocol

/// Parses raw bytes, returning the error instead of throwing.
func parseResult(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
    do { return .success(try JSONParsing.parse(bytes)) } catch { return .failure(error) }
}

/// What `value` reads back as after encoding: doubles with no fraction below 1e15 are written as integers.
func normalizedForWire(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let d) where !d.isFinite: return .null
    case .double(let d) where d.rounded() == d && abs(d) < 1e15: return .int(Int64(d))
    case .array(let elements): return .array(elements.map(normalizedForWire))
    case .object(let object):
        var result = JSONObject()
        for member in object { result[member.key] = normalizedForWire(member.value) }
        return .object(result)
    default: return value
    }
}

private func roundTrip(_ value: JSONValue) throws -> JSONValue {
    try JSONParsing.parse(JSONEncoding.encode(value))
}

@Suite struct JSONTests {
    // MARK: Round trips

    @Test func nestedValuesRoundTrip() throws {
        let value: JSONValue = .object([
            "type": "start",
            "id": 42,
            "nested": .object([
                "a": [1, 2, [3, [4, .object([:])]], []], "b": .object(["c": nil, "d": true, "e": false]),
            ]),
            "numbers": [
                0, -1, .int(Int64.max), .int(Int64.min), 0.5, -2.5e-7, 1e300, 1.7976931348623157e308,
                .double(.leastNonzeroMagnitude), 1e15, 123456.789,
            ],
            "text": "plain",
            "": "empty key",
        ])
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip(.array([])) == .array([]))
        #expect(try roundTrip(.object([:])) == .object([:]))
        #expect(try roundTrip(.string("")) == .string(""))
        #expect(try roundTrip(.null) == .null)
    }

    @Test func escapesAndControlCharactersRoundTrip() throws {
        var text = "quote \" backslash \\ slash / newline \n return \r tab \t"
        for scalar in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        text += "\u{7F} end"
        let encoded = JSONEncoding.encode(.string(text))
        #expect(!encoded.contains { $0 < 0x20 }, "no raw control byte may reach the wire")
        #expect(try roundTrip(.string(text)) == .string(text))
        #expect(try roundTrip(.object([text: .string(text)])) == .object([text: .string(text)]))
    }

    @Test func encoderWritesTheRequiredEscapes() {
        let encoded = String(
            decoding: JSONEncoding.encode(.string("\"\\\n\r\t\u{01}\u{1F}/\u{08}\u{0C}")), as: UTF8.self)
        #expect(encoded == #""\"\\\n\r\t\u0001\u001f/\u0008\u000c""#)
    }

    @Test func unicodeRoundTripsIncludingAstralPlanes() throws {
        let text = "é ß Ω 中文 日本語 😀 🇳🇱 👩‍👩‍👧 \u{10FFFF} \u{FFFD} \u{2028}"
        #expect(try roundTrip(.string(text)) == .string(text))
        var rng = FuzzRandom(seed: 2024)
        for _ in 0..<500 {
            var random = ""
            for _ in 0..<rng.below(20) {
                var code = UInt32(truncatingIfNeeded: rng.next()) % 0x110000
                if (0xD800...0xDFFF).contains(code) { code = 0x41 }
                random.unicodeScalars.append(Unicode.Scalar(code)!)
            }
            #expect(try roundTrip(.string(random)) == .string(random))
        }
    }

    @Test func unicodeEscapesIncludingSurrogatePairsDecode() throws {
        #expect(try JSONParsing.parse(#""\u00e9\u00C9""#) == .string("éÉ"))
        #expect(try JSONParsing.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParsing.parse(#""\uD83D\uDE00x\uDBFF\uDFFF""#) == .string("😀x\u{10FFFF}"))
        #expect(try JSONParsing.parse(#""\u0000\u001f""#) == .string("\u{0}\u{1F}"))
        #expect(try JSONParsing.parse(#""a\/b\bc\fd\ne\rf\tg\"h\\""#) == .string("a/b\u{8}c\u{C}d\ne\rf\tg\"h\\"))
        // Escapes mixed with raw multi-byte text (the slow path validates both).
        #expect(try JSONParsing.parse(#""é\n😀\u00e9""#) == .string("é\n😀é"))
    }

    @Test func randomDoublesRoundTripExactly() throws {
        var rng = FuzzRandom(seed: 99)
        for _ in 0..<2000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let back = try roundTrip(.double(d))
            #expect(back == normalizedForWire(.double(d)), "\(d)")
            #expect(back.doubleValue == d || (d == 0 && back.doubleValue == 0), "\(d)")
        }
    }

    @Test func wholeDoublesAreWrittenAsIntegers() throws {
        #expect(JSONValue.double(3).description == "3")
        #expect(try roundTrip(.double(3)) == .int(3))
        #expect(try roundTrip(.double(-0.0)) == .int(0))
        #expect(JSONValue.double(.nan).description == "null")
        #expect(JSONValue.double(.infinity).description == "null")
    }

    @Test func bigIntegersStayExact() throws {
        #expect(try JSONParsing.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSONParsing.parse("-9223372036854775808") == .int(Int64.min))
        #expect(try JSONParsing.parse("[9007199254740993]") == [.int(9_007_199_254_740_993)])  // 2^53 + 1, not a double
        #expect(try roundTrip(.int(Int64.max)) == .int(Int64.max))
        #expect(try roundTrip(.int(Int64.min)) == .int(Int64.min))
        // One past Int64 is still a number, as a double.
        #expect(try JSONParsing.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONParsing.parse("-0") == .int(0))
    }

    @Test func doublesParse() throws {
        #expect(try JSONParsing.parse("1.5") == .double(1.5))
        #expect(try JSONParsing.parse("-0.25e-2") == .double(-0.0025))
        #expect(try JSONParsing.parse("1E+2") == .double(100))
        #expect(try JSONParsing.parse("1e2").intValue == 100)
        #expect(try JSONParsing.parse("1e-400") == .double(0))  // underflow reads as zero
        #expect(try JSONParsing.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
    }

    @Test func whitespaceAroundValuesIsAllowed() throws {
        let value = try JSONParsing.parse(" \t\r\n{ \"a\" :\n[ 1 ,\t2 ] , \"b\" : { } }\r\n ")
        #expect(value == .object(["a": [1, 2], "b": .object([:])]))
    }

    @Test func repeatedKeysKeepTheLastValue() throws {
        let value = try JSONParsing.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value["a"] == 3)
        #expect(value.objectValue?.count == 2)
    }

    // MARK: Rejections

    @Test(arguments: [
        "", " ", "[1,]", "[,1]", "[1,,2]", #"{"a":1,}"#, #"{,}"#, "{'a':1}", "'text'", #"{a:1}"#, #"{"a" 1}"#,
        #"{"a":}"#,
        "{1:2}", "[1 2]", "01", "-01", "00", "[01]", #"{"a":012}"#, "NaN", "-NaN", "Infinity", "-Infinity", "nan",
        "1.", ".5", "1e", "1e+", "+1", "-", "--1", "0x10", "1.2.3", "1e5e5", "tru", "truex", "nul", "nulll", "True",
        "None",
        #""unterminated"#, #""\x""#, #""\u12""#, #""\u12G4""#, #""\"#, #""\u""#, "{} x", "1 2", "[] []", "\"a\" \"b\"",
        "]", "}",
        "[", "{", #"{"a""#, #"{"a":"#, "[1", "\u{0B}1", "\u{0C}1", "\u{A0}1", "\u{FEFF}1", "/* c */ 1", "1 // c",
        "1e400", "-1e400", "[1e999]", #"{"t":123456789e400}"#,
    ])
    func malformedTextIsRejected(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(text) }
    }

    @Test func rawControlCharactersInsideStringsAreRejected() throws {
        for byte in UInt8(0)..<0x20 {
            #expect(throws: JSONParseError.self, "byte \(byte)") { try JSONParsing.parse([0x22, 0x61, byte, 0x22]) }
            // Also after an escape, on the slow path.
            #expect(throws: JSONParseError.self, "byte \(byte)") {
                try JSONParsing.parse([0x22, 0x5C, 0x6E, byte, 0x22])
            }
        }
        #expect(try JSONParsing.parse([0x22, 0x7F, 0x22]) == .string("\u{7F}"))
    }

    @Test(arguments: [
        #""\ud800""#, #""\udbff""#, #""\udc00""#, #""\udfff""#, #""\ud800\u0041""#, #""\ud800x""#, #""\ud800\""#,
        #""\ud800\ud800""#, #""\ude00\ud83d""#, #""\ud83d\n\ude00""#, #""\ud83d\u""#, #""\ud83d\ude0""#,
    ])
    func loneSurrogatesAreRejected(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(text) }
    }

    @Test(
        arguments: [
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],  // truncated
            [0xFF], [0xFE], [0x80], [0xBF, 0x41],  // never valid / stray continuation
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // UTF-16 surrogates encoded in UTF-8
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],  // above U+10FFFF
            [0xC3, 0x41], [0xE2, 0x28, 0xA1],  // bad continuation
        ] as [[UInt8]])
    func invalidUTF8IsRejected(_ sequence: [UInt8]) {
        let fast: [UInt8] = [0x22] + sequence + [0x22]
        let slow: [UInt8] = [0x22, 0x5C, 0x74] + sequence + [0x5C, 0x6E, 0x22]
        let asKey: [UInt8] = [0x7B, 0x22] + sequence + [0x22, 0x3A, 0x31, 0x7D]
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(fast) }
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(slow) }
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(asKey) }
        // Outside a string it is just an unexpected character.
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(sequence) }
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(Array("[1]".utf8) + sequence) }
    }

    @Test func nestingUpToTheLimitIsAcceptedAndBeyondRejected() throws {
        #expect(JSONParsing.maximumDepth == 32)
        let arrays32 = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(throws: Never.self) { try JSONParsing.parse(arrays32) }
        let arrays33 = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(arrays33) }
        let objects32 = String(repeating: #"{"a":"#, count: 31) + "{}" + String(repeating: "}", count: 31)
        #expect(throws: Never.self) { try JSONParsing.parse(objects32) }
        let mixed33 = String(repeating: #"[{"a":"#, count: 16) + "[1]" + String(repeating: "}]", count: 16)
        #expect(throws: JSONParseError.self) { try JSONParsing.parse(mixed33) }
        // Depth counts containers, not scalars: 32 arrays holding a number are fine.
        let withScalar = String(repeating: "[", count: 32) + "7" + String(repeating: "]", count: 32)
        #expect(try JSONParsing.parse(withScalar) != .null)
    }

    @Test func hugeNestingFailsCleanly() {
        for opener in ["[", #"{"k":"#, "[{\"k\":"] {
            let text = String(repeating: opener, count: 10_000)
            do {
                _ = try JSONParsing.parse(text)
                Issue.record("10,000 levels of \(opener) were accepted")
            } catch {
                #expect(error.reason.contains("deeper"), "\(error)")
            }
        }
    }

    @Test func errorsSayWhereTheyStopped() {
        guard case .failure(let error) = parseResult(Array("[1,]".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(error.offset == 3)
        #expect(error.description == "\(error.reason) at byte 3")
        guard case .failure(let trailing) = parseResult(Array("{}  x".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(trailing.offset == 4)
        #expect(trailing.reason.contains("after"))
        guard case .failure(let range) = parseResult(Array("[ 1e400]".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(range.offset == 2)
        #expect(range.reason.contains("range"))
    }

    // MARK: Values and objects

    @Test func accessorsReadTheRightKinds() {
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.int(3).stringValue == nil)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.int(3).intValue == 3)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.double(1e16).intValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
        #expect(JSONValue.int(3).doubleValue == 3)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1])["a"] == 1)
        #expect(JSONValue.array([1])["a"] == nil)
        #expect(JSONValue.null.kindName == "null")
        #expect(JSONValue.double(1).kindName == "a number")
        #expect(JSONValue.object([:]).kindName == "an object")
        #expect(JSONValue.array([]).kindName == "an array")
        #expect(JSONValue.number(5) == .int(5))
        #expect(JSONValue.optional(nil) == .null)
        #expect(JSONValue.optional("a") == "a")
    }

    @Test func objectsKeepOrderButCompareWithoutIt() {
        var object: JSONObject = ["type": "x", "b": 1]
        object["a"] = 2
        object["b"] = 3  // replaced in place
        #expect(object.members.map(\.key) == ["type", "b", "a"])
        #expect(JSONValue.object(object).description == #"{"type":"x","b":3,"a":2}"#)
        object["b"] = nil
        #expect(object.members.map(\.key) == ["type", "a"])
        let reordered: JSONObject = ["a": 2, "type": "x"]
        #expect(object == reordered)
        #expect(object.hashValue == reordered.hashValue)
        #expect(object != ["a": 2, "type": "y"])
        #expect(object != ["a": 2])
    }

    @Test func encodeLineEndsWithOneNewline() {
        let line = JSONEncoding.encodeLine(.object(["type": "pong"]))
        #expect(line == Array(#"{"type":"pong"}"#.utf8) + [0x0A])
        #expect(!line.dropLast().contains(0x0A))
        // Newlines inside strings never break the line.
        #expect(!JSONEncoding.encodeLine(.string("a\nb\rc")).dropLast().contains { $0 == 0x0A || $0 == 0x0D })
    }
}

/// The one-pass writer against the tree: the same text for every shape, and a fall back for what it cannot follow.
@Suite struct JSONStreamEncodingTests {
    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String]
        var score: Double
    }

    enum Move: Codable, Equatable {
        case buzz
        case answer(text: String, at: Int64)
    }

    struct Everything: Codable, Equatable {
        var text = "Ann \"the\" \u{1}\n"
        var flag = true
        var count = 3
        var small: UInt8 = 7
        var ratio: Float = 0.5
        var big: Int64 = -9_007_199_254_740_993
        var missing: String? = nil
        var present: Int? = 4
        @Nullable var none: String? = nil
        var inner = Inner(name: "Red", tags: ["a", "b"], score: 1.25)
        var inners: [Inner] = [Inner(name: "x", tags: [], score: 2), Inner(name: "y", tags: ["z"], score: -0.1)]
        var holes: [Int?] = [1, nil, 3]
        var json: JSONValue = ["b": 1, "a": [true, .null]]
        var object: JSONObject = ["z": 1, "y": "two"]
        var counts: [String: Int] = ["one": 1]
        var moves: [Move] = [.buzz, .answer(text: "pack", at: 12)]
        var empty = Empty()
        var nested: [[Int]] = [[], [1, 2]]
    }

    struct Empty: Codable, Equatable {}

    /// Encodes the same key twice: the tree keeps the last value at the first place.
    struct TwiceKeyed: Encodable {
        enum Key: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .a)
        }
    }

    /// Goes back to a nested container after writing a sibling.
    struct BackToNested: Encodable {
        enum Key: String, CodingKey { case inner, after }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var inner = container.nestedUnkeyedContainer(forKey: .inner)
            try inner.encode(1)
            try container.encode("x", forKey: .after)
            try inner.encode(2)
        }
    }

    /// Asks for its container twice, in order: the same object either way.
    struct TwoContainers: Encodable {
        enum Key: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Key.self)
            try first.encode(1, forKey: .a)
            var second = encoder.container(keyedBy: Key.self)
            try second.encode(2, forKey: .b)
        }
    }

    struct WithSuper: Encodable {
        enum Key: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try "up".encode(to: container.superEncoder())
        }
    }

    static func tree(_ value: some Encodable) throws -> [UInt8] { JSONEncoding.encode(try JSONCoding.encode(value)) }

    /// The one-pass text of `value`, or nil when it fell back.
    static func onePass(_ value: some Encodable) -> [UInt8]? { JSONCoding.streamed(value)?.bytes }

    @Test func inOrderValuesAreWrittenInOnePassAsTheTreeWritesThem() throws {
        let values: [any Encodable] = [
            Everything(), Inner(name: "", tags: [], score: 0), Empty(), [Move.buzz], "root", 42, [1.5, 2],
            ["k": JSONValue.null], Nullable<Int>(wrappedValue: nil), TwoContainers(),
        ]
        for value in values {
            let written = Self.onePass(value)
            #expect(written != nil, "\(value) fell back")
            #expect(written == (try Self.tree(value)), "\(String(decoding: written ?? [], as: UTF8.self))")
            #expect(try JSONCoding.bytes(value) == (try Self.tree(value)))
        }
        #expect(JSONCoding.streamed(Everything())?.rootKeys.first == "text")
        #expect(JSONCoding.streamed(Everything())?.rootKeys.contains("missing") == false)
    }

    @Test func whatOnePassCannotFollowFallsBackToTheTree() throws {
        let values: [any Encodable] = [TwiceKeyed(), BackToNested(), WithSuper(), [TwiceKeyed()], Everything()]
        for value in values.dropLast() {
            #expect(Self.onePass(value) == nil, "\(value) was written in one pass")
            #expect(try JSONCoding.bytes(value) == (try Self.tree(value)))
        }
        #expect(String(decoding: try JSONCoding.bytes(TwiceKeyed()), as: UTF8.self) == #"{"a":3,"b":2}"#)
        #expect(
            String(decoding: try JSONCoding.bytes(BackToNested()), as: UTF8.self) == #"{"inner":[1,2],"after":"x"}"#)
        #expect(throws: EncodingError.self) { try JSONCoding.bytes([UInt64.max]) }
    }
}
