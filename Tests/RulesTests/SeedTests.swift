import Common
import Rules
import Testing

/// A seed survives the journal whole: written as text, read back exactly, refused loudly when damaged.
@Suite("Seeds in start records")
struct SeedTests {
    struct Record: Codable, Equatable {
        var seedText: Seed
    }

    @Test(arguments: [0, 1, 1 << 53 + 1, 0x9E37_79B9_7F4A_7C15, UInt64.max])
    func aSeedIsWrittenAsTextAndReadBackExactly(_ value: UInt64) throws {
        let record = Record(seedText: Seed(value))
        let json = try JSONCoding.encode(record)
        #expect(json["seedText"] == .string(String(value)), "a seed is text in the journal, never a JSON number")
        #expect(try JSONCoding.decode(Record.self, from: json) == record)
    }

    @Test func aDamagedSeedIsAnErrorNotASilentZero() {
        for damaged: JSONValue in [.string("12x"), .string(""), .string("-1"), .string("18446744073709551616")] {
            #expect(throws: (any Error).self) { try JSONCoding.decode(Record.self, from: ["seedText": damaged]) }
        }
    }
}
