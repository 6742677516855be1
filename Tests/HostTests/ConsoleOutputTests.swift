import Foundation
import TestSupport
import Testing

@testable import Host

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose buffer is already full, as when nobody reads the host's stderr: the next write would block.
final class StalledPipe {
    let reader: Int32
    let writer: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        reader = fds[0]
        writer = fds[1]
        let flags = fcntl(writer, F_GETFL, 0)
        _ = fcntl(writer, F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        while filler.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
        _ = fcntl(writer, F_SETFL, flags)  // blocking again, as a terminal or pipe normally is
    }

    /// Reads whatever the pipe holds now, without waiting.
    func readAvailable() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return bytes }
            let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            guard count > 0 else { return bytes }
            bytes += chunk[0..<count]
        }
    }

    deinit {
        close(reader)
        close(writer)
    }
}

/// The host's terminal output never makes the loop wait: it queues, drops and counts, and says so.
@Suite("Console output", .timeLimit(.minutes(10)))
struct ConsoleOutputTests {
    @Test func aStalledTerminalCostsDroppedLinesThatAreCountedNeverAWait() throws {
        let pipe = try StalledPipe()
        let output = ConsoleOutput(fd: pipe.writer, capacity: 4096)
        // Every one of these returns at once although nothing can be written (a blocking write would hang here).
        for index in 0..<1000 { output.write(line: "line \(index) \u{1B}]0;pwned\u{07}\u{1B}[2Jis plain") }
        output.show(status: "status 1")
        output.show(status: "status 2")
        #expect(output.pendingDropCount > 0)

        // The terminal takes text again.
        var received = pipe.readAvailable()
        while !output.drain(timeout: 0.05) { received += pipe.readAvailable() }
        received += pipe.readAvailable()
        let text = String(decoding: received, as: UTF8.self).replacingOccurrences(of: ".", with: "")
        let lines = text.split(separator: "\n").map(String.init)
        let kept = lines.filter { $0.hasPrefix("line ") }
        #expect(kept.first == "line 0 is plain", "lines are written in order, made safe to show")
        #expect(!received.contains(0x1B), "the escapes in the lines were removed")
        let notes = lines.filter { $0.contains("dropped here: this terminal was not taking output") }
        #expect(!notes.isEmpty, "the terminal is told lines were dropped")
        let dropped = notes.compactMap { Int($0.split(separator: " ")[1]) }.reduce(0, +)
        #expect(kept.count + dropped == 1000, "every line is either written or counted")
        #expect(!text.contains("status 1"), "a status line not yet written is replaced by the next one")
        #expect(text.hasSuffix("status 2"))
    }

    @Test func linesFromPlayersAreShownInert() throws {
        let pipe = try StalledPipe()
        _ = pipe.readAvailable()  // not stalled at all
        let output = ConsoleOutput(fd: pipe.writer)
        output.write(line: "Ann\u{202E} said \u{1B}]0;pwned\u{07}hi\u{9B}2J")
        #expect(output.drain(timeout: 5))
        #expect(String(decoding: pipe.readAvailable(), as: UTF8.self) == "Ann said hi\n")
    }
}

extension ConsoleOutputTests {
    @Test func runsOfLinesAreWrittenInsideTheFrameOfTheirMomentAndControlTextIsNot() throws {
        let pipe = try StalledPipe()
        _ = pipe.readAvailable()
        let output = ConsoleOutput(fd: pipe.writer)
        output.write(line: "before")
        output.frameLines((before: "<", after: ">"))
        output.write(line: "one")
        output.write(line: "two")
        output.write(control: "C")
        output.write(line: "three")
        output.frameLines(nil)
        output.write(line: "four")
        #expect(output.drain(timeout: 5))
        // A run the writer thread took in two batches is closed and opened again in between: the same frame.
        let text = String(decoding: pipe.readAvailable(), as: UTF8.self).replacingOccurrences(of: "><", with: "")
        #expect(text == "before\n<\none\ntwo>C<\nthree>four\n", "\(text.debugDescription)")
    }

