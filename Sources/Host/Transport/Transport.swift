import Foundation
import Net
import Protocol

/// What the transport reports to whoever owns the connections' meaning (the `HostCore`).
protocol TransportEvents: AnyObject {
    /// A connection was accepted.
    func opened(_ id: SessionID, peer: String)
    /// A complete line arrived.
    func received(_ line: [UInt8], from id: SessionID)
    /// A line over the framing limit was discarded.
    func lineTooLong(from id: SessionID, limit: Int)
    /// A telnet subnegotiation that never ended was dropped with the rest of its line.
    func unfinishedSubnegotiation(from id: SessionID)
    /// A connection is gone (reported at the end of the loop's turn, never from inside a send).
    func closed(_ id: SessionID, reason: String)
    /// A connection upgraded to a WebSocket: from now on it speaks JSON, one message per text frame.
    func upgraded(_ id: SessionID)
    /// A WebSocket ping or pong arrived (the page is there); for a ping, false means it is over the connection's
    /// message rate and gets no pong.
    func heard(from id: SessionID, isPing: Bool) -> Bool
    /// The recording `/audio/LIST/FILE` names (a word list's word, looked up, never a path), or nil (404).
    func recording(list: String, file: String) -> (bytes: [UInt8], contentType: String)?
}

/// The transport: the listening socket, accepting (with the host's connection limits), reading lines, and
/// writing bounded output buffers. It knows nothing about what the lines mean.
final class Transport: Outlet {
    /// One TCP connection's bytes. Not `Sendable`: it never leaves the loop's thread.
    ///
    /// Output is in three parts: `[outputOffset, committedEnd)` may be written (what it tells is on disk);
    /// `[committedEnd, heldEnd)` is held (it tells of records the journal could not save yet); from `heldEnd` on is
    /// this turn's, until the loop commits or holds it after the journal's group commit.
    final class Link {
        let id: SessionID
        let socket: Socket
        let peer: String
        var framer = LineFramer()
        /// Bytes waiting to be written, from `outputOffset` on.
        var output: [UInt8] = []
        var outputOffset = 0
        /// The end of the bytes that may be written.
        var committedEnd = 0
        /// The end of the held bytes.
        var heldEnd = 0
        /// Whether the poller watches for writability (set while output is pending).
        var isWatchingWrites = false
        /// Closing after the pending output is written (a polite close).
        var isClosingAfterFlush = false
        var isClosed = false
        /// What the connection speaks, decided by its first bytes (`Transport+Web.swift`).
        var kind = LinkKind.sniffing
        /// The first bytes while they may still begin `GET ` or `HEAD `.
        var sniffed: [UInt8] = []
        /// The request heads of an HTTP connection.
        var http: HTTPRequestParser?
        /// The frames of a WebSocket connection.
        var webSocket: WebSocketDecoder?
        /// Host-clock ms by which the next HTTP request head must be complete.
        var requestDeadline: Int64 = .max
        /// HTTP requests answered on this connection.
        var requestsServed = 0
        /// Whether a WebSocket close frame was queued (nothing follows it).
        var hasSentClose = false
        /// Whether the banner waits for the first bytes: the connection came from an address that spoke HTTP a
        /// moment ago, so it may be a browser's speculative one, which must read nothing before its answer.
        var holdsBanner = false
        /// Why the connection closes, once a polite close is under way, for the log.
        var closeReason: String?
        /// Whether the link waits in the transport's write queue.
        var isQueuedForWrite = false
        /// Whether the link was read this turn (its answers are written first).
        var isAnswering = false

        init(id: SessionID, socket: Socket, peer: String) {
            self.id = id
            self.socket = socket
            self.peer = peer
        }

        /// Bytes queued and not yet written.
        var pendingOutputCount: Int { output.count - outputOffset }

        /// Queues bytes for writing (after the loop's next commit).
        func enqueue(_ bytes: [UInt8]) {
            output.append(contentsOf: bytes)
        }

        /// Whether this turn queued bytes not yet committed or held.
        var hasUncommitted: Bool { heldEnd < output.count || committedEnd < heldEnd }

        /// Everything queued may be written: the journal holds what it tells.
        func commit() {
            committedEnd = output.count
            heldEnd = output.count
        }

