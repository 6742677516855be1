import Foundation
import Protocol

/// Where a session's bytes go: the transport in the host, a recorder in in-process tests.
package protocol Outlet: AnyObject {
    /// Queues bytes for a connection.
    func send(_ bytes: [UInt8], to id: SessionID)
    /// Closes a connection: at once, or after its queued output has been written.
    func close(_ id: SessionID, afterFlush: Bool)
    /// The kernel's clean round trip of a connection's path in ms, which its peer's application cannot stretch;
    /// nil when unknown.
    func pathRoundTrip(of id: SessionID) -> Int64?
    /// Sends a WebSocket connection a ping frame (its browser answers with a pong by itself).
    func pingWebSocket(_ id: SessionID)
}

extension Outlet {
    /// An outlet without sockets knows no path.
    package func pathRoundTrip(of id: SessionID) -> Int64? { nil }
    /// An outlet without sockets has no WebSockets.
    package func pingWebSocket(_ id: SessionID) {}
}

/// What the session layer hands on once it has decoded a line and checked who may do it.
protocol SessionHandler: AnyObject {
    /// Every game action type the host knows (for decoding and `unknown_type`).
    var actionTypes: Set<String> { get }
    /// How each game reads `start`'s words (typed lines).
    var startGrammars: StartGrammars { get }
    /// The request types of the host's operator tools (for decoding).
    var toolTypes: Set<String> { get }
    /// A `hello` (or a typed `join`/`watch`/`admin`/`resume`) from a session that has not joined.
    func join(_ hello: Hello, session: Session, id: JSONValue?)
    /// A game action from a joined player.
    func play(_ request: PlayRequest, by player: PlayerRef, session: Session, id: JSONValue?)
    /// Any other request from a joined session (`scores`, `library`, operator commands); authority is checked there.
    func request(_ message: ClientMessage, session: Session, id: JSONValue?)
    /// A typed line that is no session command, from a joined text-mode session.
    func typed(_ line: String, session: Session)
    /// Whether the running game awaits a typed line from this session's player now (an answer, a pick, an order).
    func awaitsTypedLine(from session: Session) -> Bool
    /// A line typed while the game awaits one from this session's player: that answer, pick or order.
    func typedAwaited(_ line: String, session: Session)
    /// `rejoin NAME CODE` from a text-mode session that has not joined: come back as that player.
    func rejoin(name: String, code: String, session: Session)
    /// The text-mode help for a role (nil: not joined), with the games' own commands.
    func textHelp(for role: Role?) -> String
    /// A joined session went away.
    func sessionEnded(_ session: Session, membership: Membership)
}

/// The session layer: each connection's life from its first byte to its close — dialect, joining handed to the
/// room, roles, rate limits, keepalive, clock sync — and every byte the host writes to a connection.
///
/// It knows no game: lines become `ClientMessage`s (game actions stay `PlayRequest`s) for the handler.
final class Sessions {
    private(set) var sessions: [SessionID: Session] = [:] {
        didSet { joinedCache = nil }
    }
    /// `joined`, kept until a session opens, joins, closes or leaves (a hall's start asks for it several times).
    private var joinedCache: [Session]?
    /// The session of each connected player, by player id (each counted in `allowances` while it is here).
    private(set) var playerSessions: [String: SessionID] = [:]
    /// The backdate allowances of the sessions in `playerSessions`: the settle window without a walk over them.
    private let allowances = AllowanceTally()
    /// The sessions admitted as boards or operators: a hall's lobby and feed find them without walking every
    /// connection (issue 29: a join must not cost the loop a walk over 5,000 players).
    private var spectatorIDs: Set<SessionID> = []
    let outlet: any Outlet
    weak var handler: (any SessionHandler)?
    let log: Logger
    let settings: Settings
    private var pendingBanners: [(due: Int64, id: SessionID)] = []
    /// Press stamps set aside since the last line that said so, and when that line was written (host ms).
    private var setAsideStamps = 0
    private var setAsideWarnedAt: Int64 = .min
    private var nextSyncSweepAt: Int64 = .max
    private var keepaliveSequence = 0