    @Test func aTurnsLinesAreWrittenWhenTheTurnEndsAndADrainDoesNotWaitForIt() throws {
        let pipe = try StalledPipe()
        _ = pipe.readAvailable()
        let output = ConsoleOutput(fd: pipe.writer)
        output.write(line: "between turns")
        #expect(output.drain(timeout: 5))
        #expect(String(decoding: pipe.readAvailable(), as: UTF8.self) == "between turns\n")

        output.beginTurn()
        output.write(line: "Buzz order: Red")
        output.show(status: "status")
        usleep(100_000)
        #expect(pipe.readAvailable().isEmpty, "the writer sleeps until the turn's output went out")
        output.endTurn()
        #expect(output.drain(timeout: 5))
        #expect(String(decoding: pipe.readAvailable(), as: UTF8.self) == "Buzz order: Red\nstatus")

        output.beginTurn()
        output.write(line: "asked mid-turn")
        #expect(output.drain(timeout: 5), "a drain wakes the writer itself")
        #expect(String(decoding: pipe.readAvailable(), as: UTF8.self) == "asked mid-turn\n")
        output.endTurn()
    }
}

#if os(Linux)
    extension ConsoleOutputTests {
        /// The operator's prompt: log lines are drawn in the scrolling part and the cursor comes back to the prompt,
        /// so nothing breaks into what is being typed; Enter shows the line among the log; a resize re-reserves.
        ///
        /// Asserted on the screen the bytes draw, so it holds however the writer thread batched them.
        @Test func theStatusBarKeepsThePromptWhileLinesScrollAboveIt() throws {
            let terminal = try PseudoTerminal()
            let output = ConsoleOutput(fd: terminal.secondary)
            // What an earlier program (a killed host) left: text, and a scroll region of rows 5–10.
            var screen = TerminalScreen(rows: 24, columns: 80)
            screen.feed("$ partyline-host\r\n\u{1B}[5;10r\u{1B}[7;1H")
            let bar = StatusBar(output: output, term: "xterm")
            let first = terminal.readAll(writtenBy: output)
            screen.feed(first)
            #expect(first.starts(with: Array("\u{1B}[r".utf8)), "a scroll region a killed host left is reset first")
            #expect(screen.scrollRegion == 1...24)

            bar.start(prompt: true)
            bar.show("lobby, no game running")
            output.write(line: "Ann joined team Red.")
            bar.entered("status")
            screen.feed(terminal.readAll(writtenBy: output))
            #expect(screen.scrollRegion == 1...21, "rows 22–24 (rule, status, prompt) stay out of the scrolling")
            #expect(
                screen.lines[19...] == ["Ann joined team Red.", "> status", rule(79), "lobby, no game running", ">"],
                "a line and the typed command drawn above the rule, the status and the prompt:\n\(screen.text)")
            #expect(screen.cell(row: 23, column: 1).attributes == .bold, "the status is bold")
            #expect(screen.cursor == .init(row: 24, column: 3), "the cursor is back on the prompt")

            var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(terminal.secondary, UInt(TIOCSWINSZ), &size)
            screen.resize(rows: 30, columns: 100)
            bar.refresh()
            output.write(line: "Bob joined team Blue.")
            screen.feed(terminal.readAll(writtenBy: output))
            #expect(screen.scrollRegion == 1...27)
            #expect(
                screen.lines[26...] == ["Bob joined team Blue.", rule(99), "lobby, no game running", ">"],
                "the rows reserved again at the new bottom:\n\(screen.text)")
            #expect(screen.lines[..<26].contains("Ann joined team Red."), "earlier lines scrolled, not cleared")
            #expect(screen.cursor == .init(row: 30, column: 3))

            bar.release()
            screen.feed(terminal.readAll(writtenBy: output))
            #expect(screen.scrollRegion == 1...30, "the whole screen scrolls again on exit")
            #expect(screen.lines[27...] == ["", "", ""], "the rule, status and prompt are cleared on exit")
            #expect(screen.cursor == .init(row: 28, column: 1))
        }

        /// The status bar's rule: `count` box-drawing dashes.
        private func rule(_ count: Int) -> String { String(repeating: "─", count: count) }
    }

    extension ConsoleOutputTests {
        /// The status is cut by terminal columns (a wide name takes two) so it never wraps into the prompt, and a
        /// terminal too small for the reserved rows scrolls as a plain one instead of drawing above its first row.
        @Test func theStatusBarFitsWideNamesAndTinyTerminals() throws {
            let terminal = try PseudoTerminal()
            var size = winsize(ws_row: 24, ws_col: 20, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(terminal.secondary, UInt(TIOCSWINSZ), &size)
            var screen = TerminalScreen(rows: 24, columns: 20)
            let output = ConsoleOutput(fd: terminal.secondary)
            let bar = StatusBar(output: output, term: "xterm")
            bar.start(prompt: true)
            bar.show("WAITING 東京東京東京東京東京東京")
            screen.feed(terminal.readAll(writtenBy: output))
            #expect(screen.row(23) == "WAITING 東京東京東…", "19 columns at most:\n\(screen.text)")
            #expect(screen.row(24) == ">", "nothing wrapped into the prompt")
            #expect(screen.cursor == .init(row: 24, column: 3))

            size = winsize(ws_row: 4, ws_col: 20, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(terminal.secondary, UInt(TIOCSWINSZ), &size)
            screen.resize(rows: 4, columns: 20)
            bar.refresh()
            bar.show("lobby")
            output.write(line: "Ann joined team Red.")
            let tiny = terminal.readAll(writtenBy: output)
            screen.feed(tiny)
            let tinyText = String(decoding: tiny, as: UTF8.self)
            #expect(screen.scrollRegion == 1...4, "the whole tiny screen scrolls")
            #expect(screen.text.contains("Ann joined team Red."), "\(tinyText.debugDescription)")
            #expect(
                !tinyText.contains("\u{1B}[0;") && !tinyText.contains("\u{1B}[-"), "nothing drawn above the first row")
            #expect(!screen.text.contains("lobby"), "no status where there is no room for it")
        }
    }

    /// A pseudo-terminal: the host writes to its secondary side as to a real terminal; the test types on the primary
    /// side (Ctrl-S stops the terminal's output, Ctrl-Q starts it again) and reads what the terminal showed.
    final class PseudoTerminal {
        let primary: Int32
        let secondary: Int32
        private var markers = 0

        init() throws {
            primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            // unlockpt and ptsname, which Swift's Glibc does not show: TIOCSPTLCK and TIOCGPTN.
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard primary >= 0, ioctl(primary, UInt(0x4004_5431), &unlock) == 0,
                ioctl(primary, UInt(0x8004_5430), &number) == 0
            else { throw POSIXError(.ENODEV) }
            secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard secondary >= 0 else { throw POSIXError(.ENODEV) }
            var settings = termios()
            tcgetattr(secondary, &settings)
            settings.c_iflag |= tcflag_t(IXON)  // Ctrl-S and Ctrl-Q control the output, as on the operator's terminal
            tcsetattr(secondary, TCSANOW, &settings)
            var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
        }

        /// Types `bytes` at the terminal's keyboard.
        func type(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
        }

        /// Everything `output` was asked to write so far, once it has reached this side: a pseudo-terminal passes
        /// output on a moment after it was written, so a marker (an OSC a terminal ignores) is written after it and
        /// read for, with a generous deadline.
        func readAll(writtenBy output: ConsoleOutput, timeout: TimeInterval = 20) -> [UInt8] {
            // Drained first: a status drawing still queued would be written after the marker.
            #expect(output.drain(timeout: timeout), "the console wrote everything queued")
            markers += 1
            let marker = "\u{1B}]9999;partyline-test-\(markers)\u{07}"
            output.write(control: marker)
            let deadline = Date().addingTimeInterval(timeout)
            var bytes: [UInt8] = []
            while !String(decoding: bytes, as: UTF8.self).hasSuffix(marker), Date() < deadline {
                var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 50)
                bytes += readAvailable()
            }
            return bytes
        }

        /// What the terminal shows now, without waiting.
        func readAvailable() -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 0) > 0 else { return bytes }
                let count = chunk.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
                guard count > 0 else { return bytes }
                bytes += chunk[0..<count]
            }
        }

        deinit {
            close(secondary)
            close(primary)
        }
    }

    /// A tiny tmpfs mounted for one test (root only), unmounted and removed when it goes away.
    final class TinyDisk {
        let path: String
        private var filler: String { path + "/filler" }

        init(kilobytes: Int) throws {
            path = NSTemporaryDirectory() + "partyline-tiny-disk-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0 else {
                let code = errno
                rmdir(path)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EPERM)
            }
        }

        /// Fills every byte left with a file of its own.
        func fill() throws {
            let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            let chunk = [UInt8](repeating: 0x2E, count: 4096)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
            var byte: UInt8 = 0x2E
            while write(fd, &byte, 1) > 0 {}
            close(fd)
        }

        /// Removes the filling: there is room again.
        func makeRoom() { unlink(filler) }

        deinit {
            umount2(path, 2)  // MNT_DETACH: even while a killed host's files are still being closed
            rmdir(path)
        }
    }
#endif
