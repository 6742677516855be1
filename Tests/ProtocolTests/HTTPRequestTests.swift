import Testing

@testable import Protocol

@Suite struct HTTPRequestTests {
    /// Feeds `text` to a fresh parser `chunk` bytes at a time and returns everything it found.
    static func parse(_ text: String, chunk: Int = .max) -> [HTTPRequestParser.Output] {
        var parser = HTTPRequestParser()
        var outputs: [HTTPRequestParser.Output] = []
        let bytes = Array(text.utf8)
        let step = max(1, min(chunk, bytes.count))
        for start in stride(from: 0, to: bytes.count, by: step) {
            parser.append(bytes[start..<min(start + step, bytes.count)])
            while let output = parser.next() { outputs.append(output) }
        }
        return outputs
    }

    /// The status of the only output, or nil when it was a head.
    static func status(_ text: String) -> Int? {
        let outputs = parse(text)
        guard outputs.count == 1, case .failure(let failure) = outputs[0] else { return nil }
        return failure.status
    }

    @Test func aRequestHeadIsTheSameFedWholeOrAByteAtATime() throws {
        let text =
            "GET /ABCD?x=1 HTTP/1.1\r\nHost: 10.0.0.2:4747\r\nAccept:  text/html \r\nConnection: keep-alive\r\n\r\n"
        let whole = Self.parse(text)
        #expect(whole == Self.parse(text, chunk: 1))
        #expect(whole == Self.parse(text, chunk: 7))
        guard whole.count == 1, case .head(let head) = whole[0] else {
            Issue.record("expected one head, got \(whole)")
            return
        }
        #expect(head.method == "GET")
        #expect(head.target == "/ABCD?x=1")
        #expect(head.path == "/ABCD")
        #expect(head.minorVersion == 1)
        #expect(head.header("HOST") == "10.0.0.2:4747")
        #expect(head.header("accept") == "text/html")
        #expect(head.keepsAlive)
    }

    @Test func bareLineFeedsAndPipelinedRequestsAreRead() {
        let outputs = Self.parse("HEAD / HTTP/1.1\nHost: a\n\nGET /app.js HTTP/1.0\r\n\r\n", chunk: 3)
        #expect(outputs.count == 2)
        if case .head(let first) = outputs.first { #expect(first.method == "HEAD") }
        if case .head(let second) = outputs.last {
            #expect(second.path == "/app.js")
            #expect(!second.keepsAlive)  // HTTP/1.0 without keep-alive
        }
    }

    @Test func bytesAfterTheHeadStayForTheNextProtocol() {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /ws HTTP/1.1\r\nHost: a\r\n\r\n\u{81}\u{05}".utf8))
        guard case .head = parser.next() else {
            Issue.record("no head")
            return
        }
        #expect(parser.takeRemainder() == Array("\u{81}\u{05}".utf8))
    }

    @Test func otherMethodsAre405WithAllow() {
        let outputs = Self.parse("POST / HTTP/1.1\r\nHost: a\r\n\r\n")
        guard case .failure(let failure) = outputs.first else {
            Issue.record("not refused")
            return
        }
        #expect(failure.status == 405)
        #expect(failure.headers.first?.name == "Allow")
        #expect(Self.status("DELETE /x HTTP/1.1\r\n\r\n") == 405)
    }

    @Test func malformedRequestsAre400() {
        for text in [
            "GET /\r\n\r\n", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/1.1 extra\r\n\r\n",
            "GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n", "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
            "GET / HTTP/1.1\r\nHost : a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", "GET / HTTP/1.1\r\nHost: a\u{1}\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", "GET /a\u{7F}b HTTP/1.1\r\n\r\n",
        ] {
            #expect(Self.status(text) == 400, "\(text.debugDescription)")
        }
        #expect(Self.status("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == 505)
    }

    @Test func anOverlongRequestLineIs414AndTooManyHeadersAre431() {
        let long = "GET /" + String(repeating: "a", count: 2100) + " HTTP/1.1\r\n\r\n"
        #expect(Self.status(long) == 414)
        // Refused as soon as the limit is passed, without the rest of the line.
        var parser = HTTPRequestParser()
        parser.append(Array(("GET /" + String(repeating: "a", count: 2100)).utf8))
        if case .failure(let failure) = parser.next() { #expect(failure.status == 414) } else { Issue.record("held") }

        let many = "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<70).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(Self.status(many) == 431)
        let big = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 9000) + "\r\n\r\n"
        #expect(Self.status(big) == 431)
        let fits = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 8000) + "\r\n\r\n"
        #expect(Self.status(fits) == nil)
    }

    @Test func routesAreExactAndNothingElseIsFound() {
        let assets: Set<String> = ["index.html", "app.js", "mode-shaky.js"]
        #expect(HTTPRoute.route(path: "/", assets: assets) == .page)
        #expect(HTTPRoute.route(path: "/board", assets: assets) == .page)
        #expect(HTTPRoute.route(path: "/ABCD", assets: assets) == .page)
        #expect(HTTPRoute.route(path: "/abcd1234", assets: assets) == .page)
        #expect(HTTPRoute.route(path: "/ws", assets: assets) == .webSocket)
        #expect(HTTPRoute.route(path: "/app.js", assets: assets) == .asset("app.js"))
        #expect(HTTPRoute.route(path: "/mode-shaky.js", assets: assets) == .asset("mode-shaky.js"))
        for path in [
            "/../etc/passwd", "/%2e%2e/etc/passwd", "/..%2fapp.js", "/.%2e/", "/\\app.js", "/x/app.js", "//app.js",
            "/app.js/", "/ABC", "/ABCDEFGHI", "/AB-CD", "/favicon.ico", "/Package.swift", "/app.js%00", "",
        ] {
            #expect(HTTPRoute.route(path: path, assets: assets) == nil, "\(path)")
        }
    }

    @Test func recordingsAreRoutedAsAListAndAFileToLookUpNeverAsAPath() {
        let assets: Set<String> = ["index.html"]
        #expect(
            HTTPRoute.route(path: "/audio/en/sunflower.ogg", assets: assets)
                == .audio(list: "en", file: "sunflower.ogg"))
        #expect(
            HTTPRoute.route(path: "/audio/sv/sol%C3%B6ga.mp3", assets: assets)
                == .audio(list: "sv", file: "sol%C3%B6ga.mp3"))
        for path in [
            "/audio/en/../../etc/passwd", "/audio/en/x/sunflower.ogg", "/audio/en/.ogg", "/audio//sun.ogg",
            "/audio/en/", "/audio/en", "/audio/../en/sun.ogg", "/audio/en/sun\\.ogg", "/audio/e.n/sun.ogg",
            "/audio/en/sun flower.ogg",
        ] {
            #expect(HTTPRoute.route(path: path, assets: assets) == nil, "\(path)")
        }
    }

    @Test func aRefusalSaysWhyInPlainTextAndAHeadAnswerHasNoBody() {
        let failure = HTTPFailure(405, "Only GET.", headers: [("Allow", "GET, HEAD")])
        let text = String(decoding: HTTPResponse.failure(failure), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        #expect(text.contains("\r\nAllow: GET, HEAD\r\n"))
        #expect(text.contains("\r\nConnection: close\r\n"))
        #expect(text.hasSuffix("\r\n\r\n405 Method Not Allowed: Only GET.\n"))
        let head = String(decoding: HTTPResponse.failure(failure, isHead: true), as: UTF8.self)
        #expect(head.hasSuffix("\r\n\r\n"))
        #expect(head.contains("Content-Length: \("405 Method Not Allowed: Only GET.\n".utf8.count)"))
    }
}
