import Protocol

/// A connection's number for the life of the host (never reused, unlike a file descriptor).
package struct SessionID: Hashable, Comparable, CustomStringConvertible {
    let value: Int

    /// The connection numbered `value`.
    package init(value: Int) { self.value = value }

    package static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.value < rhs.value }

    package var description: String { "#\(value)" }
}

/// How a connection talks: decided by its first line.
enum Dialect {
    /// Nothing complete has arrived yet.
    case undecided
    /// Newline-delimited JSON (a `partyline` client or a script).
    case json
    /// A person typing at `nc` or `telnet`: readable text both ways.
    case text
}

/// What a joined connection is in the room.
enum Membership: Equatable {
    /// Plays as this player (whose id, name and team never change while they are in the room).
    case player(PlayerRef)
    /// Watches.
    case board
    /// Runs the show.
    case admin

    /// The role on the wire.
    var role: Role {
        switch self {
        case .player: .player
        case .board: .board
        case .admin: .admin
        }
    }
}

/// The identity of a player as a session holds it.
struct PlayerRef: Equatable {
    var id: String
    var name: String
    var team: String
}

/// One connection's life in the room, owned by the event loop. Not `Sendable`: it never leaves the loop's thread.
///
/// Its life is one state machine — greeting → open (as player, board or admin) → closing → closed — moved only
/// by `moveState(_:)`, whose exhaustive switch traps on a transition that must not happen (apple/swift-nio's
/// `SocketChannelLifecycleManager`). A kicked or replaced player's session goes to `closing`, so there is no
/// "player with no player".
final class Session {
    /// Where the session is in its life.
    enum State: Equatable {
        /// Connected, not joined yet.
        case greeting
        /// Joined.
        case open(Membership)
        /// Saying goodbye: queued output is written, then the connection closes; input is ignored.
        case closing
        /// Gone.
        case closed
    }

    /// What moves a session.
    enum Event {
        /// The hello was accepted.
        case joined(Membership)
        /// The host closes the connection after its queued output (bye, kicked, replaced, flooding).
        case startClosing
        /// The connection is gone.
        case closed
    }

    let id: SessionID
    /// The peer's address, for logs and per-address limits.
    let peer: String
    let acceptedAt: Int64
    private(set) var state = State.greeting
    var dialect = Dialect.undecided
    /// Whether the connection is a WebSocket (a browser): kept alive with WebSocket pings, not JSON ones.
    var isWebSocket = false
    /// Host-clock ms when something last arrived.
    var lastHeardAt: Int64
    /// Host-clock ms when the keepalive `ping` was last sent.
    var lastPingAt: Int64 = 0
    /// Whether the banner (how to join) was sent.
    var hasBanner = false
    /// Whether the peer said goodbye (`bye`, `quit`): a player leaving so frees their name at once.
    var hasSaidBye = false
    /// Messages counted in the current one-second window, and the windows that overflowed.
    var rateWindowStart: Int64 = 0
    var rateCount = 0
    var rateStrikes = 0
    /// Clock sync for fair presses; a change of its backdate allowance is counted in `allowances` at once.
    var clock = ClockEstimator() {
        didSet {
            let allowance = clock.backdateAllowance ?? 0
            guard allowance != backdateAllowance else { return }
            allowances?.move(from: backdateAllowance, to: allowance)
            backdateAllowance = allowance
        }
    }
    /// `clock.backdateAllowance` (0 when unknown), kept as the clock changes so that nobody sorts round trips again.
    private(set) var backdateAllowance: Int64 = 0
    /// The tally that counts this session's allowance while it is a connected player's session (else nil).
    var allowances: AllowanceTally? {
        didSet {
            guard allowances !== oldValue else { return }
            oldValue?.remove(backdateAllowance)
            allowances?.add(backdateAllowance)
        }
    }
    var isSyncing = false
    var nextSyncAt: Int64 = 0
    var syncSequence: Int64 = 0
    var pendingSyncBurst = 0
    /// Host send times of the sync probes not yet answered, by sequence number (a reply must echo one).
    var outstandingSyncs: [Int64: Int64] = [:]
    /// When this connection tried `rejoin` lately (`HostCore.rejoin` allows a few a minute per connection).
    var rejoinTries: [Int64] = []
    /// When this connection last tried a station hunt check-in code that was wrong (`HostCore` limits guessing).
    var wrongCheckIns: [Int64] = []

    init(id: SessionID, peer: String, now: Int64) {
        self.id = id
        self.peer = peer
        lastHeardAt = now
        acceptedAt = now
    }

    /// Moves the state machine; an impossible transition is a bug and traps.
    func moveState(_ event: Event) {
        switch (state, event) {
        case (.greeting, .joined(let membership)):
            state = .open(membership)
        case (.greeting, .startClosing), (.open, .startClosing):
            state = .closing
        case (.greeting, .closed), (.open, .closed), (.closing, .closed):
            state = .closed
        case (.open, .joined), (.closing, .joined), (.closed, .joined):
            preconditionFailure("session \(id) joined twice (state \(state))")
        case (.closing, .startClosing), (.closed, .startClosing), (.closed, .closed):
            preconditionFailure("session \(id) closed twice (state \(state))")
        }
    }

    /// The membership while open.
    var membership: Membership? {
        if case .open(let membership) = state { return membership }
        return nil
    }

    /// The role while open.
    var role: Role? { membership?.role }

    /// The player this session speaks for, while open as a player.
    var player: PlayerRef? {
        if case .open(.player(let player)) = state { return player }
        return nil
    }

    /// Whether the session still takes input and output (greeting or open).
    var isLive: Bool {
        switch state {
        case .greeting, .open: true
        case .closing, .closed: false
        }
    }

    /// How this session reads text lines.
    var perspective: Perspective {
        guard let player else { return Perspective() }
        return Perspective(team: player.team, name: player.name)
    }
}

@available(*, unavailable)
extension Session: Sendable {}

/// How many connected players' sessions have each backdate allowance (0…`PressEstimate.maximumBackdate` ms), so that
/// the widest is found without walking every session on each press (a 1,100-player Let Me Fly round walked them all).
final class AllowanceTally {
    /// Sessions counted per allowance in ms; the last bucket also holds any larger value.
    private var counts = [Int](repeating: 0, count: Int(PressEstimate.maximumBackdate) + 1)
    /// The sessions counted.
    private(set) var total = 0

    /// Counts one session with `allowance`.
    func add(_ allowance: Int64) {
        counts[bucket(allowance)] += 1
        total += 1
    }

    /// Stops counting one session with `allowance`.
    func remove(_ allowance: Int64) {
        counts[bucket(allowance)] -= 1
        total -= 1
    }

    /// One counted session's allowance changed.
    func move(from old: Int64, to new: Int64) {
        counts[bucket(old)] -= 1
        counts[bucket(new)] += 1
    }

    /// The widest allowance counted (0 when none), capped at `PressEstimate.maximumBackdate`: at most 151 steps.
    var widest: Int64 {
        guard total > 0, let index = counts.lastIndex(where: { $0 > 0 }) else { return 0 }
        return Int64(index)
    }

    private func bucket(_ allowance: Int64) -> Int { Int(min(max(allowance, 0), PressEstimate.maximumBackdate)) }
}

@available(*, unavailable)
extension AllowanceTally: Sendable {}
