import Foundation
import Net
import Rules
import Protocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Fairness error: how well the host's press-time estimates (PROTOCOL.md §9) recover the true gap between two
// presses when one team sits behind a slow, jittery link. See BENCHMARKS.md, section 5.

/// A player connection with its own clock that answers the host's clock-sync probes from its reader thread.
///
/// Its clock is the monotonic clock plus `clockOffset`, so every client reads a different time and the host has
/// to estimate each offset. Probes are answered the moment they arrive (receipt time taken right after `recv`);
/// every other message waits in an inbox for `waitFor`.
final class SyncClient: @unchecked Sendable {
    let clockOffset: Int64
    private let socket: Socket
    private let condition = NSCondition()
    private let writeLock = NSLock()
    private var inbox: [(at: Int64, message: JSONValue)] = []
    private var isOpen = true
    private var answeredProbes = 0
    private var lastProbe: JSONValue?
    /// A cheat for tests: hold every sync reply this long while claiming it was sent at once (`c1 = c2`).
    private let syncReplyDelay: Int64

    /// Connects to `port`, sends `hello` and waits for `welcome`.
    init(port: UInt16, hello: JSONObject, clockOffset: Int64 = 0, syncReplyDelay: Int64 = 0) throws {
        self.syncReplyDelay = syncReplyDelay
        self.clockOffset = clockOffset
        do {
            socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
        } catch {
            throw BenchError("connecting a fairness client failed: \(error)")
        }
        var one: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let thread = Thread { [self] in readLoop() }
        thread.stackSize = 1 << 20
        thread.start()
        try send(hello)
        _ = try waitFor("welcome", timeout: 10)
    }

    deinit { socket.close() }

    /// This client's clock: monotonic milliseconds shifted by `clockOffset`.
    func clock() -> Int64 { MonotonicClock.milliseconds() + clockOffset }

    /// Ends the connection (the reader thread then ends too).
    func close() { _ = Glue.shutdown(socket.fd, Int32(SHUT_RDWR)) }

    func send(_ message: JSONObject) throws {
        let bytes = JSONEncoding.encodeLine(.object(message))
        try writeLock.withLock {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glue.send(socket.fd, $0.baseAddress, $0.count, sendFlags) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw BenchError("a fairness client's send failed: errno \(errno)") }
                offset += written
            }
        }
    }

    /// How many probes were answered, and the latest probe (it carries the host's `offset`, `rtt`, `uncertainty`).
    var syncState: (answered: Int, last: JSONValue?) { condition.withLock { (answeredProbes, lastProbe) } }

    /// Waits until at least `count` probes were answered.
    func waitForSyncs(_ count: Int, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while answeredProbes < count {
            guard isOpen, condition.wait(until: deadline) || answeredProbes >= count else {
                throw BenchError("only \(answeredProbes) of \(count) sync probes arrived within \(timeout) s")
            }
        }
    }

    /// Waits for a message of `type` matching `predicate`; other messages stay in the inbox.
    @discardableResult
    func waitFor(_ type: String, timeout: Double = 5, where predicate: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        try waitForTimed(type, timeout: timeout, where: predicate).message
    }

    /// Buzzes now, stamping the press with this client's clock less `lie` ms (a forged, earlier press).
    func buzz(forgedBy lie: Int64 = 0) throws {
        try send(["type": "buzz", "t": .int(clock() - lie)])
    }

    /// Waits for a message of `type` matching `predicate`; returns it with the monotonic ns it was read.
    /// Other messages stay in the inbox.
    func waitForTimed(_ type: String, timeout: Double = 5, where predicate: (JSONValue) -> Bool = { _ in true }) throws -> (at: Int64, message: JSONValue) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = inbox.firstIndex(where: { $0.message["type"]?.stringValue == type && predicate($0.message) }) {
                return inbox.remove(at: index)
            }
            guard isOpen else { throw BenchError("a fairness client's connection closed while waiting for \(type)") }
            if !condition.wait(until: deadline) {
                let recent = inbox.suffix(4).map(\.message.description).joined(separator: " | ")
                throw BenchError("no \(type) message within \(timeout) s; last received: \(recent)")
            }
        }
    }

    /// Forgets every message received so far, except those of type `kept`.
    func drain(keeping kept: String? = nil) {
        condition.withLock { inbox.removeAll { kept == nil || $0.message["type"]?.stringValue != kept } }
    }

    private func readLoop() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glue.recv(socket.fd, $0.baseAddress, $0.count, 0) }
            let receivedAt = MonotonicClock.nanoseconds()
            let received = receivedAt / 1_000_000 + clockOffset
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(contentsOf: chunk[0..<count])
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                guard let message = try? JSONParsing.parse(line) else { continue }
                if message["type"]?.stringValue == "sync", let sequence = message["n"], let hostSent = message["h"] {
                    if syncReplyDelay > 0 {
                        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(syncReplyDelay))) { [self] in
                            let sent = clock()
                            try? send(["type": "sync", "n": sequence, "h": hostSent, "c1": .int(sent), "c2": .int(sent)])
                        }
                    } else {
                        try? send(["type": "sync", "n": sequence, "h": hostSent, "c1": .int(received), "c2": .int(clock())])
                    }
                    condition.withLock {
                        answeredProbes += 1
                        lastProbe = message
                        condition.broadcast()
                    }
                } else if message["type"]?.stringValue == "ping" {
                    try? send(["type": "pong"])
                } else {
                    condition.withLock {
                        inbox.append((receivedAt, message))
                        condition.broadcast()
                    }
                }
            }
        }
        condition.withLock {
            isOpen = false
            condition.broadcast()
        }
    }
}

