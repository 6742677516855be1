/// A table cut for a hall's player (PROTOCOL.md §6.0.1): their own team's row and the top rows, with the whole
/// table's size in `total` so that a reader can say how many it does not show.
public protocol HallRows: HostMessage {
    /// The team of each row of each of the message's tables (one table per list of teams), in order.
    var hallTables: [[String]] { get }
    /// This message with table `t` cut to the rows at `kept[t]` (ascending indices) and `total` set to `total`.
    func keeping(_ kept: [[Int]], total: Int) -> Self
    /// Each table's rows as their JSON array (`[{…},{…}]`), in the order of `hallTables`.
    func hallTableBytes() -> [[UInt8]]
    /// The JSON of row `row` of table `table`.
    func hallRowBytes(table: Int, row: Int) -> [UInt8]?
}

extension HallRows {
    /// This message as a player of `team` sees it in a hall: each table's first `top` rows and `team`'s own row;
    /// nil when every table is that short already. `team` matches a row's team as the room spells it (the games
    /// name teams so), compared exactly: a join's catch-up must not fold a thousand names.
    public func cut(forTeam team: String?, top: Int) -> Self? {
        let tables = hallTables
        guard tables.contains(where: { $0.count > top + 1 }) else { return nil }
        let kept = tables.map { teams -> [Int] in
            var rows = Array(0..<min(top, teams.count))
            if let team, teams.count > top, let own = teams[top...].firstIndex(of: team) { rows.append(own) }
            return rows
        }
        return keeping(kept, total: tables.map(\.count).max() ?? 0)
    }
}

extension Array {
    /// The elements at `indices` (which must be valid), in that order.
    func picking(_ indices: [Int]) -> [Element] { indices.map { self[$0] } }
}

extension Wording {
    /// ` … and 980 more teams` when a hall's copy of a table shows `shown` of `total` rows, else nothing.
    public static func moreTeams(shown: Int, total: Int?) -> String {
        guard let total, total > shown else { return "" }
        return " … and " + count(total - shown, "more team", "more teams")
    }
}

extension OutsiderWire.Reveal: HallRows {
    public var hallTables: [[String]] { [results.map(\.team), scores.map(\.team)] }

    public func hallTableBytes() -> [[UInt8]] {
        [(try? JSONCoding.bytes(results)) ?? [], (try? JSONCoding.bytes(scores)) ?? []]
    }

    public func hallRowBytes(table: Int, row: Int) -> [UInt8]? {
        table == 0 ? try? JSONCoding.bytes(results[row]) : try? JSONCoding.bytes(scores[row])
    }

    public func keeping(_ kept: [[Int]], total: Int) -> Self {
        var copy = self
        copy.results = results.picking(kept[0])
        copy.scores = scores.picking(kept[1])
        copy.total = total
        return copy
    }
}

/// A message with one table of team rows (a ranking, a team list): its cut is written once, through the table's
/// key path.
public protocol RankingRows: HallRows {
    /// The row type, which names its team.
    associatedtype Row: Encodable
    /// The table.
    static var rows: WritableKeyPath<Self, [Row]> { get }
    /// A row's team.
    static var team: KeyPath<Row, String> { get }
    /// How many rows the whole table has, in a hall's cut copy.
    var total: Int? { get set }
}

extension RankingRows {
    public var hallTables: [[String]] { [self[keyPath: Self.rows].map { $0[keyPath: Self.team] }] }

    public func hallTableBytes() -> [[UInt8]] { [(try? JSONCoding.bytes(self[keyPath: Self.rows])) ?? []] }

    public func hallRowBytes(table: Int, row: Int) -> [UInt8]? { try? JSONCoding.bytes(self[keyPath: Self.rows][row]) }

    public func keeping(_ kept: [[Int]], total: Int) -> Self {
        var copy = self
        copy[keyPath: Self.rows] = self[keyPath: Self.rows].picking(kept[0])
        copy.total = total
        return copy
    }
}

extension ShakyWire.Scoreboard: RankingRows {
    public static var rows: WritableKeyPath<Self, [ShakyWire.Standing]> { \.ranking }
    public static var team: KeyPath<ShakyWire.Standing, String> { \.team }
}

