import Foundation
import Net
import Protocol
import Testing

@testable import Host

/// The transport spreads a big fan-out over several turns and answers input read between them first (#29).
@Suite struct TransportWriteBudgetTests {
    /// Records what the transport reports: the sessions in the order their first line named them.
    final class Recorder: TransportEvents {
        weak var transport: Transport?
        var ids: [Int: SessionID] = [:]
        var lines: [(SessionID, String)] = []
        static let answer = Array("{\"type\":\"pong\"}\n".utf8)
        func opened(_ id: SessionID, peer: String) {}
        func received(_ line: [UInt8], from id: SessionID) {
            let text = String(decoding: line, as: UTF8.self)
            lines.append((id, text))
            if let index = Int(text) { ids[index] = id }
            if text == "ping" { transport?.send(Recorder.answer, to: id) }
        }
        func lineTooLong(from id: SessionID, limit: Int) {}
        func unfinishedSubnegotiation(from id: SessionID) {}
        func closed(_ id: SessionID, reason: String) {}
        func upgraded(_ id: SessionID) {}
        func heard(from id: SessionID, isPing: Bool) -> Bool { true }
        func recording(list: String, file: String) -> (bytes: [UInt8], contentType: String)? { nil }
    }

    /// Reads what a client socket holds now, without waiting.
    static func available(_ socket: Socket) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs loop turns (without waiting) until `done` holds; false after 5 s.
    static func turn(_ transport: Transport, until done: () -> Bool) throws -> Bool {
        let started = MonotonicClock.milliseconds()
        while !done() {
            for readiness in try transport.poller.wait(timeoutMilliseconds: 10) {
                _ = transport.handle(readiness, at: MonotonicClock.milliseconds())
            }
            transport.commitOutput()
            transport.flushDirty()
            if MonotonicClock.milliseconds() - started > 5000 { return false }
        }
        return true
    }

    @Test func aFanOutOverTheBudgetGoesOutOverSeveralTurnsAndAnAnswerGoesFirst() throws {
        let transport = try Transport(
            bindAddress: "127.0.0.1", port: 0,
            limits: .init(maxClients: 500, connectionsPerSecond: 0, maximumOutputBytes: 1 << 20),
            log: Logger(level: .error) { _ in })
        let recorder = Recorder()
        transport.events = recorder
        recorder.transport = transport
        let count = 400
        var clients: [Socket] = []
        defer { for client in clients { client.close() } }
        for index in 0..<count {
            let client = try Socket.connectBlocking(host: "127.0.0.1", port: transport.port)
            clients.append(client)
            let line = Array("\(index)\n".utf8)
            _ = line.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, 0) }
        }
        #expect(try Self.turn(transport) { recorder.ids.count == count })
        // Every look at the clock is a millisecond later: a 3 ms budget writes three checks' worth of links.
        var clock: Int64 = 0
        transport.writeClock = {
            clock += 1_000_000
            return clock
        }
        transport.writeBudgetNanoseconds = 3_000_000

        let news = Array("{\"type\":\"news\"}\n".utf8)
        for index in 0..<count { transport.send(news, to: recorder.ids[index]!) }
        transport.commitOutput()
        transport.flushDirty()
        #expect(transport.hasWriteBacklog)
        usleep(20_000)
        let firstTurn = clients.map { Self.available($0) }
        let written = firstTurn.filter { !$0.isEmpty }.count
        #expect(written == 96, "32 links between looks at the clock, three looks")
        #expect(firstTurn.prefix(written).allSatisfy { $0 == String(decoding: news, as: UTF8.self) })

        // The last client speaks: its answer goes out in the turn that read it (after the news it is owed, in
        // order), while the clients queued ahead of it still wait.
        let last = clients[count - 1]
        let question = Array("ping\n".utf8)
        _ = question.withUnsafeBytes { send(last.fd, $0.baseAddress, $0.count, 0) }
        #expect(try Self.turn(transport) { recorder.lines.last?.1 == "ping" })
        usleep(20_000)
        #expect(Self.available(last) == String(decoding: news + Recorder.answer, as: UTF8.self))
        #expect(Self.available(clients[count - 2]).isEmpty, "the queue ahead of it is not written yet")
        #expect(transport.hasWriteBacklog)

        #expect(try Self.turn(transport) { !transport.hasWriteBacklog })
        usleep(20_000)
        let rest = clients.dropLast().enumerated().map { index, client in
            (index < written ? firstTurn[index] : "") + Self.available(client)
        }
        #expect(rest.filter { $0 == String(decoding: news, as: UTF8.self) }.count == count - 1, "each once, in full")
    }
}
