import Foundation
import Protocol
import Rules

/// The game room: who is in it, the running game, the journal and every broadcast.
///
/// Every change that matters is journaled here before anything about it is sent (the loop flushes the journal
/// to disk before it writes a byte). Games answer with `Step`s; the room journals their events, routes their
/// messages to audiences and closes the game when it is over.
final class GameRoom {
    private(set) var room: Room
    private(set) var game: (any HostedGame)?
    /// The game that ended last, shown to whoever joins until the next one starts (its final scoreboard).
    private(set) var finishedGame: (any HostedGame)?
    let catalog: ModeCatalog
    let sessions: Sessions
    let storage: Storage
    let log: Logger
    /// The players as the last lobby broadcast showed them, for `lobbyUpdate` deltas.
    private var lobbySnapshot: [String: Player] = [:]
    private var isLobbyDirty = false
    private var nextLobbyAt: Int64 = 0
    /// Something the operator's status line shows may have changed.
    var isStatusDirty = true

    /// Rooms up to this size get the full `lobby` on every change; larger ones get `lobbyUpdate` deltas.
    static let fullLobbyLimit = 200

    init(code: String, catalog: ModeCatalog, sessions: Sessions, storage: Storage, log: Logger) {
        room = Room(code: code)
        self.catalog = catalog
        self.sessions = sessions
        self.storage = storage
        self.log = log
    }

    // MARK: Players

    /// Adds a new player, journals it and tells the game.
    func addPlayer(name: String, team: String, token: String, code: String? = nil, at now: Instant) -> Player {
        let player = room.add(name: name, team: team, token: token, code: code)
        journal(.join(player))
        log.info("\(player.name) joined team \(player.team).")
        if let game { apply(game.playerJoined(player, at: now), at: now) }
        lobbyChanged()
        return player
    }

    /// Marks a player connected or not (a session joined or ended).
    func setConnected(_ playerID: String, _ isConnected: Bool, at now: Instant) {
        room.setConnected(playerID, isConnected, at: now.milliseconds)
        lobbyChanged()
    }

    /// Removes a player (kicked or expired): their token stops working and the game is told.
    func removePlayer(_ player: Player, reason: String, at now: Instant) {
        room.remove(player.id)
        journal(.leave(playerID: player.id))
        if let session = sessions.session(ofPlayer: player.id) { sessions.close(session, reason: reason) }
        log.info("\(player.name) (\(player.team)) left the room: \(reason).")
        if let game { apply(game.playerRemoved(player, at: now), at: now) }
        lobbyChanged()
    }

    /// Restores players and a game from the journal (everyone disconnected until they come back).
    func adopt(_ state: ResumedState) {
        for player in state.players { room.restore(player) }
        game = state.game
    }

    // MARK: Games

    /// Starts `newGame` (made by the catalog from a `start` request): journals its start record and announces it.
    func begin(_ newGame: any HostedGame, at now: Instant) {
        journal(.start(game: newGame.mode.name, record: newGame.startRecord, at: now.milliseconds))
        game = newGame
        finishedGame = nil
        log.info("Game started: \(newGame.statusLine)")
        apply(newGame.start(at: now), at: now)
    }

    /// Journals a step's events, then sends its messages; closes the game when it is over.
    func apply(_ step: Step, at now: Instant) {
        for event in step.events { storage.journalEvent(event, at: now.milliseconds) }
        for outgoing in step.messages { deliver(outgoing.message, to: outgoing.audience) }
        isStatusDirty = true
        finishIfOver()
    }

    /// Lets the game's clocks run.
    func tick(at now: Instant) {
        guard let game, let deadline = game.nextDeadline, deadline <= now else { return }
        apply(game.tick(at: now), at: now)
    }

    /// When the game ended: writes its log, journals the end and returns the room to the lobby.
    private func finishIfOver() {
        guard let game, game.isFinished else { return }
        storage.saveGameLog(game.gameLog, name: game.mode.name, log: log)
        journal(.gameEnd)
        log.info("Game over: \(game.mode.title).")
        finishedGame = game
        self.game = nil
        isStatusDirty = true
    }

    // MARK: Broadcasts

    /// The sessions an audience names.
    func recipients(of audience: Audience) -> [Session] {
        switch audience {
        case .everyone: return sessions.joined
        case .spectators: return sessions.joined.filter { $0.role != .player }
        case .operators: return sessions.joined.filter { $0.role == .admin }
        case .everyoneExcept(let playerID): return sessions.joined.filter { $0.player?.id != playerID }
        case .player(let playerID): return sessions.session(ofPlayer: playerID).map { [$0] } ?? []
        case .playerNamed(let name):
            return room.player(named: name).flatMap { sessions.session(ofPlayer: $0.id) }.map { [$0] } ?? []
        case .team(let team):
            return room.members(of: team).compactMap { sessions.session(ofPlayer: $0.id) }
        }
    }