        /// This turn's bytes are held behind the journal: they go out when it can save again.
        func hold() { heldEnd = output.count }

        /// This turn's bytes tell of nothing unsaved: they may be written now, ahead of any held bytes.
        func commitAheadOfHeld() {
            guard heldEnd < output.count else { return }
            if committedEnd == heldEnd {
                commit()
                return
            }
            let fresh = output[heldEnd...]
            let count = fresh.count
            output.insert(contentsOf: fresh, at: committedEnd)
            output.removeLast(count)
            committedEnd += count
            heldEnd += count
        }

        /// Writes as much committed output as the socket takes; throws `wouldBlock` when it takes no more.
        func flush() throws(SocketError) {
            while outputOffset < committedEnd {
                let offset = outputOffset
                let end = committedEnd
                let result = output.withUnsafeBytes { buffer in
                    Result { () throws(SocketError) -> Int in
                        try socket.write(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                    }
                }
                outputOffset += try result.get()
            }
            guard outputOffset > 0 else { return }
            if outputOffset == output.count {
                output.removeAll(keepingCapacity: output.capacity <= 4096)  // idle connections hold little memory
            } else {
                output.removeFirst(outputOffset)
            }
            committedEnd -= outputOffset
            heldEnd -= outputOffset
            outputOffset = 0
        }

        /// Whether every queued byte was written.
        var isDrained: Bool { outputOffset == output.count }
    }

    /// The transport's limits, from the host's options.
    struct Limits {
        var maxClients: Int
        var connectionsPerSecond: Int
        var maximumOutputBytes: Int
        /// How long an HTTP request head may take to arrive (from the first byte or the last answer).
        var requestTimeoutMilliseconds: Int64 = 10_000
        /// The longest WebSocket message taken: the longest JSON line.
        var maximumMessageLength = LineFramer.defaultMaximumLineLength
    }

    let poller: Poller
    let listener: Socket
    let port: UInt16
    let limits: Limits
    let log: Logger
    weak var events: (any TransportEvents)?
    private var links: [Int32: Link] = [:]
    /// The open connections by session, for sending (one lookup per message and connection).
    private var linksByID: [SessionID: Link] = [:]
    private var nextID = 1
    /// Links with committed output to write, oldest first; from `dirtyStart` on, the backlog a spread fan-out left.
    private var dirty: [Link] = []
    private var dirtyStart = 0
    /// Links read this turn: whatever they are answered is written first, ahead of any backlog.
    private var answering: [Link] = []
    /// How long one turn may spend writing a backlog before the loop reads its input again (nanoseconds).
    var writeBudgetNanoseconds: Int64 = 10_000_000
    /// The clock the write budget is measured on (monotonic nanoseconds; a test seam).
    var writeClock: () -> Int64 = MonotonicClock.nanoseconds
    /// Links with bytes queued this turn or held, not yet committed.
    private var uncommitted: [Link] = []
    /// HTTP connections (and ones whose first bytes may begin a request), watched for the request timeout.
    var timedLinks: [Int32: Link] = [:]
    /// When the request timeouts are next checked.
    var nextTimeoutSweepAt: Int64 = .max
    /// When each address last sent an HTTP request: a new silent connection from it may be a browser's.
    var browserAddresses: [String: Int64] = [:]
    private var closures: [(SessionID, String)] = []
    private var connectionRates: [String: (windowStart: Int64, count: Int)] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// When the listener, set aside after a failed accept, is watched again.
    private(set) var listenerResumesAt: Int64?

    init(bindAddress: String, port: UInt16, limits: Limits, log: Logger) throws(SocketError) {
        self.limits = limits
        self.log = log
        poller = try Poller()
        listener = try Socket.makeListener(address: bindAddress, port: port)
        self.port = try listener.localPort()
        try poller.add(listener.fd, interest: .read)
    }

    /// Open connections.
    var count: Int { links.count }
    /// The SVG of the QR code phones join at, for a page asking through the `Host` it named (`/join.svg`).
    var joinCode: ((_ hostHeader: String?) -> String)?

