import Foundation
import Protocol
import Rules

/// Word lists of the compound-words trainer: `words/<id>.txt` in the data folder (the seed's line format, the file
/// name being the id), imported and exported as `.txt` or `.json` (see `WordListFile`). On the console `words …`,
/// for admin clients `{"type":"words",…}`, on the command line `partyline-host words …`; `history --words` writes
/// the teacher's CSV of every finished game.
enum WordLists: ManagedContent {
    typealias Library = WordListLibrary

    static let folderName = "words"
    static let noun = "word list"
    static let formats = ["txt", "json"]
    static let commandWord = "words"
    static let requestType = "words"

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> WordList {
        if format == "json" { return try WordListFile.decodeJSON(bytes: bytes) }
        return try WordListFile.decodeText(bytes: bytes, fileName: fileName)
    }

    static func encode(_ item: WordList, format: String) -> [UInt8] {
        Array((format == "json" ? WordListFile.encodeJSON(item) : WordListFile.encodeText(item)).utf8)
    }

    static func unknownItem(_ id: String) -> RuleError { WordListLibrary.unknownList(id) }

    static func summary(of item: WordList) -> (id: String, name: String, detail: String) {
        let levels = item.levels
        var detail = "\(Wording.count(levels.count, "level")), \(Wording.count(item.words.count, "word"))"
        if !item.language.isEmpty { detail += ", \(item.language)" }
        let small = levels.filter { item.playabilityProblem(level: $0) != nil }
        if !small.isEmpty { detail += "; too small for bingo: level \(small.map(String.init).joined(separator: ", "))" }
        return (item.id, item.name, detail)
    }

    static func describe(_ item: WordList) -> [String] {
        var lines: [String] = []
        for level in item.levels {
            lines.append("level \(level): " + (item.playabilityProblem(level: level) ?? "playable by every exercise"))
            for entry in item.words(level: level) {
                lines.append(
                    "  \(entry.word): "
                        + entry.options.map { entry.isCorrect($0) ? $0 + "*" : $0 }.joined(separator: " "))
            }
        }
        return lines.isEmpty
            ? ["no words yet: add one with words add \(item.id) 1 sun: flower* glasses* chair spoon"] : lines
    }

    static let editUsage = [
        "words create NAME [language=xx] · words rename ID NAME · words copy ID [NAME]",
        "words add ID LEVEL WORD: opt* opt … · words edit ID LEVEL WORD: … · words remove ID WORD",
        "words history [FOLDER]   a CSV per finished game (team, player, word, answer, correct, ms)",
        "words audio ID [WORD FILE | WORD --remove]   a recording of a word or compound (.ogg .mp3 .wav .m4a)",
    ]

    static func parseEdit(_ words: [String]) -> ToolRequest? {
        guard let action = words.first?.lowercased() else { return nil }
        let rest = Array(words.dropFirst())
        switch action {
        case "create" where !rest.isEmpty:
            var fields: JSONObject = [:]
            var name = rest
            if let last = name.last, last.lowercased().hasPrefix("language=") {
                fields["language"] = .string(String(last.dropFirst("language=".count)))
                name.removeLast()
            }
            guard !name.isEmpty else { return nil }
            fields["name"] = .string(name.joined(separator: " "))
            return ToolRequest(action: "create", fields: fields)
        case "rename" where rest.count >= 2, "copy" where !rest.isEmpty:
            var fields: JSONObject = ["id": .string(rest[0])]
            if rest.count > 1 { fields["name"] = .string(rest.dropFirst().joined(separator: " ")) }
            return ToolRequest(action: action, fields: fields)
        case "add" where rest.count >= 3, "edit" where rest.count >= 3:
            guard let level = Int(rest[1]) else { return nil }
            return ToolRequest(
                action: action,
                fields: [
                    "id": .string(rest[0]), "level": .int(Int64(level)),
                    "line": .string(rest.dropFirst(2).joined(separator: " ")),
                ])
        case "remove" where rest.count == 2:
            return ToolRequest(action: "remove", fields: ["id": .string(rest[0]), "word": .string(rest[1])])
        case "history":
            return ToolRequest(
                action: "history", fields: rest.isEmpty ? [:] : ["folder": .string(rest.joined(separator: " "))])
        case "audio" where rest.count == 1 || rest.count >= 3:
            var fields: JSONObject = ["list": .string(rest[0])]
            if rest.count == 3, rest[2].lowercased() == "--remove" {
                fields["word"] = .string(rest[1])
                fields["remove"] = true
            } else if rest.count >= 3 {
                fields["word"] = .string(rest[1])
                fields["file"] = .string(rest.dropFirst(2).joined(separator: " "))
            }
            return ToolRequest(action: "audio", fields: fields)
        default:
            return nil
        }
    }

