import Foundation
import Protocol
import Rules

extension Server {
    static func packJSON(_ summary: PackSummary) -> JSONValue {
        .object(["id": .string(summary.id), "name": .string(summary.name), "builtin": .bool(summary.isBuiltin),
                 "questions": .number(summary.questionCount), "easy": .number(summary.easyCount),
                 "medium": .number(summary.mediumCount), "hard": .number(summary.hardCount)])
    }

    static func commandJSON(_ command: QueenCommand, hidden: Bool) -> JSONValue {
        .object(["id": .string(command.id), "text": .string(command.text), "kind": .string(command.kind.rawValue),
                 "difficulty": .string(command.difficulty.rawValue), "builtin": .bool(command.isBuiltin), "hidden": .bool(hidden)])
    }

    func question(from value: JSONValue?) throws(RuleError) -> QuizQuestion {
        guard let value, let text = value["text"]?.stringValue, let answer = value["answer"]?.stringValue else {
            throw RuleError(.badField, "A question needs \"text\" and \"answer\" (and may give \"difficulty\": easy, medium or hard; medium if left out).")
        }
        let difficultyText = value["difficulty"]?.stringValue ?? "medium"
        guard let difficulty = Difficulty(rawValue: difficultyText.lowercased()) else {
            throw RuleError(.badField, "Difficulty must be easy, medium or hard, not \"\(difficultyText)\".")
        }
        return QuizQuestion(difficulty: difficulty, text: text, answer: answer)
    }

    func packRequest(_ action: String, fields: JSONObject, replyTo target: ReplyTarget, isConsole: Bool) {
        var library = storage.packs
        let packID = fields["pack"]?.stringValue ?? ""
        func listReply() {
            let list = JSONValue.object(["type": "packs", "packs": .array(storage.packs.listPacks().map(Server.packJSON))])
            answer(target, json: list, text: TextRendering.render(list, for: Viewer(role: .admin), room: room) ?? "")
        }
        do throws(RuleError) {
            var changed: String?
            var created: String?
            var message = ""
            switch action {
            case "list":
                return listReply()
            case "show":
                guard let pack = library.pack(id: packID) else { throw RuleError(.unknownPack, "There is no pack \"\(packID)\". See `packs`.") }
                let json = JSONValue.object(["type": "pack", "id": .string(pack.id), "name": .string(pack.name), "builtin": .bool(pack.isBuiltin),
                                             "questions": .array(pack.questions.map { .object(["difficulty": .string($0.difficulty.rawValue), "text": .string($0.text), "answer": .string($0.answer)]) })])
                return answer(target, json: json, text: TextRendering.render(json, for: Viewer(role: .admin), room: room) ?? "")
            case "create":
                let id = try library.createPack(named: fields["name"]?.stringValue ?? "")
                changed = id; created = id; message = "Created pack \(id)."
            case "rename":
                try library.renamePack(packID, to: fields["name"]?.stringValue ?? "")
                changed = packID; message = "Renamed pack \(packID)."
            case "delete":
                try library.deletePack(packID)
                changed = packID; message = "Deleted pack \(packID)."
            case "copy":
                let id = try library.copyPack(packID, named: fields["name"]?.stringValue)
                changed = id; created = id; message = "Copied \(packID) to the custom pack \(id); edit it freely."
            case "add":
                try library.addQuestion(try question(from: fields["question"]), toPack: packID)
                changed = packID; message = "Added a question to \(packID)."
            case "edit":
                guard let number = fields["number"]?.intValue else { throw RuleError(.badField, "\"number\" (1 = first question) is missing.") }
                try library.editQuestion(at: Int(number) - 1, inPack: packID, to: try question(from: fields["question"]))
                changed = packID; message = "Changed question \(number) of \(packID)."
            case "remove":
                guard let number = fields["number"]?.intValue else { throw RuleError(.badField, "\"number\" (1 = first question) is missing.") }
                _ = try library.removeQuestion(at: Int(number) - 1, fromPack: packID)
                changed = packID; message = "Removed question \(number) from \(packID)."
            case "import", "export":
                guard isConsole else {
                    throw RuleError(.forbidden, "Importing and exporting files works from the host's console only (files live on the host).")
                }
                guard let file = fields["file"]?.stringValue else { throw RuleError(.badField, "Name a file.") }
                do {
                    if action == "import" {
                        let pack = try storage.importPack(file: file)
                        return okay(target, "Imported pack \(pack.id) (\(pack.name)), \(pack.questions.count) questions.")
                    }
                    try storage.exportPack(id: packID, file: file)
                    return okay(target, "Wrote \(file).")
                } catch {
                    throw RuleError(.storage, "\(error)")
                }
            default:
                throw RuleError(.unknownCommand, "Unknown packs action \"\(action)\". Actions: list, show, create, rename, delete, copy, add, edit, remove, import, export.")
            }
            if let changed {
                let previous = storage.packs
                storage.packs = library
                do {
                    try storage.savePack(id: changed)
                } catch {
                    storage.packs = previous
                    throw RuleError(.storage, "Could not save the pack: \(error). Nothing was changed.")
                }
                okay(target, message, created: created)
            }
        } catch {
            refuse(target, code: error.code.rawValue, message: error.message)
        }
    }

