import Foundation
import Protocol
import Rules

// The operator's console: typed lines, the join codes, history, the mode's own commands and the help texts.

extension HostCore {
    /// Runs a console line for the console itself or for an operator's connection (`{"type":"console"}`).
    func runConsole(_ line: String, replyTo target: ReplyTarget) {
        // A stray key (an arrow, Home) types an escape sequence: what is left of it is nothing to answer.
        let trimmed = TerminalText.sanitized(line, keepingLineBreaks: false).trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        // Only the console's own next line confirms or cancels its quit (an admin client's lines do neither).
        let now = instant
        var isQuitConfirmed = false
        if target.isConsole, let asked = quitAskedAt {
            quitAskedAt = nil
            isQuitConfirmed =
                ["quit", "exit", "bye"].contains(trimmed.lowercased())
                && asked.milliseconds(until: now) <= Self.quitConfirmationMilliseconds
        }
        if trimmed.lowercased() == "quit!", target.isConsole {
            environment.consoleOutput("Stopping the host…")
            isRunning = false
            return
        }
        switch TextCommandParsing.parse(trimmed, games: room.catalog.startGrammars) {
        case .message(.bye):
            guard target.isConsole else {
                return operators.refuse(target, .forbidden, "quit stops the host: only its own console can do that.")
            }
            if let game = room.game, !game.status.isFinished, !isQuitConfirmed {
                quitAskedAt = now
                return environment.consoleOutput(
                    "A game of \(game.mode.title) is running. Type quit again (or quit!) to stop the host anyway — "
                        + "starting the host again brings the game back — or end the game first.")
            }
            environment.consoleOutput("Stopping the host…")
            isRunning = false
        case .message(let message):
            operate(message, replyTo: target, isTyped: true)
        case .help:
            operators.answer(target, OkReply(message: consoleHelp))
        case .usage(let usage):
            operators.refuse(target, .badField, "Usage: " + usage)
        default:
            var words = trimmed.split(separator: " ").map(String.init)
            if words.count == 1, words[0].lowercased() == "qr" { return showJoinCodes(replyTo: target) }
            if let renewing = Self.boardCodeRequest(words) { return showBoardCode(renewing: renewing, replyTo: target) }
            if words.first?.lowercased() == "history" {
                // `history --fly tonight` (or `history fly tonight`) is the tool `fly` with the words
                // `history tonight`, as on the command line.
                let nouns = Set(operators.tools.tools.map(\.noun))
                if words.count >= 2, words[1].hasPrefix("--") || nouns.contains(words[1].lowercased()) {
                    let noun = words[1].hasPrefix("--") ? words[1].dropFirst(2) : Substring(words[1].lowercased())
                    words = [String(noun), "history"] + words.dropFirst(2)
                } else if words.count <= 2 {
                    return consoleHistory(words.dropFirst().first, replyTo: target)
                }
            }
            switch room.game?.mode.parseCommand(trimmed) {
            case .action(let request)?: return operatorCommand(request, replyTo: target)
            case .usage(let usage)?: return operators.refuse(target, .badField, "Usage: " + usage)
            case nil: break
            }
            let address = target.isConsole ? pageAddress : nil
            switch operators.tools.run(line: words, caller: target.caller, pageAddress: address) {
            case .success(let reply)?: operators.answer(target, reply)
            case .failure(let error)?: operators.refuse(target, error.code, error.message)
            case nil:
                operators.refuse(
                    target, .unknownCommand,
                    "Unknown command \"\(trimmed.prefix(40))\". Type help for the console commands.")
            }
        }
    }

    /// `qr`: the QR code of each address phones join at, in colour on a console that shows it (an admin client gets
    /// them drawn without colour in its reply).
    func showJoinCodes(replyTo target: ReplyTarget) {
        let urls = JoinCodes.urls(
            addresses: environment.addresses(), port: sessions.settings.port, room: room.room.code)
        guard target.isConsole else {
            let drawings = urls.map { JoinCodes.drawing(of: $0, size: nil, colour: false).joined(separator: "\n") }
            return operators.answer(target, OkReply(message: drawings.joined(separator: "\n")))
        }
        let size = environment.consoleSize()
        for url in urls {
            if let draw = environment.consoleDrawing {
                draw(JoinCodes.drawing(of: url, size: size, colour: true).joined(separator: "\n"))
            } else {
                environment.consoleOutput(JoinCodes.drawing(of: url, size: size, colour: false).joined(separator: "\n"))
            }
        }
    }

    /// The address phones open this host's page at: the bound address when the host listens on one, else the first
    /// LAN address (as `qr` shows it), with the room (`http://192.168.1.20:4747/ABCD`).
    var pageAddress: String {
        let bound = options.bindAddress
        let addresses =
            ["0.0.0.0", "::", ""].contains(bound)
            ? environment.addresses() : [bound.contains(":") ? "[\(bound)]" : bound]
        return JoinCodes.urls(addresses: addresses, port: sessions.settings.port, room: room.room.code)[0]
    }

