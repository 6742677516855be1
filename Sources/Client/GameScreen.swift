import Protocol

/// A game mode as the client shows it: its view state, fed by its wire messages, drawn by its own rows and
/// steered by its own keys. The frame around it (header, footer, lobby, help) is generic.
protocol GameScreen: Sendable, Equatable {
    /// The mode's wire vocabulary.
    associatedtype Wire: GameWire
    /// A new view from the game's intro message; nil when the intro is not this mode's.
    init?(intro: Wire.Message)
    /// Takes in one of the mode's messages, received at client time `now`; may change the generic state too.
    mutating func apply(_ message: Wire.Message, to state: inout ClientState, at now: Int64) -> [ClientAction]
    /// Whether the game is over (final scoreboard or ended).
    var isOver: Bool { get }
    /// The header's right side ("Shaky Words · question 3/10").
    var title: String { get }
    /// The body of the screen while this game runs.
    func rows(_ state: ClientState, width: Int, height: Int, now: Int64, letters: LetterStyle) -> [Row]
    /// The footer's key hints for the player at client time `now` (only what can be done now); nil for the
    /// generic ones.
    func keyHints(_ state: ClientState, now: Int64) -> String?
    /// Takes a key before the generic keys; nil when the key is not the game's.
    mutating func handle(_ key: Key, state: inout ClientState, at now: Int64) -> [ClientAction]?
    /// What a typed line (plain mode, the `:` line) that is no session command means now; nil when nothing.
    func interpret(line: String, state: ClientState, at now: Int64) -> [ClientAction]?
    /// Where the game stands, as a short tag that changes when its phase does (a notice ends with its phase).
    var phaseTag: String { get }
    /// The line plain mode prints for one of the mode's messages, after the state took it in.
    func line(for message: Wire.Message, in state: ClientState) -> String?
    /// The help screen's lines for a player of this game.
    static var keyHelp: [String] { get }
}

/// A screen that shows a line being typed in the footer (an answer, a code, a bingo cell).
protocol ShowsInputRow: GameScreen {
    /// The input row the game shows in the footer now, if any.
    func inputRow(_ state: ClientState) -> Row?
}

/// A screen that opens footer prompts of its own (the Queen's order, a challenge's name): Enter sends their text.
protocol OpensPrompts: GameScreen {
    /// Sends the text of one of this game's prompts.
    func submit(_ prompt: Prompt, text: String, state: ClientState) -> [ClientAction]
    /// The prompt as it reads after Tab flipped its flag.
    func retitled(_ prompt: Prompt) -> Prompt
    /// Whether a prompt stays open with its text after Enter sent it, until the game answers (an order that may
    /// be refused stays there to be mended).
    func keepsOpen(_ prompt: Prompt) -> Bool
}

extension OpensPrompts {
    func retitled(_ prompt: Prompt) -> Prompt { prompt }
    func keepsOpen(_ prompt: Prompt) -> Bool { false }
}

/// A screen that, at times, takes every typed line as its input (plain mode): an answer on turn, the Queen's pick.
protocol AwaitsTypedLines: GameScreen {
    /// Whether the game awaits a typed line from this player now: a plain-mode line is then that, and commands
    /// need a leading `/`.
    func awaitsTypedLine(_ state: ClientState) -> Bool
    /// What a line typed while `awaitsTypedLine` does.
    func awaited(line: String, state: ClientState, at now: Int64) -> [ClientAction]
}

/// A screen that shows the Queen's library listing itself at times (so it is no panel then).
protocol ShowsLibrary: GameScreen {
    /// Whether the game shows the library listing itself now.
    func usesLibrary(_ state: ClientState) -> Bool
}

extension GameScreen {
    /// The mode's wire name.
    var name: String { Wire.name }
    /// The mode's name for people.
    var gameTitle: String { Wire.title }

    var phaseTag: String { title }
    func keyHints(_ state: ClientState, now: Int64) -> String? { nil }
    func line(for message: Wire.Message, in state: ClientState) -> String? { message.line(for: state.perspective) }

    /// Takes in a wire object of this mode; nil when it is none of the mode's messages.
    mutating func apply(_ object: JSONObject, to state: inout ClientState, at now: Int64) -> [ClientAction]? {
        guard let message = Wire.Message.decode(object) else { return nil }
        return apply(message, to: &state, at: now)
    }

    /// The plain-mode line for a wire object of this mode.
    func line(for object: JSONObject, in state: ClientState) -> String? {
        Wire.Message.decode(object).flatMap { line(for: $0, in: state) }
    }

    /// Whether `other` is the same kind of view with the same state.
    func isEqual(to other: any GameScreen) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// A mode's wire as the client shows it: each mode's screen file makes its wire one, with its view.
protocol ShownWire: GameWire {
    /// The mode's view on the terminal client.
    static var screen: any GameScreen.Type { get }
}

/// The game screens this client can show: `GameModes.wires`, each with its `ShownWire` view.
struct ScreenCatalog: Sendable {
    /// The registered screens.
    let screens: [any GameScreen.Type]

    /// Every mode this build of the client shows: `GameModes.wires`, each through its `ShownWire` conformance.
    static let standard = GameModes.complete(built(from: GameModes.wires), "client's game screens")

    /// The catalog of `wires` and what is wrong with it (empty when nothing is).
    static func built(from wires: [any GameWire.Type]) -> (catalog: ScreenCatalog, problems: [String]) {
        let screens = wires.compactMap { ($0 as? any ShownWire.Type)?.screen }
        return (ScreenCatalog(screens: screens), GameModes.problems(wires: wires, screens: screens.map { $0.gameName }))
    }

    /// A new view for the game `name` from its intro, or nil when this client does not know the game.
    func screen(for name: String, intro: JSONObject) -> (any GameScreen)? {
        for screen in screens where screen.gameName == name {
            if let view = screen.make(intro) { return view }
        }
        return nil
    }

    /// How `start` reads each game's words (the operator's `:start` line).
    var startGrammars: StartGrammars {
        var grammars = StartGrammars()
        for screen in screens { grammars.add(screen.startGrammar, names: [screen.gameName]) }
        return grammars
    }

    /// The help lines of every game.
    var keyHelp: [String] { screens.flatMap { $0.keyHelp } }

    /// Reads a typed line as a command of some game (for plain mode's help about the wrong game).
    func owner(ofCommand line: String) -> String? {
        screens.first { $0.parses(line) }.map { $0.gameTitle }
    }
}

extension GameScreen {
    /// The mode's wire name.
    static var gameName: String { Wire.name }
    /// The mode's name for people.
    static var gameTitle: String { Wire.title }
    /// The mode's typed commands, as help lines.
    static var commandHelp: [String] { Wire.Action.textHelp }
    /// How `start` reads the words after the mode's name.
    static var startGrammar: StartGrammar { Wire.startGrammar }

    /// A view from a wire intro object.
    static func make(_ intro: JSONObject) -> Self? { Wire.Message.decode(intro).flatMap { Self(intro: $0) } }

    /// Whether `line` is one of this game's text commands.
    static func parses(_ line: String) -> Bool { Wire.Action.parse(text: line) != nil }
}
