import Foundation
import Protocol
import Rules

/// Odd One Out's puzzle packs: `puzzles/<id>.json` in the data folder, imported and exported as JSON or CSV
/// (`difficulty,outsider,word1,word2,word3,link`; see `OutsiderPackFile`), and edited like quiz packs with the
/// operator tool `puzzles`.
enum OutsiderPacks: ManagedContent {
    typealias Library = OutsiderPackLibrary

    static let folderName = "puzzles"
    static let noun = "puzzle pack"
    static let formats = ["json", "csv"]
    static let commandWord = "puzzles"
    static let requestType = "puzzles"

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> OutsiderPack {
        if format == "csv" {
            return try OutsiderPackFile.decodeCSV(bytes: bytes, name: (fileName as NSString).deletingPathExtension)
        }
        return try OutsiderPackFile.decodeJSON(bytes: bytes)
    }

    static func encode(_ item: OutsiderPack, format: String) -> [UInt8] {
        Array((format == "csv" ? OutsiderPackFile.encodeCSV(item) : OutsiderPackFile.encodeJSON(item)).utf8)
    }

    static func unknownItem(_ id: String) -> RuleError {
        RuleError(.unknownPack, "There is no puzzle pack \"\(id)\". See `puzzles list`.")
    }

    static func summary(of pack: OutsiderPack) -> (id: String, name: String, detail: String) {
        let counts = OutsiderPackSummary(pack: pack).counts
        let levels = zip(Difficulty.allCases, counts).filter { $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }
        let detail = Wording.count(pack.puzzles.count, "puzzle")
        return (pack.id, pack.name, levels.isEmpty ? detail : detail + " (" + levels.joined(separator: ", ") + ")")
    }

    static func describe(_ pack: OutsiderPack) -> [String] {
        pack.puzzles.enumerated().map { index, puzzle in
            "\(index + 1). [\(puzzle.difficulty.rawValue)] \(puzzle.words.joined(separator: " · ")) → "
                + "\(puzzle.outsider) (\(puzzle.link))"
        }
    }

    static let editUsage = [
        "puzzles create NAME · puzzles rename ID NAME · puzzles copy ID [NAME]",
        "puzzles add ID DIFFICULTY | OUTSIDER | WORD | WORD | WORD | LINK",
        "puzzles edit ID N DIFFICULTY | OUTSIDER | … | LINK · puzzles remove ID N",
    ]

    static func parseEdit(_ words: [String]) -> ToolRequest? {
        guard let action = words.first?.lowercased() else { return nil }
        let rest = Array(words.dropFirst())
        let id: JSONValue = .string(rest.first ?? "")
        let text = rest.dropFirst().joined(separator: " ")
        switch action {
        case "create" where !rest.isEmpty:
            return ToolRequest(action: "create", fields: ["name": .string(rest.joined(separator: " "))])
        case "rename" where rest.count >= 2:
            return ToolRequest(action: "rename", fields: ["item": id, "name": .string(text)])
        case "copy" where !rest.isEmpty:
            var fields: JSONObject = ["item": id]
            if !text.isEmpty { fields["name"] = .string(text) }
            return ToolRequest(action: "copy", fields: fields)
        case "add" where rest.count >= 2:
            guard let puzzle = OutsiderPackFile.puzzleObject(typed: text) else { return nil }
            return ToolRequest(action: "add", fields: ["item": id, "puzzle": puzzle])
        case "edit" where rest.count >= 3:
            guard let number = Int(rest[1]),
                let puzzle = OutsiderPackFile.puzzleObject(typed: rest.dropFirst(2).joined(separator: " "))
            else { return nil }
            return ToolRequest(action: "edit", fields: ["item": id, "number": .int(Int64(number)), "puzzle": puzzle])
        case "remove" where rest.count == 2:
            guard let number = Int(rest[1]) else { return nil }
            return ToolRequest(action: "remove", fields: ["item": id, "number": .int(Int64(number))])
        default:
            return nil
        }
    }

