import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
    import CSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a received line is, judged from its first bytes (`{"type":"…"`): the host writes `type` first.
enum LineKind: UInt8 {
    case welcome, lobby, buzzed, buzzedUpdate, question, reveal, ping, pong, ok, error, other
    /// A game's `result` (Compound words: a team's pick) and Let Me Fly's `roundOver`, which the mode storms count.
    case result, roundOver
    /// Odd One Out's lock-ins and the hunt's progress, whole and as deltas, which their storms follow.
    case lockedIn, lockedInUpdate, progress, progressUpdate
    /// The host's clock-sync probe (§9), which clients that joined with `clock: true` answer at once.
    case sync

    /// The kind named by the start of a line.
    static func classify(_ head: [UInt8]) -> LineKind {
        let prefix: [UInt8] = Array("{\"type\":\"".utf8)
        guard head.count > prefix.count, head.starts(with: prefix) else { return .other }
        let name = head[prefix.count...].prefix { $0 != UInt8(ascii: "\"") }
        switch String(decoding: name, as: UTF8.self) {
        case "welcome": return .welcome
        case "lobby", "lobbyUpdate", "teams", "teamsUpdate": return .lobby
        case "buzzed": return .buzzed
        case "buzzedUpdate": return .buzzedUpdate
        case "question", "puzzle": return .question
        case "reveal": return .reveal
        case "ping": return .ping
        case "pong": return .pong
        case "ok": return .ok
        case "error": return .error
        case "result": return .result
        case "roundOver": return .roundOver
        case "lockedIn": return .lockedIn
        case "lockedInUpdate": return .lockedInUpdate
        case "progress": return .progress
        case "progressUpdate": return .progressUpdate
        case "sync": return .sync
        default: return .other
        }
    }
}

extension LineKind {
    /// The answer to a `sync` probe line: its `n` and `h` echoed, `c1` and `c2` this process's monotonic clock in
    /// ms (the clock the bench's clients stamp their presses with); nil for a probe without them.
    static func syncReply(_ body: [UInt8]?) -> [UInt8]? {
        guard let body, let probe = try? JSONParsing.parse(body), let n = probe["n"]?.intValue,
            let h = probe["h"]?.intValue
        else { return nil }
        let now = MonotonicClock.milliseconds()
        return Array("{\"type\":\"sync\",\"n\":\(n),\"h\":\(h),\"c1\":\(now),\"c2\":\(now)}\n".utf8)
    }
}

/// A line a reader thread finished, with the monotonic time its last bytes were read.
struct ReceivedLine {
    var slot: Int
    var kind: LineKind
    /// Monotonic nanoseconds right after the `recv` that completed the line.
    var at: Int64
    /// The whole line (without the newline), only where the pool keeps bodies.
    var body: [UInt8]?
    /// Number of `{` in the line: for a `lobby`, one more than the players it lists.
    var braces: Int
    /// A `lobby`/`lobbyUpdate`'s `count` (players in the room), when the line's start carries it.
    var count: Int?
    /// A `buzzed` or `buzzedUpdate`, decoded, where the pool follows buzz orders.
    var order: OrderLine?
    /// A lock-in list or progress message, as the mode storms follow it.
    var list: ListLine?
}

/// A message of a mode's growing list (Odd One Out's `lockedIn`, the hunt's `progress`, and their deltas), as a mode
/// storm's clients follow it: by `seq`, counting the items that reached the storm's goal (a lock-in; a row past the
/// first station), each of which reaches it once in a storm. A whole message says how many have; a delta, how many
/// more (its items, counted by their braces, so the readers never copy a delta's bytes).
struct ListLine {
    /// Whether the message is the whole list (else a delta).
    var isWhole: Bool
    /// The list's version (a whole's, or the one a delta makes).
    var seq: Int?
    /// Items that reached the goal: in the whole list, or newly in the delta.
    var reached: Int

    /// A row of a whole `progress` past the first station: `"station":1,`.
    static let solvedRow = Array("\"station\":1,".utf8)

