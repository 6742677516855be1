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
/// Every line is made safe to show first (`TerminalText.sanitized`): no text from a player reaches the operator's
/// terminal as an escape sequence.
final class ConsoleOutput: @unchecked Sendable {
    /// The descriptor written to.
    let fd: Int32
    /// The most bytes of lines held for writing (those being written included); more are dropped and counted.
    let capacity: Int
    private let condition = NSCondition()
    private var lines: [String] = []
    private var queuedBytes = 0
    private var droppedLines = 0
    private var status: String?
    private var isWriting = false
    private var isStarted = false

    /// Output to `fd` holding at most `capacity` bytes of lines while the terminal does not take them.
    init(fd: Int32 = STDERR_FILENO, capacity: Int = 256 * 1024) {
        self.fd = fd
        self.capacity = capacity
    }

    /// Queues `text` (one or more lines) to be written; dropped and counted when the queue is full. Never waits.
    func write(line text: String) {
        let line = TerminalText.sanitized(text) + "\n"
        condition.lock()
        defer { condition.unlock() }
        guard queuedBytes + line.utf8.count <= capacity else {
            droppedLines += 1
            return
        }
        noteDroppedLines()
        lines.append(line)
        queuedBytes += line.utf8.count
        startIfNeeded()
        condition.broadcast()
    }

    /// Queues terminal control text as it is (the status bar's scroll region): never dropped, never sanitized.
    func write(control text: String) {
        condition.lock()
        defer { condition.unlock() }
        noteDroppedLines()
        lines.append(text)
        queuedBytes += text.utf8.count
        startIfNeeded()
        condition.broadcast()
    }

    /// Queues a status drawing (already-built terminal text, escapes included), replacing one not yet written.
    func show(status drawing: String) {
        condition.lock()
        defer { condition.unlock() }
        status = drawing
        startIfNeeded()
        condition.broadcast()
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
        lines.append(note)
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
            let batch = lines.joined() + (status ?? "")
            let batchBytes = queuedBytes  // still counted while written, so the bound holds the text in flight too
            lines.removeAll(keepingCapacity: true)
            status = nil
            isWriting = true
            condition.unlock()

            writeAll(Array(batch.utf8))

            condition.lock()
            queuedBytes -= batchBytes
            isWriting = false
            condition.broadcast()
            condition.unlock()
        }
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