    static func edit(_ request: ToolRequest, in library: inout OutsiderPackLibrary) throws(RuleError)
        -> (id: String, message: String)?
    {
        let fields = request.fields
        let id = fields["item"]?.stringValue ?? ""
        func name() throws(RuleError) -> String {
            guard let name = fields["name"]?.stringValue else { throw RuleError(.badField, "Give the pack a name.") }
            return name
        }
        func number() throws(RuleError) -> Int {
            guard let number = fields["number"]?.intValue else {
                throw RuleError(.badField, "Say which puzzle, by its number in `puzzles show \(id)`.")
            }
            return Int(clamping: number)
        }
        switch request.action {
        case "create":
            let created = try library.createPack(named: try name())
            return (created, "Created puzzle pack \(created).")
        case "rename":
            try library.renamePack(id, to: try name())
            return (id, "Renamed puzzle pack \(id).")
        case "copy":
            let copy = try library.copyPack(id, named: fields["name"]?.stringValue)
            return (copy, "Copied \(id) to the puzzle pack \(copy).")
        case "add":
            try library.addEntry(try OutsiderPackFile.puzzle(from: fields["puzzle"] ?? .null), toPack: id)
            let count = library.pack(id: id)?.puzzles.count ?? 0
            return (id, "Added puzzle \(count) to \(id).")
        case "edit":
            let number = try number()
            let puzzle = try OutsiderPackFile.puzzle(from: fields["puzzle"] ?? .null)
            try library.editEntry(at: number - 1, inPack: id, to: puzzle)
            return (id, "Changed puzzle \(number) of \(id).")
        case "remove":
            let number = try number()
            let removed = try library.removeEntry(at: number - 1, fromPack: id)
            return (id, "Removed puzzle \(number) (\(removed.outsider)) from \(id).")
        default:
            return nil
        }
    }
}

/// Station hunts: `hunts/<id>.json` in the data folder, imported and exported as JSON (see `HuntFile`), edited
/// station by station with the operator tool `hunt`, printed as sheets to tape up, and each with its hall of fame
/// beside them (`halls/<id>.json`). A hunt read without codes gets generated ones, and the stored file keeps them.
enum Hunts: ManagedContent {
    typealias Library = HuntLibrary

    static let folderName = "hunts"
    static let noun = "hunt"
    static let formats = ["json"]
    static let commandWord = "hunt"
    static let requestType = "hunts"

    static func decode(_ bytes: [UInt8], format: String, fileName: String) throws(RuleError) -> Hunt {
        try HuntFile.decode(bytes: bytes)
    }

    static func encode(_ item: Hunt, format: String) -> [UInt8] { Array(HuntFile.encode(item).utf8) }

    static func unknownItem(_ id: String) -> RuleError {
        RuleError(.unknownHunt, "There is no hunt \"\(id)\". See `hunt list`.")
    }

    static func summary(of hunt: Hunt) -> (id: String, name: String, detail: String) {
        (hunt.id, hunt.name, Wording.count(hunt.stations.count, "station"))
    }

    /// The hunt in full, codes and answers included: `show` is for the organiser.
    static func describe(_ hunt: Hunt) -> [String] {
        var lines: [String] = []
        for (index, station) in hunt.stations.enumerated() {
            lines.append("\(index + 1). \(station.name) (code \(station.code)): \(station.clue)")
            switch station.task {
            case .puzzle(let puzzle):
                lines.append(
                    "   odd one out: \(puzzle.words.joined(separator: " · ")) → \(puzzle.outsider) (\(puzzle.link))")
            case .question(let text, let answer):
                lines.append("   question: \(text) → \(answer)")
            }
            for hint in station.hints { lines.append("   hint (+\(hint.costSeconds) s): \(hint.text)") }
            if let success = station.success { lines.append("   on solving: \(success)") }
        }
        return lines
    }

    static let editUsage = [
        "hunt create NAME | STATION · hunt rename ID NAME · hunt copy ID [NAME]",
        "hunt add ID STATION · hunt edit ID N FIELDS (only those that change)",
        "hunt remove ID N · hunt move ID N TO · hunt history ID (its hall of fame)",
        "hunt print ID [FILE] [--markdown|--html]   sheets to tape up, one per station (.md, .html)",
        "  STATION: name=… | clue=… | words=A, B, C, D | outsider=… | link=…",
        "           or question=… | answer=…; and hint=SECONDS TEXT, success=…, code=…",
    ]

