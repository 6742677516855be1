import Foundation
import Protocol
import Rules

/// Who a message from a game is for. The room routes each message; secrets are addressed narrowly.
enum Audience: Hashable {
    /// Every joined connection: players, boards and operators.
    case everyone
    /// Every terminal of one team.
    case team(TeamName)
    /// One player's terminals, by player id.
    case player(PlayerID)
    /// One player's terminals, by name (names are unique in a room).
    case playerNamed(PlayerName)
    /// Boards and operators: everyone who is not playing.
    case spectators
    /// Operators only (the quizmaster may see answers before the reveal).
    case operators
    /// Everyone except one player (used when that player gets a private variant).
    case everyoneExcept(player: PlayerID)
    /// Every player's terminals (not boards or operators).
    case players
}

/// One message a game wants sent, with its audience.
struct Outgoing {
    var audience: Audience
    var message: any HostMessage
    /// How the room sends it: as it is, or as a growing state (the whole once, then what changed; `StateStream`).
    var publication = Publication.message
    /// Whether the operators' feed tells it too, and in which words (`announcement`); nil: it is no feed news.
    var feed: Feed?

    /// How an announcement reads in the operators' feed.
    struct Feed: Equatable {
        /// The feed's words for it; nil: the message's own line as a spectator reads it.
        var wording: String?
        /// Whether it is a detail the console shows dimmed.
        var isSecondary: Bool
    }

    /// How the room sends an outgoing message.
    enum Publication: Equatable {
        /// As it is, now.
        case message
        /// A growing state's new value: the audience gets what changed, coalesced with the other changes of the turn.
        case state
        /// A growing state that must reach the audience whole (a committed order for readers that ignore deltas);
        /// not repeated when the audience already holds this whole list.
        case wholeState
        /// The state is over (a new question): its next value starts afresh, whole.
        case endState
    }

    init(_ audience: Audience, _ message: any HostMessage) {
        self.audience = audience
        self.message = message
    }

    /// News of the game: `message` to `audience`, and one line of it in the operators' feed, which the room derives
    /// (the message's spectator line, or `feed` when the operator should read more, such as the answer). Every
    /// operator and the console then see it once: a text-mode operator reads the feed line instead of the message.
    static func announcement(
        _ audience: Audience, _ message: any HostMessage, feed wording: String? = nil, isSecondary: Bool = false
    ) -> Outgoing {
        var outgoing = Outgoing(audience, message)
        outgoing.feed = Feed(wording: wording, isSecondary: isSecondary)
        return outgoing
    }

    /// The operators' feed line of an announcement (nil for any other message, or one with no words).
    var feedLine: FeedLine? {
        guard let feed, let text = feed.wording ?? message.line(for: Perspective()), !text.isEmpty else { return nil }
        return FeedLine(text, isSecondary: feed.isSecondary)
    }

    /// A growing state's new value (PROTOCOL.md §6.0).
    static func state(_ audience: Audience, _ state: some GrowingState) -> Outgoing {
        var outgoing = Outgoing(audience, state)
        outgoing.publication = .state
        return outgoing
    }

    /// A growing state's value, to reach `audience` whole.
    static func wholeState(_ audience: Audience, _ state: some GrowingState) -> Outgoing {
        var outgoing = Outgoing(audience, state)
        outgoing.publication = .wholeState
        return outgoing
    }

    /// Ends the growing state `State` for `audience`: what was noted goes out first, the next value goes whole.
    static func endState<State: GrowingState>(_ state: State.Type, _ audience: Audience) -> Outgoing {
        var outgoing = Outgoing(audience, StateEnd(state: State.type))
        outgoing.publication = .endState
        return outgoing
    }

    /// The `type` of the growing state this outgoing message publishes or ends.
    var stateType: String { (message as? StateEnd)?.state ?? type(of: message).type }
}

/// The marker an `Outgoing.endState` carries; never sent.
struct StateEnd: HostMessage {
    static let type = "stateEnd"
    /// The `type` of the state that ends.
    var state: String
}

