import Foundation
import Protocol

/// One page (tab) of a `Browser`, driven like a phone: navigate, evaluate JavaScript, wait for conditions, tap,
/// type, take screenshots; it records every request, console message, uncaught exception and dialog for the test's
/// assertions and failure messages.
public final class BrowserPage: @unchecked Sendable {
    /// The browser this page belongs to.
    public let browser: Browser
    /// The DevTools target id of the page.
    public let targetID: String
    /// The width and height of the viewport, in CSS pixels.
    public let viewport: (width: Int, height: Int)
    let sessionID: String
    let contextID: String
    private let ownsContext: Bool
    private let lock = NSLock()
    private var requestLog: [String] = []
    private var consoleLog: [String] = []
    private var exceptionLog: [String] = []
    private var dialogLog: [String] = []
    private var frameLog: [WebSocketFrame] = []
    private var webSocketURLs: [String: String] = [:]
    private var crashed = false
    private var isClosed = false

    init(
        browser: Browser, targetID: String, sessionID: String, contextID: String, ownsContext: Bool, width: Int,
        height: Int
    ) {
        self.browser = browser
        self.targetID = targetID
        self.sessionID = sessionID
        self.contextID = contextID
        self.ownsContext = ownsContext
        self.viewport = (width, height)
    }

    // Posted, not awaited: the last reference may go on the connection's reader thread, which delivers replies.
    deinit { close(waiting: false) }

    private var connection: DevToolsConnection { browser.connection }

