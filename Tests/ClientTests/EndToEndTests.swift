import Foundation
import Net
import Protocol
import TestSupport
import Testing

@testable import Client

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `partyline` binary against a real `partyline-host` over TCP.
@Suite("partyline against a real host", .timeLimit(.minutes(10)))
struct EndToEndTests {
    /// Starts `partyline` in piped mode.
    func client(_ arguments: [String]) throws -> ChildProcess {
        try startClient(arguments)
    }

    @Test func joinsSeesTheLobbyAndBuzzes() throws {
        let host = try HostProcess.forClients()
        let ann = try client(["127.0.0.1:\(host.port)", "--name", "Ann", "--team", "Red", "--room", host.room])
        defer { ann.stop() }
        try ann.waitForLine(containing: "joined room \(host.room) as Ann (Red)")
        try ann.waitForLine(containing: "Lobby: Red: Ann")

        // another player joins: the lobby update shows both teams
        let bob = try host.join("Bob", team: "Blue")
        try ann.waitForLine(containing: "Lobby: Red: Ann | Blue: Bob")

        // the operator starts Shaky Words; Ann buzzes from her keyboard (stdin)
        let admin = try host.admin()
        try admin.send(["type": "start", "game": "shaky", "questions": 1, "questionSeconds": 30])
        let question = try admin.waitFor("question")
        let text = try #require(question["text"]?.stringValue)
        let line = try ann.waitForLine(containing: "Question 1/1")
        #expect(line.contains(text))
        ann.send("buzz")
        let buzzed = try admin.waitFor("buzzed")
        #expect(buzzed["order"] == ["Red"])
        try ann.waitForLine(containing: "Buzz order: Red +0 ms")
        try ann.waitForLine(containing: ">>> Your turn, team Red!")
        // a line that is no command is her answer on her turn
        ann.send("definitely not it")
        let result = try admin.waitFor("result")
        #expect(result["team"] == "Red")
        #expect(result["correct"] == false)
        try ann.waitForLine(containing: "✘ Red: wrong.")
        _ = bob
        ann.send("quit")
        #expect(ann.waitForExit() == 0)
    }

    @Test func aDroppedConnectionResumesAsTheSamePlayer() throws {
        let host = try HostProcess.forClients()
        let proxy = try TCPProxy(to: host.port)
        let ann = try client(["127.0.0.1:\(proxy.port)", "--name", "Ann", "--team", "Red", "--room", host.room])
        defer { ann.stop() }
        try ann.waitForLine(containing: "joined room \(host.room) as Ann (Red)")
        let bob = try host.join("Bob", team: "Blue")
        try ann.waitForLine(containing: "Lobby: Red: Ann | Blue: Bob")

        proxy.cut()
        try ann.waitForLine(containing: "reconnecting…")
        try ann.waitForLine(containing: "rejoined room \(host.room) as Ann (Red)")
        let lobby = try ann.waitForLine("a lobby with Ann back") { $0.hasPrefix("Lobby:") && !$0.contains("(away)") }
        #expect(lobby == "Lobby: Red: Ann | Blue: Bob")

        // the host agrees: one Ann, connected (the operator's status lists every player)
        let admin = try host.admin()
        try admin.send(["type": "status"])
        let status = try admin.waitFor("status")
        let players = status["players"]?.arrayValue ?? []
        let anns = players.filter { $0["name"] == "Ann" }
        #expect(anns.count == 1)
        #expect(anns.first?["connected"] == true)
        _ = bob
    }

    @Test func aWrongRoomEndsAPipedClientWithAnError() throws {
        let host = try HostProcess.forClients()
        let ann = try client(["127.0.0.1:\(host.port)", "--name", "Ann", "--room", "NOPE"])
        defer { ann.stop() }
        let status = ann.waitForExit()
        #expect(status == 1)
        #expect(ann.errorText.contains("Wrong room"))
    }

    @Test func theRoomIsLearnedFromTheHostWhenNotGiven() throws {
        let host = try HostProcess.forClients(discovery: true)
        let ann = try client(["127.0.0.1:\(host.port)", "--name", "Ann"])
        defer { ann.stop() }
        try ann.waitForLine(containing: "runs room \(host.room)")
        try ann.waitForLine(containing: "joined room \(host.room) as Ann (Ann)")
    }

    @Test func discoveryOnLoopbackFindsTheHost() throws {
        let host = try HostProcess.forClients(discovery: true)
        let ann = try client(["--discover-port", "\(host.port)", "--name", "Ann", "--team", "Red", "--room", host.room])
        defer { ann.stop() }
        let found = try ann.waitForLine(containing: "room \(host.room) at ")
        #expect(found.contains(":\(host.port)"))
        #expect(found.contains("0 players") || found.contains("players"))
        try ann.waitForLine(containing: "joined room \(host.room) as Ann (Red)")
    }

