import Common
import Testing

@testable import Rules

/// Word lists of the compound-words trainer: the built-in lists, both file formats and the library's rules.
@Suite struct WordListTests {
    // MARK: Every list the host ships

    @Test func everyBuiltinListIsBigCleanAndPlayableOnEveryLevelByEveryExercise() throws {
        let lists = WordListLibrary().lists
        #expect(lists.map(\.id) == ["sv", "en"])
        for list in lists {
            #expect(list.isBuiltin)
            #expect(list.words.count >= 60, "\(list.id) has \(list.words.count) question words")
            #expect(list.levels.count >= 3, "\(list.id) has levels \(list.levels)")
            var seen: Set<String> = []
            for entry in list.words {
                let label = "\(list.id): \(entry.word)"
                #expect(seen.insert(WordList.key(entry.word)).inserted, "\(label) is a question word twice")
                #expect(!entry.correct.isEmpty, "\(label) has no correct option")
                #expect(entry.wrong.count >= 3, "\(label) has \(entry.wrong.count) wrong options")
                #expect(Set(entry.correct).isDisjoint(with: entry.wrong), "\(label): an option is right and wrong")
                #expect(entry.options.count >= WordList.minimumOptions, "\(label): too few options for a hand of four")
                #expect(Set(entry.options.map(WordList.key)).count == entry.options.count, "\(label): options repeat")
            }
            for level in list.levels {
                #expect(list.playabilityProblem(level: level) == nil, "\(list.id) level \(level)")
                // A game of every exercise can be made on it.
                for exercise in [CompoundWords.Exercise.cards, .bingo] {
                    _ = try CompoundWords(
                        teams: ["Red"], words: list.words(level: level), listID: list.id, listName: list.name,
                        level: level, settings: .init(exercise: exercise), seed: 1)
                }
            }
        }
    }

    @Test func theBuiltinListsAreTheSeedsTextFormat() throws {
        for source in BuiltinWordLists.lists {
            let parsed = try WordListFile.decodeText(source.text, fileName: source.id)
            #expect(parsed.words == WordListLibrary().list(id: source.id)?.words)
        }
        let en = try #require(WordListLibrary().list(id: "en"))
        let sun = try #require(en.entry(for: "SUN"), "question words are found ignoring case")
        #expect(sun.isCorrect("flower") && !sun.isCorrect("spoon"))
        #expect(sun.compound(with: "flower") == "sunflower", "a compound is shown joined")
    }

    // MARK: The text format