extension ShakyWire.Scores: RankingRows {
    public static var rows: WritableKeyPath<Self, [ShakyWire.Standing]> { \.ranking }
    public static var team: KeyPath<ShakyWire.Standing, String> { \.team }
}

extension HuntWire.Scoreboard: RankingRows {
    public static var rows: WritableKeyPath<Self, [HuntWire.Ranked]> { \.ranking }
    public static var team: KeyPath<HuntWire.Ranked, String> { \.team }
}

extension HuntWire.Scores: RankingRows {
    public static var rows: WritableKeyPath<Self, [HuntWire.Ranked]> { \.ranking }
    public static var team: KeyPath<HuntWire.Ranked, String> { \.team }
}

extension OutsiderWire.Intro: RankingRows {
    public static var rows: WritableKeyPath<Self, [String]> { \.teams }
    public static var team: KeyPath<String, String> { \.self }
}

extension HuntWire.Intro: RankingRows {
    public static var rows: WritableKeyPath<Self, [String]> { \.teams }
    public static var team: KeyPath<String, String> { \.self }
}

/// A growing list with a row per team that a hall's players get cut (PROTOCOL.md §6.0.1): the top rows and their
/// own team's row, with the whole list's length in `total`, whole and in each delta.
public protocol HallList: GrowingState where Delta: HallDelta {
    /// How many rows the whole list has, in a hall's cut copy; nil in a copy that lists every row.
    var total: Int? { get set }
    /// Whether a delta of this list can remove rows (a kept list's cannot: its copy then comes whole).
    static var canRemove: Bool { get }
    /// This list holding `items` instead, every other field as it is.
    func holding(_ items: [Item]) -> Self
}

/// The delta of a `HallList`, which says the whole list's length in a hall's cut copy.
public protocol HallDelta: StateDelta {
    /// How many rows the whole list has after this change, in a hall's cut copy; nil otherwise.
    var total: Int? { get set }
}

extension KeptListDelta: HallDelta {}

extension HallList {
    /// This list cut to its first `top` rows and the row at `own` (when at or beyond `top`), with `total` set.
    public func cut(top: Int, own: Int?) -> Self {
        var rows = Array(items.prefix(top))
        if let own, own >= top, own < items.count { rows.append(items[own]) }
        var copy = holding(rows)
        copy.seq = seq
        copy.total = items.count
        return copy
    }

    /// The index of `team`'s row below the first `top` rows (the team spelled as the list spells it), if any.
    public func ownRow(of team: String?, top: Int) -> Int? {
        guard let team, items.count > top else { return nil }
        return items.indices.dropFirst(top).first { items[$0].key == team }
    }

    /// What brings a hall player's cut copy from `before` (the version they hold) to this one, for the team whose
    /// row is at `ownBefore` and `ownNow`: a delta with `total`, or the whole cut when a row left their copy.
    public func hallChange(from before: Self?, ownBefore: Int?, ownNow: Int?, top: Int) -> any HostMessage {
        let now = cut(top: top, own: ownNow)
        guard let before, let seq else { return now }
        let held = before.cut(top: top, own: ownBefore)
        guard let (changed, removed) = ListDiff.changes(from: held.items, to: now.items),
            removed.isEmpty || Self.canRemove
        else { return now }
        var delta = now.delta(seq: seq, changed: changed, removed: removed)
        delta.total = items.count
        return delta
    }
}

extension TeamSizes: HallList {
    /// A team with nobody left leaves the team sizes.
    public static var canRemove: Bool { true }

    /// These sizes holding `items`.
    public func holding(_ items: [TeamSize]) -> TeamSizes {
        TeamSizes(room: room, count: count, teams: items, seq: seq, total: total)
    }
}

extension TeamSizesUpdate: HallDelta {}

extension HuntWire.Progress: HallList {
    /// No team leaves a hunt.
    public static var canRemove: Bool { false }

    /// This progress holding `items`, with the `total` the delta carries (a hall's copy says it in every delta).
    public func updated(items: [HuntWire.TeamProgress], by delta: Delta) -> Self {
        var copy = holding(items)
        copy.total = delta.total
        return copy
    }
}
