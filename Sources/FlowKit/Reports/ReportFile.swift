import Foundation

/// A `--report` file: checked before the run starts (so a typo in its folder does not cost a whole
/// run), then written atomically with POSIX calls, whose failures name the path and the reason in
/// words (`strerror`) rather than a Foundation error dump.
package struct ReportFile: Sendable {
    /// `json`, `junit`, `html` or `trace`.
    package let format: String
    /// Every format `--report` takes.
    package static let formats = ["json", "junit", "html", "trace"]

    /// Whether the report draws a timeline, which needs the run's events recorded (see TimelineRecorder).
    var needsTimeline: Bool { format == "html" || format == "trace" }
    /// The path as given.
    package let path: String

    /// A report of `format` (one of `formats`) to write at `path`.
    package init(format: String, path: String) {
        self.format = format
        self.path = path
    }

    /// Why the report could not be written there, or nil when it can (as far as can be known
    /// before writing): the folder exists and is writable, and the path is not a folder.
    package var problem: String? {
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { return reason("it is a folder") }
            if access(path, W_OK) != 0 { return reason(Self.describe(errno)) }
        }
        let folder = Self.folder(of: path)
        if stat(folder, &status) != 0 {
            let code = errno
            return reason(
                code == ENOENT ? "the folder '\(folder)' does not exist" : "'\(folder)': \(Self.describe(code))")
        }
        if status.st_mode & S_IFMT != S_IFDIR { return reason("'\(folder)' is not a folder") }
        // The atomic write creates a temporary file next to the report, so the folder must be writable.
        if access(folder, W_OK | X_OK) != 0 { return reason("the folder '\(folder)': \(Self.describe(errno))") }
        return nil
    }

    /// Writes `text` to a temporary file in the same folder and renames it over `path`, so a
    /// reader never sees half a report. Throws a message naming the path and the reason.
    func write(_ text: String) throws(Failure) {
        try write(bytes: Array(text.utf8))
    }

    /// Writes `bytes` as `write(_:)` writes a text.
    func write(bytes: [UInt8]) throws(Failure) {
        try write { sink in bytes.withUnsafeBytes { sink($0) } }
    }

    /// Writes what `produce` hands its sink, piece by piece in order, as `write(_:)` writes a text:
    /// the JSON report comes from its writer's small buffer, with no 15 MB array (or `String`) made
    /// on a 100,000-item `for-each`. After a failed write(2) the rest is not written, and the error
    /// is thrown once `produce` returns.
    func write(streaming produce: ((UnsafeRawBufferPointer) -> Void) -> Void) throws(Failure) {
        let temporary = Self.folder(of: path) + "/.\(Self.name(of: path)).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(message: reason(Self.describe(errno))) }
        var failure: Int32?
        produce { buffer in
            var written = 0
            while failure == nil, written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno != EINTR { failure = errno }
                    continue
                }
                written += count
            }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Failure(message: reason(Self.describe(failure)))
        }
    }

    /// A report that could not be written: the message says which and why.
    struct Failure: Error {
        let message: String
    }

    private func reason(_ why: String) -> String {
        "cannot write the \(format) report to '\(path)': \(why)"
    }

    /// The folder holding `path` (`.` for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `errno` in words, as `strerror` says it, lowercased to read inside a sentence.
    static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }
}
