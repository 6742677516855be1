import Foundation
import Protocol
import TestSupport
import Testing

@testable import Host

/// The host's console shows the QR code phones join with: at start and on `qr`.
@Suite struct JoinCodeTests {
    static let url = "http://192.168.100.200:4747/ABCD"

    @Test func joinAddressesSkipLoopbackUnlessItIsTheOnlyOne() {
        #expect(
            JoinCodes.urls(addresses: ["192.168.1.5", "10.0.0.2", "127.0.0.1"], port: 4747, room: "ABCD") == [
                "http://192.168.1.5:4747/ABCD", "http://10.0.0.2:4747/ABCD",
            ])
        #expect(JoinCodes.urls(addresses: ["127.0.0.1"], port: 5000, room: "WXYZ") == ["http://127.0.0.1:5000/WXYZ"])
        #expect(JoinCodes.urls(addresses: [], port: 5000, room: "WXYZ") == ["http://127.0.0.1:5000/WXYZ"])
    }

    @Test func theDrawingFitsTheTerminalOrSaysWhy() {
        let roomy = JoinCodes.drawing(of: Self.url, size: (width: 100, height: 40), colour: false)
        #expect(roomy.count == 19)  // version 3 with a four-module quiet zone
        #expect(roomy.contains { $0.hasSuffix("or open " + Self.url) })  // beside the code
        let short = JoinCodes.drawing(of: Self.url, size: (width: 100, height: 21), colour: false)
        #expect(short.count == 17)  // a two-module quiet zone
        let narrow = JoinCodes.drawing(of: Self.url, size: (width: 50, height: 40), colour: false)
        #expect(narrow.last == "or open " + Self.url)  // under the code
        #expect(narrow.count == 19 + 2)
        let narrowAndShort = JoinCodes.drawing(of: Self.url, size: (width: 70, height: 22), colour: false)
        #expect(narrowAndShort.count == 17 + 2, "the caption under the code counts: a two-module quiet zone")
        let tiny = JoinCodes.drawing(of: Self.url, size: (width: 80, height: 15), colour: false)
        #expect(tiny.count == 1)
        #expect(tiny[0].hasPrefix("This terminal is too small for the QR code"))
        #expect(tiny[0].hasSuffix("Phones join at " + Self.url))
    }

    @Test func helpListsTheQRCommand() throws {
        let host = try EmbeddedHost()
        #expect(host.console("help").joined().contains("  qr "))
    }

    @Test(.enabled(if: QRScan.isAvailable, Comment(rawValue: QRScan.skipReason)))
    func theQRCommandDrawsTheJoinAddressOfEveryNetworkAddress() throws {
        let host = try EmbeddedHost()
        let printed = host.console("qr")
        let urls = JoinCodes.urls(addresses: HostInfo.addresses(), port: 4747, room: "ROOM")
        #expect(printed.count == urls.count)
        for (drawing, url) in zip(printed, urls) {
            #expect(drawing.contains(url))
            let lines = drawing.split(separator: "\n").map(String.init)
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: lines)) == url)
        }
    }

    @Test(.enabled(if: QRScan.isAvailable, Comment(rawValue: QRScan.skipReason)), arguments: [true, false])
    func theConsoleDrawingDecodes(colour: Bool) throws {
        for height in [40, 21] {
            let lines = JoinCodes.drawing(of: Self.url, size: (width: 100, height: height), colour: colour)
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: lines)) == Self.url, "height \(height)")
        }
    }
}
