import Common
import Testing

/// The indented writer for files people read: its exact layout, and that it reads back as the same value.
@Suite struct PrettyJSONTests {
    @Test func layoutIsTwoSpacesWithSpacedColons() {
        let value: JSONValue = ["b": [1, "two", ["x": nil]], "a": [:], "c": [], "d": "say \"hi\"\n/é"]
        let text = String(decoding: JSONEncoding.pretty(value), as: UTF8.self)
        #expect(
            text == """
                {
                  "b" : [
                    1,
                    "two",
                    {
                      "x" : null
                    }
                  ],
                  "a" : {},
                  "c" : [],
                  "d" : "say \\"hi\\"\\n/é"
                }

                """)
        let sorted = String(decoding: JSONEncoding.pretty(value, sortingKeys: true), as: UTF8.self)
        #expect(
            sorted.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.prefix(5) } == [
                "  \"a\"", "  \"b\"", "  \"c\"", "  \"d\"",
            ])
        #expect(String(decoding: JSONEncoding.pretty(7), as: UTF8.self) == "7\n")
    }

    @Test func prettyTextReadsBackAsTheSameValue() throws {
        let value: JSONValue = [
            "list": [[], [[:]], [1.5, -2, true, false, nil]], "text": "tab\there \u{1}",
            "nested": ["deep": ["deeper": [1]]],
        ]
        #expect(try JSONParsing.parse(JSONEncoding.pretty(value)) == value)
        #expect(try JSONParsing.parse(JSONEncoding.pretty(value, sortingKeys: true)) == value)
    }
}
