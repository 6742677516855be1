/// Every game mode of this build: the one list that the host's catalog, the client's catalog, the phone page and
/// the protocol-document tests are all checked against, so a mode missing from any of them is found at once.
public enum GameModes {
    /// The modes' wires, in the order help lists them. Adding a mode starts here.
    public static let wires: [any GameWire.Type] = [
        ShakyWire.self, QueenWire.self, WordsWire.self, FlyWire.self, OutsiderWire.self, HuntWire.self,
    ]

    /// Every mode's wire name, in order.
    public static var names: [String] { wires.map { $0.name } }

    /// The phone page's view of the mode called `name`: one JavaScript module among the host's web assets.
    public static func webView(of name: String) -> String { "mode-\(name).js" }

    /// The host's house-rule flags: each flag the modes' start options name, once (its first declaration), with the
    /// mode that declares it first; the flag presets the option of every mode that declares it.
    public static func houseRules(of wires: [any GameWire.Type] = wires) -> [(
        game: any GameWire.Type, option: StartOption
    )] {
        var rules: [(game: any GameWire.Type, option: StartOption)] = []
        for wire in wires {
            for option in wire.startGrammar.options
            where option.houseRule != nil && !rules.contains(where: { $0.option.houseRule == option.houseRule }) {
                rules.append((wire, option))
            }
        }
        return rules
    }

    /// The catalog one side `built`, when nothing is wrong with it; otherwise the program stops, saying what the
    /// side (`what`: "host's modes") lacks and which file to add, before anyone can start a game it cannot play.
    public static func complete<Catalog>(_ built: (catalog: Catalog, problems: [String]), _ what: String) -> Catalog {
        precondition(built.problems.isEmpty, "The \(what) are incomplete:\n" + built.problems.joined(separator: "\n"))
        return built.catalog
    }

    /// What is wrong with a set of modes as one side registered them, in sentences that name the mode and the fix;
    /// empty when nothing is.
    ///
    /// - Parameters:
    ///   - wires: the modes that should exist (`GameModes.wires`, or a test's list).
    ///   - hostModes: the wire names the host's catalog can start, when checking the host.
    ///   - screens: the wire names the terminal client can show, when checking the client.
    ///   - webAssets: the phone page's asset file names, when checking the page.
    public static func problems(
        wires: [any GameWire.Type], hostModes: [String]? = nil, screens: [String]? = nil,
        webAssets: Set<String>? = nil
    ) -> [String] {
        var problems: [String] = []
        let names = wires.map { $0.name }
        for name in Set(names) where names.filter({ $0 == name }).count > 1 {
            problems.append("Two modes are called \"\(name)\": wire names must be unique.")
        }
        func compare(_ registered: [String]?, side: String, registry: String) {
            guard let registered else { return }
            for name in names where !registered.contains(name) {
                problems.append("Mode \"\(name)\" has no \(side): \(registry).")
            }
            for name in registered where !names.contains(name) {
                problems.append("The \(side) \"\(name)\" is no mode of GameModes.wires: add its wire there.")
            }
        }
        compare(hostModes, side: "host entry", registry: "make its wire a HostedWire in Sources/Host/Games/")
        compare(screens, side: "client screen", registry: "make its wire a ShownWire in Sources/Client/Modes/")
        if let webAssets {
            for name in names where !webAssets.contains(webView(of: name)) {
                problems.append("Mode \"\(name)\" has no phone view: add Sources/Host/Web/\(webView(of: name)).")
            }
        }
        for wire in wires { problems += vocabularyProblems(of: wire) + startOptionProblems(of: wire) }
        for (first, option) in houseRules(of: wires) {
            for wire in wires {
                for other in wire.startGrammar.options
                where other.houseRule == option.houseRule
                    && (other.kind != option.kind || other.defaultValue != option.defaultValue)
                {
                    problems.append(
                        "Mode \"\(wire.name)\"'s option \"\(other.key)\" takes the house rule "
                            + "\(option.houseRule ?? "") with another kind or default than mode "
                            + "\"\(first.name)\"'s \"\(option.key)\": "
                            + "one flag must mean one thing.")
                }
            }
        }
        return problems
    }

    /// What is wrong within one mode's vocabulary: repeated types, types the session already uses, typed words
    /// the session would take before the mode sees them.
    static func vocabularyProblems<Wire: GameWire>(of wire: Wire.Type) -> [String] {
        var problems: [String] = []
        let name = wire.name
        for (family, types) in [
            ("message", Wire.Message.types), ("action", Wire.Action.types), ("operator command", Wire.Command.types),
        ] {
            for type in Set(types) where types.filter({ $0 == type }).count > 1 {
                problems.append("Mode \"\(name)\" lists the \(family) type \"\(type)\" twice.")
            }
        }
        for type in Wire.Message.types where SessionMessage.types.contains(type) {
            problems.append("Mode \"\(name)\"'s message type \"\(type)\" is already a session message.")
        }
        for type in Wire.Action.types + Wire.Command.types where ClientMessage.typeNames.contains(type) {
            problems.append("Mode \"\(name)\"'s action type \"\(type)\" is already a session message.")
        }
        for word in TextCommandParsing.sessionWords where claims(Wire.Action.self, word) {
            problems.append(
                "Mode \"\(name)\" reads the typed word \"\(word)\", but the session takes it first: choose another "
                    + "word (typed lines reach a mode only when they are no session command, or while it awaits one).")
        }
        return problems
    }

    /// What is wrong with one mode's start options: a key declared twice, a default outside its range or choices.
    static func startOptionProblems(of wire: any GameWire.Type) -> [String] {
        var problems: [String] = []
        let options = wire.startGrammar.options
        let keys = options.map(\.key)
        for key in Set(keys) where keys.filter({ $0 == key }).count > 1 {
            problems.append("Mode \"\(wire.name)\" declares the start option \"\(key)\" twice.")
        }
        for option in options {
            switch (option.kind, option.defaultValue) {
            case (.wholeNumber(let range), .int(let value)?) where !range.contains(Int(value)):
                problems.append(
                    "Mode \"\(wire.name)\"'s option \"\(option.key)\" defaults to \(value), outside its range.")
            case (.choice(let choices), .string(let value)?) where !choices.contains(value):
                problems.append(
                    "Mode \"\(wire.name)\"'s option \"\(option.key)\" defaults to \(value), no choice of it.")
            default: break
            }
        }
        return problems
    }

    /// Whether `action` reads `word`, alone or with an argument, as one of its commands.
    private static func claims<Action: GameAction>(_ action: Action.Type, _ word: String) -> Bool {
        Action.parse(text: word) != nil || Action.parse(text: word + " 1") != nil
    }
}