    /// The session layer's share of the host's options.
    struct Settings {
        var messagesPerSecond: Int
        var idleTimeoutSeconds: Int
        /// The TCP port, for the answer to a browser.
        var port: UInt16
    }

    /// The text a text-mode connection sees before it types anything.
    static let banner = """
        *** Partyline game host ***
        Join with:  join ROOM NAME TEAM     (e.g. join ABCD Ann Red; the room code is on the host's screen)
        Back again: rejoin NAME CODE        (the code you were shown when you joined)
        Or watch:   watch ROOM              Type help for everything else.
        On your turn every line you type is your answer; commands then start with / (/help, /quit).
        """

    init(outlet: any Outlet, settings: Settings, log: Logger) {
        self.outlet = outlet
        self.settings = settings
        self.log = log
    }

    // MARK: Life

    /// A connection was accepted.
    func open(_ id: SessionID, peer: String, at now: Int64) {
        sessions[id] = Session(id: id, peer: peer, now: now)
        pendingBanners.append((now + 250, id))
    }

    /// The connection is gone (the peer left, a read or write failed, or the host closed it).
    func closed(_ id: SessionID, reason: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        spectatorIDs.remove(id)
        session.allowances = nil
        let membership = session.membership
        if session.state != .closed { session.moveState(.closed) }
        // The console names whom the connection was for (a player, a board, the operator), not only its number.
        let who: String =
            switch membership {
            case .player(let player)?: "\(player.name) (\(player.team))'s connection"
            case .board?: "A board's connection"
            case .admin?: "An operator's connection"
            case nil: "Connection"
            }
        log.info("\(who) \(id) from \(session.peer) closed: \(reason).")
        if let player = membership.flatMap({ if case .player(let player) = $0 { player } else { nil } }),
            playerSessions[player.id] == id
        {
            playerSessions[player.id] = nil
        }
        if let membership { handler?.sessionEnded(session, membership: membership) }
    }

    /// Says goodbye: queued output goes out, then the connection closes; the session takes no more input.
    func close(_ session: Session, reason: String) {
        guard session.isLive else { return }
        let membership = session.membership
        session.moveState(.startClosing)
        joinedCache = nil
        if case .player(let player)? = membership, playerSessions[player.id] == session.id {
            playerSessions[player.id] = nil
            session.allowances = nil
        }
        log.debug("Closing connection \(session.id): \(reason).")
        outlet.close(session.id, afterFlush: true)
        if let membership { handler?.sessionEnded(session, membership: membership) }
    }

    /// The session joined as `membership`; a player's earlier session, if any, is replaced.
    func admit(_ session: Session, as membership: Membership) {
        if case .player(let player) = membership {
            let previous = playerSessions[player.id]
            // The new session is the player's before the old one closes, so the player is never away meanwhile
            // (a running game would stop waiting for them).
            playerSessions[player.id] = session.id
            if let oldID = previous { sessions[oldID]?.allowances = nil }
            session.allowances = allowances
            if let oldID = previous, oldID != session.id, let old = sessions[oldID] {
                send(Closing(.replaced, "You joined again from another connection."), to: old)
                close(old, reason: "replaced by a new connection")
            }
        }
        session.moveState(.joined(membership))
        joinedCache = nil
        if membership.role != .player { spectatorIDs.insert(session.id) }
    }

    /// The joined boards and operators, in id order.
    var spectators: [Session] {
        spectatorIDs.compactMap { sessions[$0] }.filter { $0.membership != nil }.sorted { $0.id < $1.id }
    }

    /// The session of `playerID`, when connected.
    func session(ofPlayer playerID: String) -> Session? { playerSessions[playerID].flatMap { sessions[$0] } }

    /// Every joined session.
    var joined: [Session] {
        if let joinedCache { return joinedCache }
        let list = sessions.values.filter { $0.membership != nil }.sorted { $0.id < $1.id }
        joinedCache = list
        return list
    }

    // MARK: Lines

