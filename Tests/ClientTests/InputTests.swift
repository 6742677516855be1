import Protocol
import Testing

@testable import Client

@Suite("Keys, typed lines, options, wire encoding and discovery")
struct InputTests {
    // MARK: Keys

    @Test func spaceAndEnterBuzzWithTheKeyPressTime() throws {
        var state = RendererTests.questionState
        for key in [Key.character(" "), .enter] {
            let actions = state.handle(key, at: 123_456)
            let buzz = try #require(actions.compactMap(sent).first)
            #expect(buzz == .object(["type": "buzz", "t": 123_456]))
        }
        let r1 = state.handle(.character("s"), at: 1)
        #expect(r1.isEmpty, "a shake asks first")
        #expect(state.handle(.character("s"), at: 1).compactMap(sent).map(\.typeName) == ["shake"])
    }

    @Test func noBuzzWithoutAQuestionOrForABoard() {
        var lobby = Fixtures.state([Fixtures.welcome])
        let r2 = lobby.handle(.character(" "), at: 1)
        #expect(r2.isEmpty)
        #expect(lobby.notice?.text == "No game is running yet.")
        var board = Fixtures.state(role: .board, name: "", team: "", [Fixtures.shakyGame, Fixtures.question])
        let r3 = board.handle(.character(" "), at: 1)
        #expect(r3.isEmpty)
    }

