import Protocol

/// One readable line per host message, for plain (piped) mode and the board's event list. Never JSON.
enum EventText {
    /// Letters spread out so they read at a glance: `A P P L E`.
    static func spaced(_ letters: String) -> String { EventLines.spaced(letters) }

    /// `Red +0 ms · Blue +37 ms ±4 (tie)`.
    static func buzzOrder(_ entries: [BuzzEntry]) -> String {
        entries.map { EventLines.buzzEntry(team: $0.team, offsetMs: $0.offsetMs, uncertaintyMs: $0.uncertaintyMs, isTied: $0.isTied) }
            .joined(separator: " · ")
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
    ///
    /// Game events read as the host's text mode words them (`EventLines`); only what depends on this
    /// client's own state differs: joining, the lobby as it stands, the deal check, library and pack panels.
    static func line(for message: JSONValue, in state: ClientState) -> String? {
        let type = message["type"]?.stringValue ?? ""
        switch type {
        case "welcome":
            return joined(state, isResume: false)
        case "lobby", "lobbyUpdate":
            return lobby(state.lobby, teams: state.teams)
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
            let perspective = EventLines.Perspective(team: state.role == .player && !state.team.isEmpty ? state.team : nil,
                                                     name: state.role == .player ? state.name : nil)
            return EventLines.line(for: message, as: perspective)
        }
    }
}
