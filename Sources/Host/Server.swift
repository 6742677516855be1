import Foundation
import Net
import Protocol
import Rules

/// Lines and signals that other threads hand to the event loop.
///
/// The console reader thread and the signal sources only append here and wake the poller;
/// the loop drains it. The lock is the only shared state in the host.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var stopRequest: String?
    private var isConsoleClosed = false

    func post(line: String) { lock.withLock { lines.append(line) } }
    func postStop(_ reason: String) { lock.withLock { stopRequest = stopRequest ?? reason } }
    func postConsoleClosed() { lock.withLock { isConsoleClosed = true } }

    /// Takes everything posted so far.
    func drain() -> (lines: [String], stop: String?, consoleClosed: Bool) {
        lock.withLock {
            defer { lines.removeAll() }
            return (lines, stopRequest, isConsoleClosed)
        }
    }
}

/// The things the host reads from the outside world, built once in `main.swift` and passed down.
struct HostEnvironment {
    /// Monotonic milliseconds.
    var monotonicMilliseconds: () -> Int64
    /// Cryptographic randomness for tokens, keys, room codes and game seeds.
    var random: () -> UInt64
    var log: Logger
    /// Where the one machine-readable line and console replies go.
    var standardOutput: (String) -> Void
    var consoleOutput: (String) -> Void
    /// Shows the operator's one-line status (pinned at the bottom of a terminal, else printed).
    var showStatus: (String) -> Void
}

/// The randomness source `HostEnvironment.random` wraps as a generator.
struct EnvironmentRandom: RandomNumberGenerator {
    let source: () -> UInt64
    mutating func next() -> UInt64 { source() }
}

/// The host: one event loop that owns every connection, the room, the running game and storage.
///
/// Everything here runs on the loop's thread; nothing is `Sendable` on purpose.
final class Server {
    let options: HostOptions
    var environment: HostEnvironment
    var log: Logger { environment.log }
    let poller: Poller
    let listener: Socket
    let port: UInt16
    var room: Room
    let adminKey: String
    var connections: [Int32: Connection] = [:]
    var playerConnections: [String: Int32] = [:]
    var nextConnectionID = 1
    var game: (any HostedGame)?
    var storage: Storage
    let inbox: Inbox
    var dirty: [Connection] = []
    var pendingBanners: [(due: Int64, fd: Int32, id: Int)] = []
    var connectionRates: [String: (windowStart: Int64, count: Int)] = [:]
    var isRunning = true
    var nextHousekeepingAt: Int64 = 0
    var discovery: Discovery?
    /// Game clock = monotonic − origin + base; the base carries time across a restart from the journal.
    var clockOrigin: Int64
    var clockBase: Int64 = 0
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    var lastStatusLine = ""
    var maximumOutputBytes = 1024 * 1024
    var keepaliveSequence = 0
    /// When the next clock-sync probe or discovery beacon is due (finer than housekeeping).
    var nextSyncSweepAt: Int64 = .max
    var nextTrimAt: Int64 = 0
    /// When the listener, set aside after a failed accept, is watched again.
    var listenerResumesAt: Int64?
    /// Something the operator's status line shows may have changed.
    var isStatusDirty = true
    var isLobbyDirty = false
    var nextLobbyAt: Int64 = 0
    /// The players as the last lobby broadcast showed them, for `lobbyUpdate` deltas.
    var lobbySnapshot: [String: Player] = [:]

    init(options: HostOptions, environment: HostEnvironment, storage: Storage, inbox: Inbox,
         room: String, adminKey: String) throws(SocketError) {
        self.options = options
        self.environment = environment
        self.storage = storage
        self.inbox = inbox
        self.room = Room(code: room)
        self.adminKey = adminKey
        self.clockOrigin = environment.monotonicMilliseconds()
        self.maximumOutputBytes = options.maximumOutputKilobytes * 1024
        poller = try Poller()
        listener = try Socket.makeListener(address: options.bindAddress, port: options.port)
        port = try listener.localPort()
        try poller.add(listener.fd, interest: .read)
    }

    /// Milliseconds on the game clock.
    var now: Int64 { environment.monotonicMilliseconds() - clockOrigin + clockBase }
    var instant: Instant { Instant(milliseconds: now) }

    var randomGenerator: EnvironmentRandom { EnvironmentRandom(source: environment.random) }

    // MARK: The loop