    /// One complete line arrived.
    func receive(_ bytes: [UInt8], from id: SessionID, at now: Int64) {
        guard let session = sessions[id], session.isLive else { return }
        session.lastHeardAt = now
        guard admitByRate(session, at: now) else { return }
        if session.dialect == .undecided {
            let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
            if first == UInt8(ascii: "{") {
                session.dialect = .json
            } else if HTTPProbe.isRequestLine(bytes) {
                answerHTTP(session)
                return
            } else {
                session.dialect = .text
                sendBannerOnce(session)
            }
        } else if session.dialect == .text, session.membership == nil, bytes.first == UInt8(ascii: "{") {
            session.dialect = .json  // a program whose first line was garbage, now speaking JSON
        }
        switch session.dialect {
        case .json:
            // A byte-order mark is no content.
            let line = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            switch ClientMessageDecoding.decode(
                line: line, actions: handler?.actionTypes ?? [], tools: handler?.toolTypes ?? [])
            {
            case .success(let envelope): handle(envelope.message, id: envelope.id, from: session, at: now)
            case .failure(let error): send(ErrorReply(error.code, error.message), to: session, re: error.id)
            }
        case .text:
            guard let line = String(validating: bytes, as: UTF8.self) else {
                sendText("! That line is not readable text (UTF-8). Type help to see the commands.", to: session)
                return
            }
            handleText(line, from: session, at: now)
        case .undecided:
            break
        }
    }

    /// The connection upgraded to a WebSocket: a JSON session from now on, kept alive with WebSocket pings.
    func upgraded(_ id: SessionID, at now: Int64) {
        guard let session = sessions[id], session.isLive else { return }
        session.dialect = .json
        session.isWebSocket = true
        session.lastHeardAt = now
        log.info("Connection \(id) from \(session.peer) opened a WebSocket (a browser).")
    }

    /// A WebSocket ping or pong arrived: the peer is there. A ping counts against the message rate (false: refused).
    func heard(from id: SessionID, isPing: Bool, at now: Int64) -> Bool {
        guard let session = sessions[id], session.isLive else { return false }
        session.lastHeardAt = now
        return isPing ? admitByRate(session, at: now) : true
    }

    /// A line over the framing limit was discarded.
    func lineTooLong(from id: SessionID, limit: Int, at now: Int64) {
        guard let session = sessions[id], session.isLive else { return }
        session.lastHeardAt = now
        send(
            ErrorReply(
                .lineTooLong,
                "A line longer than \(limit / 1024) KiB was discarded. Keep each message on one shorter line."),
            to: session)
    }

    /// A telnet subnegotiation (`IAC SB`) that never ended (`IAC SE`) was dropped with the rest of its line.
    func unfinishedSubnegotiation(from id: SessionID, at now: Int64) {
        guard let session = sessions[id], session.isLive else { return }
        session.lastHeardAt = now
        send(
            ErrorReply(
                .badTelnet,
                "A telnet subnegotiation (IAC SB) did not end with IAC SE; it was dropped with the rest of its line."),
            to: session)
    }

    private func handle(_ message: ClientMessage, id: JSONValue?, from session: Session, at now: Int64) {
        switch message {
        case .hello(let hello):
            guard session.membership == nil else {
                return send(
                    ErrorReply(
                        .alreadyJoined, "This connection already joined. Open another connection to join again."),
                    to: session, re: id)
            }
            handler?.join(hello, session: session, id: id)
        case .ping(let clientTime):
            send(Pong(hostTime: now, t: clientTime, id: id), to: session, re: id)
        case .pong:
            return
        case .sync(let sync):
            // Only answers to probes this host sent count, each once: a client cannot invent exchanges.
            guard let sent = session.outstandingSyncs.removeValue(forKey: sync.sequence), sent == sync.hostSent,
                sync.clientSent >= sync.clientReceived
            else {
                log.debug("Connection \(session.id) sent a sync reply that matches no probe; ignored.")
                return
            }
            session.clock.add(
                ClockSample(
                    hostSent: sync.hostSent, clientReceived: sync.clientReceived, clientSent: sync.clientSent,
                    hostReceived: now))
            session.clock.notePathRoundTrip(outlet.pathRoundTrip(of: session.id))
        case .bye:
            send(Closing(.bye, "Bye!"), to: session)
            session.hasSaidBye = true
            close(session, reason: "the client said bye")
        case .play(let request):
            guard let membership = session.membership else { return refuseNotJoined(session, id: id) }
            switch membership {
            case .player(let player): handler?.play(request, by: player, session: session, id: id)
            case .admin: handler?.request(message, session: session, id: id)  // a game's operator command
            case .board: send(ErrorReply(.forbidden, "A board only watches; it cannot play."), to: session, re: id)
            }
        case .tool(let type, _, _) where type == Sessions.boardEditorType:
            handler?.request(message, session: session, id: id)  // carries its own key: no join needed
        default:
            guard session.membership != nil else { return refuseNotJoined(session, id: id) }
            handler?.request(message, session: session, id: id)
        }
    }

