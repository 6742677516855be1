import Foundation
import Net
import Protocol
import Rules

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `partyline-host`: the one place where the host meets the outside world: options, clock, randomness, files,
/// signals. The executable (`Sources/PartylineHost/main.swift`) only calls `run`.
package enum HostProgram {
    /// Runs `partyline-host` with `arguments` (the command line without the program's name) and exits.
    package static func run(arguments: [String]) -> Never {
        signal(SIGPIPE, SIG_IGN)

        // Everything the host shows on its terminal (stderr) goes through here: the loop never waits for the
        // terminal.
        let terminal = ConsoleOutput(fd: STDERR_FILENO)

        /// Says what went wrong on the terminal and exits with status 2.
        func fail(_ message: String) -> Never {
            terminal.write(line: "partyline-host: " + message)
            finish(2)
        }

        /// Exits once the terminal took what was queued for it (or after a few seconds, if it takes nothing).
        func finish(_ status: Int32) -> Never {
            terminal.drain(timeout: 5)
            exit(status)
        }

        /// Runs `partyline-host NOUN …` (a mode's operator tool: content, records) and exits.
        func runTool(_ words: [String], storage: Storage) -> Never {
            let tools: ToolShelf
            do {
                tools = try ToolShelf(catalog: .standard, storage: storage)
            } catch {
                fail("cannot use the data folder \(storage.directory): \(error)")
            }
            // `history --fly` (or `history fly`) asks the tool `fly` for its `history`: the mode's own records.
            var spoken = words
            if words.first == "history", words.count >= 2 {
                let noun = words[1].hasPrefix("--") ? String(words[1].dropFirst(2)) : words[1]
                spoken = [noun, "history"] + words.dropFirst(2)
            }
            switch tools.run(line: spoken, caller: .commandLine) {
            case .success(let reply)?:
                print(TerminalText.sanitized(reply.line(for: Perspective()) ?? ""))
                finish(0)
            case .failure(let error)?:
                fail(error.message)
            case nil:
                let nouns = tools.tools.map(\.noun).joined(separator: ", ")
                fail(
                    "Unknown command \"\(words.joined(separator: " "))\". Commands: history, pack"
                        + "\(nouns.isEmpty ? "" : ", " + nouns). See partyline-host --help.")
            }
        }

        let parsed: (HostOptions, HostOptions.Command)
        do {
            parsed = try HostOptions.parse(arguments)
        } catch {
            fail(error.message)
        }
        var (options, command) = parsed

        switch command {
        case .help:
            print(HostOptions.helpText)
            exit(0)
        case .version:
            print("partyline-host 0.1.0 (protocol \(wireProtocolVersion))")
            exit(0)
        default:
            break
        }

        let log = Logger.console(terminal, level: options.logLevel)
        let storage: Storage
        do {
            storage = try Storage(directory: options.resolvedDataDirectory(), log: log)
        } catch {
            fail("cannot use the data folder \(options.resolvedDataDirectory()): \(error)")
        }
        storage.isJournalSyncEnabled = options.isJournalSyncEnabled
        for problem in storage.loadProblems { log.warning(problem) }

        switch command {
        case .history(let words) where !words.isEmpty:
            if let (file, log, game) = storage.gameLog(words[0]), words.count == 1 {
                let entry = ModeCatalog.standard.entry(named: game)
                if options.isCSV {
                    let rows = entry?.logRows(log) ?? []
                    guard let header = rows.first else {
                        fail("The \(game) game \(file) has no rows for a spreadsheet.")
                    }
                    print(CSV.document(header: header, rows: Array(rows.dropFirst())), terminator: "")
                } else {
                    let lines =
                        (entry?.logLines(log) ?? ModeEntry.plainLines(log)) + RewardKeeper.GameRecord.lines(inLog: log)
                    print(lines.joined(separator: "\n"))
                }
                exit(0)
            }
            if words.count == 1, words[0].allSatisfy(\.isNumber) || words[0].hasSuffix(".json") {
                fail("There is no finished game \"\(words[0])\"; partyline-host history lists them with their numbers.")
            }
            // `history --rewards --csv`: the flag was read as an option; the rewards tool takes it as a word.
            runTool(
                ["history"] + words + (options.isCSV && words.first == "rewards" ? ["--csv"] : []), storage: storage)
        case .history:
            let lines = storage.history()
            print(
                TerminalText.sanitized(
                    lines.isEmpty
                        ? "No finished games yet in \(storage.gamesDirectory)." : lines.joined(separator: "\n")))
            finish(0)
        case .tool(let words):
            runTool(words + (options.isCSV && words.first == "rewards" ? ["--csv"] : []), storage: storage)
        case .packImport(let file):
            do {
                let pack = try storage.importPack(file: file)
                print("Imported pack \(pack.id) (\(pack.name)) with \(pack.questions.count) questions.")
                finish(0)
            } catch {
                fail("\(error)")
            }
        case .packExport(let pack, let file):
            do {
                try storage.exportPack(id: pack, file: file)
                print("Wrote \(file).")
                finish(0)
            } catch {
                fail("\(error)")
            }
        default:
            break
        }

        options.maxClients = ResourceLimits.raiseOpenFiles(toFit: options.maxClients, log: log)

        var systemRandom = SystemRandomNumberGenerator()
        let statusBar = StatusBar(output: terminal)
        let clock = GameClock(monotonic: MonotonicClock.milliseconds)
        let environment = HostEnvironment(
            now: { clock.now },
            random: {
                var generator = SystemRandomNumberGenerator()
                return generator.next()
            },
            log: log,
            consoleOutput: { terminal.write(line: $0) },
            showStatus: { statusBar.show($0) },
            feedOutput: { terminal.write(line: $0, isDim: $1) },
            consoleSize: { TerminalSize.of(terminal.fd) },
            consoleDrawing: terminal.showsStyles ? { terminal.write(drawing: $0) } : nil)

        // Resume from the journal, or start a new room.
        let isInteractive = isatty(STDIN_FILENO) == 1 && options.isConsoleEnabled
        var resumed: ResumedState?
        if FileManager.default.fileExists(atPath: storage.journalPath), options.resume != false {
            if options.resume == true {
                do {
                    resumed = try JournalReplay.load(path: storage.journalPath)
                } catch {
                    fail("cannot resume: \(error)")
                }
            } else if isInteractive {
                // Say what would come back, and ask only when something is worth resuming.
                switch Result(catching: { try JournalReplay.load(path: storage.journalPath) }) {
                case .success(let state) where state.isWorthResuming:
                    terminal.drain(timeout: 5)  // the lines before the question are on the screen first
                    FileHandle.standardError.write(
                        Data("\(state.summary). Resume it? [Y/n] ".utf8))
                    let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "y"
                    if answer.isEmpty || answer.hasPrefix("y") { resumed = state }
                case .success(let state) where state.players.isEmpty:
                    log.info("The journal of the earlier host holds nothing to resume; starting a fresh room.")
                case .success(let state):
                    log.info(
                        "The last host was stopped with quit between games; starting a fresh room "
                            + "(--resume brings back room \(state.room) with "
                            + "\(Wording.count(state.players.count, "player")))."
                    )
                case .failure(let error):
                    log.warning(
                        "The earlier host's journal cannot be resumed (\(error)); starting a fresh room (it is kept).")
                }
            } else {
                log.info(
                    "A journal exists but --resume was not given; starting a fresh room "
                        + "(the old journal is kept as journal-*.jsonl.old).")
            }
        } else if options.resume == true {
            log.warning("--resume was given but there is no journal in \(storage.directory); starting a fresh room.")
        }

        let roomCode = resumed?.room ?? options.room ?? Secrets.roomCode(using: &systemRandom)
        let adminKey = resumed?.adminKey ?? options.adminKey ?? Secrets.hex(byteCount: 8, using: &systemRandom)
        let inbox = Inbox()
        let transport: Transport
        do {
            transport = try Transport(
                bindAddress: options.bindAddress, port: options.port,
                limits: Transport.Limits(
                    maxClients: options.maxClients, connectionsPerSecond: options.connectionsPerSecond,
                    maximumOutputBytes: options.maximumOutputKilobytes * 1024), log: log)
        } catch {
            fail("cannot listen on \(options.bindAddress):\(options.port): \(error)")
        }
        if let resumed { clock.resume(from: resumed.resumedClock) }
        let core: HostCore
        do {
            core = try HostCore(
                options: options, environment: environment, storage: storage, outlet: transport, roomCode: roomCode,
                adminKey: adminKey, port: transport.port)
        } catch {
            fail("cannot use the data folder \(storage.directory): \(error)")
        }
        let server = Server(
            transport: transport, core: core, clock: clock, storage: storage, inbox: inbox, options: options)
        server.console = terminal
        do {
            if let resumed {
                if let cut = try storage.openJournal(keepingFirst: resumed.wholeLength) { log.warning(cut) }
                core.adopt(resumed)
            } else {
                try storage.startJournal(room: roomCode, adminKey: adminKey, at: clock.now)
            }
        } catch {
            fail("cannot write the journal: \(error)")
        }
        if options.isDiscoveryEnabled {
            do {
                server.discovery = try Discovery(bindAddress: options.bindAddress, port: transport.port, log: log)
                try server.poller.add(server.discovery!.socket.fd, interest: .read)
            } catch {
                log.warning("LAN discovery is off (\(error)); players can still join by typing the address.")
                server.discovery = nil
            }
        }

        FileHandle.standardOutput.write(
            Data("ready port=\(transport.port) room=\(roomCode) admin-key=\(adminKey)\n".utf8))
        let addresses = HostInfo.addresses()
        let lanAddress = addresses.first ?? "127.0.0.1"
        let clientCommand = "partyline \(lanAddress)" + (transport.port == 4747 ? "" : ":\(transport.port)")
        let textCommand = "nc \(lanAddress) \(transport.port)"
        let commandWidth = max(clientCommand.count, textCommand.count) + 3
        func padded(_ text: String) -> String { text + String(repeating: " ", count: commandWidth - text.count) }
        environment.consoleOutput(
            """

            Partyline is running. Room code: \(roomCode)   Admin key: \(adminKey)
            Players join from their laptops on this network with:
              \(padded(clientCommand))(the terminal client)
              \(padded(textCommand))(plain text: then type  join \(roomCode) NAME TEAM)
            This computer's addresses: \(addresses.joined(separator: ", "))
            Data folder: \(storage.directory)
            Type help here for the operator's commands (qr shows the phones' QR code again).

            """)
        transport.joinCode = { [port = transport.port] hostHeader in
            JoinCodes.svg(forHostHeader: hostHeader, addresses: addresses, port: port, room: roomCode)
        }
        if isatty(terminal.fd) == 1 {
            core.showJoinCodes(replyTo: .console)
        } else {
            let urls = JoinCodes.urls(addresses: addresses, port: transport.port, room: roomCode)
            environment.consoleOutput("Phones join at: " + urls.joined(separator: "  ") + "\n")
        }

        statusBar.start(prompt: isInteractive)
        server.onConsoleLine = { statusBar.entered($0) }
        server.onTerminalResize = { statusBar.refresh() }

        // Signals: a dispatch source per signal posts a stop request and wakes the loop.
        let signalQueue = DispatchQueue(label: "partyline.signals")
        let waker = server.poller.waker
        var signalSources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
            let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
            source.setEventHandler { [inbox] in
                inbox.postStop("received \(name)")
                waker.wake()
            }
            source.resume()
            signalSources.append(source)
        }
        // A resized terminal: the status bar reserves its rows again at the new bottom.
        signal(SIGWINCH, SIG_IGN)
        let resizeSource = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: signalQueue)
        resizeSource.setEventHandler { [inbox] in
            inbox.postResize()
            waker.wake()
        }
        resizeSource.resume()
        signalSources.append(resizeSource)

        // The console: a thread that reads stdin lines and hands them to the loop.
        if options.isConsoleEnabled {
            let consoleThread = Thread { [inbox] in
                while let line = readLine() {
                    inbox.post(line: line)
                    waker.wake()
                }
                inbox.postConsoleClosed()
                waker.wake()
            }
            consoleThread.start()
        }

        // The signal sources live as long as the loop: a released source would take its handler with it.
        withExtendedLifetime(signalSources) { server.run() }
        statusBar.release()
        terminal.drain(timeout: 2)  // what the terminal will take in a moment; a stalled one does not hold the exit up
        exit(0)
    }
}
