// The lobby as clients see it: who is here, by team, sent whole and then as deltas (PROTOCOL.md §6.0, §6.1).

/// One person in a lobby list.
public struct LobbyEntry: ListItem {
    /// The player's name.
    public var name: String
    /// The player's team.
    public var team: String
    /// Whether the player is connected now.
    public var connected: Bool
    /// In a `lobbyUpdate` only, where the player goes when not at the end (PROTOCOL.md §6.0).
    public var at: Int?

    /// Creates an entry.
    public init(name: String, team: String, connected: Bool, at: Int? = nil) {
        self.name = name
        self.team = team
        self.connected = connected
        self.at = at
    }

    /// Names are unique in a room.
    public var key: String { name }
}

/// Who is in the room.
public struct Lobby: HostMessage {
    public static let type = "lobby"
    /// The room code.
    public var room: String
    /// Players in the room (all of them, also when `players` lists only some).
    public var count: Int
    /// The players listed, in join order.
    public var players: [LobbyEntry]
    /// The teams, in order of first appearance.
    public var teams: [String]
    /// True when not everyone is listed (a player in a hall-sized room sees its own team).
    public var truncated: Bool?
    /// The version of this list, which the `lobbyUpdate`s that follow continue (PROTOCOL.md §6.0).
    public var seq: Int?

    /// Creates a lobby message.
    public init(
        room: String, count: Int, players: [LobbyEntry], teams: [String], truncated: Bool? = nil, seq: Int? = nil
    ) {
        self.room = room
        self.count = count
        self.players = players
        self.teams = teams
        self.truncated = truncated
        self.seq = seq
    }

    /// `Lobby: Red: Ann, Cid (away) | Blue: Bob`.
    public static func summary(players: [LobbyEntry], teams: [String]) -> String {
        let order = teams.isEmpty ? Array(Set(players.map(\.team))).sorted() : teams
        let parts = order.map { team in
            "\(team): "
                + players.filter { $0.team.lowercased() == team.lowercased() }
                .map { $0.name + ($0.connected ? "" : " (away)") }.joined(separator: ", ")
        }
        return "Lobby: " + (parts.isEmpty ? "nobody yet" : parts.joined(separator: " | "))
    }

    public func line(for reader: Perspective) -> String? { Lobby.summary(players: players, teams: teams) }
}

extension Lobby: GrowingState {
    public var items: [LobbyEntry] { players }

    public func delta(seq: Int, changed: [LobbyEntry], removed: [String]) -> LobbyUpdate {
        LobbyUpdate(room: room, count: count, players: changed, removed: removed, seq: seq)
    }

    public func updated(items: [LobbyEntry], by delta: LobbyUpdate) -> Lobby {
        // Teams keep their order; a team with nobody left goes (unless this list shows only some players).
        var seen = Set<String>()
        var present: [String] = []
        for item in items where seen.insert(item.team.lowercased()).inserted { present.append(item.team) }
        let isPresent = { (team: String) in present.contains { $0.lowercased() == team.lowercased() } }
        let kept = teams.filter { truncated == true || isPresent($0) }
        let added = present.filter { team in !kept.contains { $0.lowercased() == team.lowercased() } }
        return Lobby(
            room: room, count: delta.count, players: items, teams: kept + added, truncated: truncated, seq: seq)
    }
}

/// What changed in the lobby since the last lobby message (a delta of `lobby`, PROTOCOL.md §6.0).
public struct LobbyUpdate: StateDelta {
    public static let type = "lobbyUpdate"
    public static let stateType = Lobby.type
    /// The room code.
    public var room: String
    /// Players in the room.
    public var count: Int
    /// New or changed players.
    public var players: [LobbyEntry]
    /// Names of players who left.
    public var removed: [String]
    /// The lobby's version after this change.
    public var seq: Int?

    /// Creates a lobby delta.
    public init(room: String, count: Int, players: [LobbyEntry], removed: [String], seq: Int? = nil) {
        self.room = room
        self.count = count
        self.players = players
        self.removed = removed
        self.seq = seq
    }

    public var changed: [LobbyEntry] { players }

    /// `Lobby, 12 players: Zed (Blue) is here · Ann (Red) is away · Bo left`.
    public func line(for reader: Perspective) -> String? {
        let parts =
            players.map { "\($0.name) (\($0.team)) is \($0.connected ? "here" : "away")" }
            + removed.map { "\($0) left" }
        guard !parts.isEmpty else { return nil }
        return "Lobby, \(Wording.count(count, "player")): " + parts.joined(separator: " · ")
    }
}

/// One team's size in a hall-sized room.
public struct TeamSize: ListItem {
    /// The team.
    public var team: String
    /// Its players, connected or not.
    public var players: Int
    /// In a `teamsUpdate` only, where the team goes when not at the end.
    public var at: Int?

    /// Creates a team size.
    public init(team: String, players: Int, at: Int? = nil) {
        self.team = team
        self.players = players
        self.at = at
    }

    public var key: String { team }
}

/// In a hall-sized room, the size of every team, for players (who get only their own team's `lobby`).
public struct TeamSizes: GrowingState {
    public static let type = "teams"
    /// The room code.
    public var room: String
    /// Players in the room.
    public var count: Int
    /// Every team with its size, in order of first appearance.
    public var teams: [TeamSize]
    /// The version of this list, which the `teamsUpdate`s that follow continue.
    public var seq: Int?
    /// In a hall player's copy (PROTOCOL.md §6.0.1): how many teams the room has (`teams` lists the first and yours).
    public var total: Int?

    /// Creates the message.
    public init(room: String, count: Int, teams: [TeamSize], seq: Int? = nil, total: Int? = nil) {
        self.room = room
        self.count = count
        self.teams = teams
        self.seq = seq
        self.total = total
    }

    public var items: [TeamSize] { teams }

    public func delta(seq: Int, changed: [TeamSize], removed: [String]) -> TeamSizesUpdate {
        TeamSizesUpdate(room: room, count: count, teams: changed, removed: removed, seq: seq)
    }

    public func updated(items: [TeamSize], by delta: TeamSizesUpdate) -> TeamSizes {
        TeamSizes(room: room, count: delta.count, teams: items, seq: seq, total: delta.total)
    }

    /// `1204 players in 100 teams: Red 12 · Blue 9 · …` (` … and 90 more teams` in a hall player's copy).
    public func line(for reader: Perspective) -> String? {
        "\(Wording.count(count, "player")) in \(Wording.count(total ?? teams.count, "team")): "
            + teams.map { "\($0.team) \($0.players)" }.joined(separator: " · ")
            + Wording.moreTeams(shown: teams.count, total: total)
    }
}

/// What changed in the team sizes (a delta of `teams`); sent at most every 2 seconds.
public struct TeamSizesUpdate: StateDelta {
    public static let type = "teamsUpdate"
    public static let stateType = TeamSizes.type
    /// The room code.
    public var room: String
    /// Players in the room.
    public var count: Int
    /// Teams whose size changed, and new teams.
    public var teams: [TeamSize]
    /// Teams with nobody left.
    public var removed: [String]
    /// The version after this change.
    public var seq: Int?
    /// In a hall player's copy (PROTOCOL.md §6.0.1): how many teams the room has after this change.
    public var total: Int?

    /// Creates the delta.
    public init(
        room: String, count: Int, teams: [TeamSize], removed: [String], seq: Int? = nil, total: Int? = nil
    ) {
        self.room = room
        self.count = count
        self.teams = teams
        self.removed = removed
        self.seq = seq
        self.total = total
    }

    public var changed: [TeamSize] { teams }
}
