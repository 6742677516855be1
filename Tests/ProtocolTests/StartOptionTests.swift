import Foundation
import Protocol
import Testing

/// Each mode declares its `start` options once: the typed grammar is derived from the declarations, and
/// PROTOCOL.md §8.1 lists exactly them, with their ranges and defaults.
@Suite("Start options declared once per mode")
struct StartOptionTests {
    /// One row of a §8.1 option table: the key, the type cell and the default cell.
    struct Row: Equatable {
        var key: String
        var type: String
        var shownDefault: String
    }

    /// §8.1's option tables, each with the first line of the paragraph above it.
    static func documentedTables() throws -> [(heading: String, rows: [Row])] {
        let document = ProtocolDocumentTests.document
        let start = try #require(document.range(of: "### 8.1 `start`"))
        let end = try #require(document.range(of: "\n### 8.2", range: start.upperBound..<document.endIndex))
        var tables: [(heading: String, rows: [Row])] = []
        var paragraphStart: String?
        var isInTable = false
        var previousIsBlank = true
        for line in document[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        {
            if line.hasPrefix("|") {
                if !isInTable { tables.append((paragraphStart ?? "", [])) }
                isInTable = true
                let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|")
                    .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{1}", with: "|") }
                guard cells.count >= 3, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { continue }
                tables[tables.count - 1].rows.append(
                    Row(key: String(cells[0].dropFirst().dropLast()), type: cells[1], shownDefault: cells[2]))
            } else {
                if !line.isEmpty, isInTable || previousIsBlank { paragraphStart = String(line) }
                isInTable = false
            }
            previousIsBlank = line.isEmpty
        }
        return tables
    }

    /// The default cell PROTOCOL.md shows for `option`: the value (words in backticks), its note, its house rule.
    static func documentedDefault(_ option: StartOption) -> String {
        var cell: String
        switch option.defaultValue {
        case .string(let word)?: cell = "`\(word)`"
        case .int(let number)?: cell = String(number)
        case .bool(let flag)?: cell = flag ? "true" : "false"
        default: cell = ""
        }
        if let note = option.defaultNote { cell = cell.isEmpty ? note : "\(cell) (\(note))" }
        if let flag = option.houseRule { cell += " (`\(flag)`)" }
        return cell
    }

    @Test func protocolDocumentListsExactlyEveryModesDeclaredOptions() throws {
        let tables = try Self.documentedTables()
        #expect(tables.count == GameModes.wires.count, "one §8.1 table per mode, in GameModes.wires order")
        for (wire, table) in zip(GameModes.wires, tables) {
            let title = wire.title.hasPrefix("The ") ? String(wire.title.dropFirst(4)) : wire.title
            #expect(table.heading.hasPrefix(title), "§8.1's table for \(wire.name) should follow \"\(title) (…\"")
            let declared = wire.startGrammar.options
            #expect(
                table.rows.map(\.key) == declared.map(\.key),
                "§8.1 lists \(wire.name)'s options as \(table.rows.map(\.key)), declared \(declared.map(\.key))")
            for option in declared {
                guard let row = table.rows.first(where: { $0.key == option.key }) else { continue }
                #expect(row.shownDefault == Self.documentedDefault(option), "\(wire.name) \(option.key) default")
                switch option.kind {
                case .wholeNumber(let range):
                    #expect(row.type == "int \(range.lowerBound)…\(range.upperBound)", "\(wire.name) \(option.key)")
                case .flag:
                    #expect(row.type == "bool", "\(wire.name) \(option.key)")
                case .choice(let choices):
                    let listed = choices.map { "`\($0)`" }.joined(separator: "|")
                    #expect(row.type.hasPrefix(listed), "\(wire.name) \(option.key): \(row.type)")
                case .list:
                    #expect(row.type.contains("array"), "\(wire.name) \(option.key): \(row.type)")
                case .word:
                    #expect(!row.type.isEmpty, "\(wire.name) \(option.key)")
                }
            }
        }
    }

    @Test func theDerivedUsagesAreTheOnesOperatorsKnow() {
        let usages = [
            ShakyWire.name: "start shaky [QUESTIONS] [easy|medium|hard|mixed] [PACK,PACK…] [key=value …]",
            QueenWire.name: "start queen [key=value …]",
            WordsWire.name: "start words [cards|bingo|board] [LIST|BOARD] [LEVEL] [key=value …]",
            FlyWire.name: "start fly [ROUNDS] [key=value …]",
            OutsiderWire.name: "start outsider [ROUNDS] [easy|medium|hard|mixed] [PACK,PACK…] [key=value …]",
            HuntWire.name: "start hunt HUNT-ID [fixed|staggered] [MINUTES] [key=value …]",
        ]
        for wire in GameModes.wires {
            #expect(wire.startGrammar.usage == usages[wire.name], "\(wire.name)")
        }
    }

    @Test func bareWordsAndListsReadAsDeclared() {
        var games = StartGrammars()
        for wire in GameModes.wires { games.add(wire.startGrammar, names: [wire.name]) }
        let shaky = TextCommandParsing.parse("start shaky 7 hard science,animals strict teams=Red,Blue", games: games)
        #expect(
            shaky
                == .message(
                    .start(
                        game: "shaky",
                        options: [
                            "questions": 7, "difficulty": "hard", "packs": ["science", "animals"], "strict": true,
                            "teams": ["Red", "Blue"],
                        ])))
        let hunt = TextCommandParsing.parse("start hunt demo staggered 30", games: games)
        #expect(hunt == .message(.start(game: "hunt", options: ["hunt": "demo", "order": "staggered", "minutes": 30])))
        let queen = TextCommandParsing.parse("start queen kinds=citizenToAll", games: games)
        #expect(queen == .message(.start(game: "queen", options: ["kinds": ["citizenToAll"]])))
    }

    @Test func everyDeclarationIsSoundAndSharedHouseRulesAgree() {
        #expect(GameModes.problems(wires: GameModes.wires) == [])
        let flags = GameModes.houseRules().compactMap(\.option.houseRule)
        #expect(Set(flags).count == flags.count)
        #expect(flags.contains("--strict") && flags.contains("--reveal-seconds") && flags.contains("--judge"))
    }

    @Test func aModeWhoseSharedHouseRuleDisagreesIsNamed() {
        let problems = GameModes.problems(wires: [ShakyWire.self, LooseRevealWire.self])
        #expect(problems.contains { $0.contains("\"loose\"") && $0.contains("--reveal-seconds") }, "\(problems)")
        #expect(
            problems.contains { $0.contains("\"loose\"") && $0.contains("\"rounds\" defaults to 0") }, "\(problems)")
    }

    @Test func theConsoleHelpLinesNameEveryOptionAsTyped() {
        let lines = StartOption.helpLines(ShakyWire.startGrammar.options, indent: "  ", width: 60)
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        let text = lines.joined(separator: " ")
        for key in ["teams=A,B…", "questions=1…500", "difficulty=easy|medium|hard|mixed", "answer-seconds=1…3600"] {
            #expect(text.contains(key), "\(key)")
        }
    }
}

/// A mode whose `--reveal-seconds` means another range than Shaky Words', and whose default is out of range.
private enum LooseRevealWire: GameWire {
    static let name = "loose"
    static let title = "Loose"
    static let startGrammar = StartGrammar(
        game: name,
        options: [
            .number("revealSeconds", 0...10, default: 5, help: "pause", houseRule: "--reveal-seconds"),
            .number("rounds", 1...5, default: 0, help: "rounds"),
        ])
    typealias Message = ShakyWire.Message
    typealias Action = ShakyWire.Action
}