    private func refuseNotJoined(_ session: Session, id: JSONValue?) {
        send(
            ErrorReply(
                .notJoined, "Join first: send {\"type\":\"hello\",\"room\":\"CODE\",\"name\":\"…\",\"team\":\"…\"}."),
            to: session, re: id)
    }

    private func handleText(_ typed: String, from session: Session, at now: Int64) {
        var line = typed.trimmingCharacters(in: Sessions.blank)
        if !line.hasPrefix("/"), session.player != nil, handler?.awaitsTypedLine(from: session) == true {
            // On turn a line is the answer (or the Queen's pick or order), whatever its words.
            if !line.isEmpty { handler?.typedAwaited(line, session: session) }
            return
        }
        if line.hasPrefix("/") { line.removeFirst() }  // `/help` is `help`, on turn and off
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        if words.first?.lowercased() == "resume", session.membership == nil {
            guard words.count == 3 else {
                return sendText("Usage: resume ROOM TOKEN   (the token was shown when you joined)", to: session)
            }
            let hello = Hello(room: String(words[1]).uppercased(), name: "", resume: String(words[2]))
            return handle(.hello(hello), id: nil, from: session, at: now)
        }
        if words.first?.lowercased() == "rejoin" {
            guard words.count == 3 else {
                return sendText("Usage: rejoin NAME CODE   (the code was shown when you joined)", to: session)
            }
            guard session.membership == nil else {
                return sendText(
                    "! You are already in the room. To come back as someone else, reconnect first.", to: session)
            }
            return handler?.rejoin(name: String(words[1]), code: String(words[2]), session: session) ?? ()
        }
        switch TextCommandParsing.parse(line, games: handler?.startGrammars ?? StartGrammars()) {
        case .join(let code, let name, let team):
            handle(.hello(Hello(room: code, name: name, team: team)), id: nil, from: session, at: now)
        case .watch(let code):
            handle(.hello(Hello(room: code, name: "", role: .board)), id: nil, from: session, at: now)
        case .admin(let code, let key):
            handle(.hello(Hello(room: code, name: "", role: .admin, key: key)), id: nil, from: session, at: now)
        case .help:
            sendText(handler?.textHelp(for: session.role) ?? "", to: session)
        case .usage(let usage):
            sendText("Usage: " + usage, to: session)
        case .message(let message):
            handle(message, id: nil, from: session, at: now)
        case .freeText(let text):
            guard !text.isEmpty else { return }
            guard session.membership != nil else {
                return sendText(
                    "! Join first:  join ROOM NAME TEAM   (e.g. join ABCD Ann Red). Type help for more.", to: session)
            }
            handler?.typed(text, session: session)
        }
    }

