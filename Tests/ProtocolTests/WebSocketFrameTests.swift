import Testing

@testable import Protocol

@Suite struct WebSocketFrameTests {
    static let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    static let limit = 16 * 1024

    /// A masked client frame.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        WebSocketFrame.encode(opcode: opcode, payload: payload, fin: fin, mask: mask)
    }

    /// Decodes `bytes` fed `chunk` bytes at a time.
    static func decode(_ bytes: [UInt8], chunk: Int = .max) -> [WebSocketDecoder.Event] {
        var decoder = WebSocketDecoder(maximumMessageLength: limit)
        var events: [WebSocketDecoder.Event] = []
        let step = max(1, min(chunk, bytes.count))
        for start in stride(from: 0, to: bytes.count, by: step) {
            events += decoder.feed(bytes[start..<min(start + step, bytes.count)])
        }
        return events
    }

    /// The close code of the failure that ends `events`.
    static func failureCode(_ events: [WebSocketDecoder.Event]) -> UInt16? {
        if case .failure(let code, _)? = events.last { return code }
        return nil
    }

    @Test func sha1MatchesFIPSVectors() {
        #expect(SHA256.hexString(SHA1.hash([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA256.hexString(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            SHA256.hexString(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            SHA256.hexString(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func theRFC6455ExampleKeyGivesItsAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// A head for the upgrade with `changes` applied to its fields.
    static func upgrade(_ changes: [String: String?] = [:], method: String = "GET") -> HTTPRequestHead {
        var fields: [String: String?] = [
            "Host": "10.0.0.2:4747", "Upgrade": "websocket", "Connection": "keep-alive, Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
            "Origin": "http://10.0.0.2:4747",
        ]
        for (name, value) in changes { fields[name] = value }
        let headers = fields.compactMap { name, value in value.map { (name: name, value: $0) } }
        return HTTPRequestHead(method: method, target: "/ws", headers: headers.sorted { $0.name < $1.name })
    }

    static func status(_ head: HTTPRequestHead) -> Int? {
        if case .failure(let failure) = WebSocketHandshake.answer(to: head) { return failure.status }
        return nil
    }

    @Test func theHandshakeAnswers101WithTheAcceptAndNoSubprotocolOrExtension() throws {
        let head = Self.upgrade(["Sec-WebSocket-Protocol": "chat", "Sec-WebSocket-Extensions": "permessage-deflate"])
        let answer = String(decoding: try WebSocketHandshake.answer(to: head).get(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(answer.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(!answer.lowercased().contains("sec-websocket-protocol"))
        #expect(!answer.lowercased().contains("sec-websocket-extensions"))
        #expect(answer.hasSuffix("\r\n\r\n"))
        #expect(Self.status(Self.upgrade(["Origin": nil])) == nil)  // no Origin: not a browser page; allowed
    }

    @Test func aBadUpgradeIsRefusedWithTheRightStatus() {
        #expect(Self.status(Self.upgrade(["Upgrade": nil])) == 426)
        #expect(Self.status(Self.upgrade(["Sec-WebSocket-Version": "8"])) == 426)
        #expect(Self.status(Self.upgrade(["Connection": "keep-alive"])) == 400)
        #expect(Self.status(Self.upgrade(["Sec-WebSocket-Key": nil])) == 400)
        #expect(Self.status(Self.upgrade(["Sec-WebSocket-Key": "c2hvcnQ="])) == 400)
        #expect(Self.status(Self.upgrade(method: "HEAD")) == 400)
        #expect(Self.status(Self.upgrade(["Origin": "http://evil.example"])) == 403)
        #expect(Self.status(Self.upgrade(["Origin": "http://10.0.0.2:4748"])) == 403)
        #expect(Self.status(Self.upgrade(["Origin": "null"])) == 403)
    }

    @Test func originsCompareHostAndPort() {
        #expect(WebSocketHandshake.isSameOrigin("http://10.0.0.2:4747", host: "10.0.0.2:4747"))
        #expect(WebSocketHandshake.isSameOrigin("HTTP://Party.Local:4747", host: "party.local:4747"))
        #expect(WebSocketHandshake.isSameOrigin("http://party", host: "party:80"))
        #expect(WebSocketHandshake.isSameOrigin("http://[fe80::1]:4747", host: "[FE80::1]:4747"))
        #expect(!WebSocketHandshake.isSameOrigin("http://10.0.0.2:4747.evil.example", host: "10.0.0.2:4747"))
        #expect(!WebSocketHandshake.isSameOrigin("http://10.0.0.2:4747/", host: "10.0.0.2:4747"))
        #expect(!WebSocketHandshake.isSameOrigin("https://10.0.0.2", host: "10.0.0.2"))
        #expect(!WebSocketHandshake.isSameOrigin("http://user@10.0.0.2:4747", host: "10.0.0.2:4747"))
        #expect(!WebSocketHandshake.isSameOrigin("file://", host: "10.0.0.2:4747"))
    }

    @Test func theRFCExamplesDecode() {
        // RFC 6455 §5.7: a masked "Hello", and the same in two fragments.
        let hello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(Self.decode(hello) == [.text(Array("Hello".utf8))])
        #expect(Self.decode(hello, chunk: 1) == [.text(Array("Hello".utf8))])
        // The host's own unmasked frames: the RFC's bytes.
        #expect(
            WebSocketFrame.encode(opcode: WebSocketFrame.text, payload: Array("Hello".utf8))
                == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(
            WebSocketFrame.encode(opcode: WebSocketFrame.ping, payload: Array("Hello".utf8)).prefix(2) == [0x89, 0x05])
    }

    @Test func lengthsUseTheShortestOf7And16And64Bits() {
        for (length, headerCount) in [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)] {
            var header: [UInt8] = []
            WebSocketFrame.appendHeader(opcode: WebSocketFrame.text, length: length, into: &header)
            #expect(header.count == headerCount, "length \(length)")
        }
        // Masked frames of each length form decode (16-bit within the limit; 64-bit refused by the limit below).
        let medium = [UInt8](repeating: 0x61, count: 300)
        #expect(Self.decode(Self.frame(WebSocketFrame.text, medium), chunk: 5) == [.text(medium)])
        var decoder = WebSocketDecoder(maximumMessageLength: 100_000)
        let large = [UInt8](repeating: 0x62, count: 70_000)
        #expect(decoder.feed(Self.frame(WebSocketFrame.text, large)) == [.text(large)])
    }

    @Test func fragmentsJoinWithControlFramesBetween() {
        let bytes =
            Self.frame(WebSocketFrame.text, Array("{\"type\":".utf8), fin: false)
            + Self.frame(WebSocketFrame.ping, Array("p".utf8))
            + Self.frame(WebSocketFrame.continuation, Array("\"ping\"".utf8), fin: false)
            + Self.frame(WebSocketFrame.pong, [])
            + Self.frame(WebSocketFrame.continuation, Array("}".utf8))
        let expected: [WebSocketDecoder.Event] = [
            .ping(Array("p".utf8)), .pong([]), .text(Array("{\"type\":\"ping\"}".utf8)),
        ]
        #expect(Self.decode(bytes) == expected)
        #expect(Self.decode(bytes, chunk: 1) == expected)
        // Empty fragments are fine too.
        let empty =
            Self.frame(WebSocketFrame.text, [], fin: false) + Self.frame(WebSocketFrame.continuation, [], fin: false)
            + Self.frame(WebSocketFrame.continuation, Array("x".utf8))
        #expect(Self.decode(empty) == [.text(Array("x".utf8))])
    }

    @Test func protocolErrorsClose1002() {
        let cases: [(String, [UInt8])] = [
            ("unmasked", WebSocketFrame.encode(opcode: WebSocketFrame.text, payload: Array("hi".utf8))),
            ("reserved bit", WebSocketFrame.encode(opcode: 1, payload: [0x61], mask: Self.mask, reserved: 4)),
            ("opcode 3", Self.frame(3, [])),
            ("opcode 11", Self.frame(11, [])),
            ("control over 125", Self.frame(WebSocketFrame.ping, [UInt8](repeating: 0, count: 126))),
            ("fragmented control", Self.frame(WebSocketFrame.ping, [], fin: false)),
            ("continuation first", Self.frame(WebSocketFrame.continuation, Array("x".utf8))),
            (
                "text inside text",
                Self.frame(WebSocketFrame.text, Array("a".utf8), fin: false) + Self.frame(WebSocketFrame.text, [])
            ),
            ("close of one byte", Self.frame(WebSocketFrame.close, [0x03])),
            ("close code 1005", Self.frame(WebSocketFrame.close, [0x03, 0xED])),
            ("close code 999", Self.frame(WebSocketFrame.close, [0x03, 0xE7])),
            ("close code 2000", Self.frame(WebSocketFrame.close, [0x07, 0xD0])),
        ]
        for (name, bytes) in cases {
            #expect(Self.failureCode(Self.decode(bytes)) == 1002, "\(name)")
            #expect(Self.failureCode(Self.decode(bytes, chunk: 1)) == 1002, "\(name), a byte at a time")
        }
        // A 64-bit length with its top bit set.
        let topBit: [UInt8] = [0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1] + Self.mask
        #expect(Self.failureCode(Self.decode(topBit)) == 1002)
    }

    @Test func binaryIs1003AndTooBigIs1009AtTheHeader() {
        #expect(Self.failureCode(Self.decode(Self.frame(WebSocketFrame.binary, [1, 2, 3]))) == 1003)
        var header: [UInt8] = []
        WebSocketFrame.appendHeader(opcode: WebSocketFrame.text, length: 10_000_000, mask: Self.mask, into: &header)
        var decoder = WebSocketDecoder(maximumMessageLength: Self.limit)
        let events = decoder.feed(header)
        #expect(Self.failureCode(events) == 1009)
        #expect(decoder.heldByteCount == 0)
        #expect(decoder.isDone)
        #expect(decoder.feed([UInt8](repeating: 0, count: 1000)).isEmpty)  // nothing read after the failure
        // Fragments that together pass the limit are refused at the header of the one that would.
        let first = Self.frame(WebSocketFrame.text, [UInt8](repeating: 0x61, count: 10_000), fin: false)
        let second = Self.frame(WebSocketFrame.continuation, [UInt8](repeating: 0x61, count: 10_000))
        #expect(Self.failureCode(Self.decode(first + second)) == 1009)
        #expect(Self.decode(Self.frame(WebSocketFrame.text, [UInt8](repeating: 0x61, count: Self.limit))).count == 1)
    }

    @Test func textMustBeUTF8EvenSplitAcrossFragments() {
        // "κόσμε" split inside its characters is fine.
        let kosme = Array("κόσμε".utf8)
        let split =
            Self.frame(WebSocketFrame.text, Array(kosme[0..<3]), fin: false)
            + Self.frame(WebSocketFrame.continuation, Array(kosme[3...]))
        #expect(Self.decode(split) == [.text(kosme)])
        // A surrogate (ED A0 80) split across fragments fails at its bad byte, before the message ends.
        let surrogate =
            Self.frame(WebSocketFrame.text, kosme + [0xED], fin: false)
            + Self.frame(WebSocketFrame.continuation, [0xA0, 0x80], fin: false)
        #expect(Self.failureCode(Self.decode(surrogate)) == 1007)
        for bad: [UInt8] in [[0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xE0, 0x80, 0x80], [0x80]] {
            #expect(Self.failureCode(Self.decode(Self.frame(WebSocketFrame.text, bad))) == 1007, "\(bad)")
        }
        // A message that ends inside a character.
        #expect(Self.failureCode(Self.decode(Self.frame(WebSocketFrame.text, [0xCE]))) == 1007)
        // A close reason that is not UTF-8.
        #expect(Self.failureCode(Self.decode(Self.frame(WebSocketFrame.close, [0x03, 0xE8, 0xFF]))) == 1007)
    }

    @Test func closeFramesCarryTheirCode() {
        #expect(Self.decode(Self.frame(WebSocketFrame.close, [])) == [.close(code: nil, reason: "")])
        let goingAway = Self.frame(WebSocketFrame.close, WebSocketFrame.closePayload(code: 1001, reason: "bye"))
        #expect(Self.decode(goingAway) == [.close(code: 1001, reason: "bye")])
        // Nothing after a close is read.
        #expect(Self.decode(goingAway + Self.frame(WebSocketFrame.text, Array("x".utf8))).count == 1)
        for code: UInt16 in [1000, 1003, 1007, 1011, 1014, 3000, 4999] {
            #expect(Self.decode(Self.frame(WebSocketFrame.close, WebSocketFrame.closePayload(code: code))).count == 1)
            #expect(WebSocketCloseCode.isValid(code))
        }
        // A long reason is cut to fit a control frame, on a character boundary.
        let payload = WebSocketFrame.closePayload(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(payload.count <= 125)
        #expect(String(validating: payload[2...], as: UTF8.self) != nil)
    }
}
