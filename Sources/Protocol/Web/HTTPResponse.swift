/// Answers in HTTP/1.1: the status line and header fields, and the plain-text answers to refused requests.
public enum HTTPResponse {
    /// The reason phrase of each status the host sends.
    public static func reason(for status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 414: "URI Too Long"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }

    /// The status line and `headers`, ending with the empty line.
    public static func head(status: Int, headers: [(name: String, value: String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(for: status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The whole answer to a refused request: plain text saying why, then the connection closes. A HEAD request
    /// gets the same head without the body.
    public static func failure(_ failure: HTTPFailure, isHead: Bool = false) -> [UInt8] {
        let body = Array("\(failure.status) \(reason(for: failure.status)): \(failure.message)\n".utf8)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.count)"),
            ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-cache"), ("Connection", "close"),
        ]
        headers.append(contentsOf: failure.headers)
        return head(status: failure.status, headers: headers) + (isHead ? [] : body)
    }
}

/// What a request's path asks for, on a host whose page is one HTML file and a flat set of assets.
public enum HTTPRoute: Equatable, Sendable {
    /// The page (`index.html`): `/`, `/board`, or `/ROOM` (4 to 8 letters or digits, any case).
    case page
    /// A file of the asset table by its name (`/app.js` → `app.js`).
    case asset(String)
    /// The WebSocket endpoint `/ws`.
    case webSocket
    /// A word's recording, `/audio/LIST/FILE`: the list id (letters, digits, `-`, `_`) and the file part as sent
    /// (letters, digits, `%`, `-`, `.`), which the host looks up among the list's words, never as a path.
    case audio(list: String, file: String)
    /// `/join.svg`: the QR code of the address phones join at, drawn by the host for the board.
    case joinCode

    /// The route of `path` (query already removed) given the asset names; nil when there is none (404).
    ///
    /// Nothing is decoded or normalized: a path is one of these exact forms or it is not found, so `..`, `%2e`,
    /// backslashes or subfolders can never name anything but a 404.
    public static func route(path: String, assets: Set<String>) -> HTTPRoute? {
        guard path.hasPrefix("/") else { return nil }
        let name = path.dropFirst()
        if name.isEmpty || name == "board" { return .page }
        if name == "ws" { return .webSocket }
        if name == "join.svg" { return .joinCode }
        if assets.contains(String(name)) { return .asset(String(name)) }
        if (4...8).contains(name.utf8.count), name.utf8.allSatisfy(isLetterOrDigit) { return .page }
        if name.hasPrefix("audio/") { return audioRoute(name.dropFirst("audio/".count)) }
        return nil
    }

    /// The recording route of what follows `/audio/`: exactly `LIST/FILE`, nothing decoded.
    private static func audioRoute(_ rest: Substring) -> HTTPRoute? {
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count), (3...200).contains(parts[1].utf8.count),
            parts[0].utf8.allSatisfy({ isLetterOrDigit($0) || $0 == 0x2D || $0 == 0x5F }),
            parts[1].utf8.allSatisfy({ isLetterOrDigit($0) || $0 == 0x25 || $0 == 0x2D || $0 == 0x2E }),
            parts[1].utf8.first != 0x2E
        else { return nil }
        return .audio(list: String(parts[0]), file: String(parts[1]))
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