    /// What surrounds a typed line without being part of it.
    private static let blank = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)

    /// Counts a message against the connection's per-second budget; false means refused.
    private func admitByRate(_ session: Session, at now: Int64) -> Bool {
        let limit = settings.messagesPerSecond
        if now - session.rateWindowStart >= 1000 {
            if session.rateCount <= limit { session.rateStrikes = 0 }
            session.rateWindowStart = now
            session.rateCount = 0
        }
        session.rateCount += 1
        guard session.rateCount > limit else { return true }
        if session.rateCount == limit + 1 {
            session.rateStrikes += 1
            if session.rateStrikes >= 3 {
                send(ErrorReply(.rateLimited, "Too many messages for too long; closing this connection."), to: session)
                close(session, reason: "too many messages for too long")
                return false
            }
        }
        if session.rateCount <= limit + 5 {
            send(
                ErrorReply(.rateLimited, "More than \(limit) messages a second; this one was ignored."), to: session)
        } else if session.rateCount > limit * 20 {
            send(ErrorReply(.rateLimited, "Far too many messages; closing this connection."), to: session)
            close(session, reason: "far too many messages")
        }
        return false
    }

    /// Answers an HTTP request whose method is not GET or HEAD (those never reach here: the transport serves them).
    private func answerHTTP(_ session: Session) {
        let response = HTTPResponse.failure(
            HTTPFailure(
                405,
                "This Partyline host answers only GET and HEAD: open http://<address>:\(settings.port)/ in a browser.",
                headers: [("Allow", HTTPRequestParser.allowedMethods)]))
        outlet.send(response, to: session.id)
        close(session, reason: "it spoke HTTP")
        log.info("Connection \(session.id) from \(session.peer) spoke HTTP; answered and closed.")
    }

    private func sendBannerOnce(_ session: Session) {
        guard !session.hasBanner else { return }
        session.hasBanner = true
        sendText(Sessions.banner, to: session)
    }

    // MARK: Output

    /// How many JSON lines were encoded so far (one per `send`, one per `deliver`): the loop work tests count.
    private(set) var linesEncoded = 0

    /// Sends one message to one session: JSON as is (with `re` for a reply), text as its readable line.
    func send(_ message: any HostMessage, to session: Session, re: JSONValue? = nil) {
        guard session.isLive else { return }
        switch session.dialect {
        case .text:
            if let line = message.line(for: session.perspective) { sendText(line, to: session) }
        case .json, .undecided:
            linesEncoded += 1
            outlet.send(message.encodedLine(re: re), to: session.id)
        }
    }

    /// Sends text lines to a session (CRLF line ends, as telnet expects), made safe to show on its terminal first
    /// (`TerminalText.sanitized`: no escape sequence or invisible character reaches an nc or telnet player).
    func sendText(_ text: String, to session: Session) {
        guard session.isLive else { return }
        var normalized = TerminalText.sanitized(text).replacingOccurrences(of: "\n", with: "\r\n")
        if !normalized.hasSuffix("\r\n") { normalized += "\r\n" }
        outlet.send(Array(normalized.utf8), to: session.id)
    }

    /// Sends one message to many sessions, encoding the JSON once.
    func deliver(_ message: any HostMessage, to recipients: [Session]) {
        guard !recipients.isEmpty else { return }
        var encoded: [UInt8]?
        for session in recipients where session.isLive {
            if session.dialect == .text {
                send(message, to: session)
            } else {
                if encoded == nil {
                    linesEncoded += 1
                    encoded = message.encodedLine()
                }
                outlet.send(encoded!, to: session.id)
            }
        }
    }

    // MARK: Clocks

    /// When the session layer next has work (a banner, a sync probe).
    var nextDeadline: Int64? {
        let banner = pendingBanners.first?.due
        let sync = nextSyncSweepAt == .max ? nil : nextSyncSweepAt
        return [banner, sync].compactMap { $0 }.min()
    }

    /// Sends banners and sync probes that are due.
    func runDueWork(at now: Int64) {
        while let banner = pendingBanners.first, banner.due <= now {
            pendingBanners.removeFirst()
            if let session = sessions[banner.id], session.dialect == .undecided, session.isLive {
                sendBannerOnce(session)
            }
        }
        if now >= nextSyncSweepAt {
            nextSyncSweepAt = .max
            for session in sessions.values where session.isSyncing && session.isLive {
                if now >= session.nextSyncAt {
                    sendSyncProbe(to: session, at: now)
                } else {
                    nextSyncSweepAt = min(nextSyncSweepAt, session.nextSyncAt)
                }
            }
        }
    }

    /// Once a second: idle timeouts and keepalive pings (at most a fifth of the sessions' worth a second, so a hall
    /// that went quiet together is pinged over a few seconds, not in one turn).
    func housekeeping(at now: Int64) {
        let idleLimit = Int64(settings.idleTimeoutSeconds) * 1000
        var pings = max(200, sessions.count / 5)
        for session in sessions.values.sorted(by: { $0.id < $1.id }) where session.isLive {
            let silence = now - session.lastHeardAt
            guard session.dialect == .json || (session.dialect == .undecided && silence > idleLimit) else { continue }
            if silence > idleLimit {
                send(
                    Closing(.idle, "Nothing heard from you for \(silence / 1000) s; closing. Reconnect to resume."),
                    to: session)
                close(session, reason: "silent for \(silence / 1000) s (idle timeout)")
                continue
            }
            guard silence > idleLimit / 3 && now - session.lastPingAt > idleLimit / 3, pings > 0 else { continue }
            if session.isWebSocket {
                // A browser answers a WebSocket ping by itself, even while its page is busy or hidden.
                pings -= 1
                session.lastPingAt = now
                outlet.pingWebSocket(session.id)
            } else if session.membership != nil {
                pings -= 1
                session.lastPingAt = now
                keepaliveSequence += 1
                send(KeepalivePing(id: "k\(keepaliveSequence)", hostTime: now), to: session)
            }
        }
    }

    /// Starts clock sync for a session that asked for it in its hello: a burst of probes, then one every 2 s.
    func startSync(_ session: Session, at now: Int64) {
        session.isSyncing = true
        session.pendingSyncBurst = 5
        session.nextSyncAt = now
        sendSyncProbe(to: session, at: now)
    }

    private func sendSyncProbe(to session: Session, at now: Int64) {
        session.syncSequence += 1
        if session.pendingSyncBurst > 0 {
            session.pendingSyncBurst -= 1
            session.nextSyncAt = now + 100
        } else {
            session.nextSyncAt = now + 2000
        }
        session.outstandingSyncs[session.syncSequence] = now
        if session.outstandingSyncs.count > 8, let oldest = session.outstandingSyncs.keys.min() {
            session.outstandingSyncs[oldest] = nil
        }
        nextSyncSweepAt = min(nextSyncSweepAt, session.nextSyncAt)
        let clock = session.clock
        send(
            SyncProbe(
                n: session.syncSequence, h: now, offset: clock.isMeasured ? clock.offset : nil,
                rtt: clock.isMeasured ? clock.medianRoundTrip : nil,
                uncertainty: clock.isMeasured ? clock.uncertainty : nil),
            to: session)
    }

    /// Logs a press stamp that lay outside what the network allows: the first of each second in full, the others
    /// counted in the next such line (a busy hall sets aside thousands a round, and a formatted line each was about a
    /// tenth of the host's work for the round).
    func noteSetAsideStamp(_ line: @autoclosure () -> String, at now: Int64) {
        guard now >= setAsideWarnedAt &+ 1000 else {
            setAsideStamps += 1
            return
        }
        let more = setAsideStamps > 0 ? " (\(Wording.count(setAsideStamps, "more stamp")) set aside before it)" : ""
        log.warning(line() + more)
        setAsideWarnedAt = now
        setAsideStamps = 0
    }

    /// How long the head of a press queue waits for a fairer, slower press: the largest backdate allowance among
    /// connected players, 10…150 ms; no press that arrives later can have been pressed before the head's.
    ///
    /// The allowances are counted as they change (`AllowanceTally`), so a press costs no walk over the players.
    func settleWindow() -> Int64 {
        min(PressEstimate.maximumBackdate, max(10, allowances.widest))
    }
}

@available(*, unavailable)
extension Sessions: Sendable {}

/// Recognizes a browser or other HTTP client that connected to the game port.
enum HTTPProbe {
    static let methods = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"]

    /// Whether `line` looks like `METHOD /path HTTP/x.y`.
    static func isRequestLine(_ line: [UInt8]) -> Bool {
        guard line.count < 8192, let text = String(validating: line, as: UTF8.self) else { return false }
        let parts = text.split(separator: " ")
        return parts.count == 3 && methods.contains(String(parts[0])) && parts[2].hasPrefix("HTTP/")
    }
}
