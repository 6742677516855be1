import Foundation
import Protocol
import Rules

/// What an operator tool is asked to do: an action and its fields, however it was asked.
struct ToolRequest: Equatable {
    var action: String
    var fields: JSONObject = JSONObject()
    /// The address phones open the running host's page at (`http://HOST:PORT/ROOM`), set by the host for its own
    /// console's requests; nil on the command line, where no host runs (`hunt print` draws its QR codes with it).
    var pageAddress: String?
}

/// Who asked a tool, which decides what it may do (files live on the host).
enum ToolCaller {
    /// The host's console.
    case console
    /// `partyline-host NOUN …` on the host's command line.
    case commandLine
    /// An admin connection over the network.
    case client

    /// Whether the caller sits at the host and may read and write its files.
    var isLocal: Bool { self != .client }
}

/// A family of operator commands a game mode brings beside the game itself: its content kinds (hunts, word lists,
/// puzzle packs, dice boards) or its records (leaderboards). The console reads `NOUN ACTION …`, admin clients send
/// `{"type": requestType, "action": …}`, the command line takes `partyline-host NOUN ACTION …`, all through `run`.
protocol OperatorTool: AnyObject {
    /// The word that names the tool on the console and the command line (`hunt`).
    var noun: String { get }
    /// Other words the console and the command line take for the noun (`leaderboard`); none unless a tool says.
    var aliases: [String] { get }
    /// The wire `type` of admin requests (`hunts`).
    var requestType: String { get }
    /// Help lines, as typed on the console.
    var usage: [String] { get }
    /// Reads the words typed after the noun; nil when they make no request (the caller shows `usage`).
    func parse(_ words: [String]) -> ToolRequest?
    /// Runs a request and returns the reply (its readable line is what the console and the command line print).
    func run(_ request: ToolRequest, caller: ToolCaller) throws(RuleError) -> any HostMessage
}

extension OperatorTool {
    var aliases: [String] { [] }
}

/// The operator tools of every registered mode, made once per data folder.
struct ToolShelf {
    let tools: [any OperatorTool]
    /// Every request type for the tools, for decoding (asked for every line a connection sends): the tools' own,
    /// and the board editor's when a tool keeps the dice boards.
    let requestTypes: Set<String>

    /// Makes each mode's tools on `storage`'s data folder.
    init(catalog: ModeCatalog, storage: Storage) throws {
        var tools: [any OperatorTool] = []
        for entry in catalog.entries {
            for make in entry.tools { tools.append(try make(storage)) }
        }
        tools.append(RewardsTool(storage: storage))  // the players' characters, whatever the game
        self.tools = tools
        var types = Set(tools.map(\.requestType))
        if tools.contains(where: { $0 is ContentTool<DiceBoards> }) { types.insert(Sessions.boardEditorType) }
        requestTypes = types
    }

    /// The tool a typed noun (or one of its aliases) names (any case).
    func tool(noun: String) -> (any OperatorTool)? {
        let word = noun.lowercased()
        return tools.first { $0.noun == word || $0.aliases.contains(word) }
    }

    /// The tool an admin request's type names.
    func tool(requestType: String) -> (any OperatorTool)? { tools.first { $0.requestType == requestType } }

    /// The tool of type `T`, for a game that reads its content at start.
    func tool<T: OperatorTool>(_ type: T.Type) -> T? { tools.lazy.compactMap { $0 as? T }.first }

    /// Runs a typed line whose first word is a tool's noun, telling it the running host's `pageAddress` when there
    /// is one; nil when no tool has that noun.
    func run(line words: [String], caller: ToolCaller, pageAddress: String? = nil) -> Result<
        any HostMessage, RuleError
    >? {
        guard let first = words.first, let tool = tool(noun: first) else { return nil }
        guard var request = tool.parse(Array(words.dropFirst())) else {
            return .failure(
                RuleError(.unknownCommand, "Usage:\n" + tool.usage.map { "  " + $0 }.joined(separator: "\n")))
        }
        request.pageAddress = pageAddress
        do {
            return .success(try tool.run(request, caller: caller))
        } catch {
            return .failure(error)
        }
    }

    /// Every tool's help lines.
    var usage: [String] { tools.flatMap(\.usage) }
}

/// A content kind the operator manages with the standard actions (list, show, delete, import, export) plus the
/// kind's own edits.
protocol ManagedContent: ContentKind, SendableMetatype {
    /// The console noun (`hunt`).
    static var commandWord: String { get }
    /// The wire request type (`hunts`).
    static var requestType: String { get }
    /// An item's id, name and a few words about its size.
    static func summary(of item: Library.Item) -> (id: String, name: String, detail: String)
    /// An item for people, one line each (the console's `show`).
    static func describe(_ item: Library.Item) -> [String]
    /// Help lines for the kind's own edits.
    static var editUsage: [String] { get }
    /// Reads typed words into one of the kind's own edits; nil when they are none.
    static func parseEdit(_ words: [String]) -> ToolRequest?
    /// Applies one of the kind's own edits to the library; returns the changed id and what to say, or nil when the
    /// action is not one of the kind's.
    static func edit(_ request: ToolRequest, in library: inout Library) throws(RuleError) -> (
        id: String, message: String
    )?
    /// Answers one of the kind's own read-only actions (`print`, `history`), with the kind's data folder at hand;
    /// nil when the action is not one of them.
    static func query(_ request: ToolRequest, in library: Library, folder: String, caller: ToolCaller)
        throws(RuleError) -> (any HostMessage)?
    /// Files that travel with the item `id` (a word list's recordings), after it was exported to `file`, with the
    /// kind's data folder at hand; returns a sentence for the reply, or nil when there were none.
    static func exported(_ id: String, in library: Library, to file: String, folder: String) throws(RuleError)
        -> String?
    /// Files that travel with an item imported from `file` as `id`; returns a sentence for the reply, or nil.
    static func imported(_ id: String, in library: Library, from file: String, folder: String) -> String?
    /// Removes what the data folder keeps beside the item `id`, which was deleted.
    static func deleted(_ id: String, folder: String)
}