    @Test func theTextFormatRoundTripsNameLanguageLevelsAndStars() throws {
        let text = """
            # name: Garden words
            # language: en
            # level 1
            sun: flower* glasses* chair spoon
            rain: bow* coat* cup pig
            # level 2
            snow: man* ball* cup pen egg
            """
        let list = try WordListFile.decodeText(text, fileName: "garden.txt")
        #expect(list.id == "garden", "the file name is the id")
        #expect(list.name == "Garden words")
        #expect(list.language == "en")
        #expect(list.levels == [1, 2])
        #expect(
            list.words[0]
                == WordEntry(
                    word: "sun", level: 1, options: ["flower", "glasses", "chair", "spoon"],
                    correct: ["flower", "glasses"]))
        #expect(list.words[2].level == 2)
        let again = try WordListFile.decodeText(WordListFile.encodeText(list), fileName: "garden.txt")
        #expect(again == list)
        let json = try WordListFile.decodeJSON(bytes: Array(WordListFile.encodeJSON(list).utf8))
        #expect(json == list)
    }

    @Test func aTextFileWithoutHeadersIsLevelOneNamedAfterTheFile() throws {
        let list = try WordListFile.decodeText(
            "sun: flower* glasses chair spoon\r\n\r\nrain: bow* coat cup pig\n", fileName: "My Words.txt")
        #expect(list.id == "my-words")
        #expect(list.name == "My Words")
        #expect(list.words.map(\.level) == [1, 1])
    }

    @Test(arguments: [
        (
            "# level 1\nsun: flower* glasses chair spoon\nsun: bow* cat cup pig",
            "line 3: sun is already a question word on line 2."
        ),
        ("# level 1\nsun: flower* flower chair spoon", "line 2: sun: \"flower\" is marked both right and wrong."),
        ("# levle 2\nsun: flower* glasses chair spoon", "line 1: a line starting with # must be"),
        ("# level 1\nsun flower* glasses chair spoon", "line 2: write a question word, a colon and its options"),
        ("# level 1\n\n\nsun: flower* chair spoon", "line 4: sun has 3 options; it needs at least 4"),
        ("# level 1\nsun: flower glasses chair spoon", "line 2: sun has no correct option"),
        ("# level one\nsun: flower* glasses chair spoon", "line 1: the level must be a number from 1 to 99"),
        ("sun: flo*wer glasses* chair spoon", "line 1: sun: \"flo*wer\" is not an option"),
        ("sun: flower* sun chair spoon", "line 1: sun has itself as an option."),
        ("sun: flower* gl4sses chair spoon", "line 1: the option \"gl4sses\" of sun must be one word of letters"),
    ])
    func textProblemsNameTheirLine(text: String, message: String) {
        #expect {
            _ = try WordListFile.decodeText(text, fileName: "broken.txt")
        } throws: { error in
            guard let error = error as? RuleError else { return false }
            return error.code == .badWordList && error.message.hasPrefix(message)
        }
    }

    @Test func notUTF8IsRefusedWithItsLine() {
        let bytes = Array("sun: flower* glasses chair spoon\n".utf8) + [0xFF, 0x3A]
        #expect(throws: RuleError.self) { try WordListFile.decodeText(bytes: bytes, fileName: "x.txt") }
        do {
            _ = try WordListFile.decodeText(bytes: bytes, fileName: "x.txt")
        } catch {
            #expect(error.message.hasPrefix("line 2:"))
        }
    }

    // MARK: The JSON format

    @Test func theIssuesJSONExampleReads() throws {
        let json = """
            {"id":"garden","name":"Garden words","language":"en","words":[{"word":"sun","level":1,
            "options":["flower","glasses",
            "chair","spoon"],"correct":["flower","glasses"]}]}
            """
        let list = try WordListFile.decodeJSON(bytes: Array(json.utf8))
        #expect(list.id == "garden" && list.name == "Garden words" && list.language == "en")
        #expect(list.words.first?.correct == ["flower", "glasses"])
    }

    @Test func jsonProblemsNameTheirLine() {
        let cases: [(String, String)] = [
            (
                "{\"name\":\"G\",\n\"words\":[\n{\"word\":\"sun\",\"options\":[\"a\",\"b\",\"c\",\"d\"],"
                    + "\"correct\":[\"e\"]}]}",
                "line 3: word 1: sun: the correct option \"e\" is not among its options."
            ),
            (
                "{\"name\":\"G\",\"words\":[\n{\"word\":\"sun\",\"options\":[\"a\",\"b\",\"c\",\"d\"],"
                    + "\"correct\":[\"a\"]},\n"
                    + "{\"word\":\"Sun\",\"options\":[\"a\",\"b\",\"c\",\"d\"],\"correct\":[\"a\"]}]}",
                "line 3: Sun is already a question word (word 1)."
            ),
            (
                "{\"name\":\"G\",\"words\":[{\"word\":\"sun\",\n\"options\":\"abc\",\"correct\":[]}]}",
                "line 2: word 1: \"options\" must be a list."
            ),
            ("{\"words\":[]}", "line 1: the word list has no \"name\"."),
        ]
        for (json, message) in cases {
            do {
                _ = try WordListFile.decodeJSON(bytes: Array(json.utf8))
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.message == message)
                #expect(
                    error.code == (message.contains("must be") || message.contains("has no") ? .badJSON : .badWordList))
            }
        }
    }

    // MARK: The library

    @Test func theLibraryKeepsIDsNamesAndBuiltinsApart() throws {
        var library = WordListLibrary()
        let garden = WordList(
            id: "garden", name: "Garden words", language: "en",
            words: [
                WordEntry(word: "sun", level: 1, options: ["flower", "glasses", "chair", "spoon"], correct: ["flower"])
            ])
        #expect(try library.add(garden) == "garden")
        var again = garden
        again.name = "Other"
        #expect(try library.add(again) == "garden-2", "a taken id gets a fresh one")
        #expect(throws: RuleError.self) { try library.add(garden) }  // the name is taken (ignoring case)
        #expect(
            throws: RuleError(
                .readOnly, "The built-in list \"English compound words\" cannot be changed; copy it to make your own.")
        ) {
            try library.addWord(garden.words[0], toList: "en")
        }
        let copy = try library.copyList("en")
        #expect(library.list(id: copy)?.words == library.list(id: "en")?.words)
        #expect(library.list(id: copy)?.name == "English compound words (copy)")
        #expect(library.isBuiltin(id: "sv") && !library.isBuiltin(id: copy))
    }

    @Test func listsAreEditedWordByWordWithTheSameRules() throws {
        var library = WordListLibrary()
        let id = try library.createList(named: "Class 2b", language: "sv")
        #expect(library.list(id: id)?.playabilityProblem(level: 1) != nil, "an empty list cannot be played yet")
        for number in 0..<13 {
            let word = "ord" + String(repeating: "a", count: number + 1)
            try library.addWord(
                WordEntry(word: word, level: 1, options: ["sol", "hatt", "ko", "ost"], correct: ["sol"]), toList: id)
        }
        #expect(library.list(id: id)?.playabilityProblem(level: 1) == nil, "13 words make a bingo level")
        #expect(throws: RuleError.self) {
            try library.addWord(
                WordEntry(word: "orda", level: 1, options: ["x", "y", "z", "w"], correct: ["x"]), toList: id)
        }
        #expect(throws: RuleError.self) {
            try library.addWord(WordEntry(word: "ny", level: 1, options: ["x", "y", "z"], correct: ["x"]), toList: id)
        }
        try library.editWord(
            "orda", inList: id,
            to: WordEntry(word: "sol", level: 2, options: ["hatt", "sken", "ko", "ost"], correct: ["hatt", "sken"]))
        #expect(library.list(id: id)?.entry(for: "sol")?.level == 2)
        let small = try #require(library.list(id: id)?.playabilityProblem(level: 1))
        #expect(small.contains("12 question words") && small.contains("add 1 more"))
        try library.removeWord("sol", fromList: id)
        #expect(library.list(id: id)?.levels == [1])
        try library.renameList(id, to: "Klass 2b")
        #expect(library.list(id: id)?.name == "Klass 2b")
        try library.deleteList(id)
        #expect(library.list(id: id) == nil)
    }
}
