import ArgumentParser
import FlowDSL

/// `flow run FILE`: runs a workflow; until the executor lands only `--dry-run` works.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow (for now: check it and print the plan with --dry-run).",
        discussion: """
            With --dry-run, checks the file and the inputs, then prints the waves of steps, each request's \
            method and URL, each upload's chunk plan and each command, without sending a request, \
            starting a process or writing a file. Exits 2 when the workflow or an input is invalid.
            """
    )

    @Argument(help: "The workflow file.")
    var file: String

    @Option(name: .customLong("input"), help: ArgumentHelp("Set an input (repeatable).", valueName: "name=value"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("A file of NAME=value lines for secrets.X.", valueName: "file"))
    var secrets: String?

    @Option(help: "The most steps in flight at once (overrides the workflow's concurrency).")
    var concurrency: Int?

    @Flag(help: "Check the file and the inputs and print the plan; send, start and write nothing.")
    var dryRun = false

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Write a report: json FILE or junit FILE.", valueName: "format file")
    )
    var report: [String] = []

    func validate() throws {
        if let concurrency, concurrency < 1 {
            throw ValidationError("--concurrency must be at least 1, not \(concurrency).")
        }
        if !report.isEmpty {
            guard report.count == 2, ["json", "junit"].contains(report[0]) else {
                throw ValidationError(
                    "--report takes a format (json or junit) and a file, e.g. --report junit out.xml.")
            }
        }
    }

    func run() throws {
        guard dryRun else {
            StandardError.write(
                "flow run: running workflows arrives with the executor; use --dry-run to check \(file) and see its plan\n"
            )
            throw ExitCode(64)
        }
        let result = WorkflowLoader.load(path: file)
        DiagnosticOutput.writeText([result])
        guard let workflow = result.workflow, !result.hasErrors else { throw ExitCode(2) }
        var problems = RunInputs.problems(in: workflow, arguments: inputs)
        if let secrets, let problem = RunInputs.secretsFileProblem(secrets) {
            problems.append(problem)
        }
        if !problems.isEmpty {
            let failed = CheckResult(
                workflow: nil,
                diagnostics: problems,
                file: result.file,
                sourceLines: result.sourceLines
            )
            StandardError.write(failed.renderedDiagnostics())
            throw ExitCode(2)
        }
        let values = RunInputs.values(in: workflow, arguments: inputs)
        let plan = DryRunPlan(workflow: workflow, inputs: values, concurrency: concurrency ?? workflow.concurrency)
        print(plan.rendered(), terminator: "")
    }
}