/// What one input did to a game: the events to journal and the messages to send, in order.
///
/// Invariant: the room journals `events` before it sends `messages`, and the loop flushes the journal to disk
/// before it writes any byte of them, so nobody ever sees an outcome that a crash could take back.
struct Step {
    /// Accepted Rules events as JSON text, in the order they were applied.
    var events: [[UInt8]] = []
    /// What to announce.
    var messages: [Outgoing] = []
    /// What the game asks of the host beyond the game (for the player who acted).
    var services: [HostService] = []
    /// What to tell the operator whose command this was, in words (`Red's answer … now counts as right: +200.`).
    var reply: String?
    /// The action was refused, yet it changed the game (a wrong check-in code counts towards its lock): the player
    /// gets this as an `error` instead of `ok`, and the events are journaled and the messages sent all the same.
    var refusal: RuleError?

    /// This step followed by `other`.
    static func + (lhs: Step, rhs: Step) -> Step {
        Step(
            events: lhs.events + rhs.events, messages: lhs.messages + rhs.messages,
            services: lhs.services + rhs.services, reply: rhs.reply ?? lhs.reply,
            refusal: lhs.refusal ?? rhs.refusal)
    }

    /// A step that only announces.
    static func announcing(_ messages: [Outgoing]) -> Step { Step(messages: messages) }
}

/// Something a game asks of the host that lies outside the game itself.
enum HostService: Equatable {
    /// Store the acting player's own command in the Queen's library (and tell them how it went).
    case saveCommand(String)
}

/// Who is looking, for catch-up views (a player rejoining mid-question sees their own team's letters).
struct Viewer {
    var playerID: String?
    var name: String?
    var team: String?
    var role: Role

    /// How this viewer reads text lines.
    var perspective: Perspective {
        role == .player ? Perspective(team: team, name: name) : Perspective()
    }
}

/// What the host knows about one player action when it hands it to the game.
struct PlayContext {
    /// Who acts.
    var player: Player
    /// When the action arrived, on the game clock.
    var now: Instant
    /// The press time of a timed action (a buzz, a pick, a throw) from the client's stamp, if it sent one.
    var estimatePress: (_ stamp: Int64?) -> PressEstimate
    /// How long the first press waits for an earlier one still on its way (0 with fairness off).
    var settleMilliseconds: Int64
}

/// What a game may allow one of its players beyond playing.
enum Permission {
    /// Saving an own command to the Queen's library.
    case addLibraryCommand
}

/// What a game mode needs from the host when it starts.
struct GameContext {
    var room: Room
    var options: HostOptions
    var packs: PackLibrary
    var commands: CommandLibrary
    var seed: UInt64
    /// The modes' operator tools (their content), for a game that reads its content at start.
    var tools: ToolShelf
    /// The host's data folder, for a game that keeps records across games (a hall of fame).
    var dataDirectory: String
    /// What was played since the host started (by content key), for games that avoid repeats in one evening.
    var played: Set<String> = []
}

/// What the room reads of a running game between turns, straight from its rules (cheap: read every loop turn).
struct GameStatus: Equatable {
    /// Whether the game is over (the room then writes its log and returns to the lobby).
    var isFinished: Bool
    /// When the game next wants `tick`.
    var nextDeadline: Instant?
    /// When the game's clocks stopped, while the operator has it paused (a joiner's catch-up ends with `paused`).
    var pausedAt: Instant?

    /// Whether the operator paused the game (it waits for `continue`).
    var isPaused: Bool { pausedAt != nil }
}

/// What the host keeps of a game: how to recreate it, its readable log, and the content it has shown.
struct GameRecord {
    /// The record that, with the journaled events, recreates the game.
    var start: JSONValue
    /// The readable record of the game, for the game log.
    var log: JSONValue
    /// The content this game has shown so far (question texts, puzzles…, as keys), so later games tonight avoid it.
    var playedContent: [String]
}

/// What the operator asks of a game: `next`, `pause`, `continue`, `end`, or one of the mode's own commands.
enum OperatorOrder {
    /// A command every mode takes (pause and continue are handled once, for every mode alike).
    case steering(Steering)
    /// One of the mode's own operator commands (a quizmaster's verdict), as sent.
    case command(PlayRequest)
}

