import Foundation
import Testing

@testable import Rules

/// Runs `body` and returns the error it refused with, or nil when it succeeded.
/// (Untyped so closures inside `#expect` infer; anything but a RuleError is recorded as an issue.)
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

private func question(_ difficulty: Difficulty, _ text: String, _ answer: String) -> QuizQuestion {
    QuizQuestion(difficulty: difficulty, text: text, answer: answer)
}

/// A small built-in set so library tests do not depend on the real content.
private let testBuiltins = [
    QuizPack(
        id: "science", name: "Science", isBuiltin: true,
        questions: [
            question(.easy, "Which organ pumps blood?", "Heart"),
            question(.medium, "Which metal has the symbol Fe?", "Iron"),
            question(.hard, "Which element has the symbol K?", "Potassium"),
        ])
]

// MARK: - Library editing

@Suite struct PackLibraryEditingTests {
    @Test func createPackDerivesUniqueSlugIDs() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        #expect(try library.createPack(named: "  My Pub Quiz! ") == "my-pub-quiz")
        #expect(library.pack(id: "my-pub-quiz")?.name == "My Pub Quiz!")
        #expect(library.pack(id: "my-pub-quiz")?.isBuiltin == false)
        #expect(try library.createPack(named: "Café Crème") == "cafe-creme")
        // Names whose slugs collide but whose folded names differ get numbered ids.
        #expect(try library.createPack(named: "日本") == "pack")
        #expect(try library.createPack(named: "中国") == "pack-2")
        #expect(try library.createPack(named: "Ωmega") == "mega")
        #expect(try library.createPack(named: "Mega") == "mega-2")
        #expect(library.customPacks.map(\.id) == ["my-pub-quiz", "cafe-creme", "pack", "pack-2", "mega", "mega-2"])
        let long = try library.createPack(named: String(repeating: "abc ", count: 15))
        #expect(long.count <= PackLibrary.maximumIDLength && !long.hasSuffix("-"))
    }

    @Test func createPackRefusesBadAndTakenNames() {
        var library = PackLibrary(builtinPacks: testBuiltins)
        #expect(refusal { _ = try library.createPack(named: "   ") }?.code == .badPackName)
        #expect(refusal { _ = try library.createPack(named: "?!") }?.code == .badPackName)
        #expect(refusal { _ = try library.createPack(named: "two\nlines") }?.code == .badPackName)
        #expect(refusal { _ = try library.createPack(named: String(repeating: "x", count: 61)) }?.code == .badPackName)
        #expect(
            refusal { _ = try library.createPack(named: "SCIENCE") }
                == RuleError(.packNameTaken, "There is already a pack called \"SCIENCE\"; choose another name."))
        #expect(refusal { _ = try library.createPack(named: "Quiz Night") } == nil)
        #expect(refusal { _ = try library.createPack(named: "quiz-night") }?.code == .packNameTaken)
        #expect(library.customPacks.count == 1)
    }

    @Test func renameAndDeleteOnlyTouchCustomPacks() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let id = try library.createPack(named: "Quiz Night")
        _ = try library.createPack(named: "Other")
        try library.renamePack(id, to: "Quiz Night")  // its own name is not "taken"
        try library.renamePack(id, to: "Friday Quiz")
        #expect(library.pack(id: id)?.name == "Friday Quiz")  // id stays stable
        #expect(refusal { try library.renamePack(id, to: "other") }?.code == .packNameTaken)
        #expect(refusal { try library.renamePack(id, to: "") }?.code == .badPackName)
        #expect(
            refusal { try library.renamePack("science", to: "Mine") }
                == RuleError(
                    .readOnly, "The built-in pack \"Science\" cannot be renamed; copy it to make your own version."))
        #expect(
            refusal { try library.renamePack("nope", to: "Mine") }
                == RuleError(.unknownPack, "There is no question pack with the id \"nope\". Type packs to list them."))
        #expect(refusal { try library.deletePack("science") }?.code == .readOnly)
        #expect(refusal { try library.deletePack("nope") }?.code == .unknownPack)
        try library.deletePack(id)
        #expect(library.pack(id: id) == nil)
        #expect(library.customPacks.map(\.name) == ["Other"])
        #expect(library.pack(id: "science") != nil)
    }

    @Test func copyPackIsTheWayToEditABuiltin() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let copy = try library.copyPack("science")
        #expect(copy == "science-copy")
        #expect(library.pack(id: copy)?.name == "Science (copy)")
        #expect(library.pack(id: copy)?.isBuiltin == false)
        #expect(library.pack(id: copy)?.questions == testBuiltins[0].questions)
        #expect(try library.copyPack("science") == "science-copy-2")
        #expect(library.pack(id: "science-copy-2")?.name == "Science (copy 2)")
        #expect(try library.copyPack(copy, named: "Lab Night") == "lab-night")
        #expect(refusal { _ = try library.copyPack("science", named: "Lab Night") }?.code == .packNameTaken)
        #expect(refusal { _ = try library.copyPack("nope") }?.code == .unknownPack)

        try library.addEntry(question(.easy, "Which gas do we breathe in?", "Oxygen"), toPack: copy)
        try library.removeEntry(at: 0, fromPack: copy)
        #expect(library.pack(id: copy)?.questions.count == 3)
        #expect(library.pack(id: "science") == testBuiltins[0])
        #expect(
            refusal {
                try library.addEntry(question(.easy, "Which gas do we breathe in?", "Oxygen"), toPack: "science")
            }
                == RuleError(
                    .readOnly, "The built-in pack \"Science\" cannot be changed; copy it to make your own version."))
        #expect(
            refusal { try library.editEntry(at: 0, inPack: "science", to: question(.easy, "New?", "Text")) }?.code
                == .readOnly)
        #expect(refusal { _ = try library.removeEntry(at: 0, fromPack: "science") }?.code == .readOnly)
    }

    @Test func listPacksCountsQuestionsPerDifficulty() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let id = try library.createPack(named: "Mine")
        try library.addEntry(question(.hard, "Which river flows through Paris?", "Seine"), toPack: id)
        try library.addEntry(question(.hard, "Which river flows through London?", "Thames"), toPack: id)
        try library.addEntry(question(.easy, "What is the capital of Japan?", "Tokyo"), toPack: id)
        let list = library.listPacks()
        #expect(list.map(\.id) == ["science", "mine"])
        #expect(list[0] == PackSummary(pack: testBuiltins[0]))
        #expect(list[0].isBuiltin && !list[1].isBuiltin)
        #expect(list[1].name == "Mine")
        #expect([list[1].easyCount, list[1].mediumCount, list[1].hardCount] == [Int]([1, 0, 2]))
        #expect(list[1].questionCount == 3)
        #expect(PackLibrary().listPacks().count == BuiltinPacks.all.count)
    }

    @Test func questionsAreCheckedAndTrimmed() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let id = try library.createPack(named: "Mine")
        try library.addEntry(question(.easy, "  What is the capital of France?\n", " Paris "), toPack: id)
        #expect(library.pack(id: id)?.questions == [question(.easy, "What is the capital of France?", "Paris")])

        #expect(
            refusal { try library.addEntry(question(.easy, "  ?! ", "Paris"), toPack: id) }?.code == .emptyQuestion)
        #expect(
            refusal { try library.addEntry(question(.easy, "What is the plural of ox?", "ox!"), toPack: id) }
                == RuleError(.answerTooShort, "The answer \"ox!\" has 2 letters; answers need at least 3."))
        #expect(
            refusal { try library.addEntry(question(.easy, "What year did it end?", "1945"), toPack: id) }?.code
                == .answerTooShort)
        #expect(
            refusal {
                try library.addEntry(question(.easy, "Where is the Eiffel Tower, in PARIS?", "paris"), toPack: id)
            }
                == RuleError(
                    .answerInQuestion, "The answer \"paris\" appears in the question itself; reword the question."))
        #expect(
            refusal { try library.addEntry(question(.easy, "Which café sells crème?", "Creme"), toPack: id) }?.code
                == .answerInQuestion)
        #expect(
            refusal {
                try library.addEntry(question(.easy, String(repeating: "a", count: 401) + "?", "Bee"), toPack: id)
            }?.code
                == .questionTooLong)
        #expect(
            refusal {
                try library.addEntry(question(.easy, "Long?", String(repeating: "b", count: 41)), toPack: id)
            }?.code
                == .answerTooLong)
        #expect(
            refusal { try library.addEntry(question(.hard, "what is the CAPITAL of france", "Lyon"), toPack: id) }
                == RuleError(.duplicateQuestion, "The pack \"Mine\" already has that question (question 1)."))
        #expect(
            refusal { try library.addEntry(question(.easy, "Who?", "Abc"), toPack: "nope") }?.code == .unknownPack)
        #expect(library.pack(id: id)?.questions.count == 1)
    }

    @Test func editAndRemoveQuestionsByIndex() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let id = try library.createPack(named: "Mine")
        #expect(
            refusal { _ = try library.removeEntry(at: 0, fromPack: id) }
                == RuleError(.badQuestionIndex, "The pack \"Mine\" has no questions yet."))
        try library.addEntry(question(.easy, "What is the capital of France?", "Paris"), toPack: id)
        try library.addEntry(question(.easy, "What is the capital of Spain?", "Madrid"), toPack: id)
        // Editing a question may keep its own text.
        try library.editEntry(at: 0, inPack: id, to: question(.medium, "What is the capital of France?", "PARIS"))
        #expect(library.pack(id: id)?.questions[0] == question(.medium, "What is the capital of France?", "PARIS"))
        #expect(
            refusal {
                try library.editEntry(
                    at: 1, inPack: id, to: question(.easy, "What is the capital of FRANCE?", "Nice"))
            }?.code
                == .duplicateQuestion)
        #expect(
            refusal { try library.editEntry(at: 1, inPack: id, to: question(.easy, "Capital of Spain?", "Spain")) }?
                .code
                == .answerInQuestion)
        #expect(
            refusal { try library.editEntry(at: 2, inPack: id, to: question(.easy, "Who?", "Abc")) }
                == RuleError(
                    .badQuestionIndex, "The pack \"Mine\" has no question 3; its questions are numbered 1 to 2."))
        #expect(
            refusal { try library.editEntry(at: -1, inPack: id, to: question(.easy, "Who?", "Abc")) }?.code
                == .badQuestionIndex)
        let removed = try library.removeEntry(at: 0, fromPack: id)
        #expect(removed.answer == "PARIS")
        #expect(library.pack(id: id)?.questions.map(\.answer) == ["Madrid"])
    }

    @Test func importPackValidatesAndKeepsAFreeID() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let good = QuizPack(
            id: "pub-quiz", name: "Pub Quiz", isBuiltin: true,
            questions: [question(.easy, " What is the capital of Italy? ", "Rome")])
        #expect(try library.importPack(good) == "pub-quiz")
        #expect(library.pack(id: "pub-quiz")?.isBuiltin == false)
        #expect(library.pack(id: "pub-quiz")?.questions[0].text == "What is the capital of Italy?")
        #expect(refusal { _ = try library.importPack(good) }?.code == .packNameTaken)

        var clash = good
        clash.name = "Science Two"
        clash.id = "science"
        #expect(try library.importPack(clash) == "science-2")
        clash.name = "Weird Id"
        clash.id = "Not A Slug!"
        #expect(try library.importPack(clash) == "not-a-slug")

        let bad = QuizPack(
            id: "bad", name: "Bad",
            questions: [
                question(.easy, "What is the capital of Italy?", "Rome"),
                question(.easy, "What is the capital of Italy?", "Roma"),
            ])
        #expect(
            refusal { _ = try library.importPack(bad) }
                == RuleError(.duplicateQuestion, "Question 2 repeats question 1."))
        let short = QuizPack(id: "short", name: "Short", questions: [question(.easy, "Plural of ox?", "Ox")])
        #expect(
            refusal { _ = try library.importPack(short) }
                == RuleError(.answerTooShort, "Question 1: the answer \"Ox\" has 2 letters; answers need at least 3."))
        #expect(library.pack(id: "bad") == nil && library.pack(id: "short") == nil)
    }

    @Test func savedLibrariesHoldOnlyCustomPacksAndRepairIDs() throws {
        var library = PackLibrary(builtinPacks: testBuiltins)
        let id = try library.createPack(named: "Mine")
        try library.addEntry(question(.easy, "What is the capital of France?", "Paris"), toPack: id)
        let data = try JSONEncoder().encode(library)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("Paris") && !text.contains("Potassium"))
        let decoded = try JSONDecoder().decode(PackLibrary.self, from: data)
        #expect(decoded.customPacks == library.customPacks)
        #expect(decoded.builtinPacks == BuiltinPacks.all)

        // A saved pack whose id clashes (for example with a newer built-in) or is not a slug gets a fresh id.
        let repaired = try PackLibrary(
            customPacks: [
                QuizPack(id: "science", name: "My Science", isBuiltin: true),
                QuizPack(id: "Odd Id", name: "Odd"),
                QuizPack(id: "odd-id", name: "Odd Two"),
            ], builtinPacks: testBuiltins)
        #expect(repaired.customPacks.map(\.id) == ["science-2", "odd-id", "odd-id-2"])
        #expect(repaired.customPacks.allSatisfy { !$0.isBuiltin })

        // Whole packs pass the same rules as an import: a saved pack that breaks one is refused, not repaired.
        let twins = [QuizPack(id: "a", name: "Twin"), QuizPack(id: "b", name: "TWIN!")]
        #expect(refusal { _ = try PackLibrary(customPacks: twins, builtinPacks: testBuiltins) }?.code == .packNameTaken)
        let short = QuizPack(id: "s", name: "S", questions: [question(.easy, "Plural of ox?", "Ox")])
        #expect(
            refusal { _ = try PackLibrary(customPacks: [short]) }
                == RuleError(.answerTooShort, "Question 1: the answer \"Ox\" has 2 letters; answers need at least 3."))
        let tampered = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "Paris", with: "Pa").utf8)
        #expect(throws: RuleError.self) { try JSONDecoder().decode(PackLibrary.self, from: tampered) }
    }
}

