import Foundation

/// Reading QR codes back with an independent decoder, `zbarimg` (Debian's zbar-tools), for the tests of the
/// project's QR encoder and of every place that draws one.
public enum QRScan {
    /// The path of `zbarimg` on `PATH`, nil when it is not installed.
    public static let zbarimg: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/zbarimg" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Whether the decoder is there.
    public static var isAvailable: Bool { zbarimg != nil }

    /// What a skipped QR round-trip test says.
    public static let skipReason =
        "zbarimg is not installed (apt-get install zbar-tools): QR codes are not decoded back"

    /// The texts of the QR codes `zbarimg` finds in a PGM/PBM `image` (one per line, as it prints them), or nil when
    /// it finds none; `invertedToo` also looks for light-on-dark codes (`-Stest-inverted`), as phone cameras do.
    public static func decode(image: [UInt8], invertedToo: Bool = false) throws -> String? {
        guard let zbarimg else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qrscan-\(UUID().uuidString).pgm")
        try Data(image).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbarimg)
        process.arguments = ["--raw", "-q"] + (invertedToo ? ["-Stest-inverted"] : []) + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.serialized { try process.run() }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A PGM image of terminal text as a light-on-dark terminal shows it (dark-on-light when `isDarkOnLight`): half
    /// blocks (`▀ ▄ █`) are drawn in the foreground colour, everything else is background; text after
    /// `ESC[30;107m` (until `ESC[0m`) is black on white. A margin of two cells of the terminal's background
    /// surrounds it.
    public static func image(ofTerminalLines lines: [String], scale: Int = 4, isDarkOnLight: Bool = false) -> [UInt8] {
        // Each cell: (top is dark, bottom is dark) as the eye sees it.
        var cells: [[(Bool, Bool)]] = []
        for line in lines {
            var row: [(Bool, Bool)] = []
            var isBlackOnWhite = false
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                if scalar == "\u{1B}" {
                    var sequence = ""
                    while let next = scalars.popFirst() {
                        sequence.unicodeScalars.append(next)
                        if next.properties.isAlphabetic && next != "[" { break }
                    }
                    if sequence == "[30;107m" { isBlackOnWhite = true }
                    if sequence == "[0m" || sequence == "[m" { isBlackOnWhite = false }
                    continue
                }
                let ink: (Bool, Bool) =
                    switch scalar {
                    case "█": (true, true)
                    case "▀": (true, false)
                    case "▄": (false, true)
                    default: (false, false)
                    }
                row.append(isBlackOnWhite || isDarkOnLight ? ink : (!ink.0, !ink.1))
            }
            cells.append(row)
        }
        let width = (cells.map(\.count).max() ?? 0) + 4
        let height = cells.count * 2 + 4
        var image = Array("P5\n\(width * scale) \(height * scale)\n255\n".utf8)
        for y in 0..<height {
            var row: [UInt8] = []
            for x in 0..<width {
                let cellRow = (y - 2) / 2
                let cellColumn = x - 2
                var isDark = !isDarkOnLight
                if y >= 2, cellColumn >= 0, cellRow < cells.count, cellColumn < cells[cellRow].count {
                    let cell = cells[cellRow][cellColumn]
                    isDark = (y - 2) % 2 == 0 ? cell.0 : cell.1
                }
                row.append(contentsOf: repeatElement(isDark ? 0 : 255, count: scale))
            }
            for _ in 0..<scale { image.append(contentsOf: row) }
        }
        return image
    }
}
