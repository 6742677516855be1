import Foundation
import Testing

@testable import Rules

@Suite struct CommandLibraryTests {
    private func expectRefusal(
        _ code: String, _ body: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("expected \(code), but it was accepted", sourceLocation: sourceLocation)
        } catch let error as RuleError {
            #expect(error.code.rawValue == code, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a RuleError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    private let sampleBuiltins = [
        QueenCommand(
            id: "b01", text: "No. {1} orders a Café for No. {2}.", kind: .citizenToCitizen,
            difficulty: .mild, isBuiltin: true),
        QueenCommand(
            id: "b02", text: "No. {1} bows to {queen}.", kind: .citizenToQueen, difficulty: .medium,
            isBuiltin: true),
        QueenCommand(
            id: "b03", text: "No. {1} sings for everyone.", kind: .citizenToAll, difficulty: .bold,
            isBuiltin: true),
    ]

    // MARK: - Templates

    @Test func templateParsesPlaceholders() throws {
        let template = try CommandTemplate("  No. {1} hands No. {2} to {queen}, then No. {1} sits.  ")
        #expect(template.text == "No. {1} hands No. {2} to {queen}, then No. {1} sits.")
        #expect(template.targetCount == 2)
        #expect(template.mentionsQueen)
        #expect(template.filled(numbers: [7, 3], queen: "Ana") == "No. 7 hands No. 3 to Ana, then No. 7 sits.")
        #expect(try CommandTemplate("Everyone claps.").targetCount == 0)
        #expect(try CommandTemplate("No. {1} greets {Queen}.").mentionsQueen)
    }

    @Test func templateRefusals() {
        expectRefusal("empty_command") { _ = try CommandTemplate("   \n ") }
        expectRefusal("command_too_long") { _ = try CommandTemplate(String(repeating: "x", count: 201)) }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {0} dances.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {10} dances.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {name} dances.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {1 dances.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. 1} dances.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {{1}} dances.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {1} and No. {3} dance.") }
        expectRefusal("bad_placeholder") { _ = try CommandTemplate("No. {\u{0661}} dances.") }  // Arabic-Indic 1
        #expect((try? CommandTemplate(String(repeating: "x", count: 200))) != nil)
    }

    // MARK: - Library operations

