import Common
import Testing

@testable import Rules

/// `ChunkedList`: a list with value semantics whose copies share unchanged chunks.
struct ChunkedListTests {
    @Test func itIsAListOfItsElementsInOrder() {
        var list = ChunkedList<Int>()
        #expect(list.isEmpty && list.count == 0)
        for number in 0..<200 { list.append(number) }
        #expect(Array(list) == Array(0..<200))
        #expect(list.count == 200 && list[63] == 63 && list[64] == 64 && list[199] == 199)
        #expect(list.reversed().first == 199)
        list.removeAll()
        #expect(list.isEmpty)
        #expect(Array(ChunkedList([1, 2, 3])) == [1, 2, 3])
        let literal: ChunkedList = [4, 5]
        #expect(Array(literal) == [4, 5])
    }

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = ChunkedList(0..<300)
        var copy = original
        copy[0] = -1
        copy[64] = -64
        copy[299] = -299
        copy.append(300)
        #expect(Array(original) == Array(0..<300), "every chunk of the original is untouched")
        #expect(copy[0] == -1 && copy[64] == -64 && copy[299] == -299 && copy.count == 301)
        #expect(copy != original && ChunkedList(original) == original)
        var again = copy
        again[5] += 10
        #expect(copy[5] == 5 && again[5] == 15)
    }

    @Test func itEncodesAsAPlainList() throws {
        let list = ChunkedList((0..<70).map { "w\($0)" })
        let bytes = try JSONCoding.bytes(list)
        #expect(bytes == (try JSONCoding.bytes(Array(list))))
        #expect(try JSONCoding.decode(ChunkedList<String>.self, from: bytes) == list)
        #expect(throws: (any Error).self) { try JSONCoding.decode(ChunkedList<Int>.self, from: Array("{}".utf8)) }
    }
}
