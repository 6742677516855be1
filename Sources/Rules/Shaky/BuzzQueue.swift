/// The fair order of buzzes on one question: by when teams pressed, not when the press arrived.
///
/// Entries form three runs, in order: done (answered wrong or ran out of time), at most one on turn,
/// then waiting. Done and on-turn entries are committed and never move. Waiting entries are re-sorted
/// on every arrival: by the estimated press instant, where presses closer than their combined
/// uncertainty count as a tie and a tie group is ordered by each press's random `tieKey`.
///
/// Settling: when a buzz arrives while nobody is on turn or waiting, it opens a settle window of that
/// buzz's `settleMs`; the head may only be committed (put on turn) once the window has passed, so a
/// press that happened earlier but arrives a little later can still overtake. When a turn ends and
/// others are waiting, the next head may be committed at once.
public struct BuzzQueue: Codable, Sendable, Equatable, Hashable {
    /// One team's place in the queue, as the host shows it.
    public struct Entry: Codable, Sendable, Equatable, Hashable {
        /// The team that buzzed.
        public var team: String
        /// The host's estimate of when the team pressed.
        public var pressedAt: Instant
        /// How far off `pressedAt` may be, either way, in milliseconds.
        public var uncertaintyMs: Int64
        /// Milliseconds from the first entry's press to this one's (negative if pressed earlier).
        public var offsetMs: Int64
        /// Whether this press is too close to another to call, so their order was drawn at random.
        public var isTied: Bool

        /// Creates an entry.
        public init(team: String, pressedAt: Instant, uncertaintyMs: Int64, offsetMs: Int64, isTied: Bool) {
            self.team = team
            self.pressedAt = pressedAt
            self.uncertaintyMs = uncertaintyMs
            self.offsetMs = offsetMs
            self.isTied = isTied
        }
    }

    private struct Press: Codable, Sendable, Equatable, Hashable {
        var team: String
        var pressedAt: Instant
        var uncertaintyMs: Int64
        var tieKey: UInt64
        var isTied = false
    }

    /// Every press in queue order; the first `committedCount` never move.
    private var presses: [Press] = []
    /// How many leading entries are committed (done, or on turn when `isTurnActive`).
    public private(set) var committedCount = 0
    /// Whether the last committed entry is on turn right now.
    public private(set) var isTurnActive = false
    /// From when the head of the waiting run may be committed; nil when nobody waits or someone is on turn.
    public private(set) var commitDeadline: Instant?

    /// Creates an empty queue.
    public init() {}

    /// All entries in order: done, on turn, waiting.
    public var entries: [Entry] {
        guard let first = presses.first else { return [] }
        return presses.map { press in
            Entry(
                team: press.team, pressedAt: press.pressedAt, uncertaintyMs: press.uncertaintyMs,
                offsetMs: first.pressedAt.milliseconds(until: press.pressedAt), isTied: press.isTied)
        }
    }

    /// Whether nobody has buzzed.
    public var isEmpty: Bool { presses.isEmpty }

    /// The team on turn, if any.
    public var teamOnTurn: String? { isTurnActive ? presses[committedCount - 1].team : nil }

    /// The teams not yet committed, in their current order.
    public var waitingTeams: [String] { presses[committedCount...].map(\.team) }

    /// The teams whose turn is over, in the order they had it.
    public var doneTeams: [String] { presses[..<doneCount].map(\.team) }

    /// Whether `team` has buzzed on this question.
    public func contains(_ team: String) -> Bool { presses.contains { $0.team == team } }

    /// Whether `team` had its turn and it is over.
    public func isDone(_ team: String) -> Bool { doneTeams.contains(team) }

    private var doneCount: Int { isTurnActive ? committedCount - 1 : committedCount }

    /// Adds a press that arrived at `arrivedAt`; refuses a team that already buzzed with `already_buzzed`.
    ///
    /// Negative uncertainties and settle times count as zero.
    public mutating func add(
        team: String, pressedAt: Instant, uncertaintyMs: Int64, settleMs: Int64,
        arrivedAt: Instant, tieKey: UInt64
    ) throws(RuleError) {
        guard !contains(team) else {
            throw RuleError(.alreadyBuzzed, "\(team) has already buzzed on this question.")
        }
        let opensWindow = !isTurnActive && committedCount == presses.count
        presses.append(Press(team: team, pressedAt: pressedAt, uncertaintyMs: max(0, uncertaintyMs), tieKey: tieKey))
        if opensWindow {
            commitDeadline = arrivedAt.advanced(byMilliseconds: max(0, settleMs))
        }
        reorder()
    }

    /// Puts the head of the waiting run on turn if nobody is on turn and its settle window has passed.
    ///
    /// Returns the entry now on turn, or nil when nothing was committed.
    public mutating func commitHead(at now: Instant) -> Entry? {
        guard !isTurnActive, committedCount < presses.count, let deadline = commitDeadline, now >= deadline else {
            return nil
        }
        committedCount += 1
        isTurnActive = true
        commitDeadline = nil
        return entries[committedCount - 1]
    }

    /// Ends the turn of the team on turn; whoever waits next may be committed from `now`.
    public mutating func endTurn(at now: Instant) {
        guard isTurnActive else { return }
        isTurnActive = false
        commitDeadline = committedCount < presses.count ? now : nil
    }

    /// Moves the pending commit deadline, for a paused game that resumes.
    public mutating func shiftDeadlines(byMilliseconds milliseconds: Int64) {
        commitDeadline = commitDeadline?.advanced(byMilliseconds: milliseconds)
    }

    /// Recomputes tie groups over every press and re-sorts the waiting run.
    private mutating func reorder() {
        let count = presses.count
        // Tie groups are the connected components of "closer than the combined uncertainty".
        var parent = Array(0..<count)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        for i in 0..<count {
            for j in (i + 1)..<count {
                let gap = abs(presses[i].pressedAt.milliseconds - presses[j].pressedAt.milliseconds)
                if gap < presses[i].uncertaintyMs + presses[j].uncertaintyMs {
                    parent[root(j)] = root(i)
                }
            }
        }
        var groupSize: [Int: Int] = [:]
        var groupStart: [Int: Int64] = [:]
        var groupKey: [Int: UInt64] = [:]
        for index in 0..<count {
            let group = root(index)
            groupSize[group, default: 0] += 1
            groupStart[group] = min(groupStart[group] ?? .max, presses[index].pressedAt.milliseconds)
            groupKey[group] = min(groupKey[group] ?? .max, presses[index].tieKey)
        }
        for index in 0..<count {
            presses[index].isTied = groupSize[root(index)]! > 1
        }
        // Groups by their earliest press (equal starts by a random group key), then by tie key inside a group.
        func sortKey(_ index: Int) -> (Int64, UInt64, UInt64, String) {
            let group = root(index)
            return (groupStart[group]!, groupKey[group]!, presses[index].tieKey, presses[index].team)
        }
        let waiting = (committedCount..<count).sorted { sortKey($0) < sortKey($1) }.map { presses[$0] }
        presses.replaceSubrange(committedCount..<count, with: waiting)
    }
}