    static func edit(_ request: ToolRequest, in library: inout WordListLibrary) throws(RuleError)
        -> (id: String, message: String)?
    {
        let fields = request.fields
        // Admin clients name the list `list` (their `id` is the request's own, answered as `re`).
        let id = fields["list"]?.stringValue ?? fields["id"]?.stringValue ?? ""
        switch request.action {
        case "create":
            let created = try library.createList(
                named: fields["name"]?.stringValue ?? "", language: fields["language"]?.stringValue ?? "")
            return (created, "Created the word list \(created).")
        case "rename":
            try library.renameList(id, to: fields["name"]?.stringValue ?? "")
            return (id, "Renamed the word list \(id).")
        case "copy":
            let copied = try library.copyList(id, named: fields["name"]?.stringValue)
            return (copied, "Copied \(id) to the word list \(copied); edit it freely.")
        case "add", "edit":
            let entry = try entry(from: fields)
            if request.action == "add" {
                try library.addWord(entry, toList: id)
            } else {
                try library.editWord(entry.word, inList: id, to: entry)
            }
            let note = library.list(id: id)?.playabilityProblem(level: entry.level).map { " Note: \($0)" } ?? ""
            let done = request.action == "add" ? "Added" : "Changed"
            return (id, "\(done) \(entry.word) on level \(entry.level) of \(id).\(note)")
        case "remove":
            let word = fields["word"]?.stringValue ?? ""
            try library.removeWord(word, fromList: id)
            return (id, "Removed \(word) from \(id).")
        default:
            return nil
        }
    }