// MARK: - Drawing questions

@Suite struct DrawQuestionsTests {
    let library = PackLibrary()

    func count(_ difficulty: Difficulty, in ids: [String]) -> Int {
        ids.reduce(0) { $0 + (BuiltinPacks.pack(id: $1)?.questions.count { $0.difficulty == difficulty } ?? 0) }
    }

    @Test func drawsTheRequestedNumberOfDistinctQuestionsOfTheChosenDifficulty() throws {
        var rng = SplitMix64(seed: 42)
        for choice in [DifficultyChoice.easy, .medium, .hard] {
            let drawn = try library.draw(
                packIDs: ["science", "animals"], count: 15, difficulty: choice, using: &rng)
            #expect(drawn.count == 15)
            #expect(drawn.allSatisfy { $0.difficulty.rawValue == choice.rawValue })
            #expect(Set(drawn).count == 15)
            let pool = (BuiltinPacks.pack(id: "science")!.questions + BuiltinPacks.pack(id: "animals")!.questions)
            #expect(drawn.allSatisfy(pool.contains))
        }
    }

    @Test func drawingEverythingIsAPermutation() throws {
        var rng = SplitMix64(seed: 7)
        let hard = BuiltinPacks.pack(id: "space")!.questions.filter { $0.difficulty == .hard }
        let drawn = try library.draw(packIDs: ["space"], count: hard.count, difficulty: .hard, using: &rng)
        #expect(Set(drawn) == Set(hard))
        #expect(drawn.count == hard.count)
        #expect(drawn != hard)  // shuffled (true for this seed; a fixed seed keeps it deterministic)
    }

