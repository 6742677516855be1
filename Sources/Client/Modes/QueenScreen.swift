import Protocol

/// The Queen's game as this client sees it.
struct QueenView: GameScreen {
    typealias Wire = QueenWire

    /// Where the round is.
    enum Phase: Equatable, Sendable { case waiting, choosing, countdown, revealed, ended }

    /// Whether the revealed deal matches the commitment published at the deal.
    enum Verification: Equatable, Sendable {
        case verified
        case mismatch
        /// The commitment of this round was never seen (joined late), so nothing can be checked.
        case unknown
    }

    /// The round as dealt.
    struct Round: Equatable, Sendable {
        var number: Int
        var queen: String
        var players: [String]
        var commitment: String
        /// Host ms when the Queen's time to choose ends.
        var chooseDeadline: Int64?
    }

    /// The Queen's order, counting down to the reveal.
    struct Order: Equatable, Sendable {
        var text: String
        var targets: [Int]
        var revealAt: Int64?
    }

    /// The numbers shown after the countdown.
    struct Revealed: Equatable, Sendable {
        var round: Int
        /// Name and number, by number.
        var numbers: [(name: String, number: Int)]
        var targets: [String]
        var saltHex: String
        var verification: Verification
        var nextAt: Int64?

        static func == (lhs: Revealed, rhs: Revealed) -> Bool {
            lhs.round == rhs.round && lhs.numbers.map(\.name) == rhs.numbers.map(\.name)
                && lhs.numbers.map(\.number) == rhs.numbers.map(\.number) && lhs.targets == rhs.targets
                && lhs.saltHex == rhs.saltHex && lhs.verification == rhs.verification && lhs.nextAt == rhs.nextAt
        }
    }

    var players: [String] = []
    var phase = Phase.waiting
    var round: Round?
    /// This player's secret number in the current round (citizens only).
    var secret: Int?
    /// Client ms until which the secret number is shown (`h` shows it a moment; holding `h` keeps it shown).
    var secretShownUntil: Int64?
    var order: Order?
    var revealed: Revealed?
    var endReason: String?

    init() {}

    init?(intro: QueenWire.Message) {
        guard case .intro(let intro) = intro else { return nil }
        players = intro.players
    }

    var isOver: Bool { phase == .ended }

    var title: String { "The Queen's game" + (round.map { " · round \($0.number)" } ?? "") }

    static let keyHelp = [
        "  Queen            ↑↓ choose a command, Enter shows it whole, Enter again gives it, / search,",
        "                   o your own order (No. 1, No. 2 … name who must act)",
        "  h                show your secret number for a moment (hold h to keep it shown)",
    ]

    /// How long one press of `h` shows the secret number, ms (a held key repeats faster than this).
    static let secretGlimpse: Int64 = 3000

    var phaseTag: String { "\(phase)-\(round?.number ?? 0)" }

    /// Whether the secret number is on screen at client time `now`.
    func isSecretShown(at now: Int64) -> Bool { secretShownUntil.map { now < $0 } ?? false }

    /// Whether `state`'s player is the Queen who is choosing now.
    func isChoosingQueen(_ state: ClientState) -> Bool {
        guard state.role == .player, phase == .choosing, let round else { return false }
        return round.queen == state.name
    }

    // MARK: Messages

    mutating func apply(_ message: QueenWire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction] {
        var actions: [ClientAction] = []
        switch message {
        case .intro(let intro):
            players = intro.players
        case .round(let dealt):
            if round?.number != dealt.number {
                secret = nil
                secretShownUntil = nil
                order = nil
                revealed = nil
            }
            let round = Round(
                number: dealt.number, queen: dealt.queen, players: dealt.players, commitment: dealt.commitment,
                chooseDeadline: state.deadline(dealt.deadline, remaining: dealt.chooseMs, now: now))
            self.round = round
            phase = .choosing
            if state.role == .player && round.queen == state.name {
                actions.append(.bell)
                actions.append(.send(.library(action: "list", fields: [:])))
                state.ui.selection = 0
                state.ui.panel = nil
            }
        case .secret(let secret):
            self.secret = secret.number
        case .order(let given):
            order = Order(
                text: given.text, targets: given.targets,
                revealAt: state.deadline(given.deadline, remaining: given.revealInMs, now: now))
            phase = .countdown
            if case .prompt = state.ui.mode {
                state.ui.mode = .none
                state.ui.text = ""
            }
        case .revealed(let shown):
            var verification = Verification.unknown
            if let round, round.number == shown.round, !round.commitment.isEmpty {
                verification =
                    DealCommitment.verify(
                        commitment: round.commitment, room: state.room, round: shown.round, saltHex: shown.salt,
                        numbers: shown.numbers.dictionary) ? .verified : .mismatch
            }
            revealed = Revealed(
                round: shown.round, numbers: shown.numbers.entries.sorted { $0.number < $1.number },
                targets: shown.targets, saltHex: shown.salt, verification: verification,
                nextAt: state.deadline(shown.deadline, remaining: shown.nextInMs, now: now))
            phase = .revealed
        case .ended(let ended):
            phase = .ended
            endReason = ended.reason
        case .scores:
            break
        case .resumed(let resumed):
            let deadline = state.hostDeadline(in: resumed.remainingMs, now: now)
            switch phase {
            case .choosing: round?.chooseDeadline = deadline
            case .countdown: order?.revealAt = deadline
            case .revealed: revealed?.nextAt = deadline
            default: break
            }
        }
        return actions
    }

