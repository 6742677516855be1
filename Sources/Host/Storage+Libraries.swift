import Foundation
import Protocol
import Rules

extension Storage {
    /// Where a custom pack lives.
    func packPath(_ id: String) -> String { packsDirectory + "/\(id).json" }

    /// The 1-based line of byte `offset` in `data`, for error messages about files.
    static func line(of offset: Int, in data: [UInt8]) -> Int {
        data.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// Loads every custom pack; a broken file is reported by name and line and skipped, never deleted.
    func loadPacks() {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: packsDirectory)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        var custom: [QuizPack] = []
        for file in files {
            let path = packsDirectory + "/" + file
            guard let data = FileManager.default.contents(atPath: path).map(Array.init) else {
                loadProblems.append("Quiz pack \(path) could not be read; it was skipped.")
                continue
            }
            do {
                _ = try JSONParsing.parse(data)
            } catch {
                loadProblems.append("Quiz pack \(path) is broken at line \(Storage.line(of: error.offset, in: data)): \(error.reason). It was skipped; fix or remove the file.")
                continue
            }
            do {
                var pack = try JSONDecoder().decode(QuizPack.self, from: Data(data))
                pack.isBuiltin = false
                custom.append(pack)
            } catch {
                loadProblems.append("Quiz pack \(path) has the wrong shape (\(Storage.describe(error))). It was skipped; fix or remove the file.")
            }
        }
        packs = PackLibrary(customPacks: custom)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "\(path.isEmpty ? "" : path + ": ")\(context.debugDescription)"
        default: return "\(error)"
        }
    }

    /// Writes one custom pack atomically, or removes its file when the pack is gone.
    func savePack(id: String) throws {
        if let pack = packs.pack(id: id), !pack.isBuiltin {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try Storage.writeAtomically(Array(try encoder.encode(pack)) + [0x0A], to: packPath(id))
        } else if FileManager.default.fileExists(atPath: packPath(id)) {
            try FileManager.default.removeItem(atPath: packPath(id))
        }
    }

    /// Loads the command library's user part; a broken file is reported and kept, and built-ins still work.
    func loadCommands() {
        guard let data = FileManager.default.contents(atPath: commandsPath).map(Array.init) else {
            commands = CommandLibrary()
            return
        }
        do {
            _ = try JSONParsing.parse(data)
            let stored = try JSONDecoder().decode(CommandLibrary.Stored.self, from: Data(data))
            commands = CommandLibrary(stored: stored)
        } catch let error as JSONParseError {
            loadProblems.append("The command library \(commandsPath) is broken at line \(Storage.line(of: error.offset, in: data)): \(error.reason). "
                + "Using built-in commands only; the file is left as it is until you change the library.")
            commands = CommandLibrary()
        } catch {
            loadProblems.append("The command library \(commandsPath) has the wrong shape (\(Storage.describe(error))). Using built-in commands only.")
            commands = CommandLibrary()
        }
    }

    /// Writes the command library's user part atomically.
    func saveCommands() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try Storage.writeAtomically(Array(try encoder.encode(commands.stored)) + [0x0A], to: commandsPath)
    }

    /// Imports a pack file (`.json` or `.csv`) into the library and saves it.
    func importPack(file: String) throws -> QuizPack {
        guard let data = FileManager.default.contents(atPath: file) else { throw StorageError("cannot read \(file)") }
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let imported: QuizPack
        do throws(RuleError) {
            if file.lowercased().hasSuffix(".csv") {
                imported = try PackFile.decodeCSV(data, name: base)
            } else {
                imported = try PackFile.decodeJSON(data)
            }
        } catch {
            throw StorageError("\(file): \(error.message)")
        }
        var library = packs
        let id: String
        do throws(RuleError) {
            id = try library.importPack(imported)
        } catch {
            throw StorageError(error.message)
        }
        packs = library
        try savePack(id: id)
        return packs.pack(id: id) ?? imported
    }

    /// Exports a pack to `file` (`.csv` or `.json`, by extension), written atomically.
    func exportPack(id: String, file: String) throws {
        guard let pack = packs.pack(id: id) else { throw StorageError("There is no pack \"\(id)\". See `packs`.") }
        let bytes = Array((file.lowercased().hasSuffix(".csv") ? PackFile.encodeCSV(pack) : PackFile.encodeJSON(pack)).utf8)
        try Storage.writeAtomically(bytes, to: file)
    }
}
