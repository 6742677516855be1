import Common
import Foundation
import Rules
import TestSupport
import Testing

/// `hunt print` from a running host draws each station's check-in QR code (issue 26): read back by an independent
/// decoder, it holds the page's address with the station's code; without an address there is none.
@Suite("Hunt sheets' QR codes")
struct HuntSheetQRTests {
    static let hunt = HuntLibrary().hunt(id: "demo")!
    static let address = "http://192.168.1.20:4747/ABCD"

    /// The lines of `sheet` that draw the QR code (half blocks, not the code's block letters).
    static func drawing(_ sheet: String) -> [String] {
        sheet.components(separatedBy: "\n").filter { $0.contains("█") || $0.contains("▀") || $0.contains("▄") }
    }

    @Test(.enabled(if: QRScan.isAvailable, "zbarimg is not installed (apt-get install zbar-tools)"))
    func everyTextSheetsCodeOpensThePageWithItsStationsCode() throws {
        let sheets = HuntSheets.sheets(Self.hunt, pageAddress: Self.address).components(separatedBy: "\u{0C}\n")
        #expect(sheets.count == Self.hunt.stations.count)
        for (sheet, station) in zip(sheets, Self.hunt.stations) {
            #expect(sheet.contains("Code: \(station.code)"), "the code stays printed for typing")
            let drawing = Self.drawing(sheet)
            #expect(drawing.allSatisfy { $0.count <= HuntSheets.width }, "\(drawing)")
            let image = QRScan.image(ofTerminalLines: drawing, isDarkOnLight: true)
            #expect(try QRScan.decode(image: image) == "\(Self.address)#checkin=\(station.code)")
        }
        let markdown = HuntSheets.markdown(Self.hunt, station: 2, pageAddress: Self.address)
        let image = QRScan.image(ofTerminalLines: Self.drawing(markdown), isDarkOnLight: true)
        #expect(try QRScan.decode(image: image) == "\(Self.address)#checkin=\(Self.hunt.stations[2].code)")
    }

    @Test func theHTMLSheetsHoldEachCodeAsAnImageAndNoAddressMeansNoCode() throws {
        let html = HuntSheets.html(Self.hunt, pageAddress: Self.address)
        for station in Self.hunt.stations {
            let code = try QRCode(encoding: "\(Self.address)#checkin=\(station.code)")
            #expect(html.contains(code.svg()))
        }
        #expect(!HuntSheets.html(Self.hunt).contains("<svg"))
        #expect(Self.drawing(HuntSheets.sheets(Self.hunt)).isEmpty)
        #expect(!HuntSheets.sheets(Self.hunt, format: .markdown).contains("scan"))
    }
}
