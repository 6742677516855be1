import Foundation

/// One line typed by a person (a `nc`/`telnet` player, or the operator at the host's console), parsed.
///
/// Text mode and the console share this vocabulary; the host decides who may do what.
public enum TextCommand: Equatable, Sendable {
    /// `join ROOM NAME [TEAM]`: join as a player.
    case join(room: String, name: String, team: String)
    /// `watch ROOM`: join as a read-only board.
    case watch(room: String)
    /// `admin ROOM KEY`: join as the operator.
    case admin(room: String, key: String)
    /// `help [TOPIC]`.
    case help(topic: String?)
    /// Anything that maps to a session or operator message (`scores`, `start …`, `kick …`, …).
    case message(ClientMessage)
    /// A line that is no session command: the running game's command (`b`, `pick 2`) or an answer on turn.
    case freeText(String)
    /// A known command used wrongly, with the usage to show.
    case usage(String)
}

/// Parses typed lines into `TextCommand`s.
public enum TextCommandParsing {
    /// Every first word the session reads itself, before a running game sees the line (`rejoin` and `resume` are
    /// read by the host's text sessions): a game's typed commands must use other words.
    public static let sessionWords: [String] = [
        "join", "j", "watch", "admin", "help", "?", "h", "scores", "score", "status", "quit", "exit", "bye", "next",
        "n", "pause", "continue", "resume", "end", "kick", "unban", "tidy", "tidy!", "lock", "unlock", "ping", "start",
        "commands", "library", "lib", "packs", "pack", "rejoin", "character",
    ]

