// Growing states (PROTOCOL.md §6.0): lists that grow during a game or in the lobby, such as the roster or the buzz
// order, are sent whole once and then as deltas with a sequence number, so what a change costs the network grows
// with the change, not with the list. Generic: nothing here names a game.

/// An item of a list that grows (a player in the lobby, a team in the buzz order): it has a key, and in a delta it
/// may say where it goes.
public protocol ListItem: Codable, Sendable, Equatable {
    /// What tells this item apart from the others of its list (a name, a team).
    var key: String { get }
    /// In a delta only: the item's index in the new list, when it must be inserted there. Absent in whole states,
    /// and in a delta for an item that stays where it was (changed in place) or goes at the end.
    var at: Int? { get set }
}

/// A list state the host streams: sent whole (on joining, at a phase change, on `resync`) and otherwise as its
/// `Delta`, each carrying the next `seq`.
public protocol GrowingState: HostMessage {
    /// The list's item.
    associatedtype Item: ListItem
    /// The message that carries a change of this state.
    associatedtype Delta: StateDelta where Delta.Item == Item
    /// The list, in order.
    var items: [Item] { get }
    /// The version this message holds; nil when the host did not number it (then the next delta asks for `resync`).
    var seq: Int? { get set }
    /// The delta from the previous version to this one: `changed` and `removed` items, with this state's other
    /// fields (a head count, a clock) as they are now.
    func delta(seq: Int, changed: [Item], removed: [String]) -> Delta
    /// This state with `items`, the result of applying `delta`, and the other fields `delta` carries.
    func updated(items: [Item], by delta: Delta) -> Self
}

/// A change to a `GrowingState`: the items that are new or changed, the keys that went, and the new version.
public protocol StateDelta: HostMessage {
    /// The list's item.
    associatedtype Item: ListItem
    /// The `type` of the whole state this delta changes (what `resync` names).
    static var stateType: String { get }
    /// The version after this change: one more than the version it applies to. Nil only from older hosts.
    var seq: Int? { get }
    /// New and changed items (with `at` where the position must be said).
    var changed: [Item] { get }
    /// Keys of the items that left the list.
    var removed: [String] { get }
    /// How many items the list must hold after this change, when the delta says (else nil): a list that comes to
    /// another length missed a change and is asked for whole.
    var expectedCount: Int? { get }
}

extension StateDelta {
    /// Most deltas do not say the list's length.
    public var expectedCount: Int? { nil }
}

/// What a reader does with a delta, given the whole state it holds.
public enum DeltaFollowing<State: GrowingState>: Equatable {
    /// The delta follows the state held: this is the state now.
    case updated(State)
    /// The state held is already this version or newer (a catch-up crossed the delta): nothing to do.
    case stale
    /// A version was missed, the state held is unknown, or the delta does not fit: ask for the whole state.
    case gap
}

extension GrowingState {
    /// This state changed by `delta`; nil when the delta does not fit it.
    public func applying(_ delta: Delta) -> Self? {
        guard let items = ListDiff.apply(changed: delta.changed, removed: delta.removed, to: items),
            delta.expectedCount.map({ $0 == items.count }) ?? true
        else { return nil }
        var next = updated(items: items, by: delta)
        next.seq = delta.seq
        return next
    }

    /// The delta that turns `previous` into this state, numbered `seq`; nil when the keys are not unique.
    public func delta(from previous: Self, seq: Int) -> Delta? {
        guard let (changed, removed) = ListDiff.changes(from: previous.items, to: items) else { return nil }
        return delta(seq: seq, changed: changed, removed: removed)
    }

    /// How a reader holding `current` follows `delta`.
    public static func follow(_ current: Self?, with delta: Delta) -> DeltaFollowing<Self> {
        guard let current else { return .gap }
        guard let version = current.seq, let next = delta.seq else {
            // An unnumbered delta (an older host) applies to whatever the reader holds.
            return current.applying(delta).map { .updated($0) } ?? .gap
        }
        if next <= version { return .stale }
        guard next == version + 1, let updated = current.applying(delta) else { return .gap }
        return .updated(updated)
    }
}

/// The changes between two versions of a keyed list, and applying them (PROTOCOL.md §6.0).
///
/// A reader applies a delta in four steps: drop `removed`; drop every changed item that has `at`; replace each
/// changed item without `at` where its key is, or append it when the key is new; then insert the items with `at`
/// in ascending `at`. `changes` keeps the longest run of items whose relative order did not change in place, so a
/// new item at the end costs one item, and an item inserted in the middle one item with its `at`.
public enum ListDiff {
    /// What turns `old` into `new`: new or changed items (positioned where needed) and removed keys; nil when a key
    /// appears twice in either list.
    public static func changes<Item: ListItem>(from old: [Item], to new: [Item]) -> (
        changed: [Item], removed: [String]
    )? {
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, item) in old.enumerated() {
            guard oldIndex.updateValue(index, forKey: item.key) == nil else { return nil }
        }
        var newKeys: Set<String> = []
        newKeys.reserveCapacity(new.count)
        for item in new {
            guard newKeys.insert(item.key).inserted else { return nil }
        }
        let removed = old.filter { !newKeys.contains($0.key) }.map(\.key)
        // Items present in both, in their new order, by their old index: the longest increasing run stays put.
        var shared: [(newIndex: Int, oldIndex: Int)] = []
        for (index, item) in new.enumerated() {
            if let before = oldIndex[item.key] { shared.append((index, before)) }
        }
        let kept = Set(longestIncreasingRun(shared.map(\.oldIndex)).map { shared[$0].newIndex })
        let lastKept = kept.max() ?? -1
        var changed: [Item] = []
        for (index, item) in new.enumerated() {
            var item = item
            item.at = nil
            if kept.contains(index) {
                var before = old[oldIndex[item.key]!]
                before.at = nil
                if before != item { changed.append(item) }
            } else if oldIndex[item.key] == nil && index > lastKept {
                changed.append(item)  // new at the end: appended in order
            } else {
                item.at = index
                changed.append(item)
            }
        }
        return (changed, removed)
    }

    /// `list` changed by `changed` and `removed` (the four steps above); nil when they do not fit: a removed key or
    /// a position the list does not have, or a key twice.
    public static func apply<Item: ListItem>(changed: [Item], removed: [String], to list: [Item]) -> [Item]? {
        var result = list.map { item -> Item in
            var item = item
            item.at = nil
            return item
        }
        let dropped = Set(removed)
        guard dropped.count == removed.count else { return nil }
        let positioned = changed.filter { $0.at != nil }
        let moving = Set(positioned.map(\.key))
        guard moving.count == positioned.count else { return nil }
        let before = result.count
        result.removeAll { dropped.contains($0.key) }
        guard result.count == before - dropped.count else { return nil }
        result.removeAll { moving.contains($0.key) }
        var index: [String: Int] = [:]
        for (position, item) in result.enumerated() {
            guard index.updateValue(position, forKey: item.key) == nil else { return nil }
        }
        for item in changed where item.at == nil {
            guard !moving.contains(item.key) else { return nil }
            if let position = index[item.key] {
                result[position] = item
            } else {
                index[item.key] = result.count
                result.append(item)
            }
        }
        for item in positioned.sorted(by: { $0.at! < $1.at! }) {
            let position = item.at!
            guard position >= 0, position <= result.count else { return nil }
            var placed = item
            placed.at = nil
            result.insert(placed, at: position)
        }
        return result
    }

    /// Indices into `values` of one longest strictly increasing subsequence, in order.
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the smallest tail of a run of each length
        var previous = Array(repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(cursor)
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
