import Foundation

/// The server side of the WebSocket opening handshake (RFC 6455 §4.2): checks an upgrade request and builds the
/// `101 Switching Protocols` answer. No subprotocol and no extension is ever negotiated.
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64(SHA-1(key + GUID)).
    public static func acceptValue(for key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The `101` answer to `head`, a `GET` of the WebSocket path; or why it is refused (400, 403, 426).
    ///
    /// `Origin`, when present, must name the same host and port as `Host`, so another web page a guest has open
    /// cannot drive the game through the guest's browser.
    public static func answer(to head: HTTPRequestHead) -> Result<[UInt8], HTTPFailure> {
        guard head.headerLists("upgrade", token: "websocket") else {
            return .failure(
                HTTPFailure(
                    426, "This address is the game's WebSocket: connect with a WebSocket (Upgrade: websocket).",
                    headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")]))
        }
        guard head.method == "GET", head.minorVersion >= 1 else {
            return .failure(HTTPFailure(400, "A WebSocket opens with a GET request in HTTP/1.1."))
        }
        guard head.headerLists("connection", token: "upgrade") else {
            return .failure(HTTPFailure(400, "A WebSocket upgrade needs the header Connection: Upgrade."))
        }
        guard head.header("sec-websocket-version")?.trimmingSpacesAndTabs == "13" else {
            return .failure(
                HTTPFailure(
                    426, "This host speaks WebSocket version 13 only.", headers: [("Sec-WebSocket-Version", "13")]))
        }
        guard head.count(of: "sec-websocket-key") == 1, let key = head.header("sec-websocket-key"),
            let decoded = Data(base64Encoded: key), decoded.count == 16
        else {
            return .failure(HTTPFailure(400, "The Sec-WebSocket-Key must be 16 bytes in base64."))
        }
        if let origin = head.header("origin") {
            guard let host = head.header("host"), isSameOrigin(origin, host: host) else {
                return .failure(
                    HTTPFailure(403, "A page from another address cannot open this game's WebSocket."))
            }
        }
        return .success(
            HTTPResponse.head(
                status: 101,
                headers: [
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                    ("Sec-WebSocket-Accept", acceptValue(for: key)),
                ]))
    }

    /// Whether `origin` (`http://host:port`) names the same host and port as the `Host` header `host`.
    public static func isSameOrigin(_ origin: String, host: String) -> Bool {
        let lowered = origin.lowercased()
        let scheme: String
        let defaultPort: String
        if lowered.hasPrefix("http://") {
            (scheme, defaultPort) = ("http://", "80")
        } else if lowered.hasPrefix("https://") {
            (scheme, defaultPort) = ("https://", "443")
        } else {
            return false  // `null`, `file://` and anything else are never this host
        }
        let authority = String(lowered.dropFirst(scheme.count))
        guard !authority.contains("/"), let mine = split(authority, defaultPort: defaultPort),
            let theirs = split(host.lowercased(), defaultPort: "80")
        else { return false }
        return mine == theirs
    }

    /// `host[:port]` (the host may be a bracketed IPv6 address) as host and port, the port defaulted.
    private static func split(_ authority: String, defaultPort: String) -> [String]? {
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = String(authority[...close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return [host, defaultPort] }
            guard rest.hasPrefix(":"), rest.count > 1 else { return nil }
            return [host, String(rest.dropFirst())]
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return [authority, defaultPort]
        case 2 where !parts[0].isEmpty && !parts[1].isEmpty: return [String(parts[0]), String(parts[1])]
        default: return nil
        }
    }
}