/// A running game as the room drives it, whatever the mode: a small core every game has. What only some modes do
/// is opt-in, each a capability protocol the room asks for with `as?`: `RosterAware` (players joining, leaving
/// and away mid-game), `TypedLines` (a typed line is an answer), `OperatorNotes` (a prompt, a briefing, a note
/// at the start), `KeepsScore`, `KeepsRecords` (what outlives the game), `GrantsPermissions`, `GuardsSecrets`,
/// `ContextualCommands` (typed commands that read differently as the game goes).
///
/// Modes do not implement this directly: they conform to `GameAdapter`, whose extension supplies everything the
/// modes share (decoding actions, journaling, steering, pause, ticking, replay).
protocol HostedGame: AnyObject {
    /// The mode's registry entry (its names, help, and how it reads typed lines).
    var mode: ModeEntry { get }
    /// Whether it is over, when it next wants `tick`, whether it is paused.
    var status: GameStatus { get }
    /// One line for the operator's status view.
    var statusLine: String { get }
    /// What the host keeps of the game.
    var record: GameRecord { get }
    /// What the journal's start record holds (the settings and content a resumed host starts the game again with),
    /// without the game log `record` builds too.
    var startRecord: JSONValue { get }

    /// Announces the start.
    func start(at now: Instant) -> Step
    /// Applies a player's action.
    func perform(_ request: PlayRequest, context: PlayContext) throws(RuleError) -> Step
    /// Applies the operator's order (announcing `paused` and `resumed` for every mode alike).
    func steer(_ order: OperatorOrder, at now: Instant) throws(RuleError) -> Step
    /// Advances clocks.
    func tick(at now: Instant) -> Step
    /// The messages that bring a (re)joining connection up to date, as that viewer may see it.
    func snapshot(for viewer: Viewer, at now: Instant) -> [any HostMessage]
    /// Re-applies a journaled event (effects discarded).
    func replay(_ event: JSONValue, at now: Instant) throws
}

/// A game whose roster changes while it runs: players join mid-game, are removed, or drop and come back. A game
/// without it plays with the room as it was at the start.
protocol RosterAware: HostedGame {
    /// A player joined the room mid-game (or came back).
    func playerJoined(_ player: Player, at now: Instant) -> Step
    /// A player was removed from the room (kicked or expired).
    func playerRemoved(_ player: Player, at now: Instant) -> Step
    /// A player's connection dropped: they keep their place and may come back (then `playerJoined` again), but a
    /// game that waits for everyone need not wait for them.
    func playerAway(_ player: Player, at now: Instant) -> Step
    /// Whether `player` already plays in this game (their team does): a locked room holds back only newcomers
    /// the game does not include.
    func includes(_ player: Player) -> Bool
}

extension RosterAware {
    func playerAway(_ player: Player, at now: Instant) -> Step { Step() }
    func includes(_ player: Player) -> Bool { false }
}

/// A game whose typed commands read differently as it goes (a bare `2` is a card in the race, a cell in bingo).
protocol ContextualCommands: HostedGame {
    /// Reads one of the mode's text-mode commands as the game stands now; nil when the line is none of them.
    func parse(text line: String) -> TextAction<PlayRequest>?
}

extension HostedGame {
    /// Reads a typed line as one of the game's text commands, as the game stands now.
    func parseTyped(_ line: String) -> TextAction<PlayRequest>? {
        if let contextual = self as? any ContextualCommands { return contextual.parse(text: line) }
        return mode.parseText(line)
    }
}

/// A game in which a typed line can be an answer (text mode): a word, a number, the Queen's order.
protocol TypedLines: HostedGame {
    /// Whether the game awaits a typed line from `player` now (their answer, pick or order): a text-mode line
    /// is then that, and commands need a leading `/`.
    func awaitsTypedLine(from player: Player) -> Bool
    /// What a typed line that is no command means for this player now (an answer on turn, the Queen's order).
    func interpretFreeText(_ text: String, from player: Player) -> PlayRequest?
    /// What to tell this player about a typed line that means nothing now, when the game knows better than
    /// "Unknown command" (a hunt team typing a bare code at its clue); nil for the generic answer.
    func helpForUnknownLine(_ text: String, from player: Player) -> String?
}

