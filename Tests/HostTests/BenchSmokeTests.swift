import DelayLine
import Foundation
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `partyline-bench --quick` runs end to end against the debug host and writes every section. No timing is asserted.
@Suite("Benchmark smoke test", .timeLimit(.minutes(10)))
struct BenchSmokeTests {
    @Test func quickBenchRunsAndWritesEverySectionWithNumbers() throws {
        let folder = TemporaryDirectory()
        let jsonPath = folder.path + "/bench.json"
        let process = try ChildProcess.run(
            BuiltProducts.path("partyline-bench"),
            ["--quick", "--json", jsonPath, "--host-binary", BuiltProducts.path("partyline-host")])
        let text = process.output + process.errors
        #expect(process.terminationStatus == 0, "partyline-bench exited with \(process.terminationStatus):\n\(text)")
        #expect(text.contains("| Measure"), "no table printed:\n\(text)")

        let results = try JSONParsing.parse(try String(contentsOfFile: jsonPath, encoding: .utf8))
        #expect(results["schema"] == 1)
        #expect(results["quick"] == true)
        #expect(results["problems"]?.arrayValue?.isEmpty == true, "problems: \(results["problems"] ?? .null)")

        // Buzz fan-out: the floor and every host configuration measured every buzz.
        let runs = try #require(results["fanout"]?["runs"]?.arrayValue)
        #expect(runs.count == 1)
        for run in runs {
            let buzzes = results["fanout"]?["buzzes"]?.intValue
            #expect(run["floor"]?["allClientsMs"]?["count"]?.intValue == buzzes)
            #expect(run["floor"]?["allClientsMs"]?["p99"]?.doubleValue != nil)
            // The C relay, with an fdatasync measured beside each of its rounds: the durable floor.
            #expect(run["cFloor"]?["allClientsMs"]?["count"]?.intValue == buzzes)
            #expect(run["cFloor"]?["fsyncMs"]?["count"]?.intValue == buzzes)
            #expect(run["durableFloorMs"]?["p99"]?.doubleValue != nil)
            let hosts = try #require(run["host"]?.arrayValue)
            #expect(hosts.count == 2)  // journal fsync on and off
            for host in hosts {
                #expect(host["allClientsMs"]?["count"]?.intValue == buzzes)
                #expect(host["allClientsMs"]?["p50"]?.doubleValue != nil)
                #expect(host["ratioP99"]?.doubleValue != nil)
                #expect(host["failure"] == nil)
            }
        }

        // Buzz storm: every client followed the order to its end without a gap; bytes and CPU measured.
        let storms = try #require(results["storm"]?["runs"]?.arrayValue)
        #expect(storms.count == 1)
        for storm in storms {
            #expect(storm["complete"] == true)
            #expect(storm["orderGaps"] == 0)
            #expect(storm["afterLastPressMs"]?.doubleValue != nil)
            #expect(storm["bytesPerClient"]?["max"]?.doubleValue.map { $0 > 0 } == true)
            #expect(storm["totalBytes"]?.intValue.map { $0 > 0 } == true)
        }
        // Beside it, Odd One Out's lock-ins and the hunt's solves: every client followed its list to the end.
        for mode in ["outsider", "hunt"] {
            let storm = try #require(results["storm"]?[mode], "\(mode)")
            #expect(storm["complete"] == true, "\(mode): \(storm)")
            #expect(storm["listGaps"] == 0, "\(mode)")
            #expect(storm["bytesPerClient"]?["max"]?.doubleValue.map { $0 > 0 } == true, "\(mode)")
        }

        // Beside it, the busiest moments of Let Me Fly and Compound words: every client saw the moment through
        // (the round's end, every team's result), with bytes per client for it and for the late joins before it.
        for mode in ["fly", "words"] {
            let run = try #require(results["storm"]?[mode], "no \(mode) storm")
            #expect(run["failure"] == nil, "\(mode): \(run["failure"] ?? .null)")
            #expect(run["complete"] == true, "\(mode)")
            #expect(run["completeClients"]?.intValue == run["bytesPerClient"]?["count"]?.intValue)
            #expect(run["bytesPerClient"]?["max"]?.doubleValue.map { $0 > 0 } == true)
            #expect(run["lateJoinBytesPerClient"]?["p50"]?.doubleValue.map { $0 > 0 } == true)
            #expect(run["hostCPUSeconds"]?.doubleValue != nil)
        }
        // Every phone's catch was judged (how cleanly is the machine's timing, not the bench's correctness).
        let judged = results["storm"]?["fly"]?["catches"]?.objectValue?.members.compactMap { $0.value.intValue }
        #expect((judged ?? []).reduce(0, +) > 0, "phones caught: \(results["storm"]?["fly"]?["catches"] ?? .null)")

        let joinStorm = try #require(results["join"]?["storm"])
        #expect(joinStorm["complete"] == true)
        #expect(joinStorm["allWelcomedSeconds"]?.doubleValue != nil)
        #expect(joinStorm["allFullLobbySeconds"]?.doubleValue != nil)
        #expect(joinStorm["bytesPerClient"]?["p50"]?.doubleValue != nil)
        let oneByOne = try #require(results["join"]?["oneByOne"])
        #expect(oneByOne["failure"] == nil)
        #expect(oneByOne["bytesPerClient"]?["mean"]?.doubleValue.map { $0 > 0 } == true)

        let idle = try #require(results["idle"])
        #expect(idle["rssBytes"]?.intValue.map { $0 > 0 } == true)
        #expect(idle["bytesPerConnection"]?.intValue != nil)
        #expect(idle["hostCPUSeconds"]?.doubleValue != nil)
        #expect(idle["playerJoin"]?["players"]?.intValue.map { $0 > 0 } == true)

        let clock = try #require(results["clock"])
        #expect(clock["fireLateMs"]?["count"]?.intValue == clock["cycles"]?.intValue)
        #expect(clock["fireLateMs"]?["p99"]?.doubleValue != nil)
        #expect(clock["revealSeenLateMs"]?["lastClient"]?["p50"]?.doubleValue != nil)

        // Fairness: on the packet delay line every --quick setting completed its trials with numbers; without root
        // the section says why it was skipped.
        let fairness = try #require(results["fairness"])
        if let reason = DelayedNetwork.unavailableReason {
            #expect(fairness["skipped"]?.stringValue == reason)
        } else {
            let fairnessRuns = try #require(fairness["runs"]?.arrayValue)
            #expect(fairnessRuns.map { $0["name"]?.stringValue ?? "?" } == ["down80", "lan", "off", "cheat"])
            #expect(fairnessRuns.map { $0["fairness"] } == [true, true, false, true])
            for run in fairnessRuns {
                #expect(run["failure"] == nil)
                #expect(run["completed"]?.intValue == fairness["trials"]?.intValue)
                for field in ["earlierFirst", "rightUntied", "tied", "confidentlyWrong", "truthOutside", "void"] {
                    #expect(run[field]?.intValue != nil, "\(field)")
                }
                #expect(run["absErrorMs"]?["p95"]?.doubleValue != nil)
                #expect(run["turnAfterFirstPressMs"]?["p50"]?.doubleValue != nil)
            }
            // The cheat's settle window shows (Blue's press surely arrives first).
            #expect(fairnessRuns.last?["settleWindowMs"]?["p50"]?.doubleValue != nil)
        }
        let targets = try #require(results["targets"]?.arrayValue)
        #expect(targets.count >= 5)
        #expect(targets.allSatisfy { $0["value"]?.doubleValue != nil })
    }
}
