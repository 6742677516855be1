import Foundation
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The host's terminal output (stderr): log lines, console replies and the status line.
///
/// The event loop only queues text here; a thread of its own writes it. A terminal that takes nothing (a pipe
/// nobody reads, `| less` left scrolling, Ctrl-S on the host's terminal) blocks that thread, never the loop: the
/// queue is bounded, lines that do not fit are dropped and counted, and the count is written as a line of its own
/// once the terminal takes text again ("… 37 lines were dropped …"). The status line is a single slot: a newer one
/// replaces one not yet written, so it is skipped, not waited for.
///
/// Every line is made safe to show before it is written (`TerminalText.sanitized`, by the writer thread, off the
/// loop's): no text from a player reaches the operator's terminal as an escape sequence.
final class ConsoleOutput: @unchecked Sendable {
    /// The descriptor written to.
    let fd: Int32
    /// The most bytes of lines held for writing (those being written included); more are dropped and counted.
    let capacity: Int
    private let condition = NSCondition()
    /// What waits to be written, in order.
    private var lines: [Entry] = []
    /// Text written around each run of lines (the status bar's prompt: draw them in the scrolling part and
    /// come back to where the operator types); nil writes them as they are. Only the writer uses it.
    private var lineFrame: (before: String, after: String)?

    private enum Entry {
        /// A line, ending in a newline.
        case line(String)
        /// A line as given, made safe to show (and dimmed) by the writer, off the loop's thread.
        case unsafeLine(String, isDim: Bool)
        /// Terminal control text, written as it is.
        case control(String)
        /// A new line frame for the lines after it.
        case frame((before: String, after: String)?)
    }
    private var queuedBytes = 0
    private var droppedLines = 0
    private var status: String?
    private var isWriting = false
    private var isStarted = false
    /// Whether the loop is in a turn: the writer is woken when it ends, so the turn's replies go out first.
    private var isInTurn = false
    private var isWakeDue = false

    /// Output to `fd` holding at most `capacity` bytes of lines while the terminal does not take them.
    init(fd: Int32 = STDERR_FILENO, capacity: Int = 256 * 1024) {
        self.fd = fd
        self.capacity = capacity
        let environment = ProcessInfo.processInfo.environment
        isStyled = isatty(fd) == 1 && environment["NO_COLOR"] == nil && (environment["TERM"] ?? "dumb") != "dumb"
    }

    /// Whether lines may be styled (a terminal, `NO_COLOR` not set).
    private let isStyled: Bool

    /// Queues `text` (one or more lines) to be written, dimmed when `isDim` and the terminal shows styles; dropped
    /// and counted when the queue is full. Never waits.
    func write(line text: String, isDim: Bool = false) {
        enqueue(.unsafeLine(text, isDim: isDim), bytes: text.utf8.count + 1)
    }

    /// Whether the terminal shows styles and colours (`write(drawing:)` keeps its escapes).
    var showsStyles: Bool { isStyled }

    /// Queues lines the host drew itself with their escape sequences (a QR code in black on white), kept as they
    /// are; dropped and counted like lines when the queue is full. Only host-built text may be given here: nothing
    /// a player typed.
    func write(drawing text: String) { enqueue(.line(text + "\n"), bytes: text.utf8.count + 1) }

    /// Queues one line of `bytes` bytes, or drops and counts it when the queue is full.
    private func enqueue(_ line: Entry, bytes: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard queuedBytes + bytes <= capacity else {
            droppedLines += 1
            return
        }
        noteDroppedLines()
        lines.append(line)
        queuedBytes += bytes
        startIfNeeded()
        wakeWriter()
    }

    /// Queues terminal control text as it is (the status bar's scroll region): never dropped, never sanitized.
    func write(control text: String) {
        condition.lock()
        defer { condition.unlock() }
        noteDroppedLines()
        lines.append(.control(text))
        queuedBytes += text.utf8.count
        startIfNeeded()
        wakeWriter()
    }

    /// From now on writes each run of lines between `before` and `after`, every line starting with a newline
    /// instead of ending with one (nil: lines as they are).
    func frameLines(_ frame: (before: String, after: String)?) {
        condition.lock()
        defer { condition.unlock() }
        lines.append(.frame(frame))
        startIfNeeded()
        wakeWriter()
    }