extension TypedLines {
    func helpForUnknownLine(_ text: String, from player: Player) -> String? { nil }
}

/// A game that tells the operator more than its status line.
protocol OperatorNotes: HostedGame {
    /// What the game waits for the operator to type, when it waits for them ("next", "accept Red or reject Red").
    var operatorPrompt: String? { get }
    /// The feed lines that bring an operator who was not there up to date (a late admin client, the console
    /// after a restart): the open question with its answer, what was typed, what waits for a verdict.
    var operatorBriefing: [String] { get }
    /// Something the operator should know about the start ("3 questions had to repeat"), if anything.
    var startNote: String? { get }
}

extension OperatorNotes {
    var operatorPrompt: String? { nil }
    var operatorBriefing: [String] { [] }
    var startNote: String? { nil }
}

/// A game that does something of its own when the host starts again from its journal.
protocol RestartAware: HostedGame {
    /// The host started again after a stop, at `now`, before every player is noted away.
    func hostRestarted(at now: Instant) -> Step
    /// Whether the game's clocks stand still since the restart until the first player is back.
    var isHeldForRestart: Bool { get }
}

/// A game with standings (`scores` answers with them; without, with the lobby).
protocol KeepsScore: HostedGame {
    /// The current standings.
    var scores: any HostMessage { get }
}

/// A game that writes what outlives it besides its log (a hunt's hall of fame).
protocol KeepsRecords: HostedGame {
    /// Writes the records; called once, when the game is over.
    func keepRecords(in storage: Storage)
}

/// A game that may allow one of its players something beyond playing.
protocol GrantsPermissions: HostedGame {
    /// Whether the game allows `player` `permission`.
    func grants(_ permission: Permission, to player: Player) -> Bool
}

/// A game with secrets players guess at (a hunt's check-in codes): the host then limits wrong guesses per
/// connection and per address (`GuessLimits`), besides whatever the game limits per team.
protocol GuardsSecrets: HostedGame {
    /// Whether `request` guesses at a secret.
    func isGuess(_ request: PlayRequest) -> Bool
}

/// A mode's host adapter: the mapping between its pure Rules value and its wire types.
///
/// A mode writes how its actions become events (`perform`), how its effects become messages (`messages`) and
/// what a late joiner sees (`snapshot`); the extension below does the rest the same way for every mode. What only
/// some modes do, a mode adds by conforming to a capability (`RosterAware`, `TypedLines`, …) in an extension that
/// names it.
protocol GameAdapter: HostedGame {
    /// The mode's wire vocabulary.
    associatedtype Wire: GameWire
    /// The mode's rules.
    associatedtype Mode: SteeredMode
    /// The mode's current state.
    var game: Mode { get set }
    /// Whether the game is over.
    var isFinished: Bool { get }
    /// When the game next wants `tick` (by default when its rules do).
    var nextDeadline: Instant? { get }
    /// The record that, with the journaled events, recreates the game.
    var startRecord: JSONValue { get }
    /// The readable record of the game, for the game log.
    var gameLog: JSONValue { get }
    /// The content this game has shown so far, as keys (none by default).
    var playedContent: [String] { get }
    /// Applies one typed action.
    func perform(_ action: Wire.Action, context: PlayContext) throws(RuleError) -> Step
    /// Applies one of the mode's own operator commands.
    func perform(command: Wire.Command, at now: Instant) throws(RuleError) -> Step
    /// Turns the mode's effects into addressed messages (and notes what the game log needs).
    func messages(for effects: [Mode.Effect], at now: Instant) -> [Outgoing]
}

extension GameAdapter {
    var status: GameStatus {
        GameStatus(isFinished: isFinished, nextDeadline: nextDeadline, pausedAt: game.pausedAt)
    }

    var nextDeadline: Instant? { game.nextDeadline }

    var record: GameRecord { GameRecord(start: startRecord, log: gameLog, playedContent: playedContent) }

