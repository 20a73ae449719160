import FlowEngine

/// Process reaping for a program that can serve as its own reaper (the `flow` binary does): a
/// helper process, started from `FlowRunOptions.reaperExecutable`, that ends a run's commands and
/// services when the program itself dies, even by SIGKILL. Without it (the default for an app),
/// a run still stops everything it started when it ends or is cancelled; only a killed host
/// leaves its children behind (see "FlowKit" in README.md).
///
/// ```swift
/// // In main, before anything else: the reaper is this executable given `FlowReaper.command`.
/// if CommandLine.arguments.dropFirst().first == FlowReaper.command { FlowReaper.serve() }
/// options.reaperExecutable = FlowReaper.executablePath
/// ```
public enum FlowReaper {
    /// The first argument that makes the executable serve as the reaper (`flow`'s hidden subcommand).
    public static let command = ProcessReaper.command

    /// Serves as the reaper until the run's flow process is gone; never returns.
    public static func serve() -> Never {
        ProcessReaper.serve()
    }

    /// The absolute path of the running executable, to give `FlowRunOptions.reaperExecutable`.
    public static var executablePath: String { FlowExecutable.path }
}
