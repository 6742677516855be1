import Foundation
import Protocol
import TestSupport
import Testing

/// A hunt's station sheet printed at a running host's console carries a QR code; a phone's camera opens its address
/// (`/ROOM#checkin=CODE`), and the page, once its player joined, sends the team's check-in (issue 26).
@Suite(
    "Hunt check-in by QR code", .timeLimit(.minutes(5)),
    .enabled(if: Browser.isAvailable, "no Chromium installed (apt-get install chromium)"),
    .enabled(if: QRScan.isAvailable, "zbarimg is not installed (apt-get install zbar-tools)"))
struct PhonePageCheckInTests {
    /// The check-in address each printed sheet's QR code holds, read back with zbarimg, in station order.
    static func printedAddresses(_ host: HostProcess, hunt: String) throws -> [String] {
        let file = NSTemporaryDirectory() + "partyline-sheets-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: file) }
        host.console("hunt print \(hunt) \(file)")
        let deadline = Date().addingTimeInterval(Patience.generous)
        var text: String?
        while text == nil, Date() < deadline {
            text = try? String(contentsOfFile: file, encoding: .utf8)
            if text == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let sheets = try #require(text, "hunt print wrote no \(file)").components(separatedBy: "\u{0C}\n")
        return try sheets.map { sheet in
            let drawing = sheet.components(separatedBy: "\n").filter { $0.contains("█") || $0.contains("▀") }
                .filter { !$0.contains("#") }
            let image = QRScan.image(ofTerminalLines: drawing, isDarkOnLight: true)
            return try #require(try QRScan.decode(image: image), "no QR code on the sheet:\n\(sheet)")
        }
    }

    /// A phone that opened `address` (a QR code's) and joined team `team` as `name`.
    static func phone(opening address: String, name: String, team: String) throws -> BrowserPage {
        let page = try #require(try Browser.shared()).newPage()
        try page.navigate(address)
        try page.type(name, into: "#name")
        try page.type(team, into: "#team")
        _ = try page.tap(selector: "button", containing: "Join")
        _ = try page.waitFor(
            "!document.querySelector('[data-screen=lobby]').hidden", timeout: 15, "\(name) in the lobby")
        return page
    }

    @Test func aScannedSheetChecksTheTeamInAndAnotherStationsSheetIsAWrongCode() throws {
        let host = try HostProcess(["--rate", "10000"])
        let addresses = try Self.printedAddresses(host, hunt: "demo")
        #expect(addresses.count == 5)
        #expect(addresses.first == "http://127.0.0.1:\(host.port)/\(host.room)#checkin=YUMM", "\(addresses)")

        let red = try Self.phone(opening: addresses[0], name: "Ann", team: "Red")
        defer { red.close() }
        let blue = try Self.phone(opening: addresses[1], name: "Bob", team: "Blue")
        defer { blue.close() }
        let admin = try host.admin()
        _ = try admin.waitFor("lobby") { ($0["players"]?.arrayValue?.count ?? 0) == 2 }
        try admin.send(["type": "start", "game": "hunt", "hunt": "demo", "id": 1])
        _ = try admin.waitFor("ok") { $0["re"] == 1 }

        // Red stands at station 1 (every team's first in the fixed order): its sheet checks Red in.
        let checkedIn = try red.waitFor("window.partylineCheckIn", timeout: 15, "Red's check-in from the link")
        #expect(checkedIn == ["code": "YUMM", "reply": "ok"], "\(red.report())")
        _ = try red.waitFor("document.body.textContent.includes('Station 1 of 5')", timeout: 10, "station 1's task")
        #expect(try red.evaluate("location.hash") == "")
        // Blue is on its way to station 1 too: station 2's sheet is refused as a wrong code would be.
        let refused = try blue.waitFor("window.partylineCheckIn", timeout: 15, "Blue's check-in from the link")
        #expect(refused == ["code": "KNCK", "reply": "wrong_code"], "\(blue.report())")
        _ = try admin.waitForText("Red checked in at")
        #expect(!admin.transcriptText.contains("Blue checked in"))
        _ = try? red.screenshot(to: "checkin-by-qr.png")
    }
}
