import Foundation
import Protocol

/// The parts of a benchmark run.
enum Section: String, CaseIterable {
    /// One buzz fanned out to every client, against the floor relays.
    case fanout
    /// Buzz storms: many players pressing within a short window.
    case storm
    /// Joining: a join storm, and players joining one by one.
    case join
    case idle, clock, fairness
    /// The phone page's first render in headless Chromium (PageRender.swift).
    case page
    /// A prober's pings while big rooms start, reveal and end games and take joins (issue 29).
    case loop
}

/// One buzz storm: `players` in `teams` press within `windowMs` (written `N/T/W`, such as `1000/100/200`).
struct StormSpec: Equatable {
    var players: Int
    var teams: Int
    var windowMs: Int

    /// `1000/100/200`.
    var text: String { "\(players)/\(teams)/\(windowMs)" }

    /// The option value `N/T/W`: 2…20000 players, 2…players teams, 1…60000 ms.
    static var option: OptionValue<StormSpec> {
        OptionValue<StormSpec>(
            placeholder: "N/T/W", expectation: "players/teams/milliseconds, such as 1000/100/200 (2 or more teams)",
            read: { text in
                let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
                guard parts.count == 3, let players = parts[0], let teams = parts[1], let window = parts[2],
                    (2...20_000).contains(players), (2...players).contains(teams), (1...60_000).contains(window)
                else { return nil }
                return StormSpec(players: players, teams: teams, windowMs: window)
            }, write: { $0.text }, acceptedExamples: ["2/2/1", "20000/100/60000"],
            refusedExamples: ["x", "1/1/1", "10/11/5", "10/2/0", "10/2"])
    }
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
    var joinStormClients = 1000
    /// The buzz storms to run.
    var storms = [
        StormSpec(players: 1000, teams: 100, windowMs: 200), StormSpec(players: 200, teams: 200, windowMs: 100),
    ]
    /// Let Me Fly's busiest moment: N players in T teams all throw within W ms, and catch (a tenth more join first).
    var flyStorm = StormSpec(players: 1000, teams: 100, windowMs: 200)
    /// Compound words' busiest moment: every team of N players in T plays a card within W ms (a tenth more teams
    /// form first).
    var wordsStorm = StormSpec(players: 1000, teams: 100, windowMs: 200)
    /// Odd One Out's busiest moment: N players in T teams all press a pick within W ms.
    var outsiderStorm = StormSpec(players: 1000, teams: 100, windowMs: 200)
    /// The station hunt's busiest moment: every team of N players in T solves its station within W ms.
    var huntStorm = StormSpec(players: 1000, teams: 100, windowMs: 200)
    /// The loop probe's rooms: players in teams (1,000 one-player teams, and 10,000 players in 1,000 teams).
    var loopRooms = [RoomSpec(players: 1000, teams: 1000), RoomSpec(players: 10_000, teams: 1000)]
    /// Players who join each loop probe room at its last step.
    var loopJoins = 100
    /// Players joining one at a time (each waits for its welcome), in teams of `teamSize`.
    var joinsOneByOne = 1000
    var idleClients = 10_000
    var idleSeconds = 10.0
    var playerJoinBudgetSeconds = 120.0
    var clockCycles = 20
    var clockClients = 1000
    var readers = 2
    /// The fairness settings to run (`FairnessSetting.names`).
    var fairnessSettings = FairnessSetting.names
    /// Press pairs (questions) per fairness setting.
    var fairnessTrials = 100
    /// How many ms apart the two presses of a trial are.
    var fairnessGapMs = 20
    /// Trials on one network, host and connection pair before a fresh one (a fresh clock-offset estimate).
    var fairnessTrialsPerConnection = 25
    var fsync = FsyncChoice.both
    /// Whether the hosts in the buzz fan-out order buzzes by press time (fair buzzing waits a settle window of
    /// at least 10 ms before announcing `buzzed`) — off by default, so the figure is the fan-out itself.
    var isHostFairnessOn = false
    /// Whether the fan-out also runs a host (fsync on) whose clients speak WebSocket, beside the TCP ones, and the
    /// buzz storm's clients speak WebSocket (as phones do).
    var isWebSocket = false
    var sections = Set(Section.allCases)
    var isKeepingData = false
    var isVerbose = false
    /// Internal: run as the floor relay (a child process of the bench), not as the bench.
    var isFloorRelay = false
    /// Internal: run as the C floor relay.
    var isCFloorRelay = false