    @Test func theFullScreenShowsLettersAndClockAndRestoresTheTerminal() throws {
        let host = try HostProcess.forClients()
        let terminal = try PseudoTerminal(width: 80, height: 24)
        let ann = try startClient(
            ["127.0.0.1:\(host.port)", "--name", "Ann", "--team", "Red", "--room", host.room],
            terminal: terminal.childHandle)
        defer { ann.stop() }
        terminal.closeChildSide()
        try terminal.waitFor("the lobby") { $0.contains("Waiting for the organiser") }
        let rita = try host.join("Rita", team: "Red")  // Ann's teammate sees the same letters
        let admin = try host.admin()
        try admin.send(["type": "start", "game": "shaky", "questions": 1, "questionSeconds": 30])
        let question = try rita.waitFor("question")
        let letters = try #require(question["letters"]?.stringValue)
        let text = try #require(question["text"]?.stringValue)
        let screen = try terminal.waitFor("the question with its letters and clock") { screen in
            screen.contains(String(text.prefix(30)))
                && showsLetters(letters, in: screen.components(separatedBy: "\n"), width: 79)
                && screen.range(of: #"Buzz clock +\d+\.\d s"#, options: .regularExpression) != nil
        }
        #expect(screen.contains("Question 1 of 1"))
        // the clock counts down locally
        let first = terminal.lastClock()
        try terminal.waitFor("the clock to move") { _ in terminal.lastClock() != first }

        // Space buzzes at once
        terminal.type(" ")
        let buzzed = try admin.waitFor("buzzed")
        #expect(buzzed["order"] == ["Red"])
        try terminal.waitFor("your turn") { $0.contains("YOUR TURN") }

        // Ctrl-C quits and the terminal is restored (alternate screen left, cursor shown)
        terminal.type("\u{03}")
        #expect(ann.waitForExit() != nil)
        terminal.drain()
        #expect(terminal.raw.hasSuffix("\u{1B}[?1049l") || terminal.raw.contains("\u{1B}[?25h\u{1B}[?1049l"))
    }
}

/// A pseudo-terminal: the client gets the child side as its terminal, the test reads the screen from the other.
final class PseudoTerminal {
    let master: Int32
    private var slave: Int32
    private var reader: DescriptorReader
    let width: Int
    let height: Int

    init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        master = PseudoTerminal.openMaster()
        guard master >= 0, let name = PseudoTerminal.childName(of: master) else {
            throw HarnessError("no pseudo-terminal available")
        }
        slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw HarnessError("cannot open \(name)") }
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        #if canImport(Glibc)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        #else
            _ = ioctl(master, TIOCSWINSZ, &size)
        #endif
        reader = DescriptorReader(fd: master)
    }

    deinit {
        if slave >= 0 { close(slave) }
        close(master)
    }

    #if canImport(Glibc)
        // Glibc's module map hides the XSI pseudo-terminal calls (they need _XOPEN_SOURCE), so they are looked up at run time.
        private typealias DescriptorCall = @convention(c) (Int32) -> Int32
        private typealias NameCall = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

        private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(pointer, to: type)
        }

        static func openMaster() -> Int32 {
            guard let openpt = symbol("posix_openpt", as: DescriptorCall.self) else { return -1 }
            return openpt(O_RDWR | O_NOCTTY)
        }

        static func childName(of master: Int32) -> String? {
            guard let grant = symbol("grantpt", as: DescriptorCall.self),
                let unlock = symbol("unlockpt", as: DescriptorCall.self),
                let name = symbol("ptsname", as: NameCall.self),
                grant(master) == 0, unlock(master) == 0, let text = name(master)
            else { return nil }
            return String(cString: text)
        }
    #else
        static func openMaster() -> Int32 { posix_openpt(O_RDWR | O_NOCTTY) }

        static func childName(of master: Int32) -> String? {
            guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else { return nil }
            return String(cString: name)
        }
    #endif

    /// The child's side, for its stdin, stdout and stderr.
    var childHandle: FileHandle { FileHandle(fileDescriptor: slave, closeOnDealloc: false) }

    /// Closes the parent's copy of the child side (after the child started).
    func closeChildSide() {
        close(slave)
        slave = -1
    }

    /// Everything the client wrote, escapes included.
    var raw: String { reader.text }

    /// What a person would read: the screen as lines (a small emulator for cursor moves and clears).
    var screen: String {
        var rows = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        var row = 0
        var column = 0
        let scalars = Array(raw.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                guard end < scalars.count else { break }
                let parameters = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
                switch scalars[end] {
                case "H":
                    let parts = parameters.split(separator: ";").compactMap { Int($0) }
                    row = (parts.first ?? 1) - 1
                    column = (parts.count > 1 ? parts[1] : 1) - 1
                case "J":
                    rows = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
                case "K":
                    if rows.indices.contains(row) { for x in max(0, column)..<width { rows[row][x] = " " } }
                default: break
                }
                index = end + 1
                continue
            }
            switch scalar {
            case "\r": column = 0
            case "\n": row += 1
            case "\u{07}": break
            default:
                if rows.indices.contains(row), column >= 0, column < width { rows[row][column] = Character(scalar) }
                column += 1
            }
            index += 1
        }
        return rows.map { String($0) }.joined(separator: "\n")
    }

    /// The buzz clock as drawn last, if any.
    func lastClock() -> String? {
        guard let range = screen.range(of: #"Buzz clock +\d+\.\d s"#, options: .regularExpression) else { return nil }
        return String(screen[range])
    }

    /// Types keys at the client.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the client drew for a moment.
    func drain() {
        for _ in 0..<10 { reader.pump(milliseconds: 20) }
    }

    /// Waits until the screen satisfies `predicate`.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = Patience.generous, _ predicate: (String) -> Bool) throws
        -> String
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            reader.pump(milliseconds: 50)
            let current = screen
            if predicate(current) { return current }
            guard Date() < deadline, !reader.isClosed else {
                throw HarnessError("the screen never showed \(what); it shows:\n\(current)")
            }
        }
    }
}
