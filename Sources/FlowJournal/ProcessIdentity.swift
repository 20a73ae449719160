import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who runs a run: enough to tell later whether that process is still alive.
///
/// A run recorded as running is shown as interrupted when its process is gone. The pid alone is
/// not enough: pids are reused and a machine restarts, so the journal also keeps the process's
/// start time (Linux: /proc/PID/stat) and the host's name and boot id.
struct ProcessIdentity: Sendable, Equatable {
    var pid: Int
    /// The process's start time in clock ticks since boot, "" where it cannot be read.
    var started: String
    /// "hostname boot-id".
    var host: String

    /// This process.
    static let current = ProcessIdentity(
        pid: Int(getpid()), started: startTime(of: Int(getpid())) ?? "", host: hostIdentity())

    /// True while the recorded process still runs on this machine since its last boot.
    /// A run from another host or an earlier boot is gone: it cannot be checked, and a run
    /// whose machine restarted was interrupted.
    func isAlive() -> Bool {
        let here = ProcessIdentity.current
        guard host == here.host else { return false }
        if pid == here.pid { return started == here.started }
        guard pid > 0, pid <= Int(Int32.max) else { return false }
        // kill(pid, 0) sends nothing; EPERM means the process exists but belongs to someone else.
        if kill(pid_t(pid), 0) != 0, errno != EPERM { return false }
        guard !started.isEmpty, let now = ProcessIdentity.startTime(of: pid) else { return true }
        return now == started
    }

    /// Field 22 of /proc/PID/stat (starttime), read after the command name, which may hold spaces.
    static func startTime(of pid: Int) -> String? {
        guard let stat = smallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ") " come state (field 3) onwards: starttime is field 22, so index 19 here.
        return fields.count > 19 ? String(fields[19]) : nil
    }

    private static func hostIdentity() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown-host"
        // A UUID and a line break; trimmed by hand, as Foundation's character sets cost a first use.
        let boot = String(
            decoding: (smallFile("/proc/sys/kernel/random/boot_id") ?? "").utf8.filter { $0 > 32 }, as: UTF8.self)
        return boot.isEmpty ? host : "\(host) \(boot)"
    }

    /// The text of a small file (up to 4 KB: the /proc files above), nil when it cannot be read.
    /// Read with `open` and `read`: Foundation's `String(contentsOfFile:)` costs about 1 ms the
    /// first time, more than the rest of opening the journal.
    private static func smallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < buffer.count {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}
