import Foundation
import Protocol

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
    var questionSeconds = 60
    var afterBuzzSeconds = 20
    var answerSeconds = 60
    var revealSeconds = 5
    var isStrict = false
    var queenMaxPlayers = 9
    var queenCountdownSeconds = 5
    var queenChooseSeconds = 60
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
        case history
        case packImport(file: String)
        case packExport(pack: String, file: String)
    }

    static let helpText = """
        partyline-host — host a Partyline party on this computer's network.

        USAGE
          partyline-host [options]                 start a host (defaults need no setup)
          partyline-host history [--data DIR]      list finished games from the game log
          partyline-host pack import FILE          add a quiz pack from .json or .csv
          partyline-host pack export ID FILE       write a pack to .json or .csv

        Players join with `partyline <this computer's address>` or `nc <address> 4747`.
        The one line on stdout, `ready port=<P> room=<CODE> admin-key=<KEY>`, is for scripts;
        everything else (addresses, how to join, logs) goes to stderr.

        NETWORK
          --port N               TCP (and UDP discovery) port; 0 picks a free one   [4747]
          --bind ADDR            IPv4 address to listen on                         [0.0.0.0: all]
          --room CODE            room code players must type (letters/digits)       [4 random letters]
          --admin-key KEY        key for operator clients and `admin` in text mode  [random]
          --name NAME            host name shown to clients that search the LAN     [computer name]
          --max-clients N        connections at once; extras get an error           [2000]
          --no-discovery         do not answer or send LAN discovery packets

        DATA
          --data DIR             data folder: packs, commands, journal, game log
                                 [$XDG_DATA_HOME/partyline or ~/.local/share/partyline;
                                  ~/Library/Application Support/Partyline on macOS]
          --resume               come back from the journal of a crashed or stopped host
          --fresh                ignore any journal and start a new room
                                 (neither: ask on the console if a journal exists)
          --no-fsync             do not fsync the journal (faster, loses the last events on power loss)

        SHAKY WORDS HOUSE RULES (each can also be set per game in `start`)
          --question-seconds N   buzz clock                                         [60]
          --after-buzz-seconds N buzz clock left after the first buzz, at most      [20]
          --answer-seconds N     answer clock of the team on turn                   [60]
          --reveal-seconds N     pause after a question; 0 waits for `next`         [5]
          --strict               no forgiveness for small spelling mistakes
          --fairness on|off      order buzzes by press time (on) or arrival (off)   [on]

        QUEEN'S GAME
          --queen-max-players N  most players in one game (3…30)                    [9]
          --queen-countdown-seconds N   countdown before the reveal                 [5]
          --queen-choose-seconds N      time the Queen has to pick a command        [60]

        LIMITS
          --rate N               messages per second per connection before errors   [40]
          --connection-rate N    new connections per second per address (0: off)    [50]
          --idle-timeout N       seconds of silence before a connection is dropped  [90]
          --max-output-kb N      unsent output a slow client may pile up before it is cut off [1024]
          --log-level LEVEL      debug, info, warning or error                      [info]

          -h, --help             this text        --version    the version

        CONSOLE (type on the host's terminal while it runs)
          status, start shaky [N] [easy|medium|hard|mixed] [packs], start queen, next, pause,
          continue, kick NAME, end, packs, pack …, library …, help, quit

        EXAMPLES
          swift run -c release partyline-host
          partyline-host --port 5000 --room PUB --question-seconds 30
          partyline-host --data ./party --resume
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(OptionError) -> (HostOptions, Command) {
        var options = HostOptions()
        var command = Command.run
        var index = 0
        func value(_ flag: String) throws(OptionError) -> String {
            index += 1
            guard index < arguments.count else { throw OptionError("\(flag) needs a value.") }
            return arguments[index]
        }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws(OptionError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), range.contains(number) else {
                throw OptionError("\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\".")
            }
            return number
        }
        var positional: [String] = []
        while index < arguments.count {
            var argument = arguments[index]
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                // --flag=value is the same as --flag value
                let flag = String(argument[..<equals])
                var copy = arguments
                copy[index] = flag
                copy.insert(String(argument[argument.index(after: equals)...]), at: index + 1)
                return try parse(copy)
            }
            argument = argument.lowercased() == argument ? argument : argument
            switch argument {
            case "-h", "--help", "help": return (options, .help)
            case "--version": return (options, .version)
            case "--port": options.port = UInt16(try number(argument, 0...65535))
            case "--bind": options.bindAddress = try value(argument)
            case "--room":
                let room = try value(argument).uppercased()
                guard (2...FieldLimits.room).contains(room.count), room.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                    throw OptionError("--room must be 2 to \(FieldLimits.room) letters or digits.")
                }
                options.room = room
            case "--admin-key":
                let key = try value(argument)
                guard key.count >= 4, key.count <= 128, !key.contains(" ") else { throw OptionError("--admin-key must be 4 to 128 characters without spaces.") }
                options.adminKey = key
            case "--data": options.dataDirectory = try value(argument)
            case "--name": options.hostName = try value(argument)
            case "--max-clients": options.maxClients = try number(argument, 1...1_000_000)
            case "--no-discovery": options.isDiscoveryEnabled = false
            case "--no-console": options.isConsoleEnabled = false
            case "--resume": options.resume = true
            case "--fresh": options.resume = false
            case "--no-fsync": options.isJournalSyncEnabled = false
            case "--log-level":
                let text = try value(argument)
                guard let level = LogLevel(name: text) else { throw OptionError("--log-level must be debug, info, warning or error.") }
                options.logLevel = level
            case "--question-seconds": options.questionSeconds = try number(argument, 1...3600)
            case "--after-buzz-seconds": options.afterBuzzSeconds = try number(argument, 1...3600)
            case "--answer-seconds": options.answerSeconds = try number(argument, 1...3600)
            case "--reveal-seconds": options.revealSeconds = try number(argument, 0...3600)
            case "--strict": options.isStrict = true
            case "--fairness":
                switch try value(argument).lowercased() {
                case "on": options.isFairnessEnabled = true
                case "off": options.isFairnessEnabled = false
                default: throw OptionError("--fairness must be on or off.")
                }
            case "--queen-max-players": options.queenMaxPlayers = try number(argument, 3...30)
            case "--queen-countdown-seconds": options.queenCountdownSeconds = try number(argument, 0...600)
            case "--queen-choose-seconds": options.queenChooseSeconds = try number(argument, 5...3600)
            case "--rate": options.messagesPerSecond = try number(argument, 1...10_000_000)
            case "--connection-rate": options.connectionsPerSecond = try number(argument, 0...1_000_000)
            case "--idle-timeout": options.idleTimeoutSeconds = try number(argument, 1...86_400)
            case "--max-output-kb": options.maximumOutputKilobytes = try number(argument, 16...1_048_576)
            default:
                if argument.hasPrefix("-") { throw OptionError("Unknown option \(argument). See partyline-host --help.") }
                positional.append(argument)
            }
            index += 1
        }
        switch positional.first {
        case nil: break
        case "history": command = .history
        case "pack":
            if positional.count == 3, positional[1] == "import" { command = .packImport(file: positional[2]) }
            else if positional.count == 4, positional[1] == "export" { command = .packExport(pack: positional[2], file: positional[3]) }
            else { throw OptionError("Use: partyline-host pack import FILE, or partyline-host pack export ID FILE.") }
        default: throw OptionError("Unknown command \"\(positional[0])\". See partyline-host --help.")
        }
        return (options, command)
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

/// A command-line mistake, said plainly.
struct OptionError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