    @Test func drawIsDeterministicForASeed() throws {
        var first = SplitMix64(seed: 2024)
        var second = SplitMix64(seed: 2024)
        var other = SplitMix64(seed: 2025)
        let a = try library.draw(packIDs: ["history", "music"], count: 12, difficulty: .mixed, using: &first)
        let b = try library.draw(packIDs: ["history", "music"], count: 12, difficulty: .mixed, using: &second)
        let c = try library.draw(packIDs: ["history", "music"], count: 12, difficulty: .mixed, using: &other)
        #expect(a == b)
        #expect(a != c)
        #expect(first == second)
    }

    @Test func mixedDrawsBalanceDifficulties() throws {
        var rng = SplitMix64(seed: 1)
        let drawn = try library.draw(packIDs: ["science"], count: 30, difficulty: .mixed, using: &rng)
        #expect(Difficulty.allCases.map { level in drawn.count { $0.difficulty == level } } == [10, 10, 10])
        for seed in UInt64(0)..<20 {
            var rng = SplitMix64(seed: seed)
            let ten = try library.draw(packIDs: ["words"], count: 10, difficulty: .mixed, using: &rng)
            let counts = Difficulty.allCases.map { level in ten.count { $0.difficulty == level } }
            #expect(counts.sorted() == [3, 3, 4])
            #expect(Set(ten).count == 10)
        }
    }

