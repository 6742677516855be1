import Protocol
import Rules

extension Sessions {
    /// The request type of the board editor (`/edit.html`), which a connection may send without joining: each
    /// request carries the operator's key or the teacher's board code (PROTOCOL.md §8.5).
    static let boardEditorType = "boardEditor"
}

/// The tablet's board editor (issue #26): a child places word tiles, draws paths and saves a dice board with the
/// rules of the console's `board` commands. `{"type":"boardEditor","action":"open"|"save","key":…}` needs no
/// `hello`; the key is the operator's admin key or the teacher's board code, which opens nothing else.
extension HostCore {
    /// The editor's request type when this host plays Compound words (whose tools keep the boards), else none.
    var boardEditorTypes: Set<String> {
        operators.tools.requestTypes.contains(Sessions.boardEditorType) ? [Sessions.boardEditorType] : []
    }

    /// Whether console words ask for the board code: `board code` (false) or `board code new` (true); nil otherwise.
    static func boardCodeRequest(_ words: [String]) -> Bool? {
        let lowered = words.map { $0.lowercased() }
        guard lowered.count >= 2, lowered[0] == "board", lowered[1] == "code" else { return nil }
        switch lowered.count {
        case 2: return false
        case 3 where lowered[2] == "new": return true
        default: return nil
        }
    }

    /// `board code [new]`: shows the teacher's board code (making one the first time, or a fresh one with `new`,
    /// which retires the old) and where the editor is.
    func showBoardCode(renewing: Bool, replyTo target: ReplyTarget) {
        if boardCode == nil || renewing {
            var generator = EnvironmentRandom(source: environment.random)
            boardCode = Secrets.rejoinCode(length: 8, using: &generator)
        }
        let page = pageAddress
        let editor = (page.range(of: "/", options: .backwards).map { String(page[..<$0.lowerBound]) } ?? page)
        operators.okay(
            target,
            "Teacher's board code: \(boardCode ?? "") — open \(editor)/edit.html on a tablet and type it to build dice "
                + "boards (it saves boards and opens nothing else; board code new replaces it).")
    }

    /// Answers one board editor request, once its key is the admin key or the board code.
    func boardEditor(_ action: String, fields: JSONObject, session: Session, id: JSONValue?) {
        func refuse(_ error: ErrorReply) { sessions.send(error, to: session, re: id) }
        if session.role != .admin {
            if let refusal = guessLimits.refusal(session: session, at: now) {
                return refuse(ErrorReply(.rateLimited, refusal))
            }
            let key = fields["key"]?.stringValue ?? ""
            let isOperator = Secrets.constantTimeEquals(key, adminKey)
            let isTeacher = boardCode.map { Secrets.constantTimeEquals(key.uppercased(), $0) } ?? false
            guard isOperator || isTeacher else {
                guessLimits.noteWrong(session: session, at: now)
                log.warning("Connection \(session.id) from \(session.peer) gave the board editor a wrong code.")
                return refuse(
                    ErrorReply(
                        .badKey,
                        "That code is not right. Ask your teacher for the board code (the host's console shows it "
                            + "after board code)."))
            }
        }
        guard let boards = operators.tools.tool(ContentTool<DiceBoards>.self) else { return }
        let lists = operators.tools.tool(ContentTool<WordLists>.self)?.library ?? WordListLibrary()
        switch action {
        case "open":
            sessions.send(Self.editorContent(lists: lists, boards: boards.library), to: session, re: id)
        case "save":
            do {
                let saved = try saveEditedBoard(fields, lists: lists, boards: boards)
                log.info("The board editor at \(session.peer) saved the board \(saved).")
                sessions.send(
                    OkReply(
                        message: "Saved! The board \(saved) is ready: start words board \(saved).", created: saved),
                    to: session, re: id)
            } catch let refusal as BoardRefusal {
                refuse(refusal.reply)
            } catch {
                refuse(ErrorReply(.storage, "\(error)"))
            }
        default:
            refuse(
                ErrorReply(
                    .unknownCommand, "The board editor's actions are open and save, not \"\(action.prefix(32))\"."))
        }
    }

    /// What the editor needs: every word list's question words by level (no answers) and the boards there are.
    static func editorContent(lists: WordListLibrary, boards: DiceBoardLibrary) -> ContentDetail {
        let listValues: [JSONValue] = lists.lists.map { list in
            let levels: [JSONValue] = list.levels.map { level in
                ["level": .int(Int64(level)), "words": .array(list.words(level: level).map { .string($0.word) })]
            }
            return ["id": .string(list.id), "name": .string(list.name), "levels": .array(levels)]
        }
        let boardValues: [JSONValue] = boards.boards.map { board in
            ["id": .string(board.id), "name": .string(board.name), "builtin": .bool(board.isBuiltin)]
        }
        return ContentDetail(
            kind: Sessions.boardEditorType, id: "open", name: "The board editor", builtin: true,
            item: [
                "grid": [.int(Int64(DiceBoard.gridWidth)), .int(Int64(DiceBoard.gridHeight))],
                "lists": .array(listValues), "boards": .array(boardValues),
            ],
            lines: lists.lists.map { "\($0.name): levels \($0.levels.map(String.init).joined(separator: ", "))" })
    }

