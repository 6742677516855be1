/// The players of a game of Let Me Fly, in the order they came, found by name in O(1). Their storage is a
/// `ChunkedList`, so the copy the rules make for every event (`LetMeFly.play` works on a copy and keeps it only when
/// the event is accepted) costs a chunk, not a hall's 1,100 players.
///
/// Encoded as the plain list of players (the same JSON as the array it replaces); equal when the lists are.
public struct FlyRoster: RandomAccessCollection, Sendable, Equatable, Codable {
    /// The players, in the order they came.
    public private(set) var elements = ChunkedList<FlyPlayer>()
    /// Each player's place by lower-cased name.
    private var places: [String: Int] = [:]

    /// A roster of `players` (names already unique in any case).
    public init(_ players: [FlyPlayer] = []) {
        for player in players { append(player) }
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

    /// The first place.
    public var startIndex: Int { 0 }
    /// Past the last place.
    public var endIndex: Int { elements.count }

    /// The player at `position`, changed in place (the game never renames a player).
    public internal(set) subscript(position: Int) -> FlyPlayer {
        get { elements[position] }
        _modify {
            yield &elements[position]
            assert(places[elements[position].name.lowercased()] != nil, "a Let Me Fly player was renamed")
        }
    }

    /// The place of the player called `name` (any case), in O(1).
    public func index(named name: String) -> Int? { places[name.lowercased()] }

    /// Adds a player at the end.
    mutating func append(_ player: FlyPlayer) {
        let key = player.name.lowercased()
        if places[key] == nil { places[key] = elements.count }
        elements.append(player)
    }
}
