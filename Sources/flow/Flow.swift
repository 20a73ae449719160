import ArgumentParser
import FlowKit
import Foundation

/// The `flow` command line: runs, checks and explains workflow files.
@main
struct Flow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flow",
        abstract: "Run declarative HTTP, upload and command workflows written in YAML.",
        discussion: """
            A workflow is a YAML file of steps (HTTP requests, chunked uploads, local commands, waits), \
            the dependencies between them, and parallel groups that finish when any or all children succeed. \
            See Grammar.md for the language.
            """,
        version: FlowVersion.current,
        subcommands: [
            ValidateCommand.self, RunCommand.self, GraphCommand.self, SchemaCommand.self, SandboxCommand.self,
            ExportCommand.self, RunsCommand.self, ReaperCommand.self,
        ]
    )

    /// ArgumentParser's own `main`, on the main thread. A command that is not `async` (`validate`,
    /// `graph`, `export`, `runs`) then runs there rather than on a Dispatch worker, where glibc gives
    /// the thread an arena of its own and grows it one `mprotect` call a page: that cost `flow
    /// validate` of 10,000 steps about a tenth of its time (BENCHMARKS.md, Validate, round eight).
    @MainActor static func main() async {
        // The reaper (started with a run's first command) before ArgumentParser: its parse costs
        // a few ms of reflection and conformance lookups, on the core the run needs, every time.
        if CommandLine.arguments.dropFirst().elementsEqual([FlowReaper.command]) {
            FlowReaper.serve()
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            // How every `flow run` ends, success too. ArgumentParser's `exit(withError:)` builds the
            // command line's help generator only to find that an exit code prints nothing, then
            // calls `exit` (0.2% of a 10,000-step run's samples, issue 32): the same exit, directly.
            Foundation.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

/// `flow reap-process-groups` (hidden): the process that ends flow's commands and services when
/// flow itself dies (see `FlowReaper`).
struct ReaperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: FlowReaper.command, abstract: "Internal: ends flow's process groups when flow dies.",
        shouldDisplay: false)

    func run() {
        FlowReaper.serve()
    }
}