    @Test func mixedDrawsFillFromOtherDifficultiesWhenOneRunsShort() throws {
        var library = PackLibrary(builtinPacks: [])
        let id = try library.createPack(named: "Lopsided")
        try library.addEntry(question(.easy, "What is the capital of France?", "Paris"), toPack: id)
        try library.addEntry(question(.easy, "What is the capital of Spain?", "Madrid"), toPack: id)
        let capitals = [
            "Italy": "Rome", "Japan": "Tokyo", "Peru": "Lima", "Egypt": "Cairo", "Kenya": "Nairobi",
            "Norway": "Oslo", "Russia": "Moscow", "Canada": "Ottawa", "Chile": "Santiago", "Cuba": "Havana",
        ]
        for (country, city) in capitals.sorted(by: { $0.key < $1.key }) {
            try library.addEntry(question(.medium, "What is the capital of \(country)?", city), toPack: id)
            try library.addEntry(question(.hard, "Which country has the capital \(city)?", country), toPack: id)
        }
        var rng = SplitMix64(seed: 9)
        let drawn = try library.draw(packIDs: [id], count: 12, difficulty: .mixed, using: &rng)
        #expect(Difficulty.allCases.map { level in drawn.count { $0.difficulty == level } } == [2, 5, 5])
        let all = try library.draw(packIDs: [id], count: 22, difficulty: .mixed, using: &rng)
        #expect(Set(all).count == 22)
    }