    @Test func onYourTurnTypingGoesIntoTheAnswer() throws {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question, Fixtures.turnRed])
        for character in "New  Yorq" {
            let r4 = state.handle(.character(character), at: 1)
            #expect(r4.isEmpty)
        }
        _ = state.handle(.backspace, at: 1)
        _ = state.handle(.character("k"), at: 1)
        #expect(state.ui.answer == "New  York")
        let r5 = state.handle(.tab, at: 1)
        #expect(r5.isEmpty, "a shake asks first")
        #expect(state.ui.confirmation?.question.hasPrefix("shake") == true)
        #expect(state.handle(.tab, at: 1).compactMap(sent).map(\.typeName) == ["shake"])
        let answer = try #require(state.handle(.enter, at: 1).compactMap(sent).first)
        #expect(answer == .object(["type": "answer", "text": "New  York"]))
        #expect(state.ui.answer.isEmpty)
        // q and s are letters here, not commands
        _ = state.handle(.character("q"), at: 1)
        _ = state.handle(.character("s"), at: 1)
        #expect(state.ui.answer == "qs")
        #expect(state.ui.confirmation == nil)
        _ = state.handle(.escape, at: 1)
        #expect(state.ui.answer.isEmpty)
    }

    @Test func theCommandLineSendsOperatorCommands() throws {
        var state = Fixtures.state(
            role: .admin, name: "", team: "", [#"{"type":"welcome","room":"ABCD","role":"admin","hostTime":1}"#])
        _ = state.handle(.character(":"), at: 1)
        #expect(state.ui.mode == .command)
        for character in "start shaky 5 mixed" { _ = state.handle(.character(character), at: 1) }
        let start = try #require(state.handle(.enter, at: 1).compactMap(sent).first)
        #expect(start == .object(["type": "start", "game": "shaky", "questions": 5, "difficulty": "mixed"]))
        #expect(state.ui.mode == .none)
        for command in ["next", "pause", "continue", "end", "kick Bob"] {
            _ = state.handle(.character(":"), at: 1)
            for character in command { _ = state.handle(.character(character), at: 1) }
            let message = try #require(state.handle(.enter, at: 1).compactMap(sent).first)
            #expect(message.typeName == command.split(separator: " ").first.map(String.init))
        }
        // Escape leaves the line without sending
        _ = state.handle(.character(":"), at: 1)
        _ = state.handle(.character("x"), at: 1)
        let r6 = state.handle(.escape, at: 1)
        #expect(r6.isEmpty)
        #expect(state.ui.mode == .none)
    }

    @Test func theQueenPicksSearchesAndWritesHerOwn() throws {
        var state = Fixtures.state([
            Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Ann"), Fixtures.library,
        ])
        _ = state.handle(.down, at: 1)
        #expect(state.handle(.enter, at: 1).isEmpty, "Enter first shows the command whole and asks")
        #expect(state.ui.confirmation?.question.contains("b16") == true)
        let pick = try #require(state.handle(.enter, at: 1).compactMap(sent).first)
        #expect(pick == .object(["type": "command", "template": "b16", "save": false]))

        _ = state.handle(.character("/"), at: 1)
        for character in "sing" { _ = state.handle(.character(character), at: 1) }
        let search = try #require(state.handle(.enter, at: 1).compactMap(sent).first)
        #expect(search == .object(["type": "library", "action": "search", "text": "sing"]))

        _ = state.handle(.character("o"), at: 1)
        for character in "No. {1} must sing to No. {2}" { _ = state.handle(.character(character), at: 1) }
        _ = state.handle(.tab, at: 1)
        let order = try #require(state.handle(.enter, at: 1).compactMap(sent).first)
        #expect(order == .object(["type": "command", "text": "No. {1} must sing to No. {2}", "save": true]))
        // The order stays in the input until the host gives it out: a refusal leaves it there to mend.
        #expect(state.ui.text == "No. {1} must sing to No. {2}")
        _ = state.apply(Fixtures.json(#"{"type":"error","code":"bad_placeholder","message":"No."}"#), at: 2)
        #expect(state.ui.text == "No. {1} must sing to No. {2}" && state.ui.mode != .none)
        _ = state.apply(Fixtures.json(Fixtures.order), at: 3)
        #expect(state.ui.mode == .none && state.ui.text.isEmpty)
    }

    @Test func quittingAsksFirstDuringAGame() {
        var state = RendererTests.questionState
        let r7 = state.handle(.character("q"), at: 1)
        #expect(r7.isEmpty)
        #expect(state.ui.confirmation?.isQuit == true)
        // typing on instead keeps both letters as the start of an answer
        let r8 = state.handle(.character("n"), at: 1)
        #expect(r8.isEmpty)
        #expect(state.ui.confirmation == nil)
        #expect(state.ui.answer == "qn")
        _ = state.handle(.escape, at: 1)
        _ = state.handle(.character("q"), at: 1)
        let r9 = state.handle(.character("y"), at: 1)
        #expect(r9 == [.quit(status: 0, sayBye: true)])
        var lobby = Fixtures.state([Fixtures.welcome])
        let r10 = lobby.handle(.character("q"), at: 1)
        #expect(r10 == [.quit(status: 0, sayBye: true)])
        // Ctrl-C leaves at once without a goodbye: the place is kept for coming back.
        let r11 = state.handle(.interrupt, at: 1)
        #expect(r11 == [.quit(status: 0, sayBye: false)])
    }

    @Test func keyDecoderReadsArrowsUTF8AndSplitSequences() {
        var decoder = KeyDecoder()
        let r12 = decoder.feed(Array("a \r".utf8))
        #expect(r12 == [.character("a"), .character(" "), .enter])
        let r13 = decoder.feed([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42])
        #expect(r13 == [.up, .down])
        let r14 = decoder.feed([0x1B, 0x5B])
        #expect(r14 == [])  // unfinished
        let r15 = decoder.feed([0x43])
        #expect(r15 == [.right])
        let r16 = decoder.feed([0xC3])
        #expect(r16 == [])
        let r17 = decoder.feed([0xA9])
        #expect(r17 == [.character("é")])
        let r18 = decoder.feed([0x1B])
        #expect(r18 == [.escape])
        let r19 = decoder.feed([0x7F, 0x09, 0x03])
        #expect(r19 == [.backspace, .tab, .interrupt])
        let r20 = decoder.feed([0x1B, 0x5B, 0x35, 0x7E])
        #expect(r20 == [.pageUp])
    }

    // MARK: Lines (plain mode)

    @Test func typedLinesBecomeMessages() throws {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.shakyGame, Fixtures.question])
        let r21 = state.handle(line: "buzz", at: 777)
        #expect(r21.compactMap(sent) == [.object(["type": "buzz", "t": 777])])
        let r22 = state.handle(line: "shake", at: 1)
        #expect(r22.compactMap(sent).map(\.typeName) == ["shake"])
        let r23 = state.handle(line: "answer the falcon", at: 1)
        #expect(r23.compactMap(sent) == [.object(["type": "answer", "text": "the falcon"])])
        // Another game's commands are explained here instead of being sent to be refused.
        let r24 = state.handle(line: "pick b12", at: 1)
        #expect(r24 == [.print("! That is a command of The Queen's game, but this is Shaky Words.")])
        let r25 = state.handle(line: "order No. {1} hops", at: 1)
        #expect(r25 == [.print("! That is a command of The Queen's game, but this is Shaky Words.")])
        let r26 = state.handle(line: "quit", at: 1)
        #expect(r26 == [.quit(status: 0, sayBye: true)])
        // free text is an answer only on your turn
        guard case .print(let refusal)? = state.handle(line: "horus", at: 1).first else {
            Issue.record("free text off-turn should be refused")
            return
        }
        #expect(refusal.hasPrefix("! Unknown command"))
        _ = state.apply(Fixtures.json(Fixtures.turnRed), at: 2)
        let r27 = state.handle(line: "horus", at: 3)
        #expect(r27.compactMap(sent) == [.object(["type": "answer", "text": "horus"])])
    }

    @Test func freeTextIsTheQueensOrder() {
        var state = Fixtures.state([Fixtures.welcome, Fixtures.queenGame, Fixtures.round(queen: "Ann")])
        let r28 = state.handle(line: "No. {1} bows", at: 1)
        #expect(
            r28.compactMap(sent)
                == [.object(["type": "command", "text": "No. {1} bows", "save": false])])
    }

    // MARK: Wire encoding

    @Test func everyEncodedMessageDecodesBackToItself() throws {
        let messages: [ClientMessage] = [
            .hello(Hello(room: "ABCD", name: "Ann", team: "Red", role: .player, resume: "tok", isSyncing: true)),
            .hello(Hello(room: "ABCD", name: "", role: .admin, key: "k3y", isSyncing: true)),
            .ping(clientTime: 5), .sync(SyncReply(sequence: 1, hostSent: 2, clientReceived: 3, clientSent: 4)),
            .start(game: "shaky", options: ["questions": 5]), .next, .pause, .resume, .end, .kick(name: "Bob"),
            .library(action: "search", fields: ["text": "sing"]), .packs(action: "show", fields: ["pack": "animals"]),
            .status, .scores, .bye, .pong,
        ]
        let actions = Set(ShakyWire.Action.types + QueenWire.Action.types)
        for message in messages {
            let line = JSONEncoding.encode(message.json)
            let decoded = try ClientMessageDecoding.decode(line: line, actions: actions).get()
            #expect(decoded.message == message)
        }
        let shaky: [ShakyWire.Action] = [.buzz(pressedAt: 99), .buzz(pressedAt: nil), .answer("Horus"), .shake]
        for action in shaky {
            let line = JSONEncoding.encode(action.request.json)
            guard case .play(let request) = try ClientMessageDecoding.decode(line: line, actions: actions).get().message
            else {
                Issue.record("\(action) did not decode as a game action")
                continue
            }
            #expect(try ShakyWire.Action.decode(request) == action)
        }
        let queen: [QueenWire.Action] = [
            .command(.template("b12"), save: false), .command(.text("No. {1} sings"), save: true),
        ]
        for action in queen {
            let line = JSONEncoding.encode(action.request.json)
            guard case .play(let request) = try ClientMessageDecoding.decode(line: line, actions: actions).get().message
            else {
                Issue.record("\(action) did not decode as a game action")
                continue
            }
            #expect(try QueenWire.Action.decode(request) == action)
        }
        let hello = Hello(room: "ABCD", name: "Ann", team: "Red", isSyncing: true).json
        #expect(hello["protocol"] == .int(1))
        #expect(hello["clock"] == .bool(true))
        #expect(hello["role"] == "player")
    }

    // MARK: Options

    @Test func optionsParse() throws {
        let (options, command) = try ClientOptions.parse([
            "192.168.1.20:5000", "--name", "Ann", "--team=Red", "--room", "abcd", "--no-bell",
        ])
        #expect(command == .run)
        #expect(options.host == "192.168.1.20")
        #expect(options.port == 5000)
        #expect(options.name == "Ann")
        #expect(options.team == "Red")
        #expect(options.room == "ABCD")
        #expect(!options.isBellEnabled)
        #expect(options.role == .player)
        #expect(try ClientOptions.parse(["--board"]).0.role == .board)
        #expect(try ClientOptions.parse(["--admin-key", "k"]).0.role == .admin)
        #expect(try ClientOptions.parse(["--discover-port", "6000"]).0.discoverPort == 6000)
        #expect(try ClientOptions.parse(["--help"]).1 == .help)
        #expect(throws: UsageError.self) { try ClientOptions.parse(["--bogus"]) }
        #expect(throws: UsageError.self) { try ClientOptions.parse(["host:notaport"]) }
        #expect(throws: UsageError.self) { try ClientOptions.parse(["a", "b"]) }
        #expect(throws: UsageError.self) { try ClientOptions.parse(["--name"]) }
        #expect(ClientOptions.helpText.contains("EXAMPLES"))
    }

    @Test func optionsComeFromOneTable() throws {
        #expect(ClientOptions.table.declarationProblems() == [])
        let table = ClientOptions.table
        for option in table.options where !option.isHidden {
            #expect(ClientOptions.helpText.contains(" \(option.flag)"), "\(option.flag)")
            if let shown = option.shownDefault(table.defaults) {
                #expect(ClientOptions.helpText.contains("[\(shown)]"), "\(option.flag)")
            }
        }
        // The short and old names still work.
        let (options, _) = try ClientOptions.parse(["-n", "Ann", "-t", "Red", "-r", "pub", "--no-colour", "--plain"])
        #expect(options.name == "Ann" && options.team == "Red" && options.room == "PUB")
        #expect(options.isColorDisabled && options.isPlainForced)
        #expect(try ClientOptions.parse(["--watch"]).0.role == .board)
        #expect(try ClientOptions.parse(["--admin=k"]).0.adminKey == "k")
        #expect(try ClientOptions.parse(["--team", ""]).0.team == "")
        #expect(try ClientOptions.parse(["--version"]).1 == .version)
        #expect(throws: UsageError("Choose --board or --admin-key, not both. See partyline --help.")) {
            try ClientOptions.parse(["--board", "--admin-key", "k"])
        }
        let portRefusal = #"--discover-port must be a whole number from 1 to 65535, not "0". See partyline --help."#
        #expect(throws: UsageError(portRefusal)) {
            try ClientOptions.parse(["--discover-port", "0"])
        }
    }

    // MARK: Discovery

    @Test func discoveryListsHostsAndForgetsStaleOnes() {
        var list = DiscoveryList()
        let beacon = Array(
            #"{"type":"host","protocol":1,"name":"Pub","port":4747,"room":"ABCD","players":3,"game":"shaky"}"#.utf8)
        let other = Array(
            #"{"type":"host","protocol":1,"name":"Den","port":5000,"room":"WXYZ","players":0,"game":null}"#.utf8)
        let r29 = list.receive(beacon, from: "127.0.0.1", at: 1000)
        #expect(r29)
        let r30 = list.receive(beacon, from: "192.168.1.20", at: 1100)
        #expect(r30)  // the same host, heard on its LAN address
        let r31 = list.receive(other, from: "192.168.1.30", at: 1200)
        #expect(r31)
        let r32 = list.receive(Array("garbage".utf8), from: "1.2.3.4", at: 1300)
        #expect(!r32)
        let r33 = list.receive(Array(#"{"type":"discover","protocol":1}"#.utf8), from: "1.2.3.4", at: 1300)
        #expect(!r33)
        var hosts = list.hosts(at: 2000)
        #expect(hosts.count == 2)
        #expect(hosts[0].address == "192.168.1.20")
        #expect(hosts[0].players == 3)
        #expect(hosts[0].game == "shaky")
        #expect(hosts[1].game == nil)
        #expect(hosts[0].summary.contains("room ABCD at 192.168.1.20:4747"))
        // Pub keeps beaconing, Den goes quiet: after three missed beacons (4.5 s) Den is gone
        let r34 = list.receive(beacon, from: "192.168.1.20", at: 4000)
        #expect(r34)
        hosts = list.hosts(at: 5600)
        #expect(hosts.map(\.name) == ["Pub", "Den"])
        hosts = list.hosts(at: 6701)
        #expect(hosts.map(\.name) == ["Pub"])
        list.prune(at: 9000)
        #expect(list.entries.isEmpty)
        #expect(String(decoding: DiscoveryList.probe, as: UTF8.self) == #"{"type":"discover","protocol":1}"#)
    }
}
