import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the client meets the person.
enum DisplayMode: Equatable, Sendable {
    /// Full screen on a terminal, raw keys.
    case screen
    /// One line per event on stdout, one command per line on stdin.
    case plain
}

/// The shell around `ClientState`: one thread, one poller for the socket, stdin and signals, a redraw timer.
///
/// It connects, says hello, answers clock sync and keepalives at once, reconnects with backoff when the
/// connection drops (resuming with the token), and feeds keys or lines to the state.
final class ClientApp {
    /// Delays between reconnection attempts, ms; the last repeats.
    static let backoff: [Int64] = [200, 500, 1000, 2000, 4000, 5000]
    /// How long a dropped client keeps trying (the host's default resume window).
    static let giveUpAfter: Int64 = 10 * 60 * 1000
    /// How long one connection attempt may take.
    static let connectTimeout: Int64 = 3000
    /// How long the host may take to answer a hello.
    static let helloTimeout: Int64 = 10_000
    /// How often a barred player asks again, so that the organiser's `unban` lets them in without a restart.
    static let barredRetry: Int64 = 15_000

    let options: ClientOptions
    let mode: DisplayMode
    /// Whether the person can be asked questions (stdin is a terminal).
    let isInteractive: Bool
    private(set) var state: ClientState
    private var joinName: String
    private var joinTeam: String
    private var adminKey: String?
    private let address: sockaddr_in
    private let poller: Poller
    private let signals: SignalPipe
    private var socket: Socket?
    private var isConnecting = false
    private var connectStartedAt: Int64 = 0
    private var helloSentAt: Int64?
    private var framer = LineFramer()
    private var outbox: [UInt8] = []
    private var isWatchingWrites = false
    private var hasJoinedOnce = false
    private var attempt = 0
    private var nextAttemptAt: Int64?
    private var lostAt: Int64?
    private var lastError = ""
    /// The host's last "you are barred" refusal, said once however often the client asks again.
    private var barredMessage: String?
    /// Set when the host said we must not come back (kicked, replaced by another connection, bye).
    private var goodbye: String?
    private var exitStatus: Int32?
    private var exitMessage: String?
    /// Said on stderr after the screen is restored (how to come back).
    private var exitNote: String?
    private var isStdinWatched = false
    private var isStdinFile = false
    private var isStdinOpen = true
    private var keyDecoder = KeyDecoder()
    private var stdinFramer = LineFramer()
    private var isScreenActive = false
    private var lastFrame: [String] = []
    private var lastSize = (width: 0, height: 0)
    private var needsFullRedraw = true
    private var lastLobbyLine = ""
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private let renderOptions: RenderOptions
    private let isBellAllowed: Bool
    /// Where this player's place (resume token) is kept between runs, and under which host name.
    private let placeFile: ResumeFile?
    private let placeHost: String

