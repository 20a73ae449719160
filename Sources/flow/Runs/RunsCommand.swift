import ArgumentParser
import FlowKit
import Foundation

/// `flow runs`: what the journal remembers of earlier runs.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List a workflow's recorded runs, or show one run's steps.",
        usage: """
            flow runs [FILE] [--state-dir DIR] [--format plain|json]
              flow runs show ID [FILE] [--state-dir DIR] [--format plain|json]
            """,
        discussion: """
            Every `flow run` keeps a journal in a state directory: `--state-dir DIR` when given, else \
            $FLOW_STATE_DIR when set, else `.flow` beside the workflow file (with no file: `.flow` in the \
            current directory). Each file keeps its 50 newest runs, plus the newest unfinished one.
            """,
        subcommands: [RunsListCommand.self, RunsShowCommand.self],
        defaultSubcommand: RunsListCommand.self
    )
}

/// The `--format` values of `flow runs` and `flow runs show`.
enum RunsFormat: String, ExpressibleByArgument, CaseIterable {
    case plain
    case json
}

/// Where to find the journal: options shared by `flow runs` and `flow runs show`.
struct JournalOptions: ParsableArguments {
    @Option(
        name: .customLong("state-dir"), help: "The journal's folder (default: $FLOW_STATE_DIR, else .flow beside FILE)."
    )
    var stateDirectory: String?

    @Option(help: "plain (a table) or json (schemas/runs.schema.json).")
    var format: RunsFormat = .plain

    /// The state directory for `file` (nil: the current directory's).
    func directory(for file: String?) -> String {
        FlowRuns.folder(explicit: stateDirectory, workflowFile: file)
    }

    /// What `read` returns; a journal that cannot be read ends the command (exit 2).
    func read<T>(_ read: () throws(FlowJournalError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            StandardError.write("flow runs: \(error)\n")
            throw FlowExit.invalid.exitCode
        }
    }
}

/// `flow runs [FILE]`: the runs, newest first.
struct RunsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recorded runs, newest first (the default of `flow runs`).",
        discussion: """
            Shows each run's id, state, start, duration, steps by state and file. A run recorded as \
            running whose process is gone (killed, machine restarted) shows as interrupted.
            """
    )

    @Argument(help: "The workflow file whose runs to list (default: every run in the state directory).")
    var file: String?

    @OptionGroup var journal: JournalOptions

    func run() throws {
        let directory = journal.directory(for: file)
        let runs = try journal.read { () throws(FlowJournalError) in
            try FlowRuns.list(folder: directory, workflowFile: file)
        }
        switch journal.format {
        case .json: StandardOutput.line(RunsJSON.list(runs, stateDirectory: directory))
        case .plain:
            StandardOutput.line(
                runs.isEmpty ? "no runs recorded in \(directory)" : RunsText.table(runs, now: Date()))
        }
        StandardOutput.flush()
    }
}

/// `flow runs show ID [FILE]`: one run's steps.
struct RunsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one run: each step's state, attempts, times, error and outputs.",
        discussion: "An id the journal does not hold (never recorded, or pruned) exits with 2."
    )

    @Argument(help: "The run's id, as `flow runs` lists it.")
    var id: String

    @Argument(help: "The workflow file, to find its state directory (.flow beside it).")
    var file: String?

    @OptionGroup var journal: JournalOptions

    func run() throws {
        let directory = journal.directory(for: file)
        let detail = try journal.read { () throws(FlowJournalError) in try FlowRuns.run(id: id, folder: directory) }
        guard let detail else {
            StandardError.write(
                "flow runs: no run \(id) in \(directory) (see `flow runs`; "
                    + "runs beyond the 50 newest of a file are pruned)\n")
            throw FlowExit.invalid.exitCode
        }
        switch journal.format {
        case .json: StandardOutput.line(RunsJSON.detail(detail))
        case .plain: StandardOutput.line(RunsText.detail(detail, now: Date()))
        }
        StandardOutput.flush()
    }
}
