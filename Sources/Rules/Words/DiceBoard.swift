import Common

/// A board of the compound-words dice game: tiles with a question word each at a grid position, joined by
/// undirected paths, one of them the start.
///
/// Invariants of every board the library holds (`checkedStructure`): tile ids are unique, 1…999; tiles sit on
/// distinct cells of the `gridWidth` × `gridHeight` grid; every path joins two different tiles in the same row or
/// column with no tile between them, no path repeats and no two paths cross — so a board can always be drawn from
/// its grid positions. Whether a board can be played (two tiles or more, every tile on a path, one start, every
/// tile reachable from it) is `completenessProblem`, asked when a game starts, because a board built on the
/// console passes through unfinished states.
public struct DiceBoard: Codable, Sendable, Hashable, Identifiable {
    /// Columns of the grid (x is 0…gridWidth − 1).
    public static let gridWidth = 12
    /// Rows of the grid (y is 0…gridHeight − 1).
    public static let gridHeight = 8
    /// The highest tile id.
    public static let maximumTileID = 999
    /// The longest board name.
    public static let maximumNameLength = 60

    /// One tile: a question word at a grid cell.
    public struct Tile: Codable, Sendable, Hashable {
        /// The tile's id, unique on its board (paths name tiles by id).
        public var id: Int
        /// The question word answered on this tile.
        public var word: String
        /// The grid column, 0 at the left.
        public var x: Int
        /// The grid row, 0 at the top.
        public var y: Int
        /// Whether every token starts here.
        public var isStart: Bool

        /// Creates a tile.
        public init(id: Int, word: String, x: Int, y: Int, isStart: Bool = false) {
            self.id = id
            self.word = word
            self.x = x
            self.y = y
            self.isStart = isStart
        }
    }

    /// An undirected path between two tiles, stored with the lower id first.
    public struct Path: Codable, Sendable, Hashable {
        /// The lower tile id.
        public var a: Int
        /// The higher tile id.
        public var b: Int

        /// The path between `first` and `second`, in either order.
        public init(_ first: Int, _ second: Int) {
            a = min(first, second)
            b = max(first, second)
        }

        /// Whether the path ends at `tile`.
        public func touches(_ tile: Int) -> Bool { a == tile || b == tile }

        /// The other end, seen from `tile`.
        public func other(than tile: Int) -> Int { a == tile ? b : a }

        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            self.init(try container.decode(Int.self), try container.decode(Int.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(a)
            try container.encode(b)
        }
    }

    /// A short stable identifier (`garden`).
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The id of the word list the tiles' words come from.
    public var list: String
    /// The level of that list.
    public var level: Int
    /// Whether the board ships with the host.
    public var isBuiltin: Bool
    /// The tiles, in the order they were added.
    public var tiles: [Tile]
    /// The paths.
    public var paths: [Path]

    /// Creates a board.
    public init(
        id: String, name: String, list: String, level: Int, isBuiltin: Bool = false, tiles: [Tile] = [],
        paths: [Path] = []
    ) {
        self.id = id
        self.name = name
        self.list = list
        self.level = level
        self.isBuiltin = isBuiltin
        self.tiles = tiles
        self.paths = paths
    }

    // MARK: Looking up

    /// The tile `id`.
    public func tile(_ id: Int) -> Tile? { tiles.first { $0.id == id } }

    /// The start tile, when there is exactly one.
    public var start: Tile? {
        let starts = tiles.filter(\.isStart)
        return starts.count == 1 ? starts[0] : nil
    }

    /// The tiles one path away from `tile`, in id order.
    public func neighbours(of tile: Int) -> [Int] {
        paths.filter { $0.touches(tile) }.map { $0.other(than: tile) }.sorted()
    }

    // MARK: Rules

    /// Throws `bad_board` with the first structural rule the board breaks (see the type's invariants).
    public func checkStructure() throws(RuleError) {
        if let flaw = structuralFlaw { throw RuleError(.badBoard, flaw.message(on: self)) }
    }

    /// Why the board cannot be played yet, or nil when it can.
    public var completenessProblem: String? { completenessFlaw?.message(on: self) }

    /// The first structural rule the board breaks (see the type's invariants), or nil.
    public var structuralFlaw: Flaw? {
        var ids: Set<Int> = []
        var cells: [[Int]: Int] = [:]
        for tile in tiles {
            guard (1...Self.maximumTileID).contains(tile.id) else { return .tileIDOutOfRange(tile.id) }
            guard ids.insert(tile.id).inserted else { return .tileIDTwice(tile.id) }
            guard !tile.word.isEmpty, tile.word.allSatisfy(\.isLetter), tile.word.count <= WordList.maximumWordLength
            else { return .badWord(tile.id) }
            guard (0..<Self.gridWidth).contains(tile.x), (0..<Self.gridHeight).contains(tile.y) else {
                return .offGrid(tile.id)
            }
            if let other = cells[[tile.x, tile.y]] { return .sameCell(other, tile.id) }
            cells[[tile.x, tile.y]] = tile.id
        }
        var seen: Set<Path> = []
        for path in paths {
            guard path.a != path.b else { return .pathToItself(path.a) }
            guard let first = tile(path.a), let second = tile(path.b) else {
                return .pathToMissingTile(path, missing: tile(path.a) == nil ? path.a : path.b)
            }
            guard first.x == second.x || first.y == second.y else { return .pathNotStraight(path) }
            if let between = cellsBetween(first, second).compactMap({ cells[$0] }).first {
                return .pathOverTile(path, between)
            }
            guard seen.insert(path).inserted else { return .pathTwice(path) }
        }
        for (index, path) in paths.enumerated() {
            for other in paths[(index + 1)...] where crosses(path, other) { return .pathsCross(path, other) }
        }
        return nil
    }

