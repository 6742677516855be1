import Foundation
import Testing

@testable import Rules

@Suite struct BuiltinPacksTests {
    @Test func thereAreAtLeastEightPacksWithDistinctSlugIDsAndNames() {
        let packs = BuiltinPacks.all
        #expect(packs.count >= 8)
        #expect(Set(packs.map(\.id)).count == packs.count)
        #expect(Set(packs.map { TextFolding.fold($0.name) }).count == packs.count)
        for pack in packs {
            #expect(pack.isBuiltin, "\(pack.id) must be built in")
            #expect(PackLibrary.makeSlug(pack.id) == pack.id, "\(pack.id) must be a lowercase slug")
            #expect(!pack.name.isEmpty)
            #expect(BuiltinPacks.pack(id: pack.id) == pack)
        }
        #expect(BuiltinPacks.pack(id: "science")?.name == "Science")
        #expect(BuiltinPacks.pack(id: "no-such-pack") == nil)
    }

    @Test func everySourceLineBecomesOneQuestion() {
        for source in BuiltinPacks.sources {
            let lines = source.lines.split(whereSeparator: \.isNewline)
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(BuiltinPacks.pack(id: source.id)?.questions.count == lines.count, "\(source.id)")
        }
    }

    @Test func everyPackHasFortyBalancedQuestions() {
        for pack in BuiltinPacks.all {
            #expect(pack.questions.count >= 40, "\(pack.id) has \(pack.questions.count) questions")
            let summary = PackSummary(pack: pack)
            for difficulty in Difficulty.allCases {
                let count = summary.count(of: difficulty)
                #expect(count >= 10, "\(pack.id) has only \(count) \(difficulty) questions")
                // Roughly a third each: between a quarter and 42%.
                #expect(count * 4 >= pack.questions.count, "\(pack.id): too few \(difficulty)")
                #expect(count * 100 <= pack.questions.count * 42, "\(pack.id): too many \(difficulty)")
            }
        }
    }

    @Test func everyQuestionFollowsTheQuestionRules() {
        for pack in BuiltinPacks.all {
            for question in pack.questions {
                let label = "\(pack.id): \(question.text)"
                do {
                    try PackLibrary.checkQuestion(question)
                } catch {
                    Issue.record("\(label): \(error)")
                }
                #expect(!question.text.isEmpty, "\(label)")
                #expect(question.text == question.text.trimmingCharacters(in: .whitespacesAndNewlines), "\(label)")
                #expect(question.answer == question.answer.trimmingCharacters(in: .whitespacesAndNewlines), "\(label)")
                #expect(question.text.hasSuffix("?"), "\(label) should end with a question mark")
                #expect(!question.text.contains("|") && !question.answer.contains("|"), "\(label)")
                #expect(!question.text.contains("  ") && !question.answer.contains("  "), "\(label)")
                let letters = TextFolding.compact(question.answer).count { $0.isLetter }
                #expect(letters >= 3, "\(label): answer \(question.answer)")
                #expect(!TextFolding.contains(question.text, question.answer), "\(label) gives away \(question.answer)")
                let words = question.answer.split(separator: " ")
                #expect((1...3).contains(words.count), "\(label): answer \(question.answer) should be 1-3 words")
                #expect(!question.answer.contains { $0.isNumber }, "\(label): answer \(question.answer) has digits")
                #expect(question.answer.count <= 20, "\(label): answer \(question.answer) is long")
            }
        }
    }

    @Test func questionsAreUniqueWithinAndAcrossPacks() {
        var seen: [String: String] = [:]
        for pack in BuiltinPacks.all {
            for question in pack.questions {
                let key = TextFolding.fold(question.text)
                #expect(seen[key] == nil, "\"\(question.text)\" is in \(pack.id) and \(seen[key] ?? "")")
                seen[key] = pack.id
            }
        }
        #expect(seen.count == BuiltinPacks.all.reduce(0) { $0 + $1.questions.count })
    }

    @Test func everyPackSurvivesTheLibraryAndBothFileFormats() throws {
        var library = PackLibrary(builtinPacks: [])
        for pack in BuiltinPacks.all {
            let id = try library.importPack(pack)
            #expect(library.pack(id: id)?.questions == pack.questions)

            let fromJSON = try PackFile.decodeJSON(PackFile.encodeJSON(pack))
            #expect(fromJSON.id == pack.id && fromJSON.name == pack.name && fromJSON.questions == pack.questions)
            let fromCSV = try PackFile.decodeCSV(PackFile.encodeCSV(pack), name: pack.name)
            #expect(fromCSV.questions == pack.questions)
        }
    }
}
