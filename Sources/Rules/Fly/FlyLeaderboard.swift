/// One throw as the host's records keep it for all-time leaderboards: who, with which phone, how high, when.
public struct FlyRecord: Codable, Sendable, Equatable {
    /// The game's id (one per game started).
    public var game: String
    /// The round it was thrown in.
    public var round: Int
    /// Who threw.
    public var player: String
    /// Their team.
    public var team: String
    /// The phone's id.
    public var phone: String
    /// Height reached, mm.
    public var heightMm: Int
    /// Time in the air, ms.
    public var airMs: Int64
    /// How it was caught.
    public var quality: FlyQuality
    /// Points won.
    public var points: Int
    /// When, as ISO 8601 in UTC (`2025-06-14T21:03:11Z`), so that text order is time order.
    public var date: String

    /// Creates a record.
    public init(
        game: String, round: Int, player: String, team: String, phone: String, heightMm: Int, airMs: Int64,
        quality: FlyQuality, points: Int, date: String
    ) {
        self.game = game
        self.round = round
        self.player = player
        self.team = team
        self.phone = phone
        self.heightMm = heightMm
        self.airMs = airMs
        self.quality = quality
        self.points = points
        self.date = date
    }

    /// The record of a throw that came down in game `game`, dated `date`.
    public init(_ result: FlyCatch, game: String, date: String) {
        self.init(
            game: game, round: result.thrown.round, player: result.thrown.player, team: result.thrown.team,
            phone: result.thrown.phone, heightMm: result.thrown.heightMm, airMs: result.thrown.airMs,
            quality: result.quality, points: result.points, date: date)
    }

    /// Whether the phone was caught (clean or fumbled): only caught throws make a leaderboard.
    public var isCaught: Bool { quality != .dropped }
}

/// Leaderboards: pure functions from throw records to ranked rows, per player and per phone.
public enum FlyLeaderboard {
    /// A player's best caught throw.
    public struct PlayerRow: Codable, Sendable, Equatable {
        /// Competition rank by height (1, 1, 3).
        public var rank: Int
        /// The player (as they last spelled it).
        public var player: String
        /// Their highest caught throw, mm.
        public var heightMm: Int
        /// The phone it was thrown with.
        public var phone: String
        /// The points it won.
        public var points: Int
        /// When it was thrown (ISO 8601).
        public var date: String
    }

    /// A phone's record.
    public struct PhoneRow: Codable, Sendable, Equatable {
        /// Rank by best height (1, 1, 3).
        public var rank: Int
        /// The phone's id.
        public var phone: String
        /// Its highest caught throw, mm (0 when never caught).
        public var heightMm: Int
        /// Who threw that (empty when never caught).
        public var player: String
        /// Throws with it.
        public var throwCount: Int
        /// Of which caught.
        public var caughtCount: Int
    }

    /// The records dated at or after `date` (ISO 8601, UTC): tonight's, when `date` is when the host started.
    public static func since(_ date: String, _ records: [FlyRecord]) -> [FlyRecord] {
        records.filter { $0.date >= date }
    }

    /// Each player's best caught throw, highest first (ties: earlier first, then by name); at most `limit`.
    public static func players(_ records: [FlyRecord], limit: Int = 10) -> [PlayerRow] {
        var best: [String: FlyRecord] = [:]
        for record in records where record.isCaught {
            let key = record.player.lowercased()
            if let current = best[key], !isBetter(record, than: current) { continue }
            best[key] = record
        }
        let ordered = best.values.sorted { isBetter($0, than: $1) }.prefix(max(0, limit))
        var rows: [PlayerRow] = []
        for (offset, record) in ordered.enumerated() {
            let rank = offset > 0 && rows[offset - 1].heightMm == record.heightMm ? rows[offset - 1].rank : offset + 1
            rows.append(
                PlayerRow(
                    rank: rank, player: record.player, heightMm: record.heightMm, phone: record.phone,
                    points: record.points, date: record.date))
        }
        return rows
    }