    /// Whether the host is behind its connections: input is waiting to be read, or an earlier turn's output is still
    /// queued (the socket took no more) at more than an eighth of them — one slow reader holds nobody else back,
    /// nor does a page being downloaded.
    var isBehind: Bool {
        if poller.hasReadyReports { return true }
        var backedUp = 0
        for link in links.values where link.outputOffset < link.committedEnd && link.kind != .http { backedUp += 1 }
        return backedUp * 8 > links.count
    }

    // MARK: Readiness

    /// Handles one readiness report for the listener or a connection; false when the descriptor is not ours.
    func handle(_ readiness: Readiness, at now: Int64) -> Bool {
        if readiness.fd == listener.fd {
            acceptAll(at: now)
            return true
        }
        guard let link = links[readiness.fd] else { return false }
        if readiness.isReadable || readiness.isHangUp { read(link, at: now) }
        if readiness.isWritable && !link.isClosed { write(link) }
        return true
    }

    /// Watches the listener again once a failed accept's pause is over.
    func resumeListeningIfDue(at now: Int64) {
        guard let resume = listenerResumesAt, now >= resume else { return }
        listenerResumesAt = nil
        do {
            try poller.add(listener.fd, interest: .read)
        } catch {
            log.error("Cannot watch the listening socket again (\(error)); retrying.")
            listenerResumesAt = now + 1000
        }
    }

    private func acceptAll(at now: Int64) {
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
            if links.count >= limits.maxClients {
                refuse(
                    socket, .full, "This host is full (\(limits.maxClients) connections). Try again later.")
                log.warning("Refused a connection from \(peer): the host is full (--max-clients \(limits.maxClients)).")
                continue
            }
            if limits.connectionsPerSecond > 0 {
                var rate = connectionRates[peer] ?? (now, 0)
                if now - rate.windowStart >= 1000 { rate = (now, 0) }
                rate.count += 1
                connectionRates[peer] = rate
                if connectionRates.count > 1000 {
                    connectionRates = connectionRates.filter { now - $0.value.windowStart < 1000 }
                }
                if rate.count > limits.connectionsPerSecond {
                    refuse(socket, .rateLimited, "Too many new connections from \(peer); wait a second.")
                    log.warning(
                        "Refused a connection from \(peer): more than \(limits.connectionsPerSecond) new connections a second."
                    )
                    continue
                }
            }
            socket.configureStream(keepAliveSeconds: 30)
            let link = Link(id: SessionID(value: nextID), socket: socket, peer: peer)
            nextID += 1
            do {
                try poller.add(socket.fd, interest: .read)
            } catch {
                log.warning("Could not watch a connection from \(peer): \(error)")
                socket.close()
                continue
            }
            links[socket.fd] = link
            linksByID[link.id] = link
            if let spoke = browserAddresses[peer], now - spoke < Self.browserMemoryMilliseconds {
                holdBanner(of: link, at: now)
            }
            events?.opened(link.id, peer: peer)
        }
    }

    /// Answers a connection the host will not take with one error line, and closes it.
    private func refuse(_ socket: Socket, _ code: ErrorCode, _ message: String) {
        let line = ErrorReply(code, message).encodedLine()
        _ = line.withUnsafeBytes { try? socket.write($0) }
        socket.close()
    }

    private func read(_ link: Link, at now: Int64) {
        if !link.isAnswering {
            link.isAnswering = true
            answering.append(link)
        }
        var reads = 0
        while !link.isClosed && reads < 8 {
            reads += 1
            let count: Int
            let socket = link.socket
            do throws(SocketError) {
                count = try readBuffer.withUnsafeMutableBytes { buffer in
                    Result { () throws(SocketError) -> Int in try socket.read(into: buffer) }
                }.get()
            } catch .wouldBlock {
                return
            } catch .disconnected {
                return drop(link, reason: "the client left")
            } catch {
                return drop(link, reason: "read failed: \(error)")
            }
            if link.kind == .lines {
                feedLines(link, readBuffer[0..<count])
            } else {
                feedWeb(link, readBuffer[0..<count], at: now)
            }
            // A read that did not fill the buffer took everything there was; the poller (level-triggered) says
            // when more comes, so no read is spent only to learn that nothing is left.
            if count < readBuffer.count { return }
        }
    }

