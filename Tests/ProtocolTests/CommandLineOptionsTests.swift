import Testing

@testable import Common

/// A small tool's settings, declared the way the real tools declare theirs.
private struct Settings: Equatable {
    var seconds = 60
    var port: UInt16 = 4747
    var name: String?
    var room = "ABCD"
    var isLoud = false
    var resume: Bool?
    var isFair = true
    var sizes = [8, 100]
    var delay: Double? = 40
    var budget = 2.5

    static func table(takesArguments: Bool = true, options: [CommandLineOption<Settings>]? = nil) -> CommandLineTable<
        Settings
    > {
        CommandLineTable(
            tool: "toy", defaults: Settings(), introduction: "toy — a tool for tests.\n\nUSAGE\n  toy [options]",
            options: options ?? Settings.options, closing: "EXAMPLES\n  toy --seconds 5",
            hasVersion: true, takesArguments: takesArguments)
    }

    static var options: [CommandLineOption<Settings>] {
        [
            .value("--seconds", aliases: ["-s"], \.seconds, .integer(in: 1...3600), help: "how long", section: "TIMES"),
            .value("--port", \.port, .integer(in: 1...65535), help: "where", section: "NETWORK"),
            .value(
                "--name", aliases: ["-n"], \.name, .text(placeholder: "NAME"), help: "who", section: "NETWORK",
                shownDefault: "asked for"),
            .value(
                "--room", \.room,
                .text(
                    placeholder: "CODE", expectation: "2 to 4 letters",
                    isAllowed: { (2...4).contains($0.count) && $0.allSatisfy(\.isLetter) },
                    transform: { $0.uppercased() }, accepted: ["ab", "abcd"], refused: ["a", "abcde"]),
                help: "which room", section: "NETWORK"),
            .flag("--loud", sets: \.isLoud, to: true, help: "ring bells", section: "TIMES"),
            .flag("--resume", sets: \.resume, to: true, help: "come back", section: "TIMES"),
            .flag("--fresh", sets: \.resume, to: false, help: "start over", section: "TIMES"),
            .value(
                "--fair", \.isFair, .choice(["on": true, "off": false]), help: "order by press time", section: "TIMES"),
            .value("--sizes", \.sizes, .list(of: .integer(in: 2...1000)), help: "client counts", section: "TIMES"),
            .value(
                "--delay", \.delay, OptionValue.decimal(in: 0...1000, placeholder: "MS").orNone(), help: "a delay",
                section: "TIMES"),
            .value("--budget", \.budget, .decimal(in: 0...3600), help: "seconds to spend", section: "TIMES"),
            .flag("--internal", sets: \.isLoud, to: true, help: "not for people", section: "TIMES", isHidden: true),
        ]
    }
}

private func parse(_ arguments: [String], _ table: CommandLineTable<Settings> = Settings.table()) throws(UsageError)
    -> ParsedCommandLine<Settings>
{
    try table.parse(arguments)
}

private func message(_ arguments: [String], _ table: CommandLineTable<Settings> = Settings.table()) -> String? {
    do {
        _ = try table.parse(arguments)
        return nil
    } catch {
        return error.message
    }
}

@Suite struct CommandLineOptionsTests {
    @Test func everyFormSetsItsField() throws {
        #expect(try parse([]).values == Settings())
        #expect(try parse(["--seconds", "30"]).values.seconds == 30)
        #expect(try parse(["--seconds=30"]).values.seconds == 30)
        #expect(try parse(["-s", "30"]).values.seconds == 30)
        #expect(try parse(["--port", "65535"]).values.port == 65535)
        #expect(try parse(["--name", "Ann"]).values.name == "Ann")
        #expect(try parse(["--name=", "x"]).values.name == "")  // an empty value is a value
        #expect(try parse(["--room", "pub"]).values.room == "PUB")
        #expect(try parse(["--loud"]).values.isLoud)
        #expect(try parse(["--resume"]).values.resume == true)
        #expect(try parse(["--fresh"]).values.resume == false)
        #expect(try parse(["--fair", "OFF"]).values.isFair == false)
        #expect(try parse(["--sizes", "2,1000"]).values.sizes == [2, 1000])
        #expect(try parse(["--delay", "none"]).values.delay == nil)
        #expect(try parse(["--delay", "12.5"]).values.delay == 12.5)
        #expect(try parse(["--budget", "0.5"]).values.budget == 0.5)
        #expect(try parse(["--internal"]).values.isLoud)
        // A later option wins, and every flag given is remembered by its main name.
        let parsed = try parse(["--seconds", "5", "-s", "6", "--loud", "--", "--seconds"])
        #expect(parsed.values.seconds == 6)
        #expect(parsed.given == ["--seconds", "--loud"])
        #expect(parsed.arguments == ["--seconds"])
    }

    @Test func argumentsHelpAndVersion() throws {
        let parsed = try parse(["pack", "--loud", "import", "file.csv"])
        #expect(parsed.arguments == ["pack", "import", "file.csv"])
        #expect(parsed.request == nil)
        #expect(try parse(["-h"]).request == .help)
        #expect(try parse(["--help", "--bogus"]).request == .help)  // help stops reading
        #expect(try parse(["help"]).request == .help)
        #expect(try parse(["--version"]).request == .version)
        #expect(try parse(["--name", "help"]).values.name == "help")  // a value is never a request
        #expect(
            message(["extra"], Settings.table(takesArguments: false))
                == #"Unexpected argument "extra": toy takes only options. See toy --help."#)
    }

