import Protocol
import Testing

@testable import Bench

/// The bench's command line: one table drives parsing and `--help`; `--quick` shrinks what was not given.
@Suite("Bench options")
struct BenchOptionsTests {
    @Test func theTableHasNoDeclarationProblems() {
        #expect(BenchOptions.table.declarationProblems() == [])
    }

    @Test func theHelpMentionsEveryDeclaredFlagWithItsDefault() {
        let table = BenchOptions.table
        let help = BenchOptions.helpText
        for option in table.options where !option.isHidden {
            #expect(help.contains(" \(option.flag)"), "\(option.flag)")
            if let shown = option.shownDefault(table.defaults) {
                #expect(help.contains("[\(shown)]"), "\(option.flag)")
            }
        }
        #expect(!help.contains("--floor-relay"))
        #expect(help.contains("See BENCHMARKS.md."))
    }

    @Test func quickShrinksOnlyWhatWasNotGiven() throws {
        let quick = try #require(try BenchOptions.parse(["--quick", "--buzzes=7"]))
        #expect(quick.isQuick && quick.buzzes == 7 && quick.sizes == [8])
        #expect(quick.fairnessSettings == ["down80", "lan", "off", "cheat"] && quick.fairnessTrials == 5)
        let full = try #require(
            try BenchOptions.parse([
                "--only", "fanout,clock", "--fairness-settings", "lan,cheat",
                "--fsync", "off", "-v", "--floor-relay",
            ]))
        #expect(full.sections == [.fanout, .clock] && full.fairnessSettings == ["lan", "cheat"] && full.fsync == .off)
        #expect(full.isVerbose && full.isFloorRelay && full.sizes == [8, 100, 1000] && full.fairnessTrials == 100)
        #expect(try BenchOptions.parse(["help"]) == nil)
        let storms = try #require(try BenchOptions.parse(["--storms", "1000/100/200,40/8/50"]))
        #expect(storms.storms.map(\.text) == ["1000/100/200", "40/8/50"])
        let quick40 = try #require(try BenchOptions.parse(["--quick", "--words-storm", "200/20/100"]))
        #expect(quick40.storms.map(\.text) == ["40/8/50"] && quick40.flyStorm.text == "40/8/50")
        #expect(quick40.wordsStorm.text == "200/20/100", "given, so not shrunk")
        #expect(try #require(try BenchOptions.parse([])).flyStorm.text == "1000/100/200")
        #expect(throws: UsageError.self) { try BenchOptions.parse(["--storms", "10/11/5"]) }
        // The loop probe holds the host to 100 ms a ping: part of a full run, of a quick one only when named.
        #expect(!quick.sections.contains(.loop) && quick.loopRooms.map(\.text) == ["60/60"] && quick.loopJoins == 10)
        let loop = try #require(try BenchOptions.parse(["--quick", "--only", "loop", "--loop-rooms", "300/30"]))
        #expect(loop.sections == [.loop] && loop.loopRooms.map(\.text) == ["300/30"])
        let everything = try #require(try BenchOptions.parse([]))
        #expect(everything.sections.contains(.loop) && everything.loopRooms.map(\.text) == ["1000/1000", "10000/1000"])
        #expect(throws: UsageError.self) { try BenchOptions.parse(["--loop-rooms", "10/11"]) }
        #expect(
            throws: UsageError(
                "--only must be a comma-separated list, each fanout, storm, join, idle, clock, fairness, page or loop, "
                    + #"not "fanout,x". See partyline-bench --help."#)
        ) {
            try BenchOptions.parse(["--only", "fanout,x"])
        }
    }
}