    /// The list line of a finished line of `kind` (nil when `kind` is no such list): `braces` counted over the line,
    /// its first bytes `head`, its last bytes `tail`, and its bytes `body` where kept (a whole `progress`).
    static func read(kind: LineKind, braces: Int, head: [UInt8], tail: [UInt8], body: [UInt8]?) -> ListLine? {
        // A whole ends with its `seq`; a delta starts with it (`{"type":"…Update","seq":N,…`).
        let seqAtEnd = LineAssembly.number(after: "\"seq\":", in: tail.isEmpty ? head : tail)
        let seqAtStart = LineAssembly.number(after: "\"seq\":", in: head)
        switch kind {
        case .lockedIn:
            return ListLine(isWhole: true, seq: seqAtEnd, reached: braces - 1)
        case .progress:
            return ListLine(isWhole: true, seq: seqAtEnd, reached: body.map(occurrences) ?? 0)
        case .lockedInUpdate, .progressUpdate:
            return ListLine(isWhole: false, seq: seqAtStart, reached: braces - 1)
        default:
            return nil
        }
    }

    /// How many times `solvedRow` occurs in `bytes`.
    static func occurrences(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        let last = bytes.count - solvedRow.count
        while index <= last {
            if bytes[index] == solvedRow[0], bytes[index..<(index + solvedRow.count)].elementsEqual(solvedRow) {
                count += 1
                index += solvedRow.count
            } else {
                index += 1
            }
        }
        return count
    }
}

/// A buzz order message as the storm's clients follow it (PROTOCOL.md §6.0).
///
/// A few clients (every `LineAssembly.decodedEvery`-th) decode every message and apply each delta's entries, which
/// proves the deltas fit; the others follow by `seq` and the entry count alone, so the bench's two reader threads
/// do not decode 10,000 deltas while they should be timing arrivals.
enum OrderLine {
    /// A whole `buzzed`: its bytes where the client decodes (only if a delta follows: a host that sends the whole
    /// order on every buzz would otherwise have the bench decode hundreds of MB), its entries and `seq`.
    case whole(body: [UInt8]?, entries: Int, seq: Int?)
    /// A `buzzedUpdate`, decoded.
    case delta(ShakyWire.BuzzedUpdate)
    /// A `buzzedUpdate` read from its first bytes only: its `seq` and the entries the order now has.
    case counted(seq: Int, count: Int)
}

/// The buzz order one client holds.
enum HeldOrder {
    case raw([UInt8], entries: Int)
    case decoded(ShakyWire.Buzzed)
    case counted(seq: Int?, entries: Int)

    var entries: Int {
        switch self {
        case .raw(_, let entries), .counted(_, let entries): return entries
        case .decoded(let order): return order.entries.count
        }
    }

    /// The order as a message, decoding the bytes when needed.
    var decoded: ShakyWire.Buzzed? {
        switch self {
        case .decoded(let order): return order
        case .raw(let body, _):
            return (try? JSONParsing.parse(body))?.objectValue.flatMap(ShakyWire.Buzzed.decode)
        case .counted: return nil
        }
    }
}

/// What the client driver has seen so far, shared by the reader threads (writers) and the driver (reader).
///
/// Readers record a batch of lines under the lock once per wake-up; the driver waits on the condition.
/// Times are taken by the readers before any locking, so the lock does not shift measurements.
final class Tally: @unchecked Sendable {
    let condition = NSCondition()
    let capacity: Int
    /// Slots whose arrivals count towards the driver's goals (players; not the operator).
    var isTarget: [Bool]
    /// Slots whose lines are kept whole in `inbox` (the operator, observers).
    var isKeeping: [Bool]
    var welcomeAt: [Int64]
    var welcomeBody: [[UInt8]?]
    var lobbyCount: [Int]
    var fullLobbyAt: [Int64]
    var questionCount: [Int]
    var lastQuestionAt: [Int64]
    var revealCount: [Int]
    var lastRevealAt: [Int64]
    var closedAt: [Int64]
    /// Arrival of the armed kind since `arm`, per slot (0: not yet).
    var arrivals: [Int64]
    var inbox: [[(at: Int64, kind: LineKind, body: [UInt8])]]

