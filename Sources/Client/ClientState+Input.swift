import Foundation
import Protocol

extension ClientState {
    /// The longest line the person may type (the host's limit for answers and commands).
    static let inputLimit = FieldLimits.text

    /// The short help shown in plain mode for `help`.
    static let plainHelp = """
        Commands: buzz (or b) · answer TEXT (or just type it on your turn) · shake (or s) · scores
          Queen's game: commands [TEXT] to browse, pick ID, order TEXT (e.g. order No. {1} must sing to No. {2})
          Operator: start shaky [N] [easy|medium|hard|mixed] · start queen · next · pause · continue · end · kick NAME · status · packs
          quit leaves.
        """

    // MARK: Typed lines (plain mode and the `:` command line)

    /// Takes in one typed line (plain mode), read at client time `now`.
    mutating func handle(line: String, at now: Int64) -> [ClientAction] {
        perform(commandLine: line, at: now)
    }

    /// Runs a typed command: text commands map to host messages; other text is an answer or an order when that fits.
    mutating func perform(commandLine line: String, at now: Int64) -> [ClientAction] {
        switch TextCommandParsing.parse(line) {
        case .message(.bye):
            return [.quit(status: 0, sayBye: true)]
        case .message(.buzz):
            return [buzz(at: now)]
        case .message(let message):
            return [.send(WireEncoding.json(message))]
        case .freeText(let text):
            guard !text.isEmpty else { return [] }
            if isMyTurn { return [.send(WireEncoding.json(.answer(text)))] }
            if isChoosingQueen { return [.send(WireEncoding.json(.command(.text(text), save: false)))] }
            return [.print("! Unknown command \"\(text.prefix(40))\". Type help for the commands.")]
        case .help:
            return [.print(ClientState.plainHelp)]
        case .usage(let usage):
            return [.print("Usage: " + usage)]
        case .join, .watch, .admin:
            return [.print("! You already joined room \(room). To join as someone else, quit and start partyline again.")]
        }
    }

    /// A buzz stamped with the client's clock at the key press.
    func buzz(at now: Int64) -> ClientAction {
        .send(WireEncoding.json(.buzz(pressedAt: now)))
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
            return [.quit(status: 0, sayBye: true)]
        }
        if ui.isConfirmingQuit {
            ui.isConfirmingQuit = false
            if key == .character("y") || key == .character("Y") { return [.quit(status: 0, sayBye: true)] }
            setNotice("Still here.", isError: false, at: now)
            return []
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
        if isMyTurn, let actions = editAnswer(key, at: now) { return actions }
        if isChoosingQueen, let actions = browseLibrary(key) { return actions }
        switch key {
        case .character(" "), .enter:
            guard role == .player else { return [] }
            guard let shaky, shaky.phase == .question else {
                if queen == nil { setNotice(game == nil ? "No game is running yet." : "Nothing to buzz for right now.", isError: false, at: now) }
                return []
            }
            return [buzz(at: now)]
        case .character("s"), .character("S"):
            guard role == .player, let shaky, shaky.phase == .question else { return [] }
            return [.send(WireEncoding.json(.shake))]
        case .character(":"):
            ui.mode = .command
            ui.text = ""
        case .character("?"):
            ui.isHelpShown = true
        case .character("q"), .character("Q"):
            if isGameRunning && role != .board {
                ui.isConfirmingQuit = true
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

    /// Edits the answer line on your team's turn; nil when the key is not for it.
    private mutating func editAnswer(_ key: Key, at now: Int64) -> [ClientAction]? {
        switch key {
        case .character(let character):
            if ui.answer.isEmpty && (character == ":" || character == "?") { return nil }
            if ui.answer.count < ClientState.inputLimit { ui.answer.append(character) }
            return []
        case .backspace:
            if !ui.answer.isEmpty { ui.answer.removeLast() }
            return []
        case .escape, .control(0x15):
            ui.answer = ""
            return []
        case .tab:
            return [.send(WireEncoding.json(.shake))]
        case .enter:
            let text = ui.answer.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else {
                setNotice("Type your answer, then press Enter.", isError: false, at: now)
                return []
            }
            ui.answer = ""
            return [.send(WireEncoding.json(.answer(text)))]
        default:
            return []
        }
    }

    /// The Queen's browsing keys; nil when the key is not for browsing.
    private mutating func browseLibrary(_ key: Key) -> [ClientAction]? {
        switch key {
        case .up: ui.selection = max(0, ui.selection - 1)
        case .down: ui.selection = min(max(0, library.count - 1), ui.selection + 1)
        case .pageUp: ui.selection = max(0, ui.selection - 10)
        case .pageDown: ui.selection = min(max(0, library.count - 1), ui.selection + 10)
        case .enter:
            guard library.indices.contains(ui.selection) else { return [] }
            return [.send(WireEncoding.json(.command(.template(library[ui.selection].id), save: false)))]
        case .character("/"):
            ui.mode = .search
            ui.text = ""
        case .character("o"), .character("O"):
            ui.mode = .order(save: false)
            ui.text = ""
        case .character("l"), .character("L"):
            return [.send(WireEncoding.json(.library(action: "list", fields: [:])))]
        default:
            return nil
        }
        return []
    }

    /// Edits the open input line (`:` command, search, own order).
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
            if case .order(let save) = ui.mode { ui.mode = .order(save: !save) }
        case .enter:
            let text = ui.text.trimmingCharacters(in: .whitespaces)
            let mode = ui.mode
            ui.mode = .none
            ui.text = ""
            switch mode {
            case .command:
                return perform(commandLine: text, at: now)
            case .search:
                let message: ClientMessage = text.isEmpty
                    ? .library(action: "list", fields: [:])
                    : .library(action: "search", fields: ["text": .string(text)])
                return [.send(WireEncoding.json(message))]
            case .order(let save):
                guard !text.isEmpty else { return [] }
                return [.send(WireEncoding.json(.command(.text(text), save: save)))]
            case .none:
                return []
            }
        default:
            break
        }
        return []
    }
}
