import Foundation
import Net
import Protocol
import TestSupport
import Testing

/// The host's HTTP and WebSocket over real sockets (issue 25, PROTOCOL.md "HTTP and WebSocket"): the page's files,
/// refusals, the upgrade, players over WebSocket beside TCP ones, and the categories of the Autobahn test suite.
@Suite("WebSocket end to end", .timeLimit(.minutes(10)))
struct WebSocketEndToEndTests {
    /// One HTTP answer: status, header fields (names lowercased) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Splits `bytes` into the HTTP answers it holds (bodies by Content-Length; none after a HEAD).
    static func answers(in bytes: [UInt8], heads: Set<Int> = []) -> [Answer] {
        var answers: [Answer] = []
        var rest = bytes[...]
        while let end = WebSocketEndToEndTests.headEnd(rest) {
            let head = String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
            rest = rest[end...]
            var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            let statusLine = lines.removeFirst().split(separator: " ")
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            let length = heads.contains(answers.count) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
            let body = Array(rest.prefix(length))
            rest = rest.dropFirst(length)
            answers.append(Answer(status: Int(statusLine[1]) ?? 0, headers: headers, body: body))
        }
        return answers
    }

    static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            if bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A
            {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// Sends `request` on a fresh connection and returns the answer once the host closed it.
    static func fetch(_ host: HostProcess, _ request: String, isHead: Bool = false) throws -> Answer {
        let client = try host.connect()
        try client.send(raw: Array(request.utf8))
        guard client.waitForClose(timeout: 10) else {
            throw HarnessError("the host kept \(request.debugDescription) open")
        }
        guard let answer = answers(in: client.transcript, heads: isHead ? [0] : []).first else {
            throw HarnessError(
                "no HTTP answer to \(request.debugDescription): \(client.transcriptText.debugDescription)")
        }
        return answer
    }

    /// A GET of `path` that asks the host to close after the answer.
    static func get(_ path: String, method: String = "GET") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    }

