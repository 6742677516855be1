import CFloorRelay
import Foundation
import Net
import Protocol
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// partyline-bench: launches the real host and the bench's own relay (the floor), drives both with the
// same client threads, prints a table and writes a JSON file. See BENCHMARKS.md.

signal(SIGPIPE, SIG_IGN)

let parsedOptions: BenchOptions
do {
    guard let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(BenchOptions.helpText)
        exit(0)
    }
    parsedOptions = options
} catch {
    FileHandle.standardError.write(Data("partyline-bench: \(error)\n".utf8))
    exit(2)
}

if parsedOptions.isFloorRelay { FloorRelay.run() }
if parsedOptions.isCFloorRelay { exit(partyline_floor_relay_run()) }

let openFiles = OpenFileLimit.raise(toAtLeast: .max) ?? 1024
let ownDirectory = URL(fileURLWithPath: BuiltProducts.currentExecutable).deletingLastPathComponent()
let hostBinary = parsedOptions.hostBinary ?? ownDirectory.appendingPathComponent("partyline-host").path
guard FileManager.default.isExecutableFile(atPath: hostBinary) else {
    FileHandle.standardError.write(
        Data(
            ("partyline-bench: no partyline-host at \(hostBinary); build it (swift build -c release) or pass "
                + "--host-binary PATH.\n").utf8))
    exit(2)
}
let needed =
    max(
        parsedOptions.idleClients, parsedOptions.joinStormClients, parsedOptions.joinsOneByOne,
        parsedOptions.storms.map(\.players).max() ?? 0, parsedOptions.flyStorm.players * 11 / 10,
        parsedOptions.wordsStorm.players + parsedOptions.wordsStorm.teams / 10 + 1,
        parsedOptions.outsiderStorm.players + 1, parsedOptions.huntStorm.players,
        4 * (parsedOptions.sizes.max() ?? 0),
        (parsedOptions.loopRooms.map(\.players).max() ?? 0) + parsedOptions.loopJoins)
    + 200
if openFiles < needed {
    FileHandle.standardError.write(
        Data("partyline-bench: only \(openFiles) open files allowed, \(needed) needed; raise `ulimit -n`.\n".utf8))
    exit(2)
}

// Interrupted: take the children down too.
let signalQueue = DispatchQueue(label: "partyline-bench.signals")
var signalSources: [DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
    source.setEventHandler {
        ChildProcess.killAll()
        FileHandle.standardError.write(Data("partyline-bench: interrupted.\n".utf8))
        exit(130)
    }
    source.resume()
    signalSources.append(source)
}

let context = BenchContext(options: parsedOptions, hostBinary: hostBinary)
let report = Report()
let started = Date()
let startedMonotonic = MonotonicClock.nanoseconds()
context.say("host \(hostBinary); temporary folder \(context.folder)")

var kept: HostSession?
if parsedOptions.sections.contains(.fanout) {
    let keepClients = parsedOptions.sections.contains(.clock) ? parsedOptions.clockClients : nil
    kept = FanoutRun(context: context).run(report: report, keepSessionWithClients: keepClients)
}
if parsedOptions.sections.contains(.clock) {
    ScaleRuns(context: context).clockAccuracy(report: report, session: kept)
    kept = nil
}
if parsedOptions.sections.contains(.storm) { StormRun(context: context).run(report: report) }
if parsedOptions.sections.contains(.join) {
    let runs = ScaleRuns(context: context)
    var join = JSONObject()
    join["storm"] = runs.joinStorm(report: report)
    join["oneByOne"] = runs.joinOneByOne(report: report)
    report.sections["join"] = .object(join)
}
if parsedOptions.sections.contains(.idle) { ScaleRuns(context: context).idleScale(report: report) }

if parsedOptions.sections.contains(.fairness) { FairnessRun(context: context).run(report: report) }
if parsedOptions.sections.contains(.page) { PageRenderRun(context: context).run(report: report) }
if parsedOptions.sections.contains(.loop) { LoopProbeRun(context: context).run(report: report) }

// MARK: Output

func run(_ executable: String, _ arguments: [String]) -> String? {
    guard let finished = try? ChildProcess.run(executable, arguments, timeout: 60) else { return nil }
    return (finished.output + finished.errors).trimmingCharacters(in: .whitespacesAndNewlines)
}

let formatter = ISO8601DateFormatter()
var uname = utsname()
_ = Glibc.uname(&uname)
func text<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
let machine: JSONObject = [
    "nproc": .number(ProcessInfo.processInfo.activeProcessorCount),
    "uname": .string(
        [text(uname.sysname), text(uname.nodename), text(uname.release), text(uname.version), text(uname.machine)]
            .joined(separator: " ")),
    "memoryBytes": .number(Int(ProcessInfo.processInfo.physicalMemory)),
    "swift": run("/usr/bin/env", ["swift", "--version"]).map {
        .string($0.split(separator: "\n").first.map(String.init) ?? $0)
    } ?? .null,
]
var results: JSONObject = [
    "schema": 1,
    "tool": "partyline-bench",
    "date": .string(formatter.string(from: started)),
    "durationSeconds": .double(rounded(Double(MonotonicClock.nanoseconds() - startedMonotonic) / 1e9)),
    "command": .string((["partyline-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")),
    "quick": .bool(parsedOptions.isQuick),
    "hostBinary": .string(hostBinary),
    "readers": .number(parsedOptions.readers),
    "machine": .object(machine),
]
for member in report.sections { results[member.key] = member.value }
results["targets"] = .array(report.targets.map(\.json))
results["problems"] = .array(report.problems.map { .string($0) })

print(report.table())
if !report.problems.isEmpty {
    print("\nProblems:")
    for problem in report.problems { print("  - " + problem) }
}
do {
    try (PrettyJSON.text(.object(results)) + "\n").write(
        toFile: parsedOptions.jsonPath, atomically: true, encoding: .utf8)
    print("\nWrote \(parsedOptions.jsonPath).")
} catch {
    FileHandle.standardError.write(Data("partyline-bench: cannot write \(parsedOptions.jsonPath): \(error)\n".utf8))
    exit(1)
}
context.removeFolder()
exit(0)