    static func parseEdit(_ words: [String]) -> ToolRequest? {
        guard let action = words.first?.lowercased() else { return nil }
        let rest = Array(words.dropFirst())
        let id: JSONValue = .string(rest.first ?? "")
        let text = rest.dropFirst().joined(separator: " ")
        switch action {
        case "create" where !rest.isEmpty:
            let typed = StationFields.object(typed: rest.joined(separator: " "))
            guard typed.plain.count == 1 else { return nil }
            return ToolRequest(
                action: "create", fields: ["name": .string(typed.plain[0]), "station": .object(typed.station)])
        case "rename" where rest.count >= 2:
            return ToolRequest(action: "rename", fields: ["item": id, "name": .string(text)])
        case "copy" where !rest.isEmpty:
            var fields: JSONObject = ["item": id]
            if !text.isEmpty { fields["name"] = .string(text) }
            return ToolRequest(action: "copy", fields: fields)
        case "add" where rest.count >= 2:
            let typed = StationFields.object(typed: text)
            guard typed.plain.isEmpty else { return nil }
            return ToolRequest(action: "add", fields: ["item": id, "station": .object(typed.station)])
        case "edit" where rest.count >= 3:
            let typed = StationFields.object(typed: rest.dropFirst(2).joined(separator: " "))
            guard let number = Int(rest[1]), typed.plain.isEmpty else { return nil }
            return ToolRequest(
                action: "edit", fields: ["item": id, "number": .int(Int64(number)), "station": .object(typed.station)])
        case "remove" where rest.count == 2:
            guard let number = Int(rest[1]) else { return nil }
            return ToolRequest(action: "remove", fields: ["item": id, "number": .int(Int64(number))])
        case "move" where rest.count == 3:
            guard let number = Int(rest[1]), let to = Int(rest[2]) else { return nil }
            return ToolRequest(
                action: "move", fields: ["item": id, "number": .int(Int64(number)), "to": .int(Int64(to))])
        case "print" where !rest.isEmpty:
            // `hunt print ID [FILE] [--markdown|--html]`: a format named as a flag or a bare word, else a file.
            var fields: JSONObject = ["item": id]
            var file: [String] = []
            for word in rest.dropFirst() {
                let name = word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "-"))
                if HuntSheets.Format(rawValue: name) != nil, fields["format"] == nil {
                    fields["format"] = .string(name)
                } else if word.hasPrefix("--") {
                    return nil
                } else {
                    file.append(word)
                }
            }
            if !file.isEmpty { fields["file"] = .string(file.joined(separator: " ")) }
            return ToolRequest(action: "print", fields: fields)
        case "history" where rest.count == 1:
            return ToolRequest(action: "history", fields: ["item": id])
        default:
            return nil
        }
    }

    static func edit(_ request: ToolRequest, in library: inout HuntLibrary) throws(RuleError)
        -> (id: String, message: String)?
    {
        let fields = request.fields
        let id = fields["item"]?.stringValue ?? ""
        func station(base: Hunt.Station?) throws(RuleError) -> Hunt.Station {
            guard let object = fields["station"]?.objectValue else {
                throw RuleError(.badField, "Describe the station: name=… | clue=… | a puzzle or a question.")
            }
            return try StationFields.station(object, base: base)
        }
        func number(_ key: String = "number") throws(RuleError) -> Int {
            guard let number = fields[key]?.intValue else {
                throw RuleError(.badField, "Say which station, by its number in `hunt show \(id)`.")
            }
            return Int(clamping: number)
        }
        switch request.action {
        case "create":
            guard let name = fields["name"]?.stringValue else { throw RuleError(.badField, "Give the hunt a name.") }
            let created = try library.createHunt(named: name, firstStation: try station(base: nil))
            return (
                created, "Created the hunt \(created) with its first station; add more with `hunt add \(created) …`."
            )
        case "rename":
            guard let name = fields["name"]?.stringValue else { throw RuleError(.badField, "Give the hunt a name.") }
            try library.renameHunt(id, to: name)
            return (id, "Renamed the hunt \(id).")
        case "copy":
            let copy = try library.copyHunt(id, named: fields["name"]?.stringValue)
            return (copy, "Copied \(id) to the hunt \(copy) (same codes).")
        case "add":
            try library.addStation(try station(base: nil), toHunt: id)
            let count = library.hunt(id: id)?.stations.count ?? 0
            return (id, "Added station \(count) to \(id): \(stationLine(library, id, count))")
        case "edit":
            let number = try number()
            let base = library.hunt(id: id).flatMap {
                $0.stations.indices.contains(number - 1) ? $0.stations[number - 1] : nil
            }
            try library.replaceStation(at: number - 1, inHunt: id, with: try station(base: base))
            return (id, "Changed station \(number) of \(id): \(stationLine(library, id, number))")
        case "remove":
            let number = try number()
            try library.removeStation(at: number - 1, fromHunt: id)
            return (id, "Removed station \(number) from \(id).")
        case "move":
            let (number, to) = (try number(), try number("to"))
            try library.moveStation(at: number - 1, to: to - 1, inHunt: id)
            return (id, "Moved station \(number) of \(id) to place \(to).")
        default:
            return nil
        }
    }

    /// The sheets' format a file's extension names (`.md`, `.html`), else text.
    private static func sheetFormat(ofFile path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "md", "markdown": "markdown"
        case "html", "htm": "html"
        default: "text"
        }
    }

    /// `Kitchen (code FRDG)`: a station as an edit's reply names it, with the code to print.
    private static func stationLine(_ library: HuntLibrary, _ id: String, _ number: Int) -> String {
        guard let hunt = library.hunt(id: id), hunt.stations.indices.contains(number - 1) else { return "" }
        let station = hunt.stations[number - 1]
        return "\(station.name) (code \(station.code))."
    }

    static func query(_ request: ToolRequest, in library: HuntLibrary, folder: String, caller: ToolCaller)
        throws(RuleError) -> (any HostMessage)?
    {
        let id = request.fields["item"]?.stringValue ?? ""
        switch request.action {
        case "print":
            guard caller.isLocal else {
                throw RuleError(
                    .forbidden, "Sheets print on the host: partyline-host hunt print \(id) sheets.txt")
            }
            guard let hunt = library.hunt(id: id) else { throw unknownItem(id) }
            let file = request.fields["file"]?.stringValue
            let name = request.fields["format"]?.stringValue ?? file.map(sheetFormat(ofFile:)) ?? "text"
            guard let format = HuntSheets.Format(rawValue: name) else {
                throw RuleError(.badField, "Sheets print as text, markdown or html, not \"\(name)\".")
            }
            let sheets = HuntSheets.sheets(hunt, format: format, pageAddress: request.pageAddress)
            guard let file else { return HuntSheetsReply(text: sheets) }
            // A file keeps the text sheets' page breaks (a terminal shows none), one station per printed page.
            do {
                try Storage.writeAtomically(Array(sheets.utf8), to: file)
            } catch {
                throw RuleError(.storage, "Could not write \(file): \(error).")
            }
            let scan =
                request.pageAddress.map { " Each has a QR code that checks a team in at \($0) (while this host runs)." }
                ?? " Print from the running host's console to add QR codes that check a team in."
            return OkReply(
                message: "Wrote \(file): \(Wording.count(hunt.stations.count, "sheet")) (\(format.rawValue)), one per "
                    + "station. Print it and tape each sheet where its station is." + scan)
        case "history":
            let halls = HallsOfFame(dataDirectory: (folder as NSString).deletingLastPathComponent)
            let stored = try halls.read(hunt: id)
            guard let hall = stored ?? library.hunt(id: id).map({ HallOfFame(hunt: $0.id, name: $0.name) }) else {
                throw unknownItem(id)
            }
            // A record, shown like every content item (the operator's client shows it as a panel).
            let json = (try? JSONParsing.parse(hall.encoded())) ?? .null
            return ContentDetail(
                kind: requestType, id: hall.hunt, name: hall.title, builtin: false, item: json, lines: hall.lines())
        default:
            return nil
        }
    }
}