    /// The files of `Sources/Host/Web`, read from the source tree.
    static func webFiles() throws -> [String: [UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Host/Web")
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            files[name] = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return files
    }

    // MARK: HTTP

    @Test func thePageAndEveryFileAreServedWithTheirHeaders() throws {
        let host = try HostProcess()
        let files = try Self.webFiles()
        #expect(files["index.html"] != nil)
        for path in ["/", "/ABCD", "/abcd1234", "/board", "/\(host.room)"] {
            let answer = try Self.fetch(host, Self.get(path))
            #expect(answer.status == 200, "\(path)")
            #expect(answer.body == files["index.html"], "\(path)")
            #expect(answer.headers["content-type"] == "text/html; charset=utf-8")
            #expect(answer.headers["cache-control"] == "no-cache")
            let policy = answer.headers["content-security-policy"] ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(policy)")
        }
        // Every file of the folder is embedded and served as it is, with its type.
        for (name, bytes) in files {
            let answer = try Self.fetch(host, Self.get("/\(name)"))
            #expect(answer.status == 200, "\(name) is not embedded (list it in WebAssets.files)")
            #expect(answer.body == bytes, "\(name)")
            if name.hasSuffix(".js") { #expect(answer.headers["content-type"] == "text/javascript; charset=utf-8") }
            if name.hasSuffix(".css") { #expect(answer.headers["content-type"] == "text/css; charset=utf-8") }
        }
        // HEAD: the same head, no body.
        let head = try Self.fetch(host, Self.get("/", method: "HEAD"), isHead: true)
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "\(files["index.html"]?.count ?? -1)")
        #expect(head.body.isEmpty)
        host.stop()
    }

    @Test func theBoardsJoinCodeIsTheQRCodeOfTheAddressTheBoardCameBy() throws {
        let host = try HostProcess()
        let request = "GET /join.svg HTTP/1.1\r\nHost: 192.168.7.7:4747\r\nConnection: close\r\n\r\n"
        let answer = try Self.fetch(host, request)
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "image/svg+xml")
        let expected = try QRCode(encoding: "http://192.168.7.7:4747/\(host.room)").svg()
        #expect(String(decoding: answer.body, as: UTF8.self) == expected)
        // A board on the host's own screen (localhost) shows a LAN address phones can reach instead.
        let local = try Self.fetch(host, Self.get("/join.svg"))
        #expect(local.status == 200 && String(decoding: local.body, as: UTF8.self).hasPrefix("<svg"))
        #expect(String(decoding: local.body, as: UTF8.self) != expected)
        host.stop()
    }

    @Test func keptAliveRequestsAreAnsweredInOrder() throws {
        let host = try HostProcess()
        let client = try host.connect()
        let request = "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        try client.send(raw: Array(request.utf8))
        let deadline = Date().addingTimeInterval(10)
        while Self.answers(in: client.transcript, heads: [1]).count < 2 && Date() < deadline {
            client.pump(timeout: 0.2)
        }
        let answers = Self.answers(in: client.transcript, heads: [1])
        #expect(answers.map(\.status) == [200, 200])
        #expect(answers.first?.headers["connection"] == "keep-alive")
        #expect(answers.first?.body == (try Self.webFiles())["app.js"])
        #expect(answers.last?.headers["content-type"] == "text/html; charset=utf-8")
        #expect(!client.isClosed)
        host.stop()
    }

    @Test func refusalsAreClearAndNothingOutsideTheAssetsIsReached() throws {
        let host = try HostProcess()
        let notFound = try Self.fetch(host, Self.get("/nothing-here.txt"))
        #expect(notFound.status == 404)
        #expect(notFound.text.contains("no page at this address"))
        for path in [
            "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fPackage.swift",
            "/..\\..\\Package.swift",
            "/Web/index.html", "/./app.js", "/Package.swift", "/main.swift",
        ] {
            let answer = try Self.fetch(host, Self.get(path))
            #expect(answer.status == 404, "\(path)")
            #expect(!answer.text.contains("root:") && !answer.text.contains("PackageDescription"), "\(path)")
        }
        let post = try Self.fetch(host, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD")
        let noHost = try Self.fetch(host, "GET / HTTP/1.1\r\n\r\n")
        #expect(noHost.status == 400)
        #expect(noHost.text.contains("Host"))
        let longLine = try Self.fetch(host, Self.get("/" + String(repeating: "a", count: 3000)))
        #expect(longLine.status == 414)
        let manyHeaders = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (0..<100).map { "X-\($0): y\r\n" }.joined() + "\r\n"
        #expect(try Self.fetch(host, manyHeaders).status == 431)
        let bigHeader = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + String(repeating: "y", count: 10_000) + "\r\n\r\n"
        #expect(try Self.fetch(host, bigHeader).status == 431)
        // A plain GET of the WebSocket's address says what it is.
        let plain = try Self.fetch(host, Self.get("/ws"))
        #expect(plain.status == 426)
        #expect(plain.headers["upgrade"] == "websocket")
        // The host still serves everyone else.
        let player = try host.join("Ann", team: "Red")
        try player.send(["type": "ping", "id": 1])
        #expect(try player.waitFor("pong")["re"] == 1)
        host.stop()
    }

    @Test func aSlowRequestHeadIsAnsweredAndAnUnfinishedOneIsClosed() throws {
        let host = try HostProcess()
        // A byte at a time, with pauses: still a request.
        let slow = try host.connect()
        for byte in Array(Self.get("/board").utf8) {
            try slow.send(raw: [byte])
            slow.pump(timeout: 0.005)
        }
        #expect(slow.waitForClose(timeout: 10))
        #expect(Self.answers(in: slow.transcript).first?.status == 200)
        // Begun, never finished: 408, then closed (the request timeout is 10 s).
        let stuck = try host.connect()
        try stuck.send(raw: Array("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgr".utf8))
        #expect(stuck.waitForClose(timeout: 30))
        #expect(stuck.transcriptText.hasPrefix("HTTP/1.1 408 "))
        // Only "GE": undecided bytes are timed too, and get no banner meant for a typing player.
        let prefix = try host.connect()
        try prefix.send(raw: Array("GE".utf8))
        #expect(prefix.waitForClose(timeout: 30))
        #expect(prefix.transcriptText.hasPrefix("HTTP/1.1 408 "))
        #expect(!prefix.transcriptText.contains("Partyline game host"))
        host.stop()
    }

    @Test func aBrowsersSpareConnectionGetsItsAnswerAndATypistFromTheSameAddressItsBanner() throws {
        let host = try HostProcess()
        // A stranger's silent connection gets the banner by itself, as nc users expect.
        let before = try host.connect()
        _ = try before.waitForText("join ROOM NAME TEAM")
        // The page's first request: 127.0.0.1 is a browser's address from now on.
        let page = try host.connect()
        try page.send(raw: Array(Self.get("/").utf8))
        #expect(page.waitForClose(timeout: Patience.generous))
        #expect(Self.answers(in: page.transcript).first?.status == 200)
        // A connection the browser opened ahead of a request says nothing for longer than the banner's 250 ms...
        let spare = try host.connect()
        spare.pump(timeout: 1)
        #expect(spare.transcript.isEmpty, "\(spare.transcriptText)")
        // ...then asks: its answer is the first byte it reads (a banner ahead of it would break the page).
        try spare.send(raw: Array(Self.get("/app.js").utf8))
        #expect(spare.waitForClose(timeout: Patience.generous))
        #expect(spare.transcriptText.hasPrefix("HTTP/1.1 200 "), "\(spare.transcriptText.prefix(200))")
        // Someone at nc on that same machine gets the banner with their first line.
        let typist = try host.connect()
        try typist.send(line: "help")
        _ = try typist.waitForText("join ROOM NAME TEAM")
        host.stop()
    }

    // MARK: Upgrade and play

    @Test func aWebSocketPlayerJoinsAndSeesATCPPlayerInTheLobby() throws {
        let host = try HostProcess()
        let page = try WebSocketTestClient(port: host.port)
        #expect(page.handshake.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(!page.handshake.lowercased().contains("sec-websocket-protocol"))
        let tcp = try host.join("Bob", team: "Blue")
        let welcome = try page.join(room: host.room, name: "Ann", team: "Red")
        #expect(welcome["name"] == "Ann")
        #expect(page.token != nil)
        let seen = try page.waitFor("lobby") { lobby in
            let names = lobby["players"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            return names.contains("Ann") && names.contains("Bob")
        }
        #expect(seen["room"]?.stringValue == host.room)
        _ = try tcp.waitFor("lobby") { lobby in
            lobby["players"]?.arrayValue?.contains { $0["name"] == "Ann" && $0["connected"] == true } == true
        }
        // Each text frame is one JSON object, without a newline.
        #expect(page.frames.allSatisfy { $0.opcode != WebSocketFrame.text || $0.payload.last != 0x0A })
        #expect(!page.transcript.isEmpty)
        // Leaving: the TCP player sees the page's player away.
        try page.send(opcode: WebSocketFrame.close, payload: WebSocketFrame.closePayload(code: 1001))
        #expect(try page.waitForCloseFrame() == 1001)
        #expect(page.waitForTCPClose())
        _ = try tcp.waitFor("lobby") { lobby in
            lobby["players"]?.arrayValue?.contains { $0["name"] == "Ann" && $0["connected"] == false } == true
        }
        host.stop()
    }

    @Test func aSlowUpgradeStillOpensAndAForeignOriginIsRefused() throws {
        let host = try HostProcess()
        let slow = try WebSocketTestClient(port: host.port, chunk: 1)
        try slow.join(room: host.room, name: "Slow", team: "Red")
        let foreign = try host.connect()
        let request = WebSocketTestClient.upgradeRequest(host: "127.0.0.1:\(host.port)", origin: "http://evil.example")
        try foreign.send(raw: Array(request.utf8))
        #expect(foreign.waitForClose())
        #expect(foreign.transcriptText.hasPrefix("HTTP/1.1 403 "))
        let oldVersion = try host.connect()
        try oldVersion.send(raw: Array(WebSocketTestClient.upgradeRequest(host: "127.0.0.1", version: "8").utf8))
        #expect(oldVersion.waitForClose())
        #expect(oldVersion.transcriptText.hasPrefix("HTTP/1.1 426 "))
        #expect(oldVersion.transcriptText.contains("Sec-WebSocket-Version: 13"))
        host.stop()
    }

    @Test func badJSONGetsTheProtocolsErrorAndTheSocketStaysOpen() throws {
        let host = try HostProcess()
        let page = try WebSocketTestClient(port: host.port)
        try page.send(text: "{\"type\":")
        #expect(try page.waitFor("error")["code"] != nil)
        try page.send(text: "not json at all")
        _ = try page.waitFor("error")
        try page.send(["type": "ping", "id": 7])
        #expect(try page.waitFor("pong")["re"] == 7)
        try page.join(room: host.room, name: "Ann", team: "Red")
        host.stop()
    }

    @Test func aPageUnderTheSameLimitsAsATCPClient() throws {
        // The message rate: 60 messages at once against --rate 40.
        let host = try HostProcess(["--max-output-kb", "64"])
        let page = try WebSocketTestClient(port: host.port)
        try page.join(room: host.room, name: "Ann", team: "Red")
        var burst: [UInt8] = []
        for index in 0..<60 {
            burst += WebSocketFrame.encode(
                opcode: WebSocketFrame.text, payload: Array("{\"type\":\"ping\",\"id\":\(index)}".utf8),
                mask: WebSocketTestClient.mask)
        }
        try page.send(raw: burst)
        #expect(try page.waitFor("error")["code"] == "rate_limited")
        host.stop()
    }

    @Test func aPageThatNeverReadsIsCutOffWhileOthersKeepReceiving() throws {
        let host = try HostProcess(["--rate", "1000000", "--max-output-kb", "64"])
        let sluggard = try WebSocketTestClient(port: host.port)
        try sluggard.join(room: host.room, name: "Slow", team: "Red")
        let other = try host.join("Fast", team: "Blue")
        let ping = WebSocketFrame.encode(
            opcode: WebSocketFrame.text, payload: Array(#"{"type":"ping","id":123456789}"#.utf8),
            mask: WebSocketTestClient.mask)
        var batch: [UInt8] = []
        for _ in 0..<2000 { batch.append(contentsOf: ping) }
        var cut = false
        for _ in 0..<200 where !cut {
            do { try sluggard.send(raw: batch) } catch { cut = true }
            usleep(1000)
        }
        try other.send(["type": "ping", "id": 1])
        #expect(try other.waitFor("pong", timeout: 10)["re"] == 1)
        _ = try other.waitFor("lobby", timeout: 10) { lobby in
            lobby["players"]?.arrayValue?.contains { $0["name"] == "Slow" && $0["connected"] == false } == true
        }
        host.stop()
        #expect(host.errorOutput().contains("stopped reading"))
    }

    // MARK: Autobahn categories

    @Test func fragmentedTextWithAPingBetweenFragments() throws {
        let host = try HostProcess()
        let page = try WebSocketTestClient(port: host.port)
        let hello = Array("{\"type\":\"hello\",\"room\":\"\(host.room)\",\"name\":\"Frag\",\"team\":\"Red\"}".utf8)
        try page.send(opcode: WebSocketFrame.text, payload: Array(hello[0..<10]), fin: false)
        try page.send(opcode: WebSocketFrame.ping, payload: Array("between".utf8))
        #expect(try page.waitForFrame(WebSocketFrame.pong).payload == Array("between".utf8))
        try page.send(opcode: WebSocketFrame.continuation, payload: Array(hello[10..<30]), fin: false)
        try page.send(opcode: WebSocketFrame.pong, payload: [])  // an unasked pong is allowed and ignored
        try page.send(opcode: WebSocketFrame.continuation, payload: Array(hello[30...]))
        #expect(try page.waitFor("welcome")["name"] == "Frag")
        host.stop()
    }

    /// Opens a WebSocket, sends `bytes`, and returns the host's close code once it also closed TCP.
    static func closeCode(after bytes: [UInt8], on host: HostProcess) throws -> UInt16? {
        let page = try WebSocketTestClient(port: host.port)
        try page.send(raw: bytes)
        let code = try page.waitForCloseFrame()
        #expect(page.waitForTCPClose(), "the host left the connection open after its close frame")
        return code
    }

    @Test func brokenFramesCloseWithTheRightCode() throws {
        let host = try HostProcess()
        let mask = WebSocketTestClient.mask
        let oversizeControl = WebSocketFrame.encode(
            opcode: WebSocketFrame.ping, payload: [UInt8](repeating: 1, count: 126), mask: mask)
        #expect(try Self.closeCode(after: oversizeControl, on: host) == 1002)
        let unmasked = WebSocketFrame.encode(opcode: WebSocketFrame.text, payload: Array("{}".utf8))
        #expect(try Self.closeCode(after: unmasked, on: host) == 1002)
        let reserved = WebSocketFrame.encode(opcode: WebSocketFrame.text, payload: [0x61], mask: mask, reserved: 2)
        #expect(try Self.closeCode(after: reserved, on: host) == 1002)
        let unknownOpcode = WebSocketFrame.encode(opcode: 5, payload: [], mask: mask)
        #expect(try Self.closeCode(after: unknownOpcode, on: host) == 1002)
        let fragmentedPing = WebSocketFrame.encode(opcode: WebSocketFrame.ping, payload: [], fin: false, mask: mask)
        #expect(try Self.closeCode(after: fragmentedPing, on: host) == 1002)
        // "κόσμε" then a surrogate split across fragments.
        let badUTF8 =
            WebSocketFrame.encode(
                opcode: WebSocketFrame.text, payload: Array("κόσμε".utf8) + [0xED], fin: false, mask: mask)
            + WebSocketFrame.encode(opcode: WebSocketFrame.continuation, payload: [0xA0, 0x80], mask: mask)
        #expect(try Self.closeCode(after: badUTF8, on: host) == 1007)
        let binary = WebSocketFrame.encode(opcode: WebSocketFrame.binary, payload: [1, 2, 3], mask: mask)
        #expect(try Self.closeCode(after: binary, on: host) == 1003)
        // A 10 MB frame: the header alone is refused, without waiting for (or holding) its payload.
        var huge: [UInt8] = []
        WebSocketFrame.appendHeader(opcode: WebSocketFrame.text, length: 10_000_000, mask: mask, into: &huge)
        #expect(try Self.closeCode(after: huge, on: host) == 1009)
        // A message over the line limit in fragments that each fit.
        let part = [UInt8](repeating: 0x20, count: 10_000)
        let tooBig =
            WebSocketFrame.encode(opcode: WebSocketFrame.text, payload: part, fin: false, mask: mask)
            + WebSocketFrame.encode(opcode: WebSocketFrame.continuation, payload: part, mask: mask)
        #expect(try Self.closeCode(after: tooBig, on: host) == 1009)
        // The close handshake: the host echoes the code, then closes TCP.
        let close = WebSocketFrame.encode(
            opcode: WebSocketFrame.close, payload: WebSocketFrame.closePayload(code: 1000, reason: "done"), mask: mask)
        #expect(try Self.closeCode(after: close, on: host) == 1000)
        let bareClose = WebSocketFrame.encode(opcode: WebSocketFrame.close, payload: [], mask: mask)
        #expect(try Self.closeCode(after: bareClose, on: host) == nil)
        let badCode = WebSocketFrame.encode(opcode: WebSocketFrame.close, payload: [0x03, 0xED], mask: mask)
        #expect(try Self.closeCode(after: badCode, on: host) == 1002)
        // After all that, the host still takes a page.
        let page = try WebSocketTestClient(port: host.port)
        try page.join(room: host.room, name: "Ann", team: "Red")
        host.stop()
    }

    @Test func theHostPingsASilentPageAndClosesOneThatStopsAnswering() throws {
        let host = try HostProcess(["--idle-timeout", "3"])
        let alive = try WebSocketTestClient(port: host.port)
        try alive.join(room: host.room, name: "Alive", team: "Red")
        let gone = try WebSocketTestClient(port: host.port)
        gone.answersPings = false
        try gone.join(room: host.room, name: "Gone", team: "Blue")
        // Both pages are read (a browser reads all the time); only `alive` answers the host's pings.
        let deadline = Date().addingTimeInterval(20)
        while !gone.isClosed && Date() < deadline {
            gone.pump(timeout: 0.05)
            alive.pump(timeout: 0.05)
        }
        #expect(gone.isClosed, "a page that answers no ping was not closed after the idle timeout")
        #expect(gone.frames.contains { $0.opcode == WebSocketFrame.ping })
        #expect(try gone.waitFor("closing", timeout: 1)["code"] == "idle")
        #expect(try gone.waitForCloseFrame(timeout: 1) == 1000)
        // The page that answers pings (as every browser does by itself) was pinged too, and is still there.
        #expect(alive.frames.contains { $0.opcode == WebSocketFrame.ping })
        _ = try alive.waitFor("lobby", timeout: 15) { lobby in
            lobby["players"]?.arrayValue?.contains { $0["name"] == "Gone" && $0["connected"] == false } == true
        }
        try alive.send(["type": "ping", "id": 3])
        #expect(try alive.waitFor("pong")["re"] == 3)
        #expect(!alive.isClosed)
        host.stop()
    }

    @Test func aStoppingHostSaysGoingAway() throws {
        let host = try HostProcess()
        let page = try WebSocketTestClient(port: host.port)
        try page.join(room: host.room, name: "Ann", team: "Red")
        host.stop()
        #expect(try page.waitForCloseFrame() == 1001)
        #expect(page.waitForTCPClose())
    }
}
