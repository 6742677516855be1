import Foundation
import Net
import Protocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The operator's live status line, pinned to the bottom of the host's terminal while logs scroll above it.
///
/// On a terminal it reserves the last two rows with an ANSI scroll region and redraws them in place; anywhere
/// else (a pipe, a log file, a dumb terminal) each change is printed as a `[status]` line instead.
///
/// Everything goes through the host's `ConsoleOutput`, so a terminal that takes nothing never holds up the loop: a
/// drawing not yet written is replaced by the next one (skipped, not waited for).
final class StatusBar {
    private let output: ConsoleOutput
    private let isTerminal: Bool
    private var isPinned = false
    private var rows = 0
    private var text = ""

    init(output: ConsoleOutput) {
        self.output = output
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        isTerminal = isatty(output.fd) == 1 && !term.isEmpty && term != "dumb"
    }

    /// Pins the status to the bottom rows from now on (on a terminal); before this, changes are printed.
    func start() {
        guard isTerminal, !isPinned else { return }
        isPinned = true
        reserveRows()
    }

    /// Shows `line` as the current status.
    func show(_ status: String) {
        let line = TerminalText.sanitized(status, keepingLineBreaks: false)
        text = line
        guard isPinned else {
            output.write(line: "[status] " + line)
            return
        }
        let (height, width) = size()
        if height != rows { reserveRows() }
        let shown = line.count > width - 1 ? String(line.prefix(max(0, width - 2))) + "…" : line
        // Save the cursor, draw the two reserved rows, restore the cursor inside the scrolling part.
        output.show(status: "\u{1B}7\u{1B}[\(rows - 1);1H\u{1B}[2K" + String(repeating: "─", count: max(0, width - 1))
            + "\u{1B}[\(rows);1H\u{1B}[2K\u{1B}[1m" + shown + "\u{1B}[0m\u{1B}8")
    }

    /// Gives the whole screen back to scrolling text (on exit).
    func release() {
        guard isPinned else { return }
        isPinned = false
        output.write(control: "\u{1B}7\u{1B}[r\u{1B}[\(rows - 1);1H\u{1B}[2K\u{1B}[\(rows);1H\u{1B}[2K\u{1B}8")
    }

    private func reserveRows() {
        rows = size().height
        guard rows > 4 else { return }
        // Scroll only rows 1…rows−2 and keep the cursor in that region.
        output.write(control: "\n\n\u{1B}[1;\(rows - 2)r\u{1B}[\(rows - 2);1H")
        if !text.isEmpty { show(text) }
    }

    private func size() -> (height: Int, width: Int) {
        let size = TerminalSize.of(output.fd) ?? (width: 80, height: 24)
        return (size.height, size.width)
    }
}
