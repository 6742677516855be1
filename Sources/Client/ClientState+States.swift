import Protocol

/// Growing states (PROTOCOL.md §6.0): the client keeps each one's whole message, applies deltas that follow it,
/// and asks the host for the whole state again (`resync`) when it missed one. Nothing here names a game.
extension ClientState {
    /// Takes in a whole growing state: it answers any `resync` asked for it. Returns it, to be held.
    mutating func took<State: GrowingState>(_ whole: State) -> State {
        awaitingResync.remove(State.type)
        return whole
    }

    /// `held` changed by `delta` when the delta follows it (nil when nothing changed); on a gap asks for the whole
    /// state once (until it arrives).
    mutating func followed<State: GrowingState>(_ held: State?, by delta: State.Delta) -> (
        state: State?, actions: [ClientAction]
    ) {
        if awaitingResync.contains(State.type) { return (nil, []) }  // the whole state is on its way
        switch State.follow(held, with: delta) {
        case .updated(let next):
            return (next, [])
        case .stale:
            return (nil, [])
        case .gap:
            awaitingResync.insert(State.type)
            return (nil, [.send(.resync(state: State.type))])
        }
    }

    /// Asks for the whole of `State` (a delta did not add up), once until it arrives.
    mutating func askWhole<State: GrowingState>(_ state: State.Type) -> [ClientAction] {
        guard awaitingResync.insert(State.type).inserted else { return [] }
        return [.send(.resync(state: State.type))]
    }

    /// The lobby list and teams from the lobby message held.
    mutating func showLobby() {
        guard let lobbyState else { return }
        lobby = lobbyState.players.map { LobbyPlayer(name: $0.name, team: $0.team, isConnected: $0.connected) }
        teams = lobbyState.teams
    }

    /// Whether this client sees only its own team of a hall-sized room (the sizes of the others apart).
    var isLobbyTruncated: Bool { lobbyState?.truncated == true }
}
