import Protocol
import Rules

extension ShakyWire.Standing {
    /// The quiz rules' standings on the wire (Shaky Words and Odd One Out keep score alike).
    static func list(_ standings: [ShakyWords.Standing]) -> [ShakyWire.Standing] {
        standings.map { ShakyWire.Standing(team: $0.team, score: $0.score, rank: $0.rank, correct: $0.correctCount) }
    }
}
