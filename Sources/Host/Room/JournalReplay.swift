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
    /// Names the operator barred for the evening, with the address each was barred at ("" when none).
    var bans: [String: String] = [:]
    /// Whether newcomers wait for the next game.
    var isLocked = false
    /// Newcomers a locked room held back from the running game.
    var heldForNextGame: Set<String> = []
    /// What the games that ended before the journal stopped had shown (question texts, puzzles…, as keys).
    var played: Set<String> = []
    /// Whether the last record says the host stopped cleanly with no game running.
    var wasClosedCleanly = false
    /// Bytes of the journal that are whole records; a damaged tail after them is cut off before appending.
    var wholeLength = 0
    var notes: [String] = []

    /// Where the resumed game clock starts: at the last clock lease (or event), past every `hostTime` clients
    /// saw before the stop, so no clock runs backwards for them.
    var resumedClock: Int64 { lastClock }
}

extension ResumedState {
    /// Whether resuming brings back anything: players, or a game (not a host that stopped cleanly between games).
    var isWorthResuming: Bool { game != nil || (!players.isEmpty && !wasClosedCleanly) }

    /// What would come back, as the resume question says it: `The last host stopped during Shaky Words · question
    /// 3/10 · question open (room KXQT, 5 players: Ann, Bob, Cid, Dee, …)`.
    var summary: String {
        let names = players.prefix(4).map(\.name).joined(separator: ", ") + (players.count > 4 ? ", …" : "")
        let who = players.isEmpty ? "nobody" : Wording.count(players.count, "player") + ": \(names)"
        guard let game else { return "The last host stopped between games (room \(room), \(who))" }
        return "The last host stopped during \(game.statusLine) (room \(room), \(who))"
    }
}

enum JournalReplay {
    /// Reads the journal at `path` and replays it; throws when it cannot be trusted.
    static func load(path: String, catalog: ModeCatalog = .standard) throws -> ResumedState {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StorageError("there is no journal at \(path)")
        }
        let reading = JournalFormat.read(Array(data))
        guard reading.damagedLines.isEmpty else {
            throw StorageError(
                "the journal \(path) is damaged at line(s) \(reading.damagedLines.map(String.init).joined(separator: ", ")); "
                    + "it was left untouched. Start with --fresh (the old journal is kept beside the new one) or repair it."
            )
        }
        let records = reading.records.compactMap { try? JSONCoding.decode(JournalRecord.self, from: .object($0)) }
        guard records.count == reading.records.count, case .room(let room, let key, _, _)? = records.first else {
            throw StorageError(
                "the journal \(path) does not start with a room record, or holds a record this host cannot read")
        }
        // The room record is input like any other: a checksum only says it was not damaged, not that it is sound.
        guard HostOptions.isRoomCode(room), room == room.uppercased() else {
            throw StorageError(
                "the journal \(path) names the room \"\(TerminalText.sanitized(room))\", which is no room code "
                    + "(2 to 12 capital letters or digits); it was left untouched. Start with --fresh or repair it.")
        }
        guard HostOptions.isAdminKey(key) else {
            throw StorageError(
                "the journal \(path) holds an admin key that is not 4 to 128 characters without spaces, so nobody "
                    + "could be trusted to operate the room; it was left untouched. Start with --fresh or repair it.")
        }
        var state = ResumedState(room: room, adminKey: key)
        state.wholeLength = reading.wholeLength
        if reading.isTornAtEnd {
            state.notes.append(
                "The journal's last record was cut short (the host stopped mid-write); loaded everything before it.")
        }
        var playersByID: [String: Player] = [:]
        var order: [String] = []
        for record in records {
            switch record {
            case .room(_, _, let at, _), .start(_, _, let at), .event(let at, _), .clock(let at):
                state.lastClock = max(state.lastClock, at)
            default:
                break
            }
            switch record {
            case .room, .clock:
                continue
            case .join(let player):
                if playersByID[player.id] == nil {
                    order.append(player.id)
                    // A newcomer to a locked room's running game waits for the next one, as it did live.
                    if state.isLocked, let game = state.game, (game as? any RosterAware)?.includes(player) != true {
                        state.heldForNextGame.insert(player.id)
                    }
                }
                playersByID[player.id] = player
            case .leave(let id):
                playersByID[id] = nil
                order.removeAll { $0 == id }
            case .start(let name, let startRecord, _):
                state.game = try catalog.restore(game: name, record: startRecord)
                state.heldForNextGame = []
            case .event(let at, let event):
                guard let game = state.game else { continue }
                try game.replay(event, at: Instant(milliseconds: at))
            case .gameEnd:
                if let game = state.game { state.played.formUnion(game.record.playedContent) }
                state.game = nil
            case .ban(let name, let address):
                state.bans[name] = address ?? ""
            case .unban(let name):
                state.bans[name] = nil
            case .lock(let isLocked):
                state.isLocked = isLocked
            case .closed:
                break
            }
            if case .closed = record { state.wasClosedCleanly = true } else { state.wasClosedCleanly = false }
        }
        state.players = order.compactMap { playersByID[$0] }.map {
            var player = $0
            player.isConnected = false
            player.disconnectedAt = state.lastClock
            return player
        }
        if let game = state.game, game.status.isFinished { state.game = nil }
        return state
    }
}
