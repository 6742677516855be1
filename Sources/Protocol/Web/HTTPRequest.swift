/// One HTTP/1.1 request head (RFC 9112): the request line and the header fields, nothing of a body.
public struct HTTPRequestHead: Equatable, Sendable {
    /// The method as sent (only `GET` and `HEAD` ever leave the parser).
    public var method: String
    /// The request target as sent (origin form: starts with `/`).
    public var target: String
    /// The minor version of HTTP/1.x (0 or 1).
    public var minorVersion: Int
    /// The header fields in order, names lowercased, values trimmed of surrounding spaces and tabs.
    public var headers: [(name: String, value: String)]

    /// Creates a head from its parts (header names are lowercased here).
    public init(method: String, target: String, minorVersion: Int = 1, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers.map { (name: $0.name.lowercased(), value: $0.value) }
    }

    /// The value of the header `name` (case-insensitive); several fields of that name are joined with commas.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        let values = headers.filter { $0.name == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// How many fields named `name` the head has.
    public func count(of name: String) -> Int {
        let wanted = name.lowercased()
        return headers.reduce(0) { $0 + ($1.name == wanted ? 1 : 0) }
    }

    /// Whether the comma-separated header `name` lists `token` (case-insensitive), as `Connection: keep-alive, Upgrade`.
    public func headerLists(_ name: String, token: String) -> Bool {
        guard let value = header(name) else { return false }
        return value.split(separator: ",").contains {
            $0.trimmingSpacesAndTabs.lowercased() == token.lowercased()
        }
    }

    /// The path of the target without its query (`/ABCD?x=1` → `/ABCD`).
    public var path: String {
        if let question = target.firstIndex(of: "?") { return String(target[..<question]) }
        return target
    }

    /// Whether the connection stays open after the answer (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with
    /// `Connection: keep-alive`).
    public var keepsAlive: Bool {
        if headerLists("connection", token: "close") { return false }
        return minorVersion >= 1 || headerLists("connection", token: "keep-alive")
    }

    /// Compares heads field by field (tuples are not `Equatable`).
    public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

/// A request the host will not serve, with the status that says why and a sentence for the person behind it.
public struct HTTPFailure: Error, Equatable, Sendable {
    /// The status code (400, 403, 404, 405, 408, 414, 426, 431, 505).
    public var status: Int
    /// What went wrong, in words a person can act on (the plain-text body of the answer).
    public var message: String
    /// Extra header fields the answer carries (`Allow`, `Upgrade`, `Sec-WebSocket-Version`).
    public var headers: [(name: String, value: String)]

