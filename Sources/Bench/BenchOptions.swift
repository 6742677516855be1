import Foundation

/// The parts of a benchmark run.
enum Section: String, CaseIterable {
    case fanout, storm, idle, clock, fairness
}

/// Whether the host runs with its journal fsync on, off, or once each way.
enum FsyncChoice: String {
    case on, off, both

    /// The host configurations to measure, in order.
    var settings: [Bool] {
        switch self {
        case .on: return [true]
        case .off: return [false]
        case .both: return [true, false]
        }
    }
}

/// Everything `partyline-bench` can be told on its command line.
struct BenchOptions {
    var hostBinary: String?
    var jsonPath = "bench-results.json"
    var isQuick = false
    var sizes = [8, 100, 1000]
    var buzzes = 200
    var warmupBuzzes = 5
    var teamSize = 10
    var stormClients = 1000
    var idleClients = 10_000
    var idleSeconds = 10.0
    var playerJoinBudgetSeconds = 120.0
    var clockCycles = 20
    var clockClients = 1000
    var readers = 2
    /// One-way delays (ms) put in front of Red in the fairness measurement (fair buzzing on).
    var fairnessDelays: [Double] = [0, 10, 40, 80]
    /// The delay at which the same is measured with `--fairness off` for comparison (nil: not measured).
    var fairnessOffDelay: Double? = 40
    /// Press pairs (questions) per fairness setting.
    var fairnessTrials = 50
    /// How many ms Red presses before Blue.
    var fairnessGapMs = 20
    /// Trials on one host and connection pair before a fresh one (a fresh clock-offset estimate) is set up.
    var fairnessTrialsPerConnection = 10
    var fsync = FsyncChoice.both
    /// Whether the hosts in the buzz fan-out order buzzes by press time (fair buzzing waits a settle window of
    /// at least 10 ms before announcing `buzzed`) — off by default, so the figure is the fan-out itself.
    var isHostFairnessOn = false
    var sections = Set(Section.allCases)
    var isKeepingData = false
    var isVerbose = false
    /// Internal: run as the floor relay (a child process of the bench), not as the bench.
    var isFloorRelay = false

    static let helpText = """
        partyline-bench — measure a real partyline-host against a minimal relay (the floor).

        USAGE
          partyline-bench [options]

        It starts the release partyline-host found beside itself (or --host-binary) on 127.0.0.1 with a
        temporary data folder, drives it with many TCP clients from its own reader threads, and runs the
        same client driver against a minimal epoll relay of its own (the floor: read a line, write it to
        every connection). It prints a table and writes a JSON file. See BENCHMARKS.md.

        WHAT
          --only LIST            sections to run, comma separated:
                                 fanout,storm,idle,clock,fairness                    [all]
          --quick                small sizes for a smoke test (8 clients, 20 buzzes, 50-client
                                 storm, 200 idle clients for 1 s, 1 clock cycle, fairness
                                 at 0 and 40 ms with 5 trials each)
          --sizes LIST           client counts for buzz fan-out                      [8,100,1000]
          --buzzes N             measured buzzes per size                            [200]
          --warmup N             buzzes before measuring (not counted)               [5]
          --team-size N          terminals per team (at least two teams)             [10]
          --storm N              clients in the join storm                           [1000]
          --idle N               idle clients for the memory and CPU measurement     [10000]
          --idle-seconds S       how long the idle CPU is measured                   [10]
          --player-join-budget S seconds spent joining idle players one by one      [120]
          --clock-cycles N       question+reveal cycles for deadline accuracy        [20]
          --clock-clients N      clients connected during the deadline measurement   [1000]
          --fsync on|off|both    host journal fsync for buzz fan-out                 [both]
          --fairness-delays LIST one-way delays (ms) in front of Red, fairness on     [0,10,40,80]
          --fairness-off-delay D the delay measured again with --fairness off; none  [40]
          --fairness-trials N    press pairs per fairness setting                    [50]
          --fairness-gap MS      how long before Blue Red presses                    [20]
          --fairness-per-connection N  trials per fresh host + connections          [10]
          --host-fairness on|off host --fairness in the buzz fan-out: on adds the settle
                                 window (≥ 10 ms) before `buzzed` is announced         [off]

        HOW
          --host-binary PATH     the partyline-host to measure      [beside partyline-bench]
          --json PATH            where to write the results          [bench-results.json]
          --readers N            client reader threads (each epolls a share)          [2]
          --keep-data            keep the temporary data folder and host logs
          --verbose              progress on stderr
          -h, --help             this text
        """

