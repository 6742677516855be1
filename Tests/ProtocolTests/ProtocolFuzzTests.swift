import Testing

@testable import Protocol

/// SplitMix64: a tiny, fast, seeded generator so every fuzz run sees the same inputs.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability 1/`oneIn`.
    mutating func oneIn(_ oneIn: Int) -> Bool { below(oneIn) == 0 }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    mutating func pick<T>(_ elements: [T]) -> T { elements[below(elements.count)] }

    /// An Int64 biased toward edges and small values.
    mutating func int64() -> Int64 {
        switch below(6) {
        case 0: return pick([Int64.min, .min + 1, -1, 0, 1, .max - 1, .max, 9_007_199_254_740_993])
        case 1: return Int64(bitPattern: next())
        case 2: return Int64(below(2_000_001)) - 1_000_000
        default: return Int64(below(100_000))
        }
    }
}

/// Collects fuzz failures cheaply (a `#expect` per check would dominate the run time) and reports the first few.
private struct Tally {
    var failures: [String] = []
    var failureCount = 0

    mutating func check(_ condition: Bool, _ what: @autoclosure () -> String, input: [UInt8]) {
        guard !condition else { return }
        failureCount += 1
        if failures.count < 20 {
            let shown = input.prefix(120).map {
                $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x\(String($0, radix: 16))"
            }.joined()
            failures.append("\(what()) — input (\(input.count) bytes): \(shown)")
        }
    }
}

private let validMessages: [String] = [
    #"{"type":"hello","protocol":1,"room":"ABCD","name":"Ann","team":"Red","clock":true}"#,
    #"{"type":"hello","room":"ABCD","role":"admin","key":"s3cret","id":1}"#,
    #"{"type":"hello","room":"ABCD","role":"board","resume":"tok"}"#,
    #"{"type":"ping","t":123456}"#, #"{"type":"ping","id":"p1"}"#,
    #"{"type":"sync","n":3,"h":1000,"c1":5010,"c2":5012}"#,
    #"{"type":"buzz","t":98765}"#, #"{"type":"buzz"}"#,
    #"{"type":"answer","text":"the Eiffel Tower","id":7}"#,
    #"{"type":"answer","text":"Zürich \u00e9 \ud83d\ude00 \n"}"#,
    #"{"type":"shake"}"#, #"{"type":"next"}"#, #"{"type":"pause"}"#, #"{"type":"continue"}"#, #"{"type":"resume"}"#,
    #"{"type":"end"}"#, #"{"type":"status"}"#, #"{"type":"scores"}"#, #"{"type":"bye"}"#, #"{"type":"pong"}"#,
    #"{"type":"start","game":"shaky","questions":10,"difficulty":"mixed","packs":["science","animals"],"answerSeconds":30}"#,
    #"{"type":"start","game":"queen","countdownSeconds":5.5,"x":{"y":[null,true,false,-1.25e-3]}}"#,
    #"{"type":"kick","name":"Bo"}"#,
    #"{"type":"command","template":"sing-duet","save":false}"#,
    #"{"type":"command","text":"No. {1} sings to No. {2}","save":true}"#,
    #"{"type":"library","action":"add","text":"Dance","kind":"dare"}"#,
    #"{"type":"packs","action":"add","pack":"p1","question":{"difficulty":"easy","text":"2+2?","answer":"4"}}"#,
]

private let textLines: [String] = [
    "join ABCD Ann Red", "watch abcd", "admin ABCD key", "buzz", "b", "!", "a Paris", "answer the Eiffel Tower",
    "shake",
    "start shaky 10 mixed science,animals answer-seconds=30", "start queen countdown-seconds=5",
    "library add kind=dare Sing {1}",
    "library edit c1 new text", "pack add p1 easy | 2+2? | 4", "pack edit p1 3 hard|Q|A", "pack remove p1 2",
    "pack copy p1 Copy",
    "kick Ann", "pick c3", "order No. {1} hops", "commands dance", "help start", "Paris",
]