    /// Runs until `quit`, SIGINT or SIGTERM.
    func run() {
        while isRunning {
            let timeout = nextTimeout()
            let ready: ArraySlice<Readiness>
            do {
                ready = try poller.wait(timeoutMilliseconds: timeout)
            } catch {
                log.error("The event loop failed: \(error). Stopping.")
                break
            }
            for readiness in ready { handle(readiness) }
            runDueWork()
            sendLobbyIfDue(at: now)
            flushDirty()
        }
        shutDown()
    }

    func nextTimeout() -> Int32 {
        let current = now
        var due = nextHousekeepingAt
        if let deadline = game?.nextDeadline?.milliseconds { due = min(due, deadline) }
        if let banner = pendingBanners.first?.due { due = min(due, banner) }
        due = min(due, nextSyncSweepAt)
        if let resume = listenerResumesAt { due = min(due, resume) }
        if isLobbyDirty { due = min(due, nextLobbyAt) }
        if let beacon = discovery?.nextBeaconAt { due = min(due, beacon) }
        return Int32(clamping: max(0, due - current))
    }

    func handle(_ readiness: Readiness) {
        if poller.isWakeUp(readiness.fd) {
            poller.drainWakeUps()
            drainInbox()
            return
        }
        if readiness.fd == listener.fd {
            acceptAll()
            return
        }
        if let discovery, readiness.fd == discovery.socket.fd {
            discovery.receive()
            return
        }
        guard let connection = connections[readiness.fd] else { return }
        if readiness.isReadable || readiness.isHangUp { read(connection) }
        if readiness.isWritable && !connection.isClosed { write(connection) }
    }

    func runDueWork() {
        let current = now
        while let banner = pendingBanners.first, banner.due <= current {
            pendingBanners.removeFirst()
            if let connection = connections[banner.fd], connection.id == banner.id, connection.mode == .undecided, !connection.hasBanner {
                connection.hasBanner = true
                send(text: TextRendering.banner, to: connection)
            }
        }
        if let deadline = game?.nextDeadline, deadline.milliseconds <= current, let game {
            dispatch(game.tick(at: instant))
            finishGameIfOver()
        }
        if let resume = listenerResumesAt, current >= resume {
            listenerResumesAt = nil
            do {
                try poller.add(listener.fd, interest: .read)
            } catch {
                log.error("Cannot watch the listening socket again (\(error)); retrying.")
                listenerResumesAt = current + 1000
            }
        }
        if current >= nextSyncSweepAt {
            nextSyncSweepAt = .max
            for connection in connections.values where connection.isSyncing && !connection.isClosed {
                if current >= connection.nextSyncAt { sendSyncProbe(to: connection, at: current) }
                else { nextSyncSweepAt = min(nextSyncSweepAt, connection.nextSyncAt) }
            }
        }
        if let discovery, current >= discovery.nextBeaconAt { discovery.beaconIfDue(now: current, summary: discoverySummary) }
        if current >= nextHousekeepingAt {
            housekeeping(at: current)
            nextHousekeepingAt = current + 1000
        }
    }

    // MARK: Accepting and reading

    func acceptAll() {
        while true {
            let accepted: (Socket, String)
            do throws(SocketError) {
                accepted = try listener.accept()
            } catch .wouldBlock {
                return
            } catch {
                // Out of descriptors (EMFILE) or similar: the listener stays readable, so stop watching it
                // for a moment instead of spinning on a failing accept.
                log.warning("Cannot accept new connections right now (\(error)); trying again in 250 ms.")
                poller.remove(listener.fd)
                listenerResumesAt = now + 250
                return
            }
            let (socket, peer) = accepted
            let current = now
            if connections.count >= options.maxClients {
                refuse(socket, code: .full, message: "This host is full (\(options.maxClients) connections). Try again later.")
                log.warning("Refused a connection from \(peer): the host is full (--max-clients \(options.maxClients)).")
                continue
            }
            if options.connectionsPerSecond > 0 {
                var rate = connectionRates[peer] ?? (current, 0)
                if current - rate.windowStart >= 1000 { rate = (current, 0) }
                rate.count += 1
                connectionRates[peer] = rate
                if rate.count > options.connectionsPerSecond {
                    refuse(socket, code: .rateLimited, message: "Too many new connections from \(peer); wait a second.")
                    log.warning("Refused a connection from \(peer): more than \(options.connectionsPerSecond) new connections a second.")
                    continue
                }
            }
            socket.configureStream(keepAliveSeconds: 30)
            let connection = Connection(id: nextConnectionID, socket: socket, peer: peer, now: current)
            nextConnectionID += 1
            do {
                try poller.add(socket.fd, interest: .read)
            } catch {
                log.warning("Could not watch a connection from \(peer): \(error)")
                socket.close()
                continue
            }
            connections[socket.fd] = connection
            pendingBanners.append((current + 250, socket.fd, connection.id))
            log.debug("Connection #\(connection.id) from \(peer).")
        }
    }