    var playedContent: [String] { [] }

    /// Applies `event` to a copy and keeps it only when the mode accepts it; the step carries the event to journal.
    func apply(_ event: Mode.Event, at now: Instant) throws(RuleError) -> Step {
        var copy = game
        let effects = try copy.apply(event, at: now)
        let encoded: [UInt8]
        do {
            encoded = try JSONCoding.bytes(event)
        } catch {
            throw RuleError(.storage, "The game could not record that event (\(error)); nothing changed.")
        }
        game = copy
        return Step(events: [encoded], messages: messages(for: effects, at: now))
    }

    func perform(_ request: PlayRequest, context: PlayContext) throws(RuleError) -> Step {
        let action: Wire.Action
        do {
            action = try Wire.Action.decode(request)
        } catch {
            throw RuleError(error.code, error.message)
        }
        return try perform(action, context: context)
    }

    func steer(_ order: OperatorOrder, at now: Instant) throws(RuleError) -> Step {
        switch order {
        case .steering(let command): return try steer(command, at: now)
        case .command(let request): return try command(request, at: now)
        }
    }

    /// Applies `next`, `pause`, `continue` or `end`; `paused` and `resumed` go out here, once for every mode.
    private func steer(_ command: Steering, at now: Instant) throws(RuleError) -> Step {
        var step = try apply(Mode.Event.steer(command), at: now)
        switch command {
        case .pause:
            step.messages.append(Outgoing(.everyone, Paused(at: now.milliseconds)))
        case .resume where !step.messages.contains(where: { type(of: $0.message).type == GameResumed.type }):
            step.messages.append(Outgoing(.everyone, GameResumed()))  // a mode without a `resumed` of its own
        case .resume, .next, .end:
            break
        }
        return step
    }

    /// Applies one of the mode's own operator commands, as sent.
    private func command(_ request: PlayRequest, at now: Instant) throws(RuleError) -> Step {
        let command: Wire.Command
        do {
            command = try Wire.Command.decode(request)
        } catch {
            throw RuleError(error.code, error.message)
        }
        return try perform(command: command, at: now)
    }

    func tick(at now: Instant) -> Step { (try? apply(Mode.Event.tick, at: now)) ?? Step() }

    func replay(_ event: JSONValue, at now: Instant) throws {
        let decoded = try JSONCoding.decode(Mode.Event.self, from: event)
        do {
            _ = messages(for: try game.apply(decoded, at: now), at: now)  // rebuilds the game log; nothing is sent
        } catch {
            throw StorageError("the journal's \(Wire.title) event \(event) no longer applies: \(error.message)")
        }
    }
}

extension GameAdapter {
    /// A line for the organiser's feed that goes with no message of the game (operators only: it may say what
    /// players must not see yet, such as what the game waits for). News that players also get is an
    /// `Outgoing.announcement`, whose feed line the room derives.
    func feed(_ text: String, isSecondary: Bool = false) -> Outgoing {
        Outgoing(.operators, FeedLine(text, isSecondary: isSecondary))
    }

    /// A message's line as a spectator reads it, for the organiser's feed, when the message itself goes to other
    /// audiences in other cuts (a hall's per-team rows).
    func feed(_ message: any HostMessage, isSecondary: Bool = false) -> Outgoing {
        feed(message.line(for: Perspective()) ?? "", isSecondary: isSecondary)
    }
}

extension GameAdapter where Wire.Command == NoCommands {
    func perform(command: NoCommands, at now: Instant) throws(RuleError) -> Step {}
}

