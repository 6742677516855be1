import Common
import Testing

@testable import Rules

/// A minimal kind of content, so the shelf is tested on its own and not through one library's rules.
private struct Note: ShelfItem {
    var id: String
    var name: String
    var isBuiltin = false
    var text = ""

    static let shelfNoun = "note"

    static func checkedName(_ name: String) throws(RuleError) -> String {
        try ContentNames.checkedName(name, noun: shelfNoun, maximumLength: 20, badName: .badField)
    }

    static func nameTakenRefusal(_ name: String) -> RuleError {
        ContentNames.takenRefusal(name, noun: shelfNoun, code: .badField)
    }

    static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError {
        RuleError(.unknownPack, "No note \"\(id)\"." + ContentNames.suggestion(for: id, among: ids))
    }
}

@Suite("The content shelf")
struct ContentShelfTests {
    private func shelf() -> ContentShelf<Note> {
        ContentShelf(builtinItems: [Note(id: "welcome", name: "Welcome", isBuiltin: true, text: "hi")])
    }

    private func refusal(_ body: () throws -> Void) -> RuleError? {
        do {
            try body()
            return nil
        } catch let error as RuleError {
            return error
        } catch {
            Issue.record("expected a RuleError, got \(error)")
            return nil
        }
    }

    @Test func itemsAreFoundByIDAndByFoldedName() throws {
        var shelf = shelf()
        let id = try shelf.add(Note(id: "", name: "  Café Ünter  "))
        #expect(id == "cafe-unter")
        #expect(shelf.item(id: id)?.name == "Café Ünter")
        #expect(shelf.item(named: "CAFE unter")?.id == id)
        #expect(shelf.item(named: "welcome")?.id == "welcome")
        #expect(shelf.item(named: "nobody") == nil)
        #expect(shelf.items.map(\.id) == ["welcome", id])
        #expect(shelf.isBuiltin(id: "welcome") && !shelf.isBuiltin(id: id))
    }

    @Test func idsAreKeptWhenFreeSlugsAndMadeFreshOtherwise() throws {
        var shelf = shelf()
        #expect(try shelf.add(Note(id: "mine", name: "One")) == "mine")
        #expect(try shelf.add(Note(id: "mine", name: "Two")) == "mine-2")
        #expect(try shelf.add(Note(id: "Not A Slug", name: "Three")) == "not-a-slug")
        #expect(try shelf.add(Note(id: "welcome", name: "Four")) == "welcome-2")
        #expect(try shelf.add(Note(id: "", name: "One more")) == "one-more")
        #expect(shelf.customItems.allSatisfy { !$0.isBuiltin })
        #expect(shelf.freeID(for: "Mine") == "mine-3")
    }

    @Test func namesMustBeValidAndFreeOnceFolded() {
        var shelf = shelf()
        #expect(
            refusal { _ = try shelf.add(Note(id: "", name: "WELCOME!")) }
                == RuleError(.badField, "There is already a note called \"WELCOME!\"; choose another name."))
        #expect(
            refusal { _ = try shelf.add(Note(id: "", name: " ?! ")) }
                == RuleError(.badField, "A note needs a name with at least one letter or digit."))
        #expect(refusal { _ = try shelf.add(Note(id: "", name: String(repeating: "a", count: 21))) }?.code == .badField)
        #expect(shelf.customItems.isEmpty)
    }

    @Test func validationRunsAfterTheNameAndCanCleanTheItem() throws {
        var shelf = shelf()
        let refused = refusal {
            _ = try shelf.add(Note(id: "", name: "Empty")) { note throws(RuleError) in
                guard !note.text.isEmpty else { throw RuleError(.badField, "A note needs text.") }
                return note
            }
        }
        #expect(refused == RuleError(.badField, "A note needs text."))
        #expect(shelf.customItems.isEmpty)
        let id = try shelf.add(Note(id: "", name: "Loud", text: "quiet")) { note throws(RuleError) in
            var note = note
            note.text = note.text.uppercased()
            return note
        }
        #expect(shelf.item(id: id)?.text == "QUIET")
    }

    @Test func builtInItemsAreReadOnlyAndCopiesAreFreeAndCustom() throws {
        var shelf = shelf()
        #expect(
            refusal { try shelf.rename("welcome", to: "Hello") }
                == RuleError(.readOnly, "The built-in note \"Welcome\" cannot be renamed; copy it to make your own."))
        #expect(refusal { try shelf.delete("welcome") }?.code == .readOnly)
        #expect(refusal { try shelf.change("welcome") { $0.text = "changed" } }?.code == .readOnly)
        let first = try shelf.copy("welcome")
        let second = try shelf.copy("welcome")
        let named = try shelf.copy("welcome", named: "Mine")
        #expect(shelf.customItems.map(\.name) == ["Welcome (copy)", "Welcome (copy 2)", "Mine"])
        #expect([first, second, named] == ["welcome-copy", "welcome-copy-2", "mine"])
        #expect(shelf.customItems.allSatisfy { !$0.isBuiltin && $0.text == "hi" })
        #expect(refusal { _ = try shelf.copy("welcome", named: "mine") }?.code == .badField)
    }

    @Test func renameKeepsTheIDAndItsOwnNameIsNotTaken() throws {
        var shelf = shelf()
        let id = try shelf.add(Note(id: "", name: "Draft"))
        try shelf.rename(id, to: "DRAFT")
        #expect(shelf.item(id: id)?.name == "DRAFT")
        #expect(refusal { try shelf.rename(id, to: "Welcome") }?.code == .badField)
        try shelf.delete(id)
        #expect(shelf.item(id: id) == nil)
    }

    @Test func aChangeIsKeptOnlyWhenItSucceeds() throws {
        var shelf = shelf()
        let id = try shelf.add(Note(id: "", name: "Draft", text: "a"))
        let length = try shelf.change(id) { note in
            note.text += "b"
            return note.text.count
        }
        #expect(length == 2 && shelf.item(id: id)?.text == "ab")
        let refused = refusal {
            try shelf.change(id) { (note: inout Note) throws(RuleError) in
                note.text = "lost"
                note.id = "other"
                throw RuleError(.badField, "No.")
            }
        }
        #expect(refused?.message == "No.")
        #expect(shelf.item(id: id)?.text == "ab")
    }

    @Test func unknownIDsAreRefusedInTheKindsWordsWithASuggestion() {
        var shelf = shelf()
        #expect(
            refusal { try shelf.delete("welcom") }
                == RuleError(.unknownPack, "No note \"welcom\". Did you mean welcome?"))
        #expect(refusal { _ = try shelf.copy("zzzzzzzz") } == RuleError(.unknownPack, "No note \"zzzzzzzz\"."))
        #expect(throws: RuleError.self) { try shelf.existing("nope") }
    }

    @Test func indexesAreCheckedAndCountedFromOne() {
        #expect(
            refusal { try ContentNames.checkIndex(2, count: 2, of: "line", in: "The note \"A\"") }
                == RuleError(.badQuestionIndex, "The note \"A\" has no line 3; its lines are numbered 1 to 2."))
        #expect(
            refusal { try ContentNames.checkIndex(0, count: 0, of: "line", in: "The note \"A\"") }
                == RuleError(.badQuestionIndex, "The note \"A\" has no lines yet."))
        #expect(refusal { try ContentNames.checkIndex(1, count: 2, of: "line", in: "The note \"A\"") } == nil)
    }
}
