import ArgumentParser
import FlowKit
import Foundation

/// `flow run FILE`: runs a workflow, or with `--dry-run` checks it and prints the plan.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow.",
        discussion: """
            Exits 0 when the workflow succeeded, 1 when it ran and failed, 2 when the workflow, an input \
            or a secret is invalid, 130 when interrupted. With --dry-run, checks the file and the inputs, then prints the waves of steps, each request's \
            method and URL, each upload's chunk plan and each command, without sending a request, \
            starting a process or writing a file. Exits 2 when the workflow or an input is invalid.
            """
    )

    @Argument(help: "The workflow file.")
    var file: String

    @Argument(
        help: ArgumentHelp(
            "With --resume: the run to continue (default: the latest unfinished one).", valueName: "run-id"))
    var runID: String?

    @Flag(help: "Continue the latest unfinished run of the file (or RUN-ID): succeeded steps keep their outputs.")
    var resume = false

    @Option(
        name: .customLong("rerun"),
        help: ArgumentHelp(
            "With --resume: send again this step's request whose outcome is unknown (repeatable).", valueName: "step"))
    var reruns: [String] = []

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "The journal's folder (default: FLOW_STATE_DIR, else .flow beside the file).", valueName: "dir"))
    var stateDir: String?

    @Flag(help: "Keep no journal: the run cannot be resumed (for read-only checkouts).")
    var noJournal = false

    @Option(name: .customLong("input"), help: ArgumentHelp("Set an input (repeatable).", valueName: "name=value"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("A file of NAME=value lines (a .env file) for secrets.X.", valueName: "file"))
    var secrets: String?

    // Not an option of flow: users of docker and act try it, and are told what to use instead.
    @Option(name: .customLong("env-file"), help: .hidden)
    var envFile: String?

    @Option(help: "The most steps in flight at once (overrides the workflow's concurrency).")
    var concurrency: Int?

    @Flag(help: "Check the file and the inputs and print the plan; send, start and write nothing.")
    var dryRun = false

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Write a report: json FILE, junit FILE, html FILE or trace FILE (repeatable).", valueName: "format file")
    )
    var report: [String] = []

    @Option(help: "How events are printed: plain (one line each) or json (one object each).")
    var logFormat: LogFormat = .plain

    // `--only` and its files: one step of the workflow in its own process (an Argo task); see OnlyStep.
    @Option(help: ArgumentHelp("Run only this top-level step, with all it contains.", valueName: "step"))
    var only: String?

    @Option(
        name: .customLong("outputs-from"),
        help: ArgumentHelp("With --only: a file of the needs' outputs (repeatable).", valueName: "file"))
    var outputsFrom: [String] = []

    @Option(
        name: .customLong("outputs-to"),
        help: ArgumentHelp(
            "With --only: write the step's outputs and status (and those given) here.", valueName: "file"))
    var outputsTo: String?

    @Option(
        help: ArgumentHelp(
            "With --only, a for-each step: run only the item at this index, or the entry of --items-to's list given.",
            valueName: "index"))
    var item: String?

    @Option(
        name: .customLong("items-to"),
        help: ArgumentHelp("With --only, a for-each step: write its items here, run none.", valueName: "file"))
    var itemsTo: String?

    @Option(
        name: .customLong("status-to"),
        help: ArgumentHelp(
            "With --only: also write a small record here, the step's status and what --status-for steps read of it.",
            valueName: "file"))
    var statusTo: String?

    @Option(
        name: .customLong("status-for"),
        help: ArgumentHelp("With --status-to: a step whose reads the record keeps (repeatable).", valueName: "step"))
    var statusFor: [String] = []

    @Option(
        name: .customLong("service"),
        help: ArgumentHelp(
            "A service already running at URL: flow does not start it (repeatable).", valueName: "name=url"))
    var externalServices: [String] = []

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case plain
        case json
    }

    func validate() throws {
        if envFile != nil {
            throw ValidationError(
                "flow has no --env-file: pass a .env file with --secrets FILE (its values become secrets.NAME "
                    + "and are masked in all output); set plain environment variables in the shell that runs flow.")
        }
        if only == nil, !outputsFrom.isEmpty || outputsTo != nil || item != nil || itemsTo != nil {
            throw ValidationError("--outputs-from, --outputs-to, --item and --items-to go with --only STEP.")
        }
        if only != nil, dryRun {
            throw ValidationError(
                "--only does not go with --dry-run: the dry run shows every step's plan, and `flow export argo` "
                    + "the tasks that run the steps one by one.")
        }
        if statusTo == nil, !statusFor.isEmpty {
            throw ValidationError("--status-for goes with --status-to FILE.")
        }
        if only == nil, statusTo != nil {
            throw ValidationError("--status-to goes with --only STEP.")
        }
        if item != nil, itemsTo != nil {
            throw ValidationError("--item and --items-to do not go together.")
        }
        if runID != nil, !resume {
            throw ValidationError("flow run takes one workflow file; a run id goes with --resume.")
        }
        if !reruns.isEmpty, !resume {
            throw ValidationError("--rerun goes with --resume.")
        }
        if resume, noJournal || only != nil || dryRun {
            throw ValidationError("--resume reads the journal: it does not go with --no-journal, --only or --dry-run.")
        }
        if let concurrency, concurrency < 1 {
            throw ValidationError("--concurrency must be at least 1, not \(concurrency).")
        }
        if !report.isEmpty {
            let formats = stride(from: 0, to: report.count, by: 2).map { report[$0] }
            guard report.count.isMultiple(of: 2), formats.allSatisfy({ FlowRunOptions.Report.formats.contains($0) })
            else {
                throw ValidationError(
                    "--report takes a format (json, junit, html or trace) and a file, e.g. --report html run.html.")
            }
        }
    }

    /// The `--report` pairs.
    private var reportFiles: [FlowRunOptions.Report] {
        stride(from: 0, to: report.count, by: 2).compactMap {
            FlowRunOptions.Report(named: report[$0], path: report[$0 + 1])
        }
    }

    /// The `--input` values by name (the last of a name wins); malformed ones are the inputs' problems.
    private var inputValues: [String: String] {
        var values: [String: String] = [:]
        for argument in inputs {
            guard let equals = argument.firstIndex(of: "=") else { continue }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        return values
    }

    func run() async throws {
        // The flow command registers no handlers; a dry run still shows each `call` (see Grammar.md).
        // Checked on the main thread, as `flow validate` is (see `Flow.main`); a large file on a
        // thread of its own over large pages (`LargeCheckHeap`).
        let (file, dryRun) = (file, dryRun)
        let checkFile = { @Sendable in FlowWorkflow.check(contentsOf: file, hostSteps: [], callsAsWarnings: dryRun) }
        let checked = await LargeCheckHeap.runBeforeMore(files: [file], checkFile)
        let check: FlowValidation
        if let checked { check = checked } else { check = await MainActor.run(body: checkFile) }
        DiagnosticOutput.writeRunText(check)
        guard let workflow = check.workflow else { throw FlowExit.invalid.exitCode }
        var options = FlowRunOptions()
        options.inputs = inputValues
        options.secrets = secrets.map { .environment.merging(.file($0)) } ?? .environment
        options.concurrency = concurrency
        options.reports = reportFiles
        let problems = workflow.inputProblems(inputs) + options.problems
        if !problems.isEmpty {
            StandardError.write(check.rendered(problems))
            throw FlowExit.invalid.exitCode
        }
        // A misspelt --rerun would otherwise be ignored, and the resume stop at the step it meant.
        if let problem = workflow.unknownReruns(reruns) { throw ValidationError(problem) }
        guard dryRun else {
            options.reaperExecutable = FlowReaper.executablePath
            options.externalServices = externalServices
            if let only {
                var step = FlowRunOptions.OneStep(only)
                step.outputsFrom = outputsFrom
                step.outputsTo = outputsTo
                step.item = item
                step.itemsTo = itemsTo
                step.statusTo = statusTo
                step.statusFor = statusFor
                options.only = step
            }
            // `--only` runs one step of a run kept elsewhere (an Argo task): it keeps no journal.
            if !noJournal, only == nil {
                options.journal = .folder(FlowRuns.folder(explicit: stateDir, workflowFile: workflow.file))
                if resume { options.resume = FlowRunOptions.Resume(runID: runID, reruns: Set(reruns)) }
            }
            let execution = RunExecution(
                workflow: workflow, options: options, logFormat: logFormat == .json ? .json : .plain)
            throw await execution.execute().exitCode
        }
        // The plan computes `retry: ${{ … }}` and the like as the run does when it starts.
        do {
            print(try workflow.dryRun(inputs: options.inputs, concurrency: concurrency).text, terminator: "")
        } catch {
            StandardError.write(check.rendered(error.diagnostics))
            throw FlowExit.invalid.exitCode
        }
    }
}
