import Protocol

/// What a connection speaks, decided by its first bytes.
enum LinkKind {
    /// Nothing decided: the bytes so far (maybe none) could still begin `GET ` or `HEAD `.
    case sniffing
    /// Lines: newline-delimited JSON or typed text (the session layer tells which).
    case lines
    /// HTTP/1.1 requests for the page's files, answered by the transport itself.
    case http
    /// A WebSocket after an upgrade: one JSON message per text frame, both ways.
    case webSocket
}

extension Transport.Link {
    /// Queues one JSON line as one WebSocket text frame, without its newline.
    func enqueueTextFrame(line: [UInt8]) {
        var end = line.count
        if end > 0 && line[end - 1] == 0x0A { end -= 1 }
        WebSocketFrame.appendHeader(opcode: WebSocketFrame.text, length: end, into: &output)
        output.append(contentsOf: line[0..<end])
    }

    /// Forgets queued output that was never written (a banner queued before the first bytes showed a browser).
    func discardOutput() {
        output.removeAll()
        outputOffset = 0
        committedEnd = 0
        heldEnd = 0
    }
}

/// HTTP and WebSocket on the game port: a connection whose first bytes are `GET ` or `HEAD ` is answered here
/// (PROTOCOL.md, "HTTP and WebSocket"); after an upgrade to `/ws` it is a JSON session like any TCP client's.
extension Transport {
    /// The first bytes that make a connection an HTTP one.
    static let requestPrefixes: [[UInt8]] = [Array("GET ".utf8), Array("HEAD ".utf8)]
    /// The most requests one kept-alive HTTP connection is answered before it is closed.
    static let maximumRequestsPerConnection = 100
    /// How long an address counts as a browser's after its last HTTP request.
    static let browserMemoryMilliseconds: Int64 = 60_000
    /// How long a silent connection from a browser's address waits for its first bytes before it gets the banner:
    /// longer than a browser keeps an unused speculative connection (Chromium closes one after 10 s).
    static let browserBannerHoldMilliseconds: Int64 = 15_000

    /// Bytes read from a connection that is not a line connection.
    func feedWeb(_ link: Link, _ bytes: ArraySlice<UInt8>, at now: Int64) {
        guard !link.isClosingAfterFlush, !link.isClosed else { return }
        switch link.kind {
        case .sniffing: sniff(link, bytes, at: now)
        case .http: feedHTTP(link, bytes, at: now)
        case .webSocket: feedWebSocket(link, bytes)
        case .lines: feedLines(link, bytes)
        }
    }

    /// Decides what the connection speaks once its first bytes allow it.
    private func sniff(_ link: Link, _ bytes: ArraySlice<UInt8>, at now: Int64) {
        if link.holdsBanner {
            link.holdsBanner = false
            link.requestDeadline = .max
            timedLinks[link.socket.fd] = nil
        }
        link.sniffed.append(contentsOf: bytes)
        let sniffed = link.sniffed
        if Self.requestPrefixes.contains(where: { sniffed.starts(with: $0) }) {
            becomeHTTP(link, at: now)
            feedHTTP(link, sniffed[...], at: now)
        } else if Self.requestPrefixes.contains(where: { $0.starts(with: sniffed) }) {
            if link.requestDeadline == .max { watchRequest(link, until: now + limits.requestTimeoutMilliseconds) }
        } else {
            link.kind = .lines
            link.sniffed = []
            link.requestDeadline = .max
            timedLinks[link.socket.fd] = nil
            feedLines(link, sniffed[...])
            if !link.isClosed { writeNow(link) }  // a banner held back while the first bytes were unclear
        }
    }

    /// Holds the banner of a silent connection from an address that spoke HTTP a moment ago (PROTOCOL.md §13a): a
    /// browser opens connections ahead of its requests, and one that read the banner first could not read its answer.
    /// The banner goes out with the connection's first line, or once the hold is over.
    func holdBanner(of link: Link, at now: Int64) {
        link.holdsBanner = true
        watchRequest(link, until: now + Self.browserBannerHoldMilliseconds)
    }

    private func becomeHTTP(_ link: Link, at now: Int64) {
        browserAddresses[link.peer] = now
        if browserAddresses.count > 1000 {
            browserAddresses = browserAddresses.filter { now - $0.value < Self.browserMemoryMilliseconds }
        }
        link.kind = .http
        link.sniffed = []
        link.http = HTTPRequestParser()
        link.discardOutput()  // a banner for a typing player is not for a browser
        if link.requestDeadline == .max { watchRequest(link, until: now + limits.requestTimeoutMilliseconds) }
    }