    var armedKind: LineKind?
    var arrivedTargets = 0
    var targetCount = 0
    var welcomeCount = 0
    var fullLobbyCount = 0
    /// A lobby listing at least this many players counts as "full" (join storm).
    var fullLobbyPlayers = Int.max
    var closedCount = 0
    var errorCount = 0
    var lastError = ""
    var pingCount = 0
    var questionGoal = Int.max
    var questionReached = 0
    var revealGoal = Int.max
    var revealReached = 0
    var bytesReceived = 0
    /// Bytes received per slot.
    var bytesBySlot: [Int]
    /// The buzz order each slot holds (where the pool follows orders), and when it first held `orderGoal` entries.
    var orders: [HeldOrder?]
    var orderCompleteAt: [Int64]
    var orderGoal = Int.max
    var orderCompleteCount = 0
    /// Order messages that did not follow what their slot held (a gap), and order messages in all.
    var orderGaps = 0
    var orderMessages = 0
    /// When the readers last got something other than keepalive pings (monotonic ns).
    var lastReceiveAt: Int64 = 0
    /// The kind of line the mode storms count per slot (`count(_:goal:)`), the counts, and when each slot first
    /// held `countGoal` of them (0: not yet).
    var countedKind: LineKind?
    var counted: [Int]
    var countedGoalAt: [Int64]
    var countGoal = Int.max
    /// Targets that hold `countGoal` lines of `countedKind`.
    var countReached = 0
    /// The mode storms' list per slot: its `seq`, the items that reached the goal, and when it first held
    /// `listGoal` of them (0: not yet).
    var listSeq: [Int?]
    var listReached: [Int]
    var listCompleteAt: [Int64]
    var listGoal = Int.max
    /// Targets whose list holds `listGoal` items; list messages that did not follow (gaps), and in all.
    var listCompleteCount = 0
    var listGaps = 0
    var listMessages = 0

    init(capacity: Int) {
        self.capacity = capacity
        isTarget = Array(repeating: false, count: capacity)
        isKeeping = Array(repeating: false, count: capacity)
        welcomeAt = Array(repeating: 0, count: capacity)
        welcomeBody = Array(repeating: nil, count: capacity)
        lobbyCount = Array(repeating: 0, count: capacity)
        fullLobbyAt = Array(repeating: 0, count: capacity)
        questionCount = Array(repeating: 0, count: capacity)
        lastQuestionAt = Array(repeating: 0, count: capacity)
        revealCount = Array(repeating: 0, count: capacity)
        lastRevealAt = Array(repeating: 0, count: capacity)
        closedAt = Array(repeating: 0, count: capacity)
        arrivals = Array(repeating: 0, count: capacity)
        inbox = Array(repeating: [], count: capacity)
        bytesBySlot = Array(repeating: 0, count: capacity)
        orders = Array(repeating: nil, count: capacity)
        orderCompleteAt = Array(repeating: 0, count: capacity)
        counted = Array(repeating: 0, count: capacity)
        countedGoalAt = Array(repeating: 0, count: capacity)
        listSeq = Array(repeating: nil, count: capacity)
        listReached = Array(repeating: 0, count: capacity)
        listCompleteAt = Array(repeating: 0, count: capacity)
    }

    /// Runs `body` under the lock.
    func locked<T>(_ body: (Tally) throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body(self)
    }

    /// Waits until `predicate` holds (checked under the lock) or `timeout` seconds pass; returns whether it held.
    func wait(timeout: Double, until predicate: (Tally) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(self) {
            if !condition.wait(until: deadline) { return predicate(self) }
        }
        return true
    }