    /// Turns on the domains the page records and the phone emulation.
    func setUp(scale: Double, touch: Bool, mobile: Bool) throws {
        connection.listen(session: sessionID) { [weak self] event in self?.record(event) }
        for domain in ["Page", "Runtime", "Network", "Log"] {
            try send("\(domain).enable")
        }
        try send(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": .number(viewport.width), "height": .number(viewport.height),
                "deviceScaleFactor": .double(scale),
                "mobile": .bool(mobile), "screenWidth": .number(viewport.width),
                "screenHeight": .number(viewport.height),
            ])
        try send("Emulation.setTouchEmulationEnabled", ["enabled": .bool(touch), "maxTouchPoints": 5])
        // Every page believes it has the focus, as a phone's one tab does, though several share one browser.
        try send("Emulation.setFocusEmulationEnabled", ["enabled": true])
    }

    // MARK: Commands

    /// Sends any DevTools command to this page's session and returns its result (for what this API lacks).
    @discardableResult
    public func send(_ method: String, _ params: JSONObject = [:], timeout: TimeInterval = 30) throws -> JSONValue {
        do {
            return try connection.send(method, params, session: sessionID, timeout: timeout)
        } catch let error as BrowserError {
            throw BrowserError("\(error.description)\(report(heading: "\n"))")
        }
    }

    /// Opens `url` and waits up to `timeout` seconds for its load event; a failed load (refused, not found by the
    /// network) is thrown.
    public func navigate(_ url: String, timeout: TimeInterval = 30) throws {
        let mark = connection.eventCount(session: sessionID)
        let reply = try send("Page.navigate", ["url": .string(url)], timeout: timeout)
        if let failure = reply["errorText"]?.stringValue, !failure.isEmpty {
            throw BrowserError("opening \(url) failed: \(failure)")
        }
        // A same-document navigation (a new #fragment) has no loader and no load event.
        guard reply["loaderId"] != nil else { return }
        try waitForLoad(after: mark, what: "opening \(url)", timeout: timeout)
    }

    /// Reloads the page (as a phone's pull-to-refresh does) and waits for its load event.
    public func reload(timeout: TimeInterval = 30) throws {
        let mark = connection.eventCount(session: sessionID)
        try send("Page.reload", ["ignoreCache": false], timeout: timeout)
        try waitForLoad(after: mark, what: "reloading", timeout: timeout)
    }

    private func waitForLoad(after mark: Int, what: String, timeout: TimeInterval) throws {
        do {
            _ = try connection.waitForEvent("Page.loadEventFired", session: sessionID, after: mark, timeout: timeout)
        } catch let error as BrowserError {
            throw BrowserError("\(what): \(error.description)\(report(heading: "\n"))")
        }
    }

    /// Runs `expression` in the page (awaiting it when it is a promise) and returns its value as JSON (null for
    /// undefined; NaN, Infinity and bigints as their text); a JavaScript exception is thrown with its message.
    @discardableResult
    public func evaluate(_ expression: String, timeout: TimeInterval = 30) throws -> JSONValue {
        let reply = try send(
            "Runtime.evaluate",
            ["expression": .string(expression), "returnByValue": true, "awaitPromise": true], timeout: timeout)
        if let details = reply["exceptionDetails"] {
            throw BrowserError(
                "JavaScript threw \(Self.exceptionText(details)) in: \(expression.prefix(300))"
                    + report(heading: "\n"))
        }
        let result = reply["result"]
        if let value = result?["value"] { return value }
        if let text = result?["unserializableValue"]?.stringValue { return .string(text) }
        return .null
    }

    /// Waits up to `timeout` seconds until the JavaScript expression `condition` is truthy (awaited when a promise;
    /// an exception counts as not yet) and returns its value; the page polls it, so the wait ends as soon as it holds.
    @discardableResult
    public func waitFor(_ condition: String, timeout: TimeInterval = 10, _ what: String? = nil) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "nothing yet"
        while true {
            let slice = Int(max(0, min(deadline.timeIntervalSinceNow, 1)) * 1000)
            let poll = """
                (async () => {
                  const end = Date.now() + \(slice);
                  for (;;) {
                    let value, error = null;
                    try { value = await (\(condition)); } catch (e) { error = String((e && e.stack) || e); }
                    if (error === null && value) return { ok: true, value: value };
                    if (Date.now() >= end) return { ok: false, last: error === null ? String(value) : error };
                    await new Promise((resolve) => setTimeout(resolve, 20));
                  }
                })()
                """
            let mark = connection.eventCount(session: sessionID)
            do {
                let result = try evaluate(poll, timeout: Double(slice) / 1000 + 30)
                if result["ok"]?.boolValue == true { return result["value"] ?? .null }
                last = result["last"]?.stringValue ?? last
            } catch {
                // A navigation under way destroys the context the poll ran in: try again in the new document.
                last = "\(error)".prefix(500).description
                connection.waitForAnyEvent(session: sessionID, after: mark, timeout: 0.1)
            }
            if Date() >= deadline {
                throw BrowserError(
                    "waited \(timeout) s for \(what ?? condition); last: \(last)\(report(heading: "\n"))")
            }
        }
    }

    /// Waits up to `timeout` seconds until `condition` (about what the page recorded: `requests`, `console`,
    /// `exceptions`, `dialogs`) holds, checking it again whenever the page reports something.
    public func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let mark = connection.eventCount(session: sessionID)
            if condition() { return }
            guard Date() < deadline, !connection.isClosed else {
                throw BrowserError("waited \(timeout) s for \(what)\(report(heading: "\n"))")
            }
            connection.waitForAnyEvent(
                session: sessionID, after: mark, timeout: min(0.5, max(0.01, deadline.timeIntervalSinceNow)))
        }
    }

    // MARK: Touch and keys

    /// Taps the point (`x`, `y`) in CSS pixels of the viewport with one finger (touchstart, touchend: the page sees
    /// pointerdown/pointerup with pointerType "touch" and then a click).
    public func tap(x: Double, y: Double) throws {
        let point: JSONValue = ["x": .double(x), "y": .double(y), "radiusX": 2, "radiusY": 2, "force": 1, "id": 0]
        try send("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": [point]])
        try send("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": []])
    }

    /// Waits up to `timeout` seconds for a visible element matching the CSS `selector` (and containing `text` when
    /// given), scrolls it into view and taps its centre; returns where it tapped.
    @discardableResult
    public func tap(selector: String, containing text: String? = nil, timeout: TimeInterval = 10) throws -> (
        x: Double, y: Double
    ) {
        let finder = Self.finder(selector: selector, containing: text)
        let found = try waitFor(
            """
            (() => {
              const element = \(finder);
              if (!element) return null;
              element.scrollIntoView({ block: 'center', inline: 'center' });
              const box = element.getBoundingClientRect();
              if (box.width <= 0 || box.height <= 0) return null;
              return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
            })()
            """, timeout: timeout, "a visible \(selector)\(text.map { " containing \"\($0)\"" } ?? "") to tap")
        guard let x = found["x"]?.doubleValue, let y = found["y"]?.doubleValue else {
            throw BrowserError("\(selector) has no position: \(found)")
        }
        try tap(x: x, y: y)
        return (x, y)
    }

    /// Types `text` into the focused element (Input.insertText: the page sees `input` events), after tapping the
    /// element matching `selector` to focus it when one is given.
    public func type(_ text: String, into selector: String? = nil) throws {
        if let selector { try tap(selector: selector) }
        try send("Input.insertText", ["text": .string(text)])
    }

    /// Presses and releases one key: "Enter", "Backspace", "Tab", "Escape", or a single character.
    public func press(_ key: String) throws {
        let codes: [String: (code: String, keyCode: Int, text: String?)] = [
            "Enter": ("Enter", 13, "\r"), "Backspace": ("Backspace", 8, nil), "Tab": ("Tab", 9, nil),
            "Escape": ("Escape", 27, nil),
        ]
        var down: JSONObject = ["type": "keyDown", "key": .string(key)]
        if let known = codes[key] {
            down.append("code", .string(known.code))
            down.append("windowsVirtualKeyCode", .number(known.keyCode))
            if let text = known.text { down.append("text", .string(text)) }
        } else {
            down.append("text", .string(key))
        }
        try send("Input.dispatchKeyEvent", down)
        var up: JSONObject = ["type": "keyUp", "key": .string(key)]
        if let known = codes[key] {
            up.append("code", .string(known.code))
            up.append("windowsVirtualKeyCode", .number(known.keyCode))
        }
        try send("Input.dispatchKeyEvent", up)
    }

    // MARK: Screenshots

    /// Captures the viewport as a PNG into `path` (a bare file name goes into `Browser.screenshotFolder`); returns
    /// the file's path.
    @discardableResult
    public func screenshot(to path: String) throws -> String {
        let file = path.contains("/") ? path : Browser.screenshotFolder + path
        let reply = try send("Page.captureScreenshot", ["format": "png"])
        guard let text = reply["data"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw BrowserError("the screenshot came without PNG data")
        }
        do {
            try data.write(to: URL(fileURLWithPath: file))
        } catch {
            throw BrowserError("cannot write the screenshot \(file): \(error)")
        }
        return file
    }

    // MARK: Network, visibility

    /// Cuts the page off the network (new requests fail, `navigator.onLine` is false), or reconnects it; a
    /// WebSocket already open is not closed (its frames just stop), so cut a live connection with `TCPProxy`.
    public func setOffline(_ offline: Bool) throws {
        try send(
            "Network.emulateNetworkConditions",
            ["offline": .bool(offline), "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1])
    }

    /// Hides the page (the phone locked, another app in front) or shows it again, for real: its window is
    /// minimized or restored, so `document.visibilityState` changes and `visibilitychange` fires as on a phone; with
    /// `freeze`, hiding also freezes the page (its timers and tasks stop, as a phone does to a background tab) and
    /// showing thaws it first. Returns once the page sees the new state.
    public func setHidden(_ hidden: Bool, freeze: Bool = false, timeout: TimeInterval = 10) throws {
        let window = try connection.send("Browser.getWindowForTarget", ["targetId": .string(targetID)])
        guard let windowID = window["windowId"] else { throw BrowserError("the page has no window: \(window)") }
        if !hidden && freeze { try send("Page.setWebLifecycleState", ["state": "active"]) }
        // Focus emulation keeps a page shown even in a minimized window: it is off while the page is hidden.
        if hidden { try send("Emulation.setFocusEmulationEnabled", ["enabled": false]) }
        try connection.send(
            "Browser.setWindowBounds",
            ["windowId": windowID, "bounds": ["windowState": .string(hidden ? "minimized" : "normal")]])
        if !hidden { try send("Emulation.setFocusEmulationEnabled", ["enabled": true]) }
        let state = hidden ? "hidden" : "visible"
        try waitFor("document.visibilityState === '\(state)'", timeout: timeout, "the page to be \(state)")
        if hidden && freeze { try send("Page.setWebLifecycleState", ["state": "frozen"]) }
    }

    // MARK: What the page did

    /// Every URL the page requested so far, in order: documents, scripts, styles, images, fetches and WebSockets
    /// (`ws://…`), including `data:` URLs.
    public var requests: [String] { lock.withLock { requestLog } }

    /// The requests whose origin is not `origin` (such as `http://127.0.0.1:8080`), leaving out `data:`, `blob:`
    /// and `about:` URLs: what a page that talks only to its host must keep empty.
    public func requests(outside origin: String) -> [String] {
        let local = URL(string: origin)
        return requests.filter { url in
            if url.hasPrefix("data:") || url.hasPrefix("blob:") || url.hasPrefix("about:") { return false }
            guard let parsed = URL(string: url), let local else { return true }
            let sameScheme =
                parsed.scheme == local.scheme || (parsed.scheme == "ws" && local.scheme == "http")
                || (parsed.scheme == "wss" && local.scheme == "https")
            return !(sameScheme && parsed.host == local.host && parsed.port == local.port)
        }
    }

    /// Every console message (`console.log` and friends, and the browser's own log such as CSP violations) so far,
    /// as "kind: text".
    public var console: [String] { lock.withLock { consoleLog } }

    /// Every uncaught exception and unhandled rejection so far, with its message and where it was thrown.
    public var exceptions: [String] { lock.withLock { exceptionLog } }

    /// One WebSocket text frame the page sent or received.
    public struct WebSocketFrame: Sendable, Equatable {
        /// Whether the page sent it (false: it came from the server).
        public let sent: Bool
        /// The WebSocket's URL.
        public let url: String
        /// The frame's payload as text.
        public let text: String
    }

    /// Every WebSocket frame the page sent or received so far, in order (`Network` events), each with its
    /// WebSocket's URL: the protocol messages of a phone, for assertions like "the page sent a hello".
    public var webSocketFrames: [WebSocketFrame] { lock.withLock { frameLog } }

    /// Every alert, confirm or prompt the page opened so far ("alert: text"); each was dismissed at once.
    public var dialogs: [String] { lock.withLock { dialogLog } }

    /// The console, exceptions, dialogs and the latest requests, for a failure message; empty when there is none.
    public func report(heading: String = "") -> String {
        let (console, exceptions, dialogs, requests, crashed) = lock.withLock {
            (consoleLog, exceptionLog, dialogLog, requestLog, self.crashed)
        }
        var parts: [String] = []
        if crashed { parts.append("the page crashed") }
        if !exceptions.isEmpty { parts.append("uncaught exceptions:\n  " + exceptions.joined(separator: "\n  ")) }
        if !dialogs.isEmpty { parts.append("dialogs:\n  " + dialogs.joined(separator: "\n  ")) }
        if !console.isEmpty { parts.append("console:\n  " + console.suffix(40).joined(separator: "\n  ")) }
        if !requests.isEmpty { parts.append("requests:\n  " + requests.suffix(20).joined(separator: "\n  ")) }
        return parts.isEmpty ? "" : heading + parts.joined(separator: "\n")
    }

    /// Closes the page (and its browser context unless it shares another page's); safe to call more than once.
    public func close() { close(waiting: true) }

    private func close(waiting: Bool) {
        let first = lock.withLock {
            defer { isClosed = true }
            return !isClosed
        }
        guard first, !connection.isClosed else { return }
        let commands: [(String, JSONObject)] =
            [("Target.closeTarget", ["targetId": .string(targetID)])]
            + (ownsContext ? [("Target.disposeBrowserContext", ["browserContextId": .string(contextID)])] : [])
        for (method, params) in commands {
            if waiting {
                _ = try? connection.send(method, params, timeout: 10)
            } else {
                _ = try? connection.post(method, params)
            }
        }
        connection.forget(session: sessionID)
    }

    // MARK: Recording

    private func record(_ event: DevToolsEvent) {
        let params = event.params
        switch event.method {
        case "Network.requestWillBeSent":
            if let url = params["request"]?["url"]?.stringValue { lock.withLock { requestLog.append(url) } }
        case "Network.webSocketCreated":
            if let url = params["url"]?.stringValue {
                lock.withLock {
                    requestLog.append(url)
                    if let id = params["requestId"]?.stringValue { webSocketURLs[id] = url }
                }
            }
        case "Network.webSocketFrameSent", "Network.webSocketFrameReceived":
            let sent = event.method == "Network.webSocketFrameSent"
            if let text = params["response"]?["payloadData"]?.stringValue, params["response"]?["opcode"]?.intValue == 1
            {
                lock.withLock {
                    let url = params["requestId"]?.stringValue.flatMap { webSocketURLs[$0] } ?? "?"
                    frameLog.append(WebSocketFrame(sent: sent, url: url, text: text))
                }
            }
        case "Runtime.consoleAPICalled":
            let kind = params["type"]?.stringValue ?? "log"
            let text = (params["args"]?.arrayValue ?? []).map(Self.remoteObjectText).joined(separator: " ")
            lock.withLock { consoleLog.append("console.\(kind): \(text)") }
        case "Log.entryAdded":
            let entry = params["entry"]
            let text =
                "\(entry?["level"]?.stringValue ?? "log") (\(entry?["source"]?.stringValue ?? "browser")): "
                + (entry?["text"]?.stringValue ?? "")
            lock.withLock { consoleLog.append(text) }
        case "Runtime.exceptionThrown":
            let text = params["exceptionDetails"].map(Self.exceptionText) ?? params.description
            lock.withLock { exceptionLog.append(text) }
        case "Page.javascriptDialogOpening":
            let text = "\(params["type"]?.stringValue ?? "dialog"): \(params["message"]?.stringValue ?? "")"
            lock.withLock { dialogLog.append(text) }
            _ = try? connection.post("Page.handleJavaScriptDialog", ["accept": false], session: sessionID)
        case "Inspector.targetCrashed":
            lock.withLock { crashed = true }
        default:
            break
        }
    }

    /// A console argument as text: its value, else its description, else its type.
    static func remoteObjectText(_ object: JSONValue) -> String {
        if let value = object["value"] { return value.stringValue ?? value.description }
        return object["unserializableValue"]?.stringValue ?? object["description"]?.stringValue
            ?? object["type"]?.stringValue ?? "?"
    }

    /// An exception's message (the error's description when there is one) and where it was thrown.
    static func exceptionText(_ details: JSONValue) -> String {
        let message =
            details["exception"]?["description"]?.stringValue ?? details["exception"]?["value"]?.description
            ?? details["text"]?.stringValue ?? "an exception"
        let place = details["url"]?.stringValue.map { " at \($0):\((details["lineNumber"]?.intValue ?? 0) + 1)" } ?? ""
        return message + place
    }

    /// JavaScript that finds the first element matching `selector` (containing `text`), or null.
    static func finder(selector: String, containing text: String?) -> String {
        let quoted = String(decoding: JSONEncoding.encode(.string(selector)), as: UTF8.self)
        guard let text else { return "document.querySelector(\(quoted))" }
        let needle = String(decoding: JSONEncoding.encode(.string(text)), as: UTF8.self)
        return "[...document.querySelectorAll(\(quoted))].find((e) => (e.textContent || '').includes(\(needle)))"
            + " || null"
    }
}
