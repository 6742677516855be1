import Testing

@testable import Protocol

/// The start grammars of the games the host ships with.
private let games: StartGrammars = {
    var games = StartGrammars()
    games.add(ShakyWire.startGrammar, names: ["shaky", "shakywords"])
    games.add(QueenWire.startGrammar, names: ["queen"])
    return games
}()

private func parse(_ line: String) -> TextCommand { TextCommandParsing.parse(line, games: games) }

private func isUsage(_ command: TextCommand) -> Bool {
    if case .usage(let text) = command { return !text.isEmpty }
    return false
}

@Suite struct TextCommandTests {
    @Test func joinWatchAndAdmin() {
        #expect(parse("join abcd Ann") == .join(room: "ABCD", name: "Ann", team: ""))
        #expect(parse("JOIN abcd Ann Red") == .join(room: "ABCD", name: "Ann", team: "Red"))
        #expect(parse("  j  abcd\tAnn   Big   Red Team  \r") == .join(room: "ABCD", name: "Ann", team: "Big Red Team"))
        #expect(parse("watch abcd") == .watch(room: "ABCD"))
        #expect(parse("admin abcd s3cret") == .admin(room: "ABCD", key: "s3cret"))
        // The admin key keeps its case; the room is upper-cased.
        #expect(parse("admin AbCd KeY") == .admin(room: "ABCD", key: "KeY"))
    }

    @Test func joiningCommandsUsedWronglyShowUsage() {
        #expect(parse("join") == .usage("join ROOM NAME [TEAM]   e.g. join ABCD Ann Red"))
        #expect(parse("join ABCD") == .usage("join ROOM NAME [TEAM]   e.g. join ABCD Ann Red"))
        #expect(parse("watch") == .usage("watch ROOM"))
        #expect(parse("watch A B") == .usage("watch ROOM"))
        #expect(parse("admin ABCD") == .usage("admin ROOM KEY"))
        #expect(parse("admin ABCD key extra") == .usage("admin ROOM KEY"))
    }

    @Test func buzzAnswerAndShakeAliases() {
        func shaky(_ line: String) -> TextAction<ShakyWire.Action>? { ShakyWire.Action.parse(text: line) }
        for alias in ["b", "B", "buzz", "BUZZ", "!", " buzz \t"] {
            #expect(
                parse(alias) == .freeText(alias.trimmingCharacters(in: .whitespaces)), "\(alias) is no session command")
            #expect(shaky(alias) == .action(.buzz(pressedAt: nil)), "\(alias)")
        }
        for alias in ["s", "shake", "Shake"] { #expect(shaky(alias) == .action(.shake), "\(alias)") }
        #expect(shaky("a Paris") == .action(.answer("Paris")))
        #expect(shaky("answer   the Eiffel Tower ") == .action(.answer("the Eiffel Tower")))
        #expect(shaky("ANSWER x") == .action(.answer("x")))
        #expect(shaky("answer") == .usage("answer YOUR ANSWER   (or just type it when it is your turn)"))
        #expect(shaky("a   ") == .usage("answer YOUR ANSWER   (or just type it when it is your turn)"))
        // A buzz or shake word followed by more text is an answer attempt, not a command.
        #expect(shaky("b flat") == nil)
        #expect(shaky("shake it off") == nil)
        #expect(parse("b flat") == .freeText("b flat"))
    }