    /// Creates a failure.
    public init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// Compares failures field by field.
    public static func == (lhs: HTTPFailure, rhs: HTTPFailure) -> Bool {
        lhs.status == rhs.status && lhs.message == rhs.message && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

/// Reads HTTP/1.1 request heads from a byte stream, fed in chunks of any size (one byte at a time is fine).
///
/// It takes `GET` and `HEAD` only, with no body, and bounds what it holds: a request line longer than
/// `maximumRequestLineLength` (414), header fields longer than `maximumHeaderBytes` in all or more than
/// `maximumHeaderLines` of them (431). Anything malformed is a 400; another method a 405; another version a 505.
/// After a head it keeps the bytes that follow (a pipelined request, or the first WebSocket frames).
public struct HTTPRequestParser: Sendable {
    /// What `next()` found.
    public enum Output: Equatable, Sendable {
        /// A complete head that may be answered.
        case head(HTTPRequestHead)
        /// A request that must be refused; the connection closes after the answer.
        case failure(HTTPFailure)
    }

    /// The longest request line taken, in bytes (without its line end).
    public static let maximumRequestLineLength = 2048
    /// The most header bytes taken after the request line, line ends included.
    public static let maximumHeaderBytes = 8192
    /// The most header lines taken.
    public static let maximumHeaderLines = 64

    private var buffer: [UInt8] = []
    /// Where the line being read starts in `buffer`.
    private var lineStart = 0
    /// How far `buffer` has been scanned for line ends.
    private var scanned = 0
    private var requestLine: (method: String, target: String, minor: Int)?
    private var headers: [(name: String, value: String)] = []
    private var headerBytes = 0
    /// Empty lines before the request line (RFC 9112 §2.2 allows a few).
    private var leadingEmptyLines = 0
    private var isFailed = false

    /// Creates a parser with nothing read.
    public init() {}

    /// Whether bytes of an unfinished head are held (a request that has begun).
    public var hasPartialHead: Bool { !buffer.isEmpty }

    /// Adds bytes read from the connection.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard !isFailed else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Takes the bytes after the last head returned (for a connection that switches protocol), leaving none.
    public mutating func takeRemainder() -> [UInt8] {
        defer {
            buffer = []
            lineStart = 0
            scanned = 0
        }
        return buffer
    }

    /// The next complete head or failure in the bytes appended so far; nil when more bytes are needed.
    public mutating func next() -> Output? {
        guard !isFailed else { return nil }
        while scanned < buffer.count {
            let byte = buffer[scanned]
            scanned += 1
            if byte != 0x0A {
                if let failure = checkLength(upTo: scanned) { return fail(failure) }
                continue
            }
            var lineEnd = scanned - 1
            if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = buffer[lineStart..<lineEnd]
            let consumed = scanned - lineStart
            lineStart = scanned
            if let output = take(line: line, consumed: consumed) { return output }
        }
        return nil
    }

    private mutating func checkLength(upTo end: Int) -> HTTPFailure? {
        let length = end - lineStart
        if requestLine == nil {
            guard length > HTTPRequestParser.maximumRequestLineLength + 1 else { return nil }
            return HTTPFailure(
                414, "The request line is longer than \(HTTPRequestParser.maximumRequestLineLength) bytes.")
        }
        guard headerBytes + length > HTTPRequestParser.maximumHeaderBytes else { return nil }
        return HTTPFailure(
            431, "The request's header fields are longer than \(HTTPRequestParser.maximumHeaderBytes) bytes.")
    }

    private mutating func take(line: ArraySlice<UInt8>, consumed: Int) -> Output? {
        guard let (method, target, minor) = requestLine else {
            if line.isEmpty {
                leadingEmptyLines += 1
                return leadingEmptyLines > 4 ? fail(HTTPFailure(400, "The request begins with empty lines.")) : nil
            }
            switch Self.parseRequestLine(line) {
            case .success(let parsed): requestLine = parsed
            case .failure(let failure): return fail(failure)
            }
            return nil
        }
        headerBytes += consumed
        if let failure = checkLength(upTo: lineStart) { return fail(failure) }
        guard !line.isEmpty else {
            let head = HTTPRequestHead(method: method, target: target, minorVersion: minor, headers: headers)
            // Drop the head's bytes, keep what follows.
            buffer.removeFirst(lineStart)
            lineStart = 0
            scanned = 0
            requestLine = nil
            headers = []
            headerBytes = 0
            leadingEmptyLines = 0
            if let failure = Self.check(head) { return fail(failure) }
            return .head(head)
        }
        guard headers.count < HTTPRequestParser.maximumHeaderLines else {
            return fail(
                HTTPFailure(431, "The request has more than \(HTTPRequestParser.maximumHeaderLines) header lines."))
        }
        switch Self.parseHeader(line) {
        case .success(let field): headers.append(field)
        case .failure(let failure): return fail(failure)
        }
        return nil
    }

    private mutating func fail(_ failure: HTTPFailure) -> Output {
        isFailed = true
        buffer = []
        return .failure(failure)
    }

    /// The allowed methods, as the `Allow` header of a 405 names them.
    public static let allowedMethods = "GET, HEAD"

    private static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) -> Result<(method: String, target: String, minor: Int), HTTPFailure> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        let malformed = HTTPFailure(400, "The request line is not METHOD /path HTTP/1.1.")
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failure(malformed) }
        let method = String(decoding: parts[0], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            guard version.hasPrefix("HTTP/"), version.count == 8 else { return .failure(malformed) }
            return .failure(HTTPFailure(505, "Only HTTP/1.1 is spoken here, not \(version)."))
        }
        guard method == "GET" || method == "HEAD" else {
            return .failure(
                HTTPFailure(
                    405, "This host answers only GET and HEAD requests.", headers: [("Allow", allowedMethods)]))
        }
        let target = String(decoding: parts[1], as: UTF8.self)
        guard target.hasPrefix("/") else {
            return .failure(HTTPFailure(400, "The request target must be a path that starts with /."))
        }
        return .success((method, target, minor))
    }

    private static func parseHeader(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), HTTPFailure> {
        guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else {
            return .failure(HTTPFailure(400, "A header line has no name: it must be Name: value."))
        }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenByte) else {
            // Covers obsolete line folding (a line starting with a space) and a space before the colon.
            return .failure(HTTPFailure(400, "A header name holds a space or a character a name cannot have."))
        }
        let value = line[line.index(after: colon)...]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(HTTPFailure(400, "A header value holds a control character."))
        }
        return .success(
            (
                String(decoding: name, as: UTF8.self).lowercased(),
                String(decoding: value, as: UTF8.self).trimmingSpacesAndTabs
            ))
    }

    /// Checks what a whole head must satisfy: one Host (HTTP/1.1), no body.
    private static func check(_ head: HTTPRequestHead) -> HTTPFailure? {
        let hosts = head.count(of: "host")
        if hosts > 1 || (head.minorVersion >= 1 && hosts == 0) {
            return HTTPFailure(400, "An HTTP/1.1 request needs exactly one Host header.")
        }
        if head.header("transfer-encoding") != nil
            || head.header("content-length").map({ $0.trimmingSpacesAndTabs != "0" }) == true
        {
            return HTTPFailure(400, "A GET or HEAD request here carries no body.")
        }
        return nil
    }

    /// Whether `byte` may appear in a token (RFC 9110 §5.6.2): a method or a header name.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpacesAndTabs: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
