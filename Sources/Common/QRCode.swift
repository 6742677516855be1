/// A QR code symbol (ISO/IEC 18004, model 2) at error correction level M, built by this project: the text in one
/// byte-mode segment (alphanumeric mode when every character allows it), Reed–Solomon error correction over
/// GF(256), interleaved blocks, format and version information, and the mask with the lowest penalty.
///
/// `QRCode(encoding:)` picks the smallest version (1–40) that holds the text; `modules` is the grid of dark (true)
/// and light (false) modules, row by row, without the quiet zone — the renderers below add it.
public struct QRCode: Sendable, Equatable {
    /// Why a text could not be made into a QR code.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The text needs more data bits than version 40 at level M holds.
        case tooLong(bytes: Int)
        /// A forced mask number outside 0–7.
        case badMask(Int)
        /// A forced version outside 1–40, or one too small for the text.
        case badVersion(Int)

        /// The failure in the user's words.
        public var description: String {
            switch self {
            case .tooLong(let bytes):
                "The text is too long for a QR code (\(bytes) bytes; at most 2,331 fit at error correction M)."
            case .badMask(let mask): "A QR mask is a number from 0 to 7, not \(mask)."
            case .badVersion(let version): "QR version \(version) does not exist or cannot hold the text."
            }
        }
    }

    /// The encoding mode of the one data segment.
    public enum Mode: Sendable, Equatable {
        /// Bytes of the UTF-8 text, 8 bits each.
        case byte
        /// Digits, capitals and ` $%*+-./:`, two characters in 11 bits.
        case alphanumeric
    }

    /// The version, 1–40: the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    /// The mask pattern applied to the data, 0–7.
    public let mask: Int
    /// The mode the text was encoded in.
    public let mode: Mode
    /// The width and height in modules, without quiet zone.
    public let size: Int
    /// The modules row by row (`size × size`), true for dark.
    public let modules: [Bool]

    /// Whether the module in column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Encodes `text` in the smallest version that holds it (at least `minimumVersion`), with the best mask unless
    /// `mask` forces one; `allowAlphanumeric: false` always uses byte mode.
    public init(
        encoding text: String, minimumVersion: Int = 1, mask forcedMask: Int? = nil, allowAlphanumeric: Bool = true
    ) throws(Failure) {
        guard (1...40).contains(minimumVersion) else { throw .badVersion(minimumVersion) }
        if let forcedMask, !(0...7).contains(forcedMask) { throw .badMask(forcedMask) }
        let bytes = Array(text.utf8)
        let mode: Mode = allowAlphanumeric && Self.isAlphanumeric(bytes) ? .alphanumeric : .byte
        var chosen: Int?
        for version in minimumVersion...40
        where Self.dataBitLength(count: bytes.count, mode: mode, version: version) <= Self.dataCodewords(version) * 8 {
            chosen = version
            break
        }
        guard let version = chosen else { throw .tooLong(bytes: bytes.count) }
        let data = Self.dataCodewords(bytes, mode: mode, version: version)
        let codewords = Self.interleavedWithErrorCorrection(data, version: version)
        var grid = Grid(version: version)
        grid.drawFunctionPatterns()
        grid.drawCodewords(codewords)
        var best: (mask: Int, penalty: Int, modules: [Bool])?
        for candidate in forcedMask.map({ [$0] }) ?? Array(0...7) {
            var trial = grid
            trial.applyMask(candidate)
            trial.drawFormatBits(mask: candidate)
            let penalty = trial.penalty()
            if best == nil || penalty < best!.penalty { best = (candidate, penalty, trial.dark) }
        }
        self.version = version
        self.mask = best!.mask
        self.mode = mode
        self.size = grid.size
        self.modules = best!.modules
    }

    // MARK: Data

    /// The characters of alphanumeric mode, in code order.
    static let alphanumericCharset = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// Whether every byte is a character of alphanumeric mode.
    static func isAlphanumeric(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { alphanumericCharset.contains($0) }
    }

    /// The width of the character count field for `mode` in `version`.
    static func countBits(_ mode: Mode, version: Int) -> Int {
        switch mode {
        case .byte: version <= 9 ? 8 : 16
        case .alphanumeric: version <= 9 ? 9 : version <= 26 ? 11 : 13
        }
    }

    /// The number of bits of one segment of `count` characters, mode indicator and count included.
    static func dataBitLength(count: Int, mode: Mode, version: Int) -> Int {
        let payload =
            switch mode {
            case .byte: count * 8
            case .alphanumeric: count / 2 * 11 + count % 2 * 6
            }
        return 4 + countBits(mode, version: version) + payload
    }

    /// The data codewords of `bytes` in `version`: mode, count, payload, terminator, padding to the byte and the
    /// alternating pad bytes 0xEC 0x11 up to the capacity.
    static func dataCodewords(_ bytes: [UInt8], mode: Mode, version: Int) -> [UInt8] {
        var bits = BitBuffer()
        switch mode {
        case .byte:
            bits.append(0b0100, count: 4)
            bits.append(bytes.count, count: countBits(.byte, version: version))
            for byte in bytes { bits.append(Int(byte), count: 8) }
        case .alphanumeric:
            bits.append(0b0010, count: 4)
            bits.append(bytes.count, count: countBits(.alphanumeric, version: version))
            let values = bytes.map { byte in alphanumericCharset.firstIndex(of: byte)! }
            var index = 0
            while index + 1 < values.count {
                bits.append(values[index] * 45 + values[index + 1], count: 11)
                index += 2
            }
            if index < values.count { bits.append(values[index], count: 6) }
        }
        let capacity = dataCodewords(version) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var pad: UInt8 = 0xEC
        while bits.count < capacity {
            bits.append(Int(pad), count: 8)
            pad ^= 0xEC ^ 0x11
        }
        return bits.bytes
    }

    // MARK: Capacity tables (level M)

    /// Error correction codewords per block at level M, by version (index 0 unused).
    static let eccPerBlock = [
        0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
        26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ]
    /// Number of error correction blocks at level M, by version (index 0 unused).
    static let blockCount = [
        0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
        17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ]

    /// The number of modules that carry codewords (data and error correction) in `version`.
    static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    /// The number of data codewords `version` holds at level M.
    static func dataCodewords(_ version: Int) -> Int {
        rawDataModules(version) / 8 - eccPerBlock[version] * blockCount[version]
    }

    /// Splits `data` into the blocks of `version`, adds each block's error correction, and interleaves them:
    /// the data codewords column by column, then the error correction codewords column by column.
    static func interleavedWithErrorCorrection(_ data: [UInt8], version: Int) -> [UInt8] {
        let blocks = blockCount[version]
        let ecc = eccPerBlock[version]
        let total = rawDataModules(version) / 8
        let shortBlocks = blocks - total % blocks
        let shortData = total / blocks - ecc
        let generator = ReedSolomon.generator(degree: ecc)
        var dataBlocks: [[UInt8]] = []
        var eccBlocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blocks {
            let length = shortData + (index < shortBlocks ? 0 : 1)
            let block = Array(data[start..<start + length])
            start += length
            dataBlocks.append(block)
            eccBlocks.append(ReedSolomon.remainder(of: block, generator: generator))
        }
        var result: [UInt8] = []
        result.reserveCapacity(total)
        for column in 0...shortData {
            for block in dataBlocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<ecc {
            for block in eccBlocks { result.append(block[column]) }
        }
        return result
    }

    /// The 15 format information bits for level M and `mask` (BCH code, XOR 0x5412), most significant first.
    public static func formatBits(mask: Int) -> Int {
        let data = (0b00 << 3) | mask  // level M is 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return ((data << 10) | remainder) ^ 0x5412
    }

    /// The 18 version information bits of `version` (7 and above): the version and its Golay code.
    public static func versionBits(_ version: Int) -> Int {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return (version << 12) | remainder
    }

    /// The centre coordinates of the alignment patterns of `version`, for both axes.
    static func alignmentPositions(_ version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        var position = version * 4 + 17 - 7
        for _ in 0..<count - 1 {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }
}

/// Bits appended most significant first and read back as bytes.
struct BitBuffer {
    /// The bits in order.
    private(set) var bits: [Bool] = []

    /// How many bits there are.
    var count: Int { bits.count }

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    /// The bits packed into bytes (the count must be a multiple of 8).
    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }
}