private let tokens: [[UInt8]] =
    [
        "1e400", "-", "\"", "\\", "\\u", "\\ud800", "\\udc00", "[", "{", "]", "}", ",", ":", "null", "NaN", "01", "-0",
        "1.",
        "9223372036854775808", "-9223372036854775809", "1.5", "true", "\"type\"", "\"id\":", "'", "\u{FEFF}", " ", "\t",
    ].map { Array($0.utf8) } + [
        [0xFF], [0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0x00],
        [0x0A], [0x0D], [0x0D, 0x00], [255, 251, 1], [255, 250, 24], [255, 240], [255, 255], [255, 241], [0x7F],
    ]

private let jsonAlphabet = Array("{}[]\":,0123456789-+.eEtrufalsn\\/ u\"abcdAB".utf8)

private enum FieldKind { case string, integer, bool }

/// Each type's checked fields, with a valid value for each, for the wrong-type oracle.
private let fieldSpecs: [(type: String, fields: [(name: String, kind: FieldKind, valid: JSONValue)])] = [
    (
        "hello",
        [
            ("protocol", .integer, 1), ("room", .string, "ABCD"), ("name", .string, "Ann"), ("team", .string, "Red"),
            ("role", .string, "player"), ("key", .string, "k"), ("resume", .string, "tok"), ("clock", .bool, true),
        ]
    ),
    ("ping", [("t", .integer, 5)]),
    ("sync", [("n", .integer, 1), ("h", .integer, 2), ("c1", .integer, 3), ("c2", .integer, 4)]),
    ("buzz", [("t", .integer, 77)]),
    ("answer", [("text", .string, "Paris")]),
    ("start", [("game", .string, "shaky")]),
    ("kick", [("name", .string, "Bo")]),
    ("command", [("text", .string, "hop"), ("save", .bool, false)]),
    ("command", [("template", .string, "c1"), ("save", .bool, true)]),
    ("library", [("action", .string, "list")]),
    ("packs", [("action", .string, "show")]),
]

private let decodableTypes = Set(ClientMessage.typeNames + ["resume", "quit"]).union(actions)

private struct Fuzzer {
    var rng: FuzzRandom
    var tally = Tally()
    var inputCount = 0
    var acceptedCount = 0
    var clock = ClockEstimator()

    init(seed: UInt64) { rng = FuzzRandom(seed: seed) }

    // MARK: Generators

    mutating func randomString(maximumLength: Int) -> String {
        var text = ""
        for _ in 0..<rng.below(maximumLength + 1) {
            switch rng.below(5) {
            case 0: text.unicodeScalars.append(Unicode.Scalar(UInt8(rng.below(0x20))))
            case 1:
                var code = UInt32(truncatingIfNeeded: rng.next()) % 0x110000
                if (0xD800...0xDFFF).contains(code) { code = 0xFFFD }
                text.unicodeScalars.append(Unicode.Scalar(code)!)
            case 2: text.append(rng.pick(["\"", "\\", "/", "é", "😀", "\u{2028}", "\u{7F}"]))
            default: text.unicodeScalars.append(Unicode.Scalar(UInt8(0x20 + rng.below(0x5F))))
            }
        }
        return text
    }