/// A TCP proxy on 127.0.0.1 that delays every byte it forwards by a one-way delay ± jitter, per direction.
///
/// Each accepted connection gets its own connection to the target. A chunk read from one side is released to the
/// other at `max(previous release, arrival + delay + jitter)`: jitter varies the latency but never reorders bytes,
/// as TCP would not. One thread per direction; the jitter comes from a seeded generator, so runs repeat.
final class LatencyProxy: @unchecked Sendable {
    /// The port clients connect to.
    let port: UInt16
    private let targetPort: UInt16
    private let listener: Socket
    private let delayMilliseconds: Double
    private let jitterMilliseconds: Double
    private let lock = NSLock()
    private var isStopped = false
    private var sockets: [Socket] = []
    private var connectionCount: UInt64 = 0
    private var runningThreads = 0
    private let seed: UInt64

    /// Listens on an ephemeral loopback port and forwards to `127.0.0.1:targetPort` with `delay` ± `jitter` ms each way.
    init(targetPort: UInt16, delay: Double, jitter: Double, seed: UInt64 = 0) throws {
        self.seed = seed
        self.targetPort = targetPort
        delayMilliseconds = delay
        jitterMilliseconds = jitter
        do {
            listener = try Socket.makeListener(address: "127.0.0.1", port: 0)
            port = try listener.localPort()
        } catch {
            throw BenchError("the delay proxy cannot listen: \(error)")
        }
        startThread { $0.acceptLoop() }
    }

    /// Stops accepting, closes every proxied connection and waits briefly for the threads to end.
    func stop() {
        let toClose: [Socket] = lock.withLock {
            guard !isStopped else { return [] }
            isStopped = true
            return sockets
        }
        for socket in toClose { _ = Glue.shutdown(socket.fd, Int32(SHUT_RDWR)) }
        let deadline = Date().addingTimeInterval(2)
        while lock.withLock({ runningThreads > 0 }) && Date() < deadline { usleep(5_000) }
        lock.withLock {
            for socket in sockets { socket.close() }
            sockets.removeAll()
        }
        listener.close()
    }

    private var stopped: Bool { lock.withLock { isStopped } }

