import Foundation
import TestSupport
import Testing

@testable import Common

/// The QR encoder against published vectors, and its drawings decoded back by an independent decoder (zbarimg).
@Suite struct QRCodeTests {
    /// The join URL the host shows, the text the encoder exists for.
    static let joinURL = "http://192.168.100.200:4747/ABCD"

    @Test func reedSolomonMatchesThePublishedHelloWorldExample() {
        // Thonky's QR tutorial, "HELLO WORLD" at 1-M.
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRCode.dataCodewords(Array("HELLO WORLD".utf8), mode: .alphanumeric, version: 1) == data)
        let ecc = ReedSolomon.remainder(of: data, generator: ReedSolomon.generator(degree: 10))
        #expect(ecc == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func generatorPolynomialOfDegreeSevenIsThePublishedOne() {
        // α exponents of the degree-7 generator: 0, 87, 229, 146, 149, 238, 102, 21.
        let exponents = ReedSolomon.generator(degree: 7).map { ReedSolomon.logarithms[Int($0)] }
        #expect(exponents == [0, 87, 229, 146, 149, 238, 102, 21])
    }

    @Test func formatInformationForLevelMMatchesThePublishedTable() {
        let table = [
            "101010000010010", "101000100100101", "101111001111100", "101101101001011",
            "100010111111001", "100000011001110", "100111110010111", "100101010100000",
        ]
        for mask in 0..<8 { #expect(Self.binary(QRCode.formatBits(mask: mask), width: 15) == table[mask]) }
    }

    @Test func versionInformationMatchesThePublishedValues() {
        #expect(Self.binary(QRCode.versionBits(7), width: 18) == "000111110010010100")
        #expect(Self.binary(QRCode.versionBits(10), width: 18) == "001010010011010011")
        #expect(Self.binary(QRCode.versionBits(40), width: 18) == "101000110001101001")
    }

    @Test func capacityAndVersionChoice() throws {
        // Data codewords at level M (ISO/IEC 18004 table 9).
        #expect((1...10).map(QRCode.dataCodewords) == [16, 28, 44, 64, 86, 108, 124, 154, 182, 216])
        #expect(QRCode.dataCodewords(40) == 2334)
        #expect(try QRCode(encoding: Self.joinURL).version == 3)
        #expect(try QRCode(encoding: Self.joinURL).mode == .byte)
        #expect(try QRCode(encoding: "HELLO WORLD").mode == .alphanumeric)
        #expect(try QRCode(encoding: String(repeating: "a", count: 14)).version == 1)
        #expect(try QRCode(encoding: String(repeating: "a", count: 15)).version == 2)
        #expect(try QRCode(encoding: String(repeating: "a", count: 2331)).version == 40)
        #expect(throws: QRCode.Failure.tooLong(bytes: 2332)) {
            try QRCode(encoding: String(repeating: "a", count: 2332))
        }
        #expect(throws: QRCode.Failure.badMask(8)) { try QRCode(encoding: "a", mask: 8) }
        #expect(QRCode.Failure.tooLong(bytes: 2332).description.contains("too long"))
    }

    @Test func theSymbolHasItsFunctionPatterns() throws {
        let code = try QRCode(encoding: String(repeating: "x", count: 120))  // version 7: version information
        #expect(code.version == 7)
        #expect(code.size == 45)
        // Finder corners, their separators, the timing pattern and the dark module.
        for (x, y) in [(0, 0), (6, 0), (0, 6), (38, 0), (44, 6), (0, 38), (6, 44), (3, 3)] { #expect(code[x, y]) }
        for (x, y) in [(7, 0), (0, 7), (37, 0), (7, 44), (1, 1)] { #expect(!code[x, y]) }
        for x in 8..<37 { #expect(code[x, 6] == (x % 2 == 0)) }
        #expect(code[8, 45 - 8])
        #expect(!code[-1, 0] && !code[45, 45])
        // The version information block below the top-right finder: bit i at (size-11 + i%3, i/3).
        let bits = QRCode.versionBits(7)
        for index in 0..<18 { #expect(code[45 - 11 + index % 3, index / 3] == ((bits >> index) & 1 == 1)) }
    }

    @Test func theBestMaskHasTheLowestPenalty() throws {
        let best = try QRCode(encoding: Self.joinURL)
        let penalties = try (0..<8).map { mask in
            var grid = Grid(version: best.version)
            let code = try QRCode(encoding: Self.joinURL, mask: mask)
            grid.dark = code.modules
            return grid.penalty()
        }
        #expect(penalties[best.mask] == penalties.min())
        #expect(Set(penalties).count > 1)
    }

    @Test func finderLikePatternsAreCountedWithTheirLightSide() {
        let pattern: [Bool] = [true, false, true, true, true, false, true]
        #expect(Grid.finderLikeCount(pattern) == 1)  // beyond the edge is light
        #expect(Grid.finderLikeCount([true, true, true, true, true] + pattern + [true, true, true, true]) == 0)
        #expect(Grid.finderLikeCount([true] + [false, false, false, false] + pattern + [true]) == 1)
    }

    @Test func rendersToTheExpectedSizes() throws {
        let code = try QRCode(encoding: Self.joinURL)
        #expect(code.drawnSize() == 37)
        let plain = code.terminalLines(colour: false)
        #expect(plain.count == 19)
        #expect(plain.allSatisfy { $0.count == 37 && $0.allSatisfy { " ▀▄█".contains($0) } })
        #expect(plain[0] == String(repeating: "█", count: 37))  // the light quiet zone, drawn
        let coloured = code.terminalLines(quietZone: 2, colour: true)
        #expect(coloured.count == 17)
        #expect(coloured.allSatisfy { $0.hasPrefix("\u{1B}[30;107m") && $0.hasSuffix("\u{1B}[0m") })
        #expect(coloured[0] == "\u{1B}[30;107m" + String(repeating: " ", count: 33) + "\u{1B}[0m")
        let pgm = code.pgm(scale: 2)
        #expect(pgm.starts(with: Array("P5\n74 74\n255\n".utf8)))
        #expect(pgm.count == "P5\n74 74\n255\n".utf8.count + 74 * 74)
        let svg = code.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 37 37\""))
        #expect(svg.contains("<path fill=\"#000\" d=\"M4 4h7v1h-7z"))  // the top row of the first finder
    }

    @Test(
        .enabled(if: QRScan.isAvailable, Comment(rawValue: QRScan.skipReason)),
        arguments: [
            joinURL, "HELLO WORLD", "a", String(repeating: "Partyline é ü 漢字 ", count: 3),
            String(repeating: "x", count: 100), String(repeating: "0123456789ABCDEF", count: 14),
            String(repeating: "q", count: 260),
        ])
    func zbarimgDecodesTheImage(text: String) throws {
        let code = try QRCode(encoding: text)
        #expect(try QRScan.decode(image: code.pgm(scale: 3)) == text, "version \(code.version), mask \(code.mask)")
    }

    @Test(.enabled(if: QRScan.isAvailable, Comment(rawValue: QRScan.skipReason)), arguments: 0..<8)
    func zbarimgDecodesEveryMask(mask: Int) throws {
        // Versions 2 and 7 (with version information), each with the forced mask.
        for text in ["http://a.b/" + String(repeating: "m", count: 1 + mask), String(repeating: "v", count: 120)] {
            let code = try QRCode(encoding: text, mask: mask)
            #expect(code.mask == mask)
            #expect(try QRScan.decode(image: code.pgm(scale: 3)) == text, "version \(code.version)")
        }
    }

    @Test(.enabled(if: QRScan.isAvailable, Comment(rawValue: QRScan.skipReason)), arguments: [true, false])
    func zbarimgDecodesTheTerminalDrawing(colour: Bool) throws {
        let code = try QRCode(encoding: Self.joinURL)
        for quietZone in [4, 2] {
            let image = QRScan.image(ofTerminalLines: code.terminalLines(quietZone: quietZone, colour: colour))
            #expect(try QRScan.decode(image: image) == Self.joinURL, "quiet zone \(quietZone)")
        }
    }

    @Test(.enabled(if: QRScan.isAvailable, Comment(rawValue: QRScan.skipReason)))
    func withoutColourTheDrawingIsInvertedOnADarkOnLightTerminalAndStillReads() throws {
        // Under NO_COLOR the blocks are the light modules: right on the usual light-on-dark terminal, inverted on a
        // dark-on-light one, which phone cameras read (zbarimg only when asked to look for inverted codes).
        let lines = try QRCode(encoding: Self.joinURL).terminalLines(colour: false)
        let image = QRScan.image(ofTerminalLines: lines, isDarkOnLight: true)
        #expect(try QRScan.decode(image: image, invertedToo: true) == Self.joinURL)
        // In colour the code is black on white on either terminal.
        let coloured = try QRCode(encoding: Self.joinURL).terminalLines(colour: true)
        #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: coloured, isDarkOnLight: true)) == Self.joinURL)
    }

    /// `value` in binary, `width` digits.
    static func binary(_ value: Int, width: Int) -> String {
        let digits = String(value, radix: 2)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
