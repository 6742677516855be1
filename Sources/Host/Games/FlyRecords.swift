import Foundation
import Protocol
import Rules

/// What the data folder keeps for Let Me Fly in `fly/records.json`: every throw that came down, dated, for the
/// all-time and tonight's leaderboards; and every achievement earned, per player name.
struct FlyRecordFile: Codable, Equatable {
    /// One achievement as kept: which, when, in which game.
    struct Earned: Codable, Equatable {
        var id: String
        var date: String
        var game: String
    }

    /// One player's achievements, under their name as first spelled.
    struct PlayerAchievements: Codable, Equatable {
        var name: String
        var earned: [Earned]
    }

    /// The file's layout version.
    var version = 1
    /// Every throw that came down, oldest first.
    var records: [FlyRecord] = []
    /// Achievements by player name, lower-cased.
    var achievements: [String: PlayerAchievements] = [:]
}

/// Let Me Fly's records on disk: read once when a game is made or restored, merged as the game goes on (by game,
/// round and player, so merging the same game twice — a replay after a crash — changes nothing), and written
/// atomically. A file that cannot be read is reported, kept beside as `records.json.broken-<n>` at the first save,
/// and the game plays on with empty records.
final class FlyRecordStore {
    /// The file (`fly/records.json`) and what it holds, with this game's merges.
    private var kept: KeptJSON<FlyRecordFile>
    /// The file, or nil for a game that keeps nothing (no data folder).
    var path: String? { kept.path }
    /// What the file holds, with this game's merges.
    var file: FlyRecordFile { kept.value }
    /// Why the file could not be read, to tell the operator once.
    var problem: String? { kept.problem }

    /// The records in `directory`'s `fly/records.json` (nil: memory only).
    init(directory: String?) {
        kept = KeptJSON(
            path: directory.map { $0 + "/fly/records.json" }, empty: FlyRecordFile(), title: "the Let Me Fly records",
            afresh: "this game starts from empty records")
    }

    /// The achievement ids `name` has earned (any case).
    func earned(by name: String) -> [String] {
        file.achievements[name.lowercased()]?.earned.map(\.id) ?? []
    }

    /// Adds (or replaces) the record of a throw of game `game`, dated `date` unless it is known already.
    func record(_ result: FlyCatch, game: String, date: String) {
        let existing = file.records.firstIndex {
            $0.game == game && $0.round == result.thrown.round && $0.player == result.thrown.player
        }
        var record = FlyRecord(result, game: game, date: date)
        if let existing {
            record.date = file.records[existing].date
            guard file.records[existing] != record else { return }
            kept.value.records[existing] = record
        } else {
            kept.value.records.append(record)
        }
        kept.noteChanged()
    }

    /// Notes that `player` earned `id` in game `game` (kept with its first date).
    func award(_ id: String, to player: String, game: String, date: String) {
        let key = player.lowercased()
        var entry = file.achievements[key] ?? FlyRecordFile.PlayerAchievements(name: player, earned: [])
        guard !entry.earned.contains(where: { $0.id == id }) else { return }
        entry.earned.append(FlyRecordFile.Earned(id: id, date: date, game: game))
        kept.value.achievements[key] = entry
        kept.noteChanged()
    }

    /// Writes the file if anything changed; a failure is returned as a sentence for the operator.
    func save() -> String? { kept.write() }

    /// ISO 8601 in UTC, second precision: the records' date format (text order is time order).
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

extension FlyRecordStore {
    /// The built-in phones' names by id, for tables.
    static let phoneNames = Dictionary(uniqueKeysWithValues: FlyPhone.builtin.map { ($0.id, $0.name) })

    /// One leaderboard as text for a terminal: players by their best caught throw, then the phones.
    static func lines(title: String, records: [FlyRecord]) -> [String] {
        FlyLeaderboard.lines(
            title: title, players: FlyLeaderboard.players(records), phones: FlyLeaderboard.phones(records),
            phoneNames: phoneNames)
    }

    /// The leaderboard of `scope` on the wire, ranked from `records` (phones tied in height listed in `phoneOrder`).
    static func leaderboard(_ scope: FlyWire.Scope, records: [FlyRecord], phoneOrder: [String]) -> FlyWire.Leaderboard {
        let players = FlyLeaderboard.players(records).map {
            FlyWire.PlayerRow(
                rank: $0.rank, player: $0.player, heightM: FlyWire.metres($0.heightMm), phone: $0.phone,
                points: $0.points, date: scope == .game ? nil : $0.date)
        }
        let phones = FlyLeaderboard.phones(records, order: phoneOrder).map {
            FlyWire.PhoneRow(
                rank: $0.rank, phone: $0.phone, heightM: FlyWire.metres($0.heightMm), player: $0.player,
                throwCount: $0.throwCount, caughtCount: $0.caughtCount)
        }
        return FlyWire.Leaderboard(scope: scope.rawValue, players: players, phones: phones)
    }

