import Common
import Protocol

/// A hall's copies of one message that differ only by one row added at the end of a table (PROTOCOL.md §6.0.1):
/// the shared message is encoded once, and each copy is that line with its own row's bytes spliced in before the
/// table's closing bracket (issue 29: a thousand copies through Codable were half of a reveal's turn).
struct HallSplice {
    /// The shared message's JSON line.
    let line: [UInt8]
    /// Where a copy's row goes in `line` (the index of the table's `]`), or nil when the table was not found (then
    /// each copy is encoded whole).
    let insertion: Int?
    /// Whether the table has rows already (a spliced row then needs a comma before it).
    let isTableEmpty: Bool

    /// Prepares the copies of `head`, whose table encodes `rows`.
    init<Row: Encodable>(head: any HostMessage, rows: [Row]) {
        line = head.encodedLine()
        isTableEmpty = rows.isEmpty
        guard let table = try? JSONCoding.bytes(rows), table.count >= 2 else {
            insertion = nil
            return
        }
        insertion = HallSplice.find(table, in: line).map { $0 + table.count - 1 }
    }

    /// The first index at which `needle` occurs in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        let first = needle[0]
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The shared line with `row` added at the end of the table; nil when the row cannot be spliced.
    func line<Row: Encodable>(adding row: Row) -> [UInt8]? {
        guard let insertion, let bytes = try? JSONCoding.bytes(row) else { return nil }
        var copy: [UInt8] = []
        copy.reserveCapacity(line.count + bytes.count + 1)
        copy += line[..<insertion]
        if !isTableEmpty { copy.append(UInt8(ascii: ",")) }
        copy += bytes
        copy += line[insertion...]
        return copy
    }

    /// Sends `members` the shared message with `row` added: JSON readers the spliced line, text readers (and every
    /// reader when splicing fails) `whole()`, the same copy as a message.
    func deliver<Row: Encodable>(
        _ row: Row, to members: [Session], through sessions: Sessions, whole: () -> any HostMessage
    ) {
        let bytes = line(adding: row)
        var others: [Session] = []
        for session in members where session.isLive {
            if let bytes, session.dialect != .text {
                sessions.outlet.send(bytes, to: session.id)
            } else {
                others.append(session)
            }
        }
        if !others.isEmpty { sessions.deliver(whole(), to: others) }
    }
}
