import Foundation
import Net
import Protocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operator's live status line, pinned to the bottom of the host's terminal while logs scroll above it, and
/// below it the line where the operator types.
///
/// On a terminal it keeps the bottom rows out of an ANSI scroll region: a rule, the status, and (when the console
/// reads a terminal too) a `> ` prompt. The cursor lives on the prompt, where the terminal echoes what is typed;
/// log lines are drawn at the bottom of the scrolling part and the cursor goes back to where it was, so nothing
/// printed ever breaks into a half-typed command. Anywhere else (a pipe, a log file, a dumb terminal) each change
/// is printed as a `[status]` line instead.
///
/// Everything goes through the host's `ConsoleOutput`, so a terminal that takes nothing never holds up the loop: a
/// drawing not yet written is replaced by the next one (skipped, not waited for).
final class StatusBar {
    private let output: ConsoleOutput
    private let isTerminal: Bool
    private var hasPrompt = false
    private var isPinned = false
    /// Whether the pinned terminal is tall enough for the reserved rows (5 rows or more); a smaller one scrolls as
    /// a plain terminal until it grows.
    private var hasRoom = false
    private var rows = 0
    private var width = 0
    private var text = ""

    /// A status bar on `output` (a terminal of type `term`); on a terminal it first resets a scroll region a
    /// killed host may have left.
    init(output: ConsoleOutput, term: String = ProcessInfo.processInfo.environment["TERM"] ?? "") {
        self.output = output
        isTerminal = isatty(output.fd) == 1 && !term.isEmpty && term != "dumb"
        if isTerminal { output.write(control: "\u{1B}[r") }
    }

    /// The bottom rows kept out of the scroll region: the rule, the status and the prompt.
    private var reservedRows: Int { hasPrompt ? 3 : 2 }
    /// The last row that scrolls.
    private var scrollBottom: Int { rows - reservedRows }

    /// Pins the status to the bottom rows from now on (on a terminal), with the operator's prompt under it when
    /// `prompt`; before this, changes are printed.
    func start(prompt: Bool) {
        guard isTerminal, !isPinned else { return }
        isPinned = true
        hasPrompt = prompt
        reserveRows()
    }

    /// Shows `status` as the current status.
    func show(_ status: String) {
        text = TerminalText.sanitized(status, keepingLineBreaks: false)
        guard isPinned else {
            output.write(line: "[status] " + text)
            return
        }
        let size = terminalSize()
        if size.height != rows || size.width != width { return reserveRows() }
        guard hasRoom else { return }
        output.show(status: statusDrawing)
    }

    /// The operator pressed Enter: what they typed joins the log (so its reply reads under it) and the prompt is
    /// empty again.
    func entered(_ line: String) {
        guard isPinned, hasPrompt, hasRoom else { return }
        output.write(line: "> " + line)
        output.write(control: promptDrawing)
    }

    /// The terminal changed size: the rows are reserved again at the new bottom and redrawn.
    func refresh() {
        guard isPinned else { return }
        reserveRows()
    }

    /// Gives the whole screen back to scrolling text (on exit).
    func release() {
        guard isPinned else { return }
        isPinned = false
        output.frameLines(nil)
        output.write(control: "\u{1B}[r\u{1B}[\(scrollBottom + 1);1H\u{1B}[J")
    }

    /// The rule and the status, drawn without moving the cursor.
    private var statusDrawing: String {
        // Measured in terminal columns (a wide name takes two), one column short of the edge so it never wraps.
        let shown = TerminalText.truncated(text, toColumns: width - 1)
        return "\u{1B}7\u{1B}[\(scrollBottom + 1);1H\u{1B}[2K" + String(repeating: "─", count: max(0, width - 1))
            + "\u{1B}[\(scrollBottom + 2);1H\u{1B}[2K\u{1B}[1m" + shown + "\u{1B}[0m\u{1B}8"
    }

    /// An empty prompt on the last row, with the cursor after it.
    private var promptDrawing: String { "\u{1B}[\(rows);1H\u{1B}[2K> " }

    private func reserveRows() {
        (rows, width) = (terminalSize().height, terminalSize().width)
        hasRoom = rows > reservedRows + 2
        guard hasRoom else {
            // Too small for a status: the whole screen scrolls, as without one.
            output.frameLines(nil)
            output.write(control: "\u{1B}[r")
            return
        }
        // Make room at the bottom, scroll only the rows above it, and clear what an earlier size left below.
        var drawing = String(repeating: "\n", count: reservedRows) + "\u{1B}[1;\(scrollBottom)r"
        drawing += "\u{1B}[\(scrollBottom + 1);1H\u{1B}[J"
        if hasPrompt {
            // Lines are drawn at the bottom of the scrolling part; the cursor returns to the prompt.
            output.frameLines((before: "\u{1B}7\u{1B}[\(scrollBottom);1H", after: "\u{1B}8"))
            drawing += promptDrawing
        } else {
            drawing += "\u{1B}[\(scrollBottom);1H"
        }
        output.write(control: drawing)
        if !text.isEmpty { output.show(status: statusDrawing) }
    }

    private func terminalSize() -> (height: Int, width: Int) {
        let size = TerminalSize.of(output.fd) ?? (width: 80, height: 24)
        return (size.height, size.width)
    }
}

@available(*, unavailable)
extension StatusBar: Sendable {}
