import Protocol

/// Who keeps a growing state: the room itself (the lobby) or the running game (a buzz order, a leaderboard).
enum StreamOwner {
    /// The room's own states; changes go out at the end of the loop's turn (later only while the host is behind).
    case room
    /// The running game's states: ended with the game, and sent before any other message of the game.
    case game
}

/// One growing state as one audience receives it: the whole state once, then only what changed (PROTOCOL.md §6.0).
///
/// Invariant: every session in `audience` that has received this stream holds `sent`, numbered `seq`; each
/// message taken from the stream numbers the next version, so a reader that misses one sees a gap and asks for
/// the whole state again (`resync`). Changes noted between two sends are sent together, as one message.
final class StateStream {
    /// The `type` of the whole state's message (`lobby`, `buzzed`).
    let type: String
    /// Who receives it.
    let audience: Audience
    /// Who keeps it.
    let owner: StreamOwner
    /// The version of `sent`.
    private(set) var seq = 0
    /// The state as its audience last received it (numbered `seq`); nil before the first send.
    private(set) var sent: (any GrowingState)?
    /// Whether the last message sent was the whole state (a `wholeState` with nothing new is then not repeated).
    private(set) var isSentWhole = false
    /// A newer value not sent yet.
    private(set) var pending: (any GrowingState)?
    /// Whether the pending value must go out whole.
    private var isWholeRequested = false
    /// When the loop must next run a turn for the pending value (host ms): the end of the turn it was noted in, or,
    /// after the host held it back because it was behind, `staleAt` (every turn before then looks at it too).
    private(set) var dueAt: Int64?
    /// When the pending value goes out even while the host is behind: its first unsent change plus the bound.
    private(set) var staleAt: Int64?
    /// When the pending value's first unsent change was noted.
    private(set) var firstNotedAt: Int64?
    /// Whether a hall's players last got their cut of this list (top rows and their own) rather than all of it: a
    /// room crossing the hall's size sends them the new shape whole, since a delta follows the shape they hold.
    var wasSentAsHall = false

    init(type: String, audience: Audience, owner: StreamOwner) {
        self.type = type
        self.audience = audience
        self.owner = owner
    }

    /// Notes the state's latest value at `now`, due at the end of this turn and at `now + staleness` at the latest;
    /// `whole` asks for it to go out whole (a phase change, a committed order).
    func note(_ state: any GrowingState, whole: Bool, at now: Int64, staleness: Int64) {
        if pending == nil { firstNotedAt = now }
        pending = state
        isWholeRequested = isWholeRequested || whole
        dueAt = now
        staleAt = min(staleAt ?? .max, now + staleness)
    }

    /// The host is behind: the pending value waits for more changes, until `staleAt` at the latest.
    func holdBack() {
        dueAt = staleAt
    }

    /// The message that brings the audience from `sent` to the pending value (whole or delta), recorded as sent;
    /// nil when nothing is pending or no item changed.
    func take() -> (any HostMessage)? {
        guard let latest = pending else { return nil }
        pending = nil
        dueAt = nil
        staleAt = nil
        firstNotedAt = nil
        let wantsWhole = isWholeRequested
        isWholeRequested = false
        return message(for: latest, wantsWhole: wantsWhole)
    }

    /// The whole state as the audience holds it (numbered), for a catch-up or a `resync`; nil before the first send.
    var sentWhole: (any HostMessage)? { sent }

    /// `sentWhole` as one JSON line, encoded once per version: every joiner of a hall gets the same team sizes.
    var sentWholeLine: [UInt8]? {
        if let line = cachedLine, cachedLineSeq == seq { return line }
        cachedLine = sent?.encodedLine()
        cachedLineSeq = seq
        return cachedLine
    }
    private var cachedLine: [UInt8]?
    private var cachedLineSeq = -1

    private func message<State: GrowingState>(for latest: State, wantsWhole: Bool) -> (any HostMessage)? {
        var latest = latest
        latest.seq = seq
        if let previous = sent as? State {
            if wantsWhole && isSentWhole && previous.items == latest.items {
                sent = latest  // the audience already holds this whole list: nothing to repeat
                cachedLine = nil
                return nil
            }
            if !wantsWhole, let (changed, removed) = ListDiff.changes(from: previous.items, to: latest.items) {
                if changed.isEmpty && removed.isEmpty {
                    sent = latest  // other fields (a head count, a clock) ride along with the next change
                    cachedLine = nil
                    return nil
                }
                // A change that touches half the list or more goes whole: a delta would save little, and readers
                // that ignore deltas stay exact while lists are small.
                if 2 * (changed.count + removed.count) < max(latest.items.count, previous.items.count) {
                    seq += 1
                    latest.seq = seq
                    sent = latest
                    isSentWhole = false
                    return latest.delta(seq: seq, changed: changed, removed: removed)
                }
            }
        }
        seq += 1
        latest.seq = seq
        sent = latest
        isSentWhole = true
        return latest
    }

