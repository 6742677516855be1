import Foundation
import Protocol
import Rules

/// Everything the host can be told on its command line, with the defaults a party needs.
package struct HostOptions {
    /// The defaults a party needs (what the command line starts from).
    package init() {}

    var port: UInt16 = 4747
    var bindAddress = "0.0.0.0"
    var room: String?
    var adminKey: String?
    var dataDirectory: String?
    var maxClients = 2000
    var logLevel = LogLevel.info
    var hostName: String?
    package var isDiscoveryEnabled = true
    var isConsoleEnabled = true
    /// `nil`: ask on the console when a journal exists (resume when there is no console); true: resume; false: start fresh.
    var resume: Bool?
    /// The house rules given on the command line, by flag (`--answer-seconds`): the games' start options they
    /// preset (declared in each wire's `startGrammar`); a rule not given keeps the declared default.
    var houseRules: [String: JSONValue] = [:]
    /// `history GAME --csv`: one row per answer instead of the readable account.
    var isCSV = false
    package var isFairnessEnabled = true
    var messagesPerSecond = 40
    var connectionsPerSecond = 50
    var idleTimeoutSeconds = 90
    var resumeWindowSeconds = 600
    var isJournalSyncEnabled = true
    var maximumOutputKilobytes = 1024

    /// What the command line asked for besides running a host.
    enum Command: Equatable {
        case run
        case help
        case version
        /// `history`, or `history WORDS…` for a game's own records (`history --fly`, `history hunt ID`).
        case history([String])
        /// `NOUN WORDS…`: a game's operator tool (`hunt import FILE`, `words list`).
        case tool([String])
        case packImport(file: String)
        case packExport(pack: String, file: String)
    }

    /// The house rule set by `flag`, or the declared default of the option it presets.
    subscript(houseRule flag: String) -> JSONValue {
        get { houseRules[flag] ?? HostOptions.houseRuleDefaults[flag] ?? .null }
        set { houseRules[flag] = newValue }
    }

    /// Every house-rule flag's declared default.
    static let houseRuleDefaults: [String: JSONValue] = Dictionary(
        GameModes.houseRules().compactMap { rule in
            rule.option.houseRule.map { ($0, rule.option.defaultValue ?? .null) }
        },
        uniquingKeysWith: { first, _ in first })

    /// `--question-seconds`.
    var questionSeconds: Int {
        get { Int(self[houseRule: "--question-seconds"].intValue ?? 0) }
        set { self[houseRule: "--question-seconds"] = .int(Int64(newValue)) }
    }
    /// `--after-buzz-seconds`.
    var afterBuzzSeconds: Int {
        get { Int(self[houseRule: "--after-buzz-seconds"].intValue ?? 0) }
        set { self[houseRule: "--after-buzz-seconds"] = .int(Int64(newValue)) }
    }
    /// `--answer-seconds`.
    var answerSeconds: Int {
        get { Int(self[houseRule: "--answer-seconds"].intValue ?? 0) }
        set { self[houseRule: "--answer-seconds"] = .int(Int64(newValue)) }
    }
    /// `--reveal-seconds`.
    package var revealSeconds: Int {
        get { Int(self[houseRule: "--reveal-seconds"].intValue ?? 0) }
        set { self[houseRule: "--reveal-seconds"] = .int(Int64(newValue)) }
    }
    /// `--strict`.
    var isStrict: Bool {
        get { self[houseRule: "--strict"].boolValue ?? false }
        set { self[houseRule: "--strict"] = .bool(newValue) }
    }
    /// `--judge manual`.
    var isJudgedByHand: Bool {
        get { self[houseRule: "--judge"].stringValue == "manual" }
        set { self[houseRule: "--judge"] = .string(newValue ? "manual" : "auto") }
    }
    /// `--queen-max-players`.
    var queenMaxPlayers: Int {
        get { Int(self[houseRule: "--queen-max-players"].intValue ?? 0) }
        set { self[houseRule: "--queen-max-players"] = .int(Int64(newValue)) }
    }
    /// `--queen-countdown-seconds`.
    var queenCountdownSeconds: Int {
        get { Int(self[houseRule: "--queen-countdown-seconds"].intValue ?? 0) }
        set { self[houseRule: "--queen-countdown-seconds"] = .int(Int64(newValue)) }
    }
    /// `--queen-choose-seconds`.
    var queenChooseSeconds: Int {
        get { Int(self[houseRule: "--queen-choose-seconds"].intValue ?? 0) }
        set { self[houseRule: "--queen-choose-seconds"] = .int(Int64(newValue)) }
    }

    /// The command-line options of the modes' house rules, from their start options' declarations, each under its
    /// first mode's section; `extra` adds host-only options to the end of a mode's section (`--fairness` to Shaky
    /// Words').
    static func houseRuleOptions(
        extra: [String: [CommandLineOption<HostOptions>]] = [:]
    ) -> [CommandLineOption<HostOptions>] {
        var options: [CommandLineOption<HostOptions>] = []
        for (game, option) in GameModes.houseRules() {
            guard let flag = option.houseRule else { continue }
            let section = houseRuleSection(game)
            let field = \HostOptions.[houseRule: flag]
            switch option.kind {
            case .wholeNumber(let range):
                options.append(
                    .value(
                        flag, field,
                        OptionValue<Int>.integer(in: range).map(
                            { JSONValue.int(Int64($0)) }, back: { Int($0.intValue ?? 0) }),
                        help: option.help, section: section))
            case .flag:
                options.append(.flag(flag, sets: field, to: .bool(true), help: option.help, section: section))
            case .choice(let choices):
                options.append(
                    .value(
                        flag, field, .choice(choices.map { ($0, JSONValue.string($0)) }), help: option.help,
                        section: section))
            case .word, .list:
                options.append(
                    .value(
                        flag, field,
                        OptionValue<String>.text(placeholder: "WORD").map(
                            JSONValue.string, back: { $0.stringValue ?? "" }), help: option.help, section: section))
            }
        }
        // The help lists options by section, so the extras join their mode's section wherever they stand.
        return options + GameModes.wires.flatMap { extra[$0.name] ?? [] }
    }

    /// The help heading of a mode's house rules (a flag such as `--strict` presets every mode that declares it).
    static func houseRuleSection(_ game: any GameWire.Type) -> String {
        "\(game.title.uppercased()) HOUSE RULES (each can also be set per game in start)"
    }

    /// Whether `code` can be a room code: 2 to 12 letters or digits (ASCII), as `--room` takes and the journal keeps.
    static func isRoomCode(_ code: String) -> Bool {
        (2...FieldLimits.room).contains(code.count) && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// Whether `key` can be an admin key: 4 to 128 characters without spaces, as `--admin-key` takes.
    static func isAdminKey(_ key: String) -> Bool { (4...128).contains(key.count) && !key.contains(" ") }

    /// The options' declarations: each flag once, with its help, allowed values and section; `parse` and `helpText`
    /// both read it.
    static var table: CommandLineTable<HostOptions> {
        let network = "NETWORK"
        let data = "DATA"
        let limits = "LIMITS"
        let console = "CONSOLE AND LOG"
        let onOff: OptionValue<Bool> = .choice(["on": true, "off": false])
        let roomCharacters = 2...FieldLimits.room
        return CommandLineTable(
            tool: "partyline-host", defaults: HostOptions(),
            introduction: """
                partyline-host — host a Partyline party on this computer's network.

                USAGE
                  partyline-host [options]                 start a host (defaults need no setup)
                  partyline-host history [--data DIR]      list finished games from the game log
                  partyline-host history N [--csv]         game N in detail (every answer), or as CSV rows
                  partyline-host pack import FILE          add a quiz pack from .json or .csv
                  partyline-host pack export ID FILE       write a pack to .json or .csv
                  partyline-host NOUN …                    the same content commands as on the console
                                                           (hunt list, hunt print ID --html, history --hunt ID)

                Players join with `partyline <this computer's address>` or `nc <address> 4747`.
                The one line on stdout, `ready port=<P> room=<CODE> admin-key=<KEY>`, is for scripts;
                everything else (addresses, how to join, logs) goes to stderr.
                """,
            options: [
                .value(
                    "--port", \.port, .integer(in: 0...65535), help: "TCP (and UDP discovery) port; 0 picks a free one",
                    section: network),
                .value(
                    "--bind", \.bindAddress, .text(placeholder: "ADDR"),
                    help: "IPv4 address to listen on (0.0.0.0: all)", section: network),
                .value(
                    "--room", \.room,
                    .text(
                        placeholder: "CODE",
                        expectation: "\(roomCharacters.lowerBound) to \(roomCharacters.upperBound) letters or digits",
                        isAllowed: isRoomCode,
                        transform: { $0.uppercased() },
                        accepted: ["ab", String(repeating: "Z", count: FieldLimits.room)],
                        refused: ["A", String(repeating: "Z", count: FieldLimits.room + 1), "A-B"]),
                    help: "room code players must type", section: network, shownDefault: "4 random letters"),
                .value(
                    "--admin-key", \.adminKey,
                    .text(
                        placeholder: "KEY", expectation: "4 to 128 characters without spaces",
                        isAllowed: isAdminKey,
                        accepted: ["abcd", String(repeating: "k", count: 128)],
                        refused: ["abc", String(repeating: "k", count: 129), "ab cd"]),
                    help: "key for operator clients and admin in text mode", section: network, shownDefault: "random"),
                .value(
                    "--name", \.hostName, .text(placeholder: "NAME"),
                    help: "host name shown to clients that search the LAN", section: network,
                    shownDefault: "computer name"),
                .value(
                    "--max-clients", \.maxClients, .integer(in: 1...1_000_000),
                    help: "connections at once; extras get an error", section: network),
                .flag(
                    "--no-discovery", sets: \.isDiscoveryEnabled, to: false,
                    help: "do not answer or send LAN discovery packets", section: network),

                .value(
                    "--data", \.dataDirectory, .text(placeholder: "DIR"),
                    help: "data folder: packs, commands, journal, game log ($XDG_DATA_HOME/partyline when that is "
                        + "set; ~/Library/Application Support/Partyline on macOS)",
                    section: data, shownDefault: "~/.local/share/partyline"),
                .flag(
                    "--resume", sets: \.resume, to: true,
                    help: "come back from the journal of a crashed or stopped host",
                    section: data),
                .flag(
                    "--fresh", sets: \.resume, to: false,
                    help: "ignore any journal and start a new room (neither: ask on the console if a journal exists)",
                    section: data),
                .flag(
                    "--no-fsync", sets: \.isJournalSyncEnabled, to: false,
                    help: "do not fsync the journal (faster, loses the last events on power loss)", section: data),
                .flag(
                    "--csv", sets: \.isCSV, to: true,
                    help: "with history GAME: one row per answer, for a spreadsheet", section: data),

            ]
                + houseRuleOptions(extra: [
                    ShakyWire.name: [
                        .value(
                            "--fairness", \.isFairnessEnabled, onOff,
                            help: "order buzzes by press time (on) or arrival (off)",
                            section: houseRuleSection(ShakyWire.self))
                    ]
                ]) + [
                    .value(
                        "--rate", \.messagesPerSecond, .integer(in: 1...10_000_000),
                        help: "messages per second per connection before errors", section: limits),
                    .value(
                        "--connection-rate", \.connectionsPerSecond, .integer(in: 0...1_000_000),
                        help: "new connections per second per address (0: off)", section: limits),
                    .value(
                        "--idle-timeout", \.idleTimeoutSeconds, .integer(in: 1...86_400),
                        help: "seconds of silence before a connection is dropped", section: limits),
                    .value(
                        "--max-output-kb", \.maximumOutputKilobytes, .integer(in: 16...1_048_576),
                        help: "unsent output a slow client may pile up before it is cut off", section: limits),

                    .flag(
                        "--no-console", sets: \.isConsoleEnabled, to: false,
                        help: "do not read operator commands from stdin (for scripts and services)", section: console),
                    .value(
                        "--log-level", \.logLevel,
                        .choice(
                            [
                                "debug": .debug, "info": .info, "warning": .warning,
                                "warn": .warning, "error": .error,
                            ], placeholder: "LEVEL"),
                        help: "least important lines logged: debug, info, warning or error", section: console),
                ],
            closing: """
                CONSOLE (type on the host's terminal while it runs; help there lists everything)
                  start GAME …   games: \(ModeCatalog.standard.entries.map(\.name).joined(separator: ", "))
                  next, pause, continue, end, scores, accept TEAM, reject TEAM
                  status, kick NAME, unban NAME, tidy, lock, unlock
                  packs, pack …, library …, each game's content, help, quit

                EXAMPLES
                  swift run -c release partyline-host
                  partyline-host --port 5000 --room PUB --question-seconds 30
                  partyline-host --data ./party --resume
                """, hasVersion: true, takesArguments: true, leavesUnknownOptionsToCommands: true)
    }

    /// The `--help` text, written from the table.
    static var helpText: String { table.helpText }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> (HostOptions, Command) {
        let table = table
        // `history --words`: a game's records are asked for like a flag, but name a tool, not an option.
        var arguments = arguments
        let names = Set(table.options.flatMap(\.names) + ["--help", "--version", "--"])
        if let history = arguments.firstIndex(of: "history"), history + 1 < arguments.count,
            arguments[history + 1].hasPrefix("--"), !names.contains(arguments[history + 1])
        {
            arguments[history + 1] = String(arguments[history + 1].dropFirst(2))
        }
        let parsed = try table.parse(arguments)
        switch parsed.request {
        case .help: return (parsed.values, .help)
        case .version: return (parsed.values, .version)
        case nil: break
        }
        let words = parsed.arguments
        switch words.first {
        case nil: return (parsed.values, .run)
        case "history": return (parsed.values, .history(Array(words.dropFirst())))
        case "pack":
            if words.count == 3, words[1] == "import" { return (parsed.values, .packImport(file: words[2])) }
            if words.count == 4, words[1] == "export" {
                return (parsed.values, .packExport(pack: words[2], file: words[3]))
            }
            throw UsageError("Use: partyline-host pack import FILE, or partyline-host pack export ID FILE.")
        default:
            return (parsed.values, .tool(words))
        }
    }

    /// The data folder: `--data`, else the platform's per-user data folder.
    func resolvedDataDirectory() -> String {
        if let dataDirectory { return dataDirectory }
        let environment = ProcessInfo.processInfo.environment
        #if canImport(Darwin)
            let home = environment["HOME"] ?? NSHomeDirectory()
            return home + "/Library/Application Support/Partyline"
        #else
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/partyline" }
            let home = environment["HOME"] ?? NSHomeDirectory()
            return home + "/.local/share/partyline"
        #endif
    }
}