    private func startThread(_ body: @escaping @Sendable (LatencyProxy) -> Void) {
        lock.withLock { runningThreads += 1 }
        let thread = Thread { [self] in
            body(self)
            lock.withLock { runningThreads -= 1 }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func acceptLoop() {
        while !stopped {
            var descriptor = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            guard let (client, _) = try? listener.accept() else { continue }
            guard let upstream = try? Socket.connectBlocking(host: "127.0.0.1", port: targetPort) else {
                client.close()
                continue
            }
            for socket in [client, upstream] {
                var one: Int32 = 1
                setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                let flags = fcntl(socket.fd, F_GETFL, 0)
                _ = fcntl(socket.fd, F_SETFL, flags & ~O_NONBLOCK)  // writes block; reads go through poll
            }
            let number: UInt64 = lock.withLock {
                sockets += [client, upstream]
                connectionCount += 1
                return connectionCount
            }
            startThread { $0.pump(from: client, to: upstream, seed: number &* 2) }
            startThread { $0.pump(from: upstream, to: client, seed: number &* 2 &+ 1) }
        }
    }

    /// Forwards `source` to `destination` with the delay, until either side closes or the proxy stops.
    private func pump(from source: Socket, to destination: Socket, seed: UInt64) {
        var random = SplitMix64(seed: 0x5EED_0000 &+ (self.seed << 20) &+ seed)
        var queue: [(release: Int64, bytes: [UInt8])] = []
        var lastRelease: Int64 = 0
        var isSourceOpen = true
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !stopped && (isSourceOpen || !queue.isEmpty) {
            let now = MonotonicClock.nanoseconds()
            if let head = queue.first, head.release <= now {
                queue.removeFirst()
                guard Self.writeAll(head.bytes, to: destination) else { break }
                continue
            }
            var timeout: Int32 = 50
            if let head = queue.first {
                // Wake a little early and spin the rest, so releases are not late by a scheduler tick.
                let left = head.release - now
                timeout = left > 1_500_000 ? Int32(clamping: (left - 1_000_000) / 1_000_000) : 0
            }
            guard isSourceOpen else {
                usleep(timeout > 0 ? UInt32(timeout) * 1000 : 100)
                continue
            }
            var descriptor = pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, timeout) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { Glue.recv(source.fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                isSourceOpen = false
                continue
            }
            let arrival = MonotonicClock.nanoseconds()
            let jitter = jitterMilliseconds > 0 ? Double.random(in: -jitterMilliseconds...jitterMilliseconds, using: &random) : 0
            let release = max(lastRelease, arrival + Int64((delayMilliseconds + jitter) * 1_000_000))
            lastRelease = release
            queue.append((release, Array(chunk[0..<count])))
        }
        _ = Glue.shutdown(destination.fd, Int32(SHUT_WR))  // pass the end of stream on
    }

    private static func writeAll(_ bytes: [UInt8], to socket: Socket) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glue.send(socket.fd, $0.baseAddress, $0.count, sendFlags) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

/// Fairness error: Red (behind a delay proxy) presses `gap` ms before Blue (direct); how far the host's estimated
/// gap is from the true one, and how often Red is put first.
struct FairnessRun {
    let context: BenchContext
    var options: BenchOptions { context.options }

    /// One configuration: a one-way delay for Red and whether the host runs fair buzzing.
    struct Setting {
        var delay: Double
        var isFair: Bool
        /// Jitter: an eighth of the delay, at least 1 ms (none without delay).
        var jitter: Double { delay == 0 ? 0 : max(1, delay / 8) }
    }

    /// What the trials of one setting found.
    struct Outcome {
        var setting: Setting
        var trials = 0
        /// Fresh hosts and connections the trials were spread over.
        var connections = 0
        /// Estimated gap (Blue − Red) minus the true gap, per completed trial, ms.
        var errors: [Double] = []
        var trueGaps: [Double] = []
        var orderRight = 0
        var ties = 0
        /// Red's press to the two-entry `buzzed` read by Blue, ms (the settle window shows here).
        var announced: [Double] = []
        var redProbe: JSONValue?
        var blueProbe: JSONValue?
        var seconds = 0.0
        var failure: String?

        var absoluteErrors: [Double] { errors.map(abs) }

        var json: JSONValue {
            let sorted = absoluteErrors.sorted()
            let signed = errors.sorted()
            var object: JSONObject = [
                "delayMs": .double(setting.delay), "jitterMs": .double(setting.jitter), "fairness": .bool(setting.isFair),
                "trials": .number(trials), "completed": .number(errors.count), "connections": .number(connections),
                "trueGapMs": Summary(trueGaps).json,
                "absErrorMs": .object(["p50": .double(rounded(Summary.percentile(sorted, 0.50))),
                                       "p95": .double(rounded(Summary.percentile(sorted, 0.95))),
                                       "max": .double(rounded(sorted.last ?? 0)),
                                       "mean": .double(rounded(sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)))]),
                "signedErrorMs": .object(["min": .double(rounded(signed.first ?? 0)),
                                          "p50": .double(rounded(Summary.percentile(signed, 0.50))),
                                          "max": .double(rounded(signed.last ?? 0)),
                                          "mean": .double(rounded(signed.isEmpty ? 0 : signed.reduce(0, +) / Double(signed.count)))]),
                "orderRight": .number(orderRight), "ties": .number(ties),
                "announcedMs": Summary(announced).json,
                "seconds": .double(rounded(seconds)),
            ]
            func view(_ probe: JSONValue?) -> JSONValue {
                guard let probe else { return .null }
                return .object(["rtt": probe["rtt"] ?? .null, "uncertainty": probe["uncertainty"] ?? .null])
            }
            object["hostViewOfRed"] = view(redProbe)
            object["hostViewOfBlue"] = view(blueProbe)
            if let failure { object["failure"] = .string(failure) }
            return .object(object)
        }
    }

    /// Sleeps, then spins for the last millisecond, until the monotonic clock reads `target` ns.
    static func sleep(until target: Int64) {
        while true {
            let left = target - MonotonicClock.nanoseconds()
            if left <= 0 { return }
            if left > 1_500_000 { usleep(UInt32((left - 1_000_000) / 1000)) }
        }
    }

    /// Runs every setting and adds the section, its table rows and its problems to `report`.
    func run(report: Report) {
        var settings = options.fairnessDelays.map { Setting(delay: $0, isFair: true) }
        if let unfair = options.fairnessOffDelay { settings.append(Setting(delay: unfair, isFair: false)) }
        var runs: [JSONValue] = []
        for setting in settings {
            context.say("fairness: Red behind \(Int(setting.delay)) ± \(formatMilliseconds(setting.jitter)) ms one way, Blue direct, "
                        + "Red presses \(options.fairnessGapMs) ms first; \(options.fairnessTrials) trials, fairness \(setting.isFair ? "on" : "off")")
            let outcome = measure(setting)
            runs.append(outcome.json)
            let sorted = outcome.absoluteErrors.sorted()
            let label = "Fairness error (abs) p50/p95/max, Red +\(Int(setting.delay))±\(formatMilliseconds(setting.jitter)) ms"
                + (setting.isFair ? "" : " (fairness off)")
            let value: String
            if outcome.errors.isEmpty {
                value = "failed"
            } else {
                value = "\(formatMilliseconds(Summary.percentile(sorted, 0.5))) / \(formatMilliseconds(Summary.percentile(sorted, 0.95))) / "
                    + "\(formatMilliseconds(sorted.last ?? 0)) ms; Red first \(outcome.orderRight)/\(outcome.errors.count), \(outcome.ties) tied"
            }
            report.add(TableRow(measure: label, value: value))
            if let failure = outcome.failure {
                report.problems.append("fairness, Red +\(Int(setting.delay)) ms, fairness \(setting.isFair ? "on" : "off"): \(failure)")
            }
        }
        report.sections["fairness"] = .object([
            "gapMs": .number(options.fairnessGapMs), "trials": .number(options.fairnessTrials),
            "trialsPerConnection": .number(options.fairnessTrialsPerConnection),
            "redClockOffsetMs": .int(FairnessRun.redClockOffset), "blueClockOffsetMs": .int(FairnessRun.blueClockOffset),
            "runs": .array(runs)])
    }

    static let redClockOffset: Int64 = 123_456
    static let blueClockOffset: Int64 = 7_654_321

    /// Runs the setting's trials in blocks of `fairnessTrialsPerConnection`, each block on a fresh host with a fresh
    /// proxy (its own jitter draws) and fresh clients, so the trials sample several clock-offset estimates, not one.
    func measure(_ setting: Setting) -> Outcome {
        var outcome = Outcome(setting: setting)
        let began = MonotonicClock.nanoseconds()
        var remaining = options.fairnessTrials
        var block: UInt64 = 0
        while remaining > 0 && outcome.failure == nil {
            let trials = min(remaining, options.fairnessTrialsPerConnection)
            block += 1
            measureBlock(setting, trials: trials, seed: block &* 1000 &+ UInt64(setting.delay), into: &outcome)
            outcome.connections += 1
            remaining -= trials
        }
        outcome.seconds = Double(MonotonicClock.nanoseconds() - began) / 1e9
        return outcome
    }

    /// One host, one proxy, Red through it and Blue direct; `trials` questions with a press pair each.
    func measureBlock(_ setting: Setting, trials: Int, seed: UInt64, into outcome: inout Outcome) {
        let session: HostSession
        do {
            session = try HostSession(context: context, capacity: 0, maxClients: 64, fsync: false,
                                      extra: ["--idle-timeout", "3600", "--fairness", setting.isFair ? "on" : "off"])
        } catch {
            outcome.failure = "\(error)"
            return
        }
        defer { session.close() }
        var proxy: LatencyProxy?
        var clients: [SyncClient] = []
        defer {
            for client in clients { client.close() }
            proxy?.stop()
        }
        do {
            let slow = try LatencyProxy(targetPort: session.host.port, delay: setting.delay, jitter: setting.jitter, seed: seed)
            proxy = slow
            func hello(_ name: String, _ team: String) -> JSONObject {
                ["type": "hello", "protocol": 1, "room": .string(session.room), "name": .string(name), "team": .string(team),
                 "role": "player", "clock": true]
            }
            let red = try SyncClient(port: slow.port, hello: hello("Rita", "Red"), clockOffset: FairnessRun.redClockOffset)
            clients.append(red)
            let blue = try SyncClient(port: session.host.port, hello: hello("Bo", "Blue"), clockOffset: FairnessRun.blueClockOffset)
            clients.append(blue)
            // The burst: a probe at once, five more 100 ms apart.
            try red.waitForSyncs(6, timeout: 10)
            try blue.waitForSyncs(6, timeout: 10)
            try session.request(["type": "start", "game": "shaky", "questions": .number(trials + 1), "revealSeconds": 0,
                                 "questionSeconds": 3600, "afterBuzzSeconds": 3600, "answerSeconds": 3600])
            let gapNanoseconds = Int64(options.fairnessGapMs) * 1_000_000
            for number in 1...trials {
                outcome.trials += 1
                try blue.waitFor("question", timeout: 10) { $0["number"]?.intValue == Int64(number) }
                // Press on a millisecond boundary, so each stamp is the press instant exactly (clocks are in ms).
                let now = MonotonicClock.nanoseconds()
                let press = (now / 1_000_000 + 10) * 1_000_000
                FairnessRun.sleep(until: press)
                let redStamp = red.clock()
                try red.send(["type": "buzz", "t": .int(redStamp)])
                FairnessRun.sleep(until: press + gapNanoseconds)
                let blueStamp = blue.clock()
                try blue.send(["type": "buzz", "t": .int(blueStamp)])
                let (seenAt, buzzed) = try blue.waitForTimed("buzzed", timeout: 10) { ($0["entries"]?.arrayValue?.count ?? 0) == 2 }
                let entries = buzzed["entries"]?.arrayValue ?? []
                func offset(_ team: String) -> Int64? { entries.first { $0["team"]?.stringValue == team }?["offsetMs"]?.intValue }
                guard let redOffset = offset("Red"), let blueOffset = offset("Blue") else {
                    throw BenchError("a buzzed without both teams' offsets: \(buzzed)")
                }
                // The truth in common monotonic ms: each stamp minus its client's clock offset.
                let trueGap = Double((blueStamp - FairnessRun.blueClockOffset) - (redStamp - FairnessRun.redClockOffset))
                outcome.trueGaps.append(trueGap)
                outcome.errors.append(Double(blueOffset - redOffset) - trueGap)
                if entries.first?["team"]?.stringValue == "Red" { outcome.orderRight += 1 }
                if entries.contains(where: { $0["tie"] == true }) { outcome.ties += 1 }
                outcome.announced.append(Double(seenAt - press) / 1e6)
                // End the question and open the next one.
                try session.request(["type": "next"])
                try session.request(["type": "next"])
                session.clearAdminInbox()
                red.drain()
                blue.drain(keeping: "question")
            }
            outcome.redProbe = red.syncState.last
            outcome.blueProbe = blue.syncState.last
        } catch {
            outcome.failure = "\(error)"
        }
    }
}
