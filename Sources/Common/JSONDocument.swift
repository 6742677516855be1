/// One step into a JSON value: a member of an object or an element of an array.
public enum JSONPathComponent: Hashable, Sendable, CustomStringConvertible {
    /// The member named by the key.
    case key(String)
    /// The element at the zero-based index.
    case index(Int)

    public var description: String {
        switch self {
        case .key(let key): return key
        case .index(let index): return String(index)
        }
    }
}

/// A parsed JSON file that remembers where each value began, so problems can be reported by line.
public struct JSONDocument: Sendable {
    /// The parsed value.
    public let value: JSONValue
    private let offsets: [[JSONPathComponent]: Int]
    private let lineStarts: [Int]

    init(value: JSONValue, bytes: [UInt8], offsets: [[JSONPathComponent]: Int]) {
        self.value = value
        self.offsets = offsets
        lineStarts = JSONDocument.lineStarts(of: bytes)
    }

    /// The 1-based line on which the value at `path` starts (the nearest enclosing value when `path` is absent).
    public func line(of path: [JSONPathComponent]) -> Int {
        var path = path
        while !path.isEmpty, offsets[path] == nil { path.removeLast() }
        return JSONDocument.line(ofOffset: offsets[path] ?? 0, lineStarts: lineStarts)
    }

    /// The 1-based line and column of byte `offset` in `bytes` (for a `JSONParseError`).
    public static func position(ofOffset offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let starts = lineStarts(of: bytes)
        let line = self.line(ofOffset: offset, lineStarts: starts)
        return (line, offset - starts[line - 1] + 1)
    }

    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
        return starts
    }

    private static func line(ofOffset offset: Int, lineStarts: [Int]) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }
}
