import Foundation
import Net

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about this computer that the host shows people.
enum HostInfo {
    /// The computer's name.
    static var name: String { ProcessInfo.processInfo.hostName.components(separatedBy: ".").first ?? "partyline" }

    /// The IPv4 addresses of this computer's network interfaces (loopback last).
    static func addresses() -> [String] { InterfaceAddresses.ipv4() }
}