    /// Why the board cannot be played yet (two tiles or more, every tile on a path, one start, every tile
    /// reachable from it), or nil when it can.
    public var completenessFlaw: Flaw? {
        guard tiles.count >= 2 else { return .tooFewTiles }
        let starts = tiles.filter(\.isStart)
        guard let start = starts.first else { return .noStart }
        guard starts.count == 1 else { return .manyStarts(starts.map(\.id)) }
        if let lonely = tiles.first(where: { neighbours(of: $0.id).isEmpty }) { return .lonelyTile(lonely.id) }
        var reached: Set<Int> = []
        var frontier = [start.id]
        while let id = frontier.popLast() {
            guard reached.insert(id).inserted else { continue }
            frontier += neighbours(of: id)
        }
        if let away = tiles.first(where: { !reached.contains($0.id) }) { return .unreachable(away.id) }
        return nil
    }

    /// The grid cells strictly between two tiles of one row or column.
    private func cellsBetween(_ first: Tile, _ second: Tile) -> [[Int]] {
        if first.y == second.y {
            return (min(first.x, second.x) + 1..<max(first.x, second.x)).map { [$0, first.y] }
        }
        return (min(first.y, second.y) + 1..<max(first.y, second.y)).map { [first.x, $0] }
    }

    /// Whether a path along a row and one along a column cross between tiles.
    private func crosses(_ one: Path, _ other: Path) -> Bool {
        guard let a1 = tile(one.a), let a2 = tile(one.b), let b1 = tile(other.a), let b2 = tile(other.b) else {
            return false
        }
        func cross(_ row: (Tile, Tile), _ column: (Tile, Tile)) -> Bool {
            guard row.0.y == row.1.y, column.0.x == column.1.x, row.0.x != row.1.x, column.0.y != column.1.y else {
                return false
            }
            let x = column.0.x
            let y = row.0.y
            return min(row.0.x, row.1.x) < x && x < max(row.0.x, row.1.x)
                && min(column.0.y, column.1.y) < y && y < max(column.0.y, column.1.y)
        }
        return cross((a1, a2), (b1, b2)) || cross((b1, b2), (a1, a2))
    }

    // MARK: Moving

    /// The tiles a token at `tile` may step to next, having come from `cameFrom` (nil on the first step of a
    /// roll): any neighbour, except back along the path it came by — unless that is the only way (a dead end).
    public func nextSteps(at tile: Int, cameFrom: Int?) -> [Int] {
        let all = neighbours(of: tile)
        guard let cameFrom, all.count > 1 else { return all }
        return all.filter { $0 != cameFrom }
    }

    /// Every tile where a walk of exactly `steps` steps from `tile` can end, under the rule of `nextSteps`.
    public func reachable(from tile: Int, steps: Int) -> Set<Int> {
        struct Position: Hashable {
            var tile: Int
            var cameFrom: Int?
        }
        var positions: Set<Position> = [Position(tile: tile, cameFrom: nil)]
        for _ in 0..<steps {
            var next: Set<Position> = []
            for position in positions {
                for step in nextSteps(at: position.tile, cameFrom: position.cameFrom) {
                    next.insert(Position(tile: step, cameFrom: position.tile))
                }
            }
            positions = next
        }
        return Set(positions.map(\.tile))
    }

    /// The helpful die: the numbers 1…6 with which a token at `tile` can end its walk on a tile of `unfinished`;
    /// empty when none can.
    public func helpfulNumbers(from tile: Int, unfinished: Set<Int>) -> [Int] {
        (1...6).filter { !reachable(from: tile, steps: $0).isDisjoint(with: unfinished) }
    }

    /// Rolls the helpful die for a token at `tile`: where an unfinished tile can be reached in 1–6 steps, a number
    /// drawn evenly from those that can reach one (`isHelpful` true); otherwise a fair roll of 1…6.
    public func rollHelpfulDie(
        from tile: Int, unfinished: Set<Int>, using rng: inout some RandomNumberGenerator
    ) -> (value: Int, isHelpful: Bool) {
        let helpful = helpfulNumbers(from: tile, unfinished: unfinished)
        guard !helpful.isEmpty else { return (Int.random(in: 1...6, using: &rng), false) }
        return (helpful[Int.random(in: 0..<helpful.count, using: &rng)], true)
    }
}
