import Protocol

/// Everything `partyline` can be told on its command line.
struct ClientOptions: Equatable, Sendable {
    /// The well-known host port (TCP for play, UDP for discovery probes).
    static let defaultPort: UInt16 = 4747

    /// The host's address as typed (name or IPv4), nil to search the LAN.
    var host: String?
    /// The host's TCP port.
    var port: UInt16 = ClientOptions.defaultPort
    /// The player's name.
    var name: String?
    /// The player's team (empty: a team of one named after the player).
    var team: String?
    /// The room code.
    var room: String?
    /// Watch only, as a projector board.
    var isBoard = false
    /// The operator's key: join as the operator.
    var adminKey: String?
    /// Ring the terminal bell on buzzes and on your turn.
    var isBellEnabled = true
    /// The UDP port discovery probes go to.
    var discoverPort: UInt16 = ClientOptions.defaultPort
    /// Force plain line mode even on a terminal.
    var isPlainForced = false
    /// Turn colours off (as does the NO_COLOR environment variable).
    var isColorDisabled = false
    /// Forget the place this computer kept in the room (its resume token) and join afresh.
    var isForgetting = false

    /// What the command line asked for besides joining.
    enum Command: Equatable, Sendable {
        case run
        case help
        case version
    }

    /// The role the hello asks for.
    var role: Role {
        if adminKey != nil { return .admin }
        return isBoard ? .board : .player
    }

    /// The options' declarations: each flag once, with its help and allowed values; `parse` and `helpText` read it.
    static var table: CommandLineTable<ClientOptions> {
        let section = "OPTIONS"
        return CommandLineTable(
            tool: "partyline", defaults: ClientOptions(),
            introduction: """
                partyline — the terminal client for a Partyline party game host.

                USAGE
                  partyline [HOST[:PORT]] [options]

                  HOST[:PORT]        the host's address as shown on its screen, e.g. 192.168.1.20 or 192.168.1.20:5000
                                     (port \(defaultPort) when left out). Leave it out to search this network: hosts
                                     that answer within 2 s are listed and you pick one (when exactly one answers it
                                     is picked for you; when several answer, --room CODE picks the one running that
                                     room).
                """,
            options: [
                .value(
                    "--name", aliases: ["-n"], \.name, .text(placeholder: "NAME"),
                    help: "your player name (asked for when missing)", section: section),
                .value(
                    "--team", aliases: ["-t"], \.team, .text(placeholder: "TEAM"),
                    help: "your team (asked for; empty means a team of one named after you)", section: section),
                .value(
                    "--room", aliases: ["-r"], \.room, .text(placeholder: "CODE", transform: { $0.uppercased() }),
                    help: "the room code shown on the host's screen. When left out the client asks the host "
                        + "(discovery) and then you, if the host does not say.", section: section),
                .flag(
                    "--board", aliases: ["--watch"], sets: \.isBoard, to: true,
                    help: "watch only: a big read-only view for a projector", section: section),
                .value(
                    "--admin-key", aliases: ["--admin"], \.adminKey, .text(placeholder: "KEY"),
                    help: "join as the operator (the key is on the host's screen): run games with commands typed "
                        + "after a colon, e.g. :start shaky 5 mixed", section: section),
                .flag(
                    "--no-bell", sets: \.isBellEnabled, to: false, help: "no terminal bell on buzzes and on your turn",
                    section: section),
                .value(
                    "--discover-port", \.discoverPort, .integer(in: 1...65535),
                    help: "the UDP port to search for hosts on", section: section),
                .flag(
                    "--plain", sets: \.isPlainForced, to: true, help: "plain line mode even on a terminal",
                    section: section),
                .flag(
                    "--no-color", aliases: ["--no-colour"], sets: \.isColorDisabled, to: true,
                    help: "no colours (also when the NO_COLOR variable is set)", section: section),
                .flag(
                    "--forget", sets: \.isForgetting, to: true,
                    help: "forget the place this computer kept in the room (its resume token) and join as someone "
                        + "new", section: section),
            ],
            closing: ClientOptions.gameKeys(ScreenCatalog.standard) + """

                If the connection drops, the client reconnects by itself and resumes as the same player.
                Started again with the same name (after a crash, a closed terminal or Ctrl-C), it comes
                back as the same player too: it keeps its resume token per host and room in
                $XDG_STATE_HOME/partyline (else ~/.local/state/partyline), readable only by you.
                Exit status: 0 after quit, 1 when the host refused or went away for good, 2 for usage.

                EXAMPLES
                  partyline                                   search the LAN, then ask for the rest
                  partyline 192.168.1.20 --name Ann --team Red --room ABCD
                  partyline 192.168.1.20:5000 --board --room ABCD
                  partyline 192.168.1.20 --admin-key 3f9a1c2e --room ABCD
                  printf 'buzz\\n' | partyline 127.0.0.1 --name Bot --room ABCD
                """, hasVersion: true, takesArguments: true)
    }