    /// The options' declarations: each flag once, with its help, allowed values and section; `parse` and `helpText`
    /// both read it.
    static var table: CommandLineTable<BenchOptions> {
        let what = "WHAT"
        let how = "HOW"
        let count = { (range: ClosedRange<Int>) in OptionValue<Int>.integer(in: range) }
        let onOff: OptionValue<Bool> = .choice(["on": true, "off": false])
        let sections = OptionValue<[Section]>.list(of: .choice(Section.allCases.map { ($0.rawValue, $0) }))
            .map({ Set($0) }, back: { set in Section.allCases.filter(set.contains) })
        return CommandLineTable(
            tool: "partyline-bench", defaults: BenchOptions(),
            introduction: """
                partyline-bench — measure a real partyline-host against a minimal relay (the floor).

                USAGE
                  partyline-bench [options]

                It starts the release partyline-host found beside itself (or --host-binary) on 127.0.0.1 with a
                temporary data folder, drives it with many TCP clients from its own reader threads, and runs the
                same client driver against a minimal epoll relay of its own (the floor: read a line, write it to
                every connection). It prints a table and writes a JSON file. See BENCHMARKS.md.
                """,
            options: [
                .value(
                    "--only", \.sections, sections, help: "sections to run, comma separated", section: what,
                    shownDefault: "all"),
                .flag(
                    "--quick", sets: \.isQuick, to: true,
                    help: "small sizes for a smoke test (8 clients, 20 buzzes, 40/8/50 buzz, Let Me Fly, Compound "
                        + "words, Odd One Out and hunt storms, a 50-client join "
                        + "storm, 60 joins one by one, 200 idle clients for 1 s, 1 clock cycle, fairness: down80, lan, "
                        + "off and cheat with 5 trials each)", section: what),
                .value(
                    "--sizes", \.sizes, .list(of: count(2...20_000)), help: "client counts for buzz fan-out",
                    section: what),
                .value("--buzzes", \.buzzes, count(1...100_000), help: "measured buzzes per size", section: what),
                .value(
                    "--warmup", \.warmupBuzzes, count(0...1000), help: "buzzes before measuring, not counted",
                    section: what),
                .value(
                    "--team-size", \.teamSize, count(1...1000),
                    help: "terminals per team; there are at least two teams",
                    section: what),
                .value(
                    "--storms", \.storms, .list(of: StormSpec.option),
                    help: "buzz storms: players/teams/milliseconds within which they all press", section: what),
                .value(
                    "--fly-storm", \.flyStorm, StormSpec.option,
                    help: "Let Me Fly's busiest moment: players/teams/milliseconds within which all throw (a tenth "
                        + "more players join mid-game first)", section: what),
                .value(
                    "--words-storm", \.wordsStorm, StormSpec.option,
                    help: "Compound words' busiest moment: players/teams/milliseconds within which every team plays a "
                        + "card (a tenth more teams form mid-game first)", section: what),
                .value(
                    "--outsider-storm", \.outsiderStorm, StormSpec.option,
                    help: "Odd One Out's busiest moment: players/teams/milliseconds within which all pick",
                    section: what),
                .value(
                    "--hunt-storm", \.huntStorm, StormSpec.option,
                    help: "the station hunt's busiest moment: players/teams/milliseconds within which every team "
                        + "solves a station", section: what),
                .value(
                    "--loop-rooms", \.loopRooms, .list(of: RoomSpec.option),
                    help: "loop probe: rooms of players/teams in which a prober pings every 10 ms while games start, "
                        + "reveal and end (not part of --quick unless named in --only)", section: what),
                .value(
                    "--loop-joins", \.loopJoins, count(1...10_000),
                    help: "loop probe: players who join each room at its last step", section: what),
                .value(
                    "--join-storm", \.joinStormClients, count(1...20_000), help: "clients in the join storm",
                    section: what),
                .value(
                    "--joins", \.joinsOneByOne, count(1...20_000), help: "players joining one by one", section: what),
                .value(
                    "--idle", \.idleClients, count(1...100_000),
                    help: "idle clients for the memory and CPU measurement",
                    section: what),
                .value(
                    "--idle-seconds", \.idleSeconds, .decimal(in: 0...3600), help: "how long the idle CPU is measured",
                    section: what),
                .value(
                    "--player-join-budget", \.playerJoinBudgetSeconds, .decimal(in: 0...3600),
                    help: "seconds spent joining idle players one by one", section: what),
                .value(
                    "--clock-cycles", \.clockCycles, count(1...1000),
                    help: "question+reveal cycles for deadline accuracy", section: what),
                .value(
                    "--clock-clients", \.clockClients, count(1...20_000),
                    help: "clients connected during the deadline measurement", section: what),
                .value(
                    "--fsync", \.fsync, .choice([FsyncChoice.on, .off, .both].map { ($0.rawValue, $0) }),
                    help: "host journal fsync for buzz fan-out", section: what),
                .value(
                    "--fairness-settings", \.fairnessSettings,
                    .list(of: .choice(FairnessSetting.names.map { ($0, $0) })),
                    help: "fairness settings to run on the packet delay line (needs root)", section: what),
                .value(
                    "--fairness-trials", \.fairnessTrials, count(1...10_000), help: "press pairs per fairness setting",
                    section: what),
                .value(
                    "--fairness-gap", \.fairnessGapMs, count(1...1000), placeholder: "MS",
                    help: "how far apart the two presses of a trial are", section: what),
                .value(
                    "--fairness-per-connection", \.fairnessTrialsPerConnection, count(1...10_000),
                    help: "trials per fresh delay line, host and connections", section: what),
                .value(
                    "--host-fairness", \.isHostFairnessOn, onOff,
                    help: "host --fairness in the buzz fan-out: on adds the settle window (≥ 10 ms) before `buzzed` "
                        + "is announced", section: what),

                .value(
                    "--host-binary", \.hostBinary, .text(placeholder: "PATH"), help: "the partyline-host to measure",
                    section: how, shownDefault: "beside partyline-bench"),
                .value(
                    "--json", \.jsonPath, .text(placeholder: "PATH"), help: "where to write the results", section: how),
                .value(
                    "--readers", \.readers, count(1...64), help: "client reader threads (each epolls a share)",
                    section: how),
                .flag(
                    "--websocket", sets: \.isWebSocket, to: true,
                    help: "fan-out: add a host with WebSocket clients beside the TCP ones; storm: WebSocket clients",
                    section: how),
                .flag(
                    "--keep-data", sets: \.isKeepingData, to: true,
                    help: "keep the temporary data folder and host logs",
                    section: how),
                .flag(
                    "--verbose", aliases: ["-v"], sets: \.isVerbose, to: true, help: "progress on stderr",
                    section: how),
                .flag(
                    "--floor-relay", sets: \.isFloorRelay, to: true,
                    help: "run as the floor relay (the bench's own child)", section: how, isHidden: true),
                .flag(
                    "--c-floor-relay", sets: \.isCFloorRelay, to: true,
                    help: "run as the C floor relay (the bench's own child)", section: how, isHidden: true),
            ])
    }

