import Protocol
import Testing

/// Growing states' deltas (PROTOCOL.md §6.0): what `ListDiff.changes` says turns the old list into the new one, and
/// costs what changed, not the list.
@Suite("List deltas")
struct ListDiffTests {
    struct Item: ListItem {
        var name: String
        var value: Int
        var at: Int?
        var key: String { name }

        init(_ name: String, _ value: Int = 0) {
            self.name = name
            self.value = value
        }
    }

    static func items(_ names: String...) -> [Item] { names.map { Item($0) } }

    /// Applies what `changes` found and checks it gives `new`; returns the changes.
    @discardableResult
    static func roundTrip(_ old: [Item], _ new: [Item], sourceLocation: SourceLocation = #_sourceLocation)
        -> (changed: [Item], removed: [String])
    {
        guard let (changed, removed) = ListDiff.changes(from: old, to: new) else {
            Issue.record("no changes for unique keys", sourceLocation: sourceLocation)
            return ([], [])
        }
        let applied = ListDiff.apply(changed: changed, removed: removed, to: old)
        #expect(applied == new, "\(old.map(\.name)) → \(new.map(\.name))", sourceLocation: sourceLocation)
        return (changed, removed)
    }

    @Test func anAppendedItemCostsOneItemWithoutAPosition() {
        let (changed, removed) = Self.roundTrip(Self.items("a", "b", "c"), Self.items("a", "b", "c", "d"))
        #expect(changed.map(\.name) == ["d"])
        #expect(changed.map(\.at) == [nil])
        #expect(removed.isEmpty)
    }

    @Test func anItemInsertedInTheMiddleCarriesItsPlace() {
        let (changed, _) = Self.roundTrip(Self.items("a", "b", "c", "d"), Self.items("a", "b", "x", "c", "d"))
        #expect(changed.map(\.name) == ["x"])
        #expect(changed.map(\.at) == [2])
    }

    @Test func aChangedItemIsSentInPlaceAndAMovedOneWithItsPlace() {
        var new = Self.items("b", "a", "c", "d", "e")
        new[3].value = 7
        let (changed, _) = Self.roundTrip(Self.items("a", "b", "c", "d", "e"), new)
        #expect(changed.count == 2)  // one of a/b moved; d changed in place
        #expect(changed.contains { $0.name == "d" && $0.at == nil && $0.value == 7 })
        #expect(changed.contains { ($0.name == "a" || $0.name == "b") && $0.at != nil })
    }

    @Test func removalsAreKeys() {
        let (changed, removed) = Self.roundTrip(Self.items("a", "b", "c"), Self.items("a", "c"))
        #expect(changed.isEmpty)
        #expect(removed == ["b"])
    }

    @Test func nothingChangedIsAnEmptyDelta() {
        let (changed, removed) = Self.roundTrip(Self.items("a", "b"), Self.items("a", "b"))
        #expect(changed.isEmpty && removed.isEmpty)
    }

    @Test func duplicateKeysHaveNoDelta() {
        #expect(ListDiff.changes(from: Self.items("a", "a"), to: Self.items("a")) == nil)
        #expect(ListDiff.changes(from: Self.items("a"), to: Self.items("b", "b")) == nil)
    }

    @Test func aDeltaThatDoesNotFitIsRefused() {
        var far = Item("z")
        far.at = 9
        #expect(ListDiff.apply(changed: [far], removed: [], to: Self.items("a")) == nil)
        #expect(ListDiff.apply(changed: [], removed: ["q"], to: Self.items("a")) == nil)
    }

    /// Random lists: every delta applies to give the new list, and a single insertion never costs more than one item.
    @Test func randomChangesRoundTrip() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var counter = 0
        for _ in 0..<400 {
            var old: [Item] = []
            for _ in 0..<next(30) {
                counter += 1
                old.append(Item("k\(counter)", next(3)))
            }
            var new = old
            for _ in 0..<next(6) {
                switch next(4) {
                case 0:
                    counter += 1
                    new.insert(Item("k\(counter)"), at: next(new.count + 1))
                case 1 where !new.isEmpty: new.remove(at: next(new.count))
                case 2 where !new.isEmpty: new[next(new.count)].value += 1
                case 3 where new.count > 1:
                    let moved = new.remove(at: next(new.count))
                    new.insert(moved, at: next(new.count + 1))
                default: break
                }
            }
            Self.roundTrip(old, new)
            if !old.isEmpty {
                counter += 1
                var grown = old
                grown.insert(Item("k\(counter)"), at: next(old.count + 1))
                #expect(Self.roundTrip(old, grown).changed.count == 1)
            }
        }
    }
}
