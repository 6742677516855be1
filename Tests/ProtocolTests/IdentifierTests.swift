import Foundation
import Protocol
import Testing

/// Typed identifiers (a player's id, a player's name, a team's name) are plain strings on the wire and in files.
@Suite("Typed identifiers")
struct IdentifierTests {
    @Test func eachKindEncodesAndDecodesAsItsPlainString() throws {
        let encoded = try JSONEncoder().encode([PlayerID("p2")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["p2"]"#)
        #expect(try JSONDecoder().decode([TeamName].self, from: Data(#"["Red"]"#.utf8)) == [TeamName("Red")])
        #expect(try JSONDecoder().decode(PlayerName.self, from: Data(#""Ann""#.utf8)) == PlayerName("Ann"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlayerID.self, from: Data("2".utf8)) }
        #expect(PlayerName("Ann").description == "Ann")
    }
}
