import Foundation
import Protocol
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an attacker or a very unlucky organiser found (issue 19), against the real host over TCP.
@Suite("Hardening", .timeLimit(.minutes(3)))
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
        _ = try board.waitFor("revealed", timeout: 10)
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
        _ = stalled.readAvailable()  // the terminal takes text again: what was queued follows
        var text = ""
        for _ in 0..<50 where !text.contains("Game over") {
            usleep(50_000)
            text += String(decoding: stalled.readAvailable(), as: UTF8.self)
        }
        #expect(text.contains("Game over"), "the log goes on once the pipe is read")
    }

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
}
