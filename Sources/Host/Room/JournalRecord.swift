import Protocol

/// One record of the journal (`journal.jsonl`), the room's history from which `--resume` rebuilds it.
///
/// On disk each is a JSON object with its kind in `k`; its one codec is below. Game events are written on the
/// hot path as JSON text already encoded by the game (`eventPrefix`), so they are never parsed to be re-encoded.
enum JournalRecord: Codable, Equatable {
    /// The room was created with this code and admin key; `opened` is when, on the wall clock (ISO 8601, UTC): the
    /// evening's start, which a resumed host keeps (absent in journals written before hosts noted it).
    case room(code: String, adminKey: String, at: Int64, opened: String?)
    /// A player joined.
    case join(Player)
    /// A player left for good (kicked or expired).
    case leave(playerID: String)
    /// A game started from this record.
    case start(game: String, record: JSONValue, at: Int64)
    /// The running game accepted this event at this instant.
    case event(at: Int64, event: JSONValue)
    /// The running game ended.
    case gameEnd
    /// The operator barred a name and its address for the rest of the evening.
    case ban(name: String, address: String?)
    /// The operator let a name back in.
    case unban(name: String)
    /// Newcomers wait for the next game (true) or join the running one (false).
    case lock(Bool)
    /// The host stopped cleanly with no game running: nothing here needs resuming.
    case closed

    /// A lease on the game clock: no `hostTime` after `at` goes out before a later lease is journaled, so a
    /// resumed host's clock starts at the last lease and clients never see it run backwards. Renewed while anyone
    /// is connected, `clockInterval` ahead, after the turn's output is written (no message waits for it).
    case clock(at: Int64)

    /// How far ahead a clock lease reaches, in ms: the most an open clock can lose across a crash.
    static let clockInterval: Int64 = 1000

    private enum Kind: String, Codable {
        case room, join, leave, start, event, gameEnd, ban, unban, lock, closed, clock
    }

    private enum CodingKeys: String, CodingKey {
        case k, room, adminKey, at, opened, player, game, record, event, name, address, locked
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        switch try fields.decode(Kind.self, forKey: .k) {
        case .room:
            self = .room(
                code: try fields.decode(String.self, forKey: .room),
                adminKey: try fields.decode(String.self, forKey: .adminKey),
                at: try fields.decodeIfPresent(Int64.self, forKey: .at) ?? 0,
                opened: try fields.decodeIfPresent(String.self, forKey: .opened))
        case .join: self = .join(try fields.decode(Player.self, forKey: .player))
        case .leave: self = .leave(playerID: try fields.decode(String.self, forKey: .player))
        case .start:
            self = .start(
                game: try fields.decode(String.self, forKey: .game),
                record: try fields.decode(JSONValue.self, forKey: .record),
                at: try fields.decodeIfPresent(Int64.self, forKey: .at) ?? 0)
        case .event:
            self = .event(
                at: try fields.decode(Int64.self, forKey: .at), event: try fields.decode(JSONValue.self, forKey: .event)
            )
        case .gameEnd: self = .gameEnd
        case .ban:
            self = .ban(
                name: try fields.decode(String.self, forKey: .name),
                address: try fields.decodeIfPresent(String.self, forKey: .address))
        case .unban: self = .unban(name: try fields.decode(String.self, forKey: .name))
        case .lock: self = .lock(try fields.decode(Bool.self, forKey: .locked))
        case .closed: self = .closed
        case .clock: self = .clock(at: try fields.decode(Int64.self, forKey: .at))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .room(let code, let adminKey, let at, let opened):
            try fields.encode(Kind.room, forKey: .k)
            try fields.encode(code, forKey: .room)
            try fields.encode(adminKey, forKey: .adminKey)
            try fields.encode(at, forKey: .at)
            try fields.encodeIfPresent(opened, forKey: .opened)
        case .join(let player):
            try fields.encode(Kind.join, forKey: .k)
            try fields.encode(player, forKey: .player)
        case .leave(let playerID):
            try fields.encode(Kind.leave, forKey: .k)
            try fields.encode(playerID, forKey: .player)
        case .start(let game, let record, let at):
            try fields.encode(Kind.start, forKey: .k)
            try fields.encode(game, forKey: .game)
            try fields.encode(record, forKey: .record)
            try fields.encode(at, forKey: .at)
        case .event(let at, let event):
            try fields.encode(Kind.event, forKey: .k)
            try fields.encode(at, forKey: .at)
            try fields.encode(event, forKey: .event)
        case .gameEnd:
            try fields.encode(Kind.gameEnd, forKey: .k)
        case .ban(let name, let address):
            try fields.encode(Kind.ban, forKey: .k)
            try fields.encode(name, forKey: .name)
            try fields.encodeIfPresent(address, forKey: .address)
        case .unban(let name):
            try fields.encode(Kind.unban, forKey: .k)
            try fields.encode(name, forKey: .name)
        case .lock(let isLocked):
            try fields.encode(Kind.lock, forKey: .k)
            try fields.encode(isLocked, forKey: .locked)
        case .closed:
            try fields.encode(Kind.closed, forKey: .k)
        case .clock(let at):
            try fields.encode(Kind.clock, forKey: .k)
            try fields.encode(at, forKey: .at)
        }
    }

    /// The JSON text of an event record up to its `event` member, for events written as already-encoded text:
    /// `{"k":"event","at":123,"event":` — the caller appends the event's JSON and `}`.
    static func eventPrefix(at milliseconds: Int64) -> [UInt8] {
        var text = JSONEncoding.encode(.object([CodingKeys.k.stringValue: .string(Kind.event.rawValue)]))
        text.removeLast()  // the closing brace
        text += Array(",\"\(CodingKeys.at.stringValue)\":\(milliseconds),\"\(CodingKeys.event.stringValue)\":".utf8)
        return text
    }
}
