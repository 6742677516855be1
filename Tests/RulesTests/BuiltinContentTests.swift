import Common
import Foundation
import Testing

@testable import Rules

// MARK: - Minimal readers for the content formats (the modes' own parsers come later)

/// Splits one CSV row into fields, honouring double-quoted fields (with `""` for a quote inside one).
private func csvFields(_ row: String) -> [String] {
    var fields: [String] = []
    var field = ""
    var inQuotes = false
    var characters = Array(row)[...]
    while let character = characters.popFirst() {
        if inQuotes {
            if character == "\"" {
                if characters.first == "\"" {
                    field.append("\"")
                    characters.removeFirst()
                } else {
                    inQuotes = false
                }
            } else {
                field.append(character)
            }
        } else if character == "\"" {
            inQuotes = true
        } else if character == "," {
            fields.append(field)
            field = ""
        } else {
            field.append(character)
        }
    }
    fields.append(field)
    return fields
}

/// The non-blank lines of a multi-line text, trimmed of surrounding spaces.
private func contentLines(_ text: String) -> [String] {
    text.split(whereSeparator: \.isNewline)
        .map { String($0).trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
}

/// One Odd One Out row as written in a pack.
private struct OutsiderRow {
    var difficulty: String
    var outsider: String
    var words: [String]
    var link: String
}

/// Reads a pack's rows; a row without exactly six fields is recorded as an issue and skipped.
private func outsiderRows(pack id: String, csv: String) -> [OutsiderRow] {
    contentLines(csv).compactMap { line in
        let fields = csvFields(line)
        guard fields.count == 6 else {
            Issue.record("\(id): row has \(fields.count) fields instead of 6: \(line)")
            return nil
        }
        return OutsiderRow(difficulty: fields[0], outsider: fields[1], words: Array(fields[2...4]), link: fields[5])
    }
}

/// One `question: option* option` line of a word list, with the level it belongs to.
private struct WordLine {
    var level: Int
    var question: String
    var correct: [String]
    var wrong: [String]
    var text: String
}

/// Reads a word list into its levels (in file order) and question lines; malformed lines are recorded as issues.
private func wordLines(list id: String, text: String) -> (levels: [Int], lines: [WordLine]) {
    var levels: [Int] = []
    var lines: [WordLine] = []
    for line in contentLines(text) {
        if line.hasPrefix("#") {
            let words = line.dropFirst().split(separator: " ")
            guard words.count == 2, words[0] == "level", let number = Int(words[1]) else {
                Issue.record("\(id): not a level header: \(line)")
                continue
            }
            levels.append(number)
            continue
        }
        let halves = line.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2, let level = levels.last else {
            Issue.record("\(id): not a `question: options` line inside a level: \(line)")
            continue
        }
        var entry = WordLine(
            level: level, question: halves[0].trimmingCharacters(in: .whitespaces), correct: [], wrong: [], text: line)
        for option in halves[1].split(separator: " ") {
            if option.hasSuffix("*") {
                entry.correct.append(String(option.dropLast()))
            } else {
                entry.wrong.append(String(option))
            }
        }
        lines.append(entry)
    }
    return (levels, lines)
}

/// Whether `text` is a non-empty run of lower-case letters (any alphabet) and nothing else.
private func isLowercaseWord(_ text: String) -> Bool {
    !text.isEmpty && text.allSatisfy { $0.isLetter && $0.isLowercase }
}

/// The string at `key` in `object`, or nil.
private func string(_ object: JSONValue, _ key: String) -> String? { object[key]?.stringValue }

/// The integer at `key` in `object`, or nil.
private func int(_ object: JSONValue, _ key: String) -> Int? { object[key]?.intValue.map { Int($0) } }

// MARK: - The suite

@Suite struct BuiltinContentTests {
    // MARK: Odd One Out packs

    @Test func theCSVSplitterHonoursQuotes() {
        #expect(csvFields("easy,dog,green,red,blue,colours") == ["easy", "dog", "green", "red", "blue", "colours"])
        #expect(csvFields("hard,\"a, b\",c,\"say \"\"hi\"\"\",d,e") == ["hard", "a, b", "c", "say \"hi\"", "d", "e"])
        #expect(csvFields("a,,b") == ["a", "", "b"])
    }

    @Test func thereAreAtLeastSixOutsiderPacksWithSlugIDsAndDistinctNames() {
        let packs = BuiltinOutsiderPacks.packs
        #expect(packs.count >= 6, "only \(packs.count) packs")
        #expect(Set(packs.map(\.id)).count == packs.count, "pack ids repeat: \(packs.map(\.id))")
        #expect(Set(packs.map { $0.name.lowercased() }).count == packs.count, "pack names repeat")
        for pack in packs {
            let slug =
                !pack.id.isEmpty
                && pack.id.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
            #expect(slug, "pack id \"\(pack.id)\" must be lower-case letters, digits and dashes")
            #expect(!pack.name.trimmingCharacters(in: .whitespaces).isEmpty, "\(pack.id) has no name")
        }
    }

    @Test func everyOutsiderPackHasFortyPuzzlesSpreadOverTheDifficulties() {
        for pack in BuiltinOutsiderPacks.packs {
            let rows = outsiderRows(pack: pack.id, csv: pack.csv)
            #expect(rows.count >= 40, "\(pack.id) has only \(rows.count) puzzles")
            for row in rows {
                let known = ["easy", "medium", "hard"].contains(row.difficulty)
                #expect(known, "\(pack.id): unknown difficulty \"\(row.difficulty)\" for \(row.outsider)")
            }
            for difficulty in ["easy", "medium", "hard"] {
                let count = rows.count { $0.difficulty == difficulty }
                // A sensible spread: every difficulty holds at least a fifth and at most half of the pack.
                #expect(count * 5 >= rows.count, "\(pack.id): only \(count) \(difficulty) puzzles of \(rows.count)")
                #expect(count * 2 <= rows.count, "\(pack.id): \(count) \(difficulty) puzzles of \(rows.count)")
            }
        }
    }

    @Test func everyPuzzleHasFourDistinctTrimmedWordsAndAShortLink() {
        for pack in BuiltinOutsiderPacks.packs {
            for row in outsiderRows(pack: pack.id, csv: pack.csv) {
                let label = "\(pack.id): \(([row.outsider] + row.words).joined(separator: ", "))"
                let four = [row.outsider] + row.words
                #expect(Set(four.map { $0.lowercased() }).count == 4, "\(label): the four words must differ")
                #expect(
                    !row.words.map { $0.lowercased() }.contains(row.outsider.lowercased()),
                    "\(label): the outsider is also one of the three")
                for field in four + [row.link] {
                    #expect(!field.isEmpty, "\(label): empty field")
                    #expect(field == field.trimmingCharacters(in: .whitespaces), "\(label): \"\(field)\" has spaces")
                    #expect(!field.contains("\""), "\(label): \"\(field)\" has a quote mark")
                    #expect(field.count <= 40, "\(label): \"\(field)\" is too long")
                }
                #expect(four.allSatisfy { $0.count <= 20 }, "\(label): a word is too long to show on a card")
            }
        }
    }

    @Test func noPuzzleAppearsTwiceInAPack() {
        for pack in BuiltinOutsiderPacks.packs {
            var seen: [Set<String>: String] = [:]
            for row in outsiderRows(pack: pack.id, csv: pack.csv) {
                let key = Set(([row.outsider] + row.words).map { $0.lowercased() })
                #expect(seen[key] == nil, "\(pack.id): \(row.outsider) repeats the puzzle of \(seen[key] ?? "")")
                seen[key] = row.outsider
            }
        }
    }

    // MARK: Word lists

    @Test func thereIsASwedishAndAnEnglishWordList() {
        let lists = BuiltinWordLists.lists
        #expect(lists.map(\.id).sorted() == ["en", "sv"], "list ids are \(lists.map(\.id))")
        for list in lists {
            #expect(list.language == list.id, "\(list.id) has language \(list.language)")
            #expect(!list.name.isEmpty, "\(list.id) has no name")
        }
    }

    @Test func everyWordListHasThreeOrMoreLevelsOfTwentyQuestionsEasiestFirst() {
        for list in BuiltinWordLists.lists {
            let (levels, lines) = wordLines(list: list.id, text: list.text)
            #expect(levels.count >= 3, "\(list.id) has \(levels.count) levels")
            #expect(levels == Array(1...max(levels.count, 1)), "\(list.id): levels must run 1, 2, 3…: \(levels)")
            #expect(lines.count >= 60, "\(list.id) has only \(lines.count) question words")
            for level in levels {
                let count = lines.count { $0.level == level }
                #expect(count >= 20, "\(list.id): level \(level) has only \(count) question words")
            }
        }
    }

    @Test func everyQuestionWordHasRightAndWrongLowercaseOptionsAndAppearsOnce() {
        for list in BuiltinWordLists.lists {
            var seen: Set<String> = []
            for line in wordLines(list: list.id, text: list.text).lines {
                let label = "\(list.id): \(line.text)"
                #expect(isLowercaseWord(line.question), "\(label): question word must be one lower-case word")
                #expect(!seen.contains(line.question), "\(label): \(line.question) is already a question word")
                seen.insert(line.question)
                #expect(line.correct.count >= 1, "\(label): needs at least one correct option")
                #expect(line.wrong.count >= 3, "\(label): needs at least three wrong options")
                let options = line.correct + line.wrong
                #expect((4...7).contains(options.count), "\(label): \(options.count) options")
                #expect(Set(options).count == options.count, "\(label): an option repeats")
                #expect(Set(line.correct).isDisjoint(with: line.wrong), "\(label): an option is both right and wrong")
                for option in options {
                    #expect(isLowercaseWord(option), "\(label): option \"\(option)\" is not one lower-case word")
                    #expect(option != line.question, "\(label): the question word is among its options")
                }
            }
        }
    }

    // MARK: Boards

    @Test func thereIsOneBoardForEachWordList() throws {
        var lists: [String] = []
        for board in BuiltinBoards.boards {
            let document = try JSONParsing.parse(board.json)
            let id = string(document, "id") ?? ""
            #expect(id == board.id, "board \(board.id) says its id is \(id)")
            #expect(!(string(document, "name") ?? "").isEmpty, "board \(board.id) has no name")
            lists.append(string(document, "list") ?? "")
        }
        #expect(lists.sorted() == ["en", "sv"], "boards use the lists \(lists)")
        #expect(Set(BuiltinBoards.boards.map(\.id)).count == BuiltinBoards.boards.count, "board ids repeat")
    }

    @Test func everyBoardIsAConnectedDrawableGridWithForks() throws {
        for board in BuiltinBoards.boards {
            let document = try JSONParsing.parse(board.json)
            let label = "board \(board.id)"
            let listID = string(document, "list") ?? ""
            let list = try #require(BuiltinWordLists.lists.first { $0.id == listID }, "\(label): no list \(listID)")
            let parsed = wordLines(list: list.id, text: list.text)
            let questionWords = Set(parsed.lines.map(\.question))
            let level = int(document, "level") ?? 0
            #expect(parsed.levels.contains(level), "\(label): list \(listID) has no level \(level)")

            let tiles = document["tiles"]?.arrayValue ?? []
            #expect((12...20).contains(tiles.count), "\(label) has \(tiles.count) tiles")
            var positions: [Int: (x: Int, y: Int)] = [:]
            var occupied: Set<[Int]> = []
            var starts: [Int] = []
            for tile in tiles {
                let id = try #require(int(tile, "id"), "\(label): a tile has no id: \(tile)")
                let word = string(tile, "word") ?? ""
                let x = int(tile, "x") ?? -1
                let y = int(tile, "y") ?? -1
                #expect(positions[id] == nil, "\(label): tile id \(id) repeats")
                #expect(questionWords.contains(word), "\(label): tile \(id)'s \"\(word)\" is not in \(listID)")
                #expect((0...7).contains(x) && (0...4).contains(y), "\(label): tile \(id) at \(x),\(y) is off the grid")
                #expect(!occupied.contains([x, y]), "\(label): tile \(id) shares the cell \(x),\(y)")
                occupied.insert([x, y])
                positions[id] = (x, y)
                if tile["start"]?.boolValue == true { starts.append(id) }
            }
            #expect(starts.count == 1, "\(label) has start tiles \(starts)")

            var neighbours: [Int: Set<Int>] = [:]
            for path in document["paths"]?.arrayValue ?? [] {
                let ends = (path.arrayValue ?? []).compactMap { $0.intValue.map { Int($0) } }
                guard ends.count == 2, let a = positions[ends[0]], let b = positions[ends[1]], ends[0] != ends[1] else {
                    Issue.record("\(label): path \(path) must join two different tiles")
                    continue
                }
                let dx = b.x - a.x
                let dy = b.y - a.y
                let straight = (dx == 0 || dy == 0) && (1...2).contains(abs(dx) + abs(dy))
                #expect(straight, "\(label): path \(ends) is not a short straight line")
                let middle = [a.x + dx / 2, a.y + dy / 2]
                let jumps = abs(dx) + abs(dy) == 2 && occupied.contains(middle)
                #expect(!jumps, "\(label): path \(ends) runs over the tile at \(middle)")
                #expect(neighbours[ends[0], default: []].contains(ends[1]) == false, "\(label): path \(ends) repeats")
                neighbours[ends[0], default: []].insert(ends[1])
                neighbours[ends[1], default: []].insert(ends[0])
            }
            for id in positions.keys.sorted() {
                #expect(!(neighbours[id] ?? []).isEmpty, "\(label): tile \(id) is on no path")
            }
            var reached: Set<Int> = []
            var frontier = starts.prefix(1).map { $0 }
            while let id = frontier.popLast() {
                guard reached.insert(id).inserted else { continue }
                frontier.append(contentsOf: neighbours[id] ?? [])
            }
            let unreached = Set(positions.keys).subtracting(reached).sorted()
            #expect(unreached.isEmpty, "\(label): tiles \(unreached) cannot be reached from the start")
            let forks = neighbours.filter { $0.value.count >= 3 }.count
            #expect(forks >= 2, "\(label) has only \(forks) forks")
        }
    }

    // MARK: Hunts

    @Test func theDemoHuntHasFiveStationsWithGoodCodesTasksAndHints() throws {
        let hunts = BuiltinHunts.hunts
        #expect(hunts.map(\.id) == ["demo"], "hunt ids are \(hunts.map(\.id))")
        let allowed = Set("ACDEFHJKLMNPQRTUVWXY")
        for hunt in hunts {
            let document = try JSONParsing.parse(hunt.json)
            let id = string(document, "id") ?? ""
            #expect(id == hunt.id, "hunt \(hunt.id) says its id is \(id)")
            #expect(!(string(document, "name") ?? "").isEmpty, "hunt \(hunt.id) has no name")
            let stations = document["stations"]?.arrayValue ?? []
            #expect(stations.count == 5, "hunt \(hunt.id) has \(stations.count) stations")
            var codes: Set<String> = []
            var names: Set<String> = []
            for station in stations {
                let name = string(station, "name") ?? ""
                let label = "hunt \(hunt.id), station \(name)"
                #expect(!name.isEmpty && names.insert(name.lowercased()).inserted, "\(label): missing or repeated name")
                #expect(!(string(station, "clue") ?? "").isEmpty, "\(label): no clue")
                #expect(!(string(station, "success") ?? "").isEmpty, "\(label): no success message")
                let code = string(station, "code") ?? ""
                #expect(code.count == 4 && code.allSatisfy(allowed.contains), "\(label): bad check-in code \(code)")
                #expect(codes.insert(code).inserted, "\(label): code \(code) is used twice")

                let puzzle = station["puzzle"]
                let question = station["question"]
                #expect((puzzle == nil) != (question == nil), "\(label): needs exactly one of puzzle and question")
                if let puzzle {
                    let words = (puzzle["words"]?.arrayValue ?? []).compactMap(\.stringValue)
                    let outsider = (string(puzzle, "outsider") ?? "").lowercased()
                    #expect(words.count == 4, "\(label): puzzle has \(words.count) words")
                    #expect(Set(words.map { $0.lowercased() }).count == words.count, "\(label): puzzle words repeat")
                    #expect(words.map { $0.lowercased() }.contains(outsider), "\(label): outsider not among the words")
                    #expect(!(string(puzzle, "link") ?? "").isEmpty, "\(label): puzzle has no link")
                }
                if let question {
                    let answer = string(question, "answer") ?? ""
                    let letters = answer.count { $0.isLetter }
                    #expect(!(string(question, "text") ?? "").isEmpty, "\(label): question has no text")
                    #expect((1...2).contains(answer.split(separator: " ").count), "\(label): answer \(answer)")
                    #expect((4...12).contains(letters), "\(label): answer \(answer) has \(letters) letters")
                }
                let hints = station["hints"]?.arrayValue ?? []
                #expect((1...2).contains(hints.count), "\(label) has \(hints.count) hints")
                for hint in hints {
                    #expect(!(string(hint, "text") ?? "").isEmpty, "\(label): a hint has no text")
                    let cost = int(hint, "costSeconds") ?? 0
                    #expect((15...60).contains(cost), "\(label): a hint costs \(cost) seconds")
                }
            }
        }
    }
}