    /// `history` on the console: the finished games, or game `which` in detail (as `partyline-host history`).
    private func consoleHistory(_ which: String?, replyTo target: ReplyTarget) {
        guard let which else {
            let lines = storage.history()
            return operators.answer(
                target,
                OkReply(
                    message: lines.isEmpty
                        ? "No finished games yet." : (["Finished games:"] + lines).joined(separator: "\n")))
        }
        guard let (_, log, game) = storage.gameLog(which) else {
            return operators.refuse(
                target, .unknownCommand,
                "There is no finished game \"\(which)\"; history lists them with their numbers.")
        }
        let lines =
            (room.catalog.entry(named: game)?.logLines(log) ?? ModeEntry.plainLines(log))
            + RewardKeeper.GameRecord.lines(inLog: log)
        operators.answer(target, OkReply(message: lines.joined(separator: "\n")))
    }

    /// One of the running game's own operator commands (a quizmaster's verdict).
    func operatorCommand(_ request: PlayRequest, replyTo target: ReplyTarget) {
        if let refusal = savingRefusal { return operators.refuse(target, .storage, refusal) }
        guard let game = room.game else { return operators.refuse(target, .noGame, "No game is running.") }
        guard game.mode.commandTypes.contains(request.type) else {
            if let owner = room.catalog.entries.first(where: { $0.commandTypes.contains(request.type) }) {
                return operators.refuse(
                    target, .wrongGame,
                    "\(request.type) is a command of \(owner.title), but this is \(game.mode.title).")
            }
            return operators.refuse(target, .forbidden, "Operators don't play; join as a player to play.")
        }
        let now = instant  // one instant for the game and its journal record, so a replay applies it the same
        do {
            let step = try game.steer(.command(request), at: now)
            operators.okay(target, step.reply ?? "Done.")
            room.apply(step, at: now)
        } catch {
            operators.refuse(target, error.code, error.message)
        }
    }

    // MARK: Help

    func textHelp(for role: Role?) -> String {
        switch role {
        case nil:
            return """
                Commands before joining:
                  join ROOM NAME [TEAM]   play (your team defaults to your name)
                  rejoin NAME CODE        come back as the same player (the code was shown when you joined)
                  resume ROOM TOKEN       the same with the long token
                  watch ROOM              watch only
                  admin ROOM KEY          run the show (the key is on the host's screen)
                  quit                    leave
                """
        case .player?:
            var lines = ["Commands while playing:"]
            for entry in room.catalog.entries {
                lines.append("  \(entry.title):")
                lines += entry.textHelp.map { "  " + $0 }
            }
            lines.append("  scores           the standings        help    this text        quit    leave")
            lines.append("  character [NAME] your reward character, growing with right answers (character fox)")
            lines.append("  When the game waits for your answer (your turn, the Queen choosing, an open")
            lines.append("  Odd One Out round, a hunt station's task), every line is that answer; then")
            lines.append("  commands start with /: /help, /scores, /quit.")
            return lines.joined(separator: "\n")
        case .board?:
            return "You are watching. Commands: scores, help, quit."
        case .admin?:
            return consoleHelp.replacingOccurrences(
                of: "help · quit (stops the host; during a game it asks first)",
                with: "help · quit (you leave; the game goes on)")
        }
    }

    /// The console's help: what to type to run the games, keep the room, and edit content.
    var consoleHelp: String {
        var lines = ["Operator commands:", " Running a game"]
        for entry in room.catalog.entries {
            lines.append("  " + entry.startGrammar.usage)
            if let example = entry.startGrammar.example { lines.append("      e.g. " + example) }
            if !entry.startGrammar.options.isEmpty {
                lines += StartOption.helpLines(entry.startGrammar.options, indent: "      ")
            }
        }
        lines += [
            "  next · pause · continue · end   steer the running game",
            "  scores                          the standings",
        ]
        lines += room.catalog.entries.flatMap(\.commandHelp).map { "  " + $0 }
        lines +=
            [
                " The room",
                "  status                          who is here and what is running",
                "  qr                              the QR code phones scan to join (one per network address)",
                "  kick NAME · unban NAME          bar a player (name and computer) for tonight · let back",
                "  tidy                            remove every player who is away",
                "  lock · unlock                   late arrivals wait for the next game · join at once",
                "  history · history N             tonight's finished games · one with every answer typed",
                "  history --NOUN (or NOUN history) a game's own records, e.g. history fly",
                " Questions, commands and each game's content",
                "  packs · pack show ID · pack create NAME · pack rename ID NAME · pack delete ID",
                "  pack copy ID [NAME] · pack import FILE · pack export ID FILE · pack remove ID N",
                "  pack add ID DIFFICULTY | QUESTION | ANSWER · pack edit ID N DIFFICULTY | Q | A",
                "  library list · library search TEXT · library add [kind=K] [difficulty=D] TEXT",
                "  library edit ID TEXT · library delete ID · library hide ID · library unhide ID",
            ] + operators.tools.usage.map { "  " + $0 } + [
                "  help · quit (stops the host; during a game it asks first)"
            ]
        return lines.joined(separator: "\n")
    }
}
