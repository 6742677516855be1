import Common
import Foundation

/// The printable check-in sheets of a hunt (`partyline-host hunt print ID`): one sheet per station for the organiser
/// to tape up there, with the station's name and its check-in code in large block letters and once more as plain
/// `Code: FRDG`. Clues, tasks and answers are never printed: the sheet hangs where everyone can read it.
///
/// Printed from a running host's console, each sheet also carries a QR code of the check-in address
/// (`checkInAddress`): a phone's own camera opens the page, which checks its player's team in with the code.
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

    /// Every sheet of `hunt` in `format`; with `pageAddress` (the running host's `http://HOST:PORT/ROOM`), each
    /// with the QR code of its station's check-in address.
    public static func sheets(_ hunt: Hunt, format: Format = .text, pageAddress: String? = nil) -> String {
        let stations = hunt.stations.indices
        switch format {
        case .text:
            return stations.map { text(hunt, station: $0, pageAddress: pageAddress) }.joined(separator: "\u{0C}\n")
        case .markdown:
            return stations.map { markdown(hunt, station: $0, pageAddress: pageAddress) }
                .joined(separator: "\n---\n\n")
        case .html: return html(hunt, pageAddress: pageAddress)
        }
    }

    /// The address a station's QR code opens: the page with the code in its fragment (`…/ROOM#checkin=FRDG`), which
    /// the page sends as its player's `checkin` once joined (the fragment never reaches the host's logs).
    public static func checkInAddress(pageAddress: String, code: String) -> String {
        pageAddress + "#checkin=" + code
    }

    /// The QR code of a station's check-in address, nil without an address (or when it is too long for a code).
    static func checkInCode(pageAddress: String?, code: String) -> QRCode? {
        guard let pageAddress else { return nil }
        return try? QRCode(encoding: checkInAddress(pageAddress: pageAddress, code: code))
    }

    /// The width of a plain-text sheet, in columns.
    public static let width = 64

    /// The block letters of `code`, twice the screen font's size when that fits a sheet.
    static func blockLetters(_ code: String) -> [String] {
        let large = BigFont.rows(of: code, ink: "#", scale: 2)
        return (large.first?.count ?? 0) <= width - 4 ? large : BigFont.rows(of: code, ink: "#")
    }

    /// The QR code as text lines of half blocks, dark blocks on the light paper, with the widest quiet zone that
    /// fits a sheet; empty when none fits.
    static func qrLines(_ code: QRCode) -> [String] {
        for quietZone in [4, 2] where code.drawnSize(quietZone: quietZone) <= width {
            return code.halfBlockLines(quietZone: quietZone, inkIsDark: true)
        }
        return []
    }

    /// One plain-text sheet, with the station's check-in QR code when `pageAddress` is given.
    public static func text(_ hunt: Hunt, station index: Int, pageAddress: String? = nil) -> String {
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
        ]
        if let qr = checkInCode(pageAddress: pageAddress, code: station.code).map(qrLines), !qr.isEmpty {
            let qrMargin = String(repeating: " ", count: max(0, (width - (qr.first?.count ?? 0)) / 2))
            lines += ["", centred("Or scan this with your phone's camera to check in:"), ""]
            lines += qr.map { qrMargin + $0 }
        }
        lines += ["", rule]
        return lines.map(\.trimmingTrailingSpaces).joined(separator: "\n") + "\n"
    }

    /// One Markdown sheet, with the station's check-in QR code when `pageAddress` is given.
    public static func markdown(_ hunt: Hunt, station index: Int, pageAddress: String? = nil) -> String {
        let station = hunt.stations[index]
        var scan = ""
        if let qr = checkInCode(pageAddress: pageAddress, code: station.code).map(qrLines), !qr.isEmpty {
            scan =
                "\nOr scan this with your phone's camera to check in:\n\n```\n" + qr.joined(separator: "\n")
                + "\n```\n"
        }
        return """
            # \(hunt.name) — station \(index + 1) of \(hunt.stations.count): \(station.name)

            You found it! Check in with this code:

            ```
            \(blockLetters(station.code).map(\.trimmingTrailingSpaces).joined(separator: "\n"))
            ```

            **Code: \(station.code)**

            Type it in the Partyline app, or `checkin \(station.code)` from a plain terminal.
            \(scan)
            """
    }

    /// The sheets as one HTML page, a page break between stations, each with its check-in QR code as an inline SVG
    /// when `pageAddress` is given.
    public static func html(_ hunt: Hunt, pageAddress: String? = nil) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let sheets = hunt.stations.enumerated().map { index, station in
            let scan = checkInCode(pageAddress: pageAddress, code: station.code).map {
                "<p>Or scan this with your phone's camera to check in:</p>\n<div class=\"qr\">\($0.svg())</div>\n"
            }
            return """
                <section class="sheet">
                <h1>\(escaped(hunt.name))</h1>
                <h2>Station \(index + 1) of \(hunt.stations.count): \(escaped(station.name))</h2>
                <p>You found it! Check in with this code:</p>
                <p class="code">\(escaped(station.code))</p>
                <p><strong>Code: \(escaped(station.code))</strong></p>
                <p>Type it in the Partyline app, or <code>checkin \(escaped(station.code))</code> from a plain terminal.</p>
                \(scan ?? "")</section>
                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escaped(hunt.name)): check-in sheets</title>
            <style>
            body { font-family: sans-serif; text-align: center; }
            .sheet { page-break-after: always; padding-top: 3em; }
            .qr svg { width: 6cm; height: 6cm; }
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
