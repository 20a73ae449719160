import Foundation

/// Finds the file a command name (an argv's first word without `/`) runs, in `PATH`, before the
/// command is started: swift-subprocess starts a process for each `PATH` folder in turn until
/// one does not fail with "not found", so with the executable in the eighth folder a step paid
/// seven extra process starts (1–3 ms a step here; more with a long `PATH`). The checks are
/// `access` and `stat` of a few names, as swift-subprocess makes on the same thread.
enum ExecutableSearch {
    /// The folders searched when neither the step nor flow has a `PATH` (POSIX's standard one).
    static let defaultFolders = ["/usr/local/bin", "/usr/bin", "/bin"]

    /// The first regular file with execute permission named `name` in the folders of `path`
    /// (the step's `PATH` when it sets one, else flow's), as swift-subprocess would find it:
    /// relative and empty entries are skipped. Nil when there is none: the command is then
    /// started by name, and fails with swift-subprocess's own message.
    static func find(_ name: String, path: String?) -> String? {
        let folders = path.map { $0.split(separator: ":").map(String.init) } ?? defaultFolders
        for folder in folders where folder.hasPrefix("/") {
            let candidate = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// A regular file (after links) this process may execute: `access(X_OK)` alone would accept
    /// a folder.
    private static func isExecutableFile(_ path: String) -> Bool {
        guard access(path, X_OK) == 0 else { return false }
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
