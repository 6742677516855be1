import Foundation
import Protocol
import Rules

/// The Queen's game on the wire: secret numbers go to their owners alone, everything else to everyone.
final class QueenHost: GameAdapter {
    typealias Wire = QueenWire

    /// Everything that recreates the game with the journaled events.
    struct StartRecord: Codable {
        var room: String
        var players: [String]
        var settings: QueenSettings
        var commands: [QueenCommand]
        /// The game's seed, as decimal text: JSON numbers cannot carry every UInt64 exactly.
        var seedText: Seed
        var seed: UInt64 { seedText.value }
        /// Commands given in earlier games tonight (`QueenGame.playedKey`s), drawn last; absent in older journals.
        var playedEarlier: [String]? = nil
    }

    static let entry = ModeEntry(
        QueenHost.self, aliases: ["queens", "king"],
        make: { (options, context) throws(RuleError) in try QueenHost.make(options: options, context: context) },
        restore: { try QueenHost.restore(record: $0) })

    var mode: ModeEntry { QueenHost.entry }
    var game: QueenGame
    let record: StartRecord

    init(record: StartRecord) throws(RuleError) {
        self.record = record
        game = try QueenGame(
            players: record.players, settings: record.settings, commands: record.commands, seed: record.seed,
            playedEarlier: Set(record.playedEarlier ?? []))
    }

    /// The commands given in this game, so the evening's next games draw them last.
    var playedContent: [String] { game.givenCommands.map(QueenGame.playedKey) }

    static func make(options: StartOptions, context: GameContext) throws(RuleError) -> QueenHost {
        let present = context.room.players.filter(\.isConnected)
        var settings = QueenSettings()
        settings.maxPlayers = try options.integer("maxPlayers")
        settings.countdownSeconds = try options.integer("countdownSeconds")
        settings.chooseSeconds = try options.integer("chooseSeconds")
        let autoNext = try options.integer("autoNextSeconds", default: settings.autoNextSeconds ?? 0)
        settings.autoNextSeconds = autoNext == 0 ? nil : autoNext
        if let kinds = try options.strings("kinds") {
            settings.kinds = Set(
                try kinds.map { (text) throws(RuleError) -> CommandKind in
                    guard let kind = CommandKind.named(text) else {
                        throw RuleError(
                            .badOption, "Unknown command kind \"\(text)\"; kinds: \(CommandKind.spelledList).")
                    }
                    return kind
                })
        }
        if let difficulties = try options.strings("difficulties") {
            settings.difficulties = Set(
                try difficulties.map { (text) throws(RuleError) -> CommandDifficulty in
                    guard let difficulty = CommandDifficulty(rawValue: text) else {
                        throw RuleError(
                            .badOption, "Unknown difficulty \"\(text)\"; difficulties: mild, medium, bold.")
                    }
                    return difficulty
                })
        }
        let record = StartRecord(
            room: context.room.code, players: present.map(\.name), settings: settings,
            commands: context.commands.visibleCommands, seedText: Seed(context.seed),
            playedEarlier: context.played.filter { $0.hasPrefix(QueenGame.playedKey("")) }.sorted())
        return try QueenHost(record: record)
    }

    static func restore(record json: JSONValue) throws -> QueenHost {
        try QueenHost(record: JSONCoding.decode(StartRecord.self, from: json))
    }

