// Lists nobody leaves (a game's roster, the hunt's progress, a round's lock-ins) share one delta: the items that
// are new or changed, under the list's own wire key, with the list's length after the change. A reader whose list
// does not come to that length has missed something and asks for the whole list.

/// A growing state whose items never leave; its delta is a `KeptListDelta`.
public protocol KeptList: GrowingState, KeptListWording where Delta == KeptListDelta<Self> {
    /// This state holding `items` instead, every other field as it is.
    func holding(_ items: [Item]) -> Self
}

/// What a `KeptListDelta` needs of its list: the names on the wire and the line (apart from `KeptList` so that the
/// delta's generic requirement does not refer to itself).
public protocol KeptListWording: Sendable {
    /// The list's item.
    associatedtype Item: ListItem
    /// The whole list's wire `type`.
    static var type: String { get }
    /// The delta's wire `type` (`gameUpdate`, `progressUpdate`).
    static var deltaType: String { get }
    /// The wire key of the delta's items (`players`, `teams`).
    static var deltaItemsKey: String { get }
    /// The line a person reads for a delta that brings `items` (never empty), with `count` items in the list after
    /// it.
    static func line(for items: [Item], count: Int, reader: Perspective) -> String?
}

extension KeptList {
    /// The delta that brings `changed`; a kept list never removes.
    public func delta(seq: Int, changed: [Item], removed: [String]) -> Delta {
        KeptListDelta(seq: seq, count: items.count, items: changed)
    }

    /// This state holding `items`.
    public func updated(items: [Item], by delta: Delta) -> Self { holding(items) }
}

/// What changed in a `KeptList` since the last whole state or delta: new and changed items, and the list's length.
public struct KeptListDelta<State: KeptListWording>: StateDelta {
    /// The wire `type`, the list's own.
    public static var type: String { State.deltaType }
    /// The `type` of the whole list.
    public static var stateType: String { State.type }
    /// The list's version after this change.
    public var seq: Int?
    /// How many items the list holds after this change.
    public var count: Int
    /// The new and changed items (with `at` where needed).
    public var items: [State.Item]
    /// In a hall's cut copy only (PROTOCOL.md §6.0.1): how many rows the whole list has (`count` is the copy's).
    public var total: Int?

    /// Creates the delta.
    public init(seq: Int?, count: Int, items: [State.Item], total: Int? = nil) {
        self.seq = seq
        self.count = count
        self.items = items
        self.total = total
    }

    /// The new and changed items.
    public var changed: [State.Item] { items }
    /// Nobody leaves a kept list.
    public var removed: [String] { [] }
    /// The list's length after this change: a reader that comes to another length missed a change.
    public var expectedCount: Int? { count }

    /// The list's own line for these items (`Dan joins the game (5 players).`).
    public func line(for reader: Perspective) -> String? {
        items.isEmpty ? nil : State.line(for: items, count: count, reader: reader)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static var seq: Key { Key(stringValue: "seq") }
        static var count: Key { Key(stringValue: "count") }
        static var items: Key { Key(stringValue: State.deltaItemsKey) }
        static var total: Key { Key(stringValue: "total") }
    }

    /// Reads `seq`, `count` and the items under the list's key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        seq = try container.decodeIfPresent(Int.self, forKey: .seq)
        count = try container.decode(Int.self, forKey: .count)
        items = try container.decode([State.Item].self, forKey: .items)
        total = try container.decodeIfPresent(Int.self, forKey: .total)
    }

    /// Writes `seq` (when numbered), `count`, the items under the list's key and `total` (in a hall), in that order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(seq, forKey: .seq)
        try container.encode(count, forKey: .count)
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(total, forKey: .total)
    }
}
