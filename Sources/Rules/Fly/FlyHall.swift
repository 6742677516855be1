/// Let Me Fly for a hall (more players than a room shows everyone): what each reader is shown instead of every
/// throw — the top of this game's catches, counts of the rest, and a ranking cut to its top and the reader's team.
/// Pure: everything is read from the game as it stands.
public enum FlyHall {
    /// Rows on the live board of a hall.
    public static let boardSize = 5
    /// Players of a cut ranking shown from its top.
    public static let rankingTop = 10
    /// Names a spectator's cut list (who did not throw) shows at most.
    public static let namesShown = 20

    /// One player's best caught throw of this game, for the live board.
    public struct BoardRow: Sendable, Equatable {
        /// The player.
        public var player: String
        /// Their team.
        public var team: String
        /// Their best caught throw (not dropped), mm.
        public var heightMm: Int
        /// The phone it was thrown with.
        public var phone: String
    }

    /// This game's highest catches, one per player, highest first (earlier first on a tie), at most `limit`.
    public static func board(_ results: some Sequence<FlyCatch>, limit: Int = boardSize) -> [BoardRow] {
        var best: [String: (row: BoardRow, order: Int)] = [:]
        for (order, result) in results.enumerated() where result.quality != .dropped {
            let key = result.thrown.player.lowercased()
            if let held = best[key], held.row.heightMm >= result.thrown.heightMm { continue }
            best[key] = (
                BoardRow(
                    player: result.thrown.player, team: result.thrown.team, heightMm: result.thrown.heightMm,
                    phone: result.thrown.phone), order
            )
        }
        let sorted = best.values.sorted { lhs, rhs in
            lhs.row.heightMm != rhs.row.heightMm ? lhs.row.heightMm > rhs.row.heightMm : lhs.order < rhs.order
        }
        return sorted.prefix(limit).map(\.row)
    }

    /// `rows` (a board as `board` made it) with one more result counted: the same board `board` makes of the results
    /// with it.
    public static func board(_ rows: [BoardRow], adding result: FlyCatch, limit: Int = boardSize) -> [BoardRow] {
        guard result.quality != .dropped else { return rows }
        let key = result.thrown.player.lowercased()
        var rows = rows
        if let held = rows.firstIndex(where: { $0.player.lowercased() == key }) {
            guard rows[held].heightMm < result.thrown.heightMm else { return rows }
            rows.remove(at: held)
        }
        let row = BoardRow(
            player: result.thrown.player, team: result.thrown.team, heightMm: result.thrown.heightMm,
            phone: result.thrown.phone)
        let position = rows.firstIndex { $0.heightMm < row.heightMm } ?? rows.endIndex
        rows.insert(row, at: position)
        return Array(rows.prefix(limit))
    }

    /// How the round stands, counted over every player.
    public struct Tally: Sendable, Equatable {
        /// The round, from 1.
        public var round: Int
        /// Players in the game (active ones).
        public var players: Int
        /// Phones thrown this round.
        public var thrown: Int
        /// Phones in the air now.
        public var inAir: Int
        /// Caught cleanly this round.
        public var clean: Int
        /// Fumbled this round.
        public var fumbled: Int
        /// Dropped this round.
        public var dropped: Int
        /// Did not throw this round (once its clock ran out).
        public var missed: Int
    }

    /// The current round's counts.
    public static func tally(_ game: LetMeFly) -> Tally {
        var tally = Tally(
            round: game.roundNumber, players: 0, thrown: 0, inAir: 0, clean: 0, fumbled: 0, dropped: 0, missed: 0)
        for player in game.players where player.isActive {
            tally.players += 1
            switch player.turn {
            case .waiting: break
            case .missed: tally.missed += 1
            case .inAir:
                tally.thrown += 1
                tally.inAir += 1
            case .done(let result):
                tally.thrown += 1
                switch result.quality {
                case .clean: tally.clean += 1
                case .fumbled: tally.fumbled += 1
                case .dropped: tally.dropped += 1
                }
            }
        }
        return tally
    }

    /// `standings` cut for a reader: the top `rankingTop` and every player of `team` (nil: the top only), in order.
    public static func cut(_ standings: [FlyStanding], team: String?, top: Int = rankingTop) -> [FlyStanding] {
        let key = team?.lowercased()
        return standings.enumerated().filter { $0.offset < top || $0.element.team.lowercased() == key }.map(\.element)
    }
}