    /// Bytes for a line connection: each complete line goes to the session layer.
    func feedLines(_ link: Link, _ bytes: ArraySlice<UInt8>) {
        for output in link.framer.feed(bytes) where !link.isClosed && !link.isClosingAfterFlush {
            switch output {
            case .line(let bytes): events?.received(bytes, from: link.id)
            case .lineTooLong(let limit): events?.lineTooLong(from: link.id, limit: limit)
            case .unfinishedSubnegotiation: events?.unfinishedSubnegotiation(from: link.id)
            }
        }
    }

    /// The open connection of a session.
    func link(of id: SessionID) -> Link? {
        guard let link = linksByID[id], !link.isClosed else { return nil }
        return link
    }

    // MARK: Outlet

    func send(_ bytes: [UInt8], to id: SessionID) {
        guard let link = linksByID[id], !link.isClosed else { return }
        switch link.kind {
        case .lines, .sniffing:
            if !link.hasUncommitted { uncommitted.append(link) }
            link.enqueue(bytes)
        case .webSocket:
            guard !link.hasSentClose else { return }
            if !link.hasUncommitted { uncommitted.append(link) }
            link.enqueueTextFrame(line: bytes)
        case .http:
            return  // the transport answers HTTP itself; nothing the session layer says is for it
        }
        if link.pendingOutputCount > limits.maximumOutputBytes {
            drop(
                link,
                reason: "it stopped reading (more than \(limits.maximumOutputBytes / 1024) KiB waiting to be sent)")
        }
    }

    func close(_ id: SessionID, afterFlush: Bool) {
        guard let link = linksByID[id], !link.isClosed else { return }
        guard afterFlush else { return drop(link, reason: "closed by the host") }
        if link.kind == .webSocket { queueClose(on: link, code: WebSocketCloseCode.normal, reason: "") }
        closeAfterFlush(link)
    }

    /// Queues bytes the transport itself says (an HTTP answer, a WebSocket control frame), settled with the turn's
    /// other output.
    func queue(_ bytes: [UInt8], on link: Link) {
        guard !link.isClosed else { return }
        if !link.hasUncommitted { uncommitted.append(link) }
        link.enqueue(bytes)
    }

    /// Closes a connection once its queued output is written.
    func closeAfterFlush(_ link: Link) {
        guard !link.isClosed, !link.isClosingAfterFlush else { return }
        // Output held back from bytes that may begin an HTTP request would never be written: close now.
        if link.kind == .sniffing && (!link.sniffed.isEmpty || link.holdsBanner) {
            return drop(link, reason: "closed by the host")
        }
        link.isClosingAfterFlush = true
        if link.pendingOutputCount == 0 {
            finishClosing(link)
        } else if !link.hasUncommitted {
            queueForWrite(link)
        }
    }

    func pathRoundTrip(of id: SessionID) -> Int64? {
        guard let link = linksByID[id], !link.isClosed else { return nil }
        return link.socket.kernelRoundTrip()?.cleanMilliseconds
    }

    // MARK: Writing
    //
    // Nothing queued in a turn is written before the loop says what the journal did with the turn's records: it
    // commits the output once they are on disk, holds it while the disk refuses them, or sends it ahead of held
    // output when the turn journaled nothing (a refusal, a pong). So no client ever sees an outcome the journal
    // could lose, even through a connection that became writable in the middle of the turn.

    /// Whether this turn queued output (or output is held) that the loop has not committed yet.
    var hasPendingOutput: Bool { !uncommitted.isEmpty }

    /// The journal saved everything: all queued and held output may be written.
    func commitOutput() {
        for link in uncommitted where !link.isClosed {
            link.commit()
            queueForWrite(link)
        }
        uncommitted.removeAll(keepingCapacity: true)
    }

    /// The journal could not save this turn's records: this turn's output waits with them.
    func holdOutput() {
        for link in uncommitted where !link.isClosed { link.hold() }
    }

    /// This turn journaled nothing: its output may be written now, ahead of any held output.
    func commitOutputAheadOfHeld() {
        var stillHeld: [Link] = []
        for link in uncommitted where !link.isClosed {
            link.commitAheadOfHeld()
            queueForWrite(link)
            if link.hasUncommitted { stillHeld.append(link) }
        }
        uncommitted = stillHeld
    }

