import Foundation
import Protocol
import Rules

/// Everything the host can be told on its command line, with the defaults a party needs.
struct HostOptions {
    var port: UInt16 = 4747
    var bindAddress = "0.0.0.0"
    var room: String?
    var adminKey: String?
    var dataDirectory: String?
    var maxClients = 2000
    var logLevel = LogLevel.info
    var hostName: String?
    var isDiscoveryEnabled = true
    var isConsoleEnabled = true
    /// `nil`: ask on the console when a journal exists (resume when there is no console); true: resume; false: start fresh.
    var resume: Bool?
    // The house rules start as the games' own defaults.
    var questionSeconds = ShakySettings().questionSeconds
    var afterBuzzSeconds = ShakySettings().afterBuzzSeconds
    var answerSeconds = ShakySettings().answerSeconds
    var revealSeconds = ShakySettings().revealSeconds ?? 0
    var isStrict = !ShakySettings().isForgiving
    var isJudgedByHand = false
    /// `history GAME --csv`: one row per answer instead of the readable account.
    var isCSV = false
    var queenMaxPlayers = QueenSettings().maxPlayers
    var queenCountdownSeconds = QueenSettings().countdownSeconds
    var queenChooseSeconds = QueenSettings().chooseSeconds
    var isFairnessEnabled = true
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
        let shaky = "SHAKY WORDS HOUSE RULES (each can also be set per game in start)"
        let queen = "QUEEN'S GAME (each can also be set per game in start queen)"
        let limits = "LIMITS"
        let console = "CONSOLE AND LOG"
        let onOff: OptionValue<Bool> = .choice(["on": true, "off": false])
        let judging: OptionValue<Bool> = .choice(["auto": false, "manual": true])
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

                .value(
                    "--question-seconds", \.questionSeconds, .integer(in: ShakySettings.questionSecondsRange),
                    help: "buzz clock", section: shaky),
                .value(
                    "--after-buzz-seconds", \.afterBuzzSeconds, .integer(in: ShakySettings.afterBuzzSecondsRange),
                    help: "buzz clock left after the first buzz, at most", section: shaky),
                .value(
                    "--answer-seconds", \.answerSeconds, .integer(in: ShakySettings.answerSecondsRange),
                    help: "answer clock of the team on turn", section: shaky),
                .value(
                    "--reveal-seconds", \.revealSeconds, .integer(in: ShakySettings.revealSecondsRange),
                    help: "pause after a question; 0 waits for next", section: shaky),
                .flag(
                    "--strict", sets: \.isStrict, to: true, help: "no forgiveness for small spelling mistakes",
                    section: shaky),
                .value(
                    "--judge", \.isJudgedByHand, judging,
                    help: "auto: the host judges answers; manual: every answer waits for your accept/reject",
                    section: shaky),
                .value(
                    "--fairness", \.isFairnessEnabled, onOff, help: "order buzzes by press time (on) or arrival (off)",
                    section: shaky),

                .value(
                    "--queen-max-players", \.queenMaxPlayers, .integer(in: QueenSettings.playerCountRange),
                    help: "most players in one game", section: queen),
                .value(
                    "--queen-countdown-seconds", \.queenCountdownSeconds,
                    .integer(in: QueenSettings.countdownSecondsRange), help: "countdown before the reveal",
                    section: queen),
                .value(
                    "--queen-choose-seconds", \.queenChooseSeconds, .integer(in: QueenSettings.chooseSecondsRange),
                    help: "time the Queen has to pick a command", section: queen),

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
