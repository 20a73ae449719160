import FlowDSL
import Foundation

/// What a run is given besides the workflow: input values, secrets, and overrides.
package struct RunOptions: Sendable {
    /// Input values from `--input`, already checked against their declared types.
    package var inputs: [String: InputValue]
    /// The values `secrets.NAME` reads.
    package var secrets: SecretStore
    /// `--concurrency`, overriding the workflow's `concurrency`.
    package var concurrency: Int?
    /// The folder relative `file` inputs are resolved against.
    package var workingDirectory: String
    /// The endpoints of the workflow's services by name (from `ServiceEndpoint.allocate`), read as
    /// `services.<name>.port` and `services.<name>.url`.
    package var services: [String: ServiceEndpoint]
    /// `flow.executable`: the path of the running flow binary.
    package var executable: String
    /// The limit of each request of an `http` step when neither the step nor `defaults` set a
    /// `timeout` (see "Timeouts" in Grammar.md): 5 minutes.
    package var defaultRequestTimeout: Duration = .seconds(300)
    /// The process environment `env.NAME` falls back to after the workflow's `env`.
    package var environment: [String: String]
    /// Names every expression of the run reads besides the roots: the item and `index` of the
    /// `for-each` group whose item this run is (see `WorkflowRun+ForEachGroup.swift`).
    var itemLocals: [String: Value] = [:]
    /// The records of the run this one is an item of: `steps.X` of a step outside the group
    /// reads them.
    var outerRecords: RunRecords<StepResult>?
    /// Records of steps already final before the run starts (`flow run --only`: the needs' records
    /// read from `--outputs-from`): those steps do not run, and release their dependents as if
    /// they had just finished (see `Scheduler.init(prior:)`).
    package var prior: [String: StepRecord<StepResult>] = [:]
    /// The steps this process runs when it runs part of a workflow (`flow run --only`): only
    /// their secrets must be set (an Argo task's pod is given only those).
    package var onlySteps: Set<String>?
    /// Part of one `for-each` step to run instead of all its items (`flow run --only` in an
    /// exported Argo workflow, where each item is a pod).
    package var forEachSelection: ForEachSelection?
    /// Where the run tells what happens to it (the journal), so that `flow run --resume` can
    /// continue it; nil for a run that keeps no journal.
    package var recorder: (any RunRecorder)?
    /// The run's id in the journal (the same across resumes): `idempotencyKey()` derives from it.
    /// Nil for a run without one, where the function gives a placeholder.
    package var runID: String?
    /// Upload sessions of the run being resumed, to continue on the server rather than start over.
    package var priorTransfers: [TransferKey: TransferSession] = [:]
    /// Succeeded `for-each` items of the run being resumed, by step id and index (`PriorRun.items`).
    package var priorItems: [String: [Int: PriorItem]] = [:]
    /// The handlers of the workflow's `call` steps (the app's own code); empty for the command line.
    package var hostSteps = HostStepRegistry()
    /// Whether this run's own step events go to `recorder`: a called file's run (`uses`, a
    /// `for-each` group's item) tells only its unsafe sends and transfers, under `journalPrefix`.
    var recordsEvents = true
    /// What goes before a step id in what this run tells `recorder` (`deploy/` in a called file).
    var journalPrefix = ""
    /// Unsafe requests sent and not answered, shared with the runs of called files.
    var openSends = OpenUnsafeSends()
    /// The process groups of the run's commands and services, shared with the runs of called
    /// files: ending the run ends them, and no other run's (see `ProcessGroups`).
    package var processGroups = ProcessGroups()

    /// Options for a run.
    package init(
        inputs: [String: InputValue] = [:], secrets: SecretStore = SecretStore(values: [:]), concurrency: Int? = nil,
        workingDirectory: String = FileManager.default.currentDirectoryPath,
        services: [String: ServiceEndpoint] = [:], executable: String = FlowExecutable.path,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.inputs = inputs
        self.secrets = secrets
        self.concurrency = concurrency
        self.workingDirectory = workingDirectory
        self.services = services
        self.executable = executable
        self.environment = environment
    }

    /// `services` as expressions read it.
    var servicesValue: Value {
        .object(services.mapValues { .object(["port": .number(Double($0.port)), "url": .string($0.url)]) })
    }

    /// The `flow` root.
    var flowValue: Value {
        .object(["executable": .string(executable)])
    }
}

/// Why a run could not start: each problem names the place in the workflow or the input.
package struct RunSetupError: Error, Sendable, CustomStringConvertible {
    /// The problems, each located.
    package let problems: [StepError]

    /// One line per problem: `file:line:col: error: message`.
    package var description: String {
        problems.map { "\($0.location): error: \($0.message)" }.joined(separator: "\n")
    }
}
