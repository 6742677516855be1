import Common

extension DiceBoard {
    /// One rule a board breaks, naming the tiles and paths involved: the console words it by tile ids
    /// (`message(on:)`), the tablet's board editor by the tiles' words (`editorMessage(on:)`), so a child reads it
    /// and the editor marks the tiles and paths on the grid.
    public enum Flaw: Sendable, Hashable {
        /// A tile id outside 1…999.
        case tileIDOutOfRange(Int)
        /// Two tiles share an id.
        case tileIDTwice(Int)
        /// A tile's word is empty, too long or not all letters.
        case badWord(Int)
        /// A tile lies off the grid.
        case offGrid(Int)
        /// Two tiles (the first placed, then the second) sit on one cell.
        case sameCell(Int, Int)
        /// A path from a tile to itself.
        case pathToItself(Int)
        /// A path names a tile that is not on the board.
        case pathToMissingTile(Path, missing: Int)
        /// A path runs along neither a row nor a column.
        case pathNotStraight(Path)
        /// A path runs over a tile.
        case pathOverTile(Path, Int)
        /// A path is there twice.
        case pathTwice(Path)
        /// Two paths cross between tiles.
        case pathsCross(Path, Path)
        /// Fewer than two tiles.
        case tooFewTiles
        /// No start tile.
        case noStart
        /// More than one start tile.
        case manyStarts([Int])
        /// A tile on no path.
        case lonelyTile(Int)
        /// A tile the start cannot reach.
        case unreachable(Int)

        /// The tiles to mark on the grid.
        public var tiles: [Int] {
            switch self {
            case .tileIDOutOfRange(let id), .tileIDTwice(let id), .badWord(let id), .offGrid(let id),
                .pathToItself(let id), .lonelyTile(let id), .unreachable(let id):
                [id]
            case .sameCell(let first, let second): [first, second]
            case .pathOverTile(_, let tile): [tile]
            case .manyStarts(let ids): ids
            case .pathToMissingTile, .pathNotStraight, .pathTwice, .pathsCross, .tooFewTiles, .noStart: []
            }
        }

        /// The paths to mark on the grid.
        public var paths: [Path] {
            switch self {
            case .pathToMissingTile(let path, _), .pathNotStraight(let path), .pathOverTile(let path, _),
                .pathTwice(let path):
                [path]
            case .pathsCross(let one, let other): [one, other]
            default: []
            }
        }

        /// The refusal as the console words it (tiles by id), for `board`'s commands and `start`.
        public func message(on board: DiceBoard) -> String {
            let name = board.name
            func at(_ id: Int) -> String {
                guard let tile = board.tile(id) else { return "?" }
                return "\(tile.x),\(tile.y)"
            }
            func word(_ id: Int) -> String { board.tile(id)?.word ?? "" }
            switch self {
            case .tileIDOutOfRange(let id): return "Tile ids are 1 to \(DiceBoard.maximumTileID), not \(id)."
            case .tileIDTwice(let id): return "The tile id \(id) is used twice."
            case .badWord(let id):
                return "Tile \(id)'s word must be one word of letters, not "
                    + "\"\(ContentText.excerpt(word(id), limit: 30))\"."
            case .offGrid(let id):
                let tile = board.tile(id)
                return "Tile \(id) at x \(tile?.x ?? 0), y \(tile?.y ?? 0) is off the grid (x 0…"
                    + "\(DiceBoard.gridWidth - 1), y 0…\(DiceBoard.gridHeight - 1))."
            case .sameCell(let other, let id):
                let tile = board.tile(id)
                return "Tiles \(other) and \(id) are both at x \(tile?.x ?? 0), y \(tile?.y ?? 0)."
            case .pathToItself(let id): return "A path must join two different tiles, not tile \(id) to itself."
            case .pathToMissingTile(let path, let missing):
                return "The path \(path.a)–\(path.b) names tile \(missing), which is not on the board."
            case .pathNotStraight(let path):
                return "The path \(path.a)–\(path.b) must run along a row or a column; tile \(path.a) is at "
                    + "\(at(path.a)) and tile \(path.b) at \(at(path.b))."
            case .pathOverTile(let path, let between):
                return "The path \(path.a)–\(path.b) runs over tile \(between); join the tiles next to each other."
            case .pathTwice(let path): return "The path \(path.a)–\(path.b) is there twice."
            case .pathsCross(let path, let other):
                return "The paths \(path.a)–\(path.b) and \(other.a)–\(other.b) cross; paths may meet only at tiles."
            case .tooFewTiles: return "The board \"\(name)\" needs at least two tiles."
            case .noStart: return "The board \"\(name)\" has no start tile."
            case .manyStarts(let ids):
                return "The board \"\(name)\" has \(ids.count) start tiles "
                    + "(\(ids.map(String.init).joined(separator: ", "))); choose one."
            case .lonelyTile(let id):
                return "Tile \(id) (\(word(id))) of \"\(name)\" is on no path; every tile needs one."
            case .unreachable(let id):
                return "Tile \(id) (\(word(id))) of \"\(name)\" cannot be reached from the start tile."
            }
        }

        /// The refusal in a child's words, naming tiles by their words and saying what to do.
        public func editorMessage(on board: DiceBoard) -> String {
            func word(_ id: Int) -> String { "“" + ContentText.excerpt(board.tile(id)?.word ?? "?", limit: 30) + "”" }
            func path(_ path: Path) -> String { "\(word(path.a))–\(word(path.b))" }
            switch self {
            case .tileIDOutOfRange, .tileIDTwice: return "Something is wrong with a tile: take it away and put it back."
            case .badWord: return "Every tile needs one word made of letters."
            case .offGrid(let id): return "The tile \(word(id)) is off the board: move it onto a square."
            case .sameCell(let other, let id): return "\(word(other)) and \(word(id)) are on the same square."
            case .pathToItself, .pathToMissingTile: return "A path must join two different tiles."
            case .pathNotStraight(let one):
                return "The path \(path(one)) must go straight, along a row or a column."
            case .pathOverTile(let one, let between):
                return "The path \(path(one)) goes over \(word(between)). Join tiles that are next to each other."
            case .pathTwice(let one): return "There are two paths \(path(one)): take one away."
            case .pathsCross(let one, let other):
                return "The paths \(path(one)) and \(path(other)) cross. Paths may only meet at a tile."
            case .tooFewTiles: return "Put at least two tiles on the board."
            case .noStart: return "Choose where everyone starts: tap a tile, then Start."
            case .manyStarts: return "Only one tile can be the start."
            case .lonelyTile(let id):
                return "The tile \(word(id)) has no path. Draw a path from it to another tile."
            case .unreachable(let id):
                return "Nobody can reach \(word(id)) from the start. Draw a path to it."
            }
        }
    }

    /// The first rule the board breaks, structural rules first, then completeness; nil when it can be played.
    public var firstFlaw: Flaw? { structuralFlaw ?? completenessFlaw }
}
