import Net
import Protocol

/// How a connection talks: decided by its first line.
enum ConnectionMode {
    /// Nothing complete has arrived yet.
    case undecided
    /// Newline-delimited JSON (a `partyline` client or a script).
    case json
    /// A person typing at `nc` or `telnet`: readable text both ways.
    case text
}

/// One TCP connection, owned by the event loop. Not `Sendable`: it never leaves the loop's thread.
final class Connection {
    /// A number unique for the life of the host, used in logs.
    let id: Int
    let socket: Socket
    /// The peer's IPv4 address, for logs and per-address limits.
    let peer: String
    var framer = LineFramer()
    var mode = ConnectionMode.undecided
    /// The player this connection speaks for, once it joined (players only).
    var playerID: String?
    /// What the connection joined as, once it joined.
    var role: Role?
    /// Bytes waiting to be written, from `outputOffset` on.
    var output: [UInt8] = []
    var outputOffset = 0
    /// Whether the poller watches for writability (set while output is pending).
    var isWatchingWrites = false
    /// Closing after the pending output is written (a polite close).
    var isClosingAfterFlush = false
    var isClosed = false
    /// Host-clock milliseconds when something last arrived.
    var lastHeardAt: Int64
    /// Host-clock milliseconds when the application ping was last sent.
    var lastPingAt: Int64 = 0
    /// Whether the banner (how to join) was sent.
    var hasBanner = false
    let acceptedAt: Int64
    /// Messages counted in the current one-second window, and errors for the excess.
    var rateWindowStart: Int64 = 0
    var rateCount = 0
    var rateStrikes = 0
    /// Clock sync for fair buzzing.
    var clock = ClockEstimator()
    var isSyncing = false
    var nextSyncAt: Int64 = 0
    var syncSequence: Int64 = 0
    var pendingSyncBurst = 0
    /// Host send times of the sync probes not yet answered, by sequence number (a reply must echo one).
    var outstandingSyncs: [Int64: Int64] = [:]

    init(id: Int, socket: Socket, peer: String, now: Int64) {
        self.id = id
        self.socket = socket
        self.peer = peer
        self.lastHeardAt = now
        self.acceptedAt = now
    }

    /// Bytes queued and not yet written.
    var pendingOutputCount: Int { output.count - outputOffset }

    /// Queues bytes for writing.
    func enqueue(_ bytes: [UInt8]) {
        if outputOffset > 0 && outputOffset == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        }
        output.append(contentsOf: bytes)
    }

    /// Writes as much queued output as the socket takes; returns whether everything was written.
    func flush() throws(SocketError) -> Bool {
        while outputOffset < output.count {
            let offset = outputOffset
            let result = output.withUnsafeBytes { buffer in
                Result { () throws(SocketError) -> Int in try socket.write(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            }
            outputOffset += try result.get()
        }
        output.removeAll(keepingCapacity: output.capacity <= 4096)  // idle connections hold little memory
        outputOffset = 0
        return true
    }
}