    mutating func randomJSON(depth: Int) -> JSONValue {
        switch rng.below(depth >= 4 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(rng.oneIn(2))
        case 2: return .int(rng.int64())
        case 3:
            if rng.oneIn(2) { return .double(Double(rng.below(2_000_001) - 1_000_000) / 64) }
            let d = Double(bitPattern: rng.next())
            return d.isFinite ? .double(d) : .double(0.1)
        case 4, 5: return .string(randomString(maximumLength: rng.oneIn(8) ? 60 : 8))
        case 6: return .array((0..<rng.below(5)).map { _ in randomJSON(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<rng.below(5) { object[randomString(maximumLength: 6)] = randomJSON(depth: depth + 1) }
            return .object(object)
        }
    }

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + rng.below(5)) {
            switch rng.below(8) {
            case 0 where !bytes.isEmpty: bytes[rng.below(bytes.count)] ^= UInt8(1) << UInt8(rng.below(8))
            case 1 where !bytes.isEmpty: bytes[rng.below(bytes.count)] = rng.byte()
            case 2: bytes.insert(rng.byte(), at: rng.below(bytes.count + 1))
            case 3: bytes.insert(contentsOf: rng.pick(tokens), at: rng.below(bytes.count + 1))
            case 4 where !bytes.isEmpty:
                let start = rng.below(bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + 1 + rng.below(4)))
            case 5 where !bytes.isEmpty: bytes.removeSubrange(rng.below(bytes.count)...)  // truncate
            case 6 where !bytes.isEmpty:
                let start = rng.below(bytes.count)
                let slice = bytes[start..<min(bytes.count, start + 1 + rng.below(16))]
                bytes.insert(contentsOf: Array(slice), at: rng.below(bytes.count + 1))
            default:
                if !bytes.isEmpty { bytes[rng.below(bytes.count)] = rng.pick(jsonAlphabet) }
            }
        }
        return bytes
    }

