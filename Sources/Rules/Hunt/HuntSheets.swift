import Common
import Foundation

/// The printable check-in sheets of a hunt (`partyline-host hunt print ID`): one sheet per station for the organiser
/// to tape up there, with the station's name and its check-in code in large block letters and once more as plain
/// `Code: FRDG`. Clues, tasks and answers are never printed: the sheet hangs where everyone can read it.
public enum HuntSheets {
    /// The format of the sheets.
    public enum Format: String, Sendable, CaseIterable {
        /// Plain text, sheets separated by a form feed (a new page on most printers), at most 64 columns.
        case text
        /// Markdown, sheets separated by a horizontal rule.
        case markdown
        /// One HTML page, each sheet on its own printed page.
        case html
    }

    /// Every sheet of `hunt` in `format`.
    public static func sheets(_ hunt: Hunt, format: Format = .text) -> String {
        switch format {
        case .text: return hunt.stations.indices.map { text(hunt, station: $0) }.joined(separator: "\u{0C}\n")
        case .markdown: return hunt.stations.indices.map { markdown(hunt, station: $0) }.joined(separator: "\n---\n\n")
        case .html: return html(hunt)
        }
    }

    /// The width of a plain-text sheet, in columns.
    public static let width = 64

    /// The block letters of `code`, twice the screen font's size when that fits a sheet.
    static func blockLetters(_ code: String) -> [String] {
        let large = BigFont.rows(of: code, ink: "#", scale: 2)
        return (large.first?.count ?? 0) <= width - 4 ? large : BigFont.rows(of: code, ink: "#")
    }

    /// One plain-text sheet.
    public static func text(_ hunt: Hunt, station index: Int) -> String {
        let station = hunt.stations[index]
        let rule = String(repeating: "=", count: width)
        func centred(_ line: String) -> String {
            String(repeating: " ", count: max(0, (width - line.count) / 2)) + line
        }
        var lines = [
            rule,
            centred("PARTYLINE STATION HUNT"),
            centred(hunt.name),
            rule,
            "",
            centred("Station \(index + 1) of \(hunt.stations.count): \(station.name)"),
            "",
            centred("You found it! Check in with this code:"),
            "",
        ]
        let block = blockLetters(station.code)
        let blockWidth = block.map(\.count).max() ?? 0
        let margin = String(repeating: " ", count: max(0, (width - blockWidth) / 2))
        lines += block.map { (margin + $0).trimmingTrailingSpaces }
        lines += [
            "",
            centred("Code: \(station.code)"),
            "",
            centred("Type it in the Partyline app, or `checkin \(station.code)`"),
            centred("when you play from a plain terminal (nc or telnet)."),
            "",
            rule,
        ]
        return lines.map(\.trimmingTrailingSpaces).joined(separator: "\n") + "\n"
    }

    /// One Markdown sheet.
    public static func markdown(_ hunt: Hunt, station index: Int) -> String {
        let station = hunt.stations[index]
        return """
            # \(hunt.name) — station \(index + 1) of \(hunt.stations.count): \(station.name)

            You found it! Check in with this code:

            ```
            \(blockLetters(station.code).map(\.trimmingTrailingSpaces).joined(separator: "\n"))
            ```

            **Code: \(station.code)**

            Type it in the Partyline app, or `checkin \(station.code)` from a plain terminal.

            """
    }

    /// The sheets as one HTML page, a page break between stations.
    public static func html(_ hunt: Hunt) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let sheets = hunt.stations.enumerated().map { index, station in
            """
            <section class="sheet">
            <h1>\(escaped(hunt.name))</h1>
            <h2>Station \(index + 1) of \(hunt.stations.count): \(escaped(station.name))</h2>
            <p>You found it! Check in with this code:</p>
            <p class="code">\(escaped(station.code))</p>
            <p><strong>Code: \(escaped(station.code))</strong></p>
            <p>Type it in the Partyline app, or <code>checkin \(escaped(station.code))</code> from a plain terminal.</p>
            </section>
            """
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escaped(hunt.name)): check-in sheets</title>
            <style>
            body { font-family: sans-serif; text-align: center; }
            .sheet { page-break-after: always; padding-top: 3em; }
            .code { font-size: 12em; font-weight: bold; letter-spacing: 0.1em; margin: 0.2em 0;
                    font-family: monospace; }
            </style></head><body>
            \(sheets.joined(separator: "\n"))
            </body></html>

            """
    }
}

extension String {
    /// The text without spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

}