    /// Parses `arguments` (without the program name); nil means help was asked for.
    static func parse(_ arguments: [String]) throws -> BenchOptions? {
        var options = BenchOptions()
        var explicit: Set<String> = []
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(flag) needs a value.") }
            return arguments[index]
        }
        func integer(_ flag: String, _ range: ClosedRange<Int>) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), range.contains(number) else {
                throw BenchError("\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\".")
            }
            return number
        }
        func seconds(_ flag: String) throws -> Double {
            let text = try value(flag)
            guard let number = Double(text), number >= 0, number <= 3600 else { throw BenchError("\(flag) must be 0 to 3600 seconds.") }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            explicit.insert(argument)
            switch argument {
            case "-h", "--help", "help": return nil
            case "--host-binary": options.hostBinary = try value(argument)
            case "--json": options.jsonPath = try value(argument)
            case "--quick": options.isQuick = true
            case "--sizes":
                let text = try value(argument)
                let sizes = text.split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.allSatisfy({ (2...20_000).contains($0) }) else {
                    throw BenchError("--sizes must be a comma-separated list of client counts from 2 to 20000.")
                }
                options.sizes = sizes
            case "--buzzes": options.buzzes = try integer(argument, 1...100_000)
            case "--warmup": options.warmupBuzzes = try integer(argument, 0...1000)
            case "--team-size": options.teamSize = try integer(argument, 1...1000)
            case "--storm": options.stormClients = try integer(argument, 1...20_000)
            case "--idle": options.idleClients = try integer(argument, 1...100_000)
            case "--idle-seconds": options.idleSeconds = try seconds(argument)
            case "--player-join-budget": options.playerJoinBudgetSeconds = try seconds(argument)
            case "--clock-cycles": options.clockCycles = try integer(argument, 1...1000)
            case "--clock-clients": options.clockClients = try integer(argument, 1...20_000)
            case "--fairness-delays":
                let text = try value(argument)
                let delays = text.split(separator: ",").compactMap { Double($0) }
                guard !delays.isEmpty, delays.count == text.split(separator: ",").count, delays.allSatisfy({ (0...1000).contains($0) }) else {
                    throw BenchError("--fairness-delays must be a comma-separated list of milliseconds from 0 to 1000.")
                }
                options.fairnessDelays = delays
            case "--fairness-off-delay":
                let text = try value(argument)
                if text == "none" {
                    options.fairnessOffDelay = nil
                } else {
                    guard let delay = Double(text), (0...1000).contains(delay) else {
                        throw BenchError("--fairness-off-delay must be milliseconds from 0 to 1000, or none.")
                    }
                    options.fairnessOffDelay = delay
                }
            case "--fairness-trials": options.fairnessTrials = try integer(argument, 1...10_000)
            case "--fairness-gap": options.fairnessGapMs = try integer(argument, 0...1000)
            case "--fairness-per-connection": options.fairnessTrialsPerConnection = try integer(argument, 1...10_000)
            case "--readers": options.readers = try integer(argument, 1...64)
            case "--fsync":
                let text = try value(argument)
                guard let choice = FsyncChoice(rawValue: text) else { throw BenchError("--fsync must be on, off or both.") }
                options.fsync = choice
            case "--host-fairness":
                switch try value(argument) {
                case "on": options.isHostFairnessOn = true
                case "off": options.isHostFairnessOn = false
                default: throw BenchError("--host-fairness must be on or off.")
                }
            case "--only":
                var sections: Set<Section> = []
                for part in try value(argument).split(separator: ",") {
                    guard let section = Section(rawValue: String(part)) else {
                        throw BenchError("Unknown section \"\(part)\"; use fanout, storm, idle, clock, fairness.")
                    }
                    sections.insert(section)
                }
                options.sections = sections
            case "--keep-data": options.isKeepingData = true
            case "--verbose", "-v": options.isVerbose = true
            case "--floor-relay": options.isFloorRelay = true
            default: throw BenchError("Unknown option \(argument). See partyline-bench --help.")
            }
            index += 1
        }
        if options.isQuick {
            // Small sizes, unless the command line said otherwise.
            if !explicit.contains("--sizes") { options.sizes = [8] }
            if !explicit.contains("--buzzes") { options.buzzes = 20 }
            if !explicit.contains("--warmup") { options.warmupBuzzes = 2 }
            if !explicit.contains("--storm") { options.stormClients = 50 }
            if !explicit.contains("--idle") { options.idleClients = 200 }
            if !explicit.contains("--idle-seconds") { options.idleSeconds = 1 }
            if !explicit.contains("--player-join-budget") { options.playerJoinBudgetSeconds = 0.5 }
            if !explicit.contains("--clock-cycles") { options.clockCycles = 1 }
            if !explicit.contains("--clock-clients") { options.clockClients = 8 }
            if !explicit.contains("--fairness-delays") { options.fairnessDelays = [0, 40] }
            if !explicit.contains("--fairness-trials") { options.fairnessTrials = 5 }
        }
        return options
    }
}

/// A failure the bench reports in one sentence and exits.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