extension ManagedContent {
    static var editUsage: [String] { [] }
    static func parseEdit(_ words: [String]) -> ToolRequest? { nil }
    static func edit(_ request: ToolRequest, in library: inout Library) throws(RuleError) -> (
        id: String, message: String
    )? {
        nil
    }
    static func query(_ request: ToolRequest, in library: Library, folder: String, caller: ToolCaller)
        throws(RuleError) -> (any HostMessage)?
    {
        nil
    }
    static func exported(_ id: String, in library: Library, to file: String, folder: String) throws(RuleError)
        -> String?
    { nil }
    static func imported(_ id: String, in library: Library, from file: String, folder: String) -> String? { nil }
    static func deleted(_ id: String, folder: String) {}

    /// A factory for the mode's `ModeEntry.tools`.
    static var tool: @Sendable (Storage) throws -> any OperatorTool {
        { storage in try ContentTool<Self>(folder: storage.directory + "/" + folderName, log: storage.log) }
    }
}

/// The standard operator commands for one content kind, on its `ContentStore`.
final class ContentTool<Kind: ManagedContent>: OperatorTool {
    let store: ContentStore<Kind>

    init(folder: String, log: Logger) throws {
        store = try ContentStore<Kind>(folder: folder, log: log)
        for problem in store.problems { log.warning(problem) }
    }

    var noun: String { Kind.commandWord }
    var requestType: String { Kind.requestType }

    /// The kind's library, for a game that reads it at start.
    var library: Kind.Library { store.library }

    var usage: [String] {
        let noun = Kind.commandWord
        return [
            "\(noun) list | \(noun) show ID | \(noun) delete ID",
            "\(noun) import FILE | \(noun) export ID FILE   (files on the host: \(Kind.formats.map { ".\($0)" }.joined(separator: " or ")))",
        ] + Kind.editUsage
    }

    func parse(_ words: [String]) -> ToolRequest? {
        let action = words.first?.lowercased() ?? "list"
        let rest = Array(words.dropFirst())
        switch (action, rest.count) {
        case ("list", 0): return ToolRequest(action: "list")
        case ("show", 1), ("delete", 1): return ToolRequest(action: action, fields: ["item": .string(rest[0])])
        case ("import", 1...):
            return ToolRequest(action: "import", fields: ["file": .string(rest.joined(separator: " "))])
        case ("export", 2...):
            return ToolRequest(
                action: "export",
                fields: ["item": .string(rest[0]), "file": .string(rest.dropFirst().joined(separator: " "))])
        default: return Kind.parseEdit(words)
        }
    }

    func run(_ request: ToolRequest, caller: ToolCaller) throws(RuleError) -> any HostMessage {
        let id = request.fields["item"]?.stringValue ?? ""
        switch request.action {
        case "list":
            let library = store.library
            let items = library.builtinItems + library.customItems
            return ContentListing(
                kind: Kind.requestType,
                items: items.map { item in
                    let summary = Kind.summary(of: item)
                    return ContentItem(
                        id: summary.id, name: summary.name, builtin: library.isBuiltin(id: summary.id),
                        summary: summary.detail)
                })
        case "show":
            guard let item = store.library.item(id: id) else { throw Kind.unknownItem(id) }
            let summary = Kind.summary(of: item)
            let json = (try? JSONParsing.parse(Kind.encode(item, format: "json"))) ?? .null
            return ContentDetail(
                kind: Kind.requestType, id: summary.id, name: summary.name, builtin: store.library.isBuiltin(id: id),
                item: json, lines: Kind.describe(item))
        case "delete":
            guard store.library.item(id: id) != nil else { throw Kind.unknownItem(id) }
            try store.change { library in
                try library.remove(id: id)
                return id
            }
            Kind.deleted(id, folder: store.folder)
            return OkReply(message: "Deleted \(Kind.noun) \(id).")
        case "import":
            try checkLocal(caller)
            let file = request.fields["file"]?.stringValue ?? ""
            let item = try store.importFile(file)
            let summary = Kind.summary(of: item)
            let note = Kind.imported(summary.id, in: store.library, from: file, folder: store.folder)
            return OkReply(
                message: "Imported \(Kind.noun) \(summary.id) (\(summary.name))." + (note.map { " " + $0 } ?? ""),
                created: summary.id)
        case "export":
            try checkLocal(caller)
            let file = request.fields["file"]?.stringValue ?? ""
            try store.export(id: id, to: file)
            let note = try Kind.exported(id, in: store.library, to: file, folder: store.folder)
            return OkReply(message: "Wrote \(file)." + (note.map { " " + $0 } ?? ""))
        default:
            if let answer = try Kind.query(request, in: store.library, folder: store.folder, caller: caller) {
                return answer
            }
            var result: (id: String, message: String)?
            try store.change { library in
                guard let edited = try Kind.edit(request, in: &library) else {
                    throw RuleError(
                        .unknownCommand,
                        "Unknown \(Kind.commandWord) action \"\(request.action)\". Use: \(usage.joined(separator: " · "))."
                    )
                }
                result = edited
                return edited.id
            }
            return OkReply(message: result?.message ?? "Done.", created: result?.id)
        }
    }

    private func checkLocal(_ caller: ToolCaller) throws(RuleError) {
        guard caller.isLocal else {
            throw RuleError(
                .forbidden, "Importing and exporting files works from the host's console only (files live on the host)."
            )
        }
    }
}
