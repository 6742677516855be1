/// The players of a game of Let Me Fly, in the order they came, found by name in O(1), and able to put back what
/// one event changed: an event of a 1,100-player hall touches one or two entries, so `LetMeFly.play` works on the
/// game in place and, when the event is refused, restores the entries as they were (copying the whole roster for
/// every event, to throw the copy away on a refusal, was most of the rules' cost in a hall).
///
/// Encoded as the plain list of players (the same JSON as the array it replaces); equal when the lists are.
public struct FlyRoster: RandomAccessCollection, Sendable, Equatable, Codable {
    /// The players, in the order they came.
    public private(set) var elements: [FlyPlayer] = []
    /// Each player's place by lower-cased name.
    private var places: [String: Int] = [:]
    /// While changes are recorded (`beginChanges`): each changed entry as it was before its first change, and how
    /// many players there were.
    private var before: [Int: FlyPlayer]?
    private var countBefore = 0

    /// A roster of `players` (names already unique in any case).
    public init(_ players: [FlyPlayer] = []) {
        elements = players
        for (index, player) in players.enumerated() where places[player.name.lowercased()] == nil {
            places[player.name.lowercased()] = index
        }
    }

    /// Reads the plain list of players.
    public init(from decoder: any Decoder) throws {
        self.init(try [FlyPlayer](from: decoder))
    }

    /// Writes the plain list of players.
    public func encode(to encoder: any Encoder) throws {
        try elements.encode(to: encoder)
    }

    /// Equal when the lists of players are.
    public static func == (lhs: FlyRoster, rhs: FlyRoster) -> Bool { lhs.elements == rhs.elements }

    /// Walks the players as the array does (no copy of each player through the subscript).
    public func makeIterator() -> IndexingIterator<[FlyPlayer]> { elements.makeIterator() }

    /// The players' storage, for the algorithms that can use it.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<FlyPlayer>) throws -> R) rethrows
        -> R?
    {
        try elements.withUnsafeBufferPointer(body)
    }

    /// The first place.
    public var startIndex: Int { 0 }
    /// Past the last place.
    public var endIndex: Int { elements.count }

    /// The player at `position`; a change is recorded while changes are, and made in place.
    public internal(set) subscript(position: Int) -> FlyPlayer {
        get { elements[position] }
        _modify {
            if before != nil, position < countBefore, before?[position] == nil {
                before?[position] = elements[position]
            }
            let oldName = elements[position].name
            yield &elements[position]
            if elements[position].name != oldName { renamed(at: position, from: oldName) }
        }
    }

    /// Keeps `places` right after the player at `position` was renamed (the game never renames; kept exact anyway).
    private mutating func renamed(at position: Int, from oldName: String) {
        let oldKey = oldName.lowercased()
        if places[oldKey] == position { places[oldKey] = nil }
        let newKey = elements[position].name.lowercased()
        if places[newKey] == nil { places[newKey] = position }
    }

    /// The place of the player called `name` (any case), in O(1).
    public func index(named name: String) -> Int? { places[name.lowercased()] }

    /// Adds a player at the end.
    mutating func append(_ player: FlyPlayer) {
        let key = player.name.lowercased()
        if places[key] == nil { places[key] = elements.count }
        elements.append(player)
    }

    /// Starts recording changes, so that `revertChanges` can undo them.
    mutating func beginChanges() {
        before = [:]
        countBefore = elements.count
    }

    /// Keeps the changes made since `beginChanges`.
    mutating func keepChanges() {
        before = nil
    }

    /// Puts back every entry changed and drops every player added since `beginChanges`.
    mutating func revertChanges() {
        guard let changed = before else { return }
        before = nil
        if elements.count > countBefore {
            for player in elements[countBefore...] where places[player.name.lowercased()] ?? -1 >= countBefore {
                places[player.name.lowercased()] = nil
            }
            elements.removeSubrange(countBefore...)
        }
        for (position, player) in changed { self[position] = player }
    }
}
