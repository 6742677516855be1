import Common
import Foundation
import Testing

@testable import Rules

/// Runs `body` and returns the error it refused with, or nil when it succeeded.
private func refusal(_ body: () throws -> Void) -> RuleError? {
    do {
        try body()
        return nil
    } catch let error as RuleError {
        return error
    } catch {
        Issue.record("expected a RuleError, got \(error)")
        return nil
    }
}

// MARK: - CSV

@Suite struct CSVTests {
    @Test func recordsKeepQuotesCommasAndLineBreaksAndKnowTheirLines() throws {
        let text =
            "\u{FEFF}a,\"b, with comma\",c\r\n"
            + "\"multi\r\nline\",\"say \"\"hi\"\"\",\r\n"
            + "\r\n"
            + "  \"spaced\"  ,x\"y,z\r"
            + "last,row"
        let records = try CSV.records(in: text)
        #expect(
            records == [
                CSVRecord(line: 1, fields: ["a", "b, with comma", "c"]),
                CSVRecord(line: 2, fields: ["multi\r\nline", "say \"hi\"", ""]),
                CSVRecord(line: 4, fields: [""]),
                CSVRecord(line: 5, fields: ["spaced", "x\"y", "z"]),
                CSVRecord(line: 6, fields: ["last", "row"]),
            ])
        #expect(records[2].isBlank && !records[0].isBlank)
        #expect(try CSV.records(in: "").isEmpty)
        #expect(try CSV.records(in: "one\n") == [CSVRecord(line: 1, fields: ["one"])])
        #expect(
            try CSV.records(in: "a\n\"b\nc\"\nd").map(\.line) == [1, 2, 4],
            "a quoted line break moves later records down")
    }

    @Test func malformedQuotesNameTheirLine() {
        #expect(
            refusal { _ = try CSV.records(in: "a,b\nc,\"never\nclosed\n") }
                == RuleError(.badCSV, "line 2: a quoted field is never closed; add the missing closing quote mark."))
        #expect(
            refusal { _ = try CSV.records(in: "a\n\n\"x\"y") }?.message.hasPrefix(
                "line 3: text follows the closing quote") == true)
        #expect(
            refusal { _ = try CSV.records(in: "\"x\" \"") }?.message.hasPrefix("line 1: a quote mark follows") == true)
    }

    @Test func writtenFieldsReadBackExactly() throws {
        var rng = SplitMix64(seed: 99)
        let pieces = [
            "a", " ", ",", "\"", "\r\n", "\n", "\r", "é", "🎉", "\t", "x y", "=", "+", "-", "@", "'", "1", ".",
        ]
        for _ in 0..<300 {
            let rows: [[String]] = (0..<(1 + Int(rng.next(upperBound: UInt64(4))))).map { _ in
                (0..<3).map { _ in
                    (0..<Int(rng.next(upperBound: UInt64(5)))).map { _ in
                        pieces[Int(rng.next(upperBound: UInt64(pieces.count)))]
                    }.joined()
                }
            }
            let text = CSV.document(header: ["one", "two", "three"], rows: rows)
            #expect(text.hasSuffix("\r\n"))
            let table = try CSVTable(text: text, columns: ["one", "two", "three"])
            // A row of three empty fields is ",,", which is not blank and so survives.
            #expect(table.rows.map(\.fields) == rows)
        }
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field(" padded") == "\" padded\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    }

    @Test func formulaCellsAreWrittenAsTextAndReadBackAsTyped() throws {
        let hostile = [
            "=1+2", "=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", "\t=1", "\r=1",
            "'=1", "''", "'", "'tis", "'-3", "-3", "-1.5", "+3", "-", "=", "@", "1-2", "plain", "", "a=b",
        ]
        let text = CSV.document(header: ["name", "answer"], rows: hostile.map { [$0, $0] })
        // As a spreadsheet sees the file: no cell starts a formula, except plain negative numbers.
        let cells = try CSV.records(in: text, unguarding: false).flatMap(\.fields)
        for cell in cells {
            guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { continue }
            #expect(cell == "-3" || cell == "-1.5", "unsafe cell \(cell.debugDescription)")
        }
        #expect(
            cells.contains("'=1+2") && cells.contains("'@SUM(1)") && cells.contains("''=1") && cells.contains("'''"))
        #expect(cells.contains("'tis") && !cells.contains("''tis") && cells.contains("'") && cells.contains("-3"))
        // The host's own export reads back exactly as typed.
        let table = try CSVTable(text: text, columns: ["name", "answer"])
        #expect(table.rows.map(\.fields) == hostile.map { [$0, $0] })
        #expect(CSV.field("=1+2") == "'=1+2")
        #expect(CSV.field("=1,2") == "\"'=1,2\"")
        #expect(CSV.field("-7") == "-7")
    }

    @Test func tablesMatchTheHeaderInAnyOrderAndCountFields() throws {
        let columns = ["difficulty", "outsider", "word1", "word2", "word3", "link"]
        let table = try CSVTable(
            bytes: Array(
                "\u{FEFF}LINK,Word1,word2,word3,Outsider, Difficulty\n\nplanets,Mars,Venus,Earth,Moon,easy\n".utf8),
            columns: columns)
        #expect(table.rows == [CSVTable.Row(line: 3, fields: ["easy", "Moon", "Mars", "Venus", "Earth", "planets"])])
        #expect(
            refusal {
                _ = try CSVTable(
                    text: "difficulty,outsider,word1,word2,word3,link\neasy,Moon,Mars,Venus,Earth\n", columns: columns)
            }
                == RuleError(
                    .badCSV,
                    "line 2: expected 6 fields (difficulty, outsider, word1, word2, word3, link) but found 5; "
                        + "put quote marks around any field that contains a comma."))
        #expect(
            refusal { _ = try CSVTable(text: "difficulty,outsider,word1,word2,word3,word3\n", columns: columns) }
                == RuleError(
                    .badCSV,
                    "line 1: the first line must be the header difficulty,outsider,word1,word2,word3,link, "
                        + "not \"difficulty,outsider,word1,word2,word3,word3\"."))
        #expect(
            refusal { _ = try CSVTable(text: " \r\n\r\n", columns: columns) }
                == RuleError(
                    .badCSV,
                    "The file is empty; its first line must be the header difficulty,outsider,word1,word2,word3,link."))
        #expect(table.rows[0].error("no good") == RuleError(.badCSV, "line 3: no good"))
    }

    @Test func numberedLinesCountEveryLineEnding() {
        let lines = ContentText.numberedLines(in: "\u{FEFF}apple: pear* plum\r\n\r\n  \nfig: date\rkiwi: lime\nlast")
        #expect(lines.map(\.line) == [1, 4, 5, 6])
        #expect(lines.map(\.text) == ["apple: pear* plum", "fig: date", "kiwi: lime", "last"])
        #expect(ContentText.numberedLines(in: "").isEmpty)
        #expect(ContentText.numberedLines(in: "\n\nthird\n").map(\.line) == [3])
    }

    @Test func textMustBeUTF8() throws {
        #expect(try ContentText.utf8(ContentText.byteOrderMark + Array("héllo".utf8), code: .badCSV) == "héllo")
        #expect(
            refusal {
                _ = try ContentText.utf8(Array("one\ntwo\nth".utf8) + [0xFF] + Array("ree\n".utf8), code: .badJSON)
            }
                == RuleError(.badJSON, "line 3: the file is not UTF-8 text; save it as UTF-8 and try again."))
    }
}

