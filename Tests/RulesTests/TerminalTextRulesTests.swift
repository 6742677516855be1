import Common
import Foundation
import Testing

@testable import Rules

/// Every way text enters the rules refuses what a terminal would obey (`TerminalText`): the Queen's commands, the
/// library, pack names, questions and answers from the console, the network and CSV or JSON files.
@Suite struct TerminalTextRulesTests {
    static let hostile = [
        "\u{1B}]0;pwned\u{07}", "\u{1B}[2J\u{1B}[H", "\u{9B}2J", "\u{202E}", "\u{2066}", "\u{200D}", "\u{FEFF}",
        "\u{2028}", "\u{07}", "\t",
    ]

    private func code(_ body: () throws -> Void) -> ErrorCode? {
        do {
            try body()
            return nil
        } catch {
            return (error as? RuleError)?.code
        }
    }

    @Test(arguments: hostile)
    func theQueensOwnCommandAndTheLibraryRefuseIt(_ bad: String) {
        #expect(code { _ = try CommandTemplate("No. {1} waves \(bad)at No. {2}") } == .badText)
        var library = CommandLibrary()
        #expect(
            code { _ = try library.add(text: "No. {1} \(bad)sings", kind: .citizenToCitizen, difficulty: .mild) }
                == .badText)
        let added = try? library.add(text: "No. {1} hums", kind: .citizenToCitizen, difficulty: .mild)
        #expect(added != nil)
        #expect(
            code {
                _ = try library.edit(
                    id: added?.id ?? "", text: "No. {1} \(bad)hums", kind: .citizenToCitizen,
                    difficulty: .mild)
            } == .badText)
    }

    @Test(arguments: hostile)
    func packNamesQuestionsAndAnswersRefuseIt(_ bad: String) {
        var library = PackLibrary()
        #expect(code { _ = try library.createPack(named: "Quiz \(bad)night") } == .badPackName)
        let id = (try? library.createPack(named: "Quiz night")) ?? ""
        let good = QuizQuestion(difficulty: .easy, text: "Which planet is red?", answer: "Mars")
        #expect(code { try library.addEntry(good, toPack: id) } == nil)
        let badText = QuizQuestion(difficulty: .easy, text: "Which \(bad)star is near?", answer: "Sun")
        #expect(code { try library.addEntry(badText, toPack: id) } == .badText)
        let badAnswer = QuizQuestion(difficulty: .easy, text: "Which star is near?", answer: "Su\(bad)n")
        #expect(code { try library.addEntry(badAnswer, toPack: id) } == .badText)
        #expect(code { try library.renamePack(id, to: "Qu\(bad)iz") } == .badPackName)
    }

    @Test func importedFilesNameTheLineWithTheEscape() throws {
        let csv = "difficulty,question,answer\neasy,Which planet is red?,Mars\neasy,\"\u{1B}]0;pwned\u{07}Hi?\",Sun\n"
        #expect(throws: RuleError.self) { _ = try PackFile.decodeCSV(Data(csv.utf8), name: "Evil") }
        do {
            _ = try PackFile.decodeCSV(Data(csv.utf8), name: "Evil")
        } catch {
            #expect(error.message.hasPrefix("line 3:"), "\(error.message)")
            #expect(error.message.contains("U+001B"), "\(error.message)")
        }
        let json = """
            {"name": "Evil", "questions": [
              {"difficulty": "easy", "text": "Which planet is red?", "answer": "Mars"},
              {"difficulty": "easy", "text": "Who is near?", "answer": "Su\\u202en"}
            ]}
            """
        do {
            _ = try PackFile.decodeJSON(json)
            Issue.record("a bidi override in an answer was accepted")
        } catch {
            #expect(error.message.contains("question 2"), "\(error.message)")
            #expect(error.message.contains("U+202E"), "\(error.message)")
        }
        var library = PackLibrary()
        let name = QuizPack(id: "x", name: "Evil\u{1B}[2J", questions: [])
        #expect(code { _ = try library.add(name) } == .badPackName)
    }

    @Test func multiLineQuestionsStayAllowedWithTheirLineBreaksUnified() throws {
        var library = PackLibrary()
        let id = try library.createPack(named: "Lines")
        try library.addEntry(
            QuizQuestion(difficulty: .easy, text: "Line one\r\nline two\rthree?", answer: "Yes"), toPack: id)
        #expect(library.pack(id: id)?.questions.first?.text == "Line one\nline two\nthree?")
    }

    @Test func aHandEditedCommandFileIsShownInert() {
        let stored = CommandLibrary.Stored(userCommands: [
            QueenCommand(
                id: "u1", text: "No. {1} \u{1B}]0;pwned\u{07}waves\u{202E}", kind: .citizenToCitizen,
                difficulty: .mild),
            QueenCommand(id: "u2", text: "\u{1B}[2J", kind: .citizenToCitizen, difficulty: .mild),
        ])
        let library = CommandLibrary(stored: stored)
        #expect(library.command(id: "u1")?.text == "No. {1} waves")
        #expect(library.command(id: "u2") == nil, "a command with nothing left to show is dropped")
    }

    @Test func lookAlikeLettersOfOtherScriptsReadAsLatin() {
        #expect(TextFolding.lookalikeKey("Ann") == "ann")
        #expect(TextFolding.lookalikeKey("\u{0410}nn") == "ann")  // Cyrillic capital A
        #expect(TextFolding.lookalikeKey("\u{0391}nn") == "ann")  // Greek capital Alpha
        #expect(TextFolding.lookalikeKey("B\u{043E}b") == "bob")  // Cyrillic small o
        #expect(TextFolding.lookalikeKey("\u{0420}\u{0435}t\u{0435}r") == "peter")  // Р, е
        #expect(TextFolding.lookalikeKey("ＡＮＮ") == "ann")  // fullwidth
        #expect(TextFolding.lookalikeKey("𝐀𝐧𝐧") == "ann")  // mathematical bold
        #expect(TextFolding.lookalikeKey("Zoë") == "zoe")
        #expect(TextFolding.lookalikeKey("Мария") != TextFolding.lookalikeKey("Maria"), "real Cyrillic names differ")
        #expect(TextFolding.lookalikeKey("東京") == "東京")
    }
}
