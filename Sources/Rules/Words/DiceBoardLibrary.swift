import Common

/// Reading and writing one dice board as a JSON file (the data folder's `boards/` and import/export alike):
///
///     {"id":"garden","name":"The garden path","list":"en","level":1,
///      "tiles":[{"id":1,"word":"sun","x":0,"y":0,"start":true},{"id":2,"word":"rain","x":2,"y":0}],
///      "paths":[[1,2]]}
///
/// `id` (made from the name when missing), `level` (1) and `start` (false) are optional. Every problem names its
/// line; the board passes `DiceBoard.checkStructure`.
public enum DiceBoardFile {
    static let jsonExpectation = "one JSON object with \"name\", \"list\", \"tiles\" and \"paths\""

    /// The board as a pretty-printed JSON document with sorted keys.
    public static func encodeJSON(_ board: DiceBoard) -> String {
        let tiles: [JSONValue] = board.tiles.map { tile in
            var object: JSONObject = [
                "id": .int(Int64(tile.id)), "word": .string(tile.word), "x": .int(Int64(tile.x)),
                "y": .int(Int64(tile.y)),
            ]
            if tile.isStart { object["start"] = .bool(true) }
            return .object(object)
        }
        let document: JSONValue = [
            "id": .string(board.id), "name": .string(board.name), "list": .string(board.list),
            "level": .int(Int64(board.level)), "tiles": .array(tiles),
            "paths": .array(board.paths.map { [.int(Int64($0.a)), .int(Int64($0.b))] }),
        ]
        return String(decoding: JSONEncoding.pretty(document, sortingKeys: true), as: UTF8.self)
    }

    /// Reads a board from JSON bytes (UTF-8); its id is a slug (made from the name when missing).
    public static func decodeJSON(bytes: [UInt8]) throws(RuleError) -> DiceBoard {
        let file = try JSONFile(bytes: bytes, expecting: jsonExpectation)
        let root = try file.rootObject(named: "the board")
        let nameField = try root.required("name")
        let nameText = try nameField.asString()
        let name: String
        do {
            name = try DiceBoardLibrary.checkedName(nameText)
        } catch {
            throw RuleError(error.code, "line \(nameField.line): \(ContentText.lowercasingFirst(error.message))")
        }
        let id = try root.optionalString("id") ?? ""
        let list = ContentText.trimmed(try root.string("list"))
        let levelField = root.member("level")
        let level = try levelField?.asInt() ?? 1
        guard (1...WordList.maximumLevel).contains(level) else {
            throw (levelField ?? root).error("\"level\" must be 1 to \(WordList.maximumLevel), not \(level).")
        }
        var tiles: [DiceBoard.Tile] = []
        var tileFields: [JSONField] = []
        for item in try root.list("tiles", itemName: { "tile \($0)" }) {
            let fields = try item.object("an object with \"id\", \"word\", \"x\" and \"y\"")
            tiles.append(
                DiceBoard.Tile(
                    id: try fields.int("id"), word: ContentText.trimmed(try fields.string("word")),
                    x: try fields.int("x"),
                    y: try fields.int("y"), isStart: try fields.optionalBool("start") ?? false))
            tileFields.append(fields)
        }
        var paths: [DiceBoard.Path] = []
        var pathFields: [JSONField] = []
        for item in try root.list("paths", itemName: { "path \($0)" }) {
            guard case .array(let ends) = item.value, ends.count == 2, let a = ends[0].intValue,
                let b = ends[1].intValue
            else {
                throw item.error("\(item.name) must be a pair of tile ids, like [1,2].")
            }
            paths.append(DiceBoard.Path(Int(a), Int(b)))
            pathFields.append(item)
        }
        let board = DiceBoard(
            id: PackLibrary.makeSlug(id.isEmpty ? name : id), name: name, list: list, level: level, tiles: tiles,
            paths: paths)
        do {
            try board.checkStructure()
        } catch {
            // Point at the tile or path the message names first, else at the top of the file.
            let field =
                zip(tiles, tileFields).first {
                    error.message.contains("Tile \($0.0.id)") || error.message.contains("tile id \($0.0.id)")
                }?.1
                ?? zip(paths, pathFields).first { error.message.contains("\($0.0.a)–\($0.0.b)") }?.1 ?? root
            throw RuleError(.badBoard, "line \(field.line): \(error.message)")
        }
        return board
    }
}

