/// Drawing a QR code: as terminal text in half blocks, as a PGM image and as an SVG image, each with a quiet zone.
///
/// The quiet zone is four modules wide by default, as the standard asks. A terminal that cannot fit that may use
/// two: phone cameras read a code with a two-module margin reliably when the margin is drawn light, and the
/// terminal text renderer always draws the margin itself rather than relying on the terminal's background.
extension QRCode {
    /// The number of modules across the drawing with a quiet zone of `quietZone` modules on every side.
    public func drawnSize(quietZone: Int = 4) -> Int { size + 2 * quietZone }

    /// The number of text rows the half-block drawing takes (two modules per row).
    public func terminalRows(quietZone: Int = 4) -> Int { (drawnSize(quietZone: quietZone) + 1) / 2 }

    /// The symbol as terminal lines of half blocks (`▀ ▄ █` and space), one character per module across and two
    /// modules per character down, `terminalRows(quietZone:)` lines of `drawnSize(quietZone:)` characters.
    ///
    /// With `colour`, each line is drawn black on white with SGR (`ESC[30;107m` … `ESC[0m`) and the blocks are the
    /// dark modules, so the code is dark on light whatever the terminal's own colours. Without colour (`NO_COLOR`),
    /// no escape sequence is written and the blocks are the *light* modules, quiet zone included: on the usual
    /// light-on-dark terminal that reads as a dark-on-light code with its own light margin (on a dark-on-light
    /// terminal it comes out inverted, which current phone cameras also read).
    public func terminalLines(quietZone: Int = 4, colour: Bool) -> [String] {
        let lines = halfBlockLines(quietZone: quietZone, inkIsDark: colour)
        return colour ? lines.map { "\u{1B}[30;107m" + $0 + "\u{1B}[0m" } : lines
    }

    /// The half-block lines without any escape: the blocks are the dark modules when `inkIsDark` (for text drawn
    /// dark on light by its caller), else the light ones, quiet zone included. Below an odd-sized drawing, the
    /// last line's lower half is left empty.
    public func halfBlockLines(quietZone: Int = 4, inkIsDark: Bool) -> [String] {
        let drawn = drawnSize(quietZone: quietZone)
        func ink(_ column: Int, _ row: Int) -> Bool {
            guard row < drawn else { return false }
            return self[column - quietZone, row - quietZone] == inkIsDark
        }
        return (0..<terminalRows(quietZone: quietZone)).map { textRow in
            var line = ""
            for column in 0..<drawn {
                switch (ink(column, textRow * 2), ink(column, textRow * 2 + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            return line
        }
    }

    /// The symbol as a binary PGM image (P5), black on white, `scale` pixels per module, with the quiet zone.
    public func pgm(scale: Int = 4, quietZone: Int = 4) -> [UInt8] {
        let drawn = drawnSize(quietZone: quietZone)
        return Self.pgm(width: drawn, height: drawn, scale: scale) { x, y in self[x - quietZone, y - quietZone] }
    }

    /// A binary PGM image (P5) of a `width × height` grid of cells, `scale` pixels per cell, black where `isDark`.
    public static func pgm(width: Int, height: Int, scale: Int, isDark: (Int, Int) -> Bool) -> [UInt8] {
        var image = Array("P5\n\(width * scale) \(height * scale)\n255\n".utf8)
        image.reserveCapacity(image.count + width * height * scale * scale)
        for y in 0..<height {
            var row: [UInt8] = []
            row.reserveCapacity(width * scale)
            for x in 0..<width {
                let value: UInt8 = isDark(x, y) ? 0 : 255
                row.append(contentsOf: repeatElement(value, count: scale))
            }
            for _ in 0..<scale { image.append(contentsOf: row) }
        }
        return image
    }

    /// The symbol as an SVG document: a white background and one black path of the dark modules, in module units
    /// with the quiet zone (scale it with CSS; `shape-rendering="crispEdges"` keeps the modules sharp).
    public func svg(quietZone: Int = 4) -> String {
        let drawn = drawnSize(quietZone: quietZone)
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                var run = 1
                while x + run < size, self[x + run, y] { run += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(drawn) \(drawn)\" "
            + "shape-rendering=\"crispEdges\"><rect width=\"\(drawn)\" height=\"\(drawn)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
