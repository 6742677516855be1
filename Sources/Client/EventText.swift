import Protocol

/// One readable line per host message, for plain (piped) mode and the board's event list. Never JSON.
///
/// Game events read as the host's text mode words them (each message's own `line`); only what depends on this
/// client's own state differs: joining, the lobby as it stands, and what a game screen words itself.
enum EventText {
    /// `Red +0 ms · Blue +37 ms ±4 (tie)`.
    static func buzzOrder(_ entries: [BuzzEntry]) -> String {
        entries.map {
            ShakyWire.BuzzEntry(team: $0.team, offsetMs: $0.offsetMs, uncertaintyMs: $0.uncertaintyMs, tie: $0.isTied)
                .summary
        }.joined(separator: " · ")
    }

    /// `Lobby: Red: Ann, Cid (away) | Blue: Bob`.
    static func lobby(_ players: [LobbyPlayer], teams: [String]) -> String {
        Lobby.summary(
            players: players.map { LobbyEntry(name: $0.name, team: $0.team, connected: $0.isConnected) }, teams: teams)
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

    /// The line for a session message, read after `state` took it in; nil for messages that show nothing.
    static func line(for message: SessionMessage, in state: ClientState) -> String? {
        switch message {
        case .welcome: return joined(state, isResume: false)
        case .lobby, .lobbyUpdate: return lobby(state.lobby, teams: state.teams)
        case .packs, .pack, .contents, .content:
            return state.ui.panelTitle + ": " + (state.ui.panel ?? []).joined(separator: " | ")
        case .library: return library(state)
        default: return message.line(for: state.perspective)
        }
    }

    /// How many of the Queen's commands a listing shows before it asks for a search.
    static let libraryLimit = 12

    /// The Queen's commands, one a line with `{queen}` filled in (her name in a round, else "the Queen"), at most
    /// `libraryLimit` of them and then how to search the rest: never one wall of 66 commands.
    static func library(_ state: ClientState) -> String {
        guard !state.library.isEmpty else { return "No commands match." }
        let queen = state.queen?.round?.queen
        func filled(_ text: String) -> String {
            guard let queen else {
                return text.replacingOccurrences(of: "Queen {queen}", with: "the Queen")
                    .replacingOccurrences(of: "{queen}", with: "the Queen")
            }
            return text.replacingOccurrences(of: "{queen}", with: queen)
        }
        let shown = state.library.prefix(libraryLimit)
        var lines = ["Commands (pick ID uses one; No. {1}, No. {2} … are numbers drawn at random):"]
        lines += shown.map { "  \($0.id)  " + filled($0.text) }
        if state.library.count > shown.count {
            lines.append(
                "  … and \(state.library.count - shown.count) more: type commands WORD to find some (commands sing).")
        }
        return lines.joined(separator: "\n")
    }

    /// The line for any wire message, read after `state` took it in (plain mode).
    static func line(for message: JSONValue, in state: ClientState) -> String? {
        message.objectValue.flatMap { line(for: $0, in: state) }
    }

    /// The line for any wire object, read after `state` took it in (plain mode).
    static func line(for object: JSONObject, in state: ClientState) -> String? {
        if let session = SessionMessage.decode(object) { return line(for: session, in: state) }
        return state.game?.line(for: object, in: state)
    }
}