    @Test func mistakesAreSaidPlainly() {
        #expect(
            message(["--seconds", "x"]) == #"--seconds must be a whole number from 1 to 3600, not "x". See toy --help."#
        )
        #expect(message(["-s", "0"]) == #"--seconds must be a whole number from 1 to 3600, not "0". See toy --help."#)
        #expect(message(["--port=0"]) == #"--port must be a whole number from 1 to 65535, not "0". See toy --help."#)
        #expect(message(["--room", "a"]) == #"--room must be 2 to 4 letters, not "a". See toy --help."#)
        #expect(message(["--fair", "maybe"]) == #"--fair must be on or off, not "maybe". See toy --help."#)
        let listRefusal = #"--sizes must be a comma-separated list, each a whole number from 2 to 1000, not "2,x"."#
        #expect(message(["--sizes", "2,x"]) == listRefusal + " See toy --help.")
        #expect(
            message(["--delay", "-1"])
                == #"--delay must be a number from 0 to 1000, or none, not "-1". See toy --help."#)
        #expect(message(["--seconds"]) == "--seconds needs a value (N). See toy --help.")
        #expect(message(["--loud=yes"]) == #"--loud takes no value; leave out "=yes". See toy --help."#)
        #expect(message(["--secnds", "5"]) == "Unknown option --secnds; did you mean --seconds? See toy --help.")
        #expect(message(["--fres"]) == "Unknown option --fres; did you mean --fresh? See toy --help.")
        #expect(message(["--zzzzzz"]) == "Unknown option --zzzzzz. See toy --help.")
        // A hidden option is never suggested.
        #expect(message(["--internl"]) == "Unknown option --internl. See toy --help.")
    }

    @Test func theHelpListsEveryVisibleOptionBySectionWithDefaultsAndRanges() {
        let help = Settings.table().helpText
        #expect(help.hasPrefix("toy — a tool for tests.\n\nUSAGE\n  toy [options]\n\nTIMES\n"))
        #expect(help.hasSuffix("\n\nEXAMPLES\n  toy --seconds 5"))
        let lines = help.split(separator: "\n").map(String.init)
        func line(_ flag: String) -> String { lines.first { $0.hasPrefix("  " + flag) } ?? "" }
        #expect(line("-s, --seconds N").contains("how long (1–3600)"))
        #expect(line("-s, --seconds N").hasSuffix("[60]"))
        #expect(line("-n, --name NAME").hasSuffix("[asked for]"))
        #expect(line("--fair on|off").hasSuffix("[on]"))
        #expect(line("--sizes LIST").hasSuffix("[8,100]"))
        #expect(line("--delay MS").contains("(0–1000 or none)"))
        #expect(line("--delay MS").hasSuffix("[40]"))
        #expect(line("--budget S").hasSuffix("[2.5]"))
        #expect(line("--loud") == "  --loud" + String(repeating: " ", count: 11) + "ring bells")
        #expect(!help.contains("--internal"))
        #expect(lines.contains { $0.hasPrefix("  -h, --help") } && lines.contains { $0.hasPrefix("  --version") })
        // Sections in order of first use: TIMES, then NETWORK (after the built-in help lines' section is closed).
        #expect(help.range(of: "\nTIMES\n")!.lowerBound < help.range(of: "\nNETWORK\n")!.lowerBound)
        #expect(lines.allSatisfy { $0.count <= 100 })
    }

    @Test func longSentencesWrapUnderTheirColumnAndKeepTheDefaultAtTheEdge() {
        let lines = CommandLineTable<Settings>.layOut(
            signature: "--long N", text: String(repeating: "word ", count: 30), shownDefault: "7", column: 12, width: 60
        )
        #expect(lines.count > 2)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 12) + "word") })
        #expect(lines.allSatisfy { $0.count <= 60 })
        #expect(lines.last?.hasSuffix(" [7]") == true && lines.last?.count == 60)
    }

    @Test func theToolsOwnTableHasNoDeclarationProblems() {
        #expect(Settings.table().declarationProblems() == [])
    }

    @Test func declarationProblemsAreFound() {
        // A default outside its own range, a range whose end is refused, a flag that changes nothing, a name twice.
        let broken: [CommandLineOption<Settings>] = [
            .value("--seconds", \.seconds, .integer(in: 100...200), help: "how long", section: "A"),
            .value(
                "--room", \.room, .text(placeholder: "CODE", isAllowed: { $0.count == 4 }, accepted: ["ab"]),
                help: "which room", section: "A"),
            .value(
                "--port", \.port,
                OptionValue<String>.text(placeholder: "N").map({ UInt16($0) ?? 0 }, back: { String($0) }),
                help: "where", section: "A"),
            .flag("--fresh", sets: \.isFair, to: true, help: "start over", section: "A"),
            .flag("--seconds", sets: \.isLoud, to: true, help: "again", section: "A"),
        ]
        let problems = Settings.table(options: broken).declarationProblems()
        #expect(problems.contains(#"--seconds refuses its own default "60"."#))
        #expect(problems.contains(#"--room refuses "ab", which it should accept."#))
        #expect(problems.contains("--fresh changes nothing."))
        #expect(problems.contains("--seconds is declared twice (or is built in)."))
        #expect(problems.count == 4, "\(problems)")
    }
}