    /// Parses `line` (already framed, without terminator); `games` say how each game reads `start`'s words.
    public static func parse(_ line: String, games: StartGrammars = StartGrammars()) -> TextCommand {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndControls)
        guard !trimmed.isEmpty else { return .freeText("") }
        let (word, rest) = splitFirstWord(trimmed)
        let verb = word.lowercased()
        switch verb {
        case "join", "j":
            let parts = words(rest)
            guard parts.count >= 2 else { return .usage("join ROOM NAME [TEAM]   e.g. join ABCD Ann Red") }
            return .join(
                room: parts[0].uppercased(), name: parts[1],
                team: parts.count > 2 ? parts[2...].joined(separator: " ") : "")
        case "watch":
            let parts = words(rest)
            guard parts.count == 1 else { return .usage("watch ROOM") }
            return .watch(room: parts[0].uppercased())
        case "admin":
            let parts = words(rest)
            guard parts.count == 2 else { return .usage("admin ROOM KEY") }
            return .admin(room: parts[0].uppercased(), key: parts[1])
        case "help", "?", "h": return .help(topic: rest.isEmpty ? nil : rest.lowercased())
        case "scores", "score": return .message(.scores)
        case "status": return .message(.status)
        case "quit", "exit", "bye": return .message(.bye)
        case "next", "n": return .message(.next)
        case "pause": return .message(.pause)
        case "continue", "resume": return .message(.resume)
        case "end": return .message(.end)
        case "kick":
            guard !rest.isEmpty else { return .usage("kick NAME") }
            return .message(.kick(name: rest))
        case "unban":
            guard !rest.isEmpty else { return .usage("unban NAME") }
            return .message(.unban(name: rest))
        case "tidy": return .message(.tidy(everyone: false))
        case "tidy!": return .message(.tidy(everyone: true))
        case "lock": return .message(.lock(true))
        case "unlock": return .message(.lock(false))
        case "ping": return .message(.ping(clientTime: nil))
        case "start": return parseStart(rest, games: games)
        case "commands":
            return .message((rest.isEmpty ? LibraryRequest.list(includingHidden: false) : .search(rest)).message)
        case "library", "lib": return parseLibrary(rest)
        case "packs": return .message(PackRequest.list.message)
        case "character": return .message(.character(rest.isEmpty ? nil : rest))
        case "pack": return parsePack(rest)
        default: return .freeText(trimmed)
        }
    }

    /// Splits off the first space-separated word.
    static func splitFirstWord(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (text, "") }
        return (String(text[..<space]), String(text[space...]).trimmingCharacters(in: .whitespacesAndControls))
    }

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// Turns `question-seconds` into `questionSeconds`.
    static func camelCase(_ key: String) -> String {
        let parts = key.split(separator: "-")
        guard let first = parts.first else { return key }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A typed option value: a whole number, a yes/no word, a comma list (for `lists`), or the text.
    static func optionValue(_ text: String, key: String, lists: Set<String> = []) -> JSONValue {
        if let integer = Int64(text) { return .int(integer) }
        switch text.lowercased() {
        case "true", "on", "yes": return .bool(true)
        case "false", "off", "no": return .bool(false)
        default: break
        }
        if lists.contains(key) { return .array(text.split(separator: ",").map { .string(String($0)) }) }
        return .string(text)
    }

    static func parseStart(_ rest: String, games: StartGrammars) -> TextCommand {
        let parts = words(rest)
        guard let game = parts.first?.lowercased() else { return .usage(games.usage) }
        let grammar = games.grammar(for: game)
        var options = JSONObject()
        for part in parts.dropFirst() {
            if let equals = part.firstIndex(of: "=") {
                let key = camelCase(String(part[..<equals]))
                let value = String(part[part.index(after: equals)...])
                options[key] = optionValue(value, key: key, lists: grammar?.listKeys ?? [])
            } else if let grammar, let value = grammar.read(part) {
                // A second list word adds to the list (`science,animals zzz` is three packs).
                if case .array(let earlier)? = options[value.key], case .array(let more) = value.value {
                    options[value.key] = .array(earlier + more)
                } else {
                    options[value.key] = value.value
                }
            } else {
                return .usage(grammar?.usage ?? games.usage)
            }
        }
        return .message(.start(game: game, options: options))
    }

    static let libraryUsage = """
        library list | library search TEXT | library add [kind=K] [difficulty=D] TEXT
        library edit ID TEXT | library delete ID | library hide ID | library unhide ID
        """

    static func parseLibrary(_ rest: String) -> TextCommand {
        let (action, argument) = splitFirstWord(rest)
        let request: LibraryRequest
        switch action.lowercased() {
        case "list", "": request = .list(includingHidden: false)
        case "search": request = .search(argument)
        case "add":
            var settings: [String: String] = [:]
            var text = argument
            while true {
                let (word, remainder) = splitFirstWord(text)
                guard let equals = word.firstIndex(of: "="), ["kind", "difficulty"].contains(String(word[..<equals]))
                else {
                    break
                }
                settings[String(word[..<equals])] = String(word[word.index(after: equals)...])
                text = remainder
            }
            guard !text.isEmpty else { return .usage(libraryUsage) }
            request = .add(text: text, kind: settings["kind"], difficulty: settings["difficulty"])
        case "edit":
            let (id, text) = splitFirstWord(argument)
            guard !id.isEmpty, !text.isEmpty else { return .usage(libraryUsage) }
            request = .edit(id: id, text: text, kind: nil, difficulty: nil)
        case "delete", "hide", "unhide":
            guard !argument.isEmpty else { return .usage(libraryUsage) }
            request =
                action.lowercased() == "delete"
                ? .delete(id: argument)
                : action.lowercased() == "hide"
                    ? .hide(id: argument) : .unhide(id: argument)
        default: return .usage(libraryUsage)
        }
        return .message(request.message)
    }

    static let packUsage = """
        packs | pack show ID | pack create NAME | pack rename ID NAME | pack delete ID | pack copy ID [NAME]
        pack add ID DIFFICULTY | QUESTION | ANSWER
        pack edit ID N DIFFICULTY | QUESTION | ANSWER      pack remove ID N
        pack import FILE | pack export ID FILE   (files on the host; .json or .csv)
        """

    static func question(_ text: String) -> PackQuestion? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndControls) }
        guard parts.count == 3 else { return nil }
        return PackQuestion(difficulty: parts[0].lowercased(), text: parts[1], answer: parts[2])
    }

    static func parsePack(_ rest: String) -> TextCommand {
        let (action, argument) = splitFirstWord(rest)
        let (first, remainder) = splitFirstWord(argument)
        let request: PackRequest
        switch action.lowercased() {
        case "list", "": request = .list
        case "show", "delete":
            guard !first.isEmpty else { return .usage(packUsage) }
            request = action.lowercased() == "show" ? .show(pack: first) : .delete(pack: first)
        case "create":
            guard !argument.isEmpty else { return .usage(packUsage) }
            request = .create(name: argument)
        case "rename":
            guard !first.isEmpty, !remainder.isEmpty else { return .usage(packUsage) }
            request = .rename(pack: first, name: remainder)
        case "copy":
            guard !first.isEmpty else { return .usage(packUsage) }
            request = .copy(pack: first, name: remainder.isEmpty ? nil : remainder)
        case "add":
            guard !first.isEmpty, let question = question(remainder) else { return .usage(packUsage) }
            request = .add(pack: first, question: question)
        case "edit":
            let (number, text) = splitFirstWord(remainder)
            guard !first.isEmpty, let index = Int(number), let question = question(text) else {
                return .usage(packUsage)
            }
            request = .edit(pack: first, number: index, question: question)
        case "remove":
            guard !first.isEmpty, let index = Int(remainder) else { return .usage(packUsage) }
            request = .remove(pack: first, number: index)
        case "import":
            guard !argument.isEmpty else { return .usage(packUsage) }
            request = .importFile(argument)
        case "export":
            guard !first.isEmpty, !remainder.isEmpty else { return .usage(packUsage) }
            request = .export(pack: first, file: remainder)
        default: return .usage(packUsage)
        }
        return .message(request.message)
    }
}

extension CharacterSet {
    /// Whitespace, newlines and control characters.
    static let whitespacesAndControls = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)
}