/// A mode as the host knows it: names, help and how to make or restore a game. One entry per mode.
struct ModeEntry: Sendable {
    /// The wire name (`shaky`).
    var name: String
    /// Other names `start` accepts (any case).
    var aliases: [String]
    /// The mode's name for people.
    var title: String
    /// How `start` reads the words after the game's name (its usage line is the console's help).
    var startGrammar: StartGrammar
    /// The mode's player action types.
    var actionTypes: [String]
    /// The mode's text-mode help lines.
    var textHelp: [String]
    /// The mode's own operator command types (admin only), and their console help lines.
    var commandTypes: [String]
    var commandHelp: [String]
    /// Reads one of the mode's text-mode commands (`b`, `pick b01`); nil when the line is none of them.
    var parseText: @Sendable (String) -> TextAction<PlayRequest>?
    /// Reads one of the mode's operator commands typed on the console (`accept Red`); nil when it is none.
    var parseCommand: @Sendable (String) -> TextAction<PlayRequest>?
    /// Creates a new game from a `start` request's options.
    var make: @Sendable (_ options: StartOptions, _ context: GameContext) throws(RuleError) -> any HostedGame
    /// Recreates a game from its journaled start record.
    var restore: @Sendable (_ record: JSONValue) throws -> any HostedGame
    /// The operator tools the mode brings (its content kinds, its records), each made on the data folder.
    var tools: [@Sendable (Storage) throws -> any OperatorTool]
    /// A finished game's log (games/*.json) for people, one line each (`partyline-host history GAME`).
    var logLines: @Sendable (JSONValue) -> [String]
    /// A finished game's log as spreadsheet rows, the header first (`partyline-host history GAME --csv`).
    var logRows: @Sendable (JSONValue) -> [[String]]

    /// An entry for adapter `Adapter`, with the wire's name, title, actions and help.
    init<Adapter: GameAdapter>(
        _ adapter: Adapter.Type, aliases: [String],
        make: @escaping @Sendable (_ options: StartOptions, _ context: GameContext) throws(RuleError) -> any HostedGame,
        restore: @escaping @Sendable (_ record: JSONValue) throws -> any HostedGame,
        tools: [@Sendable (Storage) throws -> any OperatorTool] = [],
        logLines: @escaping @Sendable (JSONValue) -> [String] = ModeEntry.plainLines,
        logRows: @escaping @Sendable (JSONValue) -> [[String]] = { _ in [] }
    ) {
        name = Adapter.Wire.name
        self.aliases = aliases
        title = Adapter.Wire.title
        startGrammar = Adapter.Wire.startGrammar
        actionTypes = Adapter.Wire.Action.types
        textHelp = Adapter.Wire.Action.textHelp
        commandTypes = Adapter.Wire.Command.types
        commandHelp = Adapter.Wire.Command.textHelp
        parseText = ModeEntry.reader(for: Adapter.Wire.Action.self)
        parseCommand = ModeEntry.reader(for: Adapter.Wire.Command.self)
        self.make = make
        self.restore = restore
        self.tools = tools
        self.logLines = logLines
        self.logRows = logRows
    }

    /// A log shown as its indented JSON, for modes without their own account.
    static func plainLines(_ log: JSONValue) -> [String] {
        String(decoding: JSONEncoding.pretty(log, sortingKeys: true), as: UTF8.self).split(separator: "\n").map(
            String.init)
    }

    /// Reads a typed line as one of `Action`'s text commands, as the request it sends.
    private static func reader<Action: GameAction>(for action: Action.Type)
        -> @Sendable (String) -> TextAction<
            PlayRequest
        >?
    {
        { line in
            switch Action.parse(text: line) {
            case .action(let action)?: .action(action.request)
            case .usage(let usage)?: .usage(usage)
            case nil: nil
            }
        }
    }
}

/// A mode's wire as the host plays it: each mode's host adapter file makes its wire one, with its entry.
protocol HostedWire: GameWire {
    /// The mode's registry entry on the host.
    static var hostEntry: ModeEntry { get }
}