// MARK: - JSON files

@Suite struct JSONFileTests {
    func file(_ text: String) throws(RuleError) -> JSONFile {
        try JSONFile(bytes: Array(text.utf8), expecting: "one JSON object with \"words\"")
    }

    @Test func syntaxErrorsNameLineAndColumnInCharacters() {
        #expect(
            refusal { _ = try file("{\n  \"name\": \"Café crème\"\n  \"words\": []\n}") }
                == RuleError(.badJSON, "line 3, column 3: expected ',' or '}' in an object but found '\"'."))
        // The column counts characters, not bytes, and the byte-order mark is invisible.
        #expect(
            refusal { _ = try JSONFile(bytes: ContentText.byteOrderMark + Array("{\"é\": tru}".utf8), expecting: "x") }
                == RuleError(.badJSON, "line 1, column 7: unexpected 't' where a value should be."))
        #expect(
            refusal { _ = try file("{\r\n\"a\": [1, 2,\r\n") }
                == RuleError(
                    .badJSON,
                    "line 3, column 1: the JSON ends too early; a closing quote mark or bracket may be missing."))
        #expect(
            refusal { _ = try file("[1 ü]") }
                == RuleError(.badJSON, "line 1, column 4: expected ',' or ']' in an array but found 'ü'."))
        #expect(
            refusal { _ = try file("{\"a\": 1}\n\n\"more\"") }
                == RuleError(.badJSON, "line 3, column 1: unexpected '\"' after the end of the JSON value."))
        #expect(
            refusal { _ = try file("  \r\n ") }
                == RuleError(.badJSON, "The file is empty; it must hold one JSON object with \"words\"."))
        #expect(
            refusal { _ = try file("\n[1]").rootObject(named: "the list") }
                == RuleError(.badJSON, "line 2: the file must hold one JSON object with \"words\"."))
    }

    @Test func fieldsNameTheirLineAndContext() throws {
        let root = try file(
            """
            {
              "name": "Hunt",
              "count": 2.0,
              "stations": [
                {"clue": "Under the stairs", "points": 3, "hidden": true, "tags": ["a", "b"]},
                {"clue": 7,
                 "points": 1.5, "hidden": "yes", "tags": ["c", 4]},
                "not an object",
                {"points": null}
              ]
            }
            """
        ).rootObject(named: "the hunt")
        #expect(try root.string("name") == "Hunt")
        #expect(try root.int("count") == 2)
        #expect(try root.optionalString("missing") == nil)
        #expect(
            refusal { _ = try root.string("missing") } == RuleError(.badJSON, "line 1: the hunt has no \"missing\"."))
        #expect(refusal { _ = try root.string("count") } == RuleError(.badJSON, "line 3: \"count\" must be text."))
        #expect(
            refusal { _ = try root.list("name") { "station \($0)" } }
                == RuleError(.badJSON, "line 2: \"name\" must be a list."))
        #expect(
            refusal { _ = try root.list("clues") { "clue \($0)" } }
                == RuleError(.badJSON, "line 1: the hunt has no \"clues\" list."))

        let stations = try root.list("stations") { "station \($0)" }
        #expect(stations.map(\.line) == [5, 6, 8, 9])
        #expect(try stations[0].string("clue") == "Under the stairs")
        #expect(try stations[0].int("points") == 3)
        #expect(try stations[0].optionalBool("hidden") == true)
        #expect(try stations[0].strings("tags") == ["a", "b"])
        #expect(
            refusal { _ = try stations[1].string("clue") }
                == RuleError(.badJSON, "line 6: station 2: \"clue\" must be text."))
        #expect(
            refusal { _ = try stations[1].int("points") }
                == RuleError(.badJSON, "line 7: station 2: \"points\" must be a whole number."))
        #expect(
            refusal { _ = try stations[1].optionalBool("hidden") }
                == RuleError(.badJSON, "line 7: station 2: \"hidden\" must be true or false."))
        #expect(
            refusal { _ = try stations[1].strings("tags") }
                == RuleError(.badJSON, "line 7: station 2: \"tags\" must hold only texts; item 2 is a number."))
        #expect(
            refusal { _ = try stations[2].object("an object with \"clue\"") }
                == RuleError(.badJSON, "line 8: station 3 must be an object with \"clue\"."))
        #expect(
            refusal { _ = try stations[3].int("points") } == RuleError(.badJSON, "line 9: station 4 has no \"points\".")
        )
        #expect(
            stations[1].innerError("the clue is empty.") == RuleError(.badJSON, "line 6: station 2: the clue is empty.")
        )
    }

    private struct Board: Decodable, Equatable {
        enum Shape: String, Decodable { case square, hex }
        struct Cell: Decodable, Equatable {
            var label: String
            var score: Int
        }
        var shape: Shape
        var cells: [Cell]
    }

    @Test func codableDecodingNamesTheLineOfTheBadValue() throws {
        let good = try file("{\"shape\": \"hex\", \"cells\": [{\"label\": \"A\", \"score\": 1}]}").decode(Board.self)
        #expect(good == Board(shape: .hex, cells: [.init(label: "A", score: 1)]))
        let cells =
            "{\n\"shape\": \"square\",\n\"cells\": [\n{\"label\": \"A\", \"score\": 1},\n"
            + "{\"label\": \"B\",\n \"score\": \"two\"}\n]}"
        #expect(
            refusal { _ = try file(cells).decode(Board.self) }
                == RuleError(.badJSON, "line 6: \"score\" in item 2 of \"cells\" must be a number, not a string."))
        #expect(
            refusal { _ = try file("{\n\"shape\": \"square\",\n\"cells\": [\n{\"label\": \"A\"}]}").decode(Board.self) }
                == RuleError(.badJSON, "line 4: item 1 in \"cells\" has no \"score\"."))
        #expect(
            refusal { _ = try file("{\"cells\": [],\n\"shape\": \"round\"}").decode(Board.self) }
                == RuleError(.badJSON, "line 2: \"shape\" cannot be \"round\"."))
        #expect(
            refusal { _ = try file("{\"cells\": []}").decode(Board.self) }
                == RuleError(.badJSON, "line 1: the file has no \"shape\"."))
    }
}
