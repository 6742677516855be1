import Protocol
import Testing

@testable import Client

/// Whatever text a host sends (a newer host, a bug, an old journal), the client's screen shows it inert: the only
/// escape sequences that reach the terminal are the renderer's own colours and styles.
@Suite("The client shows hostile text inert")
struct HostileTextTests {
    /// A window-title change, a screen wipe, a cursor move, a bidi override and a zero-width joiner, JSON-escaped.
    static let hostile = #"\u001b]0;pwned\u0007\u001b[2J\u001b[H\u009b2J\u202e\u200d"#

    /// Every escape sequence in `line` is one the renderer writes itself: SGR (`ESC [ … m`) and nothing else.
    static func onlyStyleEscapes(_ line: String) -> Bool {
        var scalars = Array(line.unicodeScalars)[...]
        while let escape = scalars.firstIndex(of: "\u{1B}") {
            scalars = scalars[scalars.index(after: escape)...]
            guard scalars.first == "[" else { return false }
            scalars = scalars.dropFirst()
            while let first = scalars.first, first == ";" || ("0"..."9").contains(first) {
                scalars = scalars.dropFirst()
            }
            guard scalars.first == "m" else { return false }
        }
        return !line.unicodeScalars.contains {
            ("\u{80}"..."\u{9F}").contains($0) || $0 == "\u{202E}" || $0 == "\u{200D}"
        }
    }

    @Test func aQueensOrderAndNamesWithEscapesAreDrawnInert() {
        let h = HostileTextTests.hostile
        let state = Fixtures.state([
            Fixtures.welcome,
            #"{"type":"lobby","room":"ABCD","count":2,"players":[{"name":"Ann","team":"Red","connected":true},"#
                + #"{"name":"Bob\#(h)","team":"Blue\#(h)","connected":true}],"teams":["Red","Blue\#(h)"]}"#,
            #"{"type":"game","game":"queen","players":["Ann","Bob\#(h)","Cid"]}"#,
            Fixtures.round(queen: "Cid"), Fixtures.secret,
            #"{"type":"order","queen":"Cid\#(h)","text":"No. 2 \#(h)must sing to No. 1","targets":[2,1],"#
                + #""revealInMs":5000,"deadline":20000}"#,
            #"{"type":"notice","message":"Saved \#(h)your command"}"#,
        ])
        for size in screenSizes {
            let styled = render(state, width: size.width, height: size.height, now: 10_100, options: RenderOptions())
            for line in styled { #expect(HostileTextTests.onlyStyleEscapes(line), "\(line.debugDescription)") }
            #expect(styled.contains { $0.contains("must sing to No. 1") }, "the order itself is still shown")
            let plain = render(state, width: size.width, height: size.height, now: 10_100, options: .plainText)
            for line in plain { #expect(TerminalText.problem(in: line) == nil, "\(line.debugDescription)") }
        }
    }

    @Test func aShakyQuestionAndAnswerWithEscapesAreDrawnInert() {
        let h = HostileTextTests.hostile
        let state = Fixtures.state([
            Fixtures.welcome, Fixtures.lobby, Fixtures.shakyGame,
            #"{"type":"question","number":3,"of":10,"text":"Which \#(h)god?","letters":"SRO\#(h)HU","fixed":0,"#
                + #""difficulty":"hard","points":300,"remainingMs":30000,"deadline":39000}"#,
            #"{"type":"reveal","number":3,"answer":"Hor\#(h)us","scorer":"Blue","points":300,"scores":[],"#
                + #""nextInMs":5000,"last":false}"#,
        ])
        for size in screenSizes {
            let styled = render(state, width: size.width, height: size.height, now: 10_100, options: RenderOptions())
            for line in styled { #expect(HostileTextTests.onlyStyleEscapes(line), "\(line.debugDescription)") }
        }
    }
}
