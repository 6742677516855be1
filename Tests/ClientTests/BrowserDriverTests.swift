import Foundation
import Net
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser driver proved against pages it serves itself (data: URLs and a tiny HTTP server on loopback), so a
/// failing phone-page test can be trusted to be about the page.
@Suite(.enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"))
struct BrowserDriverTests {
    /// A phone page: a viewport meta (so the layout is the 390 px of the viewport), a 48 px button and a text field
    /// that record what the page saw in `window.seen`.
    static let phoneHTML = """
        <!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body { margin: 0 } #b { position: absolute; left: 100px; top: 300px; width: 48px; height: 48px }
        </style></head><body><button id="b">Go</button><form id="f"><input id="name"></form>
        <script>
        window.seen = [];
        const b = document.getElementById('b');
        b.addEventListener('pointerdown', (e) => seen.push('pointerdown:' + e.pointerType));
        b.addEventListener('pointerup', (e) => seen.push('pointerup:' + e.pointerType));
        b.addEventListener('click', () => seen.push('click'));
        document.getElementById('f').addEventListener('submit', (e) => {
          e.preventDefault(); seen.push('submit:' + document.getElementById('name').value); });
        document.addEventListener('visibilitychange', () => seen.push('visibility:' + document.visibilityState));
        </script></body></html>
        """

    /// `html` as a data: URL.
    static func dataURL(_ html: String) -> String {
        "data:text/html;charset=utf-8," + (html.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// A fresh phone page of the shared browser.
    static func phonePage(scale: Double = 1) throws -> BrowserPage {
        guard let browser = try Browser.shared() else { throw BrowserError(Browser.unavailableReason) }
        return try browser.newPage(scale: scale)
    }

    @Test func evaluateReturnsJSONValues() throws {
        let page = try Self.phonePage()
        defer { page.close() }
        #expect(try page.evaluate("1 + 2") == .int(3))
        #expect(try page.evaluate("'a' + 'b'") == .string("ab"))
        #expect(try page.evaluate("({ list: [1, true, null], half: 0.5 })") == ["list": [1, true, nil], "half": 0.5])
        #expect(try page.evaluate("undefined") == .null)
        #expect(try page.evaluate("new Promise((resolve) => setTimeout(() => resolve('later'), 30))") == "later")
        #expect(try page.evaluate("1 / 0") == .string("Infinity"))
    }

    @Test func aJavaScriptExceptionIsThrownWithItsMessage() throws {
        let page = try Self.phonePage()
        defer { page.close() }
        #expect {
            try page.evaluate("(() => { throw new Error('boom in the page') })()")
        } throws: { error in
            "\(error)".contains("boom in the page")
        }
        #expect {
            try page.evaluate("Promise.reject(new TypeError('rejected here'))")
        } throws: { error in
            "\(error)".contains("rejected here")
        }
        // Uncaught exceptions, console messages and dialogs of the page are recorded for failure messages.
        try page.evaluate(
            "console.log('hello', 42); setTimeout(() => { throw new Error('uncaught one') }); "
                + "setTimeout(() => alert('an alert'), 10); true")
        try page.waitUntil("the exception and the alert") { !page.exceptions.isEmpty && !page.dialogs.isEmpty }
        #expect(page.console.contains("console.log: hello 42"), "\(page.console)")
        #expect(page.exceptions.contains { $0.contains("uncaught one") }, "\(page.exceptions)")
        #expect(page.dialogs == ["alert: an alert"])
        #expect(page.report().contains("uncaught one"))
        // The dialog was dismissed: the page still runs.
        #expect(try page.evaluate("2 * 21") == 42)
    }

    @Test func theViewportIsAPhoneWithACoarsePointer() throws {
        let page = try Self.phonePage()
        defer { page.close() }
        try page.navigate(Self.dataURL(Self.phoneHTML))
        #expect(try page.evaluate("innerWidth") == 390)
        #expect(try page.evaluate("innerHeight") == 844)
        #expect(try page.evaluate("matchMedia('(pointer: coarse)').matches") == true)
        #expect(try page.evaluate("navigator.maxTouchPoints > 0") == true)
    }

    @Test func aTouchTapFiresATouchPointerdownAndAClick() throws {
        let page = try Self.phonePage()
        defer { page.close() }
        try page.navigate(Self.dataURL(Self.phoneHTML))
        let point = try page.tap(selector: "#b")
        #expect(abs(point.x - 124) < 1 && abs(point.y - 324) < 1, "tapped at \(point)")
        try page.waitFor("seen.includes('click')", "the click of the tap")
        let seen = try page.evaluate("seen")
        #expect(seen == ["pointerdown:touch", "pointerup:touch", "click"], "\(seen)")
        // A tap beside the button does not reach it.
        try page.evaluate("seen = []")
        try page.tap(x: 20, y: 20)
        try page.tap(selector: "button", containing: "Go")
        try page.waitFor("seen.includes('click')")
        #expect(try page.evaluate("seen") == ["pointerdown:touch", "pointerup:touch", "click"])
    }

    @Test func typingFillsTheFocusedFieldAndEnterSubmits() throws {
        let page = try Self.phonePage()
        defer { page.close() }
        try page.navigate(Self.dataURL(Self.phoneHTML))
        try page.type("Ann ✓", into: "#name")
        #expect(try page.evaluate("document.getElementById('name').value") == "Ann ✓")
        try page.press("Enter")
        #expect(try page.waitFor("seen.find((s) => s.startsWith('submit:'))") == "submit:Ann ✓")
    }

    @Test func aWaitThatNeverHoldsSaysWhatItWaitedFor() throws {
        let page = try Self.phonePage()
        defer { page.close() }
        try page.evaluate("console.warn('a clue')")
        #expect {
            try page.waitFor("window.neverSet === 1", timeout: 0.5, "the flag that is never set")
        } throws: { error in
            let text = "\(error)"
            return text.contains("the flag that is never set") && text.contains("a clue")
        }
        #expect(throws: BrowserError.self) { try page.tap(selector: "#missing", timeout: 0.3) }
    }

    @Test(arguments: [1.0, 2.0])
    func aScreenshotIsAPNGOfTheViewport(scale: Double) throws {
        let page = try Self.phonePage(scale: scale)
        defer { page.close() }
        try page.navigate(Self.dataURL(Self.phoneHTML))
        let path = try page.screenshot(to: "browser-driver-\(Int(scale))x.png")
        #expect(path.hasPrefix(Browser.screenshotFolder))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 33)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == Int(390 * scale) && height == Int(844 * scale), "\(width)×\(height)")
    }

    @Test func theNetworkLogSeesEveryRequestAndOfflineMakesFetchesFail() throws {
        let server = try TinyHTTPServer()
        defer { server.stop() }
        let page = try Self.phonePage()
        defer { page.close() }
        let origin = "http://127.0.0.1:\(server.port)"
        try page.navigate(origin + "/")
        #expect(try page.waitFor("window.scriptRan") == true)
        #expect(page.requests.contains(origin + "/"))
        #expect(page.requests.contains(origin + "/app.js"), "\(page.requests)")
        #expect(server.paths.contains("/app.js"))
        #expect(page.requests(outside: origin).isEmpty, "\(page.requests)")
        let fetch = "fetch('/data.txt').then((r) => r.text()).catch((e) => 'failed: ' + e.name)"
        #expect(try page.evaluate(fetch) == "some data")
        try page.setOffline(true)
        #expect(try page.evaluate(fetch) == "failed: TypeError")
        try page.setOffline(false)
        #expect(try page.evaluate(fetch) == "some data")
        // WebSockets are requests too: one to the page's own host and port is of its origin.
        try page.evaluate("new WebSocket('ws://127.0.0.1:\(server.port)/ws'); true")
        try page.waitUntil("the WebSocket in the log") { page.requests.contains("ws://127.0.0.1:\(server.port)/ws") }
        #expect(page.requests(outside: origin).isEmpty, "\(page.requests)")
        // The frames of a WebSocket both ways are recorded.
        try page.evaluate(
            """
            new Promise((resolve) => {
              const socket = new WebSocket('ws://127.0.0.1:\(server.port)/echo');
              socket.onopen = () => socket.send('{"type":"hello"}');
              socket.onmessage = (message) => resolve(message.data);
            })
            """)
        let frames = page.webSocketFrames.map { "\($0.sent ? "sent" : "received") \($0.text)" }
        #expect(frames == ["sent {\"type\":\"hello\"}", "received {\"type\":\"welcome\"}"])
        #expect(page.webSocketFrames.allSatisfy { $0.url == "ws://127.0.0.1:\(server.port)/echo" })
        // A request to another origin (another loopback address here) is caught.
        try page.evaluate("fetch('http://127.0.0.2:\(server.port)/elsewhere').catch(() => null); true")
        let elsewhere = "http://127.0.0.2:\(server.port)/elsewhere"
        try page.waitUntil("the request to \(elsewhere)") { page.requests.contains(elsewhere) }
        #expect(page.requests(outside: origin) == [elsewhere])
    }

    @Test func reloadStartsTheDocumentAgainAndHidingFiresVisibilityChange() throws {
        let server = try TinyHTTPServer()
        defer { server.stop() }
        let page = try Self.phonePage()
        defer { page.close() }
        try page.navigate("http://127.0.0.1:\(server.port)/phone")
        try page.evaluate("window.marker = 1; localStorage.setItem('token', 'kept'); true")
        try page.reload()
        #expect(try page.evaluate("window.marker === undefined") == true)
        #expect(try page.evaluate("localStorage.getItem('token')") == "kept")
        #expect(server.paths.filter { $0 == "/phone" }.count == 2)

        let other = try page.browser.newPage(sharingContextWith: page)
        defer { other.close() }
        try page.setHidden(true)
        #expect(try page.evaluate("[document.hidden, document.visibilityState]") == [true, "hidden"])
        #expect(try other.evaluate("document.visibilityState") == "visible")
        try page.setHidden(false)
        #expect(try page.evaluate("seen") == ["visibility:hidden", "visibility:visible"])
        // Frozen, the page's timers stop; thawed, they run again.
        try page.evaluate("window.ticks = 0; setInterval(() => ticks++, 10); true")
        try page.setHidden(true, freeze: true)
        try page.setHidden(false, freeze: true)
        try page.waitFor("ticks > 3")
        #expect(try page.evaluate("seen.slice(2)") == ["visibility:hidden", "visibility:visible"])
    }

    @Test func pagesOfFreshContextsDoNotShareStorageButTabsOfOnePhoneDo() throws {
        let server = try TinyHTTPServer()
        defer { server.stop() }
        guard let browser = try Browser.shared() else { return }
        let first = try browser.newPage()
        let second = try browser.newPage()
        let tab = try browser.newPage(sharingContextWith: first)
        defer { for page in [first, second, tab] { page.close() } }
        let url = "http://127.0.0.1:\(server.port)/phone"
        for page in [first, second, tab] { try page.navigate(url) }
        try first.evaluate("localStorage.setItem('token', 'one'); true")
        #expect(try second.evaluate("localStorage.getItem('token')") == .null)
        #expect(try tab.evaluate("localStorage.getItem('token')") == "one")
    }

    @Test func closingABrowserEndsItsProcessAndRemovesItsProfile() throws {
        guard let browser = try Browser.launch() else { return }
        #expect(browser.version.hasPrefix("Chrome/") || browser.version.hasPrefix("HeadlessChrome/"))
        let page = try browser.newPage()
        #expect(try page.evaluate("navigator.userAgent").stringValue?.isEmpty == false)
        browser.close()
        #expect(browser.hasExited)
        #expect(throws: BrowserError.self) { try page.evaluate("1") }
    }
}

