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
    /// Names barred for the evening (by name key), with the address each was barred at.
    private(set) var bans: [String: String] = [:]
    /// Whether newcomers wait in the lobby for the next game instead of joining the running one.
    private(set) var isLocked = false
    /// Where the quizmaster's feed goes besides operator connections: the host's console.
    var consoleFeed: ((FeedLine) -> Void)?

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
        if let game {
            if isLocked {
                deliverLater.append(
                    (player.id, Notice("The game has started and the room is locked: you play in the next game.")))
            } else {
                apply(game.playerJoined(player, at: now), at: now)
            }
        }
        lobbyChanged()
        return player
    }

    /// A player came back (resumed): a game that left them out when they were away deals them in from now on.
    func playerReturned(_ player: Player, at now: Instant) {
        if let game { apply(game.playerJoined(player, at: now), at: now) }
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
        if let game = state.game { played.formUnion(game.playedContent) }
        bans = state.bans
        isLocked = state.isLocked
    }

    /// Notices for players who joined this turn, sent once their welcome is out.
    var deliverLater: [(playerID: String, message: any HostMessage)] = []

    // MARK: Keeping the room

    /// Why `name` (or a player at `address`) may not join tonight, or nil.
    func refusal(forName name: String, address: String) -> String? {
        if bans[Room.key(name)] != nil {
            return "The organiser removed \(name) for tonight; ask them if that is a mistake."
        }
        // The host's own machine is never barred: its console and local windows share that address.
        let isHostMachine = ["127.0.0.1", "::1", "::ffff:127.0.0.1"].contains(address)
        if !address.isEmpty, !isHostMachine, bans.values.contains(address) {
            return "The organiser removed a player on this computer for tonight; ask them if that is a mistake."
        }
        return nil
    }

    /// Bars a name (and the address it played from) for the rest of the evening.
    func ban(name: String, address: String?) {
        bans[Room.key(name)] = address ?? ""
        journal(.ban(name: Room.key(name), address: address))
    }

    /// Lets a barred name back in; false when it was not barred.
    func unban(name: String) -> Bool {
        guard bans.removeValue(forKey: Room.key(name)) != nil else { return false }
        journal(.unban(name: Room.key(name)))
        return true
    }

    /// Newcomers wait for the next game (true) or join the running one (false).
    func setLocked(_ locked: Bool) {
        isLocked = locked
        journal(.lock(locked))
        isStatusDirty = true
    }

    /// Removes every disconnected player; returns their names.
    func tidy(at now: Instant) -> [String] {
        let away = room.players.filter { !$0.isConnected }
        for player in away { removePlayer(player, reason: "tidied away while disconnected", at: now) }
        return away.map(\.name)
    }

    // MARK: Games

    /// What was played since the host started, so later games tonight avoid it.
    private(set) var played: Set<String> = []

    /// Starts `newGame` (made by the catalog from a `start` request): journals its start record and announces it.
    func begin(_ newGame: any HostedGame, at now: Instant) {
        played.formUnion(newGame.playedContent)
        journal(.start(game: newGame.mode.name, record: newGame.startRecord, at: now.milliseconds))
        game = newGame
        finishedGame = nil
        log.info("Game started: \(newGame.mode.title).")
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

    /// Sends `message` to everyone in `audience`, encoding it once; the feed also goes to the console.
    func deliver(_ message: any HostMessage, to audience: Audience) {
        sessions.deliver(message, to: recipients(of: audience))
        if let feed = message as? FeedLine { consoleFeed?(feed) }
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
        if room.players.count <= GameRoom.fullLobbyLimit {
            // The coalesced broadcast at the end of this turn brings the whole list, to this session too.
        } else if session.role != .player {
            sessions.send(lobby(), to: session)  // in a hall, boards and operators get the whole list once
        } else if let team = session.player?.team {
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
        let waiting = game?.operatorPrompt.map { "WAITING FOR YOU: type \($0) · " } ?? ""
        let locked = isLocked ? " · locked" : ""
        // The phase first: a narrow terminal cuts the player list, not what the game is doing.
        return waiting + gamePart + locked + " · room \(room.code) · \(Wording.count(people, "player"))"
            + (boards > 0 ? " · \(Wording.count(boards, "board"))" : "")
            + (teams.isEmpty ? "" : " · " + teams.joined(separator: " | "))
    }

    /// Players whose resume window ended.
    func expiredPlayers(at now: Int64, windowSeconds: Int) -> [Player] {
        room.expired(now: now, windowMilliseconds: Int64(windowSeconds) * 1000)
    }
}

@available(*, unavailable)
extension GameRoom: Sendable {}
