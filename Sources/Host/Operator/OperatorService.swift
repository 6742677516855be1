import Foundation
import Protocol
import Rules

/// Where a reply to an operator request goes: a session (as JSON or text) or the host's console.
enum ReplyTarget {
    case session(Session, id: JSONValue?)
    case console

    var isConsole: Bool {
        if case .console = self { return true }
        return false
    }

    /// Who is asking, for an operator tool.
    var caller: ToolCaller { isConsole ? .console : .client }
}

/// The operator's service: the console and admin connections start and steer games, remove players and edit
/// the quiz packs and the Queen's command library. Both speak the same commands (`TextCommandParsing`).
final class OperatorService {
    let room: GameRoom
    let sessions: Sessions
    let storage: Storage
    /// The modes' operator tools (content kinds, records).
    let tools: ToolShelf
    let options: HostOptions
    let port: UInt16
    let log: Logger
    /// Where console replies go.
    let consoleOutput: (String) -> Void
    /// A fresh random seed for each game.
    let seed: () -> UInt64
    /// The address a player last played from, for a kick while they are away (set by the host core).
    var lastAddress: (_ playerID: String) -> String? = { _ in nil }

    init(
        room: GameRoom, sessions: Sessions, storage: Storage, tools: ToolShelf, options: HostOptions, port: UInt16,
        log: Logger, consoleOutput: @escaping (String) -> Void, seed: @escaping () -> UInt64
    ) {
        self.room = room
        self.sessions = sessions
        self.storage = storage
        self.tools = tools
        self.options = options
        self.port = port
        self.log = log
        self.consoleOutput = consoleOutput
        self.seed = seed
    }

    // MARK: Replies

    /// Sends `message` as the reply: to a session (with `re`), or its readable line to the console.
    func answer(_ target: ReplyTarget, _ message: any HostMessage) {
        switch target {
        case .console: consoleOutput(message.line(for: Perspective()) ?? "")
        case .session(let session, let id): sessions.send(message, to: session, re: id)
        }
    }

    /// Reports a refusal (on the console as `! …`).
    func refuse(_ target: ReplyTarget, _ code: ErrorCode, _ message: String) {
        answer(target, ErrorReply(code, message))
    }

    /// Reports success; `created` names a new pack or command id in a field of its own.
    func okay(_ target: ReplyTarget, _ text: String, created: String? = nil) {
        answer(target, OkReply(message: text, created: created))
    }

    // MARK: Commands

