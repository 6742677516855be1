import Foundation
import Protocol
import Rules

/// The Queen's game on the wire: secret numbers go to their owners alone, everything else to everyone.
final class QueenHost: JournaledHosting {
    /// Everything that recreates the game with the journaled events.
    struct StartRecord: Codable {
        var room: String
        var players: [String]
        var settings: QueenSettings
        var commands: [QueenCommand]
        /// The game's seed, as decimal text: JSON numbers cannot carry every UInt64 exactly.
        var seedText: String
        var seed: UInt64 { UInt64(seedText) ?? 0 }
    }

    let name = "queen"
    var game: QueenGame
    let displayName = "Queen's game"
    let record0: StartRecord
    var record: ([UInt8], Instant) -> Void = { _, _ in }
    init(record: StartRecord) throws(RuleError) {
        record0 = record
        game = try QueenGame(players: record.players, settings: record.settings, commands: record.commands, seed: record.seed)
    }

    static func make(options fields: JSONObject, context: GameContext) throws(RuleError) -> QueenHost {
        let options = StartOptions(fields: fields)
        let host = context.options
        let present = context.room.players.filter(\.isConnected)
        var settings = QueenSettings()
        settings.maxPlayers = try options.integer("maxPlayers", default: host.queenMaxPlayers, in: 3...QueenSettings.playerLimit)
        settings.countdownSeconds = try options.integer("countdownSeconds", default: host.queenCountdownSeconds, in: 0...600)
        settings.chooseSeconds = try options.integer("chooseSeconds", default: host.queenChooseSeconds, in: 1...3600)
        if let next = fields["autoNextSeconds"] {
            guard let seconds = next.intValue, seconds >= 0 else { throw RuleError(.badOption, "\"autoNextSeconds\" must be a whole number of seconds.") }
            settings.autoNextSeconds = seconds == 0 ? nil : Int(seconds)
        }
        if let kinds = try options.strings("kinds") {
            settings.kinds = Set(try kinds.map { (text) throws(RuleError) -> CommandKind in
                guard let kind = CommandKind(rawValue: text) else {
                    throw RuleError(.badOption, "Unknown command kind \"\(text)\"; kinds: \(CommandKind.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                return kind
            })
        }
        if let difficulties = try options.strings("difficulties") {
            settings.difficulties = Set(try difficulties.map { (text) throws(RuleError) -> CommandDifficulty in
                guard let difficulty = CommandDifficulty(rawValue: text) else {
                    throw RuleError(.badOption, "Unknown difficulty \"\(text)\"; difficulties: mild, medium, bold.")
                }
                return difficulty
            })
        }
        let record = StartRecord(room: context.room.code, players: present.map(\.name), settings: settings,
                                 commands: context.commands.visibleCommands, seedText: String(context.seed))
        return try QueenHost(record: record)
    }

    static func restore(record json: JSONValue) throws -> QueenHost {
        try QueenHost(record: CodableBridge.value(StartRecord.self, from: json))
    }

    var startRecord: JSONValue { CodableBridge.json(record0) }
    var isFinished: Bool { game.phase == .finished }

    var statusLine: String {
        var parts = ["Queen's game", "round \(game.roundNumber)", game.phase.rawValue]
        if let queen = game.queen { parts.append("Queen \(queen)") }
        if game.isPaused { parts.append("paused") }
        return parts.joined(separator: " · ")
    }


    func start(at now: Instant) -> [Outgoing] {
        let intro = Outgoing(audience: .everyone, message: .object([
            "type": "game", "game": "queen", "players": .array(game.players.map { .string($0) })]))
        do {
            return [intro] + (try apply(.deal, at: now))
        } catch {
            return [intro, Outgoing(audience: .everyone, message: .object(["type": "notice", "message": .string(error.message)]))]
        }
    }

    func perform(_ action: PlayerAction, by player: Player, at now: Instant) throws(RuleError) -> [Outgoing] {
        switch action {
        case .command(let choice, _):
            let mapped: QueenGame.CommandChoice
            switch choice {
            case .template(let id): mapped = .template(id: id)
            case .text(let text): mapped = .text(text)
            }
            return try apply(.command(player: player.name, choice: mapped), at: now)
        case .buzz, .answer, .shake:
            throw RuleError(.wrongGame, "This is the Queen's game: there is nothing to buzz or answer. The Queen gives an order.")
        }
    }


    func playerJoined(_ player: Player, at now: Instant) -> [Outgoing] {
        do {
            return try apply(.addPlayer(player.name), at: now)
        } catch {
            // Say why rather than leave the player waiting for a deal that will never include them.
            return [Outgoing(audience: .playerNamed(player.name), message: .object([
                "type": "notice", "message": .string("You are in the room but not in this Queen's game: \(error.message)")]))]
        }
    }

    func playerRemoved(_ player: Player, at now: Instant) -> [Outgoing] {
        (try? apply(.removePlayer(player.name), at: now)) ?? []
    }


    func interpretFreeText(_ text: String, from player: Player) -> PlayerAction? {
        guard game.phase == .choosing, game.queen == player.name else { return nil }
        return .command(.text(text), save: false)
    }

    // MARK: Messages

    private func commitment(for round: QueenRound) -> String {
        DealCommitment.commitment(room: record0.room, round: round.number, saltHex: DealCommitment.saltHex(round.salt), numbers: round.numbers)
    }

    private func roundMessage(_ round: QueenRound, at now: Instant) -> JSONValue {
        .object(["type": "round", "number": .number(round.number), "queen": .string(round.queen),
                 "players": .array(round.players.map { .string($0) }), "commitment": .string(commitment(for: round)),
                 "chooseMs": ShakyHost.remaining(game.phase == .choosing ? game.nextDeadline : nil, now)])
    }

    private func orderMessage(_ order: QueenOrder, at now: Instant) -> JSONValue {
        .object(["type": "order", "queen": .optional(game.queen), "text": .string(order.text),
                 "targets": .array(order.targets.map { .number($0) }),
                 "revealInMs": ShakyHost.remaining(order.revealAt, now), "deadline": .int(order.revealAt.milliseconds)])
    }

    private func secretMessage(number: Int, round: Int) -> JSONValue {
        .object(["type": "secret", "number": .number(number), "round": .number(round)])
    }

    func messages(for effects: [QueenGame.Effect], at now: Instant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        for effect in effects {
            switch effect {
            case .round:
                if let round = game.currentRound { outgoing.append(Outgoing(audience: .everyone, message: roundMessage(round, at: now))) }
            case .secret(let player, let number):
                outgoing.append(Outgoing(audience: .playerNamed(player), message: secretMessage(number: number, round: game.roundNumber)))
            case .order(let text, let targets, let revealAt):
                outgoing.append(Outgoing(audience: .everyone, message: orderMessage(QueenOrder(text: text, targets: targets, revealAt: revealAt), at: now)))
            case .revealed(let numbers, let targets, let salt, let round):
                let saltHex = DealCommitment.saltHex(salt)
                var numberObject = JSONObject()
                for (name, number) in numbers.sorted(by: { $0.value < $1.value }) { numberObject.append(name, .number(number)) }
                outgoing.append(Outgoing(audience: .everyone, message: .object([
                    "type": "revealed", "round": .number(round), "numbers": .object(numberObject),
                    "targets": .array(targets.map { .string($0) }), "salt": .string(saltHex),
                    "commitment": .string(DealCommitment.commitment(room: record0.room, round: round, saltHex: saltHex, numbers: numbers)),
                    "nextInMs": ShakyHost.remaining(game.nextDeadline, now)])))
            case .dealDeferred(let error):
                outgoing.append(Outgoing(audience: .everyone, message: .object(["type": "notice", "message": .string(error.message)])))
            case .paused:
                outgoing.append(Outgoing(audience: .everyone, message: .object(["type": "paused"])))
            case .resumed(let deadline):
                outgoing.append(Outgoing(audience: .everyone, message: .object(["type": "resumed", "remainingMs": ShakyHost.remaining(deadline, now)])))
            case .ended(let history):
                outgoing.append(Outgoing(audience: .everyone, message: .object(["type": "ended", "game": "queen",
                                                                                 "reason": .string("\(history.count) rounds played.")])))
            }
        }
        return outgoing
    }

    func snapshot(for viewer: Viewer, at now: Instant) -> [JSONValue] {
        var messages: [JSONValue] = [.object(["type": "game", "game": "queen", "players": .array(game.players.map { .string($0) })])]
        guard let round = game.currentRound else { return messages }
        messages.append(roundMessage(round, at: now))
        if let name = viewer.name, let number = round.numbers[name],
           game.phase == .choosing || game.phase == .countdown {
            messages.append(secretMessage(number: number, round: round.number))
        }
        if let order = round.order, game.phase == .countdown { messages.append(orderMessage(order, at: now)) }
        if game.phase == .revealed, let last = game.history.last {
            let saltHex = DealCommitment.saltHex(last.salt)
            messages.append(.object(["type": "revealed", "round": .number(last.round),
                                     "numbers": .object(JSONObject(last.numbers.sorted { $0.value < $1.value }.map { ($0.key, JSONValue.number($0.value)) })),
                                     "targets": .array(last.targets.map { .string($0) }), "salt": .string(saltHex),
                                     "commitment": .string(DealCommitment.commitment(room: record0.room, round: last.round, saltHex: saltHex, numbers: last.numbers))]))
        }
        if game.isPaused { messages.append(.object(["type": "paused"])) }
        return messages
    }

    /// The Queen's game keeps no points; the standings are the rounds each player has been Queen.
    var scores: JSONValue? {
        var reigns: [String: Int] = [:]
        for record in game.history { reigns[record.queen, default: 0] += 1 }
        return .object(["type": "scores", "final": .bool(game.phase == .finished), "game": "queen", "rounds": .number(game.history.count),
                        "ranking": .array(game.players.map { .object(["player": .string($0), "score": .number(reigns[$0] ?? 0)]) })])
    }

    var gameLog: JSONValue {
        .object(["players": .array(record0.players.map { .string($0) }),
                 "rounds": .array(game.history.map { record in
                     .object(["round": .number(record.round), "queen": .string(record.queen), "command": .string(record.command),
                              "targets": .array(record.targets.map { .string($0) }),
                              "numbers": .object(JSONObject(record.numbers.sorted { $0.value < $1.value }.map { ($0.key, JSONValue.number($0.value)) }))])
                 })])
    }
}

extension JSONObject {
    /// Creates an object from ordered key-value pairs.
    init(_ pairs: [(String, JSONValue)]) {
        self.init()
        for (key, value) in pairs { append(key, value) }
    }
}