    /// Writes what is committed for the connections read this turn (the rest of the queue waits its turn).
    func flushAnswers() {
        for link in answering where !link.isClosed && link.outputOffset < link.committedEnd { write(link) }
    }

    private func queueForWrite(_ link: Link) {
        guard !link.isQueuedForWrite else { return }
        link.isQueuedForWrite = true
        dirty.append(link)
    }

    /// Whether committed output is still queued for connections this turn had no time to write.
    var hasWriteBacklog: Bool { dirtyStart < dirty.count }

    /// Writes what was committed (the caller has settled the turn with the journal first): first the answers to
    /// connections read this turn, then the queue in order for at most `writeBudgetNanoseconds`.
    ///
    /// A fan-out to thousands of connections thus spreads over several turns, and input read between them (a ping,
    /// a buzz) is answered at once instead of after the last of them. Everything written was committed: the
    /// journal rule holds however late a byte goes out.
    func flushDirty() {
        flushAnswers()
        for link in answering { link.isAnswering = false }
        answering.removeAll(keepingCapacity: true)
        guard hasWriteBacklog else { return }
        let deadline = writeClock() + writeBudgetNanoseconds
        var written = 0
        while dirtyStart < dirty.count {
            let link = dirty[dirtyStart]
            dirtyStart += 1
            link.isQueuedForWrite = false
            guard !link.isClosed else { continue }
            write(link)
            written += 1
            if written % 32 == 0 && writeClock() >= deadline { break }
        }
        if dirtyStart == dirty.count {
            dirty.removeAll(keepingCapacity: true)
            dirtyStart = 0
        } else if dirtyStart >= 4096 && dirtyStart * 2 >= dirty.count {
            dirty.removeFirst(dirtyStart)
            dirtyStart = 0
        }
    }

    /// Writes a connection's committed output now (output held back while its first bytes were unclear).
    func writeNow(_ link: Link) { write(link) }

    private func write(_ link: Link) {
        // Bytes that may begin an HTTP request hold back the banner: a browser must get nothing but its answer.
        guard link.kind != .sniffing || (link.sniffed.isEmpty && !link.holdsBanner) else { return }
        do {
            try link.flush()
            if link.isWatchingWrites {
                try? poller.modify(link.socket.fd, interest: .read)
                link.isWatchingWrites = false
            }
            if link.isClosingAfterFlush && link.isDrained { finishClosing(link) }
        } catch .wouldBlock {
            if !link.isWatchingWrites {
                try? poller.modify(link.socket.fd, interest: [.read, .write])
                link.isWatchingWrites = true
            }
        } catch {
            drop(link, reason: "write failed: \(error)")
        }
    }

    /// Writes whatever committed output each connection will still take, without waiting (the host is stopping).
    func flushAllNow() {
        for link in links.values where !link.isClosed { try? link.flush() }
    }

    // MARK: Closing

    private func finishClosing(_ link: Link) {
        link.socket.shutdownWrite()
        drop(link, reason: link.closeReason ?? "closed by the host")
    }

    /// Closes a connection now; the close is reported at the end of the turn.
    func drop(_ link: Link, reason: String) {
        guard !link.isClosed else { return }
        link.isClosed = true
        timedLinks[link.socket.fd] = nil
        poller.remove(link.socket.fd)
        link.socket.close()
        links[link.socket.fd] = nil
        linksByID[link.id] = nil
        closures.append((link.id, reason))
    }

    /// Reports the connections closed since the last call.
    func reportClosures() {
        while !closures.isEmpty {
            let batch = closures
            closures.removeAll()
            for (id, reason) in batch { events?.closed(id, reason: reason) }
        }
    }

    /// Closes everything (the host is stopping).
    func closeAll() {
        for link in links.values where link.kind == .webSocket && !link.isClosed {
            queueClose(on: link, code: WebSocketCloseCode.goingAway, reason: "the host stopped")
            link.commitAheadOfHeld()  // the close tells of nothing unsaved; held output stays unsent
            try? link.flush()
        }
        for link in Array(links.values) { drop(link, reason: "the host stopped") }
        listener.close()
        reportClosures()
    }
}

@available(*, unavailable)
extension Transport: Sendable {}

@available(*, unavailable)
extension Transport.Link: Sendable {}
