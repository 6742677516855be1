import Protocol
import Testing

@testable import Client

/// Builds client states by feeding host messages, the way the real client does.
enum Fixtures {
    /// Parses a JSON literal (test input written by hand, shaped as the host sends it: every field present).
    static func json(_ text: String) -> JSONValue {
        do {
            return try JSONParsing.parse(text)
        } catch {
            Issue.record("bad fixture JSON: \(error) in \(text)")
            return .null
        }
    }

    /// A state after applying `messages` in order at client times starting at `start`, 10 ms apart.
    static func state(
        role: Role = .player, name: String = "Ann", team: String = "Red", room: String = "ABCD",
        start: Int64 = 10_000, _ messages: [String]
    ) -> ClientState {
        var state = ClientState(role: role, room: room, name: name, team: team)
        var now = start
        for message in messages {
            _ = state.apply(json(message), at: now)
            now += 10
        }
        return state
    }

    /// The welcome of Ann in team Red, with the host clock 1000 ms behind the client's 10 000.
    static let welcome =
        #"{"type":"welcome","room":"ABCD","role":"player","hostTime":9000,"player":"p1","name":"Ann","team":"Red","token":"tok123"}"#
    static let lobby =
        #"{"type":"lobby","room":"ABCD","count":2,"players":[{"name":"Ann","team":"Red","connected":true},{"name":"Bob","team":"Blue","connected":false}],"teams":["Red","Blue"]}"#
    static let shakyGame = #"{"type":"game","game":"shaky","teams":["Red","Blue"],"questions":10}"#
    /// Question 3; buzzing closes at host time 39 000 (30 s after the host's 9 000).
    static let question =
        #"{"type":"question","number":3,"of":10,"text":"Which Egyptian sky god had the head of a falcon?","letters":"SROHU","fixed":0,"difficulty":"hard","points":300,"remainingMs":30000,"deadline":39000}"#
    static let buzzed =
        #"{"type":"buzzed","order":["Red","Blue"],"entries":[{"team":"Red","offsetMs":0,"uncertaintyMs":3,"tie":false},{"team":"Blue","offsetMs":37,"uncertaintyMs":4,"tie":false}],"remainingMs":20000,"deadline":29000}"#
    static let turnRed = #"{"type":"turn","team":"Red","remainingMs":60000,"deadline":69000}"#
    static let turnBlue = #"{"type":"turn","team":"Blue","remainingMs":60000,"deadline":69000}"#
    static let hint = #"{"type":"hint","letters":"HSOUR","fixed":1,"points":225}"#
    static let wrongRed = #"{"type":"result","team":"Red","correct":false,"points":0,"timedOut":false}"#
    static let reveal =
        #"{"type":"reveal","number":3,"answer":"Horus","scorer":"Blue","points":300,"scores":[{"team":"Blue","score":300,"rank":1,"correct":1},{"team":"Red","score":0,"rank":2,"correct":0}],"nextInMs":5000,"last":false}"#
    static let final =
        #"{"type":"scoreboard","final":true,"ranking":[{"team":"Blue","score":900,"rank":1,"correct":3},{"team":"Red","score":450,"rank":2,"correct":2}]}"#

    static let queenGame = #"{"type":"game","game":"queen","players":["Ann","Bob","Cid"]}"#

    /// The `round` message for `queen`, with the commitment of the deal Bob = 1, Ann = 2 (room ABCD, round 1).
    static func round(queen: String, numbers: [String: Int] = ["Bob": 1, "Ann": 2], salt: String = saltHex) -> String {
        let commitment = DealCommitment.commitment(room: "ABCD", round: 1, saltHex: salt, numbers: numbers)
        return
            #"{"type":"round","number":1,"queen":"\#(queen)","players":["Ann","Bob","Cid"],"commitment":"\#(commitment)","chooseMs":60000}"#
    }

    static let saltHex = "000102030405060708090a0b0c0d0e0f"
    static let secret = #"{"type":"secret","number":2,"round":1}"#
    static let order =
        #"{"type":"order","queen":"Cid","text":"No. 2 must sing to No. 1","targets":[2,1],"revealInMs":5000,"deadline":20000}"#
    static let revealed =
        #"{"type":"revealed","round":1,"numbers":{"Bob":1,"Ann":2},"targets":["Ann","Bob"],"salt":"000102030405060708090a0b0c0d0e0f","commitment":"x","nextInMs":null}"#
    static let library =
        #"{"type":"library","commands":[{"id":"b12","text":"No. {1} sings to Queen {queen}.","kind":"citizenToQueen","difficulty":"bold","builtin":true,"hidden":false},{"id":"b16","text":"No. {1} sings No. {2} a song about socks.","kind":"citizenToCitizen","difficulty":"bold","builtin":true,"hidden":false}]}"#
}

extension JSONValue {
    /// The `type` field, for assertions.
    var typeName: String? { self["type"]?.stringValue }
}

/// The JSON sent by a `.send` action, if it is one.
func sent(_ action: ClientAction) -> JSONValue? {
    if case .send(let value) = action { return value }
    return nil
}