    /// The throws of the game recorded last (the running one once a throw of it came down).
    var latestGame: [FlyRecord] {
        guard let last = file.records.last?.game else { return [] }
        return file.records.filter { $0.game == last }
    }

    /// The kept leaderboards as text: tonight's when `tonight` (ISO 8601) says since when, then all time; a file
    /// that could not be read says so first.
    func leaderboardLines(tonight: String? = nil) -> [String] {
        var lines: [String] = problem.map { [$0, ""] } ?? []
        if let tonight {
            lines += FlyRecordStore.lines(title: "Tonight", records: FlyLeaderboard.since(tonight, file.records))
            lines.append("")
        }
        lines += FlyRecordStore.lines(title: "All-time", records: file.records)
        return lines
    }
}

/// Let Me Fly's records as an operator tool: the console's `leaderboard [game|tonight|all]`, admin clients'
/// `{"type":"flyRecords","action":"leaderboard","scope":…}` and `partyline-host history --fly [game|tonight|all]`.
///
/// It reads `fly/records.json` afresh each time, so it shows the throws of a game still running (each is saved as it
/// comes down). The reply is a `content` of kind `flyRecords`: the boards as data, and as tables for people.
final class FlyRecordsTool: OperatorTool {
    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    var noun: String { "fly" }
    var aliases: [String] { ["leaderboard", "leaderboards"] }
    var requestType: String { "flyRecords" }
    var usage: [String] {
        ["leaderboard [game|tonight|all]  Let Me Fly's best throws"]
    }

    /// When tonight began, for a game that starts now.
    var eveningStart: Date? { storage.eveningStart }

    func parse(_ words: [String]) -> ToolRequest? {
        var rest = words.map { $0.lowercased() }
        var action = "leaderboard"
        if let first = rest.first, ["leaderboard", "leaderboards", "history", "top"].contains(first) {
            action = first == "history" ? "history" : "leaderboard"
            rest.removeFirst()
        }
        guard rest.count <= 1 else { return nil }
        guard let word = rest.first else { return ToolRequest(action: action) }
        return ToolRequest(action: action, fields: ["scope": .string(FlyWire.Scope(word: word)?.rawValue ?? word)])
    }

    func run(_ request: ToolRequest, caller: ToolCaller) throws(RuleError) -> any HostMessage {
        guard ["leaderboard", "history"].contains(request.action) else {
            throw RuleError(
                .unknownCommand,
                "Let Me Fly's records answer \"leaderboard\" (with a scope: game, tonight or allTime).")
        }
        let scopes: [FlyWire.Scope]
        if let word = request.fields["scope"]?.stringValue {
            guard let scope = FlyWire.Scope(rawValue: word) ?? FlyWire.Scope(word: word) else {
                throw RuleError(
                    .badField, "There is no leaderboard \"\(word)\": say game, tonight or all (allTime).")
            }
            scopes = [scope]
        } else {
            // `history --fly` prints the all-time table; the console's `leaderboard` tonight's and all time.
            scopes = request.action == "history" || eveningStart == nil ? [.allTime] : [.tonight, .allTime]
        }
        let store = FlyRecordStore(directory: storage.directory)
        let order = FlyPhone.builtin.map(\.id)
        var boards: [JSONValue] = []
        var lines: [String] = store.problem.map { [$0, ""] } ?? []
        for scope in scopes {
            let records: [FlyRecord]
            let title: String
            switch scope {
            case .game:
                records = store.latestGame
                title = records.first.map { "Latest game (\(FlyRecordsTool.local($0.date)))" } ?? "Latest game"
            case .tonight:
                guard let since = eveningStart else {
                    let all = caller == .commandLine ? "partyline-host history --fly all" : "leaderboard all"
                    throw RuleError(
                        .badOption,
                        "Tonight counts from when the host opened the room, and no host has noted that in "
                            + "\(storage.directory) yet; `\(all)` shows every throw kept.")
                }
                records = FlyLeaderboard.since(FlyRecordStore.date(since), store.file.records)
                title = "Tonight (since \(FlyRecordsTool.local(FlyRecordStore.date(since))))"
            case .allTime:
                records = store.file.records
                title = "All-time"
            }
            if lines.count > (store.problem == nil ? 0 : 2) { lines.append("") }
            lines += FlyRecordStore.lines(title: title, records: records)
            let board = FlyRecordStore.leaderboard(scope, records: records, phoneOrder: order)
            boards.append((try? JSONCoding.encode(board)) ?? .null)
        }
        let named = scopes.map { $0 == .allTime ? "all time" : $0 == .game ? "the latest game" : $0.rawValue }
        return ContentDetail(
            kind: requestType, id: "leaderboard", name: "Let Me Fly, " + named.joined(separator: " and "),
            builtin: false, item: .object(["boards": .array(boards)]), lines: lines)
    }

    /// `2025-06-14 21:03` in the host's time zone, from an ISO 8601 date.
    static func local(_ iso: String) -> String {
        guard let date = ISO8601DateFormatter().date(from: iso) else { return iso }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