    func refuse(_ socket: Socket, code: ErrorCode, message: String) {
        let line = JSONEncoding.encodeLine(.object(["type": "error", "code": .string(code.rawValue), "message": .string(message)]))
        _ = line.withUnsafeBytes { try? socket.write($0) }
        socket.close()
    }

    func read(_ connection: Connection) {
        var reads = 0
        while !connection.isClosed && reads < 8 {
            reads += 1
            let count: Int
            let socket = connection.socket
            do throws(SocketError) {
                count = try readBuffer.withUnsafeMutableBytes { buffer in Result { () throws(SocketError) -> Int in try socket.read(into: buffer) } }.get()
            } catch .wouldBlock {
                return
            } catch .disconnected {
                close(connection, reason: "the client left")
                return
            } catch {
                close(connection, reason: "read failed: \(error)")
                return
            }
            let outputs = connection.framer.feed(readBuffer[0..<count])
            for output in outputs where !connection.isClosed {
                switch output {
                case .line(let bytes): handleLine(bytes, from: connection)
                case .lineTooLong(let limit):
                    connection.lastHeardAt = now
                    sendError(.lineTooLong, "A line longer than \(limit / 1024) KiB was discarded. Keep each message on one shorter line.",
                              to: connection, id: nil)
                }
            }
        }
    }

    // MARK: Writing

    /// Queues a JSON message for one connection (text-mode connections get it rendered as text).
    func send(_ message: JSONValue, to connection: Connection) {
        switch connection.mode {
        case .text:
            if let text = TextRendering.render(message, for: viewer(of: connection), room: room) { send(text: text, to: connection) }
        case .json, .undecided:
            queue(JSONEncoding.encodeLine(message), to: connection)
        }
    }

