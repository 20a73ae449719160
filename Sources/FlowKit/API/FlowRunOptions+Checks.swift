import FlowDSL

extension FlowRunOptions {
    /// What is wrong with the options themselves, checked now without starting anything: a
    /// secrets file that cannot be read, a report whose path cannot be written. `start` throws
    /// these too; `flow run` shows them with the inputs' problems before anything runs.
    ///
    /// ```swift
    /// let problems = workflow.inputProblems(["env=staging"]) + options.problems
    /// if !problems.isEmpty { print(check.rendered(problems)) }
    /// ```
    public var problems: [FlowDiagnostic] {
        var problems = secrets.files.compactMap(RunInputs.secretsFileProblem).map(FlowDiagnostic.init)
        for report in reports {
            if let problem = ReportFile(format: report.format, path: report.path).problem {
                problems.append(FlowDiagnostic(.error(problem, at: nil)))
            }
        }
        return problems
    }
}

extension FlowRunOptions.Report {
    /// The formats a report can have, as `flow run --report FORMAT FILE` names them.
    public static let formats = ReportFile.formats

    /// A report named by its format (one of `formats`: `json`, `junit`, `html`, `trace`); nil for
    /// any other.
    ///
    /// ```swift
    /// options.reports = [FlowRunOptions.Report(named: "junit", path: "flow.xml")!]
    /// ```
    public init?(named format: String, path: String) {
        guard Self.formats.contains(format) else { return nil }
        self.init(format: format, path: path)
    }
}

extension FlowWorkflow {
    /// The problems of input values given as `flow run --input NAME=VALUE` arguments, in order:
    /// malformed or unknown names, wrong types, required inputs missing, `file` inputs that do not
    /// exist; empty when they are all right. `FlowRunOptions.inputs` takes the values by name.
    ///
    /// ```swift
    /// for problem in workflow.inputProblems(["count=ten"]) { print(problem) }
    /// ```
    public func inputProblems(_ arguments: [String]) -> [FlowDiagnostic] {
        RunInputs.problems(in: workflow, arguments: arguments).map(FlowDiagnostic.init)
    }
}