    /// A refused save: the reply, with the tiles and paths to mark.
    struct BoardRefusal: Error {
        /// The `error` to send.
        var reply: ErrorReply
    }

    /// Reads, checks and saves the editor's board (`fields["board"]`, the board file's object; `replace` names the
    /// custom board it replaces); returns its id. Refusals name the tiles by their words.
    private func saveEditedBoard(
        _ fields: JSONObject, lists: WordListLibrary, boards: ContentTool<DiceBoards>
    ) throws -> String {
        func refusal(_ code: ErrorCode, _ message: String, flaw: DiceBoard.Flaw? = nil) -> BoardRefusal {
            var reply = ErrorReply(code, message)
            if let flaw {
                reply.tiles = flaw.tiles
                reply.paths = flaw.paths.map { [$0.a, $0.b] }
            }
            return BoardRefusal(reply: reply)
        }
        guard case .object(let object)? = fields["board"] else {
            throw refusal(
                .badField, "\"board\" must be the board: {\"name\", \"list\", \"level\", \"tiles\", \"paths\"}.")
        }
        let board = try Self.editedBoard(object)
        do throws(RuleError) {
            _ = try DiceBoardLibrary.checkedName(board.name)
        } catch {
            throw refusal(.badBoard, "Give your board a name (up to \(DiceBoard.maximumNameLength) letters).")
        }
        guard let list = lists.list(id: board.list) else {
            throw refusal(.unknownList, "There is no word list \"\(board.list.prefix(40))\" on this host.")
        }
        guard !list.words(level: board.level).isEmpty else {
            throw refusal(.unknownLevel, "The list \(list.name) has no level \(board.level).")
        }
        if let flaw = board.firstFlaw { throw refusal(.badBoard, flaw.editorMessage(on: board), flaw: flaw) }
        let levelWords = Set(list.words(level: board.level).map { $0.word.lowercased() })
        if let stranger = board.tiles.first(where: { !levelWords.contains($0.word.lowercased()) }) {
            var reply = ErrorReply(
                .badBoard, "“\(stranger.word.prefix(30))” is not a word of level \(board.level) of \(list.name).")
            reply.tiles = [stranger.id]
            throw BoardRefusal(reply: reply)
        }
        // Only a custom board is saved over; a built-in board's id makes a new board.
        let replacing = fields["replace"]?.stringValue.flatMap { id in
            boards.library.board(id: id)?.isBuiltin == false ? id : nil
        }
        do throws(RuleError) {
            return try boards.store.change { library in try library.save(board, replacing: replacing) }
        } catch {
            throw refusal(error.code, error.message)
        }
    }

    /// The board in the editor's object, its fields typed (the rules are checked by the caller).
    static func editedBoard(_ object: JSONObject) throws -> DiceBoard {
        func refusal(_ message: String) -> BoardRefusal { BoardRefusal(reply: ErrorReply(.badField, message)) }
        func int(_ value: JSONValue?, _ what: String) throws -> Int {
            guard let number = value?.intValue, abs(number) < 1_000_000 else {
                throw refusal("\(what) must be a whole number.")
            }
            return Int(number)
        }
        guard case .array(let tileValues)? = object["tiles"], case .array(let pathValues)? = object["paths"],
            tileValues.count <= DiceBoard.gridWidth * DiceBoard.gridHeight, pathValues.count <= 1000
        else {
            throw refusal("The board needs \"tiles\" (at most one a square) and \"paths\" lists.")
        }
        let tiles = try tileValues.map { value in
            guard case .object(let tile) = value else { throw refusal("Each tile must be an object.") }
            return DiceBoard.Tile(
                id: try int(tile["id"], "A tile's id"), word: ContentText.trimmed(tile["word"]?.stringValue ?? ""),
                x: try int(tile["x"], "A tile's x"), y: try int(tile["y"], "A tile's y"),
                isStart: tile["start"]?.boolValue ?? false)
        }
        let paths = try pathValues.map { value in
            guard case .array(let ends) = value, ends.count == 2 else {
                throw refusal("Each path must be a pair of tile ids, like [1,2].")
            }
            return DiceBoard.Path(try int(ends[0], "A path's end"), try int(ends[1], "A path's end"))
        }
        let level = object["level"] == nil ? 1 : try int(object["level"], "The level")
        return DiceBoard(
            id: "", name: ContentText.trimmed(object["name"]?.stringValue ?? ""),
            list: object["list"]?.stringValue ?? "", level: level, tiles: tiles, paths: paths)
    }
}