    @Test func notEnoughQuestionsSaysHowManyThereAre() {
        var rng = SplitMix64(seed: 3)
        let available = count(.hard, in: ["science", "animals"])
        #expect(
            refusal {
                _ = try library.draw(
                    packIDs: ["science", "animals"], count: available + 1, difficulty: .hard, using: &rng)
            }
                == RuleError(
                    .notEnoughQuestions,
                    "The packs science, animals hold only \(available) hard questions; ask for \(available) or fewer, or choose more packs."
                ))
        #expect(
            refusal {
                _ = try library.draw(
                    packIDs: ["science", "animals"], count: available, difficulty: .hard, using: &rng)
            } == nil)

        let total = BuiltinPacks.pack(id: "myths")!.questions.count
        #expect(
            refusal { _ = try library.draw(packIDs: ["myths"], count: 1000, difficulty: .mixed, using: &rng) }
                == RuleError(
                    .notEnoughQuestions,
                    "The pack myths holds only \(total) questions; ask for \(total) or fewer, or choose more packs."))

        var custom = PackLibrary(builtinPacks: [])
        let id = try? custom.createPack(named: "Tiny")
        _ = refusal {
            try custom.addEntry(question(.easy, "What is the capital of France?", "Paris"), toPack: id ?? "")
        }
        #expect(
            refusal { _ = try custom.draw(packIDs: ["tiny"], count: 2, difficulty: .easy, using: &rng) }
                == RuleError(
                    .notEnoughQuestions,
                    "The pack tiny holds only 1 easy question; ask for 1 or fewer, or choose more packs."))
        #expect(
            refusal { _ = try custom.draw(packIDs: ["tiny"], count: 1, difficulty: .hard, using: &rng) }
                == RuleError(
                    .notEnoughQuestions,
                    "The pack tiny holds no hard questions; choose more packs or another difficulty."))
    }

    @Test func identicalQuestionsInSeveralPacksCountOnce() throws {
        var library = PackLibrary()
        let copy = try library.copyPack("science")
        let hard = count(.hard, in: ["science"])
        var rng = SplitMix64(seed: 5)
        let drawn = try library.draw(
            packIDs: ["science", copy, "science"], count: hard, difficulty: .hard, using: &rng)
        #expect(Set(drawn.map { TextFolding.fold($0.text) }).count == hard)
        #expect(
            refusal {
                _ = try library.draw(
                    packIDs: ["science", copy], count: hard + 1, difficulty: .hard, using: &rng)
            }
                == RuleError(
                    .notEnoughQuestions,
                    "The packs science, \(copy) hold only \(hard) hard questions; ask for \(hard) or fewer, or choose more packs."
                ))
    }

    @Test func drawRefusesBadRequests() {
        var rng = SplitMix64(seed: 3)
        #expect(
            refusal {
                _ = try library.draw(packIDs: ["science", "nope"], count: 5, difficulty: .easy, using: &rng)
            }
                == RuleError(.unknownPack, "There is no question pack with the id \"nope\". Type packs to list them."))
        #expect(
            refusal { _ = try library.draw(packIDs: [], count: 5, difficulty: .easy, using: &rng) }?.code
                == .noPacks)
        #expect(
            refusal { _ = try library.draw(packIDs: ["science"], count: 0, difficulty: .easy, using: &rng) }?
                .code
                == .badQuestionCount)
        #expect(
            refusal { _ = try library.draw(packIDs: ["science"], count: -3, difficulty: .mixed, using: &rng) }?
                .code
                == .badQuestionCount)
    }
}

// MARK: - Files

