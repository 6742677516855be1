import Foundation

#if canImport(Glibc)
    import CSystem
    import Glibc
#endif

/// Why the packet-level test network cannot be built here, in words for a skipped test's message.
public struct DelayLineError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Creates an error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A named Linux network namespace (`ip netns`), created for a test network and removed with it.
///
/// Names start with `partyline-<pid>-`, so namespaces left by a process that died (a crashed or killed test run)
/// are recognised and removed by the next `sweepAbandoned()`.
public final class NetworkNamespace: @unchecked Sendable {
    /// The namespace's name under /var/run/netns.
    public let name: String
    private let lock = NSLock()
    private var isRemoved = false

    /// The prefix of every namespace this code creates.
    static let prefix = "partyline-"

    /// Creates namespace `partyline-<pid>-<suffix>` with its loopback up.
    public init(suffix: String) throws {
        name = "\(NetworkNamespace.prefix)\(getpid())-\(suffix)"
        try NetworkNamespace.ip(["netns", "add", name])
        do {
            try ip(["link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    deinit { remove() }

    /// Kills whatever still runs inside (processes this test network started) and deletes the namespace; idempotent.
    public func remove() {
        let shouldRemove = lock.withLock {
            defer { isRemoved = true }
            return !isRemoved
        }
        guard shouldRemove else { return }
        NetworkNamespace.remove(name)
    }

    /// Runs `ip -n <name> <arguments>`.
    public func ip(_ arguments: [String]) throws { try NetworkNamespace.ip(["-n", name] + arguments) }

    /// The command prefix that starts a program inside this namespace (`ip netns exec <name>`).
    public var launchPrefix: [String] { [NetworkNamespace.ipTool, "netns", "exec", name] }

    /// Runs `body` on a fresh thread that lives in this namespace, and returns its result.
    ///
    /// Sockets and TUN devices opened by `body` belong to this namespace for their whole life, wherever they are
    /// used later; the calling thread never changes namespace. `body` must not wait for work on other threads.
    public func run<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        #if canImport(Glibc)
            let path = "/var/run/netns/\(name)"
            let outcome = Outcome<T>()
            let thread = Thread {
                defer { outcome.done.signal() }
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else {
                    outcome.result = .failure(
                        DelayLineError("cannot open \(path): \(String(cString: strerror(errno)))"))
                    return
                }
                defer { close(fd) }
                // The thread ends after `body`, so it never has to find its way back to the original namespace.
                guard partyline_enter_network_namespace(fd) == 0 else {
                    let reason = String(cString: strerror(errno))
                    outcome.result = .failure(DelayLineError("cannot enter namespace \(self.name): \(reason)"))
                    return
                }
                outcome.result = Result { try body() }
            }
            thread.stackSize = 1 << 20
            thread.start()
            outcome.done.wait()
            return try outcome.result!.get()
        #else
            throw DelayLineError("network namespaces are a Linux feature")
        #endif
    }

    private final class Outcome<T>: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<T, any Error>?
    }

    // MARK: The ip tool

    /// Where iproute2's `ip` is.
    static let ipTool =
        ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"

    /// Runs `ip <arguments>` and throws with its error output if it fails.
    static func ip(_ arguments: [String]) throws {
        let (status, output) = try run(ipTool, arguments)
        guard status == 0 else {
            let said = output.trimmingCharacters(in: .whitespacesAndNewlines)
            throw DelayLineError("ip \(arguments.joined(separator: " ")) failed (\(status)): \(said)")
        }
    }

    /// Runs a program to its end; returns its exit status and everything it wrote.
    static func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw DelayLineError("cannot run \(program): \(error)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Kills the processes inside namespace `name` and deletes it.
    static func remove(_ name: String) {
        if let (_, pids) = try? run(ipTool, ["netns", "pids", name]) {
            for pid in pids.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) where pid != getpid() {
                kill(pid, SIGKILL)
            }
        }
        _ = try? run(ipTool, ["netns", "del", name])
    }

    /// Removes the namespaces left behind by earlier processes of this code that are no longer running.
    public static func sweepAbandoned() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/var/run/netns") else { return }
        for name in names where name.hasPrefix(prefix) {
            let owner = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(owner), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            remove(name)
        }
    }
}