    @Test func theQueensCommands() {
        func queen(_ line: String) -> TextAction<QueenWire.Action>? { QueenWire.Action.parse(text: line) }
        #expect(queen("pick sing-duet") == .action(.command(.template("sing-duet"), save: false)))
        #expect(queen("c x1") == .action(.command(.template("x1"), save: false)))
        #expect(
            queen("order No. {1} must sing to No. {2}")
                == .action(.command(.text("No. {1} must sing to No. {2}"), save: false)))
        #expect(queen("say hop") == .action(.command(.text("hop"), save: false)))
        #expect(queen("pick") == .usage("pick COMMAND-ID   (see: commands)"))
        #expect(queen("pick a b") == .usage("pick COMMAND-ID   (see: commands)"))
        #expect(queen("order") == .usage("order TEXT   e.g. order No. 1 must sing to No. 2"))
        #expect(queen("hello there") == nil)
    }

    @Test func simpleCommands() {
        let expected: [(String, ClientMessage)] = [
            ("scores", .scores), ("score", .scores), ("status", .status), ("quit", .bye), ("exit", .bye), ("bye", .bye),
            ("next", .next), ("n", .next), ("pause", .pause), ("continue", .resume), ("resume", .resume), ("end", .end),
            ("ping", .ping(clientTime: nil)), ("kick Ann Lee", .kick(name: "Ann Lee")),
            ("commands", .library(action: "list", fields: [:])),
            ("commands dance", .library(action: "search", fields: ["text": "dance"])),
            ("packs", .packs(action: "list", fields: [:])),
        ]
        for (line, value) in expected { #expect(parse(line) == .message(value), "\(line)") }
        #expect(isUsage(parse("kick")))

    }

    @Test func helpTopics() {
        #expect(parse("help") == .help(topic: nil))
        #expect(parse("?") == .help(topic: nil))
        #expect(parse("h Start") == .help(topic: "start"))
    }

    @Test func startWithPositionalAndKeyValueOptions() {
        guard
            case .message(.start(let game, let options)) = parse(
                "start shaky 10 mixed science,animals answer-seconds=30")
        else {
            Issue.record("not a start")
            return
        }
        #expect(game == "shaky")
        #expect(
            options == ["questions": 10, "difficulty": "mixed", "packs": ["science", "animals"], "answerSeconds": 30])
        #expect(options.members.map(\.key) == ["questions", "difficulty", "packs", "answerSeconds"])
    }

    @Test func startOptionValues() {
        #expect(parse("start queen") == .message(.start(game: "queen", options: [:])))
        #expect(
            parse("START Queen countdown-seconds=5")
                == .message(.start(game: "queen", options: ["countdownSeconds": 5])))
        #expect(
            parse("start shaky HARD strict")
                == .message(.start(game: "shaky", options: ["difficulty": "hard", "strict": true])))
        #expect(
            parse("start shaky --strict easy")
                == .message(.start(game: "shaky", options: ["strict": true, "difficulty": "easy"])))
        #expect(parse("start shaky science") == .message(.start(game: "shaky", options: ["packs": ["science"]])))
        let flags = parse("start shaky steal=on hints=no shuffle=TRUE team-mode=relay x-y-z=-3")
        #expect(
            flags
                == .message(
                    .start(
                        game: "shaky",
                        options: [
                            "steal": true, "hints": false, "shuffle": true, "teamMode": "relay", "xYZ": -3,
                        ])))
        // A comma list is a list where the game reads one (the Queen's kinds and difficulties).
        #expect(
            parse("start queen kinds=a,b difficulties=easy,hard")
                == .message(
                    .start(
                        game: "queen",
                        options: [
                            "kinds": ["a", "b"], "difficulties": ["easy", "hard"],
                        ])))
        // A later positional wins over an earlier one.
        #expect(parse("start shaky 5 20") == .message(.start(game: "shaky", options: ["questions": 20])))
        #expect(parse("start") == .usage(games.usage))
        #expect(games.usage.contains("start shaky [QUESTIONS] [easy|medium|hard|mixed] [PACK,PACK…]"))
        // A word a game has no place for is refused with that game's usage, not guessed at.
        #expect(parse("start queen 5") == .usage(QueenWire.startGrammar.usage))
        #expect(parse("start nosuchgame 5") == .usage(games.usage))
    }

    @Test func librarySubcommands() {
        let expected: [(String, ClientMessage)] = [
            ("library", .library(action: "list", fields: [:])),
            ("lib list", .library(action: "list", fields: [:])),
            ("library search hop skip", .library(action: "search", fields: ["text": "hop skip"])),
            ("library add Sing a song", .library(action: "add", fields: ["text": "Sing a song"])),
            (
                "library add kind=dare difficulty=hard Sing {1}",
                .library(action: "add", fields: ["kind": "dare", "difficulty": "hard", "text": "Sing {1}"])
            ),
            ("library add colour=red Sing", .library(action: "add", fields: ["text": "colour=red Sing"])),
            (
                "library edit c12 New words here",
                .library(action: "edit", fields: ["commandId": "c12", "text": "New words here"])
            ),
            ("library DELETE c12", .library(action: "delete", fields: ["commandId": "c12"])),
            ("library hide c3", .library(action: "hide", fields: ["commandId": "c3"])),
            ("library unhide c3", .library(action: "unhide", fields: ["commandId": "c3"])),
        ]
        for (line, value) in expected { #expect(parse(line) == .message(value), "\(line)") }
        for line in [
            "library add", "library add kind=dare", "library edit c12", "library delete", "library frobnicate",
        ] {
            #expect(parse(line) == .usage(TextCommandParsing.libraryUsage), "\(line)")
        }
    }

    @Test func packSubcommands() {
        let question: JSONValue = .object(["difficulty": "easy", "text": "2+2?", "answer": "4"])
        let expected: [(String, ClientMessage)] = [
            ("pack", .packs(action: "list", fields: [:])),
            ("pack list", .packs(action: "list", fields: [:])),
            ("pack show science", .packs(action: "show", fields: ["pack": "science"])),
            ("pack delete science", .packs(action: "delete", fields: ["pack": "science"])),
            ("pack create Party Quiz", .packs(action: "create", fields: ["name": "Party Quiz"])),
            ("pack rename p1 Better Name", .packs(action: "rename", fields: ["pack": "p1", "name": "Better Name"])),
            ("pack copy p1", .packs(action: "copy", fields: ["pack": "p1"])),
            ("pack copy p1 My Copy", .packs(action: "copy", fields: ["pack": "p1", "name": "My Copy"])),
            ("pack add p1 EASY | 2+2? | 4", .packs(action: "add", fields: ["pack": "p1", "question": question])),
            (
                "pack edit p1 3 easy|2+2?|4",
                .packs(action: "edit", fields: ["pack": "p1", "number": 3, "question": question])
            ),
            ("pack remove p1 3", .packs(action: "remove", fields: ["pack": "p1", "number": 3])),
            ("pack import /tmp/quiz.csv", .packs(action: "import", fields: ["file": "/tmp/quiz.csv"])),
            ("pack export p1 out.json", .packs(action: "export", fields: ["pack": "p1", "file": "out.json"])),
        ]
        for (line, value) in expected { #expect(parse(line) == .message(value), "\(line)") }
        for line in [
            "pack show", "pack create", "pack rename p1", "pack copy", "pack add p1 easy | only two", "pack add p1",
            "pack edit p1 x easy|a|b", "pack edit p1 3 a|b", "pack remove p1", "pack remove p1 three",
            "pack import", "pack export p1", "pack explode",
        ] {
            #expect(parse(line) == .usage(TextCommandParsing.packUsage), "\(line)")
        }
    }

    @Test func freeTextIsTrimmedAndKept() {
        #expect(parse("  Paris  ") == .freeText("Paris"))
        #expect(parse("the Eiffel tower\r") == .freeText("the Eiffel tower"))
        #expect(parse("Zürich 😀") == .freeText("Zürich 😀"))
        #expect(parse("") == .freeText(""))
        #expect(parse(" \t\u{0}\u{7} ") == .freeText(""))
        #expect(parse("{\"type\":\"buzz\"}") == .freeText("{\"type\":\"buzz\"}"))
    }

    @Test func camelCaseOfOptionNames() {
        #expect(TextCommandParsing.camelCase("answer-seconds") == "answerSeconds")
        #expect(TextCommandParsing.camelCase("questions") == "questions")
        #expect(TextCommandParsing.camelCase("a-b-c") == "aBC")
    }
}
