import Protocol

/// The QR codes of the addresses phones join at, as the host's console shows them at start and on `qr`.
///
/// Each code is drawn in half blocks with the standard four-module quiet zone; a terminal too short for that gets
/// a two-module quiet zone (drawn light, which phone cameras read), and one too small even for that gets the
/// address in words only.
enum JoinCodes {
    /// Rows kept free under a drawing for the status bar and the prompt.
    static let reservedRows = 3

    /// `http://ADDRESS:PORT/ROOM` for each LAN address; loopback only when there is no other address.
    static func urls(addresses: [String], port: UInt16, room: String) -> [String] {
        let lan = addresses.filter { !$0.hasPrefix("127.") }
        let chosen = lan.isEmpty ? (addresses.isEmpty ? ["127.0.0.1"] : addresses) : lan
        return chosen.map { "http://\($0):\(port)/\(room)" }
    }

    /// The lines showing `url`'s QR code with the address beside it (or under it on a narrow terminal), for a
    /// terminal of `size` characters (nil: any size); black on white with SGR when `colour`, else the light
    /// modules drawn as blocks (`QRCode.terminalLines`).
    static func drawing(of url: String, size: (width: Int, height: Int)?, colour: Bool) -> [String] {
        guard let code = try? QRCode(encoding: url) else { return ["Phones join at \(url)"] }
        let caption = ["Scan with a phone's camera to join,", "or open " + url]
        var quietZone = 4
        if let size {
            let rows = size.height - reservedRows
            if code.terminalRows(quietZone: 4) > rows || code.drawnSize(quietZone: 4) > size.width { quietZone = 2 }
            if code.terminalRows(quietZone: 2) > rows || code.drawnSize(quietZone: 2) > size.width {
                return [
                    "This terminal is too small for the QR code (it needs \(code.drawnSize(quietZone: 2)) columns "
                        + "and \(code.terminalRows(quietZone: 2) + reservedRows) rows; it has \(size.width) × "
                        + "\(size.height)). Phones join at \(url)"
                ]
            }
        }
        var lines = code.terminalLines(quietZone: quietZone, colour: colour)
        let besideWidth = code.drawnSize(quietZone: quietZone) + 3 + (caption.map(\.count).max() ?? 0)
        if size.map({ besideWidth <= $0.width }) ?? true {
            let middle = lines.count / 2 - 1
            for (offset, text) in caption.enumerated() { lines[middle + offset] += "   " + text }
        } else {
            lines += caption
        }
        return lines
    }
}
