import Foundation
import Protocol

extension ClientState {
    /// The longest line the person may type (the host's limit for answers and commands).
    static let inputLimit = FieldLimits.text

    /// The short help shown in plain mode for `help`.
    var plainHelp: String {
        var lines = ["Commands while playing (type them and press Enter):"]
        lines += catalog.screens.flatMap { [" \($0.gameTitle):"] + $0.commandHelp }
        lines += [
            "  commands [TEXT]  the Queen's command library     scores   the standings",
            " Operator: start GAME … · next · pause · continue · end · kick NAME · status · packs",
            " quit leaves.",
            " When the game waits for your answer (your turn, the choosing Queen, an open Odd One Out round, a",
            " hunt station's task) every line is that answer; commands then start with /: /help, /scores, /quit.",
        ]
        return lines.joined(separator: "\n")
    }

    // MARK: Typed lines (plain mode and the `:` command line)

    /// Takes in one typed line (plain mode), read at client time `now`: while the game awaits this player's
    /// answer, pick or order, a bare line is that and commands need a leading `/`.
    mutating func handle(line: String, at now: Int64) -> [ClientAction] {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("/") { return perform(commandLine: String(trimmed.dropFirst()), at: now) }
        if let game = game as? any AwaitsTypedLines, game.awaitsTypedLine(self) {
            return trimmed.isEmpty ? [] : game.awaited(line: trimmed, state: self, at: now)
        }
        return perform(commandLine: line, at: now)
    }

    /// Runs a typed command: session commands map to host messages; the running game reads the rest (its
    /// commands, an answer on your turn, the Queen's order).
    mutating func perform(commandLine line: String, at now: Int64) -> [ClientAction] {
        switch TextCommandParsing.parse(line, games: catalog.startGrammars) {
        case .message(.bye):
            return [.quit(status: 0, sayBye: true)]
        case .message(let message):
            return [.send(message)]
        case .freeText(let text):
            guard !text.isEmpty else { return [] }
            if let actions = game?.interpret(line: text, state: self, at: now) { return actions }
            // The operator's other commands (a game's content, its records) are the host's console's to read.
            if role == .admin { return [.send(.console(line: text))] }
            if let owner = catalog.owner(ofCommand: text) {
                guard let game else {
                    return [.print("! No game is running yet; wait for the organiser to start one.")]
                }
                return [.print("! That is a command of \(owner), but this is \(game.gameTitle).")]
            }
            return [.print("! Unknown command \"\(text.prefix(40))\". Type help for the commands.")]
        case .help:
            return [.print(plainHelp)]
        case .usage(let usage):
            return [.print("Usage: " + usage)]
        case .join, .watch, .admin:
            return [
                .print("! You already joined room \(room). To join as someone else, quit and start partyline again.")
            ]
        }
    }

    // MARK: Keys (full screen)

    /// Takes in one key press at client time `now`; feedback goes into the notice.
    mutating func handle(_ key: Key, at now: Int64) -> [ClientAction] {
        var result: [ClientAction] = []
        for action in handleKey(key, at: now) {
            if case .print(let text) = action {
                let isError = text.hasPrefix("!") || text.hasPrefix("Usage")
                setNotice(text.hasPrefix("! ") ? String(text.dropFirst(2)) : text, isError: isError, at: now)
            } else {
                result.append(action)
            }
        }
        return result
    }

    private mutating func handleKey(_ key: Key, at now: Int64) -> [ClientAction] {
        if key == .interrupt || key == .control(4) && ui.mode == .none && ui.answer.isEmpty {
            // Leaving at once keeps the place: starting partyline again comes back as the same player.
            return [.quit(status: 0, sayBye: false)]
        }
        if let confirmation = ui.confirmation {
            ui.confirmation = nil
            if confirmation.keys.contains(key) { return confirmation.actions }
            guard case .character = key, !confirmation.typedSoFar.isEmpty else {
                setNotice(confirmation.declined, isError: false, at: now)
                return []
            }
            ui.answer += confirmation.typedSoFar  // typing on: the letter that asked was the start of a word
        }
        if ui.isHelpShown {
            ui.isHelpShown = false
            return []
        }
        if ui.panel != nil && ui.mode == .none {
            ui.panel = nil
            return []
        }
        if ui.mode != .none { return editLine(key, at: now) }
        if var screen = game {
            let actions = screen.handle(key, state: &self, at: now)
            game = screen
            if let actions { return actions }
        }
        switch key {
        case .character(" "), .enter:
            if role == .player && game == nil { setNotice("No game is running yet.", isError: false, at: now) }
        case .character(":"):
            ui.mode = .command
            ui.text = ""
        case .character("?"):
            ui.isHelpShown = true
        case .character("q"), .character("Q"):
            if isGameRunning && role != .board {
                ui.confirmation = .quit()
                return []
            }
            return [.quit(status: 0, sayBye: true)]
        case .escape:
            notice = nil
        default:
            break
        }
        return []
    }

    /// Edits the open input line (a `:` command or a game's prompt).
    private mutating func editLine(_ key: Key, at now: Int64) -> [ClientAction] {
        switch key {
        case .character(let character):
            if ui.text.count < ClientState.inputLimit { ui.text.append(character) }
        case .backspace:
            if ui.text.isEmpty { ui.mode = .none } else { ui.text.removeLast() }
        case .escape:
            ui.mode = .none
            ui.text = ""
        case .control(0x15):
            ui.text = ""
        case .tab:
            if case .prompt(var prompt) = ui.mode {
                prompt.flag.toggle()
                ui.mode = .prompt((game as? any OpensPrompts)?.retitled(prompt) ?? prompt)
            }
        case .enter:
            let text = ui.text.trimmingCharacters(in: .whitespaces)
            let mode = ui.mode
            ui.mode = .none
            ui.text = ""
            switch mode {
            case .command: return perform(commandLine: text, at: now)
            case .prompt(let prompt):
                if (game as? any OpensPrompts)?.keepsOpen(prompt) == true, !text.isEmpty {
                    ui.mode = mode  // stays until the game answers: a refused order is still there to mend
                    ui.text = text
                }
                return (game as? any OpensPrompts)?.submit(prompt, text: text, state: self) ?? []
            case .none: return []
            }
        default:
            break
        }
        return []
    }
}
