import Testing

@testable import Rules

@Suite struct BuzzQueueTests {
    private func ms(_ value: Int64) -> Instant { Instant(milliseconds: value) }

    private func add(
        _ queue: inout BuzzQueue, _ team: String, pressed: Int64, arrived: Int64,
        uncertainty: Int64 = 0, settle: Int64 = 100, key: UInt64 = 0
    ) throws {
        try queue.add(
            team: team, pressedAt: ms(pressed), uncertaintyMs: uncertainty, settleMs: settle,
            arrivedAt: ms(arrived), tieKey: key)
    }

    @Test func ordersByPressNotArrival() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000)
        try add(&queue, "Blue", pressed: 900, arrived: 1030)
        try add(&queue, "Green", pressed: 990, arrived: 1040)
        #expect(queue.entries.map(\.team) == ["Blue", "Red", "Green"])
        #expect(queue.entries.map(\.offsetMs) == [0, 50, 90])
        #expect(queue.entries.allSatisfy { !$0.isTied })
        #expect(queue.waitingTeams == ["Blue", "Red", "Green"])
    }

    @Test func headCommitsOnlyAfterTheFirstArrivalSettles() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000, settle: 100)
        #expect(queue.commitDeadline == ms(1100))
        #expect(queue.commitHead(at: ms(1099)) == nil)
        // A later arrival does not move the window.
        try add(&queue, "Blue", pressed: 900, arrived: 1050, settle: 500)
        #expect(queue.commitDeadline == ms(1100))
        let head = queue.commitHead(at: ms(1100))
        #expect(head?.team == "Blue")
        #expect(queue.teamOnTurn == "Blue")
        #expect(queue.isTurnActive)
        #expect(queue.commitDeadline == nil)
        #expect(queue.commitHead(at: ms(5000)) == nil)  // someone is already on turn
    }

    @Test func zeroSettleCommitsAtOnce() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000, settle: 0)
        #expect(queue.commitHead(at: ms(1000))?.team == "Red")
    }

    @Test func noOvertakingOnceOnTurnButWaitingPositionsKeepSettling() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000, settle: 0)
        _ = queue.commitHead(at: ms(1000))
        try add(&queue, "Blue", pressed: 980, arrived: 1010)
        // Green pressed before everyone but arrived late: it passes Blue (waiting), never Red (on turn).
        try add(&queue, "Green", pressed: 900, arrived: 1020)
        #expect(queue.entries.map(\.team) == ["Red", "Green", "Blue"])
        #expect(queue.entries.map(\.offsetMs) == [0, -50, 30])
        #expect(queue.teamOnTurn == "Red")
        #expect(queue.waitingTeams == ["Green", "Blue"])
    }

    @Test func doneTeamsAreNeverDisplacedAndTheNextCommitsAtOnce() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000, settle: 0)
        try add(&queue, "Blue", pressed: 980, arrived: 1010)
        _ = queue.commitHead(at: ms(1000))
        queue.endTurn(at: ms(2000))
        #expect(queue.doneTeams == ["Red"])
        #expect(queue.isDone("Red") && !queue.isDone("Blue"))
        #expect(queue.teamOnTurn == nil)
        #expect(queue.commitDeadline == ms(2000))
        #expect(queue.commitHead(at: ms(2000))?.team == "Blue")
        try add(&queue, "Green", pressed: 100, arrived: 2100)
        #expect(queue.entries.map(\.team) == ["Red", "Blue", "Green"])
        queue.endTurn(at: ms(3000))
        #expect(queue.commitHead(at: ms(3000))?.team == "Green")
        queue.endTurn(at: ms(4000))
        #expect(queue.commitDeadline == nil)
        #expect(queue.doneTeams == ["Red", "Blue", "Green"])
    }

    @Test func anArrivalAfterTheQueueRanDryOpensANewSettleWindow() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000, settle: 0)
        _ = queue.commitHead(at: ms(1000))
        queue.endTurn(at: ms(2000))
        #expect(queue.commitDeadline == nil)
        try add(&queue, "Blue", pressed: 2900, arrived: 3000, settle: 200)
        #expect(queue.commitDeadline == ms(3200))
        #expect(queue.commitHead(at: ms(3100)) == nil)
        #expect(queue.commitHead(at: ms(3200))?.team == "Blue")
    }

    @Test func repeatedBuzzIsRefused() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000)
        #expect(throws: RuleError(.alreadyBuzzed, "Red has already buzzed on this question.")) {
            try add(&queue, "Red", pressed: 960, arrived: 1010)
        }
        #expect(queue.entries.count == 1)
    }

    @Test func pressesWithinCombinedUncertaintyAreTiedAndOrderedByKey() throws {
        var low = BuzzQueue()
        try add(&low, "Red", pressed: 1000, arrived: 1000, uncertainty: 20, key: 9)
        try add(&low, "Blue", pressed: 1030, arrived: 1030, uncertainty: 20, key: 3)
        #expect(low.entries.map(\.team) == ["Blue", "Red"])
        #expect(low.entries.allSatisfy { $0.isTied })
        #expect(low.entries.map(\.offsetMs) == [0, -30])

        var high = BuzzQueue()
        try add(&high, "Red", pressed: 1000, arrived: 1000, uncertainty: 20, key: 3)
        try add(&high, "Blue", pressed: 1030, arrived: 1030, uncertainty: 20, key: 9)
        #expect(high.entries.map(\.team) == ["Red", "Blue"])
        #expect(high.entries.allSatisfy { $0.isTied })
    }

    @Test func aGapEqualToTheCombinedUncertaintyIsNoTie() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 1000, arrived: 1000, uncertainty: 20, key: 9)
        try add(&queue, "Blue", pressed: 1040, arrived: 1040, uncertainty: 20, key: 3)
        #expect(queue.entries.map(\.team) == ["Red", "Blue"])
        #expect(queue.entries.allSatisfy { !$0.isTied })
    }

    @Test func zeroUncertaintyNeverTiesAndEqualPressesFallBackToTheKey() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 1000, arrived: 1000, key: 9)
        try add(&queue, "Blue", pressed: 1000, arrived: 1001, key: 3)
        #expect(queue.entries.map(\.team) == ["Blue", "Red"])
        #expect(queue.entries.allSatisfy { !$0.isTied })
    }

    @Test func tiesChainIntoOneGroupAndOtherPressesStayOutside() throws {
        var queue = BuzzQueue()
        // Red–Blue and Blue–Green are within uncertainty, Red–Green is not: still one group.
        try add(&queue, "Red", pressed: 1000, arrived: 1000, uncertainty: 10, key: 50)
        try add(&queue, "Blue", pressed: 1015, arrived: 1015, uncertainty: 10, key: 70)
        try add(&queue, "Green", pressed: 1030, arrived: 1030, uncertainty: 10, key: 10)
        try add(&queue, "Gold", pressed: 1200, arrived: 1200, uncertainty: 10, key: 0)
        try add(&queue, "Early", pressed: 500, arrived: 1210, uncertainty: 10, key: 99)
        #expect(queue.entries.map(\.team) == ["Early", "Green", "Red", "Blue", "Gold"])
        #expect(queue.entries.map(\.isTied) == [false, true, true, true, false])
    }

    @Test func shiftingMovesThePendingCommit() throws {
        var queue = BuzzQueue()
        try add(&queue, "Red", pressed: 950, arrived: 1000, settle: 100)
        queue.shiftDeadlines(byMilliseconds: 5000)
        #expect(queue.commitDeadline == ms(6100))
        #expect(queue.commitHead(at: ms(1100)) == nil)
        #expect(queue.commitHead(at: ms(6100))?.team == "Red")
    }
}
