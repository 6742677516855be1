import Foundation
import Protocol
import Rules
import Testing

@testable import Host

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durability or a pause, never silence: when the journal cannot be saved, nobody sees what it would lose, the game
/// stands still for everyone with the reason, and it goes on by itself once a save succeeds.
@Suite("Saving or pausing, in-process")
struct SavingTests {
    /// Makes every journal write fail as on a full disk (or write again when `isFull` is false).
    static func disk(of host: EmbeddedHost, isFull: Bool) {
        if isFull {
            host.core.storage.writeJournalBytes = { _, _ in
                errno = ENOSPC
                return -1
            }
        } else {
            host.core.storage.writeJournalBytes = { fd, bytes in write(fd, bytes.baseAddress, bytes.count) }
        }
    }

    @Test func aFullDiskPausesEveryoneShowsNothingUnsavedAndPlayGoesOnOnceItSaves() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        let bob = try host.player("Bob", team: "Blue")
        let board = try host.watcher(.board)
        host.console("start shaky 2 easy")
        host.advance(by: 2_000)
        let everyone = [ann, bob, board]
        for connection in everyone { _ = connection.drain() }

        SavingTests.disk(of: host, isFull: true)
        ann.send(["type": "buzz"])  // the rules take it, the disk does not
        let stoppedAt = host.now
        for connection in everyone {
            let seen = connection.drain()
            let types = seen.compactMap { $0["type"]?.stringValue }
            #expect(!types.contains("buzzed") && !types.contains("turn"), "an unsaved buzz was shown: \(types)")
            let paused = try #require(seen.first { $0["type"] == "paused" })
            #expect(paused["at"]?.intValue == stoppedAt)
            #expect(paused["reason"]?.stringValue?.hasPrefix("The host cannot save: disk full") == true)
        }

        // While it cannot save, no clock runs out, nobody new is let in and nothing else changes.
        host.advance(by: 20_000)
        bob.send(["type": "buzz", "id": 5])
        #expect(try bob.expect("error")["code"] == "storage")
        let late = host.connect()
        late.send(["type": "hello", "room": "ROOM", "role": "board"])
        #expect(try late.expect("error")["code"] == "storage")
        let advice = host.console("continue")
        #expect(advice.contains { $0.contains("disk full") || $0.contains("No space left") }, "\(advice)")
        #expect(host.console("next").contains { $0.contains("cannot save") })
        for connection in everyone {
            let types = connection.types()
            #expect(!types.contains { ["buzzed", "turn", "reveal", "question", "result"].contains($0) }, "\(types)")
        }

        // Space again: what was held goes out first, then the clocks go on from where everyone saw them stop.
        SavingTests.disk(of: host, isFull: false)
        host.advance(by: 1_000)
        let resumedAt = host.now
        for connection in everyone {
            let types = connection.types()
            let buzzed = try #require(types.firstIndex(of: "buzzed"), "\(types)")
            let resumed = try #require(types.firstIndex(of: "resumed"), "\(types)")
            #expect(buzzed < resumed)
            #expect(types.contains("notice"))
        }
        let game = try #require(host.core.room.game as? ShakyHost)
        #expect(game.game.teamOnTurn == "Red")
        let answerDeadline = try #require(game.game.answerDeadline?.milliseconds)
        #expect(answerDeadline - resumedAt == 60_000, "the answer clock lost nothing while the host could not save")

        // The journal on disk is whole and replays to what everyone saw.
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        let replayedGame = try #require(replayed.game as? ShakyHost)
        #expect(replayedGame.game.teamOnTurn == "Red")
        #expect(replayedGame.game.answerDeadline?.milliseconds == answerDeadline)
        #expect(!replayedGame.game.isPaused)
    }

    /// The answer to input that journaled nothing (a ping) goes out before the turn's due work; input the journal
    /// must hold first (a buzz) waits for the turn's group commit, and so does anything once the clock lease ran out.
    @Test func onlyAnswersThatTellOfNothingUnsavedGoOutEarly() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        host.console("start shaky 2 easy")
        _ = ann.drain()
        host.core.received(Array(#"{"type":"ping","id":1}"#.utf8), from: ann.id)
        #expect(host.core.settleAnswersEarly(host.outlet))
        #expect(ann.drain().contains { $0["type"] == "pong" && $0["re"] == 1 }, "the pong is let out at once")
        host.turn()
        host.core.received(Array(#"{"type":"buzz"}"#.utf8), from: ann.id)
        #expect(!host.core.settleAnswersEarly(host.outlet), "a buzz is journaled: its answer waits for the disk")
        #expect(!ann.drain().contains { $0["type"] == "buzzed" })
        host.turn()
        #expect(ann.drain().contains { $0["type"] == "buzzed" })
        // Past the clock lease, even a pong waits: it carries a host time no record covers yet.
        host.now += JournalRecord.clockInterval * 2
        host.core.received(Array(#"{"type":"ping","id":2}"#.utf8), from: ann.id)
        #expect(!host.core.settleAnswersEarly(host.outlet))
        host.turn()
        #expect(ann.drain().contains { $0["type"] == "pong" && $0["re"] == 2 })
    }

    @Test func aFailedWriteLeavesNoPartialRecordBehind() throws {
        let host = try EmbeddedHost()
        _ = try host.player("Ann", team: "Red")
        let storage = host.core.storage
        let path = storage.journalPath
        let before = try #require(FileManager.default.contents(atPath: path))
        // Half of each write gets through, then the disk is full: as a real write on a full disk does.
        storage.writeJournalBytes = { fd, bytes in
            guard bytes.count > 1 else {
                errno = ENOSPC
                return -1
            }
            return write(fd, bytes.baseAddress, bytes.count / 2)
        }
        let bob = host.connect()
        bob.send(["type": "hello", "room": "ROOM", "name": "Bob", "team": "Blue"])
        #expect(host.core.isBlockedOnSaving)
        #expect(!bob.types().contains("welcome"), "a welcome whose join is not saved was shown")
        #expect(FileManager.default.contents(atPath: path) == before, "the half-written record was cut off")
        SavingTests.disk(of: host, isFull: false)
        host.advance(by: 1_000)
        #expect(!host.core.isBlockedOnSaving)
        #expect(bob.types().contains("welcome"))
        let reading = JournalFormat.read(Array(try #require(FileManager.default.contents(atPath: path))))
        #expect(reading.damagedLines.isEmpty && !reading.isTornAtEnd)
        let joins = reading.records.filter { $0["k"] == "join" }.compactMap { $0["player"]?["name"]?.stringValue }
        #expect(joins == ["Ann", "Bob"])
    }

    @Test func everyHostTimeAClientSeesIsCoveredByAClockRecord() throws {
        let host = try EmbeddedHost()
        let ann = try host.player("Ann", team: "Red")
        var seen: Int64 = 0
        for _ in 0..<20 {
            host.advance(by: 700)
            ann.send(["type": "ping", "id": 1])
            seen = max(seen, try ann.expect("pong")["hostTime"]?.intValue ?? 0)
        }
        let replayed = try JournalReplay.load(path: host.core.storage.journalPath)
        #expect(replayed.resumedClock >= seen, "a resumed host would show a hostTime earlier than one already seen")
        #expect(replayed.resumedClock <= host.now + JournalRecord.clockInterval, "an open clock loses at most that")
    }
}
