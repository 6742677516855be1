#if canImport(Glibc)
    import Glibc
    import CSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operating system's own measurement of a TCP connection's round trip, in microseconds.
///
/// The kernel times its segments against their ACKs, which the peer's kernel sends whatever the peer's
/// application does, so a client cannot make its connection look slower than its path by answering late.
public struct KernelRoundTrip: Equatable, Sendable {
    /// The lowest round trip seen recently (Linux: `tcpi_min_rtt`, a 5-minute window including the handshake);
    /// nil where the platform keeps no minimum.
    public var minimum: Int64?
    /// The smoothed round trip (`tcpi_rtt`); it runs up to ~15 ms high when the peer delays its ACKs.
    public var smoothed: Int64
    /// The smoothed round trip's mean deviation.
    public var variation: Int64

    /// Creates a measurement from its figures, in microseconds.
    public init(minimum: Int64?, smoothed: Int64, variation: Int64) {
        self.minimum = minimum
        self.smoothed = smoothed
        self.variation = variation
    }

    /// The cleanest figure the platform has (the minimum, else the smoothed round trip), in whole ms rounded up.
    public var cleanMilliseconds: Int64 { ((minimum ?? smoothed) + 999) / 1000 }
}

extension Socket {
    /// The kernel's round trip of this TCP connection, or nil when it cannot tell (not TCP, not connected, no sample).
    public func kernelRoundTrip() -> KernelRoundTrip? {
        #if canImport(Glibc)
            var smoothed: UInt32 = 0
            var variation: UInt32 = 0
            var minimum: UInt32 = 0
            guard partyline_tcp_round_trip(fd, &smoothed, &variation, &minimum) == 0 else { return nil }
            let lowest: Int64? = minimum == UInt32.max ? nil : Int64(minimum)
            guard lowest != nil || smoothed > 0 else { return nil }
            return KernelRoundTrip(minimum: lowest, smoothed: Int64(smoothed), variation: Int64(variation))
        #elseif canImport(Darwin)
            // Darwin keeps no minimum; its figures are in ms.
            var info = tcp_connection_info()
            var length = socklen_t(MemoryLayout<tcp_connection_info>.size)
            guard getsockopt(fd, IPPROTO_TCP, TCP_CONNECTION_INFO, &info, &length) == 0, info.tcpi_srtt > 0 else {
                return nil
            }
            return KernelRoundTrip(
                minimum: nil, smoothed: Int64(info.tcpi_srtt) * 1000,
                variation: Int64(info.tcpi_rttvar) * 1000)
        #else
            return nil
        #endif
    }
}
