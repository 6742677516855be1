import Protocol
import TestSupport
import Testing

@testable import Client

/// The board shows the phones' QR code: large in the lobby beside the room code, and under the final scores.
@Suite struct BoardJoinCodeTests {
    @Test func thePhoneAddressComesFromTheAddressTheBoardConnectedTo() {
        let lan = ["192.168.1.7", "127.0.0.1"]
        #expect(
            BoardJoinCode.phoneAddress(hostAddress: "192.168.1.20", defaultPort: 4747, localAddresses: lan)
                == "http://192.168.1.20:4747")
        #expect(
            BoardJoinCode.phoneAddress(hostAddress: "10.0.0.3:5000", defaultPort: 4747, localAddresses: lan)
                == "http://10.0.0.3:5000")
        // On the host's own computer: loopback means nothing to a phone, this computer's LAN address does.
        #expect(
            BoardJoinCode.phoneAddress(hostAddress: "127.0.0.1:6000", defaultPort: 4747, localAddresses: lan)
                == "http://192.168.1.7:6000")
        #expect(
            BoardJoinCode.phoneAddress(hostAddress: "localhost", defaultPort: 4747, localAddresses: ["127.0.0.1"])
                == "http://localhost:4747")
        #expect(
            BoardJoinCode.phoneAddress(hostAddress: "party.local", defaultPort: 4747, localAddresses: lan)
                == "http://party.local:4747")
    }

    /// A board in the lobby of room ABCD, connected to 192.168.1.20.
    static func lobbyBoard() -> ClientState {
        var state = Fixtures.state(
            role: .board, name: "", team: "",
            [#"{"type":"welcome","room":"ABCD","role":"board","hostTime":9000}"#, Fixtures.lobby])
        state.hostAddress = "192.168.1.20"
        state.phoneAddress = "http://192.168.1.20:4747"
        return state
    }

    static let url = "http://192.168.1.20:4747/ABCD"

    // A classic 80×24 terminal has no room for it beside the teams: it shows the words (as a small screen below).
    @Test(arguments: [120, 100])
    func theLobbyShowsTheCodeBesideTheRoomCode(width: Int) throws {
        let size = (width: width, height: width == 120 ? 40 : 30)
        let lines = screen(Self.lobbyBoard(), size)
        #expect(lines.text.contains("or open " + Self.url))
        #expect(lines.text.contains("partyline 192.168.1.20 --room ABCD"))
        #expect(lines.text.contains("Bob (away)"))
        let top = try #require(lines.firstIndex { $0.contains("Scan with a phone's camera") })
        #expect(lines[top].hasPrefix(" █"), "the code is at the left, the words beside it")
        checkStyled(Self.lobbyBoard(), size)
        if QRScan.isAvailable {
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: lines)) == Self.url)
            let styled = render(
                Self.lobbyBoard(), width: size.width, height: size.height, now: 10_100, options: .init())
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: styled)) == Self.url)
        }
    }

    @Test func aBigScreenGetsTheCodeAtTwiceTheSize() throws {
        let lines = screen(Self.lobbyBoard(), (width: 200, height: 60))
        #expect(lines.contains { $0.contains(" ██████████████  ") }, "a finder's edge two columns per module")
        if QRScan.isAvailable {
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: lines)) == Self.url)
        }
    }

    @Test func aSmallScreenOrAnUnknownAddressShowsTheWordsOnly() {
        #expect(!screen(Self.lobbyBoard(), (width: 60, height: 20)).text.contains("Scan with"))
        var unknown = Self.lobbyBoard()
        unknown.phoneAddress = ""
        let text = screen(unknown, screenSizes[1]).text
        #expect(!text.contains("Scan with"))
        #expect(text.contains("partyline 192.168.1.20 --room ABCD"))
    }

    @Test func betweenGamesTheCodeIsUnderTheFinalScores() throws {
        var state = Fixtures.state(
            role: .board, name: "", team: "",
            [
                #"{"type":"welcome","room":"ABCD","role":"board","hostTime":9000}"#, Fixtures.shakyGame,
                Fixtures.question, Fixtures.final,
            ])
        state.phoneAddress = "http://192.168.1.20:4747"
        let lines = screen(state, (width: 120, height: 50))
        #expect(lines.text.contains("FINAL SCOREBOARD"))
        #expect(lines.text.contains("or open " + Self.url))
        if QRScan.isAvailable {
            #expect(try QRScan.decode(image: QRScan.image(ofTerminalLines: lines)) == Self.url)
        }
    }

    /// Issue #27: after the first game the board still shows the room code, at every size, code or no code.
    @Test func betweenGamesTheRoomCodeStaysOnTheBoardAtEverySize() {
        var state = Fixtures.state(
            role: .board, name: "", team: "",
            [
                #"{"type":"welcome","room":"ABCD","role":"board","hostTime":9000}"#, Fixtures.shakyGame,
                Fixtures.question, Fixtures.final,
            ])
        state.phoneAddress = "http://192.168.1.20:4747"
        for size in [(width: 120, height: 50), (width: 100, height: 30), (width: 60, height: 20)] {
            let text = screen(state, size).text
            #expect(text.contains("FINAL SCOREBOARD"))
            #expect(text.contains("Room code ABCD"), "\(size.width)×\(size.height):\n\(text)")
        }
    }
}