    /// Watches `link` for a request head due by `deadline`.
    private func watchRequest(_ link: Link, until deadline: Int64) {
        link.requestDeadline = deadline
        timedLinks[link.socket.fd] = link
        nextTimeoutSweepAt = min(nextTimeoutSweepAt, deadline)
    }

    // MARK: HTTP

    private func feedHTTP(_ link: Link, _ bytes: ArraySlice<UInt8>, at now: Int64) {
        link.http?.append(bytes)
        while !link.isClosingAfterFlush, !link.isClosed, link.kind == .http, let output = link.http?.next() {
            switch output {
            case .failure(let failure): refuse(link, failure, isHead: false)
            case .head(let head): answer(head, on: link, at: now)
            }
        }
    }

    /// Answers a request the host will not serve, then closes the connection.
    private func refuse(_ link: Link, _ failure: HTTPFailure, isHead: Bool) {
        queue(HTTPResponse.failure(failure, isHead: isHead), on: link)
        link.closeReason = "HTTP \(failure.status) (\(failure.message))"
        log.debug("Connection \(link.id) from \(link.peer): HTTP \(failure.status): \(failure.message)")
        closeAfterFlush(link)
    }

    private func answer(_ head: HTTPRequestHead, on link: Link, at now: Int64) {
        link.requestsServed += 1
        let isHead = head.method == "HEAD"
        guard let route = HTTPRoute.route(path: head.path, assets: WebAssets.names) else {
            return refuse(
                link, HTTPFailure(404, "This Partyline host has no page at this address; the game is at /."),
                isHead: isHead)
        }
        let served: (name: String, body: [UInt8], contentType: String)
        switch route {
        case .webSocket: return upgrade(link, head, at: now)
        case .page: served = Self.asset(WebAssets.page)
        case .asset(let asset): served = Self.asset(asset)
        case .joinCode:
            let svg = Array((joinCode?(head.header("host")) ?? "").utf8)
            served = ("join.svg", svg, WebAssets.contentType(of: "join.svg"))
        case .audio(let list, let file):
            guard let recording = events?.recording(list: list, file: file) else {
                return refuse(link, HTTPFailure(404, "This word list has no recording of that word."), isHead: isHead)
            }
            served = ("audio/\(list)/\(file)", recording.bytes, recording.contentType)
        }
        let (name, body) = (served.name, served.body)
        let keepsAlive = head.keepsAlive && link.requestsServed < Self.maximumRequestsPerConnection
        var headers: [(name: String, value: String)] = [
            ("Content-Type", served.contentType), ("Content-Length", "\(body.count)"),
            ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
        ]
        if name.hasSuffix(".html") { headers.append(("Content-Security-Policy", WebAssets.contentSecurityPolicy)) }
        headers.append(("Connection", keepsAlive ? "keep-alive" : "close"))
        var response = HTTPResponse.head(status: 200, headers: headers)
        if !isHead { response.append(contentsOf: body) }
        queue(response, on: link)
        // Pipelined requests whose answers are not read pile up no more than a slow JSON reader's output may.
        if link.pendingOutputCount > limits.maximumOutputBytes + response.count {
            return drop(
                link,
                reason: "it stopped reading (more than \(limits.maximumOutputBytes / 1024) KiB waiting to be sent)")
        }
        log.debug("Connection \(link.id) from \(link.peer): \(head.method) \(head.path) → 200 \(name)")
        if keepsAlive {
            watchRequest(link, until: now + limits.requestTimeoutMilliseconds)
        } else {
            link.closeReason = "HTTP answered (Connection: close)"
            closeAfterFlush(link)
        }
    }

    /// An embedded file of the page, as `answer` serves it.
    private static func asset(_ name: String) -> (name: String, body: [UInt8], contentType: String) {
        (name, WebAssets.files[name] ?? [], WebAssets.contentType(of: name))
    }

