import Foundation
import Protocol
import Rules

extension Storage {
    // MARK: Quiz packs (forwards to `packStore`, kept for the server's existing call sites)

    /// The quiz pack library; setting it saves nothing (see `savePack(id:)`, or use `packStore.change`).
    var packs: PackLibrary {
        get { packStore.library }
        set { packStore.library = newValue }
    }

    /// Writes one custom pack atomically, or removes its file when the pack is gone; returns a sentence when an
    /// unreadable file had to be kept as a backup first.
    @discardableResult
    func savePack(id: String) throws -> String? {
        try packStore.save(id: id)
    }

    /// Imports a pack file (`.json` or `.csv`) into the library and saves it.
    func importPack(file: String) throws -> QuizPack {
        do {
            return try packStore.importFile(file)
        } catch {
            throw StorageError(error.message)
        }
    }

    /// Exports a pack to `file` (`.csv` or `.json`, by extension), written atomically.
    func exportPack(id: String, file: String) throws {
        do {
            try packStore.export(id: id, to: file)
        } catch {
            throw StorageError(error.message)
        }
    }

    // MARK: The command library

    /// Loads the command library's user part; an unreadable file is reported and kept, and built-ins still work.
    func loadCommands() {
        commands = CommandLibrary()
        guard FileManager.default.fileExists(atPath: commandsPath) else { return }
        guard let data = FileManager.default.contents(atPath: commandsPath) else {
            isCommandsFileUnread = true
            loadProblems.append(
                "The command library \(commandsPath) could not be read. Using built-in commands only; "
                    + "the file is kept as it is (and set aside if you change the library).")
            return
        }
        do throws(RuleError) {
            let file = try JSONFile(bytes: Array(data), expecting: "one JSON object with \"userCommands\"")
            commands = CommandLibrary(stored: try file.decode(CommandLibrary.Stored.self))
        } catch {
            isCommandsFileUnread = true
            loadProblems.append(
                "The command library \(commandsPath) is broken: \(error.message) Using built-in "
                    + "commands only; the file is kept as it is (and set aside if you change the library).")
        }
    }

    /// Writes the command library's user part atomically, first keeping a `commands.json` that could not be read;
    /// returns a sentence when it did.
    @discardableResult
    func saveCommands() throws -> String? {
        var note: String?
        if isCommandsFileUnread {
            if FileManager.default.fileExists(atPath: commandsPath) {
                let kept = try Storage.setAside(commandsPath)
                log.warning(
                    "The command library \(commandsPath) could not be read when the host started, so before "
                        + "saving the changed library it was kept as \(kept).")
                note = "The command library file could not be read, so it was kept as \(kept)."
            }
            isCommandsFileUnread = false
        }
        try Storage.writeAtomically(
            JSONEncoding.pretty(try JSONCoding.encode(commands.stored), sortingKeys: true),
            to: commandsPath)
        return note
    }
}
