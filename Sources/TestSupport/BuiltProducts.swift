import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where SwiftPM put the built executables: beside the test binary (Linux), the test bundle (macOS) or the bench.
public enum BuiltProducts {
    /// The folder that holds `partyline-host`, searched from the running executable outwards.
    public static var directory: URL {
        var candidates = [
            URL(fileURLWithPath: currentExecutable).deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for candidate in candidates
        where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("partyline-host").path) {
            return candidate
        }
        return candidates[0]
    }

    /// The built executable called `name` (`partyline-host`, `partyline`, `partyline-bench`).
    public static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The path of the built executable called `name`.
    public static func path(_ name: String) -> String { executable(name).path }

    /// The path of the running executable itself.
    public static var currentExecutable: String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}

/// A fresh temporary folder, removed with everything in it when this value goes away.
public final class TemporaryDirectory {
    /// The folder's path.
    public let path: String

    /// Creates a folder named `prefix` and a unique suffix in the system's temporary folder.
    public init(prefix: String = "partyline-test-") {
        path = NSTemporaryDirectory() + prefix + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A test step that did not happen in time, or a process or connection that misbehaved.
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates an error that says `description`.
    public init(_ description: String) { self.description = description }
}
