import Common
import Protocol
import Testing

@testable import Host

/// `HallSplice`: a hall's copies of one message spliced from its encoding, never inside a string.
struct HallSpliceTests {
    /// A message with a text field and two tables, as a hall's reveal has.
    struct Table: HostMessage {
        static let type = "table"
        var title: String
        var rows: [Row]
        var numbers: [Int]

        struct Row: Codable, Sendable, Equatable {
            var team: String
        }

        static func decode(_ object: JSONObject) -> Table? { nil }
    }

    func spliced(_ message: Table, adding row: Table.Row) throws -> [UInt8]? {
        let splice = HallSplice(head: message, tables: [try JSONCoding.bytes(message.rows)])
        return splice.line(adding: [try JSONCoding.bytes(row)])
    }

    @Test func aCopyIsTheSharedLineWithItsRowAdded() throws {
        let head = Table(title: "Round 1", rows: [.init(team: "Red"), .init(team: "Blue")], numbers: [1, 2])
        let line = try #require(try spliced(head, adding: .init(team: "Gold")))
        var whole = head
        whole.rows.append(.init(team: "Gold"))
        #expect(line == whole.encodedLine())
    }

    @Test func aTableWhoseBytesCouldStandInsideAStringIsNotSpliced() throws {
        // The empty table's bytes `[]` first occur inside the title: splicing there would break the string.
        let head = Table(title: "Team []", rows: [], numbers: [])
        #expect(try spliced(head, adding: .init(team: "Gold")) == nil, "encoded whole instead")
        let numbers = HallSplice(head: head, tables: [try JSONCoding.bytes(head.numbers)])
        #expect(numbers.line(adding: [Array("7".utf8)]) == nil)
        // A table of strings cannot stand inside a string (its quotes would be escaped there), whatever the title.
        let quoted = Table(title: #"[{"team":"Red"}]"#, rows: [.init(team: "Red")], numbers: [])
        let line = try #require(try spliced(quoted, adding: .init(team: "Gold")))
        var whole = quoted
        whole.rows.append(.init(team: "Gold"))
        #expect(line == whole.encodedLine())
    }
}