/// The modes the host can start: `GameModes.wires`, each with its `HostedWire` entry.
package struct ModeCatalog: Sendable {
    /// The registered modes, in the order help lists them.
    let entries: [ModeEntry]
    /// Every player action and operator command type of every mode (for decoding and the `unknown_type` error),
    /// gathered once: every line a client sends is read against it.
    let actionTypes: Set<String>

    /// A catalog of `entries`.
    init(entries: [ModeEntry]) {
        self.entries = entries
        actionTypes = Set(entries.flatMap { $0.actionTypes + $0.commandTypes })
    }

    /// Every mode this build of the host plays: `GameModes.wires`, each through its `HostedWire` conformance.
    package static let standard = GameModes.complete(built(from: GameModes.wires), "host's modes")

    /// The catalog of `wires` and what is wrong with it (empty when nothing is).
    static func built(from wires: [any GameWire.Type]) -> (catalog: ModeCatalog, problems: [String]) {
        let entries = wires.compactMap { ($0 as? any HostedWire.Type)?.hostEntry }
        let problems = GameModes.problems(wires: wires, hostModes: entries.map(\.name), webAssets: WebAssets.names)
        return (ModeCatalog(entries: entries), problems)
    }

    /// The mode called `name` or one of its aliases (any case).
    func entry(named name: String) -> ModeEntry? {
        let key = name.lowercased()
        return entries.first { $0.name == key || $0.aliases.contains(key) }
    }

    /// The mode whose player actions include `type`.
    func entry(forAction type: String) -> ModeEntry? { entries.first { $0.actionTypes.contains(type) } }

    /// How `start` reads each game's words, by name and alias.
    var startGrammars: StartGrammars {
        var grammars = StartGrammars()
        for entry in entries { grammars.add(entry.startGrammar, names: [entry.name] + entry.aliases) }
        return grammars
    }

    /// `shaky (Shaky Words), queen (The Queen's game)`.
    var summary: String { entries.map { "\($0.name) (\($0.title))" }.joined(separator: ", ") }

    /// Creates a new game from a `start` request. A typed `start` line with an option the mode does not read is
    /// refused; a JSON `start` ignores it, as protocol version 1 promises, and `ignored` says what was ignored.
    func make(
        game name: String, options: JSONObject, context: GameContext, refusingUnknownOptions: Bool
    ) throws(RuleError) -> (game: any HostedGame, ignored: String?) {
        guard let entry = entry(named: name) else {
            throw RuleError(.unknownGame, "There is no game \"\(name)\". Games: \(summary).")
        }
        let read = StartOptions(
            fields: options, declared: entry.startGrammar.options, houseRules: context.options.houseRules)
        let game = try entry.make(read, context)
        let ignored = read.unreadOption(in: entry.title)
        if refusingUnknownOptions, let ignored { throw RuleError(.badOption, ignored) }
        return (game, ignored)
    }

    /// Recreates a game from its journaled start record.
    func restore(game name: String, record: JSONValue) throws -> any HostedGame {
        guard let entry = entries.first(where: { $0.name == name }) else {
            throw StorageError("the journal names an unknown game \"\(name)\"")
        }
        return try entry.restore(record)
    }
}

/// Reads typed start options by the mode's declarations (`StartGrammar.options`: range, choices, default, house
/// rule) with clear errors, in the words the operator typed them (`answer-seconds`), and remembers which keys the
/// mode asked for, so that a key the mode does not read is refused instead of silently ignored.
final class StartOptions {
    let fields: JSONObject
    /// The mode's declared options; reading an undeclared key is a programming error.
    let declared: [StartOption]
    /// The host's house rules by flag (`--answer-seconds`), which replace the declared defaults.
    let houseRules: [String: JSONValue]
    /// Every key the mode asked for, present or not, in the order it asked.
    private(set) var askedKeys: [String] = []

    /// Options `fields` read by `declared`, with the host's `houseRules` as defaults.
    init(fields: JSONObject, declared: [StartOption] = [], houseRules: [String: JSONValue] = [:]) {
        self.fields = fields
        self.declared = declared
        self.houseRules = houseRules
    }

    /// How the operator writes `key` on the console (`answerSeconds` → `answer-seconds`).
    static func spoken(_ key: String) -> String { StartOption.spoken(key) }

    private func field(_ key: String) -> JSONValue? {
        if !askedKeys.contains(key) { askedKeys.append(key) }
        return fields[key]
    }

    /// The declaration of `key`, which the mode must have declared.
    private func option(_ key: String) -> StartOption {
        guard let option = declared.first(where: { $0.key == key }) else {
            preconditionFailure("The start option \"\(key)\" is read but not declared in the wire's startGrammar.")
        }
        return option
    }

