import FlowDSL
import FlowEngine
import FlowJournal
import Foundation

extension RunSettings {
    /// The settings of a run of `workflow` as `options` say: what `FlowWorkflow.start` and
    /// `flow run` both begin from. Throws, before anything is sent, when a `call` names a handler
    /// not registered, an input, a secret source, a report's path or the concurrency is invalid.
    package init(_ workflow: FlowWorkflow, options: FlowRunOptions) throws(FlowError) {
        // A `call` of a handler the app did not register stops the run before anything is sent.
        let calls = workflow.checked.checkingHostSteps(registered: options.hostSteps.names)
        guard !calls.hasErrors else {
            throw FlowError(calls.diagnostics.filter { $0.severity == .error }.map(FlowDiagnostic.init))
        }
        let inputs = try workflow.checkedInputs(options.inputs)
        let secrets = try options.secrets.store()
        if let concurrency = options.concurrency, concurrency < 1 {
            throw FlowError(message: "concurrency must be at least 1, not \(concurrency)")
        }
        let reports = options.reports.map { ReportFile(format: $0.format, path: $0.path) }
        let reportProblems = reports.compactMap(\.problem)
        guard reportProblems.isEmpty else {
            throw FlowError(reportProblems.map { FlowDiagnostic(.error($0, at: nil)) })
        }
        self.init(workflow: workflow.workflow, secrets: secrets)
        self.inputs = inputs
        concurrency = options.concurrency
        self.reports = reports
        sourceLines = workflow.checked.sourceLines
        calledFiles = workflow.checked.calledFiles
        hostSteps = options.hostSteps.registry
        if case .folder(let folder) = options.journal {
            journal = JournalSettings(
                stateDirectory: folder, resume: options.resume != nil, runID: options.resume?.runID,
                reruns: options.resume?.reruns ?? [])
        }
        reaper = options.reaperExecutable
        do throws(OnlyStep.Problem) {
            try prepareOnly(
                services: options.externalServices, only: options.only?.step,
                outputsFrom: options.only?.outputsFrom ?? [], outputsTo: options.only?.outputsTo,
                item: options.only?.item, itemsTo: options.only?.itemsTo,
                status: options.only.map { (to: $0.statusTo, readers: $0.statusFor) })
        } catch {
            throw FlowError(message: error.message, inOptions: true)
        }
    }

    /// `--service NAME=URL` (services already running elsewhere), `--only STEP` and its files
    /// (one step of a run kept elsewhere, an Argo task; see `OnlyStep`).
    mutating func prepareOnly(
        services: [String], only: String?, outputsFrom: [String], outputsTo: String?, item: String?, itemsTo: String?,
        status: (to: String?, readers: [String])? = nil
    ) throws(OnlyStep.Problem) {
        externalServices = try ExternalServices.parse(services, workflow: workflow)
        if let only {
            self.only = try OnlyStep.prepare(
                workflow: workflow, id: only, outputsFrom: outputsFrom, outputsTo: outputsTo, item: item,
                itemsTo: itemsTo)
            if let status, let to = status.to {
                try self.only?.addStatusRecord(to: to, readers: status.readers, workflow: workflow)
            }
        }
    }
}

extension FlowWorkflow {
    /// Why `FlowRunOptions.Resume.reruns` (`flow run --rerun`) cannot be honoured: the ids it
    /// names that are no step of the workflow, as a sentence; nil when every one is a step.
    ///
    /// ```swift
    /// if let problem = workflow.unknownReruns(["uplaod"]) { print(problem) }
    /// ```
    public func unknownReruns(_ ids: [String]) -> String? {
        ResumePlan.unknownReruns(ids, in: workflow)
    }
}
