import Protocol
import Testing

/// A hall's cut copies of a growing list (PROTOCOL.md §6.0.1): whatever changes, a player's copy followed by its
/// deltas is the cut of the new whole list, with `total`.
@Suite("Hall lists")
struct HallListTests {
    /// A progress of `teams` teams (`T0`…), the solved stations of each given by `stations`.
    static func progress(_ stations: [Int], seq: Int) -> HuntWire.Progress {
        HuntWire.Progress(
            teams: stations.enumerated().map {
                HuntWire.TeamProgress(
                    team: "T\($0.offset)", station: $0.element, of: 3, elapsedMs: Int64($0.element) * 1_000,
                    penaltiesMs: 0, finished: $0.element == 3)
            }, seq: seq)
    }

    /// Solves, new teams at the end and changes in the top rows: every team's copy follows to the new cut.
    @Test func everyCopyFollowsItsDeltasToTheNewCut() throws {
        let top = 10
        var stations = Array(repeating: 0, count: 20)
        var held = Self.progress(stations, seq: 1)
        let changes: [(Int?, Bool)] = [(15, false), (3, false), (nil, true), (19, false), (0, false), (20, false)]
        for (seq, change) in changes.enumerated() {
            if let solved = change.0 { stations[solved] += 1 }
            if change.1 { stations.append(0) }
            let now = Self.progress(stations, seq: seq + 2)
            for team in [0, 3, 9, 10, 15, 19, 20] where team < held.teams.count {
                let before = held.ownRow(of: "T\(team)", top: top)
                let after = now.ownRow(of: "T\(team)", top: top)
                let copy = held.cut(top: top, own: before)
                let change = now.hallChange(from: held, ownBefore: before, ownNow: after, top: top)
                let delta = try #require(change as? HuntWire.ProgressUpdate, "team \(team), change \(seq)")
                #expect(delta.total == now.teams.count)
                #expect(delta.items.allSatisfy { $0.team == "T\(team)" || Int($0.team.dropFirst())! < top })
                let followed = try #require(copy.applying(delta))
                #expect(followed == now.cut(top: top, own: after), "team \(team), change \(seq)")
                #expect(followed.total == now.teams.count)
            }
            held = now
        }
    }

    /// The copy is 11 rows, says `total`, and its line tells how many teams it leaves out.
    @Test func aCopyIsTheTopAndTheOwnRowAndSaysHowManyMore() {
        let progress = Self.progress(Array(repeating: 1, count: 1_000), seq: 4)
        let copy = progress.cut(top: 10, own: progress.ownRow(of: "T654", top: 10))
        #expect(copy.teams.map(\.team) == (0..<10).map { "T\($0)" } + ["T654"])
        #expect(copy.total == 1_000 && copy.seq == 4)
        #expect(copy.line(for: Perspective(team: "T654", name: "Ann"))?.hasSuffix(" … and 989 more teams") == true)
        #expect(progress.ownRow(of: "T3", top: 10) == nil, "a top team's row is in the top already")
    }
}