    /// Queues a status drawing (already-built terminal text, escapes included), replacing one not yet written.
    func show(status drawing: String) {
        condition.lock()
        defer { condition.unlock() }
        status = drawing
        startIfNeeded()
        wakeWriter()
    }

    /// The loop's turn begins: lines queued from now on wake the writer when it ends (`endTurn`), after the turn's
    /// output to the players was written, so a feed line never competes with a buzz for the CPU.
    func beginTurn() { condition.withLock { isInTurn = true } }

    /// The loop's turn ended: the writer takes the lines it queued.
    func endTurn() {
        condition.withLock {
            isInTurn = false
            guard isWakeDue else { return }
            isWakeDue = false
            condition.broadcast()
        }
    }

    /// Wakes the writer now, or when the loop's turn ends (the lock is held).
    private func wakeWriter() {
        if isInTurn {
            isWakeDue = true
        } else {
            condition.broadcast()
        }
    }

    /// Waits up to `timeout` seconds for everything queued to be written (the host is stopping, or is about to ask
    /// a question on the terminal); true when it was.
    @discardableResult
    func drain(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        noteDroppedLines()
        if !lines.isEmpty || status != nil { startIfNeeded() }
        isWakeDue = false
        condition.broadcast()
        while !lines.isEmpty || status != nil || isWriting {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    /// How many lines were dropped and not yet reported (for tests).
    var pendingDropCount: Int { condition.withLock { droppedLines } }

    // MARK: The writer

    /// Queues the note about dropped lines, if any were (the lock is held).
    private func noteDroppedLines() {
        guard droppedLines > 0 else { return }
        let note =
            "[partyline-host] \(droppedLines) \(droppedLines == 1 ? "line was" : "lines were") dropped here: "
            + "this terminal was not taking output.\n"
        droppedLines = 0
        lines.append(.line(note))
        queuedBytes += note.utf8.count
    }

    /// Starts the writer thread the first time there is something to write (the lock is held).
    private func startIfNeeded() {
        guard !isStarted else { return }
        isStarted = true
        let thread = Thread { [self] in run() }
        thread.name = "partyline.console-output"
        thread.start()
    }

    private func run() {
        while true {
            condition.lock()
            while lines.isEmpty && status == nil && droppedLines == 0 { condition.wait() }
            noteDroppedLines()
            let taken = lines
            let takenStatus = status
            let batchBytes = queuedBytes  // still counted while written, so the bound holds the text in flight too
            lines.removeAll(keepingCapacity: true)
            status = nil
            isWriting = true
            condition.unlock()

            writeAll(Array((framed(taken) + (takenStatus ?? "")).utf8))

            condition.lock()
            queuedBytes -= batchBytes
            isWriting = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The text of `entries`, each run of lines inside the line frame of its moment (only the writer calls it).
    private func framed(_ entries: [Entry]) -> String {
        var text = ""
        var openFrame: (before: String, after: String)?  // the frame whose `before` was written last
        func close() {
            if let frame = openFrame { text += frame.after }
            openFrame = nil
        }
        func append(line: String) {
            guard let frame = lineFrame else {
                text += line
                return
            }
            if openFrame == nil {
                text += frame.before
                openFrame = frame
            }
            text += "\n" + line.dropLast()
        }
        for entry in entries {
            switch entry {
            case .line(let line):
                append(line: line)
            case .unsafeLine(let line, let isDim):
                let safe = TerminalText.sanitized(line)
                append(line: (isDim && isStyled ? "\u{1B}[2m" + safe + "\u{1B}[0m" : safe) + "\n")
            case .control(let control):
                close()
                text += control
            case .frame(let frame):
                close()
                lineFrame = frame
            }
        }
        close()
        return text
    }

    /// Writes every byte, waiting as long as the terminal takes (only this thread ever waits).
    private func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    usleep(10_000)
                    continue
                }
                return  // the terminal is gone: nothing more can be shown
            }
            offset += written
        }
    }

    private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(fd, pointer, count)
        #else
            return Darwin.write(fd, pointer, count)
        #endif
    }
}
