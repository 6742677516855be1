import Foundation

/// How much the host says on stderr.
package enum LogLevel: Int, Comparable, CaseIterable {
    case debug, info, warning, error

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Parses `debug`, `info`, `warning` (or `warn`), `error`.
    init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }
}

/// Timestamped log lines to a sink (stderr in the host), filtered by level.
package struct Logger {
    /// The lowest level written.
    var level: LogLevel
    /// Where lines go.
    var write: (String) -> Void
    /// Lines for a person at a terminal (`21:04:07 Ann joined team Red.`, `21:04:09 Warning: …`) rather than for a
    /// log file (`2026-11-23T20:04:07.123Z INFO Ann joined team Red.`).
    var isForPeople = false

    /// A logger writing to the host's terminal output (stderr), which never makes the loop wait; lines for people
    /// when that output is a terminal.
    static func console(_ output: ConsoleOutput, level: LogLevel) -> Logger {
        var logger = Logger(level: level) { line in output.write(line: line) }
        logger.isForPeople = isatty(output.fd) == 1
        return logger
    }

    /// The local wall-clock time, `21:04:07`: what lines for people start with.
    static func clockTime() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        // Not `String(format:)`: its variadic arguments go through dynamic casts, and the console stamps every
        // feed line of a game with this.
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec))"
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    }

    private func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        guard isForPeople else {
            return write("\(Logger.timestamp()) \(String(describing: level).uppercased()) \(message())")
        }
        let label = [LogLevel.debug: "debug: ", .warning: "Warning: ", .error: "Error: "][level] ?? ""
        write("\(Logger.clockTime()) \(label)\(message())")
    }

    func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}

extension Logger {
    /// A logger of `level` writing to `write`, with lines for a log file (what tests and tools outside the host use).
    package init(level: LogLevel, write: @escaping (String) -> Void) {
        self.level = level
        self.write = write
    }
}
