import Protocol
import Rules

/// A person in the room: a player with a name, a team and a resume token.
struct Player: Codable, Equatable {
    /// Stable id for the life of the room (`p1`, `p2`, …).
    var id: String
    var name: String
    var team: String
    /// The secret that reattaches this player after a drop (32 hex digits: 128 random bits).
    var token: String
    var isConnected: Bool
    /// Host-clock ms when the player dropped, to expire the resume window.
    var disconnectedAt: Int64?
}

/// The lobby: who is in the room and in which team. Teams exist while they have players.
struct Room {
    let code: String
    private(set) var players: [Player] = []
    private var nextNumber = 1

    init(code: String) { self.code = code }

    /// The teams in order of first appearance.
    var teams: [String] {
        var seen: Set<String> = []
        return players.compactMap { seen.insert(Room.key($0.team)).inserted ? $0.team : nil }
    }

    /// The player with `id`.
    func player(id: String) -> Player? { players.first { $0.id == id } }

    /// The player named `name`, ignoring case.
    func player(named name: String) -> Player? {
        let folded = Room.key(name)
        return players.first { Room.key($0.name) == folded }
    }

    /// The player whose token equals `token`, compared in constant time against every player.
    func player(token: String) -> Player? {
        var found: Player?
        for player in players where Secrets.constantTimeEquals(player.token, token) { found = player }
        return found
    }

    /// The names of a team's players.
    func members(of team: String) -> [Player] {
        let folded = Room.key(team)
        return players.filter { Room.key($0.team) == folded }
    }

    /// What makes two names the same name: case, accents, spaces and punctuation don't count ("Équipe" is "equipe").
    static func key(_ name: String) -> String {
        let compact = TextFolding.compact(name)
        return compact.isEmpty ? name.lowercased() : compact
    }

    /// The team's name as first written, for a name in any case.
    func canonicalTeam(_ team: String) -> String {
        players.first { Room.key($0.team) == Room.key(team) }?.team ?? team
    }

    /// Adds a new player; the caller checked the name.
    mutating func add(name: String, team: String, token: String) -> Player {
        let player = Player(id: "p\(nextNumber)", name: name, team: canonicalTeam(team), token: token, isConnected: true, disconnectedAt: nil)
        nextNumber += 1
        players.append(player)
        return player
    }

    /// Restores a player from the journal.
    mutating func restore(_ player: Player) {
        players.removeAll { $0.id == player.id }
        players.append(player)
        if let number = Int(player.id.dropFirst()), number >= nextNumber { nextNumber = number + 1 }
    }

    mutating func setConnected(_ id: String, _ isConnected: Bool, at now: Int64) {
        guard let index = players.firstIndex(where: { $0.id == id }) else { return }
        players[index].isConnected = isConnected
        players[index].disconnectedAt = isConnected ? nil : now
    }

    /// Removes a player (kicked or expired); their token stops working.
    mutating func remove(_ id: String) { players.removeAll { $0.id == id } }

    /// Players whose resume window ended.
    func expired(now: Int64, windowMilliseconds: Int64) -> [Player] {
        players.filter { !$0.isConnected && ($0.disconnectedAt.map { now - $0 >= windowMilliseconds } ?? false) }
    }

    /// The `lobby` message.
    var lobbyMessage: JSONValue { lobbyMessage(only: players) }

    /// A `lobby` message listing `shown` (all players, or a subset in a very large room) with the true head count.
    func lobbyMessage(only shown: [Player]) -> JSONValue {
        .object(["type": "lobby",
                 "room": .string(code),
                 "count": .number(players.count),
                 "players": .array(shown.map { .object(["name": .string($0.name), "team": .string($0.team), "connected": .bool($0.isConnected)]) }),
                 "teams": .array(teams.map { .string($0) })])
    }
}

/// Checks on names people choose.
enum NameRules {
    /// Why `name` is not acceptable as a player or team name, or nil when it is.
    static func problem(with name: String, what: String) -> String? {
        if name.isEmpty { return "Choose a \(what) name." }
        if name.count > FieldLimits.name { return "A \(what) name has at most \(FieldLimits.name) characters." }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }) {
            return "A \(what) name cannot contain control characters."
        }
        if name.first == " " || name.last == " " { return "A \(what) name cannot start or end with a space." }
        if TextFolding.compact(name).isEmpty { return "A \(what) name needs at least one letter or digit." }
        return nil
    }
}