    func line(for message: QueenWire.Message, in state: ClientState) -> String? {
        guard case .revealed = message, let revealed else { return message.line(for: state.perspective) }
        let numbers = revealed.numbers.map { "No. \($0.number) = \($0.name)" }.joined(separator: ", ")
        let check: String
        switch revealed.verification {
        case .verified: check = "✔ deal verified"
        case .mismatch:
            check =
                "!!! WARNING: the deal does NOT match the commitment published before the order — the numbers were changed !!!"
        case .unknown: check = "(deal not checked: joined after it was dealt)"
        }
        return "Reveal: \(numbers). Must act: \(revealed.targets.joined(separator: ", ")). \(check)"
    }

    // MARK: Keys and lines

    func usesLibrary(_ state: ClientState) -> Bool { isChoosingQueen(state) }

    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard isChoosingQueen(state) else { return handleCitizen(key, state: state, at: now) }
        let library = state.library
        switch key {
        case .up: state.ui.selection = max(0, state.ui.selection - 1)
        case .down: state.ui.selection = min(max(0, library.count - 1), state.ui.selection + 1)
        case .pageUp: state.ui.selection = max(0, state.ui.selection - 10)
        case .pageDown: state.ui.selection = min(max(0, library.count - 1), state.ui.selection + 10)
        case .enter:
            guard library.indices.contains(state.ui.selection) else { return [] }
            // The command is shown whole under the list; a second Enter gives it.
            let chosen = library[state.ui.selection]
            state.ui.confirmation = Confirmation(
                question: "Give order \(chosen.id) as shown above? Enter gives it, any other key goes back.",
                keys: [.enter, .character("y"), .character("Y")],
                actions: [.play(QueenWire.Action.command(.template(chosen.id), save: false))],
                declined: "Not given yet: choose again, or o for your own order.")
        case .character("/"):
            state.ui.mode = .prompt(
                Prompt(purpose: "search", label: "Search the library: ", hint: "   Enter searches · Esc cancels"))
            state.ui.text = ""
        case .character("o"), .character("O"):
            state.ui.mode = .prompt(QueenView.orderPrompt(save: false))
            state.ui.text = ""
        case .character("l"), .character("L"):
            return [.send(.library(action: "list", fields: [:]))]
        default:
            return nil
        }
        return []
    }

    /// A citizen's keys: `h` shows the secret number for a moment (held, it stays), Esc hides it.
    private mutating func handleCitizen(_ key: Key, state: ClientState, at now: Int64) -> [ClientAction]? {
        guard state.role == .player, secret != nil, phase == .choosing || phase == .countdown else { return nil }
        switch key {
        case .character("h"), .character("H"):
            secretShownUntil = now + QueenView.secretGlimpse
            return []
        case .escape where isSecretShown(at: now):
            secretShownUntil = nil
            return []
        default:
            return nil
        }
    }

    static func orderPrompt(save: Bool) -> Prompt {
        Prompt(
            purpose: "order", label: "Your order: ",
            hint: "   No. 1, No. 2 … = who must act · {queen} = you · Tab: save to library \(save ? "ON" : "off")",
            flag: save)
    }

    func retitled(_ prompt: Prompt) -> Prompt {
        prompt.purpose == "order" ? QueenView.orderPrompt(save: prompt.flag) : prompt
    }

    func keepsOpen(_ prompt: Prompt) -> Bool { prompt.purpose == "order" }

    func awaitsTypedLine(_ state: ClientState) -> Bool { isChoosingQueen(state) }

    func awaited(line: String, state: ClientState, at now: Int64) -> [ClientAction] {
        [.play(QueenWire.Action.order(typed: line))]
    }

    func submit(_ prompt: Prompt, text: String, state: ClientState) -> [ClientAction] {
        switch prompt.purpose {
        case "search":
            let message: ClientMessage =
                text.isEmpty
                ? .library(action: "list", fields: [:]) : .library(action: "search", fields: ["text": .string(text)])
            return [.send(message)]
        default:
            guard !text.isEmpty else { return [] }
            return [.play(QueenWire.Action.command(.text(text), save: prompt.flag))]
        }
    }

    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]? {
        switch QueenWire.Action.parse(text: line) {
        case .action(let action)?: return [.play(action)]
        case .usage(let usage)?: return [.print("Usage: " + usage)]
        case nil:
            return isChoosingQueen(state) ? [.play(QueenWire.Action.order(typed: line))] : nil
        }
    }

    func keyHints(_ state: ClientState, now: Int64) -> String? {
        if isChoosingQueen(state) { return "↑↓ choose · Enter shows it, Enter again orders · / search · o own order" }
        guard state.role == .player, secret != nil, phase == .choosing || phase == .countdown else { return nil }
        let number = isSecretShown(at: now) ? "Esc hides your number" : "hold [h] to see your number"
        return number + " · ? help · q quit"
    }

    // MARK: Drawing

    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters style: LetterStyle) -> [Row] {
        var rows: [Row] = []
        guard let round else {
            rows.append([])
            if phase == .ended {
                rows.append(ScreenRenderer.indent("The Queen's game is over. \(endReason ?? "")", .bold))
                rows.append(ScreenRenderer.indent("Thanks for playing! Wait here for the next game.", .dim))
            } else {
                rows.append(
                    ScreenRenderer.indent("The Queen's game · players: \(players.joined(separator: ", "))", .bold))
                rows.append(ScreenRenderer.indent("Dealing the numbers…", .dim))
            }
            return rows
        }
        let isQueen = state.role == .player && round.queen == state.name
        rows.append(
            ScreenRenderer.indent(
                "Round \(round.number) · Queen: \(round.queen)" + (isQueen ? " (you!)" : ""),
                .colored(.magenta, bold: true)))
        switch phase {
        case .choosing, .waiting:
            if isQueen {
                rows.append(
                    ScreenRenderer.indent(
                        "You are the Queen! Choose an order for your numbered citizens.",
                        Style(isBold: true, color: .yellow)))
                rows.append(
                    ScreenRenderer.indent(
                        "Name who must act as No. 1, No. 2 …: nobody (not even you) knows who holds which.", .dim))
                if let remaining = state.remaining(until: round.chooseDeadline, now: now) {
                    rows.append([
                        Span(" Time to choose  ", .bold),
                        Span(ScreenText.countdown(remaining), .colored(.yellow, bold: true)),
                    ])
                }
                rows.append([])
                rows += libraryRows(state, round: round, width: width, height: max(3, height - rows.count - 1))
            } else {
                rows.append([])
                rows += secretRows(state, now: now)
                rows.append([])
                var row: Row = [Span(" \(round.queen) is choosing an order…", .bold)]
                if let remaining = state.remaining(until: round.chooseDeadline, now: now) {
                    row.append(Span("  " + ScreenText.countdown(remaining), .colored(.yellow, bold: true)))
                }
                rows.append(row)
            }
        case .countdown:
            if let order {
                rows.append([])
                rows.append(ScreenRenderer.indent("The Queen commands:", .bold))
                rows += ScreenRenderer.wrapped(order.text, width: width, style: Style(isBold: true, color: .yellow))
                if let remaining = state.remaining(until: order.revealAt, now: now) {
                    rows.append([
                        Span(" Reveal in  ", .bold), Span(ScreenText.countdown(remaining), .colored(.red, bold: true)),
                    ])
                }
                rows.append([])
                if !isQueen { rows += secretRows(state, now: now, targets: order.targets) }
            }
        case .revealed:
            if let order { rows.append(ScreenRenderer.indent("The order: " + order.text, .bold)) }
            if let revealed { rows += revealedRows(state, revealed, now: now) }
        case .ended:
            rows.append(ScreenRenderer.indent("The Queen's game is over. \(endReason ?? "")", .bold))
        }
        if state.role != .player || !isQueen {
            rows.append([])
            rows.append(
                ScreenRenderer.indent(
                    "Commitment \(QueenView.shortHash(round.commitment)) · players: \(round.players.joined(separator: ", "))",
                    .dim))
        }
        return rows
    }

    static func shortHash(_ hex: String) -> String {
        hex.count > 16 ? String(hex.prefix(8)) + "…" + String(hex.suffix(8)) : hex
    }

    /// The citizen's number: hidden unless `h` was pressed a moment ago, and then small (a laptop screen is seen
    /// from across the room). With the order out, whether it names them shows with the number only.
    private func secretRows(_ state: ClientState, now: Int64, targets: [Int] = []) -> [Row] {
        guard state.role == .player else {
            return [ScreenRenderer.indent("Each citizen sees only their own secret number.", .dim)]
        }
        guard let secret else { return [ScreenRenderer.indent("Waiting for your secret number…", .dim)] }
        guard isSecretShown(at: now) else {
            let also = targets.isEmpty ? " (keep it to yourself)" : " and whether you must act"
            return [ScreenRenderer.indent("Your secret number is hidden: hold h to see it" + also, .dim)]
        }
        var row: Row = [Span(" Your number: ", .bold), Span(" No. \(secret) ", Style(isBold: true, isInverse: true))]
        if targets.contains(secret) {
            row.append(Span("  That's you — you must act!", Style(isBold: true, color: .red)))
        } else if !targets.isEmpty {
            row.append(Span("  Not you this time.", .dim))
        }
        return [row]
    }

    /// The library as a list (one line each, cut to fit) with the selected command whole beneath it, wrapped:
    /// what Enter would give is always readable in full.
    private func libraryRows(_ state: ClientState, round: Round, width: Int, height: Int) -> [Row] {
        let library = state.library
        guard !library.isEmpty else {
            return [ScreenRenderer.indent("Loading the command library… (l reloads, o writes your own order)", .dim)]
        }
        let selection = min(state.ui.selection, library.count - 1)
        let chosen = library[selection].text.replacingOccurrences(of: "{queen}", with: round.queen)
        let whole =
            [[]] + ScreenRenderer.wrapped("▶ " + chosen, width: width, style: Style(isBold: true, color: .yellow))
        let visible = max(1, height - 1 - whole.count)
        let start = max(0, min(selection - visible / 2, library.count - visible))
        var rows: [Row] = []
        for index in start..<min(library.count, start + visible) {
            let command = library[index]
            let text = command.text.replacingOccurrences(of: "{queen}", with: round.queen)
            let line = "\(index == selection ? "▶" : " ") \(ScreenRenderer.pad(command.id, 5)) \(text)"
            rows.append(ScreenRenderer.indent(line, index == selection ? Style(isBold: true, isInverse: true) : .plain))
        }
        rows.append(
            ScreenRenderer.indent(
                "\(selection + 1) of \(library.count) · Enter, then Enter again gives it · / search · o your own",
                .dim))
        return rows + whole
    }

    private func revealedRows(_ state: ClientState, _ revealed: Revealed, now: Int64) -> [Row] {
        var rows: [Row] = [[]]
        rows.append(ScreenRenderer.indent("The numbers were:", .bold))
        for entry in revealed.numbers {
            let isTarget = revealed.targets.contains(entry.name)
            let isMe = state.role == .player && entry.name == state.name
            var text = "  No. \(entry.number) = \(entry.name)"
            if isTarget { text += "   ← must do it" }
            if isMe { text += "   (you)" }
            rows.append(ScreenRenderer.indent(text, isTarget ? .colored(.yellow, bold: true) : (isMe ? .bold : .plain)))
        }
        rows.append([])
        switch revealed.verification {
        case .verified:
            rows.append(
                ScreenRenderer.indent(
                    "✔ deal verified: these are the numbers committed to before the order",
                    .colored(.green, bold: true)))
        case .mismatch:
            rows.append([
                Span(
                    " ⚠ WARNING: the deal does NOT match the commitment published before the order! ",
                    Style(isBold: true, isInverse: true, color: .red))
            ])
            rows.append(
                ScreenRenderer.indent(
                    "The numbers may have been changed after the Queen chose. Tell everyone.",
                    .colored(.red, bold: true)))
        case .unknown:
            rows.append(
                ScreenRenderer.indent("(deal not checked: this screen joined after the numbers were dealt)", .dim))
        }
        if let remaining = state.remaining(until: revealed.nextAt, now: now) {
            rows.append(ScreenRenderer.indent("Next round in \(ScreenText.clock(remaining))", .dim))
        } else {
            rows.append(ScreenRenderer.indent("Waiting for the quizmaster to deal the next round…", .dim))
        }
        return rows
    }
}

extension ClientState {
    /// The Queen's game view, when that game runs.
    var queen: QueenView? { game as? QueenView }

    /// Whether this player is the Queen who is choosing now.
    var isChoosingQueen: Bool { queen?.isChoosingQueen(self) ?? false }
}

/// What QueenView does beyond the core every game screen has.
extension QueenView: OpensPrompts, AwaitsTypedLines, ShowsLibrary {}

extension QueenWire: ShownWire {
    static var screen: any GameScreen.Type { QueenView.self }
}
