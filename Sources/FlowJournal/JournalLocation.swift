import Foundation

/// Where journals live, decided in one place for `flow run` and `flow runs`.
package enum JournalLocation {
    /// The environment variable that moves the state directory.
    package static let environmentVariable = "FLOW_STATE_DIR"

    /// The state directory: `explicit` (`--state-dir`) when given, else `FLOW_STATE_DIR` when set and
    /// not empty, else `.flow` beside the workflow file, else (no file) `.flow` in the current directory.
    /// Relative paths are taken from the current directory; the result is absolute.
    package static func stateDirectory(
        explicit: String?, workflowFile: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let explicit, !explicit.isEmpty { return absolute(explicit) }
        if let variable = environment[environmentVariable], !variable.isEmpty { return absolute(variable) }
        guard let workflowFile else { return absolute(".flow") }
        let folder = (canonicalFile(workflowFile) as NSString).deletingLastPathComponent
        return (folder as NSString).appendingPathComponent(".flow")
    }

    /// The workflow file's path as runs are keyed by: absolute, with symbolic links resolved when the
    /// file exists, so that `flow run ./a.yaml` and `flow runs /abs/a.yaml` name the same runs.
    package static func canonicalFile(_ path: String) -> String {
        let full = absolute(path)
        guard let resolved = realpath(full, nil) else { return full }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` made absolute against the current directory, with `.` and `..` removed.
    static func absolute(_ path: String) -> String {
        let full =
            path.hasPrefix("/")
            ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }
}