    /// Runs an operator command from the console or an admin connection.
    /// `isTyped` when the command is a line a person typed (the console, or `console` from an admin client): a
    /// typed `start` refuses an option its game does not take, where a JSON one ignores it.
    func operate(_ message: ClientMessage, replyTo target: ReplyTarget, at now: Instant, isTyped: Bool = false) {
        switch message {
        case .status:
            answer(target, statusReport)
        case .scores:
            answer(target, (room.game as? any KeepsScore)?.scores ?? room.lobby())
        case .start(let name, let fields):
            if let game = room.game, !game.status.isFinished {
                return refuse(target, .gameRunning, "A game of \(game.mode.title) is running; type end first.")
            }
            let context = GameContext(
                room: room.room, options: options, packs: storage.packs, commands: storage.commands, seed: seed(),
                tools: tools, dataDirectory: storage.directory, played: room.played)
            let game: any HostedGame
            let ignored: String?
            do {
                (game, ignored) = try room.catalog.make(
                    game: name, options: fields, context: context, refusingUnknownOptions: isTyped)
            } catch {
                return refuse(target, error.code, error.message)
            }
            // The `ok` goes before the game's first broadcasts.
            let notes = [(game as? any OperatorNotes)?.startNote, ignored.map { "Ignored: " + $0 }].compactMap { $0 }
            okay(target, (["Started \(game.mode.title)."] + notes).joined(separator: " "))
            room.begin(game, at: now)
        case .next, .pause, .resume, .end:
            guard let game = room.game else { return refuse(target, .noGame, "No game is running.") }
            let command: Steering =
                switch message {
                case .next: .next
                case .pause: .pause
                case .resume: .resume
                default: .end
                }
            do {
                let step = try game.steer(.steering(command), at: now)
                switch command {
                case .next: okay(target, "Moving on.")
                case .pause: okay(target, "Paused: every clock stands still until you type continue.")
                case .resume: okay(target, "Continuing: the clocks run again.")
                case .end: okay(target, "The game is over.")
                }
                if command == .end { room.end(step, at: now) } else { room.apply(step, at: now) }
            } catch {
                refuse(target, error.code, error.message)
            }
        case .kick(let name):
            guard let player = room.room.player(named: name) else {
                return refuse(target, .unknownPlayer, "Nobody called \"\(name)\" is in the room.")
            }
            let session = sessions.session(ofPlayer: player.id)
            if let session {
                sessions.send(ErrorReply(.kicked, "The organiser removed you from the room for tonight."), to: session)
            }
            let address = session?.peer ?? lastAddress(player.id)
            let barred = address.flatMap { room.isHostMachine($0) ? nil : $0 }
            room.ban(name: player.name, address: barred)
            room.removePlayer(player, reason: "kicked by the operator", at: now)
            let what =
                barred != nil
                ? "their name and their computer"
                : address == nil
                    ? "their name (their computer is not known)" : "their name (they played from this computer)"
            okay(
                target, "\(player.name) was removed for tonight: \(what) may not join again until unban \(player.name)."
            )
        case .unban(let name):
            guard room.unban(name: name) else {
                return refuse(target, .unknownPlayer, "Nobody called \"\(name)\" is barred tonight.")
            }
            okay(target, "\(name) may join again.")
        case .tidy(let everyone):
            let (removed, kept) = room.tidy(at: now, awayFor: everyone ? 0 : GameRoom.tidyGraceMilliseconds)
            var reply =
                removed.isEmpty
                ? "Nobody was removed."
                : "Removed \(Wording.count(removed.count, "player")) who \(removed.count == 1 ? "was" : "were") away: "
                    + removed.joined(separator: ", ") + "."
            if !kept.isEmpty {
                reply +=
                    " Kept \(kept.joined(separator: ", ")): away for less than two minutes, they may be on their way "
                    + "back (tidy! removes them too)."
            } else if removed.isEmpty {
                reply = "Nobody is away; the room is tidy."
            }
            okay(target, reply)
        case .lock(let locked):
            room.setLocked(locked)
            okay(
                target,
                locked
                    ? "The room is locked: newcomers wait in the lobby for the next game."
                    : "The room is open: newcomers join the running game.")
        case .library(let action, let fields):
            libraryRequest(action, fields: fields, replyTo: target)
        case .packs(let action, let fields):
            packRequest(action, fields: fields, replyTo: target)
        case .tool(let type, let action, let fields):
            guard let tool = tools.tool(requestType: type) else {
                return refuse(target, .unknownType, "Unknown message type \"\(type)\".")
            }
            do {
                answer(target, try tool.run(ToolRequest(action: action, fields: fields), caller: target.caller))
            } catch {
                refuse(target, error.code, error.message)
            }
        default:
            refuse(target, .unknownCommand, "That is not an operator command.")
        }
    }

    var statusReport: StatusReport {
        StatusReport(
            room: room.room.code, port: Int(port), connections: sessions.sessions.count,
            players: room.room.players.map(GameRoom.entry), game: room.game?.mode.name, summary: room.statusSummary)
    }

    // MARK: Quiz packs

    static func packEntry(_ summary: PackSummary) -> PackEntry {
        PackEntry(
            id: summary.id, name: summary.name, builtin: summary.isBuiltin, questions: summary.questionCount,
            easy: summary.easyCount, medium: summary.mediumCount, hard: summary.hardCount)
    }