@Suite struct PackFileTests {
    let tricky = QuizPack(
        id: "tricky", name: "Tricky, \"Quoted\" Pack",
        questions: [
            question(.easy, "Which city, famous for \"cafés\", is on the Seine?", "Paris"),
            question(.medium, "Line one\nline two, with a comma?", "Crème brûlée"),
            question(.hard, "A back\\slash and a semi;colon here?", "Naïve \"quote\""),
            question(.easy, "Two lines\nending with an emoji 🎉?", "Zoë"),
            question(.medium, "Ελληνικά: which letter comes after alpha?", "Beta"),
        ])

    @Test func jsonRoundTripKeepsEveryCharacter() throws {
        let json = PackFile.encodeJSON(tricky)
        let back = try PackFile.decodeJSON(json)
        #expect(back == tricky)
        #expect(try PackFile.decodeJSON(Data(json.utf8)) == tricky)
        #expect(try PackFile.decodeJSON(Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8)) == tricky)
    }

    @Test func jsonExportIsPrettyWithSortedKeys() throws {
        let pack = QuizPack(
            id: "geo", name: "Geo", isBuiltin: true,
            questions: [question(.easy, "What is the capital of France?", "Paris")])
        let json = PackFile.encodeJSON(pack)
        #expect(
            json == """
                {
                  "id" : "geo",
                  "name" : "Geo",
                  "questions" : [
                    {
                      "answer" : "Paris",
                      "difficulty" : "easy",
                      "text" : "What is the capital of France?"
                    }
                  ]
                }

                """)
        #expect(try PackFile.decodeJSON(json).isBuiltin == false)
    }

    @Test func jsonImportFillsInTheIDAndIgnoresExtras() throws {
        let pack = try PackFile.decodeJSON(
            """
            {"name": " Pub Quiz Night ", "extra": [1, 2.5e3, true, false, null, {"x": -0.5}], "id": null,
             "questions": [{"difficulty": " Hard ", "text": "Caf\\u00e9 or tea: which is \\"java\\"? \\ud83d\\ude00\\/", "answer": "Coffee", "note": 0}]}
            """)
        #expect(
            pack
                == QuizPack(
                    id: "pub-quiz-night", name: "Pub Quiz Night", isBuiltin: false,
                    questions: [question(.hard, "Café or tea: which is \"java\"? 😀/", "Coffee")]))
        #expect(try PackFile.decodeJSON(#"{"id": "My Id!", "name": "N", "questions": []}"#).id == "my-id")
    }

    @Test func jsonErrorsNameTheLine() {
        func error(_ text: String) -> RuleError? { refusal { _ = try PackFile.decodeJSON(text) } }
        #expect(
            error(
                """
                {
                  "name": "Quiz",
                  "questions": [
                    {"difficulty": "easy", "text": "Which planet is red?", "answer": "Mars"},
                    {"difficulty": "hardest", "text": "Which planet is biggest?", "answer": "Jupiter"}
                  ]
                }
                """)
                == RuleError(.badJSON, "line 5: question 2: difficulty must be easy, medium or hard, not \"hardest\""))
        #expect(
            error("{\n\"name\": \"Quiz\",\n\"questions\": [\n{\"difficulty\": \"easy\" \"text\": \"x\"}]}")
                == RuleError(.badJSON, "line 4, column 23: expected ',' or '}' in an object but found '\"'."))
        #expect(
            error(
                "{\r\n\"name\": \"Quiz\",\r\n\"questions\": [{\"difficulty\": \"easy\", \"text\": \"Which planet is red?\"}]}"
            )
                == RuleError(.badJSON, "line 3: question 1 has no \"answer\"."))
        #expect(
            error(
                "{\"name\": \"Q\", \"questions\": [{\"difficulty\": \"easy\", \"text\": \"Plural of ox?\", \"answer\": \"ox\"}]}"
            )
                == RuleError(.badJSON, "line 1: question 1: the answer \"ox\" has 2 letters; answers need at least 3."))
        #expect(
            error("{\"name\": \"Q\", \"questions\": [{\"difficulty\": \"easy\", \"text\": 5, \"answer\": \"Mars\"}]}")
                == RuleError(.badJSON, "line 1: question 1: \"text\" must be text."))
        #expect(error("{\"questions\": []}") == RuleError(.badJSON, "line 1: the pack has no \"name\"."))
        #expect(error("{\"name\": \"Q\"}") == RuleError(.badJSON, "line 1: the pack has no \"questions\" list."))
        #expect(
            error("\n\n[1, 2]")
                == RuleError(.badJSON, "line 3: the file must hold one JSON object with \"name\" and \"questions\"."))
        #expect(
            error("")
                == RuleError(
                    .badJSON, "The file is empty; it must hold one JSON object with \"name\" and \"questions\"."))
        #expect(error("  \n ")?.code == .badJSON)
        #expect(
            error("{\"name\": \"Q\", \"questions\": []} x")
                == RuleError(.badJSON, "line 1, column 32: unexpected 'x' after the end of the JSON value."))
        #expect(
            error("{\"name\": \"a\nb\", \"questions\": []}")?.message == "line 1, column 12: a text value contains "
                + "a line break or control character; write a line break as \\n.")
        #expect(
            error("{\"name\": \"\\ud800\", \"questions\": []}")?.message
                == "line 1, column 17: a \\u escape holds half of a surrogate pair.")
        #expect(error("{\"name\": \"Q\", \"questions\": [01]}")?.code == .badJSON)
        #expect(
            error(String(repeating: "[", count: 10_000))?.message
                == "line 1, column 33: nested deeper than 32 levels.")
        #expect(
            error(
                "{\"name\": \"Q\", \"questions\": [{\"difficulty\": \"easy\", \"text\": \"A?\", \"answer\": \"Bee\"}, "
                    + "{\"difficulty\": \"hard\", \"text\": \" a \", \"answer\": \"Wasp\"}]}")
                == RuleError(.badJSON, "line 1: question 2 repeats question 1."))
    }

    @Test func csvRoundTripKeepsCommasQuotesNewlinesAndAccents() throws {
        let csv = PackFile.encodeCSV(tricky)
        #expect(csv.hasPrefix("difficulty,question,answer\r\n"))
        #expect(csv.contains("easy,\"Which city, famous for \"\"cafés\"\", is on the Seine?\",Paris\r\n"))
        let back = try PackFile.decodeCSV(csv, name: tricky.name)
        #expect(back.questions == tricky.questions)
        #expect(back.name == tricky.name)
        #expect(back.id == "tricky-quoted-pack")
        #expect(!back.isBuiltin)
        #expect(
            try PackFile.decodeCSV(Data([0xEF, 0xBB, 0xBF]) + Data(csv.utf8), name: "x").questions == tricky.questions)
        // The same file with LF and with CR line endings reads the same (line breaks inside quotes are kept as written).
        let lf = csv.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(try PackFile.decodeCSV(lf, name: "x").questions.map(\.answer) == tricky.questions.map(\.answer))
    }

    @Test func csvImportIsForgivingAboutLayout() throws {
        let text =
            "\u{FEFF}Answer, Difficulty ,QUESTION\r\n\r\nParis,easy,What is the capital of France?\r\n"
            + "  \"Rome\" , Medium ,\"What is the capital of Italy?\"\r"
            + "Lima,HARD,What is the capital of Peru? (5\" tall)\n\n"
        let pack = try PackFile.decodeCSV(text, name: "  ")
        #expect(pack.name == "Imported pack" && pack.id == "imported-pack")
        #expect(
            pack.questions == [
                question(.easy, "What is the capital of France?", "Paris"),
                question(.medium, "What is the capital of Italy?", "Rome"),
                question(.hard, "What is the capital of Peru? (5\" tall)", "Lima"),
            ])
        #expect(try PackFile.decodeCSV("difficulty,question,answer", name: "Empty").questions.isEmpty)
    }

    @Test func csvErrorsNameTheLine() {
        func error(_ text: String) -> RuleError? { refusal { _ = try PackFile.decodeCSV(text, name: "Pack") } }
        let rows = [
            "difficulty,question,answer",
            "easy,What is the capital of France?,Paris",
            "easy,\"What is the capital of Spain,",
            "the country?\",Madrid",
            "",
            "medium,What is the capital of Peru?,Lima",
            "hardest,What is the capital of Chile?,Santiago",
        ]
        #expect(
            error(rows.joined(separator: "\r\n"))
                == RuleError(.badCSV, "line 7: difficulty must be easy, medium or hard, not \"hardest\""))
        #expect(error(rows.joined(separator: "\n"))?.message.hasPrefix("line 7: ") == true)
        #expect(
            error("")
                == RuleError(
                    .badCSV, "The file is empty; its first line must be the header difficulty,question,answer."))
        #expect(error("\u{FEFF}\r\n\r\n")?.message.hasPrefix("The file is empty") == true)
        #expect(
            error("easy,What is the capital of France?,Paris\n")
                == RuleError(
                    .badCSV,
                    "line 1: the first line must be the header difficulty,question,answer, not \"easy,What is the capital of France?,Paris\"."
                ))
        #expect(
            error(String(repeating: "x", count: 70))?.message.hasSuffix(String(repeating: "x", count: 60) + "…\".")
                == true)
        #expect(
            error("\ndifficulty,question\neasy,What?\n")?.message.hasPrefix("line 2: the first line must be the header")
                == true)
        #expect(
            error("difficulty,question,answer\neasy,Which is biggest: Spain, France?,France\n")
                == RuleError(
                    .badCSV,
                    "line 2: expected 3 fields (difficulty, question, answer) but found 4; put quote marks around any field that contains a comma."
                ))
        #expect(
            error("difficulty,question,answer\neasy,Capital of France?\n")?.message.hasPrefix(
                "line 2: expected 3 fields") == true)
        #expect(
            error("difficulty,question,answer\neasy,Capital?,Paris\nhard,\"Capital of\nItaly?,Rome\n")
                == RuleError(.badCSV, "line 3: a quoted field is never closed; add the missing closing quote mark."))
        #expect(
            error("difficulty,question,answer\neasy,\"Capital\"x,Paris\n")?.message.hasPrefix(
                "line 2: text follows the closing quote") == true)
        #expect(
            error("difficulty,question,answer\neasy,\"Capital\" \",Paris\n")?.message.hasPrefix(
                "line 2: a quote mark follows") == true)
        #expect(
            error("difficulty,question,answer\n,Capital of France?,Paris\n")
                == RuleError(.badCSV, "line 2: the difficulty is missing; use easy, medium or hard."))
        #expect(
            error("difficulty,question,answer\neasy,Plural of ox?,Ox\n")
                == RuleError(.badCSV, "line 2: the answer \"Ox\" has 2 letters; answers need at least 3."))
        #expect(
            error("difficulty,question,answer\neasy,,Paris\n")?.message.hasPrefix("line 2: the question text is empty")
                == true)
        #expect(
            error("difficulty,question,answer\neasy,Capital of France?,Paris\n\n\nhard, capital of FRANCE ,Lyon\n")
                == RuleError(.badCSV, "line 5: this question already appears on line 2."))
        #expect(
            refusal {
                _ = try PackFile.decodeCSV(
                    Data("difficulty,question,answer\neasy,Caf".utf8) + Data([0xC3, 0x28]), name: "x")
            }
                == RuleError(.badCSV, "line 2: the file is not UTF-8 text; save it as UTF-8 and try again."))
    }

    @Test func importersNeverCrashOnGarbage() {
        var rng = SplitMix64(seed: 0xBAD_C0DE)
        let alphabet = Array("\",\r\n{}[]:\\ abcdefghijklmnopqrstuvwxyz0123456789éü🎉\u{FEFF}".utf8)
        let seeds = [PackFile.encodeCSV(tricky), PackFile.encodeJSON(tricky)].map { Array($0.utf8) }
        var packs = 0
        for round in 0..<2000 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0:  // any bytes at all
                bytes = (0..<Int(rng.next(upperBound: UInt64(120)))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case 1:  // bytes that look like CSV or JSON
                bytes = (0..<Int(rng.next(upperBound: UInt64(120)))).map { _ in
                    alphabet[Int(rng.next(upperBound: UInt64(alphabet.count)))]
                }
            default:  // a valid file with a few random edits
                bytes = seeds[Int(rng.next(upperBound: UInt64(2)))]
                for _ in 0..<(1 + Int(rng.next(upperBound: UInt64(4)))) where !bytes.isEmpty {
                    let at = Int(rng.next(upperBound: UInt64(bytes.count)))
                    switch rng.next(upperBound: UInt64(3)) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet[Int(rng.next(upperBound: UInt64(alphabet.count)))], at: at)
                    default: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    }
                }
            }
            let data = Data(bytes)
            do {
                let pack = try PackFile.decodeCSV(data, name: "Fuzz")
                packs += 1
                #expect(pack.questions.allSatisfy { (try? PackLibrary.checkQuestion($0)) != nil })
            } catch {
                #expect(error.code == .badCSV)
                #expect(error.message.hasPrefix("line ") || error.message.hasPrefix("The file"), "\(error.message)")
            }
            do {
                let pack = try PackFile.decodeJSON(data)
                packs += 1
                #expect(pack.questions.allSatisfy { (try? PackLibrary.checkQuestion($0)) != nil })
            } catch {
                #expect(error.code == .badJSON)
                #expect(error.message.hasPrefix("line ") || error.message.hasPrefix("The file"), "\(error.message)")
            }
        }
        #expect(packs > 0)  // some edits leave a valid file
    }
}