    /// `state` numbered as the audience holds it, when it is the list the audience was last sent; else unchanged.
    func numbered<State: GrowingState>(_ state: State) -> State {
        guard let sent = sent as? State, sent.items == state.items else { return state }
        var numbered = state
        numbered.seq = seq
        return numbered
    }
}

@available(*, unavailable)
extension StateStream: Sendable {}

/// The room's growing states, one stream per state type and audience.
final class StateStreams {
    /// A stream's state type and audience.
    private struct Key: Hashable {
        var type: String
        var audience: Audience
    }

    private var streams: [Key: StateStream] = [:]
    /// Stream keys in the order they were made, so sends happen in a fixed order.
    private var order: [Key] = []
    /// When each stream was made (its place in `order`, which only grows).
    private var made: [Key: Int] = [:]
    private var madeCount = 0
    /// The streams that may have a value waiting: a hall has a lobby stream per team, and a turn must not look at
    /// thousands of them (issue 29).
    private var pendingKeys: Set<Key> = []
    /// Stream keys by audience: a joiner's catch-up finds its own streams without looking at every team's.
    private var keysByAudience: [Audience: Set<Key>] = [:]

    /// The streams to any of `audiences`, oldest first.
    func streams(to audiences: [Audience]) -> [StateStream] {
        let keys = audiences.flatMap { keysByAudience[$0] ?? [] }
        return Set(keys).sorted { made[$0] ?? 0 < made[$1] ?? 0 }.compactMap { streams[$0] }
    }

    /// Every stream, oldest first: kept until a stream is made or forgotten (it was built on every call, and a
    /// hall's catch-ups and game states read it for every join).
    var all: [StateStream] {
        if let cachedAll { return cachedAll }
        let list = order.compactMap { streams[$0] }
        cachedAll = list
        return list
    }
    private var cachedAll: [StateStream]?

    /// The stream of `type` to `audience`, if there is one.
    func stream(_ type: String, to audience: Audience) -> StateStream? { streams[Key(type: type, audience: audience)] }

    /// Notes a new value of a state for `audience` at `now` (see `StateStream.note`), making its stream when needed.
    @discardableResult
    func note(
        _ state: any GrowingState, to audience: Audience, owner: StreamOwner, whole: Bool, at now: Int64,
        staleness: Int64 = 0
    ) -> StateStream {
        let type = Swift.type(of: state).type
        let key = Key(type: type, audience: audience)
        let stream: StateStream
        if let existing = streams[key] {
            stream = existing
        } else {
            stream = StateStream(type: type, audience: audience, owner: owner)
            streams[key] = stream
            order.append(key)
            cachedAll = nil
            made[key] = madeCount
            madeCount += 1
            keysByAudience[audience, default: []].insert(key)
        }
        stream.note(state, whole: whole, at: now, staleness: staleness)
        pendingKeys.insert(key)
        return stream
    }

    /// Forgets a stream: the next value of that state goes out whole.
    func remove(_ stream: StateStream) {
        let key = Key(type: stream.type, audience: stream.audience)
        guard streams[key] === stream else { return }
        streams[key] = nil
        order.removeAll { $0 == key }
        cachedAll = nil
        made[key] = nil
        pendingKeys.remove(key)
        keysByAudience[stream.audience]?.remove(key)
    }

    /// The streams with a value waiting, oldest first (looking only at those noted since they last had none).
    func pending(owner: StreamOwner? = nil) -> [StateStream] {
        var found: [(made: Int, stream: StateStream)] = []
        for key in pendingKeys {
            guard let stream = streams[key], stream.pending != nil else {
                pendingKeys.remove(key)
                continue
            }
            if owner == nil || stream.owner == owner { found.append((made[key] ?? 0, stream)) }
        }
        return found.sorted { $0.made < $1.made }.map(\.stream)
    }

    /// When the next waiting value is due (to be looked at again, or stale).
    var nextDue: Int64? { pendingKeys.compactMap { streams[$0]?.dueAt }.min() }
}

@available(*, unavailable)
extension StateStreams: Sendable {}