    /// A question word from an edit: a `line` in the text format, or `word`, `options` and `correct`.
    private static func entry(from fields: JSONObject) throws(RuleError) -> WordEntry {
        guard let level = fields["level"]?.intValue.map({ Int($0) }) else {
            throw RuleError(.badField, "Give the level, a whole number (1 for the easiest).")
        }
        if let line = fields["line"]?.stringValue { return try WordListFile.entry(line: line, level: level) }
        let strings = { (key: String) in fields[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        guard let word = fields["word"]?.stringValue else {
            throw RuleError(
                .badField,
                "Give the word as \"line\" (sun: flower* chair …) or as \"word\", \"options\" and \"correct\".")
        }
        return WordEntry(word: word, level: level, options: strings("options"), correct: strings("correct"))
    }

    /// `history --words [FOLDER]`: one CSV per finished compound-words game, written beside its game log (or into
    /// FOLDER), with one line per answer; files live on the host, so only its console and command line may ask.
    static func query(_ request: ToolRequest, in library: WordListLibrary, folder: String, caller: ToolCaller)
        throws(RuleError) -> (any HostMessage)?
    {
        if request.action == "audio" { return try audio(request, in: library, folder: folder, caller: caller) }
        guard request.action == "history" else { return nil }
        guard caller.isLocal else {
            throw RuleError(.forbidden, "The teacher's CSV files are written on the host; ask at its console.")
        }
        let games = (folder as NSString).deletingLastPathComponent + "/games"
        let target = request.fields["folder"]?.stringValue ?? games
        let sheets = WordsTeacherSheets.sheets(inGameLogs: games)
        guard !sheets.isEmpty else { return OkReply(message: "No finished compound-words games yet in \(games).") }
        var lines = ["Wrote \(Wording.count(sheets.count, "CSV file")) to \(target):"]
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for sheet in sheets {
                try Storage.writeAtomically(Array(sheet.csv.utf8), to: target + "/" + sheet.fileName)
                lines.append("  " + sheet.fileName + ": " + sheet.summary)
            }
        } catch {
            throw RuleError(.storage, "Could not write the CSV files to \(target): \(error).")
        }
        return OkReply(message: lines.joined(separator: "\n"))
    }
}

extension WordLists {
    /// `words audio LIST [WORD FILE | WORD --remove]`: lists a list's recordings, imports one from a file on the
    /// host (its console and command line only), or removes one.
    static func audio(_ request: ToolRequest, in library: WordListLibrary, folder: String, caller: ToolCaller)
        throws(RuleError) -> any HostMessage
    {
        let id = request.fields["list"]?.stringValue ?? request.fields["id"]?.stringValue ?? ""
        guard let list = library.list(id: id) else { throw unknownItem(id) }
        let audio = WordAudio(wordsFolder: folder)
        guard let word = request.fields["word"]?.stringValue else {
            let recorded = audio.recordings(list: list).sorted { $0.key < $1.key }
            guard !recorded.isEmpty else {
                return OkReply(message: "The list \(id) has no recordings yet: words audio \(id) WORD FILE adds one.")
            }
            return OkReply(
                message: "Recordings of \(id): "
                    + recorded.map { "\($0.key) (.\($0.value.rawValue))" }.joined(separator: ", ") + ".")
        }
        if request.fields["remove"]?.boolValue == true {
            guard audio.remove(list: list, word: word) else {
                throw RuleError(.badField, "The list \(id) has no recording of \(word).")
            }
            return OkReply(message: "Removed the recording of \(word) from \(id).")
        }
        guard caller.isLocal else {
            throw RuleError(
                .forbidden, "Recordings are read from files on the host; import them at its console: words audio …")
        }
        let file = request.fields["file"]?.stringValue ?? ""
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int else {
            throw RuleError(.storage, "Could not read \(file): there is no such file.")
        }
        // A file far too big is refused before it is read.
        guard size <= WordAudio.maximumBytes else {
            throw RuleError(
                .badField,
                "\(file) is \(size / 1024) KiB; a recording may be at most \(WordAudio.maximumBytes / 1024) KiB "
                    + "(a word or two, compressed: .ogg or .mp3).")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw RuleError(.storage, "Could not read \(file): it cannot be read.")
        }
        let stored = try audio.store(Array(data), name: file, list: list, word: word)
        return OkReply(message: "Recorded \(stored) for \(id): phones play it when the word is spoken.")
    }

    static func exported(_ id: String, in library: WordListLibrary, to file: String, folder: String)
        throws(RuleError) -> String?
    {
        guard let list = library.list(id: id) else { return nil }
        return try WordAudio(wordsFolder: folder).export(list: list, besideFile: file)
    }

    static func imported(_ id: String, in library: WordListLibrary, from file: String, folder: String) -> String? {
        guard let list = library.list(id: id) else { return nil }
        return WordAudio(wordsFolder: folder).importBundle(besideFile: file, into: list)
    }

    static func deleted(_ id: String, folder: String) { WordAudio(wordsFolder: folder).removeAll(list: id) }
}

/// The teacher's CSV files made from the game logs of finished compound-words games.
enum WordsTeacherSheets {
    /// One game's sheet: its CSV file name, the CSV and a line saying who missed what.
    struct Sheet: Equatable {
        var fileName: String
        var csv: String
        var summary: String
    }

