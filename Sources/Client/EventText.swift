import Protocol

/// One readable line per host message, for plain (piped) mode and the board's event list. Never JSON.
enum EventText {
    /// Whole seconds, rounded up: `12 s`.
    static func seconds(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "" }
        return "\((max(0, milliseconds) + 999) / 1000) s"
    }

    /// Letters spread out so they read at a glance: `A P P L E`.
    static func spaced(_ letters: String) -> String {
        letters.map { $0 == " " ? " " : String($0) }.joined(separator: " ")
    }

    static func names(_ value: JSONValue?) -> String {
        (value?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
    }

    /// `Red +0 ms · Blue +37 ms ±4 (tie)`.
    static func buzzOrder(_ entries: [BuzzEntry]) -> String {
        entries.map { entry in
            "\(entry.team) +\(entry.offsetMs) ms" + (entry.uncertaintyMs > 0 && entry.offsetMs > 0 ? " ±\(entry.uncertaintyMs)" : "")
                + (entry.isTied ? " (tie)" : "")
        }.joined(separator: " · ")
    }

    /// `#1 Red 300 · #2 Blue 0`.
    static func standings(_ standings: [Standing]) -> String {
        standings.map { "#\($0.rank) \($0.team) \($0.score)" }.joined(separator: " · ")
    }

    /// `Lobby: Red: Ann, Cid (away) | Blue: Bob`.
    static func lobby(_ players: [LobbyPlayer], teams: [String]) -> String {
        let order = teams.isEmpty ? Array(Set(players.map(\.team))).sorted() : teams
        let parts = order.map { team in
            "\(team): " + players.filter { $0.team.lowercased() == team.lowercased() }
                .map { $0.name + ($0.isConnected ? "" : " (away)") }.joined(separator: ", ")
        }
        return "Lobby: " + (parts.isEmpty ? "nobody yet" : parts.joined(separator: " | "))
    }

    /// What joining said: `joined room ABCD as Ann (Red)`.
    static func joined(_ state: ClientState, isResume: Bool) -> String {
        let verb = isResume ? "rejoined" : "joined"
        switch state.role {
        case .player: return "\(verb) room \(state.room) as \(state.name) (\(state.team))"
        case .board: return "\(verb) room \(state.room) as a board (watching)"
        case .admin: return "\(verb) room \(state.room) as the operator"
        }
    }

    /// The line for `message`, read after `state` took it in; nil for messages that show nothing.
    static func line(for message: JSONValue, in state: ClientState) -> String? {
        let type = message["type"]?.stringValue ?? ""
        switch type {
        case "welcome":
            return joined(state, isResume: false)
        case "error":
            return "! " + (message["message"]?.stringValue ?? "The host refused that.")
        case "ok":
            return message["message"]?.stringValue
        case "notice":
            return "* " + (message["message"]?.stringValue ?? "")
        case "closing":
            return "*** " + (message["reason"]?.stringValue ?? "The host closed the connection.")
        case "lobby":
            return lobby(state.lobby, teams: state.teams)
        case "status":
            return message["summary"]?.stringValue
        case "game":
            if message["game"]?.stringValue == "queen" {
                return "=== The Queen's game! Players: \(names(message["players"])) ==="
            }
            return "=== Shaky Words! \(message["questions"]?.intValue ?? 0) questions. Teams: \(names(message["teams"])) ==="
        case "question":
            let number = message["number"]?.intValue ?? 0, total = message["of"]?.intValue ?? 0
            return "Question \(number)/\(total) (\(message["difficulty"]?.stringValue ?? ""), \(message["points"]?.intValue ?? 0) points): "
                + "\(message["text"]?.stringValue ?? "")  Letters: \(spaced(message["letters"]?.stringValue ?? ""))"
                + "  · buzz clock \(seconds(message["remainingMs"]?.intValue))"
        case "buzzed":
            let entries = state.shaky?.buzzOrder ?? []
            return "Buzz order: \(buzzOrder(entries)) · buzz clock \(seconds(message["remainingMs"]?.intValue))"
        case "turn":
            let team = message["team"]?.stringValue ?? ""
            if state.isMine(team: team) {
                return ">>> Your turn, team \(team)! Type your answer (\(seconds(message["remainingMs"]?.intValue)))."
            }
            return "Team \(team) is answering (\(seconds(message["remainingMs"]?.intValue)))."
        case "hint":
            return "Hint: \(spaced(message["letters"]?.stringValue ?? "")) (\(message["fixed"]?.intValue ?? 0) in place, now worth \(message["points"]?.intValue ?? 0) points)"
        case "result":
            let team = message["team"]?.stringValue ?? ""
            if message["correct"]?.boolValue == true {
                let spelling = message["misspelled"]?.boolValue == true ? " (small misspelling forgiven)" : ""
                return "✔ \(team) is right\(spelling)! +\(message["points"]?.intValue ?? 0)"
            }
            return "✘ \(team): " + (message["timedOut"]?.boolValue == true ? "time is up." : "wrong.")
        case "reveal":
            let next = message["nextInMs"]?.intValue.map { " Next question in \(seconds($0))." } ?? ""
            return "The answer was: \(message["answer"]?.stringValue ?? "")."
                + " Scores: \(standings(state.shaky?.standings ?? [])).\(next)"
        case "scoreboard", "scores":
            let list = state.shaky?.standings ?? []
            if message["final"]?.boolValue == true {
                return "=== Final scoreboard: " + list.map { "#\($0.rank) \($0.team) \($0.score) points" }.joined(separator: " · ") + " ==="
            }
            return "Scores: " + (list.isEmpty ? "none yet" : standings(list))
        case "paused": return "Paused by the operator."
        case "resumed": return "The game continues."
        case "ended": return "=== Game over. \(message["reason"]?.stringValue ?? "") ==="
        case "round":
            let queen = message["queen"]?.stringValue ?? ""
            let who = state.role == .player && queen == state.name
                ? "YOU are the Queen! Browse with `commands [TEXT]`, then `pick ID` or `order TEXT`." : "The Queen is \(queen)."
            return "--- Round \(message["number"]?.intValue ?? 0) --- \(who) Commitment: \(message["commitment"]?.stringValue ?? "")"
        case "secret":
            return ">>> Your secret number: \(message["number"]?.intValue ?? 0) <<< (tell nobody)"
        case "order":
            return "The Queen commands: \(message["text"]?.stringValue ?? "") (reveal in \(seconds(message["revealInMs"]?.intValue)))"
        case "revealed":
            guard let revealed = state.queen?.revealed else { return nil }
            let numbers = revealed.numbers.map { "No. \($0.number) = \($0.name)" }.joined(separator: ", ")
            let check: String
            switch revealed.verification {
            case .verified: check = "✔ deal verified"
            case .mismatch: check = "!!! WARNING: the deal does NOT match the commitment published before the order — the numbers were changed !!!"
            case .unknown: check = "(deal not checked: joined after it was dealt)"
            }
            return "Reveal: \(numbers). Must act: \(revealed.targets.joined(separator: ", ")). \(check)"
        case "library":
            if state.library.isEmpty { return "No commands match." }
            return "Commands: " + state.library.map { "\($0.id) \($0.text)" }.joined(separator: " | ")
        case "packs", "pack":
            return (state.ui.panelTitle + ": " + (state.ui.panel ?? []).joined(separator: " | "))
        default:
            return nil
        }
    }
}
