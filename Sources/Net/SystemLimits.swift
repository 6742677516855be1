#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many files (sockets included) this process may have open at once: RLIMIT_NOFILE's soft limit.
public enum OpenFileLimit {
    /// The soft limit now, or nil when the system does not say.
    public static func current() -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to at least `wanted`, as far as the hard limit allows (`Int.max`: to the hard limit);
    /// returns the soft limit then in force, or nil when the system does not say. Never lowers it.
    @discardableResult
    public static func raise(toAtLeast wanted: Int) -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let target = rlim_t(clamping: wanted)
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = min(target, limit.rlim_max)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}

/// The size of the terminal a descriptor writes to.
public enum TerminalSize {
    /// Columns and rows of the terminal behind `fd`, or nil when it is no terminal (or says nothing).
    public static func of(_ fd: Int32) -> (width: Int, height: Int)? {
        var window = winsize()
        #if canImport(Glibc)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = TIOCGWINSZ
        #endif
        guard ioctl(fd, request, &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }
}