    func libraryRequest(_ action: String, fields: JSONObject, replyTo target: ReplyTarget) {
        var library = storage.commands
        func listReply(_ commands: [QueenCommand]) {
            let json = JSONValue.object(["type": "library", "commands": .array(commands.map { Server.commandJSON($0, hidden: library.isHidden(id: $0.id)) })])
            answer(target, json: json, text: TextRendering.render(json, for: Viewer(role: .admin), room: room) ?? "")
        }
        do throws(RuleError) {
            let kind = try fields["kind"]?.stringValue.map { text throws(RuleError) -> CommandKind in
                guard let kind = CommandKind(rawValue: text) else {
                    throw RuleError(.badField, "kind must be one of \(CommandKind.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                return kind
            }
            let difficulty = try fields["difficulty"]?.stringValue.map { text throws(RuleError) -> CommandDifficulty in
                guard let difficulty = CommandDifficulty(rawValue: text) else {
                    throw RuleError(.badField, "difficulty must be one of \(CommandDifficulty.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                return difficulty
            }
            let id = fields["commandId"]?.stringValue ?? fields["command"]?.stringValue ?? ""
            var message = ""
            var created: String?
            switch action {
            case "list": return listReply(library.commands(includingHidden: fields["hidden"]?.boolValue ?? false))
            case "search": return listReply(library.commands(matching: fields["text"]?.stringValue ?? ""))
            case "add":
                let command = try library.add(text: fields["text"]?.stringValue ?? "", kind: kind ?? .citizenToCitizen, difficulty: difficulty ?? .mild)
                message = "Added command \(command.id)."
                created = command.id
            case "edit":
                guard let existing = library.command(id: id) else { throw RuleError(.unknownCommand, "There is no command \"\(id)\".") }
                try library.edit(id: id, text: fields["text"]?.stringValue ?? existing.text, kind: kind ?? existing.kind,
                                 difficulty: difficulty ?? existing.difficulty)
                message = "Changed command \(id)."
            case "delete": try library.delete(id: id); message = "Deleted command \(id)."
            case "hide": try library.hide(id: id); message = "Hid built-in command \(id)."
            case "unhide": try library.unhide(id: id); message = "Command \(id) is shown again."
            default:
                throw RuleError(.unknownCommand, "Unknown library action \"\(action)\". Actions: list, search, add, edit, delete, hide, unhide.")
            }
            try saveLibrary(library)
            okay(target, message, created: created)
        } catch {
            refuse(target, code: error.code.rawValue, message: error.message)
        }
    }

    /// Saves a changed command library, keeping the old one when the disk refuses.
    func saveLibrary(_ library: CommandLibrary) throws(RuleError) {
        let previous = storage.commands
        storage.commands = library
        do {
            try storage.saveCommands()
        } catch {
            storage.commands = previous
            throw RuleError(.storage, "Could not save the command library: \(error). Nothing was changed.")
        }
    }
}
