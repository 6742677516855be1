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
    /// The growing states: the lobby (the room's) and the running game's (PROTOCOL.md §6.0).
    let states = StateStreams()
    /// Every player's reward character, kept in the data folder across games (`Rewards.swift`).
    let rewards: RewardKeeper
    /// Whether the lobby changed since it was last sent; when it is looked at again (nil: at the end of this turn)
    /// and when it goes out even while the host is behind.
    private var isLobbyDirty = false
    private var lobbyDueAt: Int64?
    private var lobbyStaleAt: Int64?
    /// The teams (by name key, with a name) whose roster changed, for the per-team lists of a hall.
    private var changedTeams: [String: String] = [:]
    /// Whether team sizes changed since they were last sent to a hall's players, and when they were.
    private var isTeamSizesDirty = false
    private var teamSizesSentAt: Int64 = .min
    /// Whether the lobby streams are laid out for a hall (per-team lists and sizes) or a party (one list).
    private var isHallLayout = false
    /// In a hall: whether the boards' and operators' whole list changed since it was last sent, and when it was.
    private var isSpectatorLobbyDirty = false
    private var spectatorLobbySentAt: Int64 = .min
    /// Something the operator's status line shows may have changed.
    var isStatusDirty = true
    /// Names barred for the evening (by name key), with the address each was barred at.
    private(set) var bans: [String: String] = [:]
    /// Whether newcomers wait in the lobby for the next game instead of joining the running one.
    private(set) var isLocked = false
    /// Where the quizmaster's feed goes besides operator connections: the host's console.
    var consoleFeed: ((FeedLine) -> Void)?
    /// Whether the host is behind: input waiting to be read, or an earlier turn's output still queued. The loop
    /// asks its transport; while it is behind, changed states gather (natural batching, PROTOCOL.md §6.0).
    var isBehind: () -> Bool = { false }
    /// When the loop's current turn began (host ms; the loop sets it): states noted since wait for a turn when the
    /// host is behind, however long this turn took.
    var turnStartedAt: Int64 = .max

    /// Rooms up to this size show every player the whole list; in larger ones (halls) players get their own team's
    /// list and every team's size, boards and operators the whole list.
    static let fullLobbyLimit = 200
    /// How long, at most, a changed state waits while the host is behind (ms; never more than 50: PROTOCOL.md §6.0).
    static let maximumStaleness: Int64 = 40
    /// How often, at most, a hall's players get the team sizes (ms): a summary, not worth a message per join.
    static let teamSizesInterval: Int64 = 2000
    /// How often, at most, a hall's boards and operators get the whole list's changes (ms): building and comparing a
    /// list of thousands of names at every join cost the loop O(players) per join (issue 29).
    static let hallSpectatorLobbyInterval: Int64 = 250

    init(code: String, catalog: ModeCatalog, sessions: Sessions, storage: Storage, log: Logger) {
        room = Room(code: code)
        self.catalog = catalog
        self.sessions = sessions
        self.storage = storage
        self.log = log
        rewards = RewardKeeper(directory: storage.directory)
        if let problem = rewards.problem { log.warning(problem) }
    }

    // MARK: Players

    /// Adds a new player, journals it and tells the game.
    func addPlayer(
        name: String, team: String, token: String, code: String? = nil, address: String? = nil, at now: Instant
    ) -> Player {
        let player = room.add(name: name, team: team, token: token, code: code, address: address)
        journal(.join(player))
        log.info("\(player.name) joined team \(player.team).")
        if let game {
            if isLocked, (game as? any RosterAware)?.includes(player) != true {
                heldForNextGame.insert(player.id)
                deliverLater.append(
                    (player.id, Notice("The game has started and the room is locked: you play in the next game.")))
            } else if let game = game as? any RosterAware {
                apply(game.playerJoined(player, at: now), at: now)
            }
        }
        lobbyChanged(team: player.team)
        return player
    }

    /// A player came back (resumed): a game that left them out when they were away deals them in from now on.
    func playerReturned(_ player: Player, at now: Instant) {
        guard let game = game as? any RosterAware, !heldForNextGame.contains(player.id) else { return }
        apply(game.playerJoined(player, at: now), at: now)
    }

    /// Newcomers a locked room kept out of the running game: they play from the next one, even if they drop and
    /// come back (or the host restarts) meanwhile.
    private(set) var heldForNextGame: Set<String> = []

    /// Marks a player connected or not (a session joined or ended); a running game hears when a player drops.
    func setConnected(_ playerID: String, _ isConnected: Bool, at now: Instant) {
        room.setConnected(playerID, isConnected, at: now.milliseconds)
        lobbyChanged(team: room.player(id: playerID)?.team)
        if !isConnected, let game = game as? any RosterAware, !heldForNextGame.contains(playerID),
            let player = room.player(id: playerID)
        {
            apply(game.playerAway(player, at: now), at: now)
        }
    }

    /// Removes a player (kicked or expired): their token stops working and the game is told.
    func removePlayer(_ player: Player, reason: String, at now: Instant) {
        room.remove(player.id)
        journal(.leave(playerID: player.id))
        if let session = sessions.session(ofPlayer: player.id) { sessions.close(session, reason: reason) }
        log.info("\(player.name) (\(player.team)) left the room: \(reason).")
        if let game = game as? any RosterAware { apply(game.playerRemoved(player, at: now), at: now) }
        lobbyChanged(team: player.team)
    }

    /// Restores players and a game from the journal (everyone disconnected until they come back).
    func adopt(_ state: ResumedState) {
        for player in state.players { room.restore(player) }
        game = state.game
        eventsPlayed = state.game == nil ? 0 : 1  // what it played before the restart is not counted: say it played
        played = state.played
        heldForNextGame = state.heldForNextGame
        bans = state.bans
        isLocked = state.isLocked
    }

    /// After a restart every player is away until they come back: the running game hears so at `now`, as for a
    /// drop, so that it waits only for the players who return.
    func noteEveryoneAway(at now: Instant) {
        if let game = game as? any RestartAware { apply(game.hostRestarted(at: now), at: now) }
        guard let game = game as? any RosterAware else { return }
        for player in room.players where !player.isConnected && !heldForNextGame.contains(player.id) {
            apply(game.playerAway(player, at: now), at: now)
        }
    }

    /// Notices for players who joined this turn, sent once their welcome is out.
    var deliverLater: [(playerID: String, message: any HostMessage)] = []

    // MARK: Keeping the room

    /// Why `name` (or a player at `address`) may not join tonight, or nil.
    func refusal(forName name: String, address: String) -> String? {
        if bans[Room.key(name)] != nil {
            return "The organiser removed \(name) for tonight; ask them if that is a mistake."
        }
        // The host's own machine is never barred: its console and local windows share its addresses.
        if !address.isEmpty, !isHostMachine(address), bans.values.contains(address) {
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

    /// Removes the players away for at least `grace` ms; returns their names and those of the players kept.
    func tidy(at now: Instant, awayFor grace: Int64) -> (removed: [String], kept: [String]) {
        let away = room.players.filter { !$0.isConnected }
        let (gone, recent) = away.reduce(into: ([Player](), [Player]())) { split, player in
            let since = player.disconnectedAt ?? now.milliseconds
            if now.milliseconds - since >= grace { split.0.append(player) } else { split.1.append(player) }
        }
        for player in gone { removePlayer(player, reason: "tidied away while disconnected", at: now) }
        return (gone.map(\.name), recent.map(\.name))
    }

    /// How long a player must have been away before `tidy` removes them (a dropped Wi-Fi, a restarted host).
    static let tidyGraceMilliseconds: Int64 = 120_000

    /// Whether `address` is this computer: its own windows are never barred with a kicked player.
    func isHostMachine(_ address: String) -> Bool {
        ["127.0.0.1", "::1", "::ffff:127.0.0.1"].contains(address) || hostAddresses.contains(address)
    }

    /// This computer's LAN addresses (read once).
    private lazy var hostAddresses: Set<String> = Set(HostInfo.addresses())

    // MARK: Games

    /// What was played since the host started, so later games tonight avoid it.
    private(set) var played: Set<String> = []
    /// Events the running game journaled since its start before any `end` (a resumed game counts as played).
    private var eventsPlayed = 0
    /// Whether the organiser ended the running game (`end`): its log says so, and is not kept when nothing was played.
    private var isEndedByOrganiser = false

    /// The organiser's `end` of the running game: the game's `step` is applied as any other.
    func end(_ step: Step, at now: Instant) {
        isEndedByOrganiser = true
        apply(step, at: now)
        isEndedByOrganiser = false
    }

    /// Starts `newGame` (made by the catalog from a `start` request): journals its start record and announces it.
    func begin(_ newGame: any HostedGame, at now: Instant) {
        journal(.start(game: newGame.mode.name, record: newGame.startRecord, at: now.milliseconds))
        heldForNextGame = []
        endGameStates()
        game = newGame
        eventsPlayed = 0
        finishedGame = nil
        _ = rewards.takeGameRecords()
        log.info("Game started: \(newGame.mode.title).")
        apply(newGame.start(at: now), at: now)
        eventsPlayed = 0  // the start's own events are no play
    }

    /// Journals a step's events, then sends its messages; closes the game when it is over.
    ///
    /// Growing states are noted and go out at the end of the turn (later, coalesced, while the host is behind); any other
    /// message of the game first sends what is noted, so every reader sees the game's messages in their order.
    func apply(_ step: Step, at now: Instant) {
        for event in step.events { storage.journalEvent(event, at: now.milliseconds) }
        if !isEndedByOrganiser { eventsPlayed += step.events.count }
        // Big-room starts (issue 29): a step of 2,000 teams carries a clue per team and a feed line per team for the
        // operators. Finding "the operators" walked every connection once per line (O(teams × connections)); the
        // broad audiences' recipients cannot change within one step, so they are found once per step here.
        var broad: [BroadAudience: [Session]] = [:]
        for outgoing in step.messages {
            switch outgoing.publication {
            case .message:
                // The feed is the operators' commentary: it need not wait for the states it comments on.
                if !(outgoing.message is FeedLine) { sendPendingStates(of: .game) }
                // An announcement's news reaches each operator once: a text-mode operator reads it as its feed line
                // (below), not also as the message's own line; a JSON operator's screen takes the message, its
                // feed the line.
                let feedLine = outgoing.feedLine
                func reading(_ recipients: [Session]) -> [Session] {
                    feedLine == nil ? recipients : recipients.filter { !($0.role == .admin && $0.dialect == .text) }
                }
                if isHall, let rows = outgoing.message as? any HallRows,
                    outgoing.audience == .everyone || outgoing.audience == .players
                {
                    // A hall's reveal or ranking (issue 29): the whole table to boards and operators, each team's
                    // players their row and the top rows, encoded once per team (not 1,000 rows per connection).
                    if outgoing.audience == .everyone {
                        let spectators = broad[.spectators] ?? recipients(of: .spectators)
                        broad[.spectators] = spectators
                        sessions.deliver(outgoing.message, to: reading(spectators))
                    }
                    deliverCut(rows)
                } else if let key = BroadAudience(outgoing.audience) {
                    let recipients = broad[key] ?? recipients(of: outgoing.audience)
                    broad[key] = recipients
                    sessions.deliver(outgoing.message, to: reading(recipients))
                    if let feed = outgoing.message as? FeedLine { consoleFeed?(feed) }
                } else if feedLine != nil {
                    sessions.deliver(outgoing.message, to: reading(recipients(of: outgoing.audience)))
                } else {
                    deliver(outgoing.message, to: outgoing.audience)
                }
                if let feedLine {
                    let operators = broad[.operators] ?? recipients(of: .operators)
                    broad[.operators] = operators
                    sessions.deliver(feedLine, to: operators)
                    consoleFeed?(feedLine)
                }
            case .state, .wholeState:
                guard let state = outgoing.message as? any GrowingState else { continue }
                states.note(
                    state, to: outgoing.audience, owner: .game, whole: outgoing.publication == .wholeState,
                    at: now.milliseconds, staleness: GameRoom.maximumStaleness)
            case .endState:
                guard let stream = states.stream(outgoing.stateType, to: outgoing.audience) else { continue }
                send(stream)
                states.remove(stream)
            }
        }
        creditRightAnswers(in: step.messages)
        isStatusDirty = true
        finishIfOver()
    }

    /// Counts the right answers a step announced for the players who picked a character: each gets their new
    /// standing (after the step's own messages), and the operators a feed line when a character grows.
    private func creditRightAnswers(in messages: [Outgoing]) {
        var names: [String] = []
        for outgoing in messages { names += RewardKeeper.rightAnswers(in: outgoing.message, room: room) }
        guard !names.isEmpty else { return }
        let (updates, problem) = rewards.credit(names, game: game?.mode.name)
        for (name, progress) in updates {
            deliver(RewardKeeper.message(progress, grew: progress.grew), to: .playerNamed(PlayerName(name)))
            guard progress.grew, let character = progress.character else { continue }
            deliver(
                FeedLine(
                    "\(name)'s \(character) grew: stage \(progress.stage) of \(Rewards.stages) "
                        + "(\(Rewards.upgrade(progress.stage)), \(Wording.count(progress.rightAnswers, "right answer"))).",
                    isSecondary: true), to: .operators)
        }
        if let problem { log.warning(problem) }
    }

    /// `name` picks their reward character `id` (nil: only asks where theirs stands); the answer goes to them.
    func pickCharacter(_ id: String?, for name: String) throws(RuleError) -> CharacterProgress {
        guard let id else { return rewards.message(for: name) }
        let (message, problem) = try rewards.pick(id, for: name)
        if let problem { log.warning(problem) }
        log.info("\(name) picked the \(message.character ?? id) as their character.")
        return message
    }

    /// Lets the game's clocks run.
    func tick(at now: Instant) {
        guard let game, let deadline = game.status.nextDeadline, deadline <= now else { return }
        apply(game.tick(at: now), at: now)
    }

    /// When the game ended: writes its log, journals the end and returns the room to the lobby.
    private func finishIfOver() {
        guard let game, game.status.isFinished else { return }
        let record = game.record
        played.formUnion(record.playedContent)  // what was shown, so tonight's later games avoid it
        var gameLog = record.log
        let rewarded = rewards.takeGameRecords()
        if !rewarded.isEmpty, case .object(var object) = gameLog, let records = try? JSONCoding.encode(rewarded) {
            object["rewards"] = records  // who grew their character in this game (`history N`)
            gameLog = .object(object)
        }
        if let problem = rewards.save() { log.warning(problem) }
        if isEndedByOrganiser && eventsPlayed == 0 {
            // Started and stopped at once: no 0-point game in `history` and the teacher's files.
            log.info("The game was ended before anything was played: it is not kept in history.")
        } else {
            storage.saveGameLog(gameLog, name: game.mode.name, endedByOrganiser: isEndedByOrganiser, log: log)
        }
        (game as? any KeepsRecords)?.keepRecords(in: storage)
        journal(.gameEnd)
        endGameStates()
        log.info("Game over: \(game.mode.title).")
        finishedGame = game
        self.game = nil
        isStatusDirty = true
    }

    // MARK: Broadcasts

    /// The audiences whose recipients are found by walking every connection (`apply` finds them once a step).
    private enum BroadAudience: Hashable {
        case everyone, spectators, operators, players

        /// The broad audience `audience` is, or nil for one found through an index (a team, a player).
        init?(_ audience: Audience) {
            switch audience {
            case .everyone: self = .everyone
            case .spectators: self = .spectators
            case .operators: self = .operators
            case .players: self = .players
            case .team, .player, .playerNamed, .everyoneExcept: return nil
            }
        }
    }

    /// How many connections `recipients(of:)` walked so far: the loop work of broadcasts, which tests count.
    private(set) var connectionsWalked = 0

    /// The sessions an audience names.
    func recipients(of audience: Audience) -> [Session] {
        switch audience {
        case .everyone:
            connectionsWalked += sessions.sessions.count
            return sessions.joined
        case .spectators:
            let spectators = sessions.spectators
            connectionsWalked += spectators.count
            return spectators
        case .operators:
            let spectators = sessions.spectators
            connectionsWalked += spectators.count
            return spectators.filter { $0.role == .admin }
        case .players:
            connectionsWalked += sessions.sessions.count
            return sessions.joined.filter { $0.role == .player }
        case .everyoneExcept(let playerID):
            connectionsWalked += sessions.sessions.count
            return sessions.joined.filter { $0.player?.playerID != playerID }
        case .player(let playerID): return sessions.session(ofPlayer: playerID).map { [$0] } ?? []
        case .playerNamed(let name):
            return room.player(named: name).flatMap { sessions.session(ofPlayer: $0.playerID) }.map { [$0] } ?? []
        case .team(let team):
            return room.memberIDs(of: team).compactMap { sessions.session(ofPlayer: $0) }
        }
    }

    /// Whether the room is a hall: more players than `fullLobbyLimit`, so that its players get their own team's
    /// lists and rows (the lobby, reveals, rankings) while boards and operators get every row.
    var isHall: Bool { room.players.count > GameRoom.fullLobbyLimit }

    /// How many top rows of a table a hall's player gets besides their own team's (PROTOCOL.md §6.0.1).
    static let hallTopRows = 10

    /// Sends each team's players their cut of `message` (their row and the top rows), encoding one cut per team
    /// that has a row below the top and one shared cut for every other player: O(teams + rows + connections).
    private func deliverCut<Message: HallRows>(_ message: Message) {
        let top = GameRoom.hallTopRows
        let tables = message.hallTables
        guard tables.contains(where: { $0.count > top + 1 }) else {
            return sessions.deliver(message, to: recipients(of: .players))
        }
        let below: [[String: Int]] = tables.map { teams in
            var found: [String: Int] = [:]
            for index in teams.indices.dropFirst(top) where found[Room.key(teams[index])] == nil {
                found[Room.key(teams[index])] = index
            }
            return found
        }
        let total = tables.map(\.count).max() ?? 0
        let head = tables.map { Array(0..<min(top, $0.count)) }
        // Each team's copy is the shared top with its own rows spliced in: encoded once, not once per team.
        let shared = message.keeping(head, total: total)
        let splice = HallSplice(head: shared, tables: shared.hallTableBytes())
        var headOnly: [Session] = []
        for team in room.teams {
            let members = recipients(of: .team(TeamName(team)))
            guard !members.isEmpty else { continue }
            let key = Room.key(team)
            let own = below.map { $0[key] }
            guard own.contains(where: { $0 != nil }) else {
                headOnly += members
                continue
            }
            let rows = tables.indices.map { table in own[table].flatMap { message.hallRowBytes(table: table, row: $0) }
            }
            splice.deliver(rows, to: members, through: sessions) {
                message.keeping(tables.indices.map { head[$0] + (own[$0].map { [$0] } ?? []) }, total: total)
            }
        }
        sessions.deliver(shared, to: headOnly)
    }

    /// `message` as `session` may see it: in a hall, a player gets a table's cut for their team (PROTOCOL.md §6.0.1).
    func view(of message: any HostMessage, for session: Session) -> any HostMessage {
        guard isHall, session.role == .player, let rows = message as? any HallRows else { return message }
        return cut(rows, forTeam: session.player?.team)
    }

    /// `message` cut for a hall's player of `team` (the whole message when it is short enough already).
    private func cut<Message: HallRows>(_ message: Message, forTeam team: String?) -> any HostMessage {
        message.cut(forTeam: team, top: GameRoom.hallTopRows) ?? message
    }

    /// Sends `message` to everyone in `audience`, encoding it once; the feed also goes to the console.
    func deliver(_ message: any HostMessage, to audience: Audience) {
        sessions.deliver(message, to: recipients(of: audience))
        if let feed = message as? FeedLine { consoleFeed?(feed) }
    }

    /// Whether `session` is one of `audience`.
    func includes(_ session: Session, in audience: Audience) -> Bool {
        guard session.membership != nil else { return false }
        switch audience {
        case .everyone: return true
        case .spectators: return session.role != .player
        case .operators: return session.role == .admin
        case .players: return session.role == .player
        case .everyoneExcept(let playerID): return session.player?.playerID != playerID
        case .player(let playerID): return session.player?.playerID == playerID
        case .playerNamed(let name): return session.player.map { Room.key($0.name) == Room.key(name.value) } ?? false
        case .team(let team): return session.player.map { Room.key($0.team) == Room.key(team.value) } ?? false
        }
    }

    // MARK: Growing states

    /// Sends a stream's pending value to its audience (but `session`, which gets the whole state instead).
    private func send(_ stream: StateStream, except session: Session? = nil) {
        let before = stream.sentWhole
        guard let message = stream.take() else { return }
        var recipients = recipients(of: stream.audience)
        if let session { recipients.removeAll { $0 === session } }
        // A text player in a game reads the game's lines, not who came and went in the lobby (a JSON client keeps
        // every change, since it numbers them); the lobby's lines come back with the game's end.
        if stream.owner == .room, isGameRunning { recipients.removeAll { $0.dialect == .text } }
        let wasHall = stream.wasSentAsHall
        let isHall = self.isHall
        stream.wasSentAsHall = isHall
        if isHall, let after = stream.sentWhole as? any HallList {
            // A hall's players get the top rows and their own (PROTOCOL.md §6.0.1), boards and operators every row.
            let players = recipients.filter { $0.role == .player }
            sessions.deliver(message, to: recipients.filter { $0.role != .player })
            deliverHallList(after, before: before, whole: !(message is any StateDelta) || !wasHall, to: players)
        } else if wasHall, message is any StateDelta, let whole = stream.sentWhole as? any HallList {
            // The room is no hall any more: players holding a cut get the whole list, the others its change.
            sessions.deliver(message, to: recipients.filter { $0.role != .player })
            sessions.deliver(whole, to: recipients.filter { $0.role == .player })
        } else {
            sessions.deliver(message, to: recipients)
        }
    }

    /// Sends a hall's `players` their cut of a list's new version `after` (PROTOCOL.md §6.0.1), following `before`
    /// (the version they hold): one message for the players with no row below the top, one for those whose own
    /// row there did not change, and one per team whose own row changed or moved: O(rows + connections) work, and
    /// each distinct message encoded once.
    private func deliverHallList<State: HallList>(
        _ after: State, before: (any HostMessage)?, whole: Bool, to players: [Session]
    ) {
        let top = GameRoom.hallTopRows
        let before = whole ? nil : before as? State
        guard after.items.count > top + 1 || (before?.items.count ?? 0) > top + 1 else {
            let message: any HostMessage =
                if let before, let seq = after.seq, let delta = after.delta(from: before, seq: seq) { delta } else {
                    after
                }
            return sessions.deliver(message, to: players)
        }
        /// Each team's row below the top, by the team as the list spells it.
        func below(_ state: State?) -> [String: Int] {
            guard let state else { return [:] }
            var found: [String: Int] = [:]
            for index in state.items.indices.dropFirst(top) where found[state.items[index].key] == nil {
                found[state.items[index].key] = index
            }
            return found
        }
        let belowNow = below(after)
        let belowBefore = below(before)
        var headOnly: [Session] = []
        var unchangedOwn: [Session] = []
        var representative: (before: Int, now: Int)?
        var ownChanged: [String: [Session]] = [:]
        for session in players {
            let team = session.player?.team ?? ""
            let now = belowNow[team]
            let held = belowBefore[team]
            if now == nil && held == nil {
                headOnly.append(session)
            } else if !whole, let now, let held, let before, before.items[held] == after.items[now] {
                unchangedOwn.append(session)
                representative = representative ?? (held, now)
            } else {
                ownChanged[team, default: []].append(session)
            }
        }
        if whole {
            // Whole copies differ by their last row only: the top is encoded once and each team's row spliced in.
            let head = after.cut(top: top, own: nil)
            sessions.deliver(head, to: headOnly)
            let splice = HallSplice(head: head, tables: [(try? JSONCoding.bytes(head.items)) ?? []])
            for (team, members) in ownChanged {
                guard let own = belowNow[team] else { continue }
                let row = try? JSONCoding.bytes(after.items[own])
                splice.deliver([row], to: members, through: sessions) { after.cut(top: top, own: own) }
            }
            return
        }
        sessions.deliver(after.hallChange(from: before, ownBefore: nil, ownNow: nil, top: top), to: headOnly)
        if let representative {
            // Every such copy changes alike: only the top rows changed in it, its own row stays last.
            let change = after.hallChange(
                from: before, ownBefore: representative.before, ownNow: representative.now, top: top)
            sessions.deliver(change, to: unchangedOwn)
        }
        for (team, members) in ownChanged {
            let change = after.hallChange(from: before, ownBefore: belowBefore[team], ownNow: belowNow[team], top: top)
            sessions.deliver(change, to: members)
        }
    }

    /// A hall player's copy of a list state: the top rows and their own team's (PROTOCOL.md §6.0.1).
    private func hallView(of state: any GrowingState, for session: Session) -> any HostMessage {
        guard isHall, session.role == .player, let list = state as? any HallList else { return state }
        return hallCut(of: list, for: session)
    }

    /// `list` cut for `session`'s team, or whole when it is short.
    private func hallCut<State: HallList>(of list: State, for session: Session) -> any HostMessage {
        let top = GameRoom.hallTopRows
        guard list.items.count > top + 1 else { return list }
        return list.cut(top: top, own: list.ownRow(of: session.player?.team, top: top))
    }

    /// Whether a game is being played (started and not over).
    var isGameRunning: Bool { game.map { !$0.status.isFinished } ?? false }

    /// Sends `session` the whole state of `stream` as its audience holds it (JSON encoded once per version).
    private func sendWhole(of stream: StateStream, to session: Session) {
        guard let whole = stream.sentWhole else { return }
        if isHall, session.role == .player, let list = whole as? any HallList {
            return sessions.send(hallCut(of: list, for: session), to: session)
        }
        if session.dialect == .json, session.isLive, let line = stream.sentWholeLine {
            sessions.outlet.send(line, to: session.id)
        } else {
            sessions.send(whole, to: session)
        }
    }

    /// Sends what the streams of `owner` have noted, now.
    private func sendPendingStates(of owner: StreamOwner) {
        for stream in states.pending(owner: owner) { send(stream) }
    }

    /// The game's states end with it: what is noted goes out, then they are forgotten.
    private func endGameStates() {
        for stream in states.all where stream.owner == .game {
            send(stream)
            states.remove(stream)
        }
    }

    /// `state` numbered as its stream last sent it to `session`, so the deltas that follow apply.
    ///
    /// While a change is noted and not sent yet, `session` gets the version its audience holds, and the change
    /// reaches it with the others at the end of the turn: joins in one turn stay one delta. A stream never sent
    /// goes to the others first (the catch-up carries it to `session`).
    private func numbered<State: GrowingState>(_ state: State, for session: Session) -> State {
        guard
            let stream = states.all.first(where: {
                $0.owner == .game && $0.type == State.type
                    && includes(session, in: $0.audience)
            })
        else { return state }
        if stream.pending != nil {
            if let held = stream.sentWhole as? State { return held }
            send(stream, except: session)
        }
        return stream.numbered(state)
    }

    /// A reader missed a change of the state `type`: it gets the whole state again, as its audience holds it.
    func resync(_ type: String, for session: Session) {
        for stream in states.all where stream.type == type && includes(session, in: stream.audience) {
            if stream.pending != nil { send(stream) }
            sendWhole(of: stream, to: session)
        }
    }

    /// When the next coalesced state is due: a lobby change, the team sizes, a game's state.
    var nextStateDeadline: Int64? {
        var due = states.nextDue
        if isLobbyDirty { due = min(due ?? .max, lobbyDueAt ?? 0) }
        if isTeamSizesDirty && isHallLayout { due = min(due ?? .max, teamSizesSentAt + GameRoom.teamSizesInterval) }
        if isSpectatorLobbyDirty && isHallLayout {
            due = min(due ?? .max, spectatorLobbySentAt + GameRoom.hallSpectatorLobbyInterval)
        }
        return due
    }

    /// Sends the states that are due at the end of a turn: the lobby, a hall's team sizes, the game's changes.
    ///
    /// Natural batching: a changed state goes out at the end of the turn that changed it, unless the host is behind
    /// (`isBehind`: more input waiting, or the last flush not drained), when it gathers the changes of the next
    /// turns into one message — until a turn finds it caught up, for `maximumStaleness` ms at most. A host that keeps
    /// up thus never waits.
    func sendDueStates(at now: Int64) {
        var behind: Bool?
        func isHostBehind() -> Bool {
            if let behind { return behind }
            let answer = isBehind()
            behind = answer
            return answer
        }
        if isLobbyDirty {
            let staleAt = lobbyStaleAt ?? now + GameRoom.maximumStaleness
            if now >= staleAt || !isHostBehind() {
                sendLobby(at: now)
            } else {
                lobbyStaleAt = staleAt
                lobbyDueAt = staleAt
            }
        }
        if isSpectatorLobbyDirty && isHallLayout && now >= spectatorLobbySentAt + GameRoom.hallSpectatorLobbyInterval {
            sendSpectatorLobby(at: now)
        }
        if isTeamSizesDirty && isHallLayout && now >= teamSizesSentAt + GameRoom.teamSizesInterval {
            isTeamSizesDirty = false
            teamSizesSentAt = now
            send(states.note(teamSizes(), to: .players, owner: .room, whole: false, at: now))
        }
        for stream in states.pending() {
            // A state first noted in this turn is not stale because the turn was long (a 10,000-player start): when
            // the host is behind, it waits for the next turn, so the input waiting is read before it goes out.
            let isNotedThisTurn = (stream.firstNotedAt ?? .min) >= turnStartedAt
            if now >= (stream.staleAt ?? now) && !isNotedThisTurn || !isHostBehind() {
                send(stream)
            } else {
                stream.holdBack()
            }
        }
    }

    /// Notes that the lobby changed (`team`'s roster, when known); it goes out at the end of the turn.
    func lobbyChanged(team: String? = nil) {
        isLobbyDirty = true
        lobbyDueAt = nil  // looked at again at the end of this turn (or the next, when this one has ended)
        isStatusDirty = true
        isTeamSizesDirty = true
        if let team { changedTeams[Room.key(team)] = team }
    }

    /// Sends the lobby's change to every audience: the whole list to everyone in a party-sized room; in a hall, the
    /// whole list to boards and operators and each changed team's list to its players.
    ///
    /// A join storm thus costs one message per turn of the loop instead of one per join, and a 1,000-player hall
    /// sends each player its own team's changes, not 1,000 names.
    private func sendLobby(at now: Int64) {
        isLobbyDirty = false
        lobbyDueAt = nil
        lobbyStaleAt = nil
        let isHall = self.isHall
        if isHall != isHallLayout {
            for stream in states.all where stream.owner == .room { states.remove(stream) }
            isHallLayout = isHall
            for team in room.teams { changedTeams[Room.key(team)] = team }
            teamSizesSentAt = .min
            isTeamSizesDirty = true
            spectatorLobbySentAt = .min
        }
        if !isHall {
            send(states.note(lobby(), to: .everyone, owner: .room, whole: false, at: 0))
        } else {
            // The whole list costs a diff of every name: kept only while a board or an operator watches (one who
            // joins later gets it whole within 250 ms), and sent at most every 250 ms.
            isSpectatorLobbyDirty = true
            if now >= spectatorLobbySentAt + GameRoom.hallSpectatorLobbyInterval { sendSpectatorLobby(at: now) }
            for (_, team) in changedTeams.sorted(by: { $0.key < $1.key }) {
                let members = room.members(of: team)
                let name = members.first?.team ?? team
                if members.isEmpty {
                    if let stream = states.stream(Lobby.type, to: .team(TeamName(name))) { states.remove(stream) }
                } else {
                    send(
                        states.note(lobby(only: members), to: .team(TeamName(name)), owner: .room, whole: false, at: 0))
                }
            }
        }
        changedTeams = [:]
        isStatusDirty = true
    }

    /// Sends a hall's boards and operators the whole list's changes (or forgets the list while nobody watches).
    private func sendSpectatorLobby(at now: Int64) {
        isSpectatorLobbyDirty = false
        spectatorLobbySentAt = now
        if !sessions.spectators.isEmpty {
            send(states.note(lobby(), to: .spectators, owner: .room, whole: false, at: 0))
        } else if let stream = states.stream(Lobby.type, to: .spectators) {
            states.remove(stream)
        }
    }

    static func entry(_ player: Player) -> LobbyEntry {
        LobbyEntry(name: player.name, team: player.team, connected: player.isConnected)
    }

    /// The `lobby` message listing `shown` (everyone by default) with the true head count; a list of some players
    /// (a hall's team) names only their teams, as every team's name in each team's list cost O(teams) per join.
    func lobby(only shown: [Player]? = nil) -> Lobby {
        let listed = shown ?? room.players
        var teams = shown == nil ? room.teams : []
        if shown != nil {
            for player in listed where !teams.contains(player.team) { teams.append(player.team) }
        }
        return Lobby(
            room: room.code, count: room.players.count, players: listed.map(GameRoom.entry), teams: teams,
            truncated: listed.count < room.players.count ? true : nil)
    }

    /// Every team's size, for a hall's players.
    func teamSizes() -> TeamSizes {
        TeamSizes(
            room: room.code, count: room.players.count,
            teams: room.teams.map { TeamSize(team: $0, players: room.members(of: $0).count) })
    }

    /// What a session that just joined is sent after its `welcome`: the lobby as it may see it, and the game.
    ///
    /// The lobby comes as its audience last received it, numbered; the change this join makes follows at the end
    /// of the turn as a `lobbyUpdate` (a stream not sent yet goes out whole then, to this session too).
    func catchUp(_ session: Session, at now: Instant) {
        // The session's own streams, found by audience: a hall has a lobby stream per team (issue 29).
        var audiences: [Audience] = [.everyone]
        switch session.role {
        case .player?:
            audiences.append(.players)
            if let team = session.player?.teamName { audiences.append(.team(team)) }
        case .admin?: audiences += [.spectators, .operators]
        case .board?: audiences.append(.spectators)
        case nil: break
        }
        // A text player joining a running game reads the game's catch-up, not the lobby's list (as in `send`).
        let isLobbyShown = session.dialect != .text || !isGameRunning
        for stream in states.streams(to: audiences)
        where stream.owner == .room && isLobbyShown && includes(session, in: stream.audience) {
            sendWhole(of: stream, to: session)
        }
        if let game = game ?? finishedGame {
            let viewer = Viewer(
                playerID: session.player?.id, name: session.player?.name, team: session.player?.team,
                role: session.role ?? .board)
            for message in game.snapshot(for: viewer, at: now) {
                if let state = message as? any GrowingState {
                    sessions.send(hallView(of: numbered(state, for: session), for: session), to: session)
                } else {
                    sessions.send(view(of: message, for: session), to: session)
                }
            }
            if let pausedAt = game.status.pausedAt { sessions.send(Paused(at: pausedAt.milliseconds), to: session) }
            if viewer.role == .admin, self.game != nil, let notes = game as? any OperatorNotes {
                for line in notes.operatorBriefing { sessions.send(FeedLine(line), to: session) }
            }
        }
    }

    // MARK: Journal and status

    /// Queues a journal record (written and flushed before the loop sends anything).
    func journal(_ record: JournalRecord) { storage.journal(record) }

    /// One line for the operator: room, players by team, what is being played.
    var statusSummary: String {
        let people = room.players.count
        let boards = sessions.joined.filter { $0.role == .board }.count
        // A game held for the players after a restart waits for them, not for the operator.
        let isHeld = (game as? any RestartAware)?.isHeldForRestart == true
        let gamePart =
            (game.map { $0.statusLine } ?? "lobby, no game running")
            + (isHeld ? " · waiting for the first player back after the restart" : "")
        let prompt = game.flatMap {
            isHeld
                ? nil
                : $0.status.isPaused ? "continue (the game is paused)" : ($0 as? any OperatorNotes)?.operatorPrompt
        }
        let waiting = prompt.map { "WAITING FOR YOU: type \($0) · " } ?? ""
        let locked = isLocked ? " · locked" : ""
        // The phase first: a narrow terminal cuts the player list, not what the game is doing.
        return waiting + gamePart + locked + " · room \(room.code) · \(Wording.count(people, "player"))"
            + (boards > 0 ? " · \(Wording.count(boards, "board"))" : "")
            + statusRoster
    }

    /// The status line's roster, each team with its players, cut after about `statusRosterLimit` characters with
    /// how many teams were left out: a terminal shows one line, and a hall's 10,000 names made the loop build a
    /// 150 KB line every second while people joined.
    private var statusRoster: String {
        var text = ""
        var shown = 0
        let teams = room.teams
        for team in teams {
            guard text.utf8.count < GameRoom.statusRosterLimit else { break }
            text += (shown == 0 ? " · " : " | ") + team + ": "
            var first = true
            for player in room.members(of: team) {
                guard text.utf8.count < GameRoom.statusRosterLimit else {
                    text += ", …"
                    break
                }
                text += (first ? "" : ", ") + player.name + (player.isConnected ? "" : " (away)")
                first = false
            }
            shown += 1
        }
        if shown < teams.count { text += " | … " + Wording.count(teams.count - shown, "more team") }
        return text
    }

    /// About how long the status line's roster may grow (in bytes) before the rest is counted, not listed.
    static let statusRosterLimit = 600

    /// Players whose resume window ended.
    func expiredPlayers(at now: Int64, windowSeconds: Int) -> [Player] {
        room.expired(now: now, windowMilliseconds: Int64(windowSeconds) * 1000)
    }
}

@available(*, unavailable)
extension GameRoom: Sendable {}
