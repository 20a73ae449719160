import ArgumentParser

/// flow's exit codes, in one place (Grammar.md, "Exit codes").
enum FlowExit: Int32 {
    /// The workflow succeeded (`validate`: every file is valid, warnings allowed).
    case succeeded = 0
    /// The workflow ran and failed (or a report could not be written).
    case failed = 1
    /// The workflow, an input, a secret or a report path is invalid: nothing ran.
    case invalid = 2
    /// A command-line usage error (ArgumentParser's own code for a validation error).
    case usage = 64
    /// Interrupted by SIGINT or SIGTERM.
    case interrupted = 130

    /// The code as ArgumentParser throws it to end a command.
    var exitCode: ExitCode { ExitCode(rawValue) }
}
