import Foundation
import Protocol
import Rules

/// The room a journal describes, rebuilt by replaying its records.
struct ResumedState {
    var room: String
    var adminKey: String
    var players: [Player] = []
    var game: (any HostedGame)?
    /// The game-clock time of the last record: the clock continues from here.
    var lastClock: Int64 = 0
    var notes: [String] = []
}

enum JournalReplay {
    /// Reads the journal at `path` and replays it; throws when it cannot be trusted.
    static func load(path: String, catalog: ModeCatalog = .standard) throws -> ResumedState {
        guard let data = FileManager.default.contents(atPath: path) else { throw StorageError("there is no journal at \(path)") }
        let reading = JournalFormat.read(Array(data))
        guard reading.damagedLines.isEmpty else {
            throw StorageError("the journal \(path) is damaged at line(s) \(reading.damagedLines.map(String.init).joined(separator: ", ")); "
                + "it was left untouched. Start with --fresh (the old journal is kept beside the new one) or repair it.")
        }
        guard let first = reading.records.first, first["k"]?.stringValue == "room",
              let room = first["room"]?.stringValue, let key = first["adminKey"]?.stringValue else {
            throw StorageError("the journal \(path) does not start with a room record")
        }
        var state = ResumedState(room: room, adminKey: key)
        if reading.isTornAtEnd {
            state.notes.append("The journal's last record was cut short (the host stopped mid-write); loaded everything before it.")
        }
        var playersByID: [String: Player] = [:]
        var order: [String] = []
        for record in reading.records {
            if let at = record["at"]?.intValue { state.lastClock = max(state.lastClock, at) }
            switch record["k"]?.stringValue {
            case "join":
                if let json = record["player"], let player = try? JSONCoding.decode(Player.self, from: json) {
                    if playersByID[player.id] == nil { order.append(player.id) }
                    playersByID[player.id] = player
                }
            case "leave":
                if let id = record["player"]?.stringValue { playersByID[id] = nil; order.removeAll { $0 == id } }
            case "start":
                guard let name = record["game"]?.stringValue, let startRecord = record["record"] else { continue }
                state.game = try catalog.restore(game: name, record: startRecord)
            case "event":
                guard let game = state.game, let event = record["event"], let at = record["at"]?.intValue else { continue }
                try game.replay(event, at: Instant(milliseconds: at))
            case "gameEnd":
                state.game = nil
            default:
                continue
            }
        }
        state.players = order.compactMap { playersByID[$0] }.map {
            var player = $0
            player.isConnected = false
            player.disconnectedAt = state.lastClock
            return player
        }
        if let game = state.game, game.isFinished { state.game = nil }
        return state
    }
}
