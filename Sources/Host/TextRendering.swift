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

    static func seconds(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "" }
        return "\((milliseconds + 999) / 1000) s"
    }

    static func names(_ value: JSONValue?) -> String {
        (value?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
    }

    static func standings(_ value: JSONValue?) -> String {
        (value?.arrayValue ?? []).compactMap { entry -> String? in
            guard let team = entry["team"]?.stringValue ?? entry["player"]?.stringValue else { return nil }
            let rank = entry["rank"]?.intValue.map { "#\($0) " } ?? ""
            return "\(rank)\(team) \(entry["score"]?.intValue ?? 0)"
        }.joined(separator: " · ")
    }

    /// The text for `message` as `viewer` sees it, or nil when text mode shows nothing for it.
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
        case "error":
            return "! " + (message["message"]?.stringValue ?? "Error.")
        case "ok":
            return message["message"]?.stringValue
        case "pong":
            return "pong"
        case "lobby":
            let teams = room.teams.map { team in
                "\(team): " + room.members(of: team).map { $0.name + ($0.isConnected ? "" : " (away)") }.joined(separator: ", ")
            }
            return "Lobby: " + (teams.isEmpty ? "nobody yet" : teams.joined(separator: " | "))
        case "closing":
            return "*** " + (message["reason"]?.stringValue ?? "Closing.")
        case "notice":
            return "* " + (message["message"]?.stringValue ?? "")
        case "status":
            return message["summary"]?.stringValue
        case "game":
            if message["game"]?.stringValue == "queen" {
                return "=== Queen's game! Players: \(names(message["players"])) ==="
            }
            return "=== Shaky Words! \(message["questions"]?.intValue ?? 0) questions. Teams: \(names(message["teams"])) ===\nType b to buzz, s for a hint."
        case "question":
            let number = message["number"]?.intValue ?? 0, total = message["of"]?.intValue ?? 0
            return """

                --- Question \(number)/\(total) (\(message["difficulty"]?.stringValue ?? ""), \(message["points"]?.intValue ?? 0) points) ---
                \(message["text"]?.stringValue ?? "")
                Letters:  \(spaced(message["letters"]?.stringValue ?? ""))
                Buzz clock: \(seconds(message["remainingMs"]?.intValue)). Type b to buzz.
                """
        case "buzzed":
            let entries = (message["entries"]?.arrayValue ?? []).compactMap { entry -> String? in
                guard let team = entry["team"]?.stringValue else { return nil }
                let offset = entry["offsetMs"]?.intValue ?? 0
                let uncertainty = entry["uncertaintyMs"]?.intValue ?? 0
                let tie = entry["tie"]?.boolValue == true ? " (tie)" : ""
                return "\(team) +\(offset) ms" + (uncertainty > 0 ? " ±\(uncertainty)" : "") + tie
            }
            return "Buzz order: " + (entries.isEmpty ? names(message["order"]) : entries.joined(separator: " · "))
                + " — buzz clock \(seconds(message["remainingMs"]?.intValue))"
        case "turn":
            let team = message["team"]?.stringValue ?? ""
            if let mine = viewer.team, Room.key(mine) == Room.key(team) {
                return ">>> Your turn, team \(team)! Type your answer (\(seconds(message["remainingMs"]?.intValue)))."
            }
            return "Team \(team) is answering (\(seconds(message["remainingMs"]?.intValue)))."
        case "hint":
            return "Hint: \(spaced(message["letters"]?.stringValue ?? ""))  (now worth \(message["points"]?.intValue ?? 0) points)"
        case "result":
            let team = message["team"]?.stringValue ?? ""
            if message["correct"]?.boolValue == true {
                let spelling = message["misspelled"]?.boolValue == true ? " (small misspelling forgiven; the spelling follows)" : ""
                return "✔ \(team) is right\(spelling)! +\(message["points"]?.intValue ?? 0)"
            }
            return "✘ \(team): " + (message["timedOut"]?.boolValue == true ? "time is up." : "wrong.")
        case "reveal":
            let next = message["nextInMs"]?.intValue.map { " Next question in \(seconds($0))." } ?? ""
            return "The answer was: \(message["answer"]?.stringValue ?? "")." + " Scores: \(standings(message["scores"])).\(next)"
        case "scoreboard", "scores":
            let title = message["final"]?.boolValue == true ? "=== Final scoreboard ===" : "Scores:"
            let lines = (message["ranking"]?.arrayValue ?? message["scores"]?.arrayValue ?? []).compactMap { entry -> String? in
                guard let team = entry["team"]?.stringValue ?? entry["player"]?.stringValue else { return nil }
                let correct = entry["correct"]?.intValue.map { ", \($0) correct" } ?? ""
                return "  \(entry["rank"]?.intValue.map { "#\($0) " } ?? "")\(team): \(entry["score"]?.intValue ?? 0) points\(correct)"
            }
            return ([title] + lines).joined(separator: "\n")
        case "paused": return "⏸ Paused by the operator."
        case "resumed": return "▶ The game continues."
        case "ended": return "=== Game over. \(message["reason"]?.stringValue ?? "") ==="
        case "round":
            let queen = message["queen"]?.stringValue ?? ""
            let mine = viewer.playerID.flatMap { room.player(id: $0)?.name }
            let who = mine == queen ? "YOU are the Queen! Type `commands` to browse, `pick ID` or `order TEXT`." : "The Queen is \(queen)."
            return "\n--- Round \(message["number"]?.intValue ?? 0) --- \(who)\nCommitment: \(message["commitment"]?.stringValue ?? "")"
        case "secret":
            return ">>> Your secret number: \(message["number"]?.intValue ?? 0) <<<  (tell nobody)"
        case "order":
            return "The Queen commands: \(message["text"]?.stringValue ?? "")   (reveal in \(seconds(message["revealInMs"]?.intValue)))"
        case "revealed":
            let numbers = (message["numbers"]?.objectValue?.members ?? []).sorted { ($0.value.intValue ?? 0) < ($1.value.intValue ?? 0) }
                .map { "No. \($0.value.intValue ?? 0) = \($0.key)" }.joined(separator: ", ")
            return "Reveal: \(numbers). Must act: \(names(message["targets"]))."
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
            return nil
        }
    }

    /// Letters spread out so they read at a glance: `A P P L E`.
    static func spaced(_ letters: String) -> String {
        letters.map { $0 == " " ? "  " : String($0) }.joined(separator: " ")
    }
}
