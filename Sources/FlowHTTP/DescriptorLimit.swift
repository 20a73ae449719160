#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit of open file descriptors (`ulimit -n`), which every connection counts against.
///
/// Many requests in flight need many sockets; past the limit `socket()` fails with `EMFILE`, which
/// curl reports as "Couldn't connect" — indistinguishable from a dead server. So a program about to
/// open many connections raises its soft limit as far as the hard limit allows, and each client
/// caps its connections below what is left (further requests wait for a free connection).
package enum DescriptorLimit {
    /// Raises the soft limit to the hard limit (the most an unprivileged process may have);
    /// returns the soft limit in force afterwards, `nil` when unlimited.
    @discardableResult
    package static func raiseSoftLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return current }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Self.resource, &raised) != 0, limit.rlim_max == Self.unlimited {
                // Linux refuses an unlimited soft limit above fs.nr_open; its usual value is a
                // fine ceiling.
                raised.rlim_cur = 1 << 20
                _ = setrlimit(Self.resource, &raised)
            }
        }
        return current
    }

    /// The soft limit now, `nil` when unlimited.
    package static var current: Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0, limit.rlim_cur != Self.unlimited else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// The most connections a client should open at once so that sockets never run the process out
    /// of descriptors (see `descriptorShare`). `nil` when there is no limit worth a cap.
    package static var connectionCap: Int? { descriptorShare }

    /// The descriptors one kind of many (connections, or the pipes of commands) may hold at once:
    /// the limit minus those already open, minus headroom for everything else the program opens
    /// meanwhile (files, the journal, the report) — 32 descriptors or an eighth of the limit,
    /// whichever is more. `nil` when unlimited. Never below 4, so work still progresses when the
    /// limit is tiny.
    package static var descriptorShare: Int? {
        guard let limit = current else { return nil }
        let available = limit - openDescriptors()
        let headroom = max(32, limit / 8)
        return max(4, available - headroom)
    }

    /// `too many open files (ulimit -n 256)`: what flow says when the limit stopped something.
    package static var exhaustedReason: String {
        "too many open files (ulimit -n \(current.map(String.init) ?? "unlimited"))"
    }

    /// How many descriptors the process has open (entries of /proc/self/fd, or the lowest free
    /// ones counted where there is no /proc).
    static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 3 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let first = withUnsafeBytes(of: entry.pointee.d_name) { $0.first ?? 0 }
            if first != UInt8(ascii: ".") { count += 1 }
        }
        // The directory's own descriptor was counted and is about to close.
        return max(0, count - 1)
    }

    /// `RLIM_INFINITY` (all ones; Swift cannot import the macro's `-1`).
    private static let unlimited = rlim_t.max

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