    /// Every phone that was thrown, by its highest caught throw (ties: the earlier record first, then more catches,
    /// then `order`).
    public static func phones(_ records: [FlyRecord], order: [String] = FlyPhone.builtin.map(\.id)) -> [PhoneRow] {
        var rows: [String: PhoneRow] = [:]
        var best: [String: FlyRecord] = [:]
        for record in records {
            var row =
                rows[record.phone]
                ?? PhoneRow(rank: 0, phone: record.phone, heightMm: 0, player: "", throwCount: 0, caughtCount: 0)
            row.throwCount += 1
            if record.isCaught {
                row.caughtCount += 1
                if best[record.phone].map({ isBetter(record, than: $0) }) ?? true {
                    best[record.phone] = record
                    row.heightMm = record.heightMm
                    row.player = record.player
                }
            }
            rows[record.phone] = row
        }
        func position(_ id: String) -> Int { order.firstIndex(of: id) ?? order.count }
        let ordered = rows.values.sorted { lhs, rhs in
            if lhs.heightMm != rhs.heightMm { return lhs.heightMm > rhs.heightMm }
            let (left, right) = (best[lhs.phone]?.date ?? "", best[rhs.phone]?.date ?? "")
            if left != right { return left < right }
            if lhs.caughtCount != rhs.caughtCount { return lhs.caughtCount > rhs.caughtCount }
            if position(lhs.phone) != position(rhs.phone) { return position(lhs.phone) < position(rhs.phone) }
            return lhs.phone < rhs.phone
        }
        var ranked: [PhoneRow] = []
        for (offset, row) in ordered.enumerated() {
            var row = row
            row.rank = offset > 0 && ranked[offset - 1].heightMm == row.heightMm ? ranked[offset - 1].rank : offset + 1
            ranked.append(row)
        }
        return ranked
    }

    /// Higher first; equal heights: the earlier throw first, then by name.
    private static func isBetter(_ lhs: FlyRecord, than rhs: FlyRecord) -> Bool {
        if lhs.heightMm != rhs.heightMm { return lhs.heightMm > rhs.heightMm }
        if lhs.date != rhs.date { return lhs.date < rhs.date }
        return lhs.player.lowercased() < rhs.player.lowercased()
    }

    /// The two tables as text for a terminal (the console's `leaderboard`, `partyline-host history --fly`):
    /// at most 64 columns, names cut to fit, dates as YYYY-MM-DD.
    public static func lines(
        title: String, players: [PlayerRow], phones: [PhoneRow], phoneNames: [String: String] = [:]
    ) -> [String] {
        func name(_ id: String) -> String { phoneNames[id] ?? id }
        var lines = ["\(title) — players"]
        if players.isEmpty {
            lines.append("  (no caught throws yet)")
        } else {
            lines.append(
                "  " + column("#", 4) + column("Player", 16) + column("Height", 10) + column("Phone", 12)
                    + column("Points", 8, right: true) + "  Date")
            for row in players {
                lines.append(
                    "  " + column("\(row.rank)", 4) + column(row.player, 16)
                        + column(FlyPhysics.metres(row.heightMm), 10)
                        + column(name(row.phone), 12) + column("\(row.points)", 8, right: true) + "  "
                        + String(row.date.prefix(10)))
            }
        }
        lines.append("\(title) — phones")
        if phones.isEmpty {
            lines.append("  (no throws yet)")
        } else {
            lines.append(
                "  " + column("#", 4) + column("Phone", 12) + column("Best", 10) + column("By", 16)
                    + column("Throws", 8, right: true) + column("Caught", 8, right: true))
            for row in phones {
                lines.append(
                    "  " + column("\(row.rank)", 4) + column(name(row.phone), 12)
                        + column(row.heightMm > 0 ? FlyPhysics.metres(row.heightMm) : "—", 10)
                        + column(row.player.isEmpty ? "—" : row.player, 16)
                        + column("\(row.throwCount)", 8, right: true)
                        + column("\(row.caughtCount)", 8, right: true))
            }
        }
        return lines
    }

    /// `text` cut or padded to `width` characters (right-aligned when `right`), with one space kept before the
    /// next column.
    private static func column(_ text: String, _ width: Int, right: Bool = false) -> String {
        let cut = text.count > width - 1 ? String(text.prefix(width - 2)) + "…" : text
        let padding = String(repeating: " ", count: max(0, width - cut.count))
        return right ? padding + cut : cut + padding
    }
}
