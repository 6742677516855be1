import Protocol

// The roster and session lookups an `Audience` is resolved by, in its typed identifiers: a team's name, a player's
// id or name cannot be passed one for another.

extension Room {
    /// The player whose id is `id`.
    func player(id: PlayerID) -> Player? { player(id: id.value) }
    /// The player called `name` (any case, as names are unique once folded).
    func player(named name: PlayerName) -> Player? { player(named: name.value) }
    /// The players of the team called `team` (any case).
    func members(of team: TeamName) -> [Player] { members(of: team.value) }
    /// The ids of the players of the team called `team` (any case).
    func memberIDs(of team: TeamName) -> [PlayerID] { memberIDs(of: team.value).map { PlayerID($0) } }
}

extension Sessions {
    /// The open session of the player whose id is `id`.
    func session(ofPlayer id: PlayerID) -> Session? { session(ofPlayer: id.value) }
}

extension Player {
    /// The player's id, typed (`Audience.player`).
    var playerID: PlayerID { PlayerID(id) }
    /// The player's name, typed (`Audience.playerNamed`).
    var playerName: PlayerName { PlayerName(name) }
    /// The player's team, typed (`Audience.team`).
    var teamName: TeamName { TeamName(team) }
}

extension PlayerRef {
    /// The player's id, typed.
    var playerID: PlayerID { PlayerID(id) }
    /// The player's name, typed.
    var playerName: PlayerName { PlayerName(name) }
    /// The player's team, typed.
    var teamName: TeamName { TeamName(team) }
}
