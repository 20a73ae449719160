import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creates the state directory and proves it can take a journal, before any request is sent.
///
/// Asking (`access`, permission bits) is not enough: root passes every permission check, and an
/// immutable folder or a read-only mount only shows itself when a file is created; a full disk only
/// when bytes are written. So this creates a probe file, writes to it, and removes it.
enum StateDirectory {
    /// Bytes the probe writes: enough for SQLite's first pages and WAL header.
    static let probeSize = 64 * 1024

    static func prepare(_ directory: String) throws(JournalError) {
        try makeDirectories(directory)
        // A name no other process (or earlier probe of a killed process) uses.
        let probe = (directory as NSString).appendingPathComponent(
            ".journal-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor < 0 { throw failure(errno, directory: directory) }
        defer {
            close(descriptor)
            unlink(probe)
        }
        let zeros = [UInt8](repeating: 0, count: probeSize)
        var written = 0
        while written < zeros.count {
            let count = zeros.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, zeros.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno, directory: directory)
            }
            written += count
        }
    }

    /// `mkdir -p`, saying which folder could not be made and why.
    private static func makeDirectories(_ directory: String) throws(JournalError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
            if isFolder.boolValue { return }
            throw .io("state directory \(directory) is a file, not a folder; use --state-dir or FLOW_STATE_DIR")
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if parent != directory, !parent.isEmpty { try makeDirectories(parent) }
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw failure(errno, directory: directory)
        }
    }

    static func failure(_ code: Int32, directory: String) -> JournalError {
        switch code {
        case ENOSPC, EDQUOT: return .full(directory)
        case EROFS, EACCES, EPERM: return .readOnly(directory, reason: String(cString: strerror(code)))
        default: return .io("state directory \(directory) cannot be used: \(String(cString: strerror(code)))")
        }
    }
}
