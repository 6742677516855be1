import Protocol

/// Turns host messages into the readable lines a `nc`/`telnet` player sees. Never JSON.
enum TextRendering {
    /// Shown within a second of connecting, before anything is typed.
    static let banner = """
        *** Partyline game host ***
        Join with:  join ROOM NAME TEAM     (e.g. join ABCD Ann Red; the room code is on the host's screen)
        Or watch:   watch ROOM              Type `help` for everything else.
        """

    static func help(for role: Role?, topic: String? = nil) -> String {
        switch role {
        case nil:
            return """
                Commands before joining:
                  join ROOM NAME [TEAM]   play (your team defaults to your name)
                  resume ROOM TOKEN       come back as the same player after a drop
                  watch ROOM              watch only
                  admin ROOM KEY          run the show (the key is on the host's screen)
                  quit                    leave
                """
        case .player?:
            return """
                Commands while playing:
                  b or buzz        claim the right to answer (Shaky Words)
                  a TEXT           answer (or just type your answer when it is your turn)
                  s or shake       a hint: one more letter in place, costs points
                  commands [TEXT]  list or search the Queen's commands (Queen's game)
                  pick ID          as Queen: use a library command
                  order TEXT       as Queen: your own command, e.g. order No. {1} must sing to No. {2}
                  scores           the standings        help    this text        quit    leave
                """
        case .board?:
            return "You are watching. Commands: scores, help, quit."
        case .admin?:
            return consoleHelp
        }
    }

    static let consoleHelp = """
        Operator commands:
          status                          who is here and what is running
          start shaky [N] [easy|medium|hard|mixed] [PACK,PACK…] [key=value…]
                                          e.g. start shaky 10 mixed science,animals answer-seconds=30
          start queen [key=value…]        e.g. start queen countdown-seconds=5
          next | pause | continue | end   steer the running game
          kick NAME                       remove a player (their token stops working)
          scores                          the standings
          packs | pack show ID | pack create NAME | pack rename ID NAME | pack delete ID | pack copy ID [NAME]
          pack add ID DIFFICULTY | QUESTION | ANSWER   pack edit ID N D | Q | A   pack remove ID N
          pack import FILE | pack export ID FILE
          library list | library search TEXT | library add [kind=K] [difficulty=D] TEXT
          library edit ID TEXT | library delete ID | library hide ID | library unhide ID
          help | quit (stops the host)
        """

    /// The text for `message` as `viewer` sees it, or nil when text mode shows nothing for it.
    ///
    /// Game events use the wording the client's piped mode uses too (`EventLines`); only what the host
    /// knows better — who joined, the room's lobby, operator listings — is worded here.
    static func render(_ message: JSONValue, for viewer: Viewer, room: Room) -> String? {
        let type = message["type"]?.stringValue ?? ""
        switch type {
        case "welcome":
            switch message["role"]?.stringValue {
            case "player"?: return "Welcome, \(message["name"]?.stringValue ?? "")! You play for team \(message["team"]?.stringValue ?? "")."
                + " (If you drop, type: resume \(room.code) \(message["token"]?.stringValue ?? ""))"
            case "admin"?: return "You are the operator of room \(room.code)."
            default: return "You are watching room \(room.code)."
            }
        case "pong":
            return "pong"
        case "lobby", "lobbyUpdate":
            let teams = room.teams.map { team in
                "\(team): " + room.members(of: team).map { $0.name + ($0.isConnected ? "" : " (away)") }.joined(separator: ", ")
            }
            return "Lobby: " + (teams.isEmpty ? "nobody yet" : teams.joined(separator: " | "))
        case "question":
            let line = EventLines.line(for: message, as: perspective(of: viewer)) ?? ""
            return "\n" + line + (viewer.role == .player ? "\n(b + Enter buzzes, s + Enter shakes for a hint)" : "")
        case "library":
            let commands = (message["commands"]?.arrayValue ?? []).compactMap { command -> String? in
                guard let id = command["id"]?.stringValue, let text = command["text"]?.stringValue else { return nil }
                return "  \(id)  \(text)"
            }
            return commands.isEmpty ? "No commands match." : (["Commands:"] + commands).joined(separator: "\n")
        case "packs":
            let packs = (message["packs"]?.arrayValue ?? []).compactMap { pack -> String? in
                guard let id = pack["id"]?.stringValue else { return nil }
                return "  \(id)  \(pack["name"]?.stringValue ?? "")  \(pack["questions"]?.intValue ?? 0) questions\(pack["builtin"]?.boolValue == true ? " (built-in)" : "")"
            }
            return (["Quiz packs:"] + packs).joined(separator: "\n")
        case "pack":
            let questions = (message["questions"]?.arrayValue ?? []).enumerated().map { index, question in
                "  \(index + 1). [\(question["difficulty"]?.stringValue ?? "")] \(question["text"]?.stringValue ?? "") → \(question["answer"]?.stringValue ?? "")"
            }
            return (["Pack \(message["id"]?.stringValue ?? ""): \(message["name"]?.stringValue ?? "")"] + questions).joined(separator: "\n")
        default:
            return EventLines.line(for: message, as: perspective(of: viewer))
        }
    }

    /// The reader's team and name, for "your turn" and "you are the Queen".
    static func perspective(of viewer: Viewer) -> EventLines.Perspective {
        EventLines.Perspective(team: viewer.role == .player ? viewer.team : nil, name: viewer.role == .player ? viewer.name : nil)
    }
}