    /// Records what one reader saw in one wake-up.
    func record(
        _ lines: [ReceivedLine], closed: [(slot: Int, at: Int64)], bytes: Int, slotBytes: [(slot: Int, bytes: Int)],
        at now: Int64
    ) {
        condition.lock()
        bytesReceived += bytes
        for (slot, count) in slotBytes { bytesBySlot[slot] += count }
        // Keepalive pings (and our pongs) don't count as traffic: "quiet" means nothing but keepalives.
        if bytes > 0 && (lines.isEmpty || lines.contains { $0.kind != .ping }) { lastReceiveAt = now }
        for line in lines {
            let slot = line.slot
            if line.kind == countedKind {
                counted[slot] += 1
                if counted[slot] == countGoal && countedGoalAt[slot] == 0 {
                    countedGoalAt[slot] = line.at
                    if isTarget[slot] { countReached += 1 }
                }
            }
            switch line.kind {
            case .buzzed, .buzzedUpdate:
                if armedKind == .buzzed && arrivals[slot] == 0 {
                    arrivals[slot] = line.at
                    if isTarget[slot] { arrivedTargets += 1 }
                }
                if let order = line.order { follow(order, slot: slot, at: line.at) }
            case .question:
                questionCount[slot] += 1
                lastQuestionAt[slot] = line.at
                if isTarget[slot] && questionCount[slot] == questionGoal { questionReached += 1 }
            case .reveal:
                revealCount[slot] += 1
                lastRevealAt[slot] = line.at
                if isTarget[slot] && revealCount[slot] == revealGoal { revealReached += 1 }
            case .welcome:
                if welcomeAt[slot] == 0 {
                    welcomeAt[slot] = line.at
                    welcomeBody[slot] = line.body
                    welcomeCount += 1
                }
            case .lobby:
                lobbyCount[slot] += 1
                // `count` is the room's head count (large rooms send deltas); older hosts list everyone.
                if (line.count ?? (line.braces - 1)) >= fullLobbyPlayers && fullLobbyAt[slot] == 0 {
                    fullLobbyAt[slot] = line.at
                    fullLobbyCount += 1
                }
            case .ping:
                pingCount += 1
            case .error:
                errorCount += 1
                if let body = line.body { lastError = String(decoding: body.prefix(300), as: UTF8.self) }
            case .lockedIn, .lockedInUpdate, .progress, .progressUpdate:
                if let list = line.list { followList(list, slot: slot, at: line.at) }
            case .pong, .ok, .other, .result, .roundOver, .sync:
                break
            }
            if isKeeping[slot], line.kind != .lobby, let body = line.body {
                inbox[slot].append((line.at, line.kind, body))
            }
        }
        for (slot, at) in closed where closedAt[slot] == 0 {
            closedAt[slot] = at
            closedCount += 1
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Applies a buzz order message to what `slot` holds, as a client does; notes when the order is complete.
    /// The order messages the first player got: when, whole or not, entries held after it (for the storm's JSON).
    var firstClientOrders: [(at: Int64, isWhole: Bool, entries: Int)] = []
    /// The slot whose order messages are traced.
    var tracedSlot = -1

    private func follow(_ order: OrderLine, slot: Int, at time: Int64) {
        orderMessages += 1
        defer {
            if slot == tracedSlot {
                if case .whole = order {
                    firstClientOrders.append((time, true, orders[slot]?.entries ?? 0))
                } else {
                    firstClientOrders.append((time, false, orders[slot]?.entries ?? 0))
                }
            }
        }
        switch order {
        case .whole(let body, let entries, let seq):
            orders[slot] = body.map { .raw($0, entries: entries) } ?? .counted(seq: seq, entries: entries)
        case .counted(let seq, let count):
            guard case .counted(let held?, _)? = orders[slot] else {
                orderGaps += 1
                break
            }
            if seq == held + 1 {
                orders[slot] = .counted(seq: seq, entries: count)
            } else if seq > held + 1 {
                orderGaps += 1
            }
        case .delta(let delta):
            switch ShakyWire.Buzzed.follow(orders[slot]?.decoded, with: delta) {
            case .updated(let next): orders[slot] = .decoded(next)
            case .stale: break
            case .gap: orderGaps += 1
            }
        }
        if orderCompleteAt[slot] == 0, (orders[slot]?.entries ?? 0) >= orderGoal {
            orderCompleteAt[slot] = time
            if isTarget[slot] { orderCompleteCount += 1 }
        }
    }

    /// Applies a list message to what `slot` holds; notes when the list holds `listGoal` items.
    private func followList(_ list: ListLine, slot: Int, at time: Int64) {
        listMessages += 1
        if list.isWhole {
            listSeq[slot] = list.seq
            listReached[slot] = list.reached
        } else if let held = listSeq[slot], let seq = list.seq, seq == held + 1 {
            listSeq[slot] = seq
            listReached[slot] += list.reached
        } else if let held = listSeq[slot], let seq = list.seq, seq <= held {
            // A version the client already holds: nothing to do.
        } else {
            listGaps += 1
        }
        if listCompleteAt[slot] == 0, listReached[slot] >= listGoal {
            listCompleteAt[slot] = time
            if isTarget[slot] { listCompleteCount += 1 }
        }
    }

    /// Counts lists complete once they hold `goal` items; the lists held so far stay (caller holds no lock).
    func expectLists(of goal: Int) {
        locked { tally in
            tally.listGoal = goal
            tally.listCompleteCount = 0
            for index in 0..<tally.capacity { tally.listCompleteAt[index] = 0 }
        }
    }

    /// Follows buzz orders afresh until they hold `entries` entries (caller holds no lock).
    func expectOrders(of entries: Int) {
        locked { tally in
            tally.orderGoal = entries
            tally.orderCompleteCount = 0
            tally.firstClientOrders = []
            for index in 0..<tally.capacity {
                tally.orders[index] = nil
                tally.orderCompleteAt[index] = 0
            }
        }
    }

    /// Counts lines of `kind` per slot afresh, noting when each slot holds `goal` of them (caller holds no lock).
    func count(_ kind: LineKind, goal: Int) {
        locked { tally in
            tally.countedKind = kind
            tally.countGoal = goal
            tally.countReached = 0
            for index in 0..<tally.capacity {
                tally.counted[index] = 0
                tally.countedGoalAt[index] = 0
            }
        }
    }

    /// Starts timing arrivals of `kind` afresh (caller holds no lock).
    func arm(_ kind: LineKind) {
        locked { tally in
            tally.armedKind = kind
            tally.arrivedTargets = 0
            for index in tally.arrivals.indices { tally.arrivals[index] = 0 }
        }
    }

    /// Counts targets that have seen at least `goal` questions from now on.
    func setQuestionGoal(_ goal: Int) {
        locked { tally in
            tally.questionGoal = goal
            tally.questionReached =
                (0..<tally.capacity).filter { tally.isTarget[$0] && tally.questionCount[$0] >= goal }.count
        }
    }

    /// Counts targets that have seen at least `goal` reveals from now on.
    func setRevealGoal(_ goal: Int) {
        locked { tally in
            tally.revealGoal = goal
            tally.revealReached =
                (0..<tally.capacity).filter { tally.isTarget[$0] && tally.revealCount[$0] >= goal }.count
        }
    }
}

/// Per-connection line assembly, touched only by the reader thread that owns the connection.
final class LineAssembly {
    static let headLength = 72
    var head: [UInt8] = []
    var kind: LineKind?
    var braces = 0
    var body: [UInt8]?
    let isKeeping: Bool
    /// Whether buzz order lines are kept whole (and decoded) for the storm.
    let keepsOrders: Bool
    /// Whether this client decodes every order message (else it follows by `seq` and count).
    let decodesOrders: Bool
    /// One client in this many decodes every order message.
    static let decodedEvery = 25
    /// The last bytes of the current line (a whole `buzzed` ends with its `seq`).
    var tail: [UInt8] = []

    init(isKeeping: Bool, keepsOrders: Bool = false, decodesOrders: Bool = false) {
        self.isKeeping = isKeeping
        self.keepsOrders = keepsOrders
        self.decodesOrders = decodesOrders
    }

    func wantsBody(_ kind: LineKind) -> Bool {
        switch kind {
        case .welcome, .error, .progress, .sync: return true
        case .buzzed, .buzzedUpdate: return keepsOrders && (decodesOrders || isKeeping)
        case .lobby: return false
        default: return isKeeping
        }
    }

    /// Adds bytes of the current line.
    func consume(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if kind == nil {
            let take = min(rest.count, LineAssembly.headLength - head.count)
            head.append(contentsOf: rest.prefix(take))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(take))
            guard head.count >= LineAssembly.headLength else { return }
            classify()
        }
        guard !rest.isEmpty, let kind else { return }
        if LineAssembly.countsBraces(kind) { braces += LineAssembly.countBraces(rest) }
        if (kind == .buzzed && keepsOrders) || kind == .lockedIn || kind == .progress {
            tail.append(contentsOf: rest.suffix(32))
            if tail.count > 32 { tail.removeFirst(tail.count - 32) }
        }
        if body != nil && body!.count < 4 << 20 { body!.append(contentsOf: rest) }
    }

    private func classify() {
        let kind = LineKind.classify(head)
        self.kind = kind
        if LineAssembly.countsBraces(kind) { braces = head.reduce(0) { $0 + ($1 == UInt8(ascii: "{") ? 1 : 0) } }
        if wantsBody(kind) { body = head }
    }

    /// Ends the line; returns it.
    func finish(slot: Int, at time: Int64) -> ReceivedLine {
        if kind == nil { classify() }
        var line = ReceivedLine(
            slot: slot, kind: kind ?? .other, at: time, body: body, braces: braces,
            count: kind == .lobby ? LineAssembly.countField(head) : nil)
        if keepsOrders, kind == .buzzed {
            // {"type":"buzzed",…,"entries":[{…},…],…,"seq":N}
            let seq = LineAssembly.number(after: "\"seq\":", in: tail.isEmpty ? head : tail)
            line.order = .whole(body: decodesOrders ? body : nil, entries: braces - 1, seq: seq)
        } else if keepsOrders, kind == .buzzedUpdate {
            if decodesOrders, let body {
                if let delta = (try? JSONParsing.parse(body))?.objectValue.flatMap(ShakyWire.BuzzedUpdate.decode) {
                    line.order = .delta(delta)
                }
            } else if let seq = LineAssembly.number(after: "\"seq\":", in: head),
                let count = LineAssembly.number(after: "\"count\":", in: head)
            {
                line.order = .counted(seq: seq, count: count)  // {"type":"buzzedUpdate","seq":N,"count":M,…
            }
        }
        if keepsOrders, kind == .buzzed || kind == .buzzedUpdate { line.body = isKeeping ? body : nil }
        if let kind, let list = ListLine.read(kind: kind, braces: braces, head: head, tail: tail, body: body) {
            line.list = list
            line.body = isKeeping ? body : nil
        }
        tail.removeAll(keepingCapacity: true)
        head.removeAll(keepingCapacity: true)
        kind = nil
        braces = 0
        body = nil
        return line
    }

    /// Whether lines of `kind` have their `{` counted (a lobby's players, a list's items).
    static func countsBraces(_ kind: LineKind) -> Bool {
        switch kind {
        case .lobby, .buzzed, .lockedIn, .lockedInUpdate, .progress, .progressUpdate: return true
        default: return false
        }
    }

    /// The whole number after `key` in `bytes` (its last occurrence), if one is there.
    static func number(after key: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(key.utf8)
        guard bytes.count >= needle.count else { return nil }
        var start: Int?
        for index in stride(from: bytes.count - needle.count, through: 0, by: -1)
        where bytes[index..<(index + needle.count)].elementsEqual(needle) {
            start = index + needle.count
            break
        }
        guard let start else { return nil }
        let digits = bytes[start...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        return digits.isEmpty ? nil : Int(String(decoding: digits, as: UTF8.self))
    }

    /// The number after `"count":` in `head`, if it is there.
    static func countField(_ head: [UInt8]) -> Int? {
        let key: [UInt8] = Array("\"count\":".utf8)
        guard let range = head.firstRange(of: key) else { return nil }
        let digits = head[range.upperBound...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        return digits.isEmpty || range.upperBound + digits.count >= head.count
            ? nil : Int(String(decoding: digits, as: UTF8.self))
    }

    static func countBraces(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for byte in bytes where byte == UInt8(ascii: "{") { count += 1 }
        return count
    }
}

/// A reader thread: epolls its share of the client sockets, assembles lines, timestamps them.
final class ReaderThread: @unchecked Sendable {
    let poller: Poller
    unowned let pool: ClientPool
    private var isStopping = false
    private let stopLock = NSLock()
    private let finished = DispatchSemaphore(value: 0)

    init(pool: ClientPool) throws {
        self.pool = pool
        poller = try Poller(capacity: 1024)
    }

    func start() {
        let thread = Thread { [self] in
            self.run()
            self.finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func stop() {
        stopLock.withLock { isStopping = true }
        poller.waker.wake()
        finished.wait()
    }

    private var shouldStop: Bool { stopLock.withLock { isStopping } }

    private func run() {
        let bufferSize = 256 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        let pong: [UInt8] = Array("{\"type\":\"pong\"}\n".utf8)
        var lines: [ReceivedLine] = []
        var closed: [(slot: Int, at: Int64)] = []
        var slotBytes: [(slot: Int, bytes: Int)] = []
        while !shouldStop {
            let ready: ArraySlice<Readiness>
            do {
                ready = try poller.wait(timeoutMilliseconds: 100)
            } catch {
                continue
            }
            var bytes = 0
            for readiness in ready {
                if poller.isWakeUp(readiness.fd) {
                    poller.drainWakeUps()
                    continue
                }
                let fd = readiness.fd
                let slot = pool.slot(ofDescriptor: fd)
                guard slot >= 0, let assembly = pool.assembly(slot) else { continue }
                /// One whole line (or WebSocket message) of `slot`.
                func take(_ line: ReceivedLine) {
                    if line.kind == .ping { pool.sendBestEffort(fd: fd, pong) }
                    // A clock-sync probe is answered the moment it is read, as a real client does (line clients).
                    if line.kind == .sync, pool.frameReader(slot) == nil, let reply = LineKind.syncReply(line.body) {
                        pool.sendBestEffort(fd: fd, reply)
                    }
                    switch line.kind {
                    case .welcome, .lobby, .buzzed, .buzzedUpdate, .question, .reveal, .ping, .error, .result,
                        .roundOver, .lockedIn, .lockedInUpdate, .progress, .progressUpdate:
                        lines.append(line)
                    default: if assembly.isKeeping { lines.append(line) }
                    }
                }
                if let frames = pool.frameReader(slot) {
                    // A WebSocket client: frames, not lines (the handshake's leftover first).
                    func feed(_ bytes: UnsafeRawBufferPointer, at now: Int64) {
                        frames.feed(
                            bytes, text: { assembly.consume($0) },
                            end: { take(assembly.finish(slot: slot, at: now)) },
                            ping: {
                                pool.sendBestEffort(
                                    fd: fd,
                                    raw: WebSocketFrame.encode(
                                        opcode: WebSocketFrame.pong, payload: $0, mask: WebSocketClients.mask))
                            })
                    }
                    if !frames.leftover.isEmpty {
                        let leftover = frames.leftover
                        frames.leftover = []
                        leftover.withUnsafeBytes { feed($0, at: MonotonicClock.nanoseconds()) }
                    }
                    var reads = 0
                    while reads < 16 {
                        reads += 1
                        let count = Glue.recv(fd, buffer.baseAddress, bufferSize, 0)
                        let now = MonotonicClock.nanoseconds()
                        if count <= 0 {
                            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { break }
                            poller.remove(fd)
                            closed.append((slot, now))
                            break
                        }
                        bytes += count
                        slotBytes.append((slot, count))
                        feed(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), at: now)
                        if count < bufferSize { break }
                    }
                    continue
                }
                var reads = 0
                reading: while reads < 16 {
                    reads += 1
                    let count = Glue.recv(fd, buffer.baseAddress, bufferSize, 0)
                    let now = MonotonicClock.nanoseconds()
                    if count <= 0 {
                        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { break reading }
                        poller.remove(fd)
                        closed.append((slot, now))
                        break reading
                    }
                    bytes += count
                    slotBytes.append((slot, count))
                    let base = buffer.baseAddress!
                    var offset = 0
                    while offset < count {
                        let newline = memchr(base + offset, 0x0A, count - offset)
                        let end = newline.map { base.distance(to: $0) } ?? count
                        if end > offset {
                            assembly.consume(UnsafeRawBufferPointer(start: base + offset, count: end - offset))
                        }
                        guard newline != nil else { break }
                        take(assembly.finish(slot: slot, at: now))
                        offset = end + 1
                    }
                    if count < bufferSize { break reading }
                }
            }
            if !lines.isEmpty || !closed.isEmpty || bytes > 0 {
                pool.tally.record(
                    lines, closed: closed, bytes: bytes, slotBytes: slotBytes, at: MonotonicClock.nanoseconds())
                lines.removeAll(keepingCapacity: true)
                closed.removeAll(keepingCapacity: true)
                slotBytes.removeAll(keepingCapacity: true)
            }
        }
    }
}

/// Many client connections to one server, read by a few reader threads, written by the driver.
final class ClientPool: @unchecked Sendable {
    let port: UInt16
    let capacity: Int
    let tally: Tally
    private(set) var readers: [ReaderThread] = []
    /// Slot of each descriptor (-1: none); written by the driver before the descriptor is watched.
    private let slotOfDescriptor: UnsafeMutablePointer<Int32>
    private let descriptorLimit = 1 << 17
    private let assemblies: UnsafeMutablePointer<LineAssembly?>
    private(set) var descriptors: [Int32] = []
    /// Whether connections keep and decode buzz order lines (the storm follows every client's order).
    let followsOrders: Bool
    /// Whether the clients speak WebSocket (as phones do) instead of lines over TCP.
    let isWebSocket: Bool
    /// Each WebSocket client's frame reader (nil for TCP clients).
    private let frameReaders: UnsafeMutablePointer<FrameReader?>

    init(port: UInt16, capacity: Int, readerCount: Int, followsOrders: Bool = false, webSocket: Bool = false) throws {
        self.port = port
        self.capacity = capacity
        self.followsOrders = followsOrders
        isWebSocket = webSocket
        frameReaders = .allocate(capacity: capacity)
        frameReaders.initialize(repeating: nil, count: capacity)
        tally = Tally(capacity: capacity)
        slotOfDescriptor = .allocate(capacity: descriptorLimit)
        slotOfDescriptor.initialize(repeating: -1, count: descriptorLimit)
        assemblies = .allocate(capacity: capacity)
        assemblies.initialize(repeating: nil, count: capacity)
        for _ in 0..<readerCount { readers.append(try ReaderThread(pool: self)) }
        for reader in readers { reader.start() }
    }

    deinit {
        slotOfDescriptor.deallocate()
        assemblies.deinitialize(count: capacity)
        assemblies.deallocate()
        frameReaders.deinitialize(count: capacity)
        frameReaders.deallocate()
    }

    var count: Int { descriptors.count }

    func slot(ofDescriptor fd: Int32) -> Int {
        fd >= 0 && Int(fd) < descriptorLimit ? Int(slotOfDescriptor[Int(fd)]) : -1
    }

    func assembly(_ slot: Int) -> LineAssembly? { assemblies[slot] }

    /// The frame reader of a WebSocket client's slot (nil for a TCP client).
    func frameReader(_ slot: Int) -> FrameReader? { frameReaders[slot] }

    /// Opens one more connection; returns its slot.
    @discardableResult
    func open(isTarget: Bool, isKeeping: Bool = false) throws -> Int {
        guard descriptors.count < capacity else { throw BenchError("the client pool is full (\(capacity))") }
        let socket: Socket
        do {
            socket = try Socket.connectBlocking(host: "127.0.0.1", port: port)
        } catch {
            throw BenchError("connecting client \(descriptors.count + 1) failed: \(error)")
        }
        var one: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var leftover: [UInt8]?
        if isWebSocket {
            do {
                leftover = try WebSocketClients.upgrade(socket, port: port)
            } catch {
                socket.close()
                throw error
            }
        }
        do {
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw BenchError("fcntl failed: \(error)")
        }
        guard Int(socket.fd) < descriptorLimit else {
            socket.close()
            throw BenchError("descriptor \(socket.fd) is beyond the bench's table")
        }
        let slot = descriptors.count
        descriptors.append(socket.fd)
        assemblies[slot] = LineAssembly(
            isKeeping: isKeeping, keepsOrders: followsOrders, decodesOrders: slot % LineAssembly.decodedEvery == 0)
        if let leftover {
            let frames = FrameReader()
            frames.leftover = leftover
            frameReaders[slot] = frames
        }
        slotOfDescriptor[Int(socket.fd)] = Int32(slot)
        tally.locked { tally in
            tally.isTarget[slot] = isTarget
            tally.isKeeping[slot] = isKeeping
            if isTarget { tally.targetCount += 1 }
        }
        do {
            try readers[slot % readers.count].poller.add(socket.fd, interest: .read)
        } catch {
            throw BenchError("epoll_ctl failed: \(error)")
        }
        return slot
    }

    /// Writes all of `bytes` to `slot`, waiting for room when the socket is full.
    func send(_ slot: Int, _ bytes: [UInt8]) throws {
        let bytes = isWebSocket ? WebSocketClients.frames(bytes) : bytes
        let fd = descriptors[slot]
        var offset = 0
        let deadline = MonotonicClock.milliseconds() + 10_000
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glue.send(fd, $0.baseAddress, $0.count, sendFlags) }
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard MonotonicClock.milliseconds() < deadline else {
                    throw BenchError("client \(slot) could not write for 10 s")
                }
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 100)
                continue
            }
            throw BenchError("client \(slot) write failed: errno \(errno)")
        }
    }

