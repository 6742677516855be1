import Net
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loop's readiness wait has no descriptor-number limit (no fixed-size descriptor set, as `select` has).
@Suite struct PollerTests {
    @Test func readinessIsReportedForDescriptorsFarAboveFDSetSize() throws {
        guard let limit = OpenFileLimit.raise(toAtLeast: 5000), limit >= 5000 else {
            Issue.record("cannot raise RLIMIT_NOFILE to 5000 for this test")
            return
        }
        let poller = try Poller()
        var pairs: [(reader: Int32, writer: Int32)] = []
        defer {
            for pair in pairs {
                poller.remove(pair.reader)
                close(pair.reader)
                close(pair.writer)
            }
        }
        for number in [1023, 1024, 1025, 2047, 4093] {
            var fds: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Socket.streamType, 0, &fds) == 0)
            // Move the reading end to a high descriptor number, as a busy host's newest connection gets.
            #expect(dup2(fds[0], Int32(number)) == Int32(number))
            close(fds[0])
            pairs.append((Int32(number), fds[1]))
            try poller.add(Int32(number), interest: .read)
        }
        for pair in pairs {
            var byte: UInt8 = 1
            #expect(write(pair.writer, &byte, 1) == 1)
        }
        var ready: Set<Int32> = []
        for _ in 0..<10 where ready.count < pairs.count {
            for readiness in try poller.wait(timeoutMilliseconds: 1000) where readiness.isReadable {
                ready.insert(readiness.fd)
            }
        }
        #expect(ready == Set(pairs.map(\.reader)))
    }
}
