import Protocol

/// The phones' QR code on the board: in the lobby beside the room code, and under the final scores between games.
enum BoardJoinCode {
    /// `http://HOST:PORT` for phones, from the address this client connected to (`host` or `host:port`): a
    /// loopback host (the board runs on the host's own computer) becomes this computer's first LAN address.
    static func phoneAddress(hostAddress: String, defaultPort: UInt16, localAddresses: [String]) -> String {
        var host = hostAddress
        var port = defaultPort
        if let colon = hostAddress.lastIndex(of: ":"),
            let number = UInt16(hostAddress[hostAddress.index(after: colon)...])
        {
            host = String(hostAddress[..<colon])
            port = number
        }
        guard !host.isEmpty else { return "" }
        if host.lowercased() == "localhost" || host.hasPrefix("127.") {
            if let lan = localAddresses.first(where: { !$0.hasPrefix("127.") }) { host = lan }
        }
        return "http://\(host):\(port)"
    }

    /// The URL the board's code carries, or nil when the board does not know where phones reach the host.
    static func url(_ state: ClientState) -> String? {
        guard state.role == .board, !state.phoneAddress.isEmpty, !state.room.isEmpty else { return nil }
        return state.phoneAddress + "/" + state.room
    }

    /// The code of `url` with the rows of `info` beside it (or above it when they do not fit side by side), at the
    /// largest size that fits `width × height`: two columns and one row per module, else half blocks, each with a
    /// four- then a two-module quiet zone; nil when nothing fits. Black on white when `isColorEnabled`, else the
    /// light modules are drawn as blocks (see `QRCode.terminalLines`).
    static func section(url: String, beside info: [Row], width: Int, height: Int, isColorEnabled: Bool) -> [Row]? {
        guard let code = try? QRCode(encoding: url) else { return nil }
        let caption: [Row] = [
            [Span("Scan with a phone's camera to join,", .bold)], [Span("or open " + url)], [],
        ]
        let right = caption + info
        let rightWidth = right.map { ScreenText.width(of: $0) }.max() ?? 0
        for (scale, quietZone) in [(2, 4), (2, 2), (1, 4), (1, 2)] {
            let drawing = rows(code, scale: scale, quietZone: quietZone, isColorEnabled: isColorEnabled)
            let drawingWidth = code.drawnSize(quietZone: quietZone) * scale
            if 1 + drawingWidth + 3 + rightWidth <= width, max(drawing.count, right.count) <= height {
                return (0..<max(drawing.count, right.count)).map { index in
                    let left =
                        index < drawing.count ? drawing[index] : [Span(String(repeating: " ", count: drawingWidth))]
                    return [Span(" ")] + left + [Span("   ")] + (index < right.count ? right[index] : [])
                }
            }
            if 1 + max(drawingWidth, rightWidth) <= width, right.count + drawing.count <= height {
                return right.map { [Span(" ")] + $0 } + drawing.map { [Span(" ")] + $0 }
            }
        }
        return nil
    }

    /// The code as screen rows: `scale` 2 draws each module as two full-block columns in one row, 1 as half
    /// blocks (two modules per row).
    static func rows(_ code: QRCode, scale: Int, quietZone: Int, isColorEnabled: Bool) -> [Row] {
        let style = isColorEnabled ? Style(color: .black, background: .white) : Style.plain
        guard scale == 2 else {
            return code.halfBlockLines(quietZone: quietZone, inkIsDark: isColorEnabled).map { [Span($0, style)] }
        }
        let drawn = code.drawnSize(quietZone: quietZone)
        return (0..<drawn).map { y in
            let line = (0..<drawn).map { x in
                code[x - quietZone, y - quietZone] == isColorEnabled ? "██" : "  "
            }.joined()
            return [Span(line, style)]
        }
    }
}