    static func libraryEntry(_ command: QueenCommand, hidden: Bool) -> LibraryEntry {
        LibraryEntry(
            id: command.id, text: command.text, kind: command.kind.rawValue, difficulty: command.difficulty.rawValue,
            builtin: command.isBuiltin, hidden: hidden)
    }

    func question(_ question: PackQuestion) throws(RuleError) -> QuizQuestion {
        guard let difficulty = Difficulty(rawValue: question.difficulty.trimmingCharacters(in: .whitespaces)) else {
            throw RuleError(.badField, "Difficulty must be easy, medium or hard, not \"\(question.difficulty)\".")
        }
        return QuizQuestion(difficulty: difficulty, text: question.text, answer: question.answer)
    }

    func packRequest(_ action: String, fields: JSONObject, replyTo target: ReplyTarget) {
        let request: PackRequest
        do {
            request = try PackRequest.decode(action: action, fields: fields)
        } catch {
            return refuse(target, error.code, error.message)
        }
        var library = storage.packs
        do throws(RuleError) {
            let changed: String
            var created: String?
            let message: String
            switch request {
            case .list:
                return answer(target, PackListing(packs: storage.packs.listPacks().map(OperatorService.packEntry)))
            case .show(let packID):
                guard let pack = library.pack(id: packID) else {
                    throw RuleError(.unknownPack, "There is no pack \"\(packID)\". Type packs to list them.")
                }
                return answer(
                    target,
                    PackDetail(
                        id: pack.id, name: pack.name, builtin: pack.isBuiltin,
                        questions: pack.questions.map {
                            PackQuestion(difficulty: $0.difficulty.rawValue, text: $0.text, answer: $0.answer)
                        }))
            case .create(let name):
                let id = try library.createPack(named: name)
                changed = id
                created = id
                message = "Created pack \(id)."
            case .rename(let packID, let name):
                try library.renamePack(packID, to: name)
                changed = packID
                message = "Renamed pack \(packID)."
            case .delete(let packID):
                try library.deletePack(packID)
                changed = packID
                message = "Deleted pack \(packID)."
            case .copy(let packID, let name):
                let id = try library.copyPack(packID, named: name)
                changed = id
                created = id
                message = "Copied \(packID) to the custom pack \(id); edit it freely."
            case .add(let packID, let added):
                try library.addEntry(try question(added), toPack: packID)
                changed = packID
                message = "Added a question to \(packID)."
            case .edit(let packID, let number, let edited):
                try library.editEntry(at: number - 1, inPack: packID, to: try question(edited))
                changed = packID
                message = "Changed question \(number) of \(packID)."
            case .remove(let packID, let number):
                _ = try library.removeEntry(at: number - 1, fromPack: packID)
                changed = packID
                message = "Removed question \(number) from \(packID)."
            case .importFile(let file):
                // The store's own refusals keep their codes (bad_csv, bad_json, pack_name_taken…).
                try checkFilesAreLocal(target)
                let pack = try storage.packStore.importFile(file)
                return okay(
                    target,
                    "Imported pack \(pack.id) (\(pack.name)), \(Wording.count(pack.questions.count, "question")).")
            case .export(let packID, let file):
                try checkFilesAreLocal(target)
                try storage.packStore.export(id: packID, to: file)
                return okay(target, "Wrote \(file).")
            }
            let previous = storage.packs
            storage.packs = library
            let kept: String?
            do {
                kept = try storage.savePack(id: changed)
            } catch {
                storage.packs = previous
                throw RuleError(.storage, "Could not save the pack: \(error). Nothing was changed.")
            }
            okay(target, message + (kept.map { " " + $0 } ?? ""), created: created)
        } catch {
            refuse(target, error.code, error.message)
        }
    }

    /// Files live on the host: reading and writing them is for its console only.
    private func checkFilesAreLocal(_ target: ReplyTarget) throws(RuleError) {
        guard target.isConsole else {
            throw RuleError(
                .forbidden, "Importing and exporting files works from the host's console only (files live on the host)."
            )
        }
    }