    /// Sends a JSON message on `slot`.
    func send(_ slot: Int, _ message: JSONObject) throws {
        try send(slot, JSONEncoding.encodeLine(.object(message)))
    }

    /// One write attempt from a reader thread (a pong); a full socket just drops it.
    func sendBestEffort(fd: Int32, _ bytes: [UInt8]) {
        sendBestEffort(fd: fd, raw: isWebSocket ? WebSocketClients.frames(bytes) : bytes)
    }

    /// One write attempt of bytes as they are (a WebSocket pong frame).
    func sendBestEffort(fd: Int32, raw bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glue.send(fd, $0.baseAddress, $0.count, sendFlags) }
    }

    /// Takes the kept lines of `slot`.
    func takeInbox(_ slot: Int) -> [(at: Int64, kind: LineKind, body: [UInt8])] {
        tally.locked { tally in
            defer { tally.inbox[slot].removeAll() }
            return tally.inbox[slot]
        }
    }

    /// Stops the readers and closes every connection.
    func close() {
        for reader in readers { reader.stop() }
        readers.removeAll()
        for fd in descriptors {
            slotOfDescriptor[Int(fd)] = -1
            _ = Glue.close(fd)
        }
        descriptors.removeAll()
    }
}

#if canImport(Glibc)
    let sendFlags = Int32(MSG_NOSIGNAL)
#else
    let sendFlags: Int32 = 0
#endif
