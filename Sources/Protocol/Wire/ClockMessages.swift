// Clocks: the answer to `ping`, the keepalive, the clock-sync probe (PROTOCOL.md §9) and the pause that stops
// every clock.

/// The answer to a client's `ping`.
public struct Pong: HostMessage {
    public static let type = "pong"
    /// The host clock now (ms).
    public var hostTime: Int64
    /// The client's `t`, echoed.
    public var t: Int64?
    /// The request's `id`, echoed (as well as `re`).
    public var id: JSONValue?

    /// Creates a pong.
    public init(hostTime: Int64, t: Int64? = nil, id: JSONValue? = nil) {
        self.hostTime = hostTime
        self.t = t
        self.id = id
    }

    public func line(for reader: Perspective) -> String? { "pong" }
}

/// The host's keepalive probe; a client answers with `{"type":"pong"}`.
public struct KeepalivePing: HostMessage {
    public static let type = "ping"
    /// The probe's id (`k1`, `k2`, …).
    public var id: String
    /// The host clock now (ms).
    public var hostTime: Int64

    /// Creates a keepalive probe.
    public init(id: String, hostTime: Int64) {
        self.id = id
        self.hostTime = hostTime
    }
}

/// A clock-sync probe (PROTOCOL.md §9); the client answers at once with its own stamps.
public struct SyncProbe: HostMessage {
    public static let type = "sync"
    /// The probe's sequence number.
    public var n: Int64
    /// The host's send time.
    public var h: Int64
    /// Once measured: client clock minus host clock, ms.
    public var offset: Int64?
    /// Once measured: the median round trip, ms.
    public var rtt: Int64?
    /// Once measured: ± ms on the offset.
    public var uncertainty: Int64?

    /// Creates a probe.
    public init(n: Int64, h: Int64, offset: Int64? = nil, rtt: Int64? = nil, uncertainty: Int64? = nil) {
        self.n = n
        self.h = h
        self.offset = offset
        self.rtt = rtt
        self.uncertainty = uncertainty
    }
}

/// Every clock stands still: the operator paused the game, or the host cannot save (`reason` then says so).
public struct Paused: HostMessage {
    public static let type = "paused"
    /// When the clocks stopped (host ms), so a viewer joining later freezes them at the same instant.
    public var at: Int64?
    /// Why, when it is not the operator's pause ("The host cannot save: disk full — the game is paused. …").
    public var reason: String?

    /// Creates the message.
    public init(at: Int64? = nil, reason: String? = nil) {
        self.at = at
        self.reason = reason
    }

    public func line(for reader: Perspective) -> String? { reason.map { "*** " + $0 } ?? "Paused by the operator." }
}
