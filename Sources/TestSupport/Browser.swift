import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A headless Chromium driven over the DevTools protocol through `--remote-debugging-pipe`: no WebSocket, no Node.
///
/// `Browser.launch()` starts one (nil with a printed reason when none is installed); `newPage()` opens a phone-sized
/// touch page in a fresh browser context; `close()` (or going away) kills the process and removes its profile.
/// `Browser.shared()` is one browser for the whole test process, closed when the process exits.
///
/// ```swift
/// @Suite(.enabled(if: Browser.isAvailable, "no Chromium installed")) struct PhonePageTests {
///     @Test func joins() throws {
///         let page = try #require(try Browser.shared()).newPage()
///         defer { page.close() }
///         try page.navigate("http://127.0.0.1:\(port)/ABCD")
///         try page.type("Ann", into: "#name")
///         try page.tap(selector: "button", containing: "Join")
///         try page.waitFor("document.querySelector('.lobby')", "the lobby")
///         #expect(page.requests(outside: "http://127.0.0.1:\(port)").isEmpty, "\(page.report())")
///     }
/// }
/// ```
public final class Browser: @unchecked Sendable {
    /// The product and version the browser reported (`Chrome/…`).
    public let version: String
    /// The browser process (its process group: the renderers go with it).
    public let pid: pid_t
    /// The executable that was started.
    public let executable: String
    let connection: DevToolsConnection
    private let profile: String
    private let errorLog: String
    private let lock = NSLock()
    private var isStopped = false

    private init(
        executable: String, pid: pid_t, connection: DevToolsConnection, profile: String, errorLog: String,
        version: String
    ) {
        self.executable = executable
        self.pid = pid
        self.connection = connection
        self.profile = profile
        self.errorLog = errorLog
        self.version = version
    }

    deinit { close() }

    // MARK: Finding the browser

    /// The Chromium to use: `$PARTYLINE_CHROMIUM`, else `chromium`, `chromium-browser`, `google-chrome` on PATH.
    public static let executablePath: String? = findExecutable()

    /// Whether a browser is installed; the first time it is asked and none is, says why the browser tests skip.
    public static let isAvailable: Bool = {
        guard executablePath == nil else { return true }
        print("◇ \(unavailableReason)")
        return false
    }()

    /// Why the browser tests are skipped when no browser is installed.
    public static let unavailableReason: String = {
        if let chosen = ProcessInfo.processInfo.environment["PARTYLINE_CHROMIUM"], !chosen.isEmpty {
            return "Browser tests skipped: PARTYLINE_CHROMIUM is \(chosen), which is not an executable file."
        }
        return "Browser tests skipped: no Chromium found (looked for $PARTYLINE_CHROMIUM, then chromium, "
            + "chromium-browser, google-chrome, google-chrome-stable on PATH); install it with "
            + "`apt-get install chromium` (.ci/run does) to run them."
    }()

