import FlowEngine

/// The `flow` binary's side of process reaping, for the command line only (an app has no reaper
/// process; see "FlowKit" in README.md): the hidden subcommand that makes `flow` the process that
/// ends a run's commands and services when flow itself dies, and where `flow run` finds itself.
package enum ReaperEntry {
    /// The hidden subcommand's name.
    package static let command = ProcessReaper.command

    /// Serves as the reaper until the run's flow process is gone; never returns.
    package static func serve() -> Never {
        ProcessReaper.serve()
    }

    /// The absolute path of the running `flow` binary, which reaps a run's processes.
    package static var executablePath: String { FlowExecutable.path }
}
