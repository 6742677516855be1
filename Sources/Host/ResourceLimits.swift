import Net

/// Process limits the host adjusts at start.
enum ResourceLimits {
    /// Raises RLIMIT_NOFILE to fit `clients` connections plus the host's own files; returns how many clients fit.
    ///
    /// When the limit cannot be raised far enough, the client limit is lowered with a warning, so the
    /// extra connection gets a clear "full" error instead of an accept failure.
    static func raiseOpenFiles(toFit clients: Int, log: Logger) -> Int {
        let wanted = clients + 64
        guard let limit = OpenFileLimit.raise(toAtLeast: wanted), limit < wanted else { return clients }
        let fitting = max(1, limit - 64)
        log.warning(
            "Can open only \(limit) files (wanted \(wanted) for --max-clients \(clients)); "
                + "lowering --max-clients to \(fitting). Raise the limit with ulimit -n to host more.")
        return fitting
    }
}