/// A hunt's printable sheets as `hunt print` answers them on the console and the command line (never sent to a
/// client: they carry every code).
struct HuntSheetsReply: HostMessage {
    static let type = "sheets"
    /// The sheets, one page per station.
    var text: String

    func line(for reader: Perspective) -> String? { text.hasSuffix("\n") ? String(text.dropLast()) : text }
}

/// Each hunt's hall of fame: `halls/<hunt id>.json` in the data folder, written atomically when a hunt ends.
struct HallsOfFame {
    /// The folder of the halls.
    let directory: String

    /// The halls of the data folder `dataDirectory`.
    init(dataDirectory: String) { directory = dataDirectory + "/halls" }

    /// Where the hall of fame of `hunt` is kept.
    func path(hunt: String) -> String { directory + "/\(hunt).json" }

    /// The hall of fame of `hunt` as stored, or nil when nobody finished it yet; refuses a file it cannot read.
    func read(hunt: String) throws(RuleError) -> HallOfFame? {
        let path = path(hunt: hunt)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try HallOfFame.decode(bytes: Array(data))
        } catch {
            throw RuleError(.storage, "The hall of fame \(path) cannot be read: \(error.message)")
        }
    }

    /// Adds `runs` to the hall of fame of `hunt` (called `name`) and writes it atomically; a file that cannot be
    /// read is first kept beside it as `.broken-<n>` (and `log` says so). Returns the hall as written.
    @discardableResult
    func record(hunt: String, name: String, runs: [HallOfFame.Entry], log: Logger) throws -> HallOfFame {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = path(hunt: hunt)
        let stored = try? read(hunt: hunt)
        var hall = stored ?? HallOfFame(hunt: hunt, name: name)
        if stored == nil, FileManager.default.fileExists(atPath: path) {
            let kept = try Storage.setAside(path)
            log.warning(
                "The hall of fame \(path) could not be read, so it was kept as \(kept) before writing a new one.")
        }
        hall.name = name
        hall.record(runs)
        try Storage.writeAtomically(hall.encoded(), to: path)
        return hall
    }

    /// The hall as the wire carries it.
    static func fame(_ hall: HallOfFame) -> [HuntWire.Fame] {
        hall.entries.map {
            HuntWire.Fame(
                place: hall.place(of: $0), team: $0.team, totalMs: $0.totalMs, date: $0.date,
                penaltiesMs: $0.penaltiesMs)
        }
    }
}
