#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process limits the host adjusts at start.
enum ResourceLimits {
    /// Raises RLIMIT_NOFILE to fit `clients` connections plus the host's own files; returns how many clients fit.
    ///
    /// When the limit cannot be raised far enough, the client limit is lowered with a warning, so the
    /// extra connection gets a clear "full" error instead of an accept failure.
    static func raiseOpenFiles(toFit clients: Int, log: Logger) -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return clients }
        let wanted = rlim_t(clients + 64)
        guard limit.rlim_cur < wanted else { return clients }
        var raised = limit
        raised.rlim_cur = min(wanted, limit.rlim_max)
        if setrlimit(resource, &raised) != 0 { raised = limit }
        guard raised.rlim_cur < wanted else { return clients }
        let fitting = max(1, Int(raised.rlim_cur) - 64)
        log.warning("Can open only \(raised.rlim_cur) files (wanted \(wanted) for --max-clients \(clients)); "
            + "lowering --max-clients to \(fitting). Raise the limit with `ulimit -n` to host more.")
        return fitting
    }
}
