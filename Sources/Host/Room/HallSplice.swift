import Protocol

/// A hall's copies of one message that differ only by a row added at the end of its tables (PROTOCOL.md §6.0.1):
/// the shared message is encoded once, and each copy is that line with its own rows' bytes spliced in before each
/// table's closing bracket (issue 29: a thousand copies through Codable were half of a 1,000-team reveal's turn).
struct HallSplice {
    /// The shared message's JSON line.
    let line: [UInt8]
    /// Where a copy's row goes in `line` for each table (the index of the table's `]`); nil when a table was not
    /// found (then each copy is encoded whole).
    let insertions: [Int]?
    /// Whether each table has no rows (a spliced row then needs no comma before it).
    let isEmpty: [Bool]

    /// Prepares the copies of `head`, whose tables encode as `tables` (JSON arrays, in the order they are written).
    init(head: any HostMessage, tables: [[UInt8]]) {
        line = head.encodedLine()
        isEmpty = tables.map { $0.count <= 2 }
        var found: [Int] = []
        var from = 0
        for table in tables {
            // A table is found by its bytes, so they must not be able to stand inside a JSON string: a table with a
            // string in it holds an unescaped `"`, which a string's bytes never do; `[]` or `[1,2]` could (a team
            // called "[]"), and such copies are encoded whole.
            guard table.count >= 2, table.contains(UInt8(ascii: "\"")),
                let start = HallSplice.find(table, in: line, from: from)
            else {
                insertions = nil
                return
            }
            from = start + table.count
            found.append(from - 1)
        }
        insertions = found
    }

    /// The first index at or after `from` at which `needle` occurs in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty else { return nil }
        let first = needle[0]
        var index = from
        while index + needle.count <= haystack.count {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The shared line with `rows[t]` (a row's JSON, or nil for none) added at the end of table `t`; nil when the
    /// tables were not found.
    func line(adding rows: [[UInt8]?]) -> [UInt8]? {
        guard let insertions, insertions.count == rows.count else { return nil }
        var copy: [UInt8] = []
        copy.reserveCapacity(line.count + rows.reduce(0) { $0 + ($1?.count ?? 0) + 1 })
        var done = 0
        for (table, row) in rows.enumerated() {
            guard let row else { continue }
            copy += line[done..<insertions[table]]
            if !isEmpty[table] { copy.append(UInt8(ascii: ",")) }
            copy += row
            done = insertions[table]
        }
        copy += line[done...]
        return copy
    }

    /// Sends `members` the shared message with `rows` added: JSON readers the spliced line, text readers (and every
    /// reader when splicing fails) `whole()`, the same copy as a message.
    func deliver(
        _ rows: [[UInt8]?], to members: [Session], through sessions: Sessions, whole: () -> any HostMessage
    ) {
        let bytes = line(adding: rows)
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
