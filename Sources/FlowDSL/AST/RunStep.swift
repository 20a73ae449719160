/// A `run:` step: a local command.
package struct RunStep: Sendable, Hashable {
    /// What to execute.
    package enum Command: Sendable, Hashable {
        /// A script for `/bin/sh -c`; its `${{ }}` values arrive as environment variables.
        case script(ScalarText)
        /// An argv executed without a shell.
        case arguments([ScalarText])
    }

    /// The command.
    package let command: Command
    /// Extra environment variables (on top of the workflow's `env`).
    package let env: [NamedValue]
    /// The working directory (default: the current one).
    package let cwd: ScalarText?
    /// Where `run:` is written.
    package let location: SourceLocation

    /// Creates a run step.
    package init(command: Command, env: [NamedValue], cwd: ScalarText?, location: SourceLocation) {
        self.command = command
        self.env = env
        self.cwd = cwd
        self.location = location
    }
}
