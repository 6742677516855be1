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

    /// The join address for a page that reached the host as `hostHeader` (`192.168.1.20:4747`): that address when
    /// phones can reach it too, else the first of `urls(…)` (a board opened on the host's own screen as localhost).
    static func url(forHostHeader hostHeader: String?, addresses: [String], port: UInt16, room: String) -> String {
        if let hostHeader, !hostHeader.isEmpty, !hostHeader.hasPrefix("127."), !hostHeader.hasPrefix("localhost"),
            !hostHeader.hasPrefix("["), hostHeader.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) })
        {
            return "http://\(hostHeader)/\(room)"
        }
        return urls(addresses: addresses, port: port, room: room)[0]
    }

    /// The QR code of the join address for a page that reached the host as `hostHeader`, as SVG.
    static func svg(forHostHeader hostHeader: String?, addresses: [String], port: UInt16, room: String) -> String {
        let url = url(forHostHeader: hostHeader, addresses: addresses, port: port, room: room)
        return (try? QRCode(encoding: url))?.svg() ?? ""
    }

    /// The lines showing `url`'s QR code with the address beside it (or under it on a narrow terminal), for a
    /// terminal of `size` characters (nil: any size); black on white with SGR when `colour`, else the light
    /// modules drawn as blocks (`QRCode.terminalLines`).
    static func drawing(of url: String, size: (width: Int, height: Int)?, colour: Bool) -> [String] {
        guard let code = try? QRCode(encoding: url) else { return ["Phones join at \(url)"] }
        let caption = ["Scan with a phone's camera to join,", "or open " + url]
        let captionWidth = caption.map(\.count).max() ?? 0
        // The largest quiet zone that fits, with the caption beside the code or else under it.
        for quietZone in [4, 2] {
            let drawn = code.drawnSize(quietZone: quietZone)
            let isBeside = size.map { drawn + 3 + captionWidth <= $0.width } ?? true
            let rows = code.terminalRows(quietZone: quietZone) + (isBeside ? 0 : caption.count)
            if let size, rows > size.height - reservedRows || drawn > size.width { continue }
            var lines = code.terminalLines(quietZone: quietZone, colour: colour)
            if isBeside {
                let middle = lines.count / 2 - 1
                for (offset, text) in caption.enumerated() { lines[middle + offset] += "   " + text }
            } else {
                lines += caption
            }
            return lines
        }
        let needed = (columns: code.drawnSize(quietZone: 2), rows: code.terminalRows(quietZone: 2) + reservedRows)
        return [
            "This terminal is too small for the QR code (it needs \(needed.columns) columns and \(needed.rows) rows; "
                + "it has \(size?.width ?? 0) × \(size?.height ?? 0)). Phones join at \(url)"
        ]
    }
}