    mutating func hugeNumber() -> [UInt8] {
        var text = rng.oneIn(2) ? "-" : ""
        text += String(1 + rng.below(9))
        for _ in 0..<rng.below(rng.oneIn(4) ? 400 : 25) { text += String(rng.below(10)) }
        if rng.oneIn(2) { text += "." + String(rng.below(1_000_000)) }
        if rng.oneIn(2) { text += rng.pick(["e", "E", "e+", "e-"]) + String(rng.below(rng.oneIn(2) ? 400 : 100_000)) }
        switch rng.below(4) {
        case 0: return Array(text.utf8)
        case 1: return Array(#"{"type":"buzz","t":\#(text)}"#.utf8)
        case 2: return Array(#"{"type":"sync","n":\#(text),"h":\#(text),"c1":1,"c2":2}"#.utf8)
        default: return Array(#"{"type":"hello","protocol":\#(text)}"#.utf8)
        }
    }

    mutating func deepNesting() -> [UInt8] {
        let isHuge = rng.oneIn(80)
        // (opener, closer, levels per opener)
        let shapes: [(String, String, Int)] = [
            ("[", "]", 1), (#"{"a":"#, "}", 1), (#"[{"type":"#, "}]", 2), (#"{"type":"buzz","x":["#, "]}", 2),
        ]
        let (opener, closer, levels) = rng.pick(isHuge ? Array(shapes.prefix(2)) : shapes)
        let count = isHuge ? 10_000 : (rng.oneIn(2) ? (28 + rng.below(10)) / levels : 1 + rng.below(60))
        var text = String(repeating: opener, count: count)
        if rng.oneIn(2) { text += "1" + String(repeating: closer, count: count) }
        return Array(text.utf8)
    }

    mutating func withInvalidUTF8() -> [UInt8] {
        let bad: [[UInt8]] = [
            [0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0x80],
        ]
        let prefix = Array(#"{"type":"answer","text":"ab"#.utf8)
        return prefix + rng.pick(bad) + Array(#"cd"}"#.utf8)
    }

    /// A telnet command. A line end always ends a line (see `LineFramer`), so no command holds CR or LF.
    mutating func telnetCommand() -> [UInt8] {
        func notLineEnd(_ byte: UInt8) -> UInt8 { byte == 0x0A || byte == 0x0D ? byte + 1 : byte }
        switch rng.below(4) {
        case 0: return [255, UInt8(251 + rng.below(4)), notLineEnd(rng.byte())]  // WILL/WONT/DO/DONT, any option
        case 1:
            var sub: [UInt8] = [255, 250, notLineEnd(UInt8(rng.below(255)))]  // the option code; 255 is an IAC
            for _ in 0..<rng.below(8) {
                let byte = notLineEnd(rng.byte())
                sub += byte == 255 ? [255, 255] : [byte]
            }
            return sub + [255, 240]
        case 2: return [255, UInt8(241 + rng.below(9))]  // NOP … GA
        default: return [255, notLineEnd(UInt8(rng.below(240)))]  // unassigned two-byte command
        }
    }

    // MARK: Checks

    mutating func checkParse(_ bytes: [UInt8]) -> JSONValue? {
        switch parseResult(bytes) {
        case .success(let value):
            tally.check(
                String(validating: bytes, as: UTF8.self) != nil, "accepted JSON that is not UTF-8", input: bytes)
            tally.check(
                !bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, "accepted a raw control byte",
                input: bytes)
            tally.check(
                depth(of: value) <= JSONParsing.maximumDepth, "accepted nesting deeper than the limit", input: bytes)
            checkRoundTrip(value, input: bytes)
            return value
        case .failure(let error):
            tally.check(
                error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the input",
                input: bytes)
            tally.check(!error.reason.isEmpty, "empty error reason", input: bytes)
            return nil
        }
    }

    mutating func checkRoundTrip(_ value: JSONValue, input: [UInt8]) {
        let encoded = JSONEncoding.encode(value)
        tally.check(!encoded.contains { $0 < 0x20 }, "encoder wrote a raw control byte", input: input)
        switch parseResult(encoded) {
        case .success(let again):
            tally.check(again == normalizedForWire(value), "round trip changed \(value) into \(again)", input: input)
        case .failure(let error): tally.check(false, "encoder output does not parse: \(error)", input: encoded)
        }
    }

    func depth(of value: JSONValue) -> Int {
        switch value {
        case .array(let elements): return 1 + (elements.map(depth(of:)).max() ?? 0)
        case .object(let object): return 1 + (object.members.map { depth(of: $0.value) }.max() ?? 0)
        default: return 0
        }
    }

    mutating func checkDecode(_ bytes: [UInt8], parsed: JSONValue?) {
        let result = decodeFully(line: bytes)
        guard let parsed else {
            tally.check(
                result.errorCode == .badJSON && result.errorID == nil, "invalid JSON did not give bad_json",
                input: bytes)
            return
        }
        tally.check(decodeFully(parsed) == result, "decoding the value and the line differ", input: bytes)
        guard case .object(let object) = parsed else {
            tally.check(result.errorCode == .badJSON, "a non-object did not give bad_json", input: bytes)
            return
        }
        var expectedID = object["id"]
        switch expectedID {
        case .int?, .string?, .double?: break
        default: expectedID = nil
        }
        switch result {
        case .success(let decoded):
            acceptedCount += 1
            if case .success(let envelope) = ClientMessageDecoding.decode(line: bytes, actions: actions) {
                tally.check(envelope.id == expectedID, "id not echoed as sent", input: bytes)
            }
            tally.check(
                object["type"]?.stringValue.map { decodableTypes.contains($0) } == true, "accepted an unknown type",
                input: bytes)
            useDecoded(decoded, input: bytes)
        case .failure(let error):
            tally.check(error.id == expectedID, "error id not echoed as sent", input: bytes)
            tally.check(
                !error.message.isEmpty && error.message.hasSuffix("."), "unclear error message \(error.message)",
                input: bytes)
            switch object["type"] {
            case nil, .string?: break
            default: tally.check(error.code == .badField, "non-string type gave \(error.code)", input: bytes)
            }
            if object["type"] == nil {
                tally.check(error.code == .badField, "missing type gave \(error.code)", input: bytes)
            }
            if let type = object["type"]?.stringValue {
                tally.check(
                    decodableTypes.contains(type) != (error.code == .unknownType), "type \(type) gave \(error.code)",
                    input: bytes)
                tally.check(
                    [.badField, .unknownType, .badVersion].contains(error.code), "unexpected code \(error.code)",
                    input: bytes)
            }
        }
    }

    /// Feeds what a client may send into the clock code, as the host does.
    mutating func useDecoded(_ message: Decoded, input: [UInt8]) {
        switch message {
        case .message(.sync(let reply)):
            clock.add(
                ClockSample(
                    hostSent: reply.hostSent, clientReceived: reply.clientReceived,
                    clientSent: reply.clientSent, hostReceived: Int64(rng.below(1 << 40))))
            tally.check(clock.uncertainty >= 1, "uncertainty below 1", input: input)
        case .shaky(.buzz(let stamp)):
            let arrival = Int64(rng.below(1 << 40))
            let estimate = PressEstimate.estimate(arrival: arrival, stamp: stamp, clock: clock)
            tally.check(
                estimate.pressedAt <= arrival && estimate.pressedAt >= arrival - clock.maximumRoundTrip,
                "press estimate outside [arrival − max RTT, arrival]", input: input)
        case .message(.hello(let hello)):
            tally.check(hello.protocolVersion == wireProtocolVersion, "accepted another protocol version", input: input)
            tally.check(
                hello.name.count <= FieldLimits.name && hello.team.count <= FieldLimits.name
                    && hello.room.count <= FieldLimits.room,
                "accepted an over-long hello field", input: input)
        case .shaky(.answer(let text)):
            tally.check(text.count <= FieldLimits.text, "accepted an over-long answer", input: input)
        default: break
        }
    }

    mutating func checkText(_ bytes: [UInt8]) {
        let command = TextCommandParsing.parse(String(decoding: bytes, as: UTF8.self))
        switch command {
        case .usage(let text): tally.check(!text.isEmpty, "empty usage", input: bytes)
        case .join(let room, let name, _):
            tally.check(room == room.uppercased() && !name.isEmpty, "bad join \(command)", input: bytes)
        case .freeText(let text):
            tally.check(text.first.map { !$0.isWhitespace } ?? true, "free text not trimmed", input: bytes)
            tally.check(text.last.map { !$0.isWhitespace } ?? true, "free text not trimmed", input: bytes)
        default: break
        }
        // A game's own text commands (the running game reads them after the session's).
        for parsed in [
            ShakyWire.Action.parse(text: String(decoding: bytes, as: UTF8.self)).map(String.init(describing:)),
            QueenWire.Action.parse(text: String(decoding: bytes, as: UTF8.self)).map(String.init(describing:)),
        ] {
            if let parsed { tally.check(!parsed.isEmpty, "empty game command", input: bytes) }
        }
        if case .action(.answer(let text))? = ShakyWire.Action.parse(text: String(decoding: bytes, as: UTF8.self)) {
            tally.check(!text.isEmpty, "empty answer command", input: bytes)
        }
    }

    /// Runs one input through the whole wire layer.
    mutating func check(_ input: [UInt8]) {
        inputCount += 1
        // A final LF flushes an unterminated last line, as the end of a transmission would.
        let transmission = input + [0x0A]
        let whole = frameWhole(transmission)
        let chunked = frameChunked(transmission, maximumChunk: 1 + rng.below(rng.oneIn(4) ? 3 : 200), using: &rng)
        tally.check(whole == chunked, "chunking changed the framing", input: input)
        var lines: [[UInt8]] = []
        for output in whole {
            guard case .line(let line) = output else { continue }
            tally.check(
                !line.isEmpty && line.count <= LineFramer.defaultMaximumLineLength, "bad line length \(line.count)",
                input: input)
            tally.check(!line.contains(0x0A) && !line.contains(0x0D), "line end inside a line", input: input)
            tally.check(!line.allSatisfy { $0 == 0x20 || $0 == 0x09 }, "blank line passed", input: input)
            lines.append(line)
        }
        if !input.contains(255), !input.contains(0x0A), !input.contains(0x0D),
            input.count <= LineFramer.defaultMaximumLineLength,
            !input.allSatisfy({ $0 == 0x20 || $0 == 0x09 })
        {
            tally.check(lines == [input], "a plain line did not frame as itself", input: input)
        }
        // The raw input too (for the JSON layers), in case framing removed the interesting bytes.
        let textLineCount = lines.count
        if lines.count != 1 || lines[0] != input { lines.append(input) }
        for (index, line) in lines.enumerated() where index < 8 || index == lines.count - 1 {
            let parsed = checkParse(line)
            checkDecode(line, parsed: parsed)
            if index < textLineCount { checkText(line) }  // text mode only ever sees framed lines
        }
    }

    /// The wrong-type oracle: one field of a valid message gets a value of the wrong kind.
    mutating func checkWrongFieldType() {
        let spec = rng.pick(fieldSpecs)
        var object: JSONObject = ["type": .string(spec.type)]
        if rng.oneIn(2) { object["id"] = rng.oneIn(2) ? .int(rng.int64()) : .string(randomString(maximumLength: 5)) }
        for field in spec.fields { object[field.name] = field.valid }
        if rng.oneIn(3) { object[randomString(maximumLength: 4) + "_extra"] = randomJSON(depth: 2) }
        let valid = Array(JSONValue.object(object).description.utf8)
        let validResult = decodeFully(line: valid)
        tally.check((try? validResult.get()) != nil, "a valid \(spec.type) was refused: \(validResult)", input: valid)

        let field = rng.pick(spec.fields)
        let wrong: JSONValue
        switch field.kind {
        case .string:
            wrong = rng.pick([.int(rng.int64()), .double(1.5), .bool(true), .array([]), .object([:]), .array(["x"])])
        case .integer:
            wrong = rng.pick([
                .string("1"), .double(0.5), .double(1e20), .double(-2.5), .bool(false), .array([1]), .object(["a": 1]),
            ])
        case .bool: wrong = rng.pick([.string("true"), .int(1), .int(0), .double(1), .array([]), .object([:])])
        }
        object[field.name] = wrong
        let bytes = Array(JSONValue.object(object).description.utf8)
        inputCount += 1
        switch decodeFully(line: bytes) {
        case .success(let decoded):
            tally.check(false, "wrong type for \(field.name) accepted as \(decoded)", input: bytes)
        case .failure(let error):
            tally.check(error.code == .badField, "wrong type for \(field.name) gave \(error.code)", input: bytes)
            // A whole number too large for 64 bits (1e20) says so; every other wrong value says what is expected.
            let expected = wrong == .double(1e20) ? "\"\(field.name)\" is out of range" : "\"\(field.name)\" must be"
            tally.check(error.message.hasPrefix(expected), "unclear message: \(error.message)", input: bytes)
            tally.check(error.id == object["id"], "id not echoed", input: bytes)
        }
        check(bytes + [0x0A])
        inputCount -= 1  // counted once above
    }

    /// A valid message wrapped in telnet noise and any line end must frame to exactly that message.
    mutating func checkTelnetWrapped() {
        let message = Array(rng.pick(validMessages).utf8)
        var stream: [UInt8] = []
        for byte in message {
            if rng.oneIn(12) { stream += telnetCommand() }
            stream.append(byte)
        }
        if rng.oneIn(2) { stream += telnetCommand() }
        stream += rng.pick([[0x0A], [0x0D, 0x0A], [0x0D, 0x00], [0x0D], [0x0D, 255, 241, 0x0A]])
        let outputs = frameChunked(stream, maximumChunk: 1 + rng.below(16), using: &rng)
        tally.check(outputs == [.line(message)], "telnet noise changed the payload: \(outputs)", input: stream)
        check(stream)
    }

    /// An over-long line is reported once and the message after it still decodes.
    mutating func checkLongLine() {
        let length = LineFramer.defaultMaximumLineLength + 1 + rng.below(24 * 1024)
        var stream = Array(#"{"type":"answer","text":""#.utf8)
        while stream.count < length { stream.append(rng.pick(jsonAlphabet)) }
        stream += [0x0D, 0x0A]
        let message = Array(rng.pick(validMessages).utf8)
        stream += message + [0x0A]
        let outputs = frameChunked(stream, maximumChunk: 1 + rng.below(8192), using: &rng)
        tally.check(
            outputs == [.lineTooLong(limit: LineFramer.defaultMaximumLineLength), .line(message)],
            "over-long line not reported exactly once", input: stream)
        check(stream)
    }

    mutating func runOne() {
        switch rng.below(16) {
        case 0: check((0..<rng.below(rng.oneIn(4) ? 256 : 64)).map { _ in rng.byte() })
        case 1: check((0..<rng.below(120)).map { _ in rng.pick(jsonAlphabet) })
        case 2, 3, 4: check(mutate(Array(rng.pick(validMessages).utf8)))
        case 5: check(hugeNumber())
        case 6: check(deepNesting())
        case 7: check(withInvalidUTF8())
        case 8: checkTelnetWrapped()
        case 9:
            var bytes = Array(rng.pick(validMessages).utf8)
            for _ in 0..<(1 + rng.below(3)) { bytes.insert(0, at: rng.below(bytes.count + 1)) }
            check(bytes)
        case 10: checkWrongFieldType()
        case 11:
            let value = randomJSON(depth: 0)
            checkRoundTrip(value, input: Array(value.description.utf8))
            var object: JSONObject = ["type": .string(rng.pick(ClientMessage.typeNames + ["nope", ""]))]
            for _ in 0..<rng.below(4) {
                object[
                    rng.pick([
                        "t", "n", "h", "c1", "c2", "text", "name", "game", "action", "id", "protocol", "role", "save",
                        "template",
                    ])] = randomJSON(depth: 1)
            }
            check(Array(JSONValue.object(object).description.utf8))
        case 12: check(mutate(Array(rng.pick(textLines).utf8)))
        case 13:
            let words = (0..<rng.below(7)).map { _ in
                rng.pick([
                    "join", "start", "pack", "library", "add", "edit", "a", "b", "=", "x=1", "-", "|", "10", "mixed",
                    "a,b", "\t", "é", "😀",
                ])
            }
            check(Array(words.joined(separator: rng.oneIn(3) ? "  " : " ").utf8))
        case 14:
            let ints = (0..<4).map { _ in String(rng.int64()) }
            let json =
                rng.oneIn(2)
                ? #"{"type":"sync","n":\#(ints[0]),"h":\#(ints[1]),"c1":\#(ints[2]),"c2":\#(ints[3])}"#
                : #"{"type":"buzz","t":\#(ints[0])}"#
            check(Array(json.utf8))
        default:
            if rng.oneIn(120) { checkLongLine() } else { check(mutate(Array(rng.pick(validMessages).utf8))) }
        }
    }
}

extension Result where Failure == ProtocolError {
    fileprivate var errorCode: ErrorCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
    fileprivate var errorID: JSONValue? {
        if case .failure(let error) = self { return error.id }
        return nil
    }
}

@Suite struct ProtocolFuzzTests {
    @Test(.timeLimit(.minutes(10))) func wireLayerSurvivesGeneratedInput() {
        var fuzzer = Fuzzer(seed: 0x5EED_0F_C0FFEE)
        let start = ContinuousClock.now
        while fuzzer.inputCount < 120_000 { fuzzer.runOne() }
        let elapsed = ContinuousClock.now - start
        print(
            "ProtocolFuzzTests: \(fuzzer.inputCount) inputs (\(fuzzer.acceptedCount) lines accepted as messages) in \(elapsed)"
        )
        #expect(fuzzer.inputCount >= 100_000)
        #expect(fuzzer.acceptedCount > 1_000, "the generators must also reach the success paths")
        #expect(fuzzer.tally.failureCount == 0, "\(fuzzer.tally.failureCount) fuzz checks failed")
        for failure in fuzzer.tally.failures { Issue.record(Comment(rawValue: failure)) }
    }

    @Test func fuzzGeneratorIsDeterministic() {
        var a = FuzzRandom(seed: 42)
        var b = FuzzRandom(seed: 42)
        var c = FuzzRandom(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
        // SplitMix64's published first output for seed 0.
        var zero = FuzzRandom(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}