    /// Sends `message` to everyone in `audience`, encoding it once.
    func deliver(_ message: any HostMessage, to audience: Audience) {
        sessions.deliver(message, to: recipients(of: audience))
    }

    /// Notes that the lobby changed; the broadcast goes out once per turn of the loop (see `sendLobbyIfDue`).
    func lobbyChanged() {
        isLobbyDirty = true
        isStatusDirty = true
    }

    /// When the coalesced lobby broadcast is due, if one is pending.
    var nextLobbyDeadline: Int64? { isLobbyDirty ? nextLobbyAt : nil }

    /// Sends the coalesced lobby change: the whole list for party-sized rooms, only what changed for large ones.
    ///
    /// A join storm thus costs one broadcast per turn of the loop instead of one per join, and a
    /// 10,000-player hall never re-sends 10,000 names to 10,000 screens.
    func sendLobbyIfDue(at now: Int64) {
        guard isLobbyDirty, now >= nextLobbyAt else { return }
        isLobbyDirty = false
        nextLobbyAt = room.players.count > 64 ? now + 100 : now
        var snapshot: [String: Player] = [:]
        for player in room.players { snapshot[player.id] = player }
        if room.players.count <= GameRoom.fullLobbyLimit {
            deliver(lobby(), to: .everyone)
        } else {
            let changed = room.players.filter { player in
                guard let old = lobbySnapshot[player.id] else { return true }
                return old.isConnected != player.isConnected || old.team != player.team
            }
            let removed = lobbySnapshot.values.filter { snapshot[$0.id] == nil }.map(\.name)
            if !changed.isEmpty || !removed.isEmpty {
                deliver(
                    LobbyUpdate(
                        room: room.code, count: room.players.count, players: changed.map(GameRoom.entry),
                        removed: removed), to: .everyone)
            }
        }
        lobbySnapshot = snapshot
        isStatusDirty = true
    }

    static func entry(_ player: Player) -> LobbyEntry {
        LobbyEntry(name: player.name, team: player.team, connected: player.isConnected)
    }

    /// The `lobby` message listing `shown` (everyone by default) with the true head count.
    func lobby(only shown: [Player]? = nil) -> Lobby {
        let listed = shown ?? room.players
        return Lobby(
            room: room.code, count: room.players.count, players: listed.map(GameRoom.entry), teams: room.teams,
            truncated: listed.count < room.players.count ? true : nil)
    }

    /// What a session that just joined is sent after its `welcome`: the lobby as it may see it, and the game.
    func catchUp(_ session: Session, at now: Instant) {
        if session.role != .player {
            sessions.send(lobby(), to: session)  // boards and operators get the whole list once
        } else if room.players.count > GameRoom.fullLobbyLimit, let team = session.player?.team {
            // In a hall-sized room a player gets its own team and the head count, not every name.
            sessions.send(lobby(only: room.members(of: team)), to: session)
        }
        if let game = game ?? finishedGame {
            let viewer = Viewer(
                playerID: session.player?.id, name: session.player?.name, team: session.player?.team,
                role: session.role ?? .board)
            for message in game.snapshot(for: viewer, at: now) { sessions.send(message, to: session) }
        }
    }

    // MARK: Journal and status

    /// Queues a journal record (written and flushed before the loop sends anything).
    func journal(_ record: JournalRecord) { storage.journal(record) }

    /// One line for the operator: room, players by team, what is being played.
    var statusSummary: String {
        let teams = room.teams.map { team in
            "\(team): " + room.members(of: team).map { $0.name + ($0.isConnected ? "" : " (away)") }
                .joined(separator: ", ")
        }
        let people = room.players.count
        let boards = sessions.joined.filter { $0.role == .board }.count
        let gamePart = game.map { $0.statusLine } ?? "lobby, no game running"
        return "room \(room.code) · \(Wording.count(people, "player"))"
            + (boards > 0 ? " · \(Wording.count(boards, "board"))" : "")
            + (teams.isEmpty ? "" : " · " + teams.joined(separator: " | ")) + " · " + gamePart
    }

    /// Players whose resume window ended.
    func expiredPlayers(at now: Int64, windowSeconds: Int) -> [Player] {
        room.expired(now: now, windowMilliseconds: Int64(windowSeconds) * 1000)
    }
}

@available(*, unavailable)
extension GameRoom: Sendable {}