/// Reed–Solomon error correction over GF(256) with the QR field polynomial x⁸ + x⁴ + x³ + x² + 1.
public enum ReedSolomon {
    /// α^i for i in 0..<255 (and 255..<510 repeating, so products need no modulo).
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            table[index + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()
    /// The discrete logarithm of each non-zero element (index 0 unused).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exponents[index])] = index }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ left: UInt8, _ right: UInt8) -> UInt8 {
        guard left != 0, right != 0 else { return 0 }
        return exponents[logarithms[Int(left)] + logarithms[Int(right)]]
    }

    /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), coefficients from the highest power down,
    /// the leading 1 included.
    public static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for power in 0..<degree {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (index, coefficient) in polynomial.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, exponents[power])
            }
            polynomial = next
        }
        return polynomial
    }

    /// The error correction codewords of `data`: the remainder of data·x^n divided by `generator` (degree n).
    public static func remainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        let degree = generator.count - 1
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree { remainder[index] ^= multiply(generator[index + 1], factor) }
        }
        return remainder
    }
}

/// The symbol under construction: modules, which of them are function patterns, and the mask and penalty steps.
struct Grid {
    /// The width in modules.
    let size: Int
    /// The version.
    let version: Int
    /// Dark modules, row by row.
    var dark: [Bool]
    /// Modules that belong to function patterns (finders, timing, alignment, format and version information).
    var isFunction: [Bool]

