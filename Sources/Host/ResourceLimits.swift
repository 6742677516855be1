#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process limits the host adjusts at start.
enum ResourceLimits {
    /// Raises RLIMIT_NOFILE to fit `clients` connections plus the host's own files, warning when it can't.
    static func raiseOpenFiles(toFit clients: Int, log: Logger) {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return }
        let wanted = rlim_t(clients + 64)
        guard limit.rlim_cur < wanted else { return }
        var raised = limit
        raised.rlim_cur = min(wanted, limit.rlim_max)
        if setrlimit(resource, &raised) != 0 || raised.rlim_cur < wanted {
            log.warning("Can open only \(raised.rlim_cur) files (wanted \(wanted) for --max-clients \(clients)); "
                + "about \(Int(raised.rlim_cur) - 64) clients fit. Raise the limit with `ulimit -n`.")
        }
    }
}
