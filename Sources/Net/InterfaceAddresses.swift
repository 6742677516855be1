#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IPv4 addresses of this computer's network interfaces: where the host is reached, and what a board on the
/// host's own computer puts in the phones' QR code instead of loopback.
public enum InterfaceAddresses {
    /// Every interface's IPv4 address as text, loopback (127.x) last; just `127.0.0.1` when the system says nothing.
    public static func ipv4() -> [String] {
        var result: [String] = []
        var loopback: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return ["127.0.0.1"] }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let text: String = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var copy = pointer.pointee.sin_addr
                inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count))
                return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if text.hasPrefix("127.") { loopback.append(text) } else { result.append(text) }
        }
        return result + loopback
    }
}