    /// Queues text lines for a connection.
    func send(text: String, to connection: Connection) {
        var bytes = Array(text.utf8)
        if bytes.last != 0x0A { bytes.append(0x0A) }
        if text.contains("\n") {
            bytes = Array(text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
            if bytes.last != 0x0A { bytes.append(contentsOf: [0x0D, 0x0A]) }
        }
        queue(bytes, to: connection)
    }

    func queue(_ bytes: [UInt8], to connection: Connection) {
        guard !connection.isClosed else { return }
        if connection.pendingOutputCount == 0 { dirty.append(connection) }
        connection.enqueue(bytes)
        if connection.pendingOutputCount > maximumOutputBytes {
            close(connection, reason: "it stopped reading (more than \(maximumOutputBytes / 1024) KiB waiting to be sent)")
        }
    }

    func sendError(_ code: ErrorCode, _ message: String, to connection: Connection, id: JSONValue?) {
        sendError(code: code.rawValue, message, to: connection, id: id)
    }

    func sendError(code: String, _ message: String, to connection: Connection, id: JSONValue?) {
        var object: JSONObject = ["type": "error", "code": .string(code), "message": .string(message)]
        if let id { object["re"] = id }
        send(.object(object), to: connection)
    }

    /// Writes everything queued this turn of the loop, after the journal is safely on disk.
    func flushDirty() {
        guard !dirty.isEmpty else { return }
        storage.syncJournal()
        let pending = dirty
        dirty.removeAll(keepingCapacity: true)
        for connection in pending where !connection.isClosed { write(connection) }
    }

    func write(_ connection: Connection) {
        do {
            _ = try connection.flush()
            if connection.isWatchingWrites {
                try? poller.modify(connection.socket.fd, interest: .read)
                connection.isWatchingWrites = false
            }
            if connection.isClosingAfterFlush { finalizeClose(connection) }
        } catch .wouldBlock {
            if !connection.isWatchingWrites {
                try? poller.modify(connection.socket.fd, interest: [.read, .write])
                connection.isWatchingWrites = true
            }
        } catch {
            close(connection, reason: "write failed: \(error)")
        }
    }

    // MARK: Closing

    /// Closes a connection now; its player stays in the room as disconnected.
    func close(_ connection: Connection, reason: String) {
        guard !connection.isClosed else { return }
        connection.isClosed = true
        poller.remove(connection.socket.fd)
        connection.socket.close()
        connections[connection.socket.fd] = nil
        log.info("Connection #\(connection.id) from \(connection.peer) closed: \(reason).")
        if let playerID = connection.playerID, playerConnections[playerID] == connection.socket.fd {
            playerConnections[playerID] = nil
            room.setConnected(playerID, false, at: now)
            broadcastLobby()
        }
    }

    /// Sends what is queued, then closes.
    func closeAfterFlush(_ connection: Connection) {
        connection.isClosingAfterFlush = true
        if connection.pendingOutputCount == 0 { finalizeClose(connection) } else { write(connection) }
    }

    func finalizeClose(_ connection: Connection) {
        connection.socket.shutdownWrite()
        close(connection, reason: "closed by the host")
    }

    // MARK: Audiences

    func viewer(of connection: Connection) -> Viewer {
        let player = connection.playerID.flatMap(room.player(id:))
        return Viewer(playerID: player?.id, name: player?.name, team: player?.team, role: connection.role ?? .board)
    }

    var joinedConnections: [Connection] { connections.values.filter { $0.role != nil && !$0.isClosed } }

    /// Sends each message to its audience, encoding it once for all JSON recipients.
    func dispatch(_ outgoing: [Outgoing]) {
        for item in outgoing { deliver(item.message, to: item.audience) }
        isStatusDirty = true
    }

    func deliver(_ message: JSONValue, to audience: Audience) {
        let recipients: [Connection]
        switch audience {
        case .everyone: recipients = joinedConnections
        case .spectators: recipients = joinedConnections.filter { $0.role != .player }
        case .everyoneExcept(let playerID): recipients = joinedConnections.filter { $0.playerID != playerID }
        case .player(let playerID): recipients = playerConnections[playerID].flatMap { connections[$0] }.map { [$0] } ?? []
        case .playerNamed(let name):
            recipients = room.player(named: name).flatMap { playerConnections[$0.id] }.flatMap { connections[$0] }.map { [$0] } ?? []
        case .team(let team):
            recipients = room.members(of: team).compactMap { playerConnections[$0.id].flatMap { connections[$0] } }
        }
        guard !recipients.isEmpty else { return }
        let encoded = JSONEncoding.encodeLine(message)
        for connection in recipients {
            if connection.mode == .text { send(message, to: connection) } else { queue(encoded, to: connection) }
        }
    }

    /// Notes that the lobby changed; the broadcast goes out once per turn of the loop (see `sendLobbyIfDue`).
    func broadcastLobby() {
        isLobbyDirty = true
    }

    /// Rooms up to this size get the full `lobby` on every change; larger ones get `lobbyUpdate` deltas.
    static let fullLobbyLimit = 200

    /// Sends the coalesced lobby change: the whole list for party-sized rooms, only what changed for large ones.
    ///
    /// A join storm thus costs one broadcast per turn of the loop instead of one per join, and a
    /// 10,000-player hall never re-sends 10,000 names to 10,000 screens.
    func sendLobbyIfDue(at current: Int64) {
        guard isLobbyDirty, current >= nextLobbyAt else { return }
        isLobbyDirty = false
        nextLobbyAt = room.players.count > 64 ? current + 100 : current
        var snapshot: [String: Player] = [:]
        for player in room.players { snapshot[player.id] = player }
        if room.players.count <= Server.fullLobbyLimit {
            deliver(room.lobbyMessage, to: .everyone)
        } else {
            let changed = room.players.filter { player in
                guard let old = lobbySnapshot[player.id] else { return true }
                return old.isConnected != player.isConnected || old.team != player.team
            }
            let removed = lobbySnapshot.values.filter { snapshot[$0.id] == nil }.map(\.name)
            if !changed.isEmpty || !removed.isEmpty {
                deliver(.object(["type": "lobbyUpdate", "room": .string(room.code), "count": .number(room.players.count),
                                 "players": .array(changed.map { .object(["name": .string($0.name), "team": .string($0.team), "connected": .bool($0.isConnected)]) }),
                                 "removed": .array(removed.map { .string($0) })]), to: .everyone)
            }
        }
        lobbySnapshot = snapshot
        isStatusDirty = true
    }

    /// Prints the operator's one-line status when it changed (checked at most once a second, off the hot path).
    func refreshStatus() {
        guard isStatusDirty else { return }
        isStatusDirty = false
        let line = statusSummary
        guard line != lastStatusLine else { return }
        lastStatusLine = line
        environment.showStatus(line)
    }

    var statusSummary: String {
        let teams = room.teams.map { team in
            "\(team): " + room.members(of: team).map { $0.name + ($0.isConnected ? "" : " (away)") }.joined(separator: ", ")
        }
        let people = room.players.count
        let boards = connections.values.filter { $0.role == .board }.count
        let gamePart = game.map { $0.statusLine } ?? "lobby, no game running"
        return "room \(room.code) · \(people) player\(people == 1 ? "" : "s")" + (boards > 0 ? " · \(boards) board\(boards == 1 ? "" : "s")" : "")
            + (teams.isEmpty ? "" : " · " + teams.joined(separator: " | ")) + " · " + gamePart
    }

    // MARK: Housekeeping

    func housekeeping(at current: Int64) {
        if current >= nextTrimAt {
            nextTrimAt = current + 5000
            MemoryTrim.releaseFreePages()
        }
        let idleLimit = Int64(options.idleTimeoutSeconds) * 1000
        for connection in Array(connections.values) where !connection.isClosed {
            let silence = current - connection.lastHeardAt
            if connection.mode == .json || (connection.mode == .undecided && silence > idleLimit) {
                if silence > idleLimit {
                    send(.object(["type": "closing", "code": "idle", "reason": .string("Nothing heard from you for \(silence / 1000) s; closing. Reconnect to resume.")]), to: connection)
                    _ = try? connection.flush()
                    close(connection, reason: "silent for \(silence / 1000) s (idle timeout)")
                    continue
                }
                if connection.role != nil && silence > idleLimit / 3 && current - connection.lastPingAt > idleLimit / 3 {
                    connection.lastPingAt = current
                    keepaliveSequence += 1
                    send(.object(["type": "ping", "id": .string("k\(keepaliveSequence)"), "hostTime": .int(current)]), to: connection)
                }
            }
        }
        let expired = room.expired(now: current, windowMilliseconds: Int64(options.resumeWindowSeconds) * 1000)
        for player in expired { removePlayer(player, reason: "did not come back within \(options.resumeWindowSeconds / 60) minutes") }
        if connectionRates.count > 1000 { connectionRates = connectionRates.filter { current - $0.value.windowStart < 1000 } }
        refreshStatus()
    }

    func sendSyncProbe(to connection: Connection, at current: Int64) {
        connection.syncSequence += 1
        if connection.pendingSyncBurst > 0 {
            connection.pendingSyncBurst -= 1
            connection.nextSyncAt = current + 100
        } else {
            connection.nextSyncAt = current + 2000
        }
        connection.outstandingSyncs[connection.syncSequence] = current
        if connection.outstandingSyncs.count > 8, let oldest = connection.outstandingSyncs.keys.min() { connection.outstandingSyncs[oldest] = nil }
        nextSyncSweepAt = min(nextSyncSweepAt, connection.nextSyncAt)
        var probe: JSONObject = ["type": "sync", "n": .int(connection.syncSequence), "h": .int(current)]
        if connection.clock.isMeasured {
            probe["offset"] = .int(connection.clock.offset)
            probe["rtt"] = .int(connection.clock.medianRoundTrip)
            probe["uncertainty"] = .int(connection.clock.uncertainty)
        }
        send(.object(probe), to: connection)
    }

    func removePlayer(_ player: Player, reason: String) {
        room.remove(player.id)
        storage.journal(["k": "leave", "player": .string(player.id)])
        if let fd = playerConnections.removeValue(forKey: player.id), let connection = connections[fd] {
            connection.playerID = nil
            connection.role = nil
        }
        log.info("\(player.name) (\(player.team)) left the room: \(reason).")
        if let game { dispatch(game.playerRemoved(player, at: instant)) }
        broadcastLobby()
    }

    // MARK: Stopping

    func drainInbox() {
        let (lines, stop, consoleClosed) = inbox.drain()
        for line in lines { handleConsole(line) }
        if consoleClosed { log.debug("The console closed; the host keeps running until SIGINT or SIGTERM.") }
        if let stop {
            log.info("Stopping: \(stop).")
            isRunning = false
        }
    }

    func shutDown() {
        let closing = JSONValue.object(["type": "closing", "code": "shutdown", "reason": "The host is shutting down. Thanks for playing!"])
        for connection in Array(connections.values) where !connection.isClosed {
            send(closing, to: connection)
            _ = try? connection.flush()
        }
        storage.syncJournal()
        for connection in Array(connections.values) { close(connection, reason: "the host stopped") }
        discovery?.socket.close()
        listener.close()
        log.info("Host stopped; everything is saved in \(storage.directory).")
    }
}