/// The tiny server's WebSocket accept key, checked without a browser.
struct TinyHTTPServerTests {
    @Test func theAcceptKeyIsRFC6455s() {
        let digest = SHA1.digest(Array("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11".utf8))
        #expect(Data(digest).base64EncodedString() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}

/// A few lines of HTTP/1.1 on 127.0.0.1 for the driver's tests: `/` is a page with a script, `/app.js` the script,
/// `/data.txt` some text, `/phone` the phone page, `/echo` a WebSocket that answers the page's first frame with a
/// welcome; it records every path asked for.
final class TinyHTTPServer: @unchecked Sendable {
    /// The port it listens on.
    let port: UInt16
    private let listener: Socket
    private let lock = NSLock()
    private var asked: [String] = []
    private var stopped = false

    /// Starts listening on a free port.
    init() throws {
        listener = try Socket.makeListener(address: "127.0.0.1", port: 0)
        port = try listener.localPort()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting (the accepting thread closes the listener within a tenth of a second).
    func stop() { lock.withLock { stopped = true } }

    /// Every path asked for so far.
    var paths: [String] { lock.withLock { asked } }

    private func acceptLoop() {
        while !lock.withLock({ stopped }) {
            var descriptor = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0, let (client, _) = try? listener.accept() else { continue }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
        listener.close()
    }

    private func serve(_ client: Socket) {
        defer { client.close() }
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while !request.contains(0x0A) || !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
            guard Date() < deadline else { return }
            var descriptor = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            guard let count = try? chunk.withUnsafeMutableBytes({ try client.read(into: $0) }) else { return }
            request += chunk[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self).split(separator: " ")
        let path = line.count > 1 ? String(line[1]) : "?"
        lock.withLock { asked.append(path) }
        let head = String(decoding: request, as: UTF8.self)
        if path == "/echo", let key = Self.header("Sec-WebSocket-Key", in: head) {
            // Just enough WebSocket: the upgrade, then one server text frame once the page's first frame came.
            let accept = Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
                .base64EncodedString()
            write(
                Array(
                    ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: \(accept)\r\n\r\n").utf8), to: client, before: deadline)
            var frame: [UInt8] = []
            while frame.count < 2 || frame.count < 6 + Int(frame[1] & 0x7F) {
                var descriptor = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
                guard Date() < deadline else { return }
                guard poll(&descriptor, 1, 100) > 0 else { continue }
                guard let count = try? chunk.withUnsafeMutableBytes({ try client.read(into: $0) }) else { return }
                frame += chunk[0..<count]
            }
            let welcome = Array("{\"type\":\"welcome\"}".utf8)
            write([0x81, UInt8(welcome.count)] + welcome, to: client, before: deadline)
            // Stay open until the page goes.
            var descriptor = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 10_000)
            return
        }
        let (type, body): (String, String)
        switch path {
        case "/":
            type = "text/html"
            body = "<!doctype html><title>t</title><script src=\"/app.js\"></script>"
        case "/app.js":
            type = "text/javascript"
            body = "window.scriptRan = true;"
        case "/data.txt":
            type = "text/plain"
            body = "some data"
        case "/phone":
            type = "text/html"
            body = BrowserDriverTests.phoneHTML
        default:
            type = "text/plain"
            body = "not found"
        }
        let status = body == "not found" ? "404 Not Found" : "200 OK"
        let bodyBytes = Array(body.utf8)
        let answer =
            "HTTP/1.1 \(status)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Length: \(bodyBytes.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        write(Array(answer.utf8) + bodyBytes, to: client, before: deadline)
    }

    private func write(_ bytes: [UInt8], to client: Socket, before deadline: Date) {
        var bytes = bytes
        while !bytes.isEmpty {
            var descriptor = pollfd(fd: client.fd, events: Int16(POLLOUT), revents: 0)
            guard Date() < deadline, poll(&descriptor, 1, 100) >= 0 else { return }
            guard let written = try? bytes.withUnsafeBytes({ try client.write($0) }) else { continue }
            bytes.removeFirst(written)
        }
    }

    /// The value of the header `name` in a request head.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// SHA-1, for the WebSocket accept key of the tiny server (the toolchain on Linux has no CryptoKit).
enum SHA1 {
    /// The 20-byte SHA-1 digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            var words = (0..<16).map { index -> UInt32 in
                let start = blockStart + index * 4
                return padded[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words.append(mixed << 1 | mixed >> 31)
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch index {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = (a << 5 | a >> 27) &+ f &+ e &+ k &+ words[index]
                (a, b, c, d, e) = (next, a, b << 30 | b >> 2, c, d)
            }
            state = [state[0] &+ a, state[1] &+ b, state[2] &+ c, state[3] &+ d, state[4] &+ e]
        }
        return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) } }
    }
}
