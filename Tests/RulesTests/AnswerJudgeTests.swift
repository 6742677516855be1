import Testing

@testable import Rules

@Suite struct AnswerJudgeTests {
    let forgiving = AnswerJudge(isForgiving: true)
    let strict = AnswerJudge(isForgiving: false)

    @Test func caseAccentsSpacesAndPunctuationDoNotMatter() {
        #expect(strict.judge("  eiffel-TOWER! ", against: "Eiffel Tower") == .exact)
        #expect(strict.judge("CAFE", against: "Café") == .exact)
        #expect(strict.judge("new york", against: "New-York") == .exact)
        #expect(strict.judge("Lyon", against: "Paris") == .wrong)
    }

    @Test func emptyOrPunctuationOnlyAnswersAreWrong() {
        #expect(forgiving.judge("", against: "Rome") == .wrong)
        #expect(forgiving.judge(" ?! ", against: "Rome") == .wrong)
    }

    @Test func allowedEditsGrowWithLength() {
        #expect((0...4).map(AnswerJudge.allowedEdits(forLetterCount:)) == [0, 0, 0, 0, 0])
        #expect(AnswerJudge.allowedEdits(forLetterCount: 5) == 1)
        #expect(AnswerJudge.allowedEdits(forLetterCount: 8) == 1)
        #expect(AnswerJudge.allowedEdits(forLetterCount: 9) == 2)
        #expect(AnswerJudge.allowedEdits(forLetterCount: 30) == 2)
    }

    @Test func fourLettersMustBeExact() {
        #expect(forgiving.judge("Rone", against: "Rome") == .wrong)
        #expect(forgiving.judge("Rom", against: "Rome") == .wrong)
        #expect(forgiving.judge("rome", against: "Rome") == .exact)
    }

    @Test func fiveLettersForgiveOneEdit() {
        #expect(forgiving.judge("Pariz", against: "Paris") == .misspelling(distance: 1))
        #expect(forgiving.judge("Pairs", against: "Paris") == .misspelling(distance: 1))
        #expect(forgiving.judge("Pars", against: "Paris") == .misspelling(distance: 1))
        #expect(forgiving.judge("Parzz", against: "Paris") == .wrong)
    }

    @Test func eightLettersForgiveOneEditOnly() {
        #expect(forgiving.judge("Elephnat", against: "Elephant") == .misspelling(distance: 1))
        #expect(forgiving.judge("Elefant", against: "Elephant") == .wrong)  // ph -> f is two edits
        #expect(forgiving.judge("Elefhant", against: "Elephant") == .misspelling(distance: 1))
        #expect(forgiving.judge("Elefhamt", against: "Elephant") == .wrong)
    }

    @Test func nineLettersForgiveTwoEdits() {
        #expect(forgiving.judge("Jeruzalem", against: "Jerusalem") == .misspelling(distance: 1))
        #expect(forgiving.judge("Jeruzalim", against: "Jerusalem") == .misspelling(distance: 2))
        #expect(forgiving.judge("Jeruzalym", against: "Jerusalim") == .misspelling(distance: 2))
        #expect(forgiving.judge("Geruzalim", against: "Jerusalem") == .wrong)
    }

    @Test func strictJudgeForgivesNothing() {
        #expect(strict.judge("Pariz", against: "Paris") == .wrong)
        #expect(strict.judge("Jeruzalem", against: "Jerusalem") == .wrong)
    }

    @Test func misspellingsAreMeasuredOnFoldedText() {
        // "saopaulo" has 8 letters; the accent and the space cost nothing, the swap costs one.
        #expect(forgiving.judge("sao pualo", against: "São Paulo") == .misspelling(distance: 1))
        #expect(forgiving.judge("SÃO-PAULO", against: "sao paulo") == .exact)
    }

    @Test func verdictFlags() {
        #expect(AnswerVerdict.exact.isCorrect && !AnswerVerdict.exact.isMisspelling)
        #expect(
            AnswerVerdict.misspelling(distance: 1).isCorrect && AnswerVerdict.misspelling(distance: 1).isMisspelling)
        #expect(!AnswerVerdict.wrong.isCorrect && !AnswerVerdict.wrong.isMisspelling)
    }

    @Test func optimalStringAlignmentDistance() {
        func distance(_ a: String, _ b: String) -> Int { AnswerJudge.editDistance(Array(a), Array(b)) }
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "") == 3)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("ab", "ba") == 1)
        #expect(distance("kitten", "sitting") == 3)
        // OSA never edits a transposed pair again: 3, where unrestricted Damerau–Levenshtein gives 2.
        #expect(distance("ca", "abc") == 3)
    }
}