    private static func findExecutable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["PARTYLINE_CHROMIUM"], !chosen.isEmpty {
            return FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil
        }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        #if canImport(Darwin)
            let application = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
            if FileManager.default.isExecutableFile(atPath: application) { return application }
        #endif
        return nil
    }

    // MARK: Launching

    /// Starts a headless browser with a fresh profile and waits up to `timeout` seconds for it to answer; nil (and
    /// a printed reason) when no browser is installed.
    public static func launch(extraArguments: [String] = [], timeout: TimeInterval = 60) throws -> Browser? {
        guard isAvailable, let executable = executablePath else { return nil }
        let profile = NSTemporaryDirectory() + "partyline-chromium-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let errorLog = profile + "/stderr.txt"
        var arguments = [
            "--headless=new", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=\(profile)/data",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-dev-shm-usage", "--disable-breakpad", "--disable-hang-monitor",
            "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
            "--disable-backgrounding-occluded-windows", "--disable-ipc-flooding-protection",
            "--disable-features=Translate,MediaRouter,OptimizationHints", "--password-store=basic",
            "--use-mock-keychain", "--force-color-profile=srgb", "--hide-scrollbars",
        ]
        if getuid() == 0 { arguments.append("--no-sandbox") }
        arguments += extraArguments + ["about:blank"]

        var pair: [Int32] = [-1, -1]
        #if canImport(Glibc)
            let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        #else
            let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &pair)
        #endif
        guard made == 0 else {
            try? FileManager.default.removeItem(atPath: profile)
            throw BrowserError("cannot make the browser's pipe: errno \(errno)")
        }
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(pair[0], SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // The child's end must not already be fd 3 or 4 (a dup2 onto itself would keep close-on-exec).
        let childEnd = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        Glue.close(pair[1])
        guard childEnd >= 0 else {
            Glue.close(pair[0])
            try? FileManager.default.removeItem(atPath: profile)
            throw BrowserError("cannot place the browser's pipe: errno \(errno)")
        }
        let pid: pid_t
        do {
            pid = try ProcessLaunch.serialized { try spawn(executable, arguments, pipe: childEnd, errorLog: errorLog) }
        } catch {
            Glue.close(childEnd)
            Glue.close(pair[0])
            try? FileManager.default.removeItem(atPath: profile)
            throw error
        }
        Glue.close(childEnd)
        let connection = DevToolsConnection(fd: pair[0])
        let version: String
        do {
            let reply = try connection.send("Browser.getVersion", timeout: timeout)
            version = reply["product"]?.stringValue ?? "?"
        } catch {
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            connection.shutdown()
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            try? FileManager.default.removeItem(atPath: profile)
            throw BrowserError("\(executable) did not answer (\(error)); its stderr:\n\(log.suffix(2000))")
        }
        return Browser(
            executable: executable, pid: pid, connection: connection, profile: profile, errorLog: errorLog,
            version: version)
    }

    /// Starts `executable` in its own process group with `pipe` as fds 3 and 4, stdin and stdout on /dev/null,
    /// stderr into `errorLog`, and no other descriptor of this process.
    private static func spawn(_ executable: String, _ arguments: [String], pipe: Int32, errorLog: String) throws
        -> pid_t
    {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, pipe, 3)
        posix_spawn_file_actions_adddup2(&actions, pipe, 4)
        #if canImport(Glibc)
            // Other tests' sockets must not leak into the browser (their peers would never see them close).
            if let closeFrom = closeFromAction {
                _ = closeFrom(&actions, 5)
            }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        #else
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw BrowserError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    #if canImport(Glibc)
        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not show.
        private typealias CloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) ->
            Int32
        private static let closeFromAction: CloseFrom? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(symbol, to: CloseFrom.self)
        }()
    #endif

    // MARK: The shared browser

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedBrowser: Browser?

    /// One browser for the whole test process (launched on first use, relaunched if it died, closed at exit); nil
    /// (with a printed reason) when none is installed. Each `newPage()` still gets its own browser context.
    public static func shared() throws -> Browser? {
        try sharedLock.withLock {
            if let browser = sharedBrowser, !browser.connection.isClosed { return browser }
            guard let browser = try launch() else { return nil }
            if sharedBrowser == nil { atexit { Browser.closeShared() } }
            sharedBrowser = browser
            return browser
        }
    }

    private static func closeShared() {
        let browser = sharedLock.withLock { sharedBrowser }
        browser?.close()
    }

    // MARK: Pages and closing

    /// Opens a page `width`×`height` CSS pixels (at `scale` device pixels each) with touch input and mobile layout
    /// (the page's `<meta name="viewport">` applies), in a fresh browser context (its own storage and cookies)
    /// unless it shares `context` with another page, like a second tab of the same phone.
    public func newPage(
        width: Int = 390, height: Int = 844, scale: Double = 1, touch: Bool = true, mobile: Bool = true,
        sharingContextWith other: BrowserPage? = nil
    ) throws -> BrowserPage {
        let context: String
        let ownsContext: Bool
        if let other {
            context = other.contextID
            ownsContext = false
        } else {
            let reply = try connection.send("Target.createBrowserContext", ["disposeOnDetach": true])
            guard let created = reply["browserContextId"]?.stringValue else {
                throw BrowserError("the browser made no context: \(reply)")
            }
            context = created
            ownsContext = true
        }
        // Each page has a window of its own, so hiding one (minimizing its window) leaves the others shown.
        let parameters: JSONObject = [
            "url": "about:blank", "browserContextId": .string(context), "newWindow": true, "width": .number(width),
            "height": .number(height),
        ]
        let target = try connection.send("Target.createTarget", parameters)
        guard let targetID = target["targetId"]?.stringValue else {
            throw BrowserError("the browser opened no page: \(target)")
        }
        let attached = try connection.send("Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let session = attached["sessionId"]?.stringValue else {
            throw BrowserError("the browser gave no session for the page: \(attached)")
        }
        let page = BrowserPage(
            browser: self, targetID: targetID, sessionID: session, contextID: context, ownsContext: ownsContext,
            width: width, height: height)
        try page.setUp(scale: scale, touch: touch, mobile: mobile)
        return page
    }

    /// The last `limit` characters the browser wrote to stderr (for failure messages).
    public func errorText(limit: Int = 3000) -> String {
        String(((try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "").suffix(limit))
    }

    /// Asks the browser to close, kills its process group if it has not within a few seconds, and removes its
    /// profile; safe to call more than once.
    public func close() {
        let first = lock.withLock {
            defer { isStopped = true }
            return !isStopped
        }
        guard first else { return }
        _ = try? connection.post("Browser.close")
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(5)
        var ended = false
        while !ended && Date() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                ended = true
            } else {
                usleep(10_000)
            }
        }
        kill(-pid, SIGKILL)
        if !ended { waitpid(pid, &status, 0) }
        connection.shutdown()
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Whether the browser process has ended (after `close()`, or a crash).
    public var hasExited: Bool { lock.withLock { isStopped } && kill(pid, 0) != 0 }

    /// The folder the page tests' screenshots go to, `.build/test-output/screenshots/` of this package (created,
    /// and its path printed, on first use).
    public static let screenshotFolder: String = {
        var url = URL(fileURLWithPath: BuiltProducts.directory.path)
        var buildFolder: URL?
        while url.path != "/" {
            if url.lastPathComponent == ".build" {
                buildFolder = url
                break
            }
            url.deleteLastPathComponent()
        }
        let build = buildFolder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build")
        let folder = build.appendingPathComponent("test-output/screenshots").path + "/"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        print("◇ Browser screenshots go to \(folder)")
        return folder
    }()
}
