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
    /// The file, or nil for a game that keeps nothing (no data folder).
    let path: String?
    /// What the file holds, with this game's merges.
    private(set) var file = FlyRecordFile()
    /// Why the file could not be read, to tell the operator once.
    private(set) var problem: String?
    private var isUnread = false
    private var isDirty = false

    /// The records in `directory`'s `fly/records.json` (nil: memory only).
    init(directory: String?) {
        path = directory.map { $0 + "/fly/records.json" }
        guard let path, FileManager.default.fileExists(atPath: path) else { return }
        do {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw StorageError("it cannot be read")
            }
            file = try JSONCoding.decode(FlyRecordFile.self, from: Array(data))
        } catch {
            isUnread = true
            problem =
                "The Let Me Fly records \(path) could not be read (\(error)); this game starts from empty "
                + "records and the old file is kept beside it when the new one is saved."
        }
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
            file.records[existing] = record
        } else {
            file.records.append(record)
        }
        isDirty = true
    }

    /// Notes that `player` earned `id` in game `game` (kept with its first date).
    func award(_ id: String, to player: String, game: String, date: String) {
        let key = player.lowercased()
        var entry = file.achievements[key] ?? FlyRecordFile.PlayerAchievements(name: player, earned: [])
        guard !entry.earned.contains(where: { $0.id == id }) else { return }
        entry.earned.append(FlyRecordFile.Earned(id: id, date: date, game: game))
        file.achievements[key] = entry
        isDirty = true
    }

    /// Writes the file if anything changed; a failure is returned as a sentence for the operator.
    func save() -> String? {
        guard isDirty, let path else { return nil }
        do {
            let folder = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if isUnread, FileManager.default.fileExists(atPath: path) {
                _ = try Storage.setAside(path)
            }
            isUnread = false
            try Storage.writeAtomically(JSONEncoding.pretty(try JSONCoding.encode(file), sortingKeys: true), to: path)
            isDirty = false
            return nil
        } catch {
            return "Could not save the Let Me Fly records to \(path): \(error). Play goes on; they are kept in memory."
        }
    }

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

    /// The kept leaderboards as text (`partyline-host history --fly`, the console's `leaderboard`): tonight's when
    /// `tonight` (ISO 8601) says since when, then all time; a file that could not be read says so first.
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

extension FlyHost {
    /// The running game's leaderboard, then tonight's and all time, as text for the operator's console.
    func leaderboardLines(at now: Instant) -> [String] {
        let thisGame = game.results.map { FlyRecord($0, game: record.game, date: "") }
        return FlyRecordStore.lines(title: "This game", records: thisGame) + [""]
            + records.leaderboardLines(tonight: tonightSince(at: now))
    }
}
