import FlowDSL
import FlowEngine
import Foundation

/// A workflow loaded and checked, ready to dry-run or run.
///
/// ```swift
/// let workflow = try FlowWorkflow(contentsOf: "upload.yaml")
/// let run = try workflow.start(options)
/// ```
public struct FlowWorkflow: Sendable {
    let checked: CheckResult
    let workflow: Workflow

    /// Loads and checks the workflow file at `path` (and the files its `uses` steps call). Throws
    /// every error found, located; warnings are in `warnings`.
    public init(contentsOf path: String) throws(FlowError) {
        try self.init(checked: WorkflowLoader.load(path: path))
    }

    /// Checks workflow text as if it were the file `fileName` in `baseFolder`, which relative
    /// paths (`uses`, uploaded files, `cwd`) are read from.
    ///
    /// ```swift
    /// let workflow = try FlowWorkflow(yaml: text, baseFolder: Bundle.main.resourcePath!)
    /// ```
    public init(yaml: String, baseFolder: String, fileName: String = "workflow.yaml") throws(FlowError) {
        try self.init(checked: WorkflowLoader.check(source: yaml, file: Self.path(fileName, in: baseFolder)))
    }

    init(checked: CheckResult) throws(FlowError) {
        guard let workflow = checked.workflow, !checked.hasErrors else {
            throw FlowError(checked.diagnostics.map(FlowDiagnostic.init))
        }
        self.checked = checked
        self.workflow = workflow
    }

    /// Every problem of the file at `path`, errors and warnings, without running anything (as
    /// `flow validate`); empty when it is clean.
    public static func validate(contentsOf path: String) -> [FlowDiagnostic] {
        WorkflowLoader.load(path: path).diagnostics.map(FlowDiagnostic.init)
    }

    /// Every problem of workflow text read as the file `fileName` in `baseFolder`.
    public static func validate(yaml: String, baseFolder: String, fileName: String = "workflow.yaml")
        -> [FlowDiagnostic]
    {
        WorkflowLoader.check(source: yaml, file: path(fileName, in: baseFolder)).diagnostics.map(FlowDiagnostic.init)
    }

    private static func path(_ name: String, in folder: String) -> String {
        folder.isEmpty ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }

    /// The JSON Schema (draft 2020-12) of workflow files, as `flow schema` prints it: for editors
    /// (the YAML language server) and for checking files before they reach flow.
    ///
    /// ```swift
    /// try FlowWorkflow.schema.write(toFile: "flow.schema.json", atomically: true, encoding: .utf8)
    /// ```
    public static var schema: String { WorkflowSchema.jsonText }

    /// Its steps and dependencies as a Mermaid flowchart (`flow graph`), for Markdown; groups are
    /// subgraphs labelled with how they finish.
    public var mermaidGraph: String { workflow.mermaidGraph }
    /// The same as a Graphviz (DOT) graph (`flow graph --format dot`).
    public var dotGraph: String { workflow.dotGraph }

    /// The warnings found when it was loaded.
    public var warnings: [FlowDiagnostic] { checked.diagnostics.map(FlowDiagnostic.init) }
    /// The file's path as given.
    public var file: String { workflow.file }
    /// Every step's id, groups' children included, in declaration order.
    public var stepIDs: [String] { workflow.allSteps.map(\.id) }
    /// The names of the inputs it declares.
    public var inputNames: [String] { workflow.inputs.map(\.name) }

    /// The plan `flow run --dry-run` prints, and each request as a value; sends, starts and writes
    /// nothing. Throws when an input is invalid or a setting cannot be computed.
    public func dryRun(inputs: [String: String] = [:], concurrency: Int? = nil) throws(FlowError) -> FlowDryRun {
        let values = try checkedInputs(inputs)
        let planned: Workflow
        switch workflow.resolvingSettings(in: DryRunValues(workflow: workflow, inputs: values)) {
        case .success(let resolved): planned = resolved
        case .failure(let problems):
            throw FlowError(problems.problems.map { FlowDiagnostic(.error($0.message, at: $0.location)) })
        }
        let requests = PlannedRequests()
        let plan = DryRunPlan(
            workflow: planned, inputs: values, concurrency: concurrency ?? planned.concurrency, requests: requests)
        let text = plan.rendered()
        return FlowDryRun(text: text, requests: requests.all)
    }

    /// The inputs as the run reads them; throws each problem (unknown name, wrong type, missing).
    func checkedInputs(_ inputs: [String: String]) throws(FlowError) -> [String: InputValue] {
        let arguments = inputs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let problems = RunInputs.problems(in: workflow, arguments: arguments)
        guard problems.isEmpty else { throw FlowError(problems.map(FlowDiagnostic.init)) }
        return RunInputs.values(in: workflow, arguments: arguments)
    }

    /// Starts a run at once and returns its handle; throws, before anything is sent, when an
    /// input, a secret source, a report's path or the concurrency is invalid.
    ///
    /// ```swift
    /// let run = try workflow.start(options)
    /// for await event in run.events { … }
    /// let outcome = await run.outcome
    /// ```
    public func start(_ options: FlowRunOptions = FlowRunOptions()) throws(FlowError) -> FlowRun {
        try FlowRun(self, options: options)
    }

    /// Starts a run whose events go to `observer`, unbuffered and in order (see
    /// `FlowRunObserver`), as `flow run` renders them; the run's warnings go to
    /// `observer.message` before this returns. The outcome is the one `flow run`'s summary shows
    /// (with `FlowRunOptions.only`, the step's own records); its `messages` are empty, having
    /// gone to the observer. Throws as `start(_:)` does, and when `options.only` or
    /// `options.externalServices` name no step or service (`FlowError.inOptions`).
    ///
    /// ```swift
    /// var observer = FlowRunObserver()
    /// observer.event = { event, _ in log(event) }
    /// let outcome = try await workflow.start(options, observer: observer).outcome
    /// ```
    public func start(_ options: FlowRunOptions, observer: FlowRunObserver) throws(FlowError) -> FlowRun {
        try FlowRun(self, options: options, observer: observer)
    }
}
