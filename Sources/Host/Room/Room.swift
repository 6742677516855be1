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
    /// The short code a person types to come back (`rejoin NAME CODE`); nil in journals older than codes.
    var code: String?
    /// The address the player joined from, journaled so that joining again by name from the same computer works
    /// after a host restart too; nil in older journals.
    var address: String?
}

/// The lobby: who is in the room and in which team. Teams exist while they have players.
///
/// Lookups by id, name and team are dictionary lookups: a hall of thousands of players must not cost
/// a scan of the room for every message routed to a team.
struct Room {
    let code: String
    private(set) var players: [Player] = []
    private var nextNumber = 1
    /// Index of each player in `players`, by id.
    private var positions: [String: Int] = [:]
    /// Player id by name key (see `key`).
    private var idsByName: [String: String] = [:]
    /// Player ids by team key, in join order.
    private var idsByTeam: [String: [String]] = [:]
    /// Team keys in order of first appearance (teams whose last player left are dropped).
    private var teamOrder: [String] = []
    /// Each team's name as first written, kept after its last player left: one who joins it later joins the same
    /// team (whose points a running game kept).
    private var teamSpellings: [String: String] = [:]
    /// The players' rejoin codes: a join draws codes until one is free, which must not scan the room (issue 29).
    private var codes: Set<String> = []

    init(code: String) { self.code = code }

    /// The teams in order of first appearance, as first written.
    var teams: [String] {
        teamOrder.compactMap { idsByTeam[$0]?.first.flatMap(player(id:))?.team }
    }

    /// The player with `id`.
    func player(id: String) -> Player? { positions[id].map { players[$0] } }

    /// The player named `name`, ignoring case and accents.
    func player(named name: String) -> Player? { idsByName[Room.key(name)].flatMap(player(id:)) }

    /// The player named `name` if `code` is their rejoin code (any case), compared in constant time.
    func player(named name: String, code: String) -> Player? {
        guard let player = player(named: name), let own = player.code else { return nil }
        return Secrets.constantTimeEquals(own, code.uppercased()) ? player : nil
    }

    /// Whether some player has the rejoin code `code`.
    func hasPlayer(code: String) -> Bool { codes.contains(code) }

    /// The player whose token equals `token`, compared in constant time against every player.
    func player(token: String) -> Player? {
        var found: Player?
        for player in players where Secrets.constantTimeEquals(player.token, token) { found = player }
        return found
    }

    /// A team's players, in join order.
    func members(of team: String) -> [Player] { memberIDs(of: team).compactMap(player(id:)) }

    /// The ids of a team's players, in join order (without copying the players: a hall's start asks per team).
    func memberIDs(of team: String) -> [String] { idsByTeam[Room.key(team)] ?? [] }

    /// What makes two names the same name: case, accents, spaces and punctuation don't count ("Équipe" is "equipe"),
    /// and neither do look-alike letters of other scripts (the Cyrillic "Аnn" is "Ann"; `TextFolding.lookalikeKey`).
    static func key(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) {  // the common case, without Foundation's folding
            let compact = String(
                decoding: name.utf8.compactMap { byte -> UInt8? in
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 32
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return byte
                    default: return nil
                    }
                }, as: UTF8.self)
            return compact.isEmpty ? name.lowercased() : compact
        }
        let compact = TextFolding.lookalikeKey(name)
        return compact.isEmpty ? name.lowercased() : compact
    }

    /// The team's name as first written, for a name in any case.
    func canonicalTeam(_ team: String) -> String {
        members(of: team).first?.team ?? teamSpellings[Room.key(team)] ?? team
    }

    /// Adds a new player; the caller checked the name.
    mutating func add(
        name: String, team: String, token: String, code: String? = nil, address: String? = nil
    ) -> Player {
        let player = Player(
            id: "p\(nextNumber)", name: name, team: canonicalTeam(team), token: token, isConnected: true,
            disconnectedAt: nil, code: code, address: address)
        nextNumber += 1
        insert(player)
        return player
    }

    /// Restores a player from the journal.
    mutating func restore(_ player: Player) {
        remove(player.id)
        insert(player)
        if let number = Int(player.id.dropFirst()), number >= nextNumber { nextNumber = number + 1 }
    }

    private mutating func insert(_ player: Player) {
        positions[player.id] = players.count
        players.append(player)
        idsByName[Room.key(player.name)] = player.id
        let teamKey = Room.key(player.team)
        if idsByTeam[teamKey] == nil { teamOrder.append(teamKey) }
        if teamSpellings[teamKey] == nil { teamSpellings[teamKey] = player.team }
        idsByTeam[teamKey, default: []].append(player.id)
        if let code = player.code { codes.insert(code) }
    }

    mutating func setConnected(_ id: String, _ isConnected: Bool, at now: Int64) {
        guard let index = positions[id] else { return }
        players[index].isConnected = isConnected
        players[index].disconnectedAt = isConnected ? nil : now
    }

    /// Removes a player (kicked or expired); their token stops working.
    mutating func remove(_ id: String) {
        guard let index = positions.removeValue(forKey: id) else { return }
        let player = players.remove(at: index)
        for later in index..<players.count { positions[players[later].id] = later }
        idsByName[Room.key(player.name)] = nil
        if let code = player.code { codes.remove(code) }
        let teamKey = Room.key(player.team)
        idsByTeam[teamKey]?.removeAll { $0 == id }
        if idsByTeam[teamKey]?.isEmpty == true {
            idsByTeam[teamKey] = nil
            teamOrder.removeAll { $0 == teamKey }
        }
    }

    /// Players whose resume window ended.
    func expired(now: Int64, windowMilliseconds: Int64) -> [Player] {
        players.filter { !$0.isConnected && ($0.disconnectedAt.map { now - $0 >= windowMilliseconds } ?? false) }
    }
}

/// Checks on names people choose.
enum NameRules {
    /// Why `name` is not acceptable as a player or team name, or nil when it is.
    static func problem(with name: String, what: String) -> String? {
        if name.isEmpty { return "Choose a \(what) name." }
        if name.count > FieldLimits.name { return "A \(what) name has at most \(FieldLimits.name) characters." }
        if let problem = TerminalText.problem(in: name) { return problem.refusal("A \(what) name") }
        if name.unicodeScalars.contains("\u{FFFD}") {
            return "A \(what) name cannot contain \u{FFFD} (it stands for bytes that were not readable text)."
        }
        if name.first == " " || name.last == " " { return "A \(what) name cannot start or end with a space." }
        if TextFolding.compact(name).isEmpty { return "A \(what) name needs at least one letter or digit." }
        return nil
    }
}