    /// The keys and typed commands of every game this client knows, for `--help`.
    static func gameKeys(_ catalog: ScreenCatalog) -> String {
        var lines = ["ON A TERMINAL (full screen)"]
        for screen in catalog.screens {
            lines.append("  " + screen.gameTitle)
            lines += screen.keyHelp.map { "  " + $0 }
        }
        lines += [
            "  Any game",
            "    :                a command line: :scores, a game's commands (such as :pick 3), and for",
            "                     the operator every console command (:help lists them)",
            "    ?                help                 q   leave (asks first during a game; your name is",
            "                                              free again at once)",
            "    Ctrl-C           quit at once, keeping your place: start partyline again to come back",
            "",
            "PIPED (stdin or stdout not a terminal): one line per event on stdout, one command per",
            "line on stdin, for scripts and bots:",
        ]
        for screen in catalog.screens {
            lines.append("  " + screen.gameTitle)
            lines += screen.commandHelp.map { "  " + $0 }
        }
        lines += [
            "  scores | help | quit, and the operator's console commands (start, next, pause, …)",
            "  While it is your team's turn (or you are the Queen choosing), every line is your answer",
            "  (or order) and commands start with a slash: /help, /scores, /quit. End of input does",
            "  not leave the game: send quit.",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// The `--help` text, written from the table.
    static var helpText: String { table.helpText }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> (ClientOptions, Command) {
        let table = table
        let parsed = try table.parse(arguments)
        var options = parsed.values
        switch parsed.request {
        case .help: return (options, .help)
        case .version: return (options, .version)
        case nil: break
        }
        if parsed.arguments.count > 1 {
            throw table.error("Give one host address, not \"\(parsed.arguments[0])\" and \"\(parsed.arguments[1])\".")
        }
        if let address = parsed.arguments.first {
            let (host, hostPort) = try parseAddress(address)
            options.host = host
            if let hostPort { options.port = hostPort }
        }
        if options.isBoard && options.adminKey != nil {
            throw table.error("Choose --board or --admin-key, not both.")
        }
        return (options, .run)
    }

    /// Splits `HOST[:PORT]`.
    static func parseAddress(_ text: String) throws(UsageError) -> (String, UInt16?) {
        guard !text.isEmpty else { throw UsageError("The host address is empty.") }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (text, nil)
        case 2:
            guard !parts[0].isEmpty else { throw UsageError("\"\(text)\" has no host before the colon.") }
            guard let port = UInt16(parts[1]), port > 0 else {
                throw UsageError("\"\(parts[1])\" in \"\(text)\" is not a port number (1…65535).")
            }
            return (String(parts[0]), port)
        default:
            throw UsageError("\"\(text)\" is not HOST or HOST:PORT (IPv6 addresses are not supported; use IPv4).")
        }
    }
}
