import Foundation
import Net
import Protocol
import TestSupport
import Testing

@testable import Host

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an attacker or a very unlucky organiser found (issue 19), against the real host over TCP.
@Suite("Hardening", .timeLimit(.minutes(10)))
struct HardeningTests {
    /// A window-title change, a screen wipe and a cursor move, then a bidi override and a zero-width joiner.
    static let escape = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H"

    /// Every string anywhere inside `value` (keys included) passes `TerminalText`; the offending ones otherwise.
    static func unsafeStrings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): return TerminalText.problem(in: text, allowingLineBreaks: true) == nil ? [] : [text]
        case .array(let items): return items.flatMap(unsafeStrings)
        case .object(let object):
            return object.flatMap { member in
                (TerminalText.problem(in: member.key) == nil ? [] : [member.key]) + unsafeStrings(in: member.value)
            }
        default: return []
        }
    }

    /// Bytes a terminal would obey: ESC, other C0 controls but CR and LF, and C1 controls or bidi/format characters.
    static func obeyedBytes(in transcript: [UInt8]) -> [String] {
        let text = String(decoding: transcript, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return text.components(separatedBy: "\n").compactMap { line in
            TerminalText.problem(in: line).map { "\($0): \(line.debugDescription)" }
        }
    }

    @Test func anEscapeSequenceFromAQueenReachesNoOtherTerminalRaw() throws {
        let host = try HostProcess(["--log-level", "debug"])
        let admin = try host.admin()
        let board = try host.board()
        var players: [String: TestClient] = [:]
        for name in ["Ann", "Bob", "Cy"] { players[name] = try host.join(name, team: name) }
        let nc = try host.connect()  // a person at nc: plain text
        try nc.send(line: "join \(host.room) Dee Dee")
        _ = try nc.waitForText("Welcome, Dee")

        // Names: no controls or invisibles, and no look-alike of a name already in the room.
        for name in ["Ev\u{202E}e", "Eve\u{200D}", "\u{FEFF}Eve", "Eve\(HardeningTests.escape)"] {
            let client = try host.connect()
            try client.send(["type": "hello", "room": .string(host.room), "name": .string(name), "team": "Evil"])
            #expect(try client.waitFor("error")["code"] == "bad_name", "\(name.debugDescription)")
        }
        let lookalike = try host.connect()
        try lookalike.send(["type": "hello", "room": .string(host.room), "name": "\u{0410}nn", "team": "Evil"])
        #expect(try lookalike.waitFor("error")["code"] == "name_taken")

        try admin.send(["type": "start", "game": "queen", "countdownSeconds": 1, "chooseSeconds": 60, "id": 1])
        let round = try admin.waitFor("round")
        let queen = try #require(round["queen"]?.stringValue)
        let hostile = "No. {1} waves \(HardeningTests.escape)\u{202E}at No. {2}"
        if queen == "Dee" {
            try nc.send(raw: Array("order \(hostile)\r\n".utf8))
            _ = try nc.waitForText("may not contain")
            try nc.send(line: "order No. {1} waves at No. {2}")
        } else {
            let client = try #require(players[queen])
            try client.send(["type": "command", "text": .string(hostile), "id": 7])
            let refusal = try client.waitFor("error") { $0["re"] == 7 }
            #expect(refusal["code"] == "bad_text")
            #expect(refusal["message"]?.stringValue?.contains("U+001B") == true)
            try client.send(["type": "command", "text": "No. {1} waves at No. {2}", "id": 8])
        }
        _ = try board.waitFor("revealed")
        _ = try nc.waitForText("waves at")

        // The operator's library and packs refuse it too.
        try admin.send(["type": "library", "action": "add", "text": .string(hostile), "id": 20])
        #expect(try admin.waitFor("error") { $0["re"] == 20 }["code"] == "bad_text")
        try admin.send(["type": "packs", "action": "create", "name": .string("Quiz\(HardeningTests.escape)"), "id": 21])
        #expect(try admin.waitFor("error") { $0["re"] == 21 }["code"] == "bad_pack_name")
        try admin.send(["type": "packs", "action": "create", "name": "Quiz", "id": 22])
        _ = try admin.waitFor("ok") { $0["re"] == 22 }
        let question: JSONValue = ["difficulty": "easy", "text": "Who \u{202E}is it?", "answer": "Nobody"]
        try admin.send(["type": "packs", "action": "add", "pack": "quiz", "question": question, "id": 23])
        #expect(try admin.waitFor("error") { $0["re"] == 23 }["code"] == "bad_text")

        // Byte captures: the nc player's terminal and every field a client would draw.
        _ = nc.pump(timeout: 0.2)
        #expect(
            HardeningTests.obeyedBytes(in: nc.transcript).isEmpty, "\(HardeningTests.obeyedBytes(in: nc.transcript))")
        for (name, client) in players.merging(["board": board, "admin": admin], uniquingKeysWith: { $1 }) {
            _ = client.pump(timeout: 0.1)
            for line in client.transcriptText.split(separator: "\n") {
                guard let value = try? JSONParsing.parse(String(line)) else { continue }
                #expect(HardeningTests.unsafeStrings(in: value).isEmpty, "\(name) received \(line)")
            }
        }
        host.stop()
        let console = Array(host.errorOutput().utf8)
        #expect(!console.contains(0x1B), "the host's console got an escape")
    }

    @Test func aLineEndAfterAStrayByteAndAnUnfinishedSubnegotiationKeepTheConnectionWorking() throws {
        let host = try HostProcess()
        let ann = try host.connect()
        // 0xFF right before the line end must not swallow it: the hello is read, then the next message.
        try ann.send(
            raw: JSONEncoding.encode(["type": "hello", "room": .string(host.room), "name": "Ann", "team": "Red"])
                + [0xFF, 0x0A] + Array(#"{"type":"ping","id":1}"#.utf8) + [0x0A])
        _ = try ann.waitFor("welcome")
        _ = try ann.waitFor("pong") { $0["re"] == 1 }
        // IAC SB without IAC SE: an error, and the connection still reads the next line.
        let telnet = try host.connect()
        try telnet.send(raw: [0xFF, 0xFA, 24, 0] + Array("xterm\r\n".utf8))
        _ = try telnet.waitForText("IAC SE")
        try telnet.send(line: "join \(host.room) Bob Blue")
        _ = try telnet.waitForText("Welcome, Bob")
        let json = try host.connect()
        try json.send(raw: Array(#"{"type":"ping","id":2}"#.utf8) + [0x0A, 0xFF, 0xFA, 31, 0, 80, 0])
        _ = try json.waitFor("pong") { $0["re"] == 2 }
        try json.send(
            raw: [UInt8](repeating: 0x41, count: 100) + [0x0A] + Array(#"{"type":"ping","id":3}"#.utf8) + [0x0A])
        #expect(try json.waitFor("error")["code"] == "bad_telnet")
        _ = try json.waitFor("pong") { $0["re"] == 3 }
    }

    // MARK: A console that takes nothing

    /// Two teams play a two-question game to its scoreboard, through the host's journal and log as usual.
    static func playAShortGame(on host: HostProcess) throws {
        let admin = try host.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let red = try host.join("Ann", team: "Red")
        let blue = try host.join("Bob", team: "Blue")
        try admin.send([
            "type": "start", "game": "shaky", "questions": 2, "packs": [.string(pack)], "revealSeconds": 1, "id": 2,
        ])
        for (number, team) in [(1, red), (2, blue)] {
            let question = try team.waitFor("question") { $0["number"] == .number(number) }
            let answer = try #require(ShakyGameTests.questions.first { $0.text == question["text"]?.stringValue })
            try team.send(["type": "buzz"])
            _ = try team.waitFor("turn")
            try team.send(["type": "answer", "text": .string(answer.answer)])
            #expect(try team.waitFor("result")["correct"] == true)
            _ = try red.waitFor("reveal") { $0["number"] == .number(number) }
        }
        let final = try blue.waitFor("scoreboard")
        #expect(final["ranking"]?.arrayValue?.count == 2)
    }

    @Test func aStalledStderrPipeDoesNotStopThePlay() throws {
        let stalled = try StalledPipe()
        let host = try HostProcess(
            standardError: .handle(FileHandle(fileDescriptor: stalled.writer, closeOnDealloc: false)))
        try HardeningTests.playAShortGame(on: host)
        host.console("status")
        // The terminal takes text again: the pipe's filling, then what was queued.
        var text = String(decoding: stalled.readAvailable(), as: UTF8.self)
        for _ in 0..<50 where !text.contains("Game over") {
            usleep(50_000)
            text += String(decoding: stalled.readAvailable(), as: UTF8.self)
        }
        #expect(text.contains("Game over"), "the log goes on once the pipe is read")
    }

    #if os(Linux)
        @Test func aTerminalStoppedWithCtrlSDoesNotStopThePlay() throws {
            let terminal = try PseudoTerminal()
            let host = try HostProcess(
                standardError: .handle(FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)),
                environment: ["TERM": "xterm"])
            terminal.type([0x13])  // Ctrl-S: the terminal stops taking output (XOFF)
            usleep(100_000)
            try HardeningTests.playAShortGame(on: host)
            terminal.type([0x11])  // Ctrl-Q: it takes output again
            var text = ""
            for _ in 0..<50 where !text.contains("Game over") {
                usleep(50_000)
                text += String(decoding: terminal.readAvailable(), as: UTF8.self)
            }
            #expect(text.contains("Game over"), "the log goes on after Ctrl-Q")
        }
    #endif

    // MARK: The journal

    /// Resumes a player on `host` with the token of `player`, through its welcome.
    static func resume(_ player: TestClient, on host: HostProcess) throws -> TestClient {
        let again = try host.connect()
        try again.send(["type": "hello", "room": .string(host.room), "resume": .string(player.token ?? "")])
        _ = try again.waitFor("welcome")
        again.token = player.token
        return again
    }

    /// The scores as `client` gets them.
    static func scores(_ client: TestClient, id: Int) throws -> [String: Int64] {
        try client.send(["type": "scores", "id": .number(id)])
        let reply = try client.waitFor("scores") { $0["re"] == .number(id) }
        var scores: [String: Int64] = [:]
        for entry in reply["ranking"]?.arrayValue ?? [] {
            if let team = entry["team"]?.stringValue { scores[team] = entry["score"]?.intValue ?? 0 }
        }
        return scores
    }

    /// Damaged tails a journal can end in.
    static let damagedTails: [String: [UInt8]] = [
        "a record cut short by a power cut": Array("0badf00d {\"k\":\"event\",\"at\":9".utf8),
        "NUL padding (the file grew, its data never landed)": [UInt8](repeating: 0, count: 4096),
        "both, with a line end between": Array("1234abcd {\"k\":\"ev".utf8) + [0, 0, 0, 0x0A]
            + [UInt8](repeating: 0, count: 100),
    ]

    @Test(arguments: damagedTails.keys.sorted())
    func aDamagedTailIsCutOffSoResumePlayKillResumeKeepsEverything(damage: String) throws {
        let tail = try #require(HardeningTests.damagedTails[damage])
        let data = TemporaryDirectory()
        let first = try HostProcess(["--reveal-seconds", "1"], data: data.path)
        let admin = try first.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let red = try first.join("Ann", team: "Red")
        let blue = try first.join("Bob", team: "Blue")
        try admin.send([
            "type": "start", "game": "shaky", "questions": 3, "packs": [.string(pack)], "revealSeconds": 1, "id": 2,
        ])
        let q1 = try red.waitFor("question")
        let answer1 = try #require(ShakyGameTests.questions.first { $0.text == q1["text"]?.stringValue }?.answer)
        try red.send(["type": "buzz"])
        _ = try red.waitFor("turn")
        try red.send(["type": "answer", "text": .string(answer1)])
        _ = try red.waitFor("reveal")
        _ = try red.waitFor("question") { $0["number"] == 2 }
        first.stop(signal: SIGKILL)
        let journal = data.path + "/journal.jsonl"
        let whole = try #require(FileManager.default.contents(atPath: journal))
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(tail))
        handle.closeFile()

        // Resume over the damaged tail, play on, and be killed again.
        let second = try HostProcess(["--resume", "--reveal-seconds", "1"], data: data.path)
        let blueAgain = try HardeningTests.resume(blue, on: second)
        let redAgain = try HardeningTests.resume(red, on: second)
        let q2 = try blueAgain.waitFor("question")
        #expect(q2["number"] == 2)
        let answer2 = try #require(ShakyGameTests.questions.first { $0.text == q2["text"]?.stringValue }?.answer)
        try blueAgain.send(["type": "buzz"])
        _ = try blueAgain.waitFor("turn")
        try blueAgain.send(["type": "answer", "text": .string(answer2)])
        _ = try redAgain.waitFor("reveal") { $0["number"] == 2 }
        let seen = try HardeningTests.scores(redAgain, id: 3)
        #expect((seen["Red"] ?? 0) > 0 && (seen["Blue"] ?? 0) > 0)
        second.stop(signal: SIGKILL)
        #expect(second.errorOutput().contains("damaged bytes"))
        let side = try #require(FileManager.default.contents(atPath: journal + ".damaged-1"))
        #expect(Array(side) == tail, "the damaged bytes are kept, not thrown away")
        let healed = try #require(FileManager.default.contents(atPath: journal))
        #expect(healed.starts(with: whole), "what was whole stays as it was")

        // The next resume trusts the journal: same players, tokens and scores.
        let third = try HostProcess(["--resume", "--reveal-seconds", "1"], data: data.path)
        let redThird = try HardeningTests.resume(red, on: third)
        #expect(try HardeningTests.scores(redThird, id: 4) == seen)
        third.stop()
    }

    @Test func aRoomRecordWithAnEmptyAdminKeyIsRefusedLikeAnyBadInput() throws {
        let data = TemporaryDirectory()
        for (room, key) in [("ABCD", ""), ("ABCD", "a b"), ("", "secret-key"), ("AB\\u001b[2J", "secret-key")] {
            let body = "{\"k\":\"room\",\"room\":\"\(room)\",\"adminKey\":\"\(key)\",\"at\":0}"
            let line = JournalFormat.checksumHex(Array(body.utf8)) + " " + body + "\n"
            #expect(FileManager.default.createFile(atPath: data.path + "/journal.jsonl", contents: Data(line.utf8)))
            let refused = try ChildProcess.run(
                BuiltProducts.path("partyline-host"),
                ["--port", "0", "--data", data.path, "--resume", "--no-discovery", "--no-console"], timeout: 30)
            #expect(refused.terminationStatus != 0, "resumed a room with room \(room) and key \"\(key)\"")
            #expect(refused.errors.contains("cannot resume"), "\(refused.errors)")
            #expect(!refused.output.contains("ready"), "\(refused.output)")
        }
    }

    @Test func hostTimeNeverRunsBackwardsAcrossAResumeAndOpenClocksGoOnWhereTheyStopped() throws {
        let data = TemporaryDirectory()
        let first = try HostProcess([], data: data.path)
        let admin = try first.admin()
        let pack = try ShakyGameTests.makePack(admin)
        let red = try first.join("Ann", team: "Red")
        try admin.send([
            "type": "start", "game": "shaky", "questions": 2, "packs": [.string(pack)], "questionSeconds": 60, "id": 2,
        ])
        let opened = try red.waitFor("question")
        var lastHostTime: Int64 = 0
        var lastPong = Date()
        for ping in 0..<6 {  // play goes on for three seconds: players see the clock run
            usleep(500_000)
            try red.send(["type": "ping", "id": .number(100 + ping)])
            lastHostTime = try red.waitFor("pong") { $0["re"] == .number(100 + ping) }["hostTime"]?.intValue ?? 0
            lastPong = Date()
            try red.send(["type": "scores", "id": .number(200 + ping)])
            _ = try red.waitFor("scores")
        }
        let deadline = try #require(opened["deadline"]?.intValue)
        let lastLeft = deadline - lastHostTime
        first.stop(signal: SIGKILL)
        let upBeforeKill = Date().timeIntervalSince(lastPong)
        // The host stays down for three seconds: a clock that counted them would lose more than it could have run.
        usleep(3_000_000)

        let launched = Date()
        let second = try HostProcess(["--resume"], data: data.path)
        let again = try second.connect()
        try again.send(["type": "hello", "room": .string(second.room), "resume": .string(red.token ?? "")])
        let welcome = try again.waitFor("welcome")
        let hostTime = try #require(welcome["hostTime"]?.intValue)
        #expect(hostTime >= lastHostTime, "hostTime went back from \(lastHostTime) to \(hostTime)")
        let question = try again.waitFor("question")
        let left = try #require(question["remainingMs"]?.intValue)
        #expect(left <= lastLeft, "the question's clock went back: \(lastLeft) ms left before, \(left) ms after")
        // What the clock may have run: while the first host was still up after the last pong, and since the second
        // was launched (however slow a loaded machine made either), plus the clock lease the journal held ahead of
        // the kill (1 s, PROTOCOL.md §9); never the three seconds no host ran.
        let upTime = Int64(((upBeforeKill + Date().timeIntervalSince(launched)) * 1000).rounded(.up))
        let mayHaveRun = upTime + 1_000 + 100
        #expect(
            lastLeft - left <= mayHaveRun,
            "the question's clock lost \(lastLeft - left) ms: more than a host was up (\(upTime) ms) and the lease")
    }

    // MARK: A full disk

    /// The first message pending on `client` (or arriving within `timeout` seconds) that `matches`, taken.
    static func first(
        on client: TestClient, timeout: TimeInterval = Patience.generous, where matches: (JSONValue) -> Bool
    )
        -> JSONValue?
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let message = client.pending.lazy.compactMap({ try? JSONParsing.parse($0) }).first(where: matches) {
                return message
            }
            guard Date() < deadline, client.pump(timeout: 0.05) || !client.pending.isEmpty else { return nil }
        }
    }

    #if os(Linux)
        @Test(.enabled(if: getuid() == 0, "mounting a tiny tmpfs for a full data folder needs root"))
        func aFullDataFolderPausesTheGameForEveryoneAndItGoesOnOnceThereIsRoom() throws {
            let disk = try TinyDisk(kilobytes: 512)
            let host = try HostProcess(
                ["--reveal-seconds", "1", "--rate", "100000"], data: disk.path, logLevel: "info")
            let admin = try host.admin()
            let pack = try ShakyGameTests.makePack(admin)
            let red = try host.join("Ann", team: "Red")
            let blue = try host.join("Bob", team: "Blue")
            let board = try host.board()
            try admin.send([
                "type": "start", "game": "shaky", "questions": 3, "packs": [.string(pack)], "questionSeconds": 60,
                "answerSeconds": 60, "revealSeconds": 1, "id": 2,
            ])
            _ = try red.waitFor("question")
            try disk.fill()

            // Each pause or continue is one journaled event; soon the journal no longer fits.
            var heldID: Int?
            for attempt in 0..<300 where heldID == nil {
                let id = 1000 + attempt
                try admin.send(["type": attempt % 2 == 0 ? "pause" : "continue", "id": .number(id)])
                let answer = HardeningTests.first(on: admin) { message in
                    message["re"] == .number(id) || (message["type"] == "paused" && message["reason"] != nil)
                }
                if answer?["type"] == "paused" { heldID = id }
            }
            let held = try #require(heldID, "the disk never filled up")
            for client in [red, blue, board, admin] {
                let paused = try client.waitFor("paused") { $0["reason"] != nil }
                #expect(paused["reason"]?.stringValue?.hasPrefix("The host cannot save: disk full") == true)
            }
            #expect(
                HardeningTests.first(on: admin, timeout: 0.5) { $0["re"] == .number(held) } == nil,
                "the reply to a step the journal could not save was sent")
            try red.send(["type": "buzz", "id": 3])
            #expect(try red.waitFor("error") { $0["re"] == 3 }["code"] == "storage")
            let onDisk = JournalFormat.read(
                Array(try #require(FileManager.default.contents(atPath: disk.path + "/journal.jsonl"))))
            #expect(onDisk.damagedLines.isEmpty && !onDisk.isTornAtEnd, "the journal holds only whole records")
            #expect(host.errorOutput().contains("Free some space"), "the operator is told what to do")

            // Room again: the held reply goes out, then the game goes on by itself.
            disk.makeRoom()
            _ = try admin.waitFor("ok") { $0["re"] == .number(held) }
            let notice = try red.waitFor("notice") { $0["message"]?.stringValue?.contains("can save again") == true }
            if notice["message"]?.stringValue?.contains("stays paused") == true {
                try admin.send(["type": "continue", "id": 4])  // the operator's own pause was the step held last
                _ = try admin.waitFor("ok") { $0["re"] == 4 }
            }
            _ = try red.waitFor("resumed")
            try red.send(["type": "buzz"])
            _ = try red.waitFor("turn") { $0["team"] == "Red" }
            let seen = try HardeningTests.scores(blue, id: 5)
            host.stop(signal: SIGKILL)

            let again = try HostProcess(["--resume"], data: disk.path, logLevel: "info")
            let redAgain = try HardeningTests.resume(red, on: again)
            #expect(try redAgain.waitFor("turn")["team"] == "Red", "what players saw was saved")
            #expect(try HardeningTests.scores(redAgain, id: 6) == seen)
            again.stop()
        }
    #endif

    // MARK: Files the host could not read

    @Test func savesOverFilesTheHostCouldNotReadKeepThemAndSaySo() throws {
        let data = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: data.path + "/packs", withIntermediateDirectories: true)
        let brokenPack = "{\"name\": \"Oops\", \"questions\": [ {\"difficulty\": \"easy\", ]}\n"
        let brokenCommands = "{\"userCommands\": [], \"nextID\": \"one\"}\n"
        #expect(FileManager.default.createFile(atPath: data.path + "/packs/oops.json", contents: Data(brokenPack.utf8)))
        #expect(
            FileManager.default.createFile(atPath: data.path + "/commands.json", contents: Data(brokenCommands.utf8)))
        let host = try HostProcess([], data: data.path)
        let admin = try host.admin()

        try admin.send(["type": "packs", "action": "create", "name": "Oops", "id": 1])
        let created = try admin.waitFor("ok") { $0["re"] == 1 }
        #expect(created["created"] == "oops")
        #expect(created["message"]?.stringValue?.contains("kept as oops.json.broken-1") == true, "\(created)")
        let keptPack = FileManager.default.contents(atPath: data.path + "/packs/oops.json.broken-1")
        #expect(keptPack == Data(brokenPack.utf8))

        try admin.send(["type": "library", "action": "add", "text": "No. {1} hums a tune.", "id": 2])
        let added = try admin.waitFor("ok") { $0["re"] == 2 }
        #expect(added["message"]?.stringValue?.contains("kept as commands.json.broken-1") == true, "\(added)")
        let keptCommands = FileManager.default.contents(atPath: data.path + "/commands.json.broken-1")
        #expect(keptCommands == Data(brokenCommands.utf8))
        host.stop()
        #expect(host.errorOutput().contains("kept as oops.json.broken-1"))
    }

    // MARK: Many descriptors

    @Test func elevenHundredIdleConnectionsAndANewcomerStillJoinsAndAPlayerComesBack() throws {
        guard let limit = OpenFileLimit.raise(toAtLeast: 1400), limit >= 1400 else {
            Issue.record("cannot raise this test's RLIMIT_NOFILE to 1400")
            return
        }
        let host = try HostProcess(["--connection-rate", "0"], logLevel: "warning")
        let ann = try host.join("Ann", team: "Red")
        ann.socket.close()
        var idle: [Socket] = []
        defer { for socket in idle { socket.close() } }
        for _ in 0..<1_100 { idle.append(try Socket.connectBlocking(host: "127.0.0.1", port: host.port)) }
        // Every one of them is accepted: the host now holds descriptors far above 1,024.
        let probe = try host.connect()
        try probe.send(["type": "ping", "id": 1])
        _ = try probe.waitFor("pong") { $0["re"] == 1 }
        #if os(Linux)
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(host.pid)/fd").count) ?? 0
            #expect(open > 1_100, "the host holds \(open) descriptors")
        #endif

        let bob = try host.join("Bob", team: "Blue")
        try bob.send(["type": "ping", "id": 2])
        _ = try bob.waitFor("pong") { $0["re"] == 2 }
        let annAgain = try HardeningTests.resume(ann, on: host)
        try annAgain.send(["type": "scores", "id": 3])
        let lobby = try annAgain.waitFor("lobby") { $0["re"] == 3 }
        #expect(lobby["count"] == 2)
    }
}