    /// An empty grid for `version`.
    init(version: Int) {
        self.version = version
        size = version * 4 + 17
        dark = [Bool](repeating: false, count: size * size)
        isFunction = dark
    }

    /// Sets the function module at column `x`, row `y`.
    mutating func setFunction(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y * size + x] = value
        isFunction[y * size + x] = true
    }

    /// Draws finders with separators, timing patterns, alignment patterns, version information and reserves the
    /// format information area (drawn per mask by `drawFormatBits`).
    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx
                    let y = cy + dy
                    guard x >= 0, y >= 0, x < size, y < size else { continue }
                    let distance = max(abs(dx), abs(dy))
                    setFunction(x, y, distance != 2 && distance != 4)
                }
            }
        }
        let positions = QRCode.alignmentPositions(version)
        for (i, cy) in positions.enumerated() {
            for (j, cx) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0)
        if version >= 7 {
            let bits = QRCode.versionBits(version)
            for index in 0..<18 {
                let bit = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3
                let b = index / 3
                setFunction(a, b, bit)
                setFunction(b, a, bit)
            }
        }
    }

    /// Draws both copies of the format information for `mask`, and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let bits = QRCode.formatBits(mask: mask)
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    /// Places the codewords in the zigzag of two-module columns from the bottom right, skipping function modules
    /// and the vertical timing column; left-over modules (remainder bits) stay light.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        let totalBits = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for offset in 0..<2 {
                    let x = right - offset
                    guard !isFunction[y * size + x], index < totalBits else { continue }
                    dark[y * size + x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// Whether mask pattern `mask` inverts the module at column `x`, row `y`.
    static func masks(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    /// Inverts the non-function modules that mask pattern `mask` selects.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.masks(mask, x: x, y: y) {
                dark[y * size + x].toggle()
            }
        }
    }

    /// The penalty score of the grid (ISO/IEC 18004 §7.8.3): N1 runs of five or more modules of one colour in a
    /// row or column, N2 2×2 blocks of one colour, N3 finder-like 1:1:3:1:1 patterns with four light modules on a
    /// side, N4 the deviation of the dark proportion from 50 %.
    func penalty() -> Int {
        var score = 0
        var lines: [[Bool]] = []
        for y in 0..<size { lines.append(Array(dark[y * size..<(y + 1) * size])) }
        for x in 0..<size { lines.append((0..<size).map { dark[$0 * size + x] }) }
        for line in lines {
            var run = 1
            for index in 1...line.count {
                if index < line.count, line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += run - 2 }
                    run = 1
                }
            }
            score += 40 * Self.finderLikeCount(line)
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = dark[y * size + x]
                if dark[y * size + x + 1] == colour, dark[(y + 1) * size + x] == colour,
                    dark[(y + 1) * size + x + 1] == colour
                {
                    score += 3
                }
            }
        }
        let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
        let total = size * size
        let steps = (abs(darkCount * 20 - total * 10) + total - 1) / total - 1
        score += max(0, steps) * 10
        return score
    }

    /// The number of dark-light-dark×3-light-dark runs (1:1:3:1:1) in `line` with four light modules before or
    /// after it; beyond the symbol counts as light (the quiet zone).
    static func finderLikeCount(_ line: [Bool]) -> Int {
        let pattern = [true, false, true, true, true, false, true]
        func isLight(_ index: Int) -> Bool { index < 0 || index >= line.count || !line[index] }
        var count = 0
        for start in 0...(line.count - pattern.count) {
            guard (0..<pattern.count).allSatisfy({ line[start + $0] == pattern[$0] }) else { continue }
            let before = (1...4).allSatisfy { isLight(start - $0) }
            let after = (0..<4).allSatisfy { isLight(start + pattern.count + $0) }
            if before || after { count += 1 }
        }
        return count
    }
}