    /// Opens a WebSocket on `/ws`, or refuses the upgrade (400, 403, 426).
    private func upgrade(_ link: Link, _ head: HTTPRequestHead, at now: Int64) {
        switch WebSocketHandshake.answer(to: head) {
        case .failure(let failure):
            if failure.status == 403 {
                log.warning(
                    "Refused a WebSocket from \(link.peer): its page came from \(head.header("origin") ?? "?"), "
                        + "not this host (\(head.header("host") ?? "?")).")
            }
            refuse(link, failure, isHead: head.method == "HEAD")
        case .success(let response):
            queue(response, on: link)
            let remainder = link.http?.takeRemainder() ?? []
            link.http = nil
            link.kind = .webSocket
            link.webSocket = WebSocketDecoder(maximumMessageLength: limits.maximumMessageLength)
            link.requestDeadline = .max
            timedLinks[link.socket.fd] = nil
            events?.upgraded(link.id)
            if !remainder.isEmpty { feedWebSocket(link, remainder[...]) }
        }
    }

    /// The next time a request head may be overdue; nil when no HTTP connection waits for one.
    var nextRequestDeadline: Int64? { nextTimeoutSweepAt == .max ? nil : nextTimeoutSweepAt }

    /// Closes HTTP connections whose request head did not arrive in time: a begun request gets a 408 first, an idle
    /// kept-alive connection is closed quietly.
    func expireRequests(at now: Int64) {
        guard now >= nextTimeoutSweepAt else { return }
        nextTimeoutSweepAt = .max
        for link in Array(timedLinks.values) where !link.isClosed {
            guard now >= link.requestDeadline, !link.isClosingAfterFlush else {
                if !link.isClosingAfterFlush { nextTimeoutSweepAt = min(nextTimeoutSweepAt, link.requestDeadline) }
                continue
            }
            timedLinks[link.socket.fd] = nil
            if link.kind == .sniffing && link.holdsBanner {
                // Silent all along: not a browser's after all, or one that let it go. The banner is its own.
                link.holdsBanner = false
                link.requestDeadline = .max
                writeNow(link)
                continue
            }
            let hasBegun = link.kind == .sniffing || link.http?.hasPartialHead == true
            if link.kind == .sniffing { becomeHTTP(link, at: now) }
            if hasBegun {
                refuse(
                    link,
                    HTTPFailure(
                        408, "The request did not arrive within \(limits.requestTimeoutMilliseconds / 1000) s."),
                    isHead: false)
            } else {
                link.closeReason = "an idle HTTP connection timed out"
                closeAfterFlush(link)
            }
        }
    }

    // MARK: WebSocket

    private func feedWebSocket(_ link: Link, _ bytes: ArraySlice<UInt8>) {
        guard let happened = link.webSocket?.feed(bytes) else { return }
        for event in happened where !link.isClosed && !link.isClosingAfterFlush {
            switch event {
            case .text(let message):
                events?.received(message, from: link.id)
            case .ping(let payload):
                if events?.heard(from: link.id, isPing: true) ?? true {
                    queue(WebSocketFrame.encode(opcode: WebSocketFrame.pong, payload: payload), on: link)
                }
            case .pong:
                _ = events?.heard(from: link.id, isPing: false)
            case .close(let code, _):
                // The close is echoed with the peer's code (none when it gave none), then the host closes TCP.
                queueClose(on: link, code: code, reason: "")
                link.closeReason = "the page closed its WebSocket (\(code.map { "\($0)" } ?? "no code"))"
                closeAfterFlush(link)
            case .failure(let code, let reason):
                queueClose(on: link, code: code, reason: reason)
                link.closeReason = "WebSocket closed with \(code): \(reason)"
                log.info("Connection \(link.id) from \(link.peer): WebSocket closed with \(code): \(reason).")
                closeAfterFlush(link)
            }
        }
    }

    /// Queues a close frame (once: nothing is sent after it); `code` nil sends one without a code.
    func queueClose(on link: Link, code: UInt16?, reason: String) {
        guard !link.hasSentClose, !link.isClosed else { return }
        link.hasSentClose = true
        let payload = code.map { WebSocketFrame.closePayload(code: $0, reason: reason) } ?? []
        queue(WebSocketFrame.encode(opcode: WebSocketFrame.close, payload: payload), on: link)
    }

    /// Sends a WebSocket ping (the page's browser answers it by itself); nothing for other connections.
    func pingWebSocket(_ id: SessionID) {
        guard let link = link(of: id), link.kind == .webSocket, !link.hasSentClose else { return }
        queue(WebSocketFrame.encode(opcode: WebSocketFrame.ping, payload: [UInt8]()), on: link)
    }
}