/// Every dice board the host knows: the built-in boards plus the operator's own, built on the console tile by tile
/// or imported whole, on a `ContentShelf`.
///
/// Invariants: those of the shelf, and every board passes `DiceBoard.checkStructure` after every change.
public struct DiceBoardLibrary: ShelvedLibrary, Hashable {
    /// The boards that ship with the host, parsed once from `BuiltinBoards` (a test holds them to every rule).
    public static let builtinBoards: [DiceBoard] = BuiltinBoards.boards.map { source in
        do throws(RuleError) {
            var board = try DiceBoardFile.decodeJSON(bytes: Array(source.json.utf8))
            board.isBuiltin = true
            return board
        } catch {
            preconditionFailure("the built-in board \(source.id) is broken: \(error.message)")
        }
    }

    /// The built-in and custom boards.
    public private(set) var shelf: ContentShelf<DiceBoard>

    /// A library of `builtins` and no custom boards.
    public init(builtins: [DiceBoard]) { shelf = ContentShelf(builtinItems: builtins) }

    /// A library of the built-in boards only.
    public init() { self.init(builtins: DiceBoardLibrary.builtinBoards) }

    // MARK: Whole boards (the shelf's, in the words of boards)

    /// Every board, built-in boards first.
    public var boards: [DiceBoard] { shelf.items }

    /// The board `id`.
    public func board(id: String) -> DiceBoard? { shelf.item(id: id) }

    /// The first board made for `list` (and `level`, when given).
    public func board(forList list: String, level: Int? = nil) -> DiceBoard? {
        boards.first { $0.list == list && (level == nil || $0.level == level) } ?? boards.first { $0.list == list }
    }

    /// Adds `board` as a custom board with every rule, keeping its id when it is a free slug; returns the id.
    @discardableResult
    public mutating func add(_ board: DiceBoard) throws(RuleError) -> String {
        try shelf.add(board) { board throws(RuleError) in
            try board.checkStructure()
            return board
        }
    }

    /// Saves a whole board built in the board editor and returns its id: it replaces the custom board `replacing`
    /// (keeping that id) when given, else it is added as a new board. The board must pass every rule, complete
    /// included, so it can be played at once; the refusal is the rule's console wording.
    @discardableResult
    public mutating func save(_ board: DiceBoard, replacing id: String?) throws(RuleError) -> String {
        func checked(_ board: DiceBoard) throws(RuleError) -> DiceBoard {
            guard (1...WordList.maximumLevel).contains(board.level) else {
                throw RuleError(.badBoard, "The level must be 1 to \(WordList.maximumLevel), not \(board.level).")
            }
            if let flaw = board.firstFlaw { throw RuleError(.badBoard, flaw.message(on: board)) }
            return board
        }
        guard let id else { return try shelf.add(board, validating: checked) }
        let name = try shelf.checkedFreeName(board.name, ignoring: id)
        return try shelf.change(id) { (saved: inout DiceBoard) throws(RuleError) -> String in
            var replacement = board
            replacement.name = name
            saved = try checked(replacement)
            return id
        }
    }

    /// Creates an empty custom board called `name` for `list` at `level`; returns its id.
    @discardableResult
    public mutating func createBoard(named name: String, list: String, level: Int = 1) throws(RuleError) -> String {
        try shelf.add(DiceBoard(id: "", name: name, list: list, level: level)) { board throws(RuleError) in
            guard (1...WordList.maximumLevel).contains(level) else {
                throw RuleError(.badBoard, "The level must be 1 to \(WordList.maximumLevel), not \(level).")
            }
            return board
        }
    }

    /// Renames the custom board `id`; its id stays.
    public mutating func renameBoard(_ id: String, to name: String) throws(RuleError) { try shelf.rename(id, to: name) }

    /// Deletes the custom board `id`.
    public mutating func remove(id: String) throws(RuleError) { try shelf.delete(id) }

    /// Copies board `id` into a new custom board and returns its id (the only way to change a built-in board).
    @discardableResult
    public mutating func copyBoard(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        try shelf.copy(id, named: name)
    }

    // MARK: Building

