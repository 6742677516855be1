import Testing

@testable import Protocol

/// Feeds `bytes` to a fresh framer in one go.
func frameWhole(_ bytes: [UInt8], limit: Int = LineFramer.defaultMaximumLineLength) -> [LineFramer.Output] {
    var framer = LineFramer(maximumLineLength: limit)
    return framer.feed(bytes)
}

/// Feeds `bytes` to a fresh framer one byte at a time.
func frameBytewise(_ bytes: [UInt8], limit: Int = LineFramer.defaultMaximumLineLength) -> [LineFramer.Output] {
    var framer = LineFramer(maximumLineLength: limit)
    var outputs: [LineFramer.Output] = []
    for byte in bytes { outputs += framer.feed(CollectionOfOne(byte)) }
    return outputs
}

/// Feeds `bytes` to a fresh framer in random chunks of 1…`maximumChunk` bytes (sometimes empty chunks too).
func frameChunked(
    _ bytes: [UInt8], limit: Int = LineFramer.defaultMaximumLineLength, maximumChunk: Int = 64,
    using rng: inout FuzzRandom
) -> [LineFramer.Output] {
    var framer = LineFramer(maximumLineLength: limit)
    var outputs: [LineFramer.Output] = []
    var index = 0
    while index < bytes.count {
        if rng.below(16) == 0 { outputs += framer.feed([UInt8]()) }
        let size = 1 + rng.below(maximumChunk)
        let end = min(bytes.count, index + size)
        outputs += framer.feed(bytes[index..<end])
        index = end
    }
    return outputs
}