    /// Prepares a client for `address`; nothing happens until `run()`. A `token` kept from an earlier run makes
    /// the hello a resume; `placeFile` keeps the new one under `placeHost`.
    init(
        options: ClientOptions, mode: DisplayMode, isInteractive: Bool, address: sockaddr_in, addressText: String,
        room: String, name: String, team: String, token: String? = nil, placeFile: ResumeFile? = nil,
        placeHost: String = ""
    ) throws(SocketError) {
        self.options = options
        self.mode = mode
        self.isInteractive = isInteractive
        self.address = address
        joinName = name
        joinTeam = team
        adminKey = options.adminKey
        state = ClientState(role: options.role, room: room, name: name, team: team)
        state.hostAddress = addressText
        if options.role == .board {
            state.phoneAddress = BoardJoinCode.phoneAddress(
                hostAddress: addressText, defaultPort: ClientOptions.defaultPort,
                localAddresses: InterfaceAddresses.ipv4())
        }
        state.token = options.role == .player ? token : nil
        self.placeFile = placeFile
        self.placeHost = placeHost
        poller = try Poller()
        signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGHUP, SIGWINCH])
        if signals.readFD >= 0 { try? poller.add(signals.readFD, interest: .read) }
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        renderOptions = RenderOptions(isColorEnabled: !noColor && !options.isColorDisabled, isStyled: true)
        isBellAllowed = options.isBellEnabled && isatty(STDOUT_FILENO) == 1
    }

    private var now: Int64 { MonotonicClock.milliseconds() }

    // MARK: The loop

    /// Runs until the person quits or the host is gone for good; returns the exit status.
    func run() -> Int32 {
        Output.error("Connecting to \(state.hostAddress)…")
        startConnecting(at: now)
        while exitStatus == nil {
            let current = now
            if socket == nil, let next = nextAttemptAt, current >= next {
                nextAttemptAt = nil
                startConnecting(at: current)
            }
            if isConnecting, current - connectStartedAt > ClientApp.connectTimeout {
                connectionLost("the connection attempt timed out", at: current)
            }
            if let sent = helloSentAt, current - sent > ClientApp.helloTimeout {
                connectionLost("the host did not answer the hello (is that a Partyline host?)", at: current)
            }
            if exitStatus != nil { break }
            if isScreenActive { redraw(at: current) }
            let ready: ArraySlice<Readiness>
            do {
                ready = try poller.wait(timeoutMilliseconds: timeout(at: current))
            } catch {
                finish(1, message: "The event loop failed: \(error).")
                break
            }
            for readiness in ready { handle(readiness) }
            if isStdinFile && isStdinOpen { readStandardInput() }
        }
        shutDown()
        return exitStatus ?? 0
    }

    private func timeout(at current: Int64) -> Int32 {
        if isStdinFile && isStdinOpen { return 0 }
        var wait: Int64 = isScreenActive ? 100 - current % 100 : 1000
        if let next = nextAttemptAt { wait = min(wait, max(0, next - current)) }
        if isConnecting { wait = min(wait, 100) }
        return Int32(clamping: max(0, wait))
    }

    private func handle(_ readiness: Readiness) {
        if readiness.fd == signals.readFD {
            for number in signals.drain() { handleSignal(number) }
            return
        }
        if poller.isWakeUp(readiness.fd) {
            poller.drainWakeUps()
            return
        }
        if readiness.fd == STDIN_FILENO && isStdinWatched {
            readStandardInput()
            return
        }
        guard let socket, readiness.fd == socket.fd else { return }
        if isConnecting {
            if readiness.isWritable || readiness.isHangUp || readiness.isReadable { finishConnecting(at: now) }
            return
        }
        if readiness.isReadable || readiness.isHangUp { readSocket() }
        if readiness.isWritable && self.socket != nil { flush() }
    }

    private func handleSignal(_ number: Int32) {
        switch number {
        case SIGWINCH:
            needsFullRedraw = true
        // Signals end the client without a goodbye: the player keeps their place and comes back by starting again.
        case SIGINT:
            quit(status: 130, sayBye: false)
        case SIGTERM:
            quit(status: 143, sayBye: false)
        case SIGHUP:
            quit(status: 129, sayBye: false)
        default:
            break
        }
    }

    private func finish(_ status: Int32, message: String?) {
        guard exitStatus == nil else { return }
        exitStatus = status
        exitMessage = message
    }

    private func shutDown() {
        if let socket {
            poller.remove(socket.fd)
            socket.close()
            self.socket = nil
        }
        if isScreenActive {
            Terminal.restore()
            isScreenActive = false
        }
        if let exitMessage {
            if mode == .plain && exitStatus == 0 {
                Output.line(exitMessage)
            } else {
                Output.error("partyline: " + exitMessage)
            }
        }
        if let exitNote { Output.error(exitNote) }
    }

    // MARK: Connecting

    private func startConnecting(at current: Int64) {
        framer = LineFramer()
        outbox = []
        do {
            let (socket, isConnected) = try Network.startConnect(to: address)
            self.socket = socket
            connectStartedAt = current
            if isConnected {
                try poller.add(socket.fd, interest: .read)
                connected()
            } else {
                isConnecting = true
                try poller.add(socket.fd, interest: [.read, .write])
            }
        } catch {
            connectionLost("\(error)", at: current)
        }
    }

    private func finishConnecting(at current: Int64) {
        guard let socket else { return }
        let code = Network.connectError(of: socket)
        guard code == 0 else {
            connectionLost(Network.describe(code), at: current)
            return
        }
        isConnecting = false
        try? poller.modify(socket.fd, interest: .read)
        connected()
    }

    private func connected() {
        socket?.configureStream(keepAliveSeconds: 15)
        sendHello()
    }

    private func sendHello() {
        let hello = Hello(
            room: state.room, name: state.role == .player ? joinName : "", team: state.role == .player ? joinTeam : "",
            role: state.role, key: adminKey, resume: state.role == .player ? state.token : nil, isSyncing: true)
        helloSentAt = now
        send(hello.json)
    }

    /// The connection ended (or never started): schedules the next attempt, or gives up.
    private func connectionLost(_ reason: String, at current: Int64) {
        if let socket {
            poller.remove(socket.fd)
            socket.close()
            self.socket = nil
        }
        isConnecting = false
        isWatchingWrites = false
        helloSentAt = nil
        outbox = []
        guard exitStatus == nil else { return }
        if let goodbye {
            finish(1, message: goodbye)
            return
        }
        lastError = reason
        attempt += 1
        if !hasJoinedOnce {
            if attempt > 3 {
                finish(1, message: "Could not reach the host at \(state.hostAddress): \(reason).")
                return
            }
        } else {
            let since = lostAt ?? current
            lostAt = since
            if current - since > ClientApp.giveUpAfter {
                finish(
                    1, message: "The host at \(state.hostAddress) has been gone for 10 minutes (\(reason)). Giving up.")
                return
            }
        }
        let delay = ClientApp.backoff[min(attempt - 1, ClientApp.backoff.count - 1)]
        nextAttemptAt = current + delay
        if hasJoinedOnce {
            let wasJoined = state.link == .joined
            state.lostHost(at: current, attempt: attempt, nextAttemptAt: current + delay)
            if wasJoined && mode == .plain { Output.line("reconnecting… (\(reason))") }
        }
    }

    // MARK: Socket I/O

    private func readSocket() {
        guard let socket else { return }
        for _ in 0..<8 {
            let count: Int
            do throws(SocketError) {
                count = try readBuffer.withUnsafeMutableBytes { buffer in
                    Result { () throws(SocketError) -> Int in try socket.read(into: buffer) }
                }.get()
            } catch .wouldBlock {
                return
            } catch .disconnected {
                connectionLost("the host closed the connection", at: now)
                return
            } catch {
                connectionLost("\(error)", at: now)
                return
            }
            let receivedAt = now
            for output in framer.feed(readBuffer[0..<count]) {
                guard case .line(let bytes) = output else { continue }
                handleHostLine(bytes, at: receivedAt)
                if self.socket == nil || exitStatus != nil { return }
            }
        }
    }

    private func send(_ message: JSONValue) {
        guard socket != nil, !isConnecting else { return }
        outbox += JSONEncoding.encodeLine(message)
        flush()
    }

    private func flush() {
        guard let socket, !outbox.isEmpty else { return }
        while !outbox.isEmpty {
            let written: Int
            do throws(SocketError) {
                written = try outbox.withUnsafeBytes { bytes in
                    Result { () throws(SocketError) -> Int in try socket.write(bytes) }
                }.get()
            } catch .wouldBlock {
                if !isWatchingWrites {
                    try? poller.modify(socket.fd, interest: [.read, .write])
                    isWatchingWrites = true
                }
                return
            } catch {
                connectionLost("\(error)", at: now)
                return
            }
            outbox.removeFirst(written)
        }
        if isWatchingWrites {
            try? poller.modify(socket.fd, interest: .read)
            isWatchingWrites = false
        }
    }

    // MARK: Host messages

    private func handleHostLine(_ bytes: [UInt8], at receivedAt: Int64) {
        guard case .object(let object)? = try? JSONParsing.parse(bytes) else { return }
        let session = SessionMessage.decode(object)
        switch session {
        case .error(let error)?:
            if state.link != .joined, handleJoinError(code: error.code, message: error.message) { return }
            if error.code == .kicked {
                goodbye = error.message
                forgetPlace()
            }
        case .closing(let closing)? where closing.code == .replaced:
            goodbye = closing.reason
        default:
            break
        }
        let actions = state.apply(.object(object), at: receivedAt)
        if case .welcome(let welcome)? = session { welcomed(welcome) }
        if mode == .plain, let line = EventText.line(for: object, in: state) {
            switch session {
            case .welcome?:
                break
            case .lobby?:
                if line != lastLobbyLine { Output.line(line) }
                lastLobbyLine = line
            default:
                Output.line(line)
            }
        }
        perform(actions)
    }

    private func welcomed(_ message: Welcome) {
        let isResume = hasJoinedOnce
        hasJoinedOnce = true
        helloSentAt = nil
        attempt = 0
        lostAt = nil
        lastLobbyLine = ""
        if mode == .plain {
            Output.line(EventText.joined(state, isResume: isResume))
        } else if !isScreenActive {
            Terminal.enter()
            isScreenActive = true
            needsFullRedraw = true
        }
        if isResume { state.setNotice("Reconnected — you kept your place.", isError: false, at: now, isLasting: true) }
        if message.game != nil { send(ClientMessage.scores.json) }
        keepPlace()
        watchStandardInput()
    }

    /// Saves this player's place (the resume token) so that starting the client again comes back as them.
    private func keepPlace() {
        guard state.role == .player, let placeFile, let token = state.token else { return }
        var places = placeFile.load()
        places.keep(
            ResumePlaces.Place(
                host: placeHost, room: state.room, name: state.name, team: state.team, token: token,
                savedAt: Int64(Date().timeIntervalSince1970)))
        do {
            try placeFile.save(places)
        } catch {
            if mode == .plain { Output.error("partyline: your place could not be kept for a restart: \(error)") }
        }
    }

    /// Forgets this player's place (they said goodbye, or were removed).
    private func forgetPlace() {
        guard state.role == .player, let placeFile else { return }
        var places = placeFile.load()
        places.forget(host: placeHost, room: state.room, name: state.name)
        try? placeFile.save(places)
    }

    /// Handles a refused hello; true when handled (asked again, retried or gave up).
    private func handleJoinError(code: ErrorCode, message: String) -> Bool {
        switch code {
        case .wrongRoom:
            guard !hasJoinedOnce, let room = ask("\(message)\nRoom code: ") else { return fail(message) }
            state.room = room.uppercased()
        case .nameTaken, .badName:
            guard !hasJoinedOnce, state.role == .player else { return fail(message) }
            if message.contains(" team ") {
                guard let team = ask("\(message)\nTeam (empty: a team of one named after you): ", allowEmpty: true)
                else { return fail(message) }
                joinTeam = team
            } else {
                guard let name = ask("\(message)\nName: ") else { return fail(message) }
                joinName = name
                state.name = name
            }
        case .badKey:
            guard !hasJoinedOnce, let key = ask("\(message)\nAdmin key: ") else { return fail(message) }
            adminKey = key
        case .badToken:
            state.token = nil
            state.setNotice(
                "Your old place had expired; you joined again as \(joinName).", isError: false, at: now,
                isLasting: true)
        case .banned:
            waitWhileBarred(message)
            return true
        case .badVersion:
            return fail(message)
        case .full, .rateLimited:
            lastError = message
            return true  // the host closes; the reconnect loop tries again
        default:
            return false
        }
        sendHello()
        return true
    }

    /// The name (or this computer) is barred for tonight: says so once, with what happens next, then asks again every
    /// `barredRetry` without a word, so that the organiser's `unban` lets the player in without starting again.
    private func waitWhileBarred(_ message: String) {
        if barredMessage != message {
            barredMessage = message
            let wait = Int(ClientApp.barredRetry / 1000)
            let next =
                "You join by yourself once the organiser lets you back in (unban \(joinName)): this asks again every "
                + "\(wait) s. Ctrl-C stops."
            if isScreenActive {
                state.setNotice(message + " " + next, isError: true, at: now, isLasting: true)
            } else {
                Output.line("! " + message)
                Output.line(next)
            }
        }
        helloSentAt = nil
        if let socket {
            poller.remove(socket.fd)
            socket.close()
            self.socket = nil
        }
        isConnecting = false
        isWatchingWrites = false
        outbox = []
        attempt = 0
        nextAttemptAt = now + ClientApp.barredRetry
    }

    private func fail(_ message: String) -> Bool {
        finish(1, message: message)
        return true
    }

    /// Asks the person for a value (before the full screen starts); nil when nobody can answer.
    private func ask(_ prompt: String, allowEmpty: Bool = false) -> String? {
        guard isInteractive, !isScreenActive else { return nil }
        while true {
            Output.write(prompt, to: STDERR_FILENO)
            guard let line = readLine() else { return nil }
            let value = line.trimmingCharacters(in: .whitespaces)
            if !value.isEmpty || allowEmpty { return value }
        }
    }

    // MARK: Actions

    private func perform(_ actions: [ClientAction]) {
        for action in actions {
            switch action {
            case .send(let message):
                if socket == nil || isConnecting || state.link != .joined {
                    if message != ClientMessage.pong.json {
                        state.setNotice(
                            "Not connected right now — reconnecting; try again in a moment.", isError: true, at: now)
                        if mode == .plain {
                            Output.line("! Not connected right now — reconnecting; try again in a moment.")
                        }
                    }
                    continue
                }
                send(message)
            case .syncReply(let sequence, let hostSent, let receivedAt):
                let reply = SyncReply(
                    sequence: sequence, hostSent: hostSent, clientReceived: receivedAt, clientSent: now)
                send(ClientMessage.sync(reply).json)
            case .print(let text):
                if mode == .plain {
                    Output.line(text)
                } else {
                    state.setNotice(text, isError: text.hasPrefix("!"), at: now)
                }
            case .bell:
                if isBellAllowed { Output.write("\u{07}") }
            case .quit(let status, let sayBye):
                quit(status: status, sayBye: sayBye)
            }
        }
    }

    private func quit(status: Int32, sayBye: Bool) {
        if sayBye { forgetPlace() }  // the host frees the name at a goodbye: the old token is void
        if !sayBye, state.role == .player, hasJoinedOnce {
            let again = "Your place in room \(state.room) is kept for 10 minutes: start partyline again to come back."
            if mode == .plain { Output.error(again) } else { exitNote = again }
        }
        if sayBye, let socket, !isConnecting {
            outbox += JSONEncoding.encodeLine(ClientMessage.bye.json)
            flush()
            // give the bye a moment to leave; the host answers with `closing`
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 200)
        }
        finish(status, message: status == 0 && mode == .plain ? "bye" : nil)
    }

    // MARK: Standard input

    private func watchStandardInput() {
        guard !isStdinWatched, !isStdinFile, isStdinOpen else { return }
        do {
            try poller.add(STDIN_FILENO, interest: .read)
            isStdinWatched = true
        } catch {
            isStdinFile = true  // a regular file (epoll refuses those): read it as the loop goes
        }
    }

    private func readStandardInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glue.recvOrRead(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        let current = now
        guard count > 0 else {
            isStdinOpen = false
            if isStdinWatched {
                poller.remove(STDIN_FILENO)
                isStdinWatched = false
            }
            if mode == .screen { quit(status: 0, sayBye: true) }
            return
        }
        let bytes = Array(buffer[0..<count])
        switch mode {
        case .screen:
            for key in keyDecoder.feed(bytes) {
                perform(state.handle(key, at: current))
                if exitStatus != nil { return }
            }
            redraw(at: current)
        case .plain:
            for output in stdinFramer.feed(bytes) {
                guard case .line(let line) = output else { continue }
                perform(state.handle(line: String(decoding: line, as: UTF8.self), at: current))
                if exitStatus != nil { return }
            }
        }
    }

    // MARK: Drawing

    private func redraw(at current: Int64) {
        guard isScreenActive else { return }
        let size = Terminal.size()
        // one column spare: writing the last column of a row makes some terminals wrap
        let lines = render(state, width: size.width - 1, height: size.height, now: current, options: renderOptions)
        var output = ""
        if needsFullRedraw || size != lastSize || lines.count != lastFrame.count {
            output += "\u{1B}[2J"
            lastFrame = []
            needsFullRedraw = false
            lastSize = size
        }
        for (index, line) in lines.enumerated() where index >= lastFrame.count || lastFrame[index] != line {
            output += "\u{1B}[\(index + 1);1H" + line + "\u{1B}[0m\u{1B}[K"
        }
        lastFrame = lines
        if !output.isEmpty { Output.write(output) }
    }
}