    /// A sheet for every compound-words game log (`*-words.json`) in `folder`, oldest first; unreadable logs are
    /// left out.
    static func sheets(inGameLogs folder: String) -> [Sheet] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix("-\(WordsWire.name).json") }.sorted()
        return files.compactMap { file in
            guard let data = FileManager.default.contents(atPath: folder + "/" + file),
                let log = try? JSONCoding.decode(WordsHost.Log.self, from: Array(data))
            else { return nil }
            return sheet(for: log, fileName: String(file.dropLast(".json".count)) + ".csv")
        }
    }

    /// The sheet of one game log.
    static func sheet(for log: WordsHost.Log, fileName: String) -> Sheet {
        let wrong = log.answers.filter { !$0.correct }.count
        let missed = WordAnswerSheet.missedWords(log.answers)
            .map { "\($0.player) missed \($0.words.joined(separator: ", "))" }
        var summary =
            "\(log.exercise), \(log.listName) level \(log.level): \(Wording.count(log.answers.count, "answer")), "
            + "\(wrong) wrong"
        if !missed.isEmpty { summary += " (" + missed.joined(separator: "; ") + ")" }
        return Sheet(fileName: fileName, csv: WordAnswerSheet.csv(log.answers), summary: summary)
    }
}

/// Dice boards of the compound-words board game: `boards/<id>.json` in the data folder, imported and exported as
/// JSON (see `DiceBoardFile`), built on the console tile by tile (`board …`, `{"type":"boards",…}`).
enum DiceBoards: ManagedContent {
    typealias Library = DiceBoardLibrary

    static let folderName = "boards"
    static let noun = "dice board"
    static let formats = ["json"]
    static let commandWord = "board"
    static let requestType = "boards"

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> DiceBoard {
        try DiceBoardFile.decodeJSON(bytes: bytes)
    }

    static func encode(_ item: DiceBoard, format: String) -> [UInt8] { Array(DiceBoardFile.encodeJSON(item).utf8) }

    static func unknownItem(_ id: String) -> RuleError { DiceBoardLibrary.unknownBoard(id) }

    static func summary(of item: DiceBoard) -> (id: String, name: String, detail: String) {
        let detail =
            "\(Wording.count(item.tiles.count, "tile")), \(Wording.count(item.paths.count, "path")); "
            + "list \(item.list) level \(item.level)" + (item.completenessProblem == nil ? "" : "; not finished")
        return (item.id, item.name, detail)
    }

    static func describe(_ item: DiceBoard) -> [String] {
        var lines = ["list \(item.list), level \(item.level); " + (item.completenessProblem ?? "ready to play")]
        for tile in item.tiles {
            lines.append(
                "tile \(tile.id) \(tile.word) at \(tile.x),\(tile.y)\(tile.isStart ? " (start)" : "") → "
                    + item.neighbours(of: tile.id).map(String.init).joined(separator: ", "))
        }
        return lines
    }

    static let editUsage = [
        "board create NAME LIST [LEVEL] · board rename ID NAME · board copy ID [NAME]",
        "board tile ID WORD X Y · board move ID TILE X Y · board word ID TILE WORD",
        "board untile ID TILE · board path ID TILE TILE · board unpath ID TILE TILE",
        "board start ID TILE   (the grid is x 0–11, y 0–7)",
        "board code [new]   the teacher's code for the tablets' board editor at /edit.html (new: a fresh one)",
    ]

