import Foundation

/// The path of the running flow binary, for `${{ flow.executable }}`: a workflow can start
/// `flow sandbox` without knowing where flow is installed.
package enum FlowExecutable {
    /// The absolute path of the running binary: `/proc/self/exe` resolved, else `argv[0]` resolved
    /// against the current directory or `PATH`.
    package static let path: String = {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            target.hasPrefix("/")
        {
            return target
        }
        let first = CommandLine.arguments.first ?? "flow"
        if first.contains("/") {
            return URL(fileURLWithPath: first).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(first)"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate).standardizedFileURL.resolvingSymlinksInPath().path
            }
        }
        return first
    }()
}