    /// The default of `option`: the host's house rule, else the declared default.
    private func defaultValue(of option: StartOption) -> JSONValue? {
        option.houseRule.flatMap { houseRules[$0] } ?? option.defaultValue
    }

    /// A whole number within the declared range; `value` replaces the default when it depends on the game.
    func integer(_ key: String, default value: Int? = nil) throws(RuleError) -> Int {
        let option = option(key)
        guard case .wholeNumber(let range) = option.kind else { preconditionFailure("\(key) is no whole number") }
        guard let field = field(key) else {
            return value ?? defaultValue(of: option)?.intValue.map { Int($0) } ?? range.lowerBound
        }
        guard let number = field.intValue, range.contains(Int(number)) else {
            throw RuleError(
                .badOption,
                "\(StartOptions.spoken(key)) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return Int(number)
    }

    /// An on/off option; `value` replaces the default when it depends on the game.
    func bool(_ key: String, default value: Bool? = nil) throws(RuleError) -> Bool {
        let option = option(key)
        guard let field = field(key) else { return value ?? defaultValue(of: option)?.boolValue ?? false }
        guard let flag = field.boolValue else {
            throw RuleError(.badOption, "\(StartOptions.spoken(key)) must be true or false.")
        }
        return flag
    }

    /// The word given for `key`, or nil when it is absent.
    func string(_ key: String) throws(RuleError) -> String? {
        _ = option(key)
        guard let field = field(key) else { return nil }
        guard let text = field.stringValue else {
            throw RuleError(.badOption, "\(StartOptions.spoken(key)) must be a word, not a number or a list.")
        }
        return text
    }

    /// One of the declared choices, lower-cased, or the default when absent.
    func choice(_ key: String) throws(RuleError) -> String {
        let option = option(key)
        guard case .choice(let choices) = option.kind else { preconditionFailure("\(key) is no choice") }
        guard let text = try string(key) else { return defaultValue(of: option)?.stringValue ?? choices[0] }
        guard choices.contains(text.lowercased()) else {
            let list =
                choices.dropLast().joined(separator: ", ") + (choices.count > 1 ? " or " : "")
                + choices[choices.count - 1]
            throw RuleError(.badOption, "\(StartOptions.spoken(key)) must be \(list), not \"\(text)\".")
        }
        return text.lowercased()
    }

    /// The names given for a list option, or nil when it is absent.
    func strings(_ key: String) throws(RuleError) -> [String]? {
        _ = option(key)
        guard let field = field(key) else { return nil }
        if let text = field.stringValue {
            return text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        guard let array = field.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
            throw RuleError(.badOption, "\(StartOptions.spoken(key)) must be a list of names.")
        }
        return array.compactMap(\.stringValue)
    }

    /// What is wrong with the first option `title` never asked for (a typo such as `judge-by-hnad=on` would start a
    /// game that ignores it), naming the closest declared option; nil when the mode read every option.
    func unreadOption(in title: String) -> String? {
        guard let unread = fields.members.map(\.key).first(where: { !askedKeys.contains($0) }) else { return nil }
        let typed = Array(TextFolding.compact(StartOptions.spoken(unread)))
        let known = (declared.isEmpty ? askedKeys : declared.map(\.key)).filter { $0 != unread }
            .map(StartOptions.spoken)
        let closest = known.map { ($0, AnswerJudge.editDistance(typed, Array(TextFolding.compact($0)))) }
            .min { $0.1 < $1.1 }
        var message = "\(title) has no option \"\(StartOptions.spoken(unread))\" here."
        if let (candidate, distance) = closest, distance <= max(2, typed.count / 3) {
            message += " Did you mean \(candidate)?"
        } else if !known.isEmpty {
            message += " Its options: \(known.joined(separator: ", "))."
        }
        return message
    }
}

/// Milliseconds from `now` until `deadline` (never negative), or nil when there is no deadline.
func remaining(_ deadline: Instant?, _ now: Instant) -> Int64? {
    deadline.map { max(0, now.milliseconds(until: $0)) }
}
