/// A list whose copies share their storage in chunks, so that a copy changed in one place copies one chunk and the
/// chunks' index, not every element: what lets a rules value that holds a hall's players be copied per event (the
/// rules' `apply` works on a copy and keeps it only on success) for little more than the change itself.
public struct ChunkedList<Element>: RandomAccessCollection, MutableCollection {
    /// Elements per chunk (a power of two, so a place splits into chunk and offset by shifting).
    private static var chunkShift: Int { 6 }
    private static var chunkMask: Int { (1 << chunkShift) - 1 }

    /// The elements, in chunks of `1 << chunkShift`; only the last may be shorter.
    private var chunks: [[Element]] = []
    /// How many elements there are.
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// A list of `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    /// The first place.
    public var startIndex: Int { 0 }
    /// Past the last place.
    public var endIndex: Int { count }

    /// The element at `position`; changing it copies only its chunk when the storage is shared.
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedList index out of range")
            return chunks[position >> Self.chunkShift][position & Self.chunkMask]
        }
        _modify {
            precondition(position >= 0 && position < count, "ChunkedList index out of range")
            yield &chunks[position >> Self.chunkShift][position & Self.chunkMask]
        }
    }

    /// Adds `element` at the end.
    public mutating func append(_ element: Element) {
        if count & Self.chunkMask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(1 << Self.chunkShift)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Removes every element.
    public mutating func removeAll() {
        chunks = []
        count = 0
    }
}

extension ChunkedList: ExpressibleByArrayLiteral {
    /// A list of the literal's elements.
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension ChunkedList: Equatable where Element: Equatable {
    /// Equal when the elements are, in order.
    public static func == (lhs: ChunkedList, rhs: ChunkedList) -> Bool { lhs.elementsEqual(rhs) }
}

extension ChunkedList: Sendable where Element: Sendable {}

extension ChunkedList: Codable where Element: Codable {
    /// Reads a plain JSON list.
    public init(from decoder: any Decoder) throws {
        self.init(try [Element](from: decoder))
    }

    /// Writes a plain JSON list (the same JSON as an array of the elements).
    public func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }
}
