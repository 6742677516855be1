import DelayLine
import Foundation
import Net
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A connected pair through link `link` of `network`: the host's accepted end and the client's end.
private func connectedPair(_ network: DelayedNetwork, link: Int) throws -> (host: Peer, client: Peer) {
    let listener = try network.inHostNamespace { try Socket.makeListener(address: "0.0.0.0", port: 0) }
    defer { listener.close() }
    let port = try listener.localPort()
    let client = try network.connect(link: link, port: port)
    var descriptor = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, 5_000) == 1 else { throw DelayLineError("the host side accepted nothing") }
    let (accepted, peer) = try listener.accept()
    #expect(peer == network.clientAddress(link: link))
    return (Peer(accepted), Peer(client))
}

private func median(_ values: [Int64]) -> Int64 { values.sorted()[values.count / 2] }

/// How long one stamp took from `sender` to `receiver`, ns.
private func transit(from sender: Peer, to receiver: Peer) throws -> Int64 {
    try sender.sendStamp()
    return try receiver.receiveStampAge()
}

@Suite struct DelayScheduleTests {
    @Test func jitterStaysWithinItsBoundsAndNeverReorders() {
        var schedule = DelaySchedule(OneWayDelay(80, jitter: 10), seed: 7)
        var previous = Int64.min
        var holds: [Int64] = []
        for packet in 0..<2_000 {
            let arrival = Int64(packet) * 1_000_000  // one packet a millisecond: closer than the jitter's spread
            let release = schedule.release(arrivedAt: arrival)
            #expect(release >= previous, "packet \(packet) would overtake the one before it")
            previous = release
            holds.append(release - arrival)
        }
        #expect(holds.min()! >= 70_000_000)
        #expect(holds.max()! <= 91_000_000)  // 90 ms at most, plus what keeping order adds at 1 ms spacing
        // Packets far apart get the full spread of the jitter.
        var sparse = DelaySchedule(OneWayDelay(80, jitter: 10), seed: 7)
        let spread = (0..<500).map { sparse.release(arrivedAt: Int64($0) * 1_000_000_000) - Int64($0) * 1_000_000_000 }
        #expect(spread.min()! < 72_000_000 && spread.max()! > 88_000_000)
        #expect(spread.allSatisfy { $0 >= 70_000_000 && $0 <= 90_000_000 })
    }

    @Test func theSameSeedGivesTheSameDelays() {
        var a = DelaySchedule(OneWayDelay(5, jitter: 2), seed: 42)
        var b = DelaySchedule(OneWayDelay(5, jitter: 2), seed: 42)
        var c = DelaySchedule(OneWayDelay(5, jitter: 2), seed: 43)
        let times = (0..<20).map { Int64($0) * 50_000_000 }
        let first = times.map { a.release(arrivedAt: $0) }
        #expect(first == times.map { b.release(arrivedAt: $0) })
        #expect(first != times.map { c.release(arrivedAt: $0) })
        var none = DelaySchedule(.none, seed: 1)
        #expect(none.release(arrivedAt: 123) == 123)
    }
}

/// The packet-level delay line end to end: real TCP between namespaces, one-way delays timed on the shared clock.
@Suite(
    .serialized,
    .enabled(
        if: DelayedNetwork.unavailableReason == nil,
        Comment(rawValue: DelayedNetwork.unavailableReason ?? "")))
struct DelayedNetworkTests {
    @Test func eachDirectionIsDelayedAsConfiguredAndTheKernelSeesIt() throws {
        let network = try DelayedNetwork(links: [LinkDelay(down: OneWayDelay(40), up: OneWayDelay(5)), .symmetric(2)])
        defer { network.close() }
        let (host, client) = try connectedPair(network, link: 0)
        defer {
            host.socket.close()
            client.socket.close()
        }
        var down: [Int64] = []
        var up: [Int64] = []
        var samples = UndisturbedSamples(network)
        for _ in 0..<10 {
            down.append(try samples.take { try transit(from: host, to: client) } / 1_000_000)
            up.append(try samples.take { try transit(from: client, to: host) } / 1_000_000)
        }
        print("Delay line 40 down / 5 up: \(down) / \(up) ms; \(samples.void) samples void (taken again)")
        // Never early; late only by scheduling (a sample disturbed by a busy machine is taken again), so the median
        // sits on the delay.
        #expect(down.allSatisfy { $0 >= 40 && $0 <= 55 } && median(down) <= 42, "host → client \(down) ms")
        #expect(up.allSatisfy { $0 >= 5 && $0 <= 20 } && median(up) <= 7, "client → host \(up) ms")
        // TCP's own round trip on both ends is the path's: 45 ms, whoever measures it.
        for side in [host, client] {
            let kernel = try #require(side.socket.kernelRoundTrip())
            #expect(kernel.cleanMilliseconds >= 45 && kernel.cleanMilliseconds <= 49, "\(kernel)")
        }
        // The second link is independent of the first.
        let (fastHost, fastClient) = try connectedPair(network, link: 1)
        defer {
            fastHost.socket.close()
            fastClient.socket.close()
        }
        let fast = try samples.take { try transit(from: fastHost, to: fastClient) } / 1_000_000
        #expect(fast >= 2 && fast <= 5, "link 1 host → client \(fast) ms")
        #expect(network.forwarded[0].down >= 10 && network.forwarded[0].up >= 10 && network.forwarded[0].dropped == 0)
    }

    @Test func jitterVariesTheDelayWithinItsBounds() throws {
        let network = try DelayedNetwork(links: [.symmetric(20, jitter: 5)], seed: 99)
        defer { network.close() }
        let (host, client) = try connectedPair(network, link: 0)
        defer {
            host.socket.close()
            client.socket.close()
        }
        var delays: [Int64] = []
        var samples = UndisturbedSamples(network)
        for _ in 0..<30 {
            delays.append(try samples.take { try transit(from: client, to: host) } / 100_000)  // tenths of a ms
            usleep(20_000)  // apart, so each message gets its own draw
        }
        print("Delay line 20 ± 5 ms: \(delays) tenths of a ms; \(samples.void) samples void (taken again)")
        #expect(delays.allSatisfy { $0 >= 150 }, "never below 20 − 5 ms: \(delays)")
        #expect(delays.filter { $0 > 270 }.count <= 3, "above 20 + 5 ms only when the machine was busy: \(delays)")
        #expect(delays.max()! - delays.min()! >= 40, "jitter should spread the delays: \(delays)")
    }

    @Test func closingRemovesTheNamespacesAndWhatRanInThem() throws {
        let network = try DelayedNetwork(links: [.symmetric(1)])
        let names = [network.hostNamespace.name] + network.clientNamespaces.map(\.name)
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: network.hostLaunchPrefix[0])
        sleeper.arguments = Array(network.hostLaunchPrefix.dropFirst()) + ["sleep", "30"]
        try sleeper.run()
        usleep(200_000)
        for name in names { #expect(FileManager.default.fileExists(atPath: "/var/run/netns/\(name)")) }
        network.close()
        sleeper.waitUntilExit()  // killed with the namespace, long before its 30 s
        #expect(sleeper.terminationReason == .uncaughtSignal)
        for name in names {
            #expect(!FileManager.default.fileExists(atPath: "/var/run/netns/\(name)"), "\(name) is left")
        }
    }
}

private typealias LinkDelay = DelayedNetwork.LinkDelay