    /// The `--help` text, written from the table.
    static var helpText: String { table.helpText }

    /// Parses `arguments` (without the program name); nil means help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions? {
        let parsed = try table.parse(arguments)
        guard parsed.request == nil else { return nil }
        var options = parsed.values
        if options.isQuick {
            // Small sizes, unless the command line said otherwise.
            let explicit = parsed.given
            if !explicit.contains("--sizes") { options.sizes = [8] }
            if !explicit.contains("--buzzes") { options.buzzes = 20 }
            if !explicit.contains("--warmup") { options.warmupBuzzes = 2 }
            if !explicit.contains("--join-storm") { options.joinStormClients = 50 }
            if !explicit.contains("--storms") { options.storms = [StormSpec(players: 40, teams: 8, windowMs: 50)] }
            if !explicit.contains("--fly-storm") { options.flyStorm = StormSpec(players: 40, teams: 8, windowMs: 50) }
            if !explicit.contains("--words-storm") {
                options.wordsStorm = StormSpec(players: 40, teams: 8, windowMs: 50)
            }
            if !explicit.contains("--outsider-storm") {
                options.outsiderStorm = StormSpec(players: 40, teams: 8, windowMs: 50)
            }
            if !explicit.contains("--hunt-storm") { options.huntStorm = StormSpec(players: 40, teams: 8, windowMs: 50) }
            if !explicit.contains("--joins") { options.joinsOneByOne = 60 }
            // The loop probe holds a debug host to 100 ms per ping: not a smoke test on a busy machine.
            if !explicit.contains("--only") { options.sections.remove(.loop) }
            if !explicit.contains("--loop-rooms") { options.loopRooms = [RoomSpec(players: 60, teams: 60)] }
            if !explicit.contains("--loop-joins") { options.loopJoins = 10 }
            if !explicit.contains("--idle") { options.idleClients = 200 }
            if !explicit.contains("--idle-seconds") { options.idleSeconds = 1 }
            if !explicit.contains("--player-join-budget") { options.playerJoinBudgetSeconds = 0.5 }
            if !explicit.contains("--clock-cycles") { options.clockCycles = 1 }
            if !explicit.contains("--clock-clients") { options.clockClients = 8 }
            if !explicit.contains("--fairness-settings") {
                options.fairnessSettings = ["down80", "lan", "off", "cheat"]
            }
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