    var startRecord: JSONValue { (try? JSONCoding.encode(record)) ?? .null }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        let phase: String
        switch game.phase {
        case .waitingForDeal: phase = "waiting for a deal"
        case .choosing: phase = "the Queen chooses"
        case .countdown: phase = "counting down"
        case .revealed: phase = "numbers revealed"
        case .finished: phase = "over"
        }
        var parts = ["Queen's game", "round \(game.roundNumber)", phase]
        if let queen = game.queen { parts.append("Queen \(queen)") }
        if game.isPaused { parts.append("paused") }
        return parts.joined(separator: " · ")
    }

    // MARK: Input

    func start(at now: Instant) -> Step {
        let intro = Step.announcing([Outgoing(.everyone, self.intro)])
        do {
            return intro + (try apply(.deal, at: now))
        } catch {
            return intro + .announcing([Outgoing(.everyone, Notice(error.message))])
        }
    }

    func perform(_ action: QueenWire.Action, context: PlayContext) throws(RuleError) -> Step {
        switch action {
        case .command(let choice, let save):
            let mapped: QueenGame.CommandChoice
            switch choice {
            case .template(let id): mapped = .template(id: id)
            case .text(let text): mapped = .text(text)
            }
            var step = try apply(.command(player: context.player.name, choice: mapped), at: context.now)
            if save, case .text(let text) = choice {
                step.services.append(.saveCommand(CommandTemplate.libraryText(of: text)))
            }
            return step
        case .showNumber:
            return .announcing([Outgoing(.player(context.player.playerID), try secretAgain(for: context.player.name))])
        }
    }

    /// A citizen's number once more, while the round runs; why not otherwise.
    private func secretAgain(for name: String) throws(RuleError) -> QueenWire.Secret {
        guard game.phase == .choosing || game.phase == .countdown, let round = game.currentRound else {
            throw RuleError(
                .wrongPhase,
                game.phase == .revealed
                    ? "This round's numbers are revealed; the next deal brings a new one."
                    : "No numbers are dealt right now.")
        }
        guard let number = round.numbers[name] else {
            throw RuleError(
                .wrongPhase,
                round.queen == name
                    ? "You are the Queen this round: you hold no number."
                    : "You were not dealt into this round; you get a number at the next deal.")
        }
        return QueenWire.Secret(number: number, round: round.number)
    }

    /// The clocks run; when the Queen's time ran out and the host picked her order, everyone is told so (after
    /// the order, so the notice belongs to the countdown it explains).
    func tick(at now: Instant) -> Step {
        let queen = game.phase == .choosing ? game.queen : nil
        var step = (try? apply(.tick, at: now)) ?? Step()
        if let queen, let index = step.messages.firstIndex(where: { $0.message is QueenWire.Order }) {
            let notice = Notice("Time is up for Queen \(queen): the host picked the order.")
            step.messages.insert(Outgoing(.everyone, notice), at: index + 1)
        }
        return step
    }

    func playerJoined(_ player: Player, at now: Instant) -> Step {
        guard !game.players.contains(player.name) else { return Step() }  // coming back: still dealt in
        do {
            return try apply(.addPlayer(player.name), at: now)
        } catch {
            // Say why rather than leave the player waiting for a deal that will never include them.
            return .announcing([
                Outgoing(
                    .playerNamed(player.playerName),
                    Notice("You are in the room but not in this Queen's game: \(error.message)"))
            ])
        }
    }

    func playerRemoved(_ player: Player, at now: Instant) -> Step {
        (try? apply(.removePlayer(player.name), at: now)) ?? Step()
    }

    var operatorPrompt: String? {
        guard !game.isPaused else { return nil }
        switch game.phase {
        case .waitingForDeal: return "next to deal"
        case .revealed where game.nextDeadline == nil: return "next for the next round"
        default: return nil
        }
    }

    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest? {
        guard awaitsTypedLine(from: player) else { return nil }
        return QueenWire.Action.order(typed: text).request
    }

    /// The choosing Queen's typed lines are her order.
    func awaitsTypedLine(from player: Player) -> Bool { game.phase == .choosing && game.queen == player.name }

    func grants(_ permission: Permission, to player: Player) -> Bool {
        switch permission {
        case .addLibraryCommand: return game.phase == .choosing && game.queen == player.name
        }
    }

    // MARK: Messages (one builder each, for live and catch-up alike)

    private var intro: QueenWire.Intro { QueenWire.Intro(players: game.players) }

    private func commitment(round: Int, salt: [UInt8], numbers: [String: Int]) -> String {
        DealCommitment.commitment(
            room: record.room, round: round, saltHex: DealCommitment.saltHex(salt), numbers: numbers)
    }

    /// When the Queen's time to choose ends, while she chooses.
    private var choosingEnd: Instant? { game.phase == .choosing ? game.clockEnd : nil }

    private func roundMessage(_ round: QueenRound, at now: Instant) -> QueenWire.Round {
        QueenWire.Round(
            number: round.number, queen: round.queen, players: round.players,
            commitment: commitment(round: round.number, salt: round.salt, numbers: round.numbers),
            chooseMs: remaining(choosingEnd, now), deadline: choosingEnd?.milliseconds)
    }

    private func orderMessage(_ order: QueenOrder, at now: Instant) -> QueenWire.Order {
        QueenWire.Order(
            queen: game.queen, text: order.text, targets: order.targets,
            revealInMs: remaining(order.revealAt, now) ?? 0, deadline: order.revealAt.milliseconds)
    }

    private func ended(_ history: [QueenRoundRecord]) -> QueenWire.Ended {
        QueenWire.Ended(reason: "\(Wording.count(history.count, "round")) played.")
    }

    private func revealedMessage(
        round: Int, numbers: [String: Int], targets: [String], salt: [UInt8], at now: Instant
    ) -> QueenWire.Revealed {
        let text =
            game.currentRound.flatMap { $0.number == round ? $0.order?.text : nil }
            ?? game.history.last { $0.round == round }.flatMap { $0.command.isEmpty ? nil : $0.command }
        return QueenWire.Revealed(
            round: round, numbers: numbers, targets: targets, salt: DealCommitment.saltHex(salt),
            commitment: commitment(round: round, salt: salt, numbers: numbers),
            nextInMs: remaining(game.clockEnd, now), deadline: game.clockEnd?.milliseconds,
            order: text.map { QueenWire.Revealed.named($0, numbers: numbers) })
    }

    func messages(for effects: [QueenGame.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .round:
                if let round = game.currentRound {
                    outgoing.append(
                        .announcement(
                            .everyone, roundMessage(round, at: now),
                            feed:
                                "Round \(round.number): \(round.queen) is Queen; \(round.players.count - 1) numbers dealt."
                        ))
                }
            case .secret(let player, let number):
                outgoing.append(
                    Outgoing(
                        .playerNamed(PlayerName(player)), QueenWire.Secret(number: number, round: game.roundNumber)))
            case .order(let text, let targets, let revealAt):
                let order = QueenOrder(text: text, targets: targets, revealAt: revealAt)
                outgoing.append(.announcement(.everyone, orderMessage(order, at: now), feed: "The order: \(text)"))
            case .revealed(let numbers, let targets, let salt, let round):
                let revealed = revealedMessage(round: round, numbers: numbers, targets: targets, salt: salt, at: now)
                outgoing.append(.announcement(.everyone, revealed))
                if let prompt = operatorPrompt { outgoing.append(feed("Waiting for you: type \(prompt).")) }
            case .dealDeferred(let error):
                outgoing.append(Outgoing(.everyone, Notice(error.message)))
            case .paused:
                break  // the generic `steer` announces every pause
            case .resumed(let deadline):
                outgoing.append(Outgoing(.everyone, QueenWire.Resumed(remainingMs: remaining(deadline, now))))
            case .ended(let history):
                outgoing.append(Outgoing(.everyone, ended(history)))
            }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at current: Instant) -> [any HostMessage] {
        let now = game.pausedAt ?? current  // a paused game's clocks stand still: show what was left at the pause
        var messages: [any HostMessage] = [intro]
        guard let round = game.currentRound else { return messages }
        messages.append(roundMessage(round, at: now))
        if viewer.role == .player, let name = viewer.name, let number = round.numbers[name],
            game.phase == .choosing || game.phase == .countdown
        {
            messages.append(QueenWire.Secret(number: number, round: round.number))
        }
        if let order = round.order, game.phase == .countdown || game.phase == .revealed {
            messages.append(orderMessage(order, at: now))
        }
        if game.phase == .revealed, let last = game.history.last {
            messages.append(
                revealedMessage(
                    round: last.round, numbers: last.numbers, targets: last.targets, salt: last.salt, at: now))
        }
        if game.phase == .finished { messages.append(ended(game.history)) }
        return messages
    }

    /// The Queen's game keeps no points; the standings are the rounds each player has been Queen.
    var scores: any HostMessage {
        var reigns: [String: Int] = [:]
        for record in game.history { reigns[record.queen, default: 0] += 1 }
        return QueenWire.Scores(
            final: game.phase == .finished, rounds: game.history.count,
            ranking: game.players.map { QueenWire.Reign(player: $0, score: reigns[$0] ?? 0) })
    }

    /// One revealed round as the game log keeps it.
    struct RoundRecord: Codable {
        var round: Int
        var queen: String
        var command: String
        var targets: [String]
        var numbers: QueenWire.Numbers
    }

    /// The readable record of a game (games/*.json).
    struct Log: Codable {
        var players: [String]
        var rounds: [RoundRecord]
    }

    var gameLog: JSONValue {
        let rounds = game.history.map {
            RoundRecord(
                round: $0.round, queen: $0.queen, command: $0.command, targets: $0.targets,
                numbers: QueenWire.Numbers($0.numbers))
        }
        return (try? JSONCoding.encode(Log(players: record.players, rounds: rounds))) ?? .null
    }
}

/// What QueenHost does beyond the core every game has.
extension QueenHost: RosterAware, TypedLines, OperatorNotes, KeepsScore, GrantsPermissions {}

extension QueenWire: HostedWire {
    static var hostEntry: ModeEntry { QueenHost.entry }
}
