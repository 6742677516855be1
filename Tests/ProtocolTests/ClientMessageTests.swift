import Testing

@testable import Protocol

private func message(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Decoded? {
    switch decodeFully(text) {
    case .success(let decoded): return decoded
    case .failure(let error):
        Issue.record("\(text) was refused: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

private func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ProtocolError? {
    switch decodeFully(text) {
    case .success(let decoded):
        Issue.record("\(text) was accepted as \(decoded)", sourceLocation: sourceLocation)
        return nil
    case .failure(let error): return error
    }
}

@Suite struct ClientMessageTests {
    // MARK: hello

    @Test func helloWithEveryField() {
        let decoded = message(
            #"{"type":"hello","protocol":1,"room":"ABCD","name":"Ann","team":"Red","role":"player","resume":"tok-123","clock":true}"#
        )
        #expect(
            decoded
                == .message(
                    .hello(
                        Hello(
                            protocolVersion: 1, room: "ABCD", name: "Ann", team: "Red", role: .player,
                            key: nil, resume: "tok-123", isSyncing: true))))
    }

    @Test func helloDefaults() {
        #expect(message(#"{"type":"hello"}"#) == .message(.hello(Hello(room: "", name: ""))))
        #expect(
            message(#"{"type":"hello","room":"R","name":"Bo","team":null,"key":null,"clock":null}"#)
                == .message(.hello(Hello(room: "R", name: "Bo"))))
        #expect(
            message(#"{"type":"hello","protocol":1.0,"room":"R","name":"Bo"}"#)
                == .message(.hello(Hello(room: "R", name: "Bo"))))
    }

    @Test func helloForBoardAndAdmin() {
        #expect(
            message(#"{"type":"hello","room":"ABCD","role":"board"}"#)
                == .message(.hello(Hello(room: "ABCD", name: "", role: .board))))
        #expect(
            message(#"{"type":"hello","room":"ABCD","role":"admin","key":"s3cret"}"#)
                == .message(.hello(Hello(room: "ABCD", name: "", role: .admin, key: "s3cret"))))
    }

    @Test func helloWithAnotherProtocolVersionIsBadVersion() {
        for version in ["2", "0", "-1", "9223372036854775807"] {
            let error = failure(#"{"type":"hello","protocol":\#(version),"room":"R","name":"A","id":5}"#)
            #expect(error?.code == .badVersion)
            #expect(error?.message.contains("protocol \(wireProtocolVersion)") == true)
            #expect(error?.message.contains(version) == true)
            #expect(error?.id == 5)
        }
    }

    @Test func helloFieldTypesAreChecked() {
        let cases: [(String, String)] = [
            (#"{"type":"hello","protocol":"1"}"#, #""protocol" must be a whole number, not a string."#),
            (#"{"type":"hello","protocol":1.5}"#, #""protocol" must be a whole number, not 1.5."#),
            (#"{"type":"hello","room":5}"#, #""room" must be a string, not a number."#),
            (#"{"type":"hello","name":["Ann"]}"#, #""name" must be a string, not an array."#),
            (#"{"type":"hello","team":{}}"#, #""team" must be a string, not an object."#),
            (#"{"type":"hello","role":true}"#, #""role" must be a string, not a boolean."#),
            (#"{"type":"hello","role":"king"}"#, #""role" must be player, board or admin, not "king"."#),
            (#"{"type":"hello","clock":"yes"}"#, #""clock" must be true or false, not a string."#),
            (#"{"type":"hello","clock":1}"#, #""clock" must be true or false, not a number."#),
            (#"{"type":"hello","key":7}"#, #""key" must be a string, not a number."#),
            (#"{"type":"hello","resume":false}"#, #""resume" must be a string, not a boolean."#),
        ]
        for (line, expected) in cases {
            let error = failure(line)
            #expect(error?.code == .badField, "\(line)")
            #expect(error?.message == expected, "\(line)")
        }
    }

    @Test func helloFieldLengthsAreLimited() {
        let name24 = String(repeating: "é", count: 24)  // characters, not bytes
        #expect(
            message(#"{"type":"hello","room":"ABCDEFGHIJKL","name":"\#(name24)","team":"\#(name24)"}"#)
                == .message(.hello(Hello(room: "ABCDEFGHIJKL", name: name24, team: name24))))
        #expect(failure(#"{"type":"hello","name":"\#(name24)x"}"#)?.message == #""name" is longer than 24 characters."#)
        #expect(failure(#"{"type":"hello","team":"\#(name24)x"}"#)?.code == .badField)
        #expect(
            failure(#"{"type":"hello","room":"ABCDEFGHIJKLM"}"#)?.message == #""room" is longer than 12 characters."#)
        #expect(failure(#"{"type":"hello","role":"administratorxyz"}"#)?.code == .badField)
        // Grapheme clusters, as §5 says: a flag (two scalars, 8 bytes) is one character, whatever its bytes.
        let flags = "Ann" + String(repeating: "🇳🇴", count: 21)
        #expect(
            message(#"{"type":"hello","room":"R","name":"\#(flags)"}"#)
                == .message(.hello(Hello(room: "R", name: flags))))
        #expect(
            failure(#"{"type":"hello","name":"\#(flags)🇳🇴"}"#)?.message == #""name" is longer than 24 characters."#)
        let emoji = "Ann" + String(repeating: "🎉", count: 22)
        #expect(failure(#"{"type":"hello","name":"\#(emoji)"}"#)?.message == #""name" is longer than 24 characters."#)
        let piled = "A" + String(repeating: "\u{301}", count: 40)  // one character, 81 bytes
        #expect(failure(#"{"type":"hello","name":"\#(piled)"}"#)?.message.contains("too many marks") == true)
    }

    // MARK: the other types

    @Test func pingAndBuzzStamps() {
        #expect(message(#"{"type":"ping"}"#) == .message(.ping(clientTime: nil)))
        #expect(message(#"{"type":"ping","t":123456}"#) == .message(.ping(clientTime: 123_456)))
        #expect(message(#"{"type":"buzz"}"#) == .shaky(.buzz(pressedAt: nil)))
        #expect(message(#"{"type":"buzz","t":null}"#) == .shaky(.buzz(pressedAt: nil)))
        #expect(message(#"{"type":"buzz","t":98765}"#) == .shaky(.buzz(pressedAt: 98_765)))
        #expect(message(#"{"type":"buzz","t":98765.0}"#) == .shaky(.buzz(pressedAt: 98_765)))
        #expect(message(#"{"type":"buzz","t":-9223372036854775808}"#) == .shaky(.buzz(pressedAt: Int64.min)))
        #expect(failure(#"{"type":"buzz","t":"soon"}"#)?.message == #""t" must be a whole number, not a string."#)
        #expect(failure(#"{"type":"buzz","t":12.5}"#)?.message == #""t" must be a whole number, not 12.5."#)
        #expect(message(#"{"type":"buzz","t":1e16}"#) == .shaky(.buzz(pressedAt: 10_000_000_000_000_000)))
        #expect(message(#"{"type":"buzz","t":9223372036854775807}"#) == .shaky(.buzz(pressedAt: Int64.max)))
        // 2^63 is whole but one past the largest stamp: out of range, not "not a whole number".
        let tooLarge = failure(#"{"type":"buzz","t":9223372036854775808}"#)
        #expect(tooLarge?.code == .badField)
        #expect(tooLarge?.message.hasPrefix(#""t" is out of range: "#) == true, "\(String(describing: tooLarge))")
        #expect(tooLarge?.message.hasSuffix("is not between -9223372036854775808 and 9223372036854775807.") == true)
        #expect(failure(#"{"type":"buzz","t":-1e19}"#)?.message.hasPrefix(#""t" is out of range"#) == true)
        // -2^63 - 1 is one below the smallest stamp; read through a Double it would round to -2^63.
        for below in ["-9223372036854775809", "-9223372036854775900"] {
            let tooSmall = failure(#"{"type":"buzz","t":"# + below + "}")
            #expect(tooSmall?.code == .badField, "\(below): \(String(describing: tooSmall))")
            #expect(tooSmall?.message.hasPrefix(#""t" is out of range: "#) == true)
            #expect(failure(#"{"type":"ping","t":"# + below + "}")?.code == .badField)
        }
        let syncTooLarge = failure(#"{"type":"sync","n":1,"h":1,"c1":2e19,"c2":3}"#)
        #expect(syncTooLarge?.message.hasPrefix(#""c1" is out of range"#) == true)
        #expect(failure(#"{"type":"ping","t":true}"#)?.message == #""t" must be a whole number, not a boolean."#)
    }

    @Test func syncNeedsAllFourStamps() {
        #expect(
            message(#"{"type":"sync","n":3,"h":1000,"c1":5010,"c2":5012}"#)
                == .message(.sync(SyncReply(sequence: 3, hostSent: 1000, clientReceived: 5010, clientSent: 5012))))
        for missing in ["n", "h", "c1", "c2"] {
            var fields = ["\"n\":3", "\"h\":1000", "\"c1\":5010", "\"c2\":5012"]
            fields.removeAll { $0.hasPrefix("\"\(missing)\"") }
            let error = failure(#"{"type":"sync",\#(fields.joined(separator: ","))}"#)
            #expect(error?.code == .badField)
            #expect(error?.message == "\"\(missing)\" is missing.")
        }
        #expect(
            failure(#"{"type":"sync","n":3,"h":"1000","c1":5010,"c2":5012}"#)?.message
                == #""h" must be a whole number, not a string."#)
    }

    @Test func answerNeedsText() {
        #expect(message(#"{"type":"answer","text":"Paris"}"#) == .shaky(.answer("Paris")))
        #expect(message(#"{"type":"answer","text":""}"#) == .shaky(.answer("")))
        #expect(failure(#"{"type":"answer"}"#)?.message == #""text" is missing."#)
        #expect(failure(#"{"type":"answer","text":null}"#)?.message == #""text" is missing."#)
        #expect(failure(#"{"type":"answer","text":42}"#)?.message == #""text" must be a string, not a number."#)
        let long = String(repeating: "a", count: FieldLimits.text + 1)
        #expect(failure(#"{"type":"answer","text":"\#(long)"}"#)?.message == #""text" is longer than 200 characters."#)
        #expect(message(#"{"type":"answer","text":"\#(long.dropLast())"}"#) == .shaky(.answer(String(long.dropLast()))))
    }

    @Test func fieldlessMessages() {
        let expected: [(String, Decoded)] = [
            ("shake", .shaky(.shake)), ("next", .message(.next)), ("pause", .message(.pause)),
            ("continue", .message(.resume)),
            ("resume", .message(.resume)), ("end", .message(.end)), ("status", .message(.status)),
            ("scores", .message(.scores)), ("bye", .message(.bye)), ("quit", .message(.bye)), ("pong", .message(.pong)),
        ]
        for (type, value) in expected {
            #expect(message(#"{"type":"\#(type)"}"#) == value, "\(type)")
            #expect(
                message(#"{"id":1,"type":"\#(type)","extra":[1,{"x":null}]}"#) == value, "\(type) with extra fields")
        }
    }

    @Test func startKeepsItsOptionsInOrder() {
        let decoded = message(
            #"{"type":"start","id":9,"game":"shaky","questions":10,"difficulty":"mixed","packs":["science","animals"],"answerSeconds":30}"#
        )
        guard case .message(.start(let game, let options)) = decoded else {
            Issue.record("not a start: \(String(describing: decoded))")
            return
        }
        #expect(game == "shaky")
        #expect(options.members.map(\.key) == ["questions", "difficulty", "packs", "answerSeconds"])
        #expect(options["packs"] == ["science", "animals"])
        #expect(message(#"{"type":"start","game":"queen"}"#) == .message(.start(game: "queen", options: [:])))
        #expect(failure(#"{"type":"start"}"#)?.message == #""game" is missing."#)
        #expect(failure(#"{"type":"start","game":["shaky"]}"#)?.message == #""game" must be a string, not an array."#)
        #expect(failure(#"{"type":"start","game":"\#(String(repeating: "g", count: 33))"}"#)?.code == .badField)
    }

    @Test func kickNeedsAName() {
        #expect(message(#"{"type":"kick","name":"Ann"}"#) == .message(.kick(name: "Ann")))
        #expect(failure(#"{"type":"kick"}"#)?.message == #""name" is missing."#)
        #expect(failure(#"{"type":"kick","name":{}}"#)?.message == #""name" must be a string, not an object."#)
    }

    @Test func commandTakesATemplateOrText() {
        #expect(
            message(#"{"type":"command","template":"sing-duet"}"#)
                == .queen(.command(.template("sing-duet"), save: false)))
        #expect(
            message(#"{"type":"command","text":"No. {1} sings to No. {2}","save":true}"#)
                == .queen(.command(.text("No. {1} sings to No. {2}"), save: true)))
        #expect(
            message(#"{"type":"command","template":"a","text":"b"}"#) == .queen(.command(.template("a"), save: false)))
        #expect(message(#"{"type":"command","template":null,"text":"b"}"#) == .queen(.command(.text("b"), save: false)))
        let neither = failure(#"{"type":"command","save":true}"#)
        #expect(neither?.code == .badField)
        #expect(neither?.message.contains("\"template\"") == true && neither?.message.contains("\"text\"") == true)
        #expect(
            failure(#"{"type":"command","text":"x","save":"yes"}"#)?.message
                == #""save" must be true or false, not a string."#)
        #expect(failure(#"{"type":"command","template":5}"#)?.message == #""template" must be a string, not a number."#)
    }

    @Test func libraryAndPacksCarryTheirFields() {
        #expect(message(#"{"type":"library","action":"list"}"#) == .message(.library(action: "list", fields: [:])))
        #expect(
            message(#"{"type":"library","id":"r1","action":"add","text":"Dance","kind":"dare"}"#)
                == .message(.library(action: "add", fields: ["text": "Dance", "kind": "dare"])))
        #expect(
            message(
                #"{"type":"packs","action":"add","pack":"science","question":{"difficulty":"easy","text":"2+2?","answer":"4"}}"#
            )
                == .message(
                    .packs(
                        action: "add",
                        fields: [
                            "pack": "science",
                            "question": .object(["difficulty": "easy", "text": "2+2?", "answer": "4"]),
                        ])))
        #expect(failure(#"{"type":"library"}"#)?.message == #""action" is missing."#)
        #expect(failure(#"{"type":"packs","action":1}"#)?.message == #""action" must be a string, not a number."#)
    }

    @Test func everyAdvertisedTypeDecodes() {
        let minimal: [String: String] = [
            "sync": #","n":1,"h":2,"c1":3,"c2":4"#, "answer": #","text":"x""#, "start": #","game":"shaky""#,
            "kick": #","name":"Ann""#, "command": #","text":"x""#, "library": #","action":"list""#,
            "packs": #","action":"list""#,
            "console": #","line":"status""#, "unban": #","name":"Ann""#, "resync": #","state":"lobby""#,
        ]
        for type in ClientMessage.typeNames {
            #expect(message(#"{"type":"\#(type)"\#(minimal[type] ?? "")}"#) != nil, "\(type)")
        }
        #expect(ClientMessage.typeNames.count == Set(ClientMessage.typeNames).count)
    }

    // MARK: type and envelope rules

    @Test func missingOrNonStringTypeIsBadField() {
        let missing = failure(#"{"id":3,"text":"hi"}"#)
        #expect(missing?.code == .badField)
        #expect(missing?.message == #"The message has no "type" field."#)
        #expect(missing?.id == 3)
        #expect(failure(#"{"type":null}"#)?.message == #""type" must be a string, not null."#)
        #expect(failure(#"{"type":7}"#)?.message == #""type" must be a string, not a number."#)
        #expect(failure(#"{"type":["buzz"]}"#)?.code == .badField)
    }

    @Test func unknownTypeListsTheKnownOnes() {
        let error = failure(#"{"type":"fly","id":"q"}"#)
        #expect(error?.code == .unknownType)
        #expect(error?.id == "q")
        #expect(error?.message.hasPrefix(#"Unknown message type "fly"."#) == true)
        for name in ClientMessage.typeNames { #expect(error?.message.contains(name) == true, "\(name)") }
        // Type names are case-sensitive on the wire.
        #expect(failure(#"{"type":"BUZZ"}"#)?.code == .unknownType)
        let long = failure(#"{"type":"\#(String(repeating: "x", count: 500))"}"#)
        #expect(long?.message.contains(String(repeating: "x", count: 32) + "…\"") == true)
        #expect(long?.message.contains(String(repeating: "x", count: 33)) == false)
    }

    @Test func idIsEchoedWhenItIsANumberOrString() throws {
        let accepted: [(String, JSONValue)] = [("7", 7), (#""abc""#, "abc"), ("1.5", 1.5), ("-3", -3), (#""""#, "")]
        for (text, id) in accepted {
            #expect(try decode(#"{"type":"status","id":\#(text)}"#).get().id == id, "\(text)")
            #expect(failure(#"{"type":"nope","id":\#(text)}"#)?.id == id, "\(text)")
            #expect(failure(#"{"type":"answer","id":\#(text)}"#)?.id == id, "\(text)")
        }
        for text in ["null", "true", "[1]", #"{"a":1}"#] {
            #expect(try decode(#"{"type":"status","id":\#(text)}"#).get().id == nil, "\(text)")
            #expect(failure(#"{"type":"answer","id":\#(text)}"#)?.id == nil, "\(text)")
        }
        #expect(try decode(#"{"type":"status"}"#).get().id == nil)
    }

    @Test func nonObjectsAndBadJSONAreBadJSON() {
        for (text, kind) in [
            ("[1]", "an array"), (#""buzz""#, "a string"), ("1", "a number"), ("null", "null"), ("true", "a boolean"),
        ] {
            let error = failure(text)
            #expect(error?.code == .badJSON)
            #expect(error?.message == "Each line must be one JSON object, not \(kind).")
            #expect(error?.id == nil)
        }
        let broken = failure(#"{"type":"buzz","id":4"#)
        #expect(broken?.code == .badJSON)
        #expect(broken?.message.hasPrefix("That line is not valid JSON (") == true)
        #expect(broken?.id == nil)
        #expect(failure("buzz")?.code == .badJSON)
        #expect(
            ClientMessageDecoding.decode(line: [0xFF, 0x7B, 0x7D], actions: actions)
                == .failure(
                    ProtocolError(
                        .badJSON,
                        "That line is not valid JSON (unexpected character at byte 0).")))
    }

    @Test func decodingAParsedValueMatchesDecodingTheLine() throws {
        let line = #"{"type":"kick","id":2,"name":"Bo"}"#
        let value = try JSONParsing.parse(line)
        #expect(ClientMessageDecoding.decode(value, actions: actions) == decode(line))
    }

    @Test func errorDescriptionShowsTheWireCode() {
        #expect(ProtocolError(.badField, "\"t\" is missing.").description == "bad_field: \"t\" is missing.")
        #expect(ErrorCode.unknownType.rawValue == "unknown_type")
        #expect(ErrorCode.badJSON.rawValue == "bad_json")
        #expect(ErrorCode.badVersion.rawValue == "bad_version")
    }
}