    @Test func addEditDelete() throws {
        var library = CommandLibrary(builtins: sampleBuiltins)
        let first = try library.add(text: " No. {1} juggles. ", kind: .citizenToAll, difficulty: .medium)
        let second = try library.add(text: "No. {1} whistles.", kind: .citizenToAll, difficulty: .mild)
        #expect(first.id == "u1" && second.id == "u2")
        #expect(first.text == "No. {1} juggles.")
        #expect(!first.isBuiltin)

        let edited = try library.edit(
            id: "u1", text: "No. {1} juggles three socks.", kind: .citizenToCitizen,
            difficulty: .bold)
        #expect(edited.id == "u1")
        #expect(library.command(id: "u1") == edited)

        try library.delete(id: "u1")
        #expect(library.command(id: "u1") == nil)
        // Ids are never reused, even after a delete.
        #expect(try library.add(text: "No. {1} hops.", kind: .citizenToAll, difficulty: .mild).id == "u3")
        expectRefusal("unknown_command") { try library.delete(id: "u1") }
        expectRefusal("unknown_command") {
            try library.edit(id: "zz", text: "x", kind: .citizenToAll, difficulty: .mild)
        }
        expectRefusal("empty_command") { try library.add(text: "", kind: .citizenToAll, difficulty: .mild) }
        expectRefusal("bad_placeholder") {
            try library.edit(id: "u2", text: "No. {x}", kind: .citizenToAll, difficulty: .mild)
        }
        #expect(library.command(id: "u2")?.text == "No. {1} whistles.", "a refused edit changes nothing")
        expectRefusal("duplicate_command") {
            try library.add(text: "no. {1} WHISTLES!", kind: .citizenToAll, difficulty: .mild)
        }
        expectRefusal("duplicate_command") {
            try library.edit(id: "u3", text: "No. {1} sings for everyone", kind: .citizenToAll, difficulty: .bold)
        }
        // Editing a command to its own text (new kind) is no duplicate.
        #expect(
            try library.edit(id: "u2", text: "No. {1} whistles.", kind: .citizenToQueen, difficulty: .mild).kind
                == .citizenToQueen)
    }

    @Test func builtinsAreReadOnlyButHideable() throws {
        var library = CommandLibrary(builtins: sampleBuiltins)
        expectRefusal("read_only") {
            try library.edit(id: "b01", text: "No. {1} naps.", kind: .citizenToAll, difficulty: .mild)
        }
        expectRefusal("read_only") { try library.delete(id: "b02") }
        #expect(library.command(id: "b01") == sampleBuiltins[0])

        try library.hide(id: "b03")
        #expect(library.isHidden(id: "b03"))
        #expect(!library.visibleCommands.contains { $0.id == "b03" })
        #expect(library.commands(includingHidden: true).contains { $0.id == "b03" })
        // A hidden built-in's text may be reused by the operator's own version.
        let own = try library.add(text: "No. {1} sings for everyone.", kind: .citizenToAll, difficulty: .medium)
        #expect(library.visibleCommands.contains(own))
        try library.unhide(id: "b03")
        #expect(library.visibleCommands.contains { $0.id == "b03" })

        expectRefusal("not_builtin") { try library.hide(id: own.id) }
        expectRefusal("unknown_command") { try library.hide(id: "b99") }
        expectRefusal("unknown_command") { try library.unhide(id: "b99") }
    }

    @Test func listingIsSortedByFoldedText() throws {
        var library = CommandLibrary(builtins: [])
        for text in ["zebra {1}", "Émile {1}", "apple {1}", "Banana {1}", "echo {1}"] {
            try library.add(text: text, kind: .citizenToAll, difficulty: .mild)
        }
        #expect(
            library.visibleCommands.map(\.text) == ["apple {1}", "Banana {1}", "echo {1}", "Émile {1}", "zebra {1}"])
    }

    @Test func searchIgnoresCaseAndAccents() throws {
        var library = CommandLibrary(builtins: sampleBuiltins)
        try library.add(text: "No. {1} makes CRÈME brûlée for {queen}.", kind: .citizenToQueen, difficulty: .bold)
        #expect(library.commands(matching: "cafe").map(\.id) == ["b01"])
        #expect(library.commands(matching: "CREME BRULEE").map(\.id) == ["u1"])
        #expect(library.commands(matching: "nothing like this").isEmpty)
        #expect(library.commands(matching: "").count == 4)
    }

    @Test func filtersByKindAndDifficulty() throws {
        var library = CommandLibrary(builtins: sampleBuiltins)
        try library.add(text: "No. {1} waves at No. {2}.", kind: .citizenToCitizen, difficulty: .bold)
        #expect(Set(library.commands(kinds: [.citizenToCitizen]).map(\.id)) == ["b01", "u1"])
        #expect(Set(library.commands(difficulties: [.bold]).map(\.id)) == ["b03", "u1"])
        #expect(library.commands(kinds: [.citizenToCitizen], difficulties: [.bold]).map(\.id) == ["u1"])
        #expect(library.commands(kinds: [.citizenToQueen], difficulties: [.mild]).isEmpty)
        #expect(library.commands(matching: "waves", kinds: [.citizenToAll]).isEmpty)
    }

    @Test func storedFormRoundTripsThroughJSON() throws {
        var library = CommandLibrary(builtins: sampleBuiltins)
        try library.add(text: "No. {1} juggles.", kind: .citizenToAll, difficulty: .medium)
        try library.add(text: "No. {1} hums.", kind: .citizenToAll, difficulty: .mild)
        try library.delete(id: "u1")
        try library.hide(id: "b02")

        let data = try JSONEncoder().encode(library.stored)
        let stored = try JSONDecoder().decode(CommandLibrary.Stored.self, from: data)
        #expect(stored == library.stored)
        var reloaded = CommandLibrary(builtins: sampleBuiltins, stored: stored)
        #expect(reloaded == library)
        #expect(try reloaded.add(text: "No. {1} naps.", kind: .citizenToAll, difficulty: .mild).id == "u3")

        // The library itself encodes as its stored part and decodes with the shipped built-ins.
        let whole = try JSONDecoder().decode(CommandLibrary.self, from: JSONEncoder().encode(CommandLibrary()))
        #expect(whole == CommandLibrary())
        #expect(whole.builtins == BuiltinCommands.all)
    }

    @Test func handEditedStoredFormIsTidied() {
        let stored = CommandLibrary.Stored(
            userCommands: [
                QueenCommand(id: "u7", text: "No. {1} skips.", kind: .citizenToAll, difficulty: .mild, isBuiltin: true),
                QueenCommand(id: "b01", text: "Clash with a built-in id {1}.", kind: .citizenToAll, difficulty: .mild),
                QueenCommand(id: "u7", text: "Clash with a user id {1}.", kind: .citizenToAll, difficulty: .mild),
            ],
            hiddenBuiltinIDs: ["b02", "b77"], nextID: 2)
        var library = CommandLibrary(builtins: sampleBuiltins, stored: stored)
        #expect(library.userCommands.map(\.id) == ["u7"])
        #expect(library.userCommands[0].isBuiltin == false)
        #expect(library.hiddenBuiltinIDs == ["b02"])
        #expect((try? library.add(text: "No. {1} rests.", kind: .citizenToAll, difficulty: .mild))?.id == "u8")
    }

    // MARK: - Built-in content

    @Test func builtinContent() throws {
        let all = BuiltinCommands.all
        #expect(all.count >= 60)
        #expect(Set(all.map(\.id)).count == all.count, "ids are unique")
        #expect(Set(all.map { TextFolding.fold($0.text) }).count == all.count, "texts are unique")
        #expect(all.map(\.id) == (1...all.count).map { $0 < 10 ? "b0\($0)" : "b\($0)" })
        #expect(all.allSatisfy { $0.isBuiltin })
        for kind in CommandKind.allCases {
            for difficulty in CommandDifficulty.allCases {
                #expect(all.contains { $0.kind == kind && $0.difficulty == difficulty }, "\(kind) \(difficulty)")
            }
        }
        for command in all {
            let template = try CommandTemplate(command.text)
            #expect(template.text == command.text, "\(command.id) has no stray whitespace")
            #expect((1...3).contains(template.targetCount), "\(command.id) names 1 to 3 numbers")
            switch command.kind {
            case .citizenToCitizen: #expect(template.targetCount >= 2, "\(command.id) involves two citizens")
            case .citizenToAll: #expect(!template.mentionsQueen, "\(command.id) is for everyone")
            case .citizenToQueen: #expect(template.mentionsQueen, "\(command.id) names the Queen")
            }
        }
        // Most commands must be playable by the smallest game (3 players: 2 numbers).
        #expect(all.filter { (try? CommandTemplate($0.text))?.targetCount ?? 9 <= 2 }.count >= 55)
        // The whole built-in set loads into a library without refusals.
        var library = CommandLibrary()
        #expect(library.visibleCommands.count == all.count)
        expectRefusal("duplicate_command") { try library.add(text: all[0].text, kind: all[0].kind, difficulty: .mild) }
    }
}
