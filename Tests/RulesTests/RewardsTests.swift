import Common
import Rules
import Testing

/// The reward characters' rules: the stages right answers reach, picking and changing, counting and the unlocks
/// kept for the teacher.
@Suite("Rewards: characters that grow with right answers")
struct RewardsTests {
    @Test(
        arguments: [
            (0, 1, 3), (2, 1, 3), (3, 2, 10), (9, 2, 10), (10, 3, 25), (24, 3, 25), (25, 4, nil), (400, 4, nil),
        ] as [(Int, Int, Int?)])
    func stagesAtTheThresholds(rightAnswers: Int, stage: Int, next: Int?) {
        #expect(Rewards.stage(rightAnswers: rightAnswers) == stage)
        #expect(Rewards.next(after: rightAnswers) == next)
    }

    @Test func theThresholdsRiseFromZeroOneStageEach() {
        #expect(Rewards.thresholds.first == 0)
        #expect(zip(Rewards.thresholds, Rewards.thresholds.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Rewards.upgrades.count == Rewards.stages && Rewards.stages == 4)
        #expect(Set(Rewards.characters.map(\.id)).count == Rewards.characters.count)
        #expect(Rewards.character(" FOX ")?.name == "Fox" && Rewards.character("dragon") == nil)
    }

    @Test func nothingCountsBeforeAPick() {
        var book = RewardBook()
        #expect(book.credit("Ann", date: "2026-11-28T20:00:00Z", game: "words") == nil)
        #expect(book.progress(of: "Ann") == RewardProgress(name: "Ann", character: nil, rightAnswers: 0))
        #expect(book.progress(of: "Ann").stage == 0 && book.progress(of: "Ann").next == nil)
    }

    @Test func rightAnswersGrowThePickedCharacterAndEachStageIsNoted() throws {
        var book = RewardBook()
        let picked = try book.pick("fox", for: "Ann", date: "2026-11-28T20:00:00Z")
        #expect(picked.character == "fox" && picked.stage == 1 && picked.next == 3 && picked.canChange)
        let firstCredit = book.credit("ann", count: 2, date: "2026-11-28T20:01:00Z", game: "words")
        let first = try #require(firstCredit)
        #expect(!first.grew && first.stage == 1 && first.rightAnswers == 2)
        let grownCredit = book.credit("ANN", date: "2026-11-28T20:02:00Z", game: "words")
        let grown = try #require(grownCredit)
        #expect(grown.grew && grown.stage == 2 && grown.next == 10 && !grown.canChange && grown.name == "Ann")
        // A jump over two thresholds notes both stages.
        let jumpCredit = book.credit("Ann", count: 30, date: "2026-11-29T19:00:00Z", game: "shaky")
        let jump = try #require(jumpCredit)
        #expect(jump.grew && jump.stage == 4 && jump.next == nil)
        let unlocked = try #require(book.players["ann"]?.unlocked)
        #expect(unlocked.map(\.stage) == [2, 3, 4])
        #expect(unlocked.map(\.game) == ["words", "shaky", "shaky"])
        #expect(
            unlocked[0] == RewardBook.Unlock(character: "fox", stage: 2, date: "2026-11-28T20:02:00Z", game: "words"))
        #expect(book.entries.map(\.name) == ["Ann"])
    }

    @Test func aCharacterMayBeChangedUntilItGrows() throws {
        var book = RewardBook()
        _ = try book.pick("owl", for: "Bo", date: "d1")
        _ = book.credit("Bo", count: 2, date: "d2", game: nil)
        let changed = try book.pick("frog", for: "Bo", date: "d3")
        #expect(changed.character == "frog" && changed.rightAnswers == 2 && book.players["bo"]?.picked == "d3")
        _ = book.credit("Bo", date: "d4", game: nil)
        do {
            _ = try book.pick("fox", for: "Bo", date: "d5")
        } catch {
            #expect(error.code == .alreadyPicked && error.message.contains("frog"))
        }
        // Picking the same one again is no change.
        #expect(try book.pick("Frog", for: "bo", date: "d6").character == "frog")
        #expect(book.players["bo"]?.picked == "d3")
    }

    @Test func anUnknownCharacterIsRefusedNamingTheChoices() {
        var book = RewardBook()
        do {
            _ = try book.pick("dragon", for: "Ann", date: "d")
            Issue.record("a dragon was picked")
        } catch {
            #expect(error.code == .badChoice && error.message.contains("fox, owl, frog, bear, robot"))
        }
        #expect(book.players.isEmpty)
    }

    @Test func theBookRoundTripsThroughJSON() throws {
        var book = RewardBook()
        _ = try book.pick("robot", for: "Cy", date: "d1")
        _ = book.credit("Cy", count: 12, date: "d2", game: "outsider")
        let decoded = try JSONCoding.decode(RewardBook.self, from: JSONCoding.encode(book))
        #expect(decoded == book)
    }
}
