import Protocol
import Rules
import TestSupport
import Testing

@testable import Host

/// The host's command line: one table drives parsing and `--help`, and its house-rule flags take the games' ranges.
@Suite("Host options")
struct HostOptionsTests {
    func parse(_ arguments: [String]) throws(UsageError) -> (HostOptions, HostOptions.Command) {
        try HostOptions.parse(arguments)
    }

    func message(_ arguments: [String]) -> String? {
        do {
            _ = try HostOptions.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func theTableHasNoDeclarationProblems() {
        #expect(HostOptions.table.declarationProblems() == [])
    }

    @Test func theHelpMentionsEveryDeclaredFlagWithItsDefault() {
        let table = HostOptions.table
        let help = HostOptions.helpText
        for option in table.options where !option.isHidden {
            #expect(help.contains(" \(option.flag)"), "\(option.flag)")
            if let shown = option.shownDefault(table.defaults) {
                let line = help.split(separator: "\n").first {
                    $0.contains(option.flag + " ") || $0.hasSuffix(option.flag)
                }
                #expect(help.contains("[\(shown)]"), "\(option.flag) [\(shown)]")
                #expect(line != nil, "\(option.flag)")
            }
        }
        for text in ["USAGE", "partyline-host pack import FILE", "CONSOLE (type on", "EXAMPLES", "--version"] {
            #expect(help.contains(text), "\(text)")
        }
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test func everyFlagTheHostEverTookStillParsesToTheSameField() throws {
        let (options, command) = try parse([
            "--port", "5000", "--bind", "127.0.0.1", "--room", "pub", "--admin-key", "secret1", "--data", "/tmp/x",
            "--max-clients", "10", "--log-level", "warn", "--name", "Hall", "--no-discovery", "--no-console",
            "--no-fsync", "--question-seconds=30", "--after-buzz-seconds", "10", "--answer-seconds", "45",
            "--reveal-seconds", "0", "--strict", "--fairness", "off", "--queen-max-players", "12",
            "--queen-countdown-seconds", "3", "--queen-choose-seconds", "1", "--rate", "100", "--connection-rate", "0",
            "--idle-timeout", "30", "--max-output-kb", "64", "--resume",
        ])
        #expect(command == .run)
        #expect(options.port == 5000 && options.bindAddress == "127.0.0.1" && options.room == "PUB")
        #expect(options.adminKey == "secret1" && options.dataDirectory == "/tmp/x" && options.maxClients == 10)
        #expect(options.logLevel == .warning && options.hostName == "Hall")
        #expect(!options.isDiscoveryEnabled && !options.isConsoleEnabled && !options.isJournalSyncEnabled)
        #expect(options.questionSeconds == 30 && options.afterBuzzSeconds == 10 && options.answerSeconds == 45)
        #expect(options.revealSeconds == 0 && options.isStrict && !options.isFairnessEnabled)
        #expect(options.queenMaxPlayers == 12 && options.queenCountdownSeconds == 3 && options.queenChooseSeconds == 1)
        #expect(options.messagesPerSecond == 100 && options.connectionsPerSecond == 0)
        #expect(options.idleTimeoutSeconds == 30 && options.maximumOutputKilobytes == 64)
        #expect(options.resume == true)
        #expect(try parse(["--fresh"]).0.resume == false)
        #expect(try parse([]).0.resume == nil)
    }

    @Test func theDefaultsAreTheGamesOwn() throws {
        let (options, _) = try parse([])
        let shaky = ShakySettings()
        let queen = QueenSettings()
        #expect(options.questionSeconds == shaky.questionSeconds && options.afterBuzzSeconds == shaky.afterBuzzSeconds)
        #expect(options.answerSeconds == shaky.answerSeconds && options.revealSeconds == shaky.revealSeconds)
        #expect(options.isStrict == !shaky.isForgiving)
        #expect(options.queenMaxPlayers == queen.maxPlayers && options.queenChooseSeconds == queen.chooseSeconds)
        #expect(options.queenCountdownSeconds == queen.countdownSeconds)
        #expect(options.port == 4747 && options.maxClients == 2000 && options.logLevel == .info)
    }

    @Test func houseRuleFlagsAcceptExactlyTheGamesRanges() throws {
        let ranges: [(String, ClosedRange<Int>)] = [
            ("--question-seconds", ShakySettings.questionSecondsRange),
            ("--after-buzz-seconds", ShakySettings.afterBuzzSecondsRange),
            ("--answer-seconds", ShakySettings.answerSecondsRange),
            ("--reveal-seconds", ShakySettings.revealSecondsRange),
            ("--queen-max-players", QueenSettings.playerCountRange),
            ("--queen-countdown-seconds", QueenSettings.countdownSecondsRange),
            ("--queen-choose-seconds", QueenSettings.chooseSecondsRange),
        ]
        for (flag, range) in ranges {
            #expect(message([flag, String(range.lowerBound)]) == nil, "\(flag)")
            #expect(message([flag, String(range.upperBound)]) == nil, "\(flag)")
            let refusal = "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), not "
            #expect(message([flag, String(range.lowerBound - 1)])?.hasPrefix(refusal) == true, "\(flag)")
            #expect(message([flag, String(range.upperBound + 1)])?.hasPrefix(refusal) == true, "\(flag)")
        }
    }

    @Test func theRealHostPrintsItsHelpAndRefusesABadFlagInPlainWords() throws {
        let host = BuiltProducts.path("partyline-host")
        let help = try ChildProcess.run(host, ["--help"])
        #expect(help.terminationStatus == 0)
        #expect(help.output == HostOptions.helpText + "\n")
        let refused = try ChildProcess.run(host, ["--queen-choose-seconds", "0", "--port", "0", "--no-console"])
        #expect(refused.terminationStatus == 2)
        #expect(
            refused.errors == "partyline-host: --queen-choose-seconds must be a whole number from 1 to 3600, "
                + #"not "0". See partyline-host --help."# + "\n")
        #expect(refused.output.isEmpty)
        let data = TemporaryDirectory()
        let unknown = try ChildProcess.run(host, ["serve", "--data", data.path])
        #expect(unknown.terminationStatus == 2)
        #expect(unknown.errors.hasPrefix(#"partyline-host: Unknown command "serve". Commands: history, pack"#))
    }

    @Test func commandsAndMistakes() throws {
        #expect(try parse(["history", "--data", "d"]).1 == .history([]))
        #expect(try parse(["history", "fly", "--data", "d"]).1 == .history(["fly"]))
        #expect(try parse(["history", "--words", "--data", "d"]).1 == .history(["words"]))
        // `history --fly`: a mode's records asked for like an option that the host does not have.
        #expect(try parse(["history", "--fly", "--data", "d"]).1 == .history(["fly"]))
        #expect(try parse(["--data", "d", "history", "--fly", "all"]).1 == .history(["fly", "all"]))
        #expect(try parse(["--data=d", "--csv", "history", "--fly"]).1 == .history(["fly"]))
        #expect(try parse(["history", "--csv"]).1 == .history([]), "a real option after history stays one")
        #expect(throws: UsageError.self) { try parse(["--fly", "history"]) }
        // Any other command is a game's operator tool (hunt import FILE, words list…); main names the known ones.
        #expect(try parse(["hunt", "import", "office.json"]).1 == .tool(["hunt", "import", "office.json"]))
        // After the command word, options the host does not declare are the command's own.
        #expect(try parse(["history", "--hunt", "demo", "--data", "d"]).1 == .history(["hunt", "demo"]))
        #expect(
            try parse(["--data", "d", "hunt", "print", "demo", "--html"]).1
                == .tool(["hunt", "print", "demo", "--html"]))
        #expect(message(["--html", "hunt"]) == "Unknown option --html. See partyline-host --help.")
        #expect(try parse(["pack", "import", "q.csv"]).1 == .packImport(file: "q.csv"))
        #expect(try parse(["pack", "export", "pub", "q.json"]).1 == .packExport(pack: "pub", file: "q.json"))
        #expect(try parse(["--help"]).1 == .help)
        #expect(try parse(["help"]).1 == .help)
        #expect(try parse(["--version"]).1 == .version)
        #expect(
            message(["--question-seconds", "x"])
                == #"--question-seconds must be a whole number from 1 to 3600, not "x". See partyline-host --help."#)
        #expect(
            message(["--questoin-seconds", "5"])
                == "Unknown option --questoin-seconds; did you mean --question-seconds? See partyline-host --help.")
        #expect(
            message(["--room", "A"])
                == #"--room must be 2 to \#(FieldLimits.room) letters or digits, not "A". See partyline-host --help."#)
        #expect(
            message(["--fairness", "maybe"])
                == #"--fairness must be on or off, not "maybe". See partyline-host --help."#)
        #expect(message(["--port"]) == "--port needs a value (N). See partyline-host --help.")
        #expect(
            message(["pack", "import"])
                == "Use: partyline-host pack import FILE, or partyline-host pack export ID FILE.")
        #expect(try parse(["serve"]).1 == .tool(["serve"]))
    }
}