    static func parseEdit(_ words: [String]) -> ToolRequest? {
        guard let action = words.first?.lowercased() else { return nil }
        let rest = Array(words.dropFirst())
        func numbers(_ values: ArraySlice<String>) -> [JSONValue]? {
            let parsed = values.compactMap { Int64($0) }
            return parsed.count == values.count ? parsed.map { .int($0) } : nil
        }
        switch action {
        case "create" where rest.count >= 2:
            var rest = rest
            var fields: JSONObject = [:]
            if rest.count >= 3, let level = Int64(rest.last ?? "") {
                fields["level"] = .int(level)
                rest.removeLast()
            }
            fields["list"] = .string(rest.removeLast())
            fields["name"] = .string(rest.joined(separator: " "))
            return ToolRequest(action: "create", fields: fields)
        case "rename" where rest.count >= 2, "copy" where !rest.isEmpty:
            var fields: JSONObject = ["id": .string(rest[0])]
            if rest.count > 1 { fields["name"] = .string(rest.dropFirst().joined(separator: " ")) }
            return ToolRequest(action: action, fields: fields)
        case "tile" where rest.count == 4:
            guard let at = numbers(rest[2...]) else { return nil }
            return ToolRequest(
                action: "tile", fields: ["id": .string(rest[0]), "word": .string(rest[1]), "x": at[0], "y": at[1]])
        case "move" where rest.count == 4:
            guard let at = numbers(rest[1...]) else { return nil }
            return ToolRequest(action: "move", fields: ["id": .string(rest[0]), "tile": at[0], "x": at[1], "y": at[2]])
        case "word" where rest.count == 3:
            guard let tile = numbers(rest[1...1]) else { return nil }
            return ToolRequest(
                action: "word", fields: ["id": .string(rest[0]), "tile": tile[0], "word": .string(rest[2])])
        case "untile" where rest.count == 2, "start" where rest.count == 2:
            guard let tile = numbers(rest[1...1]) else { return nil }
            return ToolRequest(action: action, fields: ["id": .string(rest[0]), "tile": tile[0]])
        case "path" where rest.count == 3, "unpath" where rest.count == 3:
            guard let ends = numbers(rest[1...]) else { return nil }
            return ToolRequest(action: action, fields: ["id": .string(rest[0]), "from": ends[0], "to": ends[1]])
        default:
            return nil
        }
    }

    static func edit(_ request: ToolRequest, in library: inout DiceBoardLibrary) throws(RuleError)
        -> (id: String, message: String)?
    {
        let fields = request.fields
        // Admin clients name the board `board` (their `id` is the request's own, answered as `re`).
        let id = fields["board"]?.stringValue ?? fields["id"]?.stringValue ?? ""
        func number(_ key: String) throws(RuleError) -> Int {
            guard let value = fields[key]?.intValue else {
                throw RuleError(.badField, "\"\(key)\" must be a whole number.")
            }
            return Int(value)
        }
        let text = { (key: String) in fields[key]?.stringValue ?? "" }
        switch request.action {
        case "create":
            let level = fields["level"] == nil ? 1 : try number("level")
            let created = try library.createBoard(named: text("name"), list: text("list"), level: level)
            return (created, "Created the board \(created); add tiles with board tile \(created) WORD X Y.")
        case "rename":
            try library.renameBoard(id, to: text("name"))
            return (id, "Renamed the board \(id).")
        case "copy":
            let copied = try library.copyBoard(id, named: fields["name"]?.stringValue)
            return (copied, "Copied \(id) to the board \(copied); edit it freely.")
        case "tile":
            let tile = try library.addTile(word: text("word"), x: try number("x"), y: try number("y"), toBoard: id)
            return (id, "Added tile \(tile) (\(text("word"))) to \(id).")
        case "move":
            try library.moveTile(try number("tile"), toX: try number("x"), y: try number("y"), onBoard: id)
            return (id, "Moved tile \(try number("tile")).")
        case "word":
            try library.setWord(text("word"), ofTile: try number("tile"), onBoard: id)
            return (id, "Tile \(try number("tile")) now says \(text("word")).")
        case "untile":
            try library.removeTile(try number("tile"), fromBoard: id)
            return (id, "Removed tile \(try number("tile")) and its paths.")
        case "start":
            try library.setStart(try number("tile"), onBoard: id)
            return (id, "Tile \(try number("tile")) is the start.")
        case "path":
            try library.addPath(try number("from"), try number("to"), onBoard: id)
            return (id, "Joined tiles \(try number("from")) and \(try number("to")).")
        case "unpath":
            try library.removePath(try number("from"), try number("to"), fromBoard: id)
            return (id, "Removed the path between \(try number("from")) and \(try number("to")).")
        default:
            return nil
        }
    }
}
