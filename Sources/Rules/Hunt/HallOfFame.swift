import Common

/// The best times ever run on one hunt, kept across games: teams that finished every station, fastest first
/// (total time including penalties), at most `size` of them.
public struct HallOfFame: Codable, Sendable, Equatable, Hashable {
    /// How many entries a hall keeps.
    public static let size = 10

    /// One finished run.
    public struct Entry: Codable, Sendable, Equatable, Hashable {
        /// The team.
        public var team: String
        /// Its total time, penalties included, in milliseconds.
        public var totalMs: Int64
        /// The penalties in that total (wrong answers and hints), in milliseconds.
        public var penaltiesMs: Int64
        /// The day it was run (`2025-06-01`).
        public var date: String
        /// Which game it was run in (so a game recorded twice counts once).
        public var game: String

        /// Creates an entry.
        public init(team: String, totalMs: Int64, penaltiesMs: Int64, date: String, game: String) {
            self.team = team
            self.totalMs = totalMs
            self.penaltiesMs = penaltiesMs
            self.date = date
            self.game = game
        }
    }

    /// The hunt's id.
    public var hunt: String
    /// The hunt's name when the hall was last written.
    public var name: String
    /// The best runs, fastest first.
    public private(set) var entries: [Entry]

    /// An empty hall for a hunt.
    public init(hunt: String, name: String, entries: [Entry] = []) {
        self.hunt = hunt
        self.name = name
        self.entries = []
        record(entries)
    }

    /// Adds `runs` (a run already recorded for the same game and team is not added again) and keeps the best
    /// `size`, fastest first; equal times keep the earlier run first.
    public mutating func record(_ runs: [Entry]) {
        var all = entries
        for run in runs where !all.contains(where: { $0.game == run.game && ContentNames.same($0.team, run.team) }) {
            all.append(run)
        }
        entries = Array(
            all.enumerated().sorted { ($0.element.totalMs, $0.offset) < ($1.element.totalMs, $1.offset) }
                .map(\.element).prefix(Self.size))
    }

    /// The 1-based place each entry holds (equal times share a place).
    public func place(of entry: Entry) -> Int { 1 + entries.count { $0.totalMs < entry.totalMs } }

    /// What people call the hall: `Hall of fame of The party hunt`.
    public var title: String { "Hall of fame of \(name)" }

    /// The places for people (`history --hunt`), one line each: `#1  Red  12:34 (+1:00 penalties)  2025-06-01`,
    /// team names in one column; one sentence when nobody has finished the hunt yet.
    public func lines() -> [String] {
        guard !entries.isEmpty else { return ["Nobody has finished this hunt yet."] }
        let width = min(24, entries.map(\.team.count).max() ?? 4)
        return entries.map { entry in
            let team =
                entry.team.count >= width
                ? entry.team : entry.team + String(repeating: " ", count: width - entry.team.count)
            let penalty = entry.penaltiesMs > 0 ? " (+\(Self.clock(entry.penaltiesMs)) penalties)" : ""
            return "#\(place(of: entry))  \(team)  \(Self.clock(entry.totalMs))\(penalty)  \(entry.date)"
        }
    }

    /// `12:34`, or `1:02:03` from an hour, for a time in milliseconds (rounded down to the second).
    public static func clock(_ milliseconds: Int64) -> String { DurationText.clock(milliseconds) }

    /// Reads a hall from its JSON file; errors name the line.
    public static func decode(bytes: [UInt8]) throws(RuleError) -> HallOfFame {
        let file = try JSONFile(bytes: bytes, expecting: "one JSON object with \"hunt\" and \"entries\"")
        return try file.decode(HallOfFame.self)
    }

    /// The hall as pretty-printed JSON.
    public func encoded() -> [UInt8] {
        JSONEncoding.pretty((try? JSONCoding.encode(self)) ?? .null, sortingKeys: true)
    }

    private enum CodingKeys: String, CodingKey { case hunt, name, entries }

    /// Decodes a hall, keeping its entries' rules (sorted, at most `size`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            hunt: container.decode(String.self, forKey: .hunt), name: container.decode(String.self, forKey: .name),
            entries: container.decode([Entry].self, forKey: .entries))
    }
}