    // MARK: The Queen's command library

    func libraryRequest(_ action: String, fields: JSONObject, replyTo target: ReplyTarget) {
        let request: LibraryRequest
        do {
            request = try LibraryRequest.decode(action: action, fields: fields)
        } catch {
            return refuse(target, error.code, error.message)
        }
        libraryRequest(request, replyTo: target)
    }

    func libraryRequest(_ request: LibraryRequest, replyTo target: ReplyTarget) {
        var library = storage.commands
        func listReply(_ commands: [QueenCommand]) {
            answer(
                target,
                LibraryListing(
                    commands: commands.map { OperatorService.libraryEntry($0, hidden: library.isHidden(id: $0.id)) }))
        }
        func kind(_ text: String?) throws(RuleError) -> CommandKind? {
            guard let text else { return nil }
            guard let kind = CommandKind.named(text) else {
                throw RuleError(.badField, "kind must be one of \(CommandKind.spelledList).")
            }
            return kind
        }
        func difficulty(_ text: String?) throws(RuleError) -> CommandDifficulty? {
            guard let text else { return nil }
            guard let difficulty = CommandDifficulty(rawValue: text) else {
                let known = CommandDifficulty.allCases.map(\.rawValue).joined(separator: ", ")
                throw RuleError(.badField, "difficulty must be one of \(known).")
            }
            return difficulty
        }
        do throws(RuleError) {
            let message: String
            var created: String?
            switch request {
            case .list(let includingHidden): return listReply(library.commands(includingHidden: includingHidden))
            case .search(let text): return listReply(library.commands(matching: text))
            case .add(let text, let kindText, let difficultyText):
                let command = try library.add(
                    text: text, kind: try kind(kindText) ?? .citizenToCitizen,
                    difficulty: try difficulty(difficultyText) ?? .mild)
                message = "Added command \(command.id)."
                created = command.id
            case .edit(let id, let text, let kindText, let difficultyText):
                guard let existing = library.command(id: id) else {
                    throw RuleError(.unknownCommand, "There is no command \"\(id)\".")
                }
                try library.edit(
                    id: id, text: text ?? existing.text, kind: try kind(kindText) ?? existing.kind,
                    difficulty: try difficulty(difficultyText) ?? existing.difficulty)
                message = "Changed command \(id)."
            case .delete(let id):
                try library.delete(id: id)
                message = "Deleted command \(id)."
            case .hide(let id):
                try library.hide(id: id)
                message = "Hid built-in command \(id)."
            case .unhide(let id):
                try library.unhide(id: id)
                message = "Command \(id) is shown again."
            }
            let kept = try saveLibrary(library)
            okay(target, message + (kept.map { " " + $0 } ?? ""), created: created)
        } catch {
            refuse(target, error.code, error.message)
        }
    }

    /// Saves a changed command library, keeping the old one when the disk refuses; returns a sentence when an
    /// unreadable `commands.json` was kept as a backup first.
    @discardableResult
    func saveLibrary(_ library: CommandLibrary) throws(RuleError) -> String? {
        let previous = storage.commands
        storage.commands = library
        do {
            return try storage.saveCommands()
        } catch {
            storage.commands = previous
            throw RuleError(.storage, "Could not save the command library: \(error). Nothing was changed.")
        }
    }

    /// Saves a player's own command to the library (the Queen's `save: true`), telling her how it went.
    func saveOwnCommand(_ text: String, for session: Session) {
        var library = storage.commands
        do throws(RuleError) {
            let command = try library.add(text: text, kind: .citizenToCitizen, difficulty: .mild)
            try saveLibrary(library)
            sessions.send(Notice("Saved your command to the library as \(command.id)."), to: session)
        } catch {
            sessions.send(Notice("Your command was used but not saved: \(error.message)"), to: session)
        }
    }
}

@available(*, unavailable)
extension OperatorService: Sendable {}
