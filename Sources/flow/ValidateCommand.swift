import ArgumentParser
import FlowKit

/// `flow validate FILE...`: checks workflow files without running anything.
struct ValidateCommand: ParsableCommand {
    /// How diagnostics are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check workflow files without running them.",
        discussion: """
            Reports every problem of every file at once, compiler-style on stderr (or as JSON on stdout \
            with --format json). Exits 0 when every file is valid (warnings allowed), 2 when any is not.
            """
    )

    @Argument(help: "The workflow files to check.")
    var files: [String]

    @Option(help: "How to print diagnostics: text (on stderr) or json (an array on stdout).")
    var format: Format = .text

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one workflow file to check.") }
    }

    func run() throws {
        // The flow command registers no handlers: a `call` step names one only an app has.
        let files = files
        let results = LargeCheckHeap.run(files: files) {
            files.map { FlowWorkflow.check(contentsOf: $0, hostSteps: []) }
        }
        // The process exits right after: the checked workflows (their steps, texts and tables) are
        // left to the system rather than freed object by object, which took about a tenth of
        // `flow validate`'s time on a 10,000-step file (perf in bench/validate).
        defer { KeptUntilExit.keep(results) }
        switch format {
        case .text:
            for result in results { StandardError.write(result.rendered) }
            for result in results where result.isValid {
                let count = result.stepCount
                print("\(result.file): valid, \(count) step\(count == 1 ? "" : "s")")
            }
        case .json:
            print(DiagnosticOutput.json(results))
        }
        if results.contains(where: { !$0.isValid }) { throw FlowExit.invalid.exitCode }
    }
}
