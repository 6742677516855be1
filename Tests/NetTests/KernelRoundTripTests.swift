import Net
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct KernelRoundTripTests {
    @Test func aLoopbackConnectionReportsASmallRoundTrip() throws {
        let listener = try Socket.makeListener(address: "127.0.0.1", port: 0)
        defer { listener.close() }
        let client = Peer(try Socket.connectBlocking(host: "127.0.0.1", port: try listener.localPort()))
        defer { client.socket.close() }
        var descriptor = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 5_000) == 1)
        let server = Peer(try listener.accept().0)
        defer { server.socket.close() }
        try client.sendStamp()
        _ = try server.receiveStampAge()
        let measured = try #require(server.socket.kernelRoundTrip())
        #expect(measured.minimum != nil, "Linux reports tcpi_min_rtt")
        #expect(measured.cleanMilliseconds >= 1 && measured.cleanMilliseconds <= 5, "\(measured)")
        #expect(Socket(fd: -1).kernelRoundTrip() == nil)
    }
}