private func lines(_ outputs: [LineFramer.Output]) -> [String] {
    outputs.map { output in
        switch output {
        case .line(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .lineTooLong(let limit): return "<too long \(limit)>"
        case .unfinishedSubnegotiation: return "<unfinished subnegotiation>"
        }
    }
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Telnet's command bytes (RFC 854), by their names in the RFC.
private let iac: UInt8 = 255
private let will: UInt8 = 251
private let wont: UInt8 = 252
private let doOption: UInt8 = 253
private let dont: UInt8 = 254
private let subnegotiation: UInt8 = 250
private let subnegotiationEnd: UInt8 = 240
private let nop: UInt8 = 241
private let goAhead: UInt8 = 249

@Suite struct LineFramerTests {
    @Test func allLineEndingsEndALine() {
        let input = bytes("one\ntwo\r\nthree\rfour\n\rfive\r\r\nsix\n")
        #expect(lines(frameWhole(input)) == ["one", "two", "three", "four", "five", "six"])
        #expect(lines(frameBytewise(input)) == ["one", "two", "three", "four", "five", "six"])
    }

    @Test func unfinishedLineIsHeldUntilItsEnd() {
        var framer = LineFramer()
        #expect(framer.feed(bytes("hel")) == [])
        #expect(framer.pendingByteCount == 3)
        #expect(framer.feed(bytes("lo")) == [])
        #expect(framer.pendingByteCount == 5)
        #expect(framer.feed(bytes("\r")) == [.line(bytes("hello"))])
        #expect(framer.pendingByteCount == 0)
        #expect(framer.feed(bytes("\n")) == [])  // the LF of the CRLF, split across chunks
        #expect(framer.feed(bytes("x\n")) == [.line(bytes("x"))])
    }

    @Test func crlfSplitAcrossChunksDoesNotDisturbTheNextLine() {
        var framer = LineFramer()
        #expect(framer.feed(bytes("a\r")) == [.line(bytes("a"))])
        #expect(framer.feed(bytes("\nb\r")) == [.line(bytes("b"))])
        #expect(framer.feed(bytes("\nc")) == [])
        #expect(framer.pendingByteCount == 1)
        #expect(framer.feed(bytes("\n")) == [.line(bytes("c"))])
    }

    @Test func blankAndWhitespaceOnlyLinesAreDropped() {
        let input = bytes("\n\n\r\n\r\r  \n\t\t\r\n \t \na\n   \nb c \n\t\n")
        // Lines with content keep their own spaces; only all-blank lines vanish.
        #expect(lines(frameWhole(input)) == ["a", "b c "])
        #expect(lines(frameBytewise(input)) == ["a", "b c "])
    }

    @Test func lineContentIsPassedThroughUntouched() {
        let payload: [UInt8] = [0x7B, 0x00, 0x01, 0x7F, 0x80, 0xC3, 0xA9, 0xFE, 0x20, 0x09, 0x7D]
        #expect(frameWhole(payload + [0x0A]) == [.line(payload)])
    }

    @Test func exactlyTheLimitIsAccepted() {
        let limit = LineFramer.defaultMaximumLineLength
        #expect(limit == 16 * 1024)
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: limit)
        #expect(frameWhole(line + [0x0A]) == [.line(line)])
        #expect(frameWhole(line + [0x0D, 0x0A] + bytes("next\n")) == [.line(line), .line(bytes("next"))])
    }

    @Test func oneByteOverTheLimitIsReportedOnceAndTheNextLineSurvives() {
        let limit = LineFramer.defaultMaximumLineLength
        let line = [UInt8](repeating: UInt8(ascii: "y"), count: limit + 1)
        let input = line + bytes("\r\nafter\n")
        let expected: [LineFramer.Output] = [.lineTooLong(limit: limit), .line(bytes("after"))]
        #expect(frameWhole(input) == expected)
        #expect(frameBytewise(input) == expected)
    }

    @Test func overLongReportComesWhenTheLimitIsPassedNotAtTheLineEnd() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.feed(bytes("abcd")) == [])
        #expect(framer.feed(bytes("e")) == [.lineTooLong(limit: 4)])
        #expect(framer.pendingByteCount == 0)  // nothing of the over-long line is kept
        #expect(framer.feed(bytes("fghijklmnop")) == [])
        #expect(framer.pendingByteCount == 0)
        #expect(framer.feed(bytes("\nok\n")) == [.line(bytes("ok"))])
    }

    @Test func aHundredKilobyteLineIsReportedExactlyOnce() {
        let line = [UInt8](repeating: UInt8(ascii: "z"), count: 100 * 1024)
        let input = bytes("first\n") + line + bytes("\nlast\n")
        let expected: [LineFramer.Output] = [
            .line(bytes("first")), .lineTooLong(limit: 16 * 1024), .line(bytes("last")),
        ]
        #expect(frameWhole(input) == expected)
        var rng = FuzzRandom(seed: 100)
        #expect(frameChunked(input, maximumChunk: 4096, using: &rng) == expected)
    }

    @Test func consecutiveOverLongLinesAreEachReported() {
        let input = bytes("abcdefg\nhijklmn\rok\r\nopqrstu\n")
        #expect(lines(frameWhole(input, limit: 5)) == ["<too long 5>", "<too long 5>", "ok", "<too long 5>"])
    }

    @Test func telnetOptionNegotiationIsStripped() {
        var framer = LineFramer()
        #expect(!framer.hasSeenTelnet)
        #expect(framer.feed(bytes("plain\n")) == [.line(bytes("plain"))])
        #expect(!framer.hasSeenTelnet)
        // IAC WILL ECHO, IAC WONT LINEMODE, IAC DO SGA, IAC DONT NAWS around and inside the payload.
        let input: [UInt8] =
            [iac, will, 1, iac, wont, 34] + bytes("bu") + [iac, doOption, 3] + bytes("zz") + [iac, dont, 31]
            + bytes("\r\n")
        #expect(framer.feed(input) == [.line(bytes("buzz"))])
        #expect(framer.hasSeenTelnet)
    }

    @Test func telnetOptionBytesArePartOfTheirNegotiation() {
        let input: [UInt8] = bytes("ab") + [iac, doOption, 0x01, iac, will, 0x18, iac, wont, iac] + bytes("cd\n")
        #expect(frameWhole(input) == [.line(bytes("abcd"))])
        #expect(frameBytewise(input) == [.line(bytes("abcd"))])
    }

    @Test func aLineEndAlwaysEndsALineWhateverBytePrecedesIt() {
        // A stray 0xFF right before the line end (a binary client, a mistyped byte), and negotiations cut short.
        let input: [UInt8] =
            bytes("{\"type\":\"ping\"}") + [iac, 0x0A] + bytes("next") + [iac, 0x0D, 0x0A] + bytes("ab")
            + [iac, doOption, 0x0A] + bytes("cd") + [iac, will, 0x0D] + bytes("ef\n")
        let expected = ["{\"type\":\"ping\"}", "next", "ab", "cd", "ef"]
        #expect(lines(frameWhole(input)) == expected)
        #expect(lines(frameBytewise(input)) == expected)
    }

    @Test func telnetSubnegotiationIsStrippedWhole() {
        // IAC SB TERMINAL-TYPE IS "xterm" IAC SE, with an escaped IAC IAC inside the subnegotiation.
        let input: [UInt8] =
            bytes("an") + [iac, subnegotiation, 24, 0] + bytes("xterm") + [iac, iac, 7, iac, subnegotiationEnd]
            + bytes("swer\n")
        #expect(frameWhole(input) == [.line(bytes("answer"))])
        #expect(frameBytewise(input) == [.line(bytes("answer"))])
    }

    @Test func anUnfinishedSubnegotiationEndsAtTheLineEndWithAReport() {
        // IAC SB with no IAC SE: its line is dropped and reported, and the connection reads on.
        let input: [UInt8] = bytes("lost") + [iac, subnegotiation, 24, 0] + bytes("xterm\r\nbuzz\n")
        let expected = ["<unfinished subnegotiation>", "buzz"]
        #expect(lines(frameWhole(input)) == expected)
        #expect(lines(frameBytewise(input)) == expected)
    }

    @Test func aSubnegotiationWithoutALineEndIsBoundedWithAReport() {
        let limit = LineFramer.maximumSubnegotiationLength
        var framer = LineFramer()
        #expect(framer.feed([iac, subnegotiation, 31] + [UInt8](repeating: 0x41, count: limit - 1)) == [])
        #expect(framer.feed([0x41]) == [.unfinishedSubnegotiation])
        #expect(framer.feed(bytes("rest of that line\n")) == [])
        #expect(framer.feed(bytes("buzz\n")) == [.line(bytes("buzz"))])
    }

    @Test func iacIacIsALiteral255() {
        let input: [UInt8] = bytes("a") + [iac, iac] + bytes("b\n")
        #expect(frameWhole(input) == [.line([UInt8(ascii: "a"), 255, UInt8(ascii: "b")])])
        var framer = LineFramer()
        _ = framer.feed(input)
        #expect(framer.hasSeenTelnet)
    }

    @Test func twoByteCommandsAreStripped() {
        let input: [UInt8] = [iac, nop] + bytes("he") + [iac, goAhead, iac, 244, iac, 246] + bytes("llo\n")
        #expect(frameWhole(input) == [.line(bytes("hello"))])
    }

    @Test func crNulIsABareCarriageReturn() {
        let input: [UInt8] =
            bytes("one") + [0x0D, 0x00] + bytes("two") + [0x0D, 0x00, 0x0D, 0x00] + bytes("three\r\n")
        #expect(lines(frameWhole(input)) == ["one", "two", "three"])
        #expect(lines(frameBytewise(input)) == ["one", "two", "three"])
        // A NUL that does not follow a CR is data.
        #expect(frameWhole([0x61, 0x00, 0x62, 0x0A]) == [.line([0x61, 0x00, 0x62])])
    }

    @Test func telnetBetweenCrAndLfKeepsTheCrlfTogether() {
        let input: [UInt8] = bytes("x") + [0x0D, iac, nop, 0x0A] + bytes("y\n")
        #expect(lines(frameWhole(input)) == ["x", "y"])
    }

    @Test func telnetDuringAnOverLongLineIsStillParsed() {
        // The negotiation's option byte is no line end of its own; the discarded line ends at its real end.
        let input: [UInt8] =
            bytes("abcdefgh") + [iac, subnegotiation, 24, 0x41, iac, subnegotiationEnd, iac, doOption, 0x01]
            + bytes("ij\nok\n")
        #expect(lines(frameWhole(input, limit: 4)) == ["<too long 4>", "ok"])
    }

    @Test func randomChunkingsMatchByteAtATime() {
        var rng = FuzzRandom(seed: 0xF00D)
        let pieces: [[UInt8]] = [
            bytes("{\"type\":\"buzz\"}"), bytes("hello world"), bytes("é😀ü"), [0x0A], [0x0D], [0x0D, 0x0A],
            [0x0D, 0x00],
            [iac, will, 1], [iac, doOption, 0x0A],
            [iac, subnegotiation, 24, 0x0A, 0x0D, iac, iac, iac, subnegotiationEnd], [iac, iac], [iac, nop],
            bytes("   "), bytes("\t"), [0x00], [0xFF, 0xFF], [UInt8](repeating: 0x41, count: 40),
        ]
        for round in 0..<200 {
            var input: [UInt8] = []
            for _ in 0..<rng.below(60) { input += pieces[rng.below(pieces.count)] }
            let limit = round % 3 == 0 ? 32 : LineFramer.defaultMaximumLineLength
            let reference = frameBytewise(input, limit: limit)
            #expect(frameWhole(input, limit: limit) == reference, "round \(round)")
            for _ in 0..<4 {
                #expect(
                    frameChunked(input, limit: limit, maximumChunk: 1 + rng.below(20), using: &rng) == reference,
                    "round \(round)")
            }
            for output in reference {
                guard case .line(let line) = output else { continue }
                #expect(!line.isEmpty && line.count <= limit)
                #expect(!line.contains(0x0A) && !line.contains(0x0D))
                #expect(!line.allSatisfy { $0 == 0x20 || $0 == 0x09 })
            }
        }
    }

    @Test func fullMessageStreamFramesIdenticallyWhateverTheChunking() {
        var stream: [UInt8] = []
        var expected: [[UInt8]] = []
        for index in 0..<300 {
            let line = bytes("{\"type\":\"answer\",\"id\":\(index),\"text\":\"answer number \(index) é\"}")
            expected.append(line)
            stream += line
            stream += [[0x0A], [0x0D, 0x0A], [0x0D], [0x0D, 0x00]][index % 4]
        }
        let outputs = expected.map { LineFramer.Output.line($0) }
        #expect(frameWhole(stream) == outputs)
        #expect(frameBytewise(stream) == outputs)
        var rng = FuzzRandom(seed: 7)
        for _ in 0..<10 { #expect(frameChunked(stream, maximumChunk: 300, using: &rng) == outputs) }
    }
}