    /// Adds a tile with `word` at `x`, `y` to the custom board `id` and returns the new tile's id (the next free
    /// one); the first tile of a board is its start.
    @discardableResult
    public mutating func addTile(word: String, x: Int, y: Int, toBoard id: String) throws(RuleError) -> Int {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            let tileID = (board.tiles.map(\.id).max() ?? 0) + 1
            board.tiles.append(
                DiceBoard.Tile(id: tileID, word: ContentText.trimmed(word), x: x, y: y, isStart: board.tiles.isEmpty))
            return tileID
        }
    }

    /// Moves tile `tile` of the custom board `id` to `x`, `y` (its paths must still be straight and free).
    public mutating func moveTile(_ tile: Int, toX x: Int, y: Int, onBoard id: String) throws(RuleError) {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            let index = try Self.tileIndex(tile, in: board)
            board.tiles[index].x = x
            board.tiles[index].y = y
            return tile
        }
    }

    /// Changes the word of tile `tile` on the custom board `id`.
    public mutating func setWord(_ word: String, ofTile tile: Int, onBoard id: String) throws(RuleError) {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            board.tiles[try Self.tileIndex(tile, in: board)].word = ContentText.trimmed(word)
            return tile
        }
    }

    /// Removes tile `tile` and its paths from the custom board `id`.
    public mutating func removeTile(_ tile: Int, fromBoard id: String) throws(RuleError) {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            board.tiles.remove(at: try Self.tileIndex(tile, in: board))
            board.paths.removeAll { $0.touches(tile) }
            return tile
        }
    }

    /// Makes tile `tile` the start of the custom board `id`.
    public mutating func setStart(_ tile: Int, onBoard id: String) throws(RuleError) {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            _ = try Self.tileIndex(tile, in: board)
            for index in board.tiles.indices { board.tiles[index].isStart = board.tiles[index].id == tile }
            return tile
        }
    }

    /// Joins tiles `first` and `second` of the custom board `id` with a path.
    public mutating func addPath(_ first: Int, _ second: Int, onBoard id: String) throws(RuleError) {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            board.paths.append(DiceBoard.Path(first, second))
            return first
        }
    }

    /// Removes the path between `first` and `second` from the custom board `id`.
    public mutating func removePath(_ first: Int, _ second: Int, fromBoard id: String) throws(RuleError) {
        try change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            let path = DiceBoard.Path(first, second)
            guard let index = board.paths.firstIndex(of: path) else {
                throw RuleError(.badBoard, "There is no path between tiles \(first) and \(second).")
            }
            board.paths.remove(at: index)
            return first
        }
    }

    // MARK: Helpers

    /// The refusal for a board id the library does not hold.
    public static func unknownBoard(_ id: String) -> RuleError { DiceBoard.unknownIDRefusal(id, among: []) }

    /// Checks a board's name: one line, 1…60 characters with a letter or digit.
    public static func checkedName(_ name: String) throws(RuleError) -> String {
        let name = ContentText.trimmed(name)
        guard !TextFolding.fold(name).isEmpty, !name.contains(where: \.isNewline) else {
            throw RuleError(.badBoard, "A board needs a name on one line with at least one letter or digit.")
        }
        guard name.count <= DiceBoard.maximumNameLength else {
            throw RuleError(.badBoard, "Board names can be at most \(DiceBoard.maximumNameLength) characters long.")
        }
        return name
    }

    /// Applies `body` to a copy of the custom board `id` and keeps it only when it still passes every rule.
    @discardableResult
    private mutating func change(
        _ id: String, _ body: (inout DiceBoard) throws(RuleError) -> Int
    ) throws(RuleError) -> Int {
        try shelf.change(id) { (board: inout DiceBoard) throws(RuleError) -> Int in
            let result = try body(&board)
            try board.checkStructure()
            return result
        }
    }

    private static func tileIndex(_ tile: Int, in board: DiceBoard) throws(RuleError) -> Int {
        guard let index = board.tiles.firstIndex(where: { $0.id == tile }) else {
            throw RuleError(.badBoard, "The board \"\(board.name)\" has no tile \(tile).")
        }
        return index
    }
}

extension DiceBoard: ShelfItem {
    /// What refusals call a dice board.
    public static let shelfNoun = "board"

    /// `name` trimmed, once it fits one line of 1…60 characters with a letter or digit.
    public static func checkedName(_ name: String) throws(RuleError) -> String {
        try DiceBoardLibrary.checkedName(name)
    }

    /// "There is already a board called …".
    public static func nameTakenRefusal(_ name: String) -> RuleError {
        ContentNames.takenRefusal(name, noun: shelfNoun, code: .badBoard)
    }

    /// "There is no dice board …".
    public static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError {
        RuleError(.unknownBoard, "There is no dice board \"\(id)\".")
    }
}
