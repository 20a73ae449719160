/// A `run:` step: a local command.
public struct RunStep: Sendable, Hashable {
    /// What to execute.
    public enum Command: Sendable, Hashable {
        /// A script for `/bin/sh -c`; its `${{ }}` values arrive as environment variables.
        case script(ScalarText)
        /// An argv executed without a shell.
        case arguments([ScalarText])
    }

    /// The command.
    public let command: Command
    /// Extra environment variables (on top of the workflow's `env`).
    public let env: [NamedValue]
    /// The working directory (default: the current one).
    public let cwd: ScalarText?
    /// Where `run:` is written.
    public let location: SourceLocation

    /// Creates a run step.
    public init(command: Command, env: [NamedValue], cwd: ScalarText?, location: SourceLocation) {
        self.command = command
        self.env = env
        self.cwd = cwd
        self.location = location
    }
}
