import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// One run of a checked workflow: turns its steps into a scheduler plan with the runners for each
/// kind, and runs it. Every step is a FlowTasks future; groups are `all`/`any`/`atLeast`.
public final class WorkflowRun: Sendable {
    /// The workflow being run.
    public let workflow: Workflow
    /// Masks every secret value in text the run produces.
    public let masker: SecretMasker
    private let scheduler: Scheduler<StepResult>
    private let cleanups = CleanupTracker()
    private let queue: DispatchQueue

    /// Prepares a run. Fails, naming each place, when a secret the workflow reads is not set or
    /// the workflow-level values (`env`, `defaults.http`) cannot be evaluated.
    public init(
        workflow: Workflow, options: RunOptions, client: HTTPClient,
        onEvent: @escaping @Sendable (SchedulerEvent<StepResult>) -> Void = { _ in }
    ) throws(RunSetupError) {
        let masker = options.secrets.masker
        self.masker = masker
        var problems: [StepError] = []
        for (name, location) in workflow.secretReferences() where options.secrets.values[name] == nil {
            problems.append(
                StepError(
                    "secret '\(name)' is not set (set FLOW_SECRET_\(name) or give it in a --secrets file)",
                    at: location))
        }
        let (runValues, environment, envProblems) = RunValues.prepare(workflow, options)
        problems += envProblems
        // `retry: ${{ inputs.retries }}` and the like: computed now, before any step starts.
        var workflow = workflow
        switch workflow.resolvingSettings(in: runValues.scope(for: [], records: RunRecords([:]))) {
        case .success(let resolved): workflow = resolved
        case .failure(let settingProblems):
            problems += settingProblems.problems.map { StepError($0.message, at: $0.location) }
        }
        self.workflow = workflow
        var baseURL: String?
        do {
            baseURL = try workflow.defaults.http.baseURL?.string(in: runValues.scope(for: [], records: RunRecords([:])))
        } catch {
            problems.append(error)
        }
        guard problems.isEmpty else { throw RunSetupError(problems: problems) }

        let queue = DispatchQueue(label: "flow.run")
        self.queue = queue
        let stepQueue = DispatchQueue(label: "flow.steps", attributes: .concurrent)
        let http = HTTPStepRunner(
            client: client, defaults: workflow.defaults, baseURL: baseURL, values: runValues, masker: masker,
            queue: stepQueue, defaultRequestTimeout: options.defaultRequestTimeout,
            workflowFolder: MultipartPlan.folder(ofWorkflow: workflow.file))
        let run = RunStepRunner(
            values: runValues, workflowEnvironment: environment, masker: masker, queue: stepQueue,
            defaultRetry: workflow.defaults.retry)
        let upload = UploadStepRunner(
            client: client, defaults: workflow.defaults, baseURL: baseURL, values: runValues, masker: masker,
            cleanups: cleanups, queue: stepQueue)
        let records = RunRecords<StepResult>()
        let runners = Runners(http: http, run: run, upload: upload)
        let plan = workflow.allSteps.map { step in
            Self.plan(step, workflow: workflow, values: runValues, records: records, runners: runners, queue: stepQueue)
        }
        scheduler = Scheduler(
            steps: plan, concurrency: options.concurrency ?? workflow.concurrency, queue: queue, records: records,
            onEvent: onEvent)
    }

    /// Starts the run; the future completes with every step's record when all are final and the
    /// clean-up requests of cancelled steps (a tus `DELETE`) have finished.
    public func start() -> Future<RunRecords<StepResult>> {
        let (cleanups, queue) = (cleanups, queue)
        return scheduler.start().flatMap(on: queue) { records in
            cleanups.settled(on: queue).map(on: queue) { records }
        }
    }

    /// Interrupts the run: transfers are aborted and processes killed; `always()` steps still run.
    public func cancel() {
        scheduler.cancel()
    }

    /// Gives up the run without starting it (its services failed to start): no step runs.
    public func abandon() {
        scheduler.abandon()
    }

    /// The records so far.
    public var records: RunRecords<StepResult> { scheduler.records }

    static func inputValues(_ workflow: Workflow, _ options: RunOptions) -> Value {
        var inputs: [String: Value] = [:]
        for input in workflow.inputs {
            guard let value = options.inputs[input.name] ?? input.defaultValue else {
                inputs[input.name] = .null
                continue
            }
            switch value {
            case .string(let text) where input.kind == .file:
                let url = URL(fileURLWithPath: text, relativeTo: URL(fileURLWithPath: options.workingDirectory))
                inputs[input.name] = .string(url.standardizedFileURL.path)
            case .string(let text): inputs[input.name] = .string(text)
            case .number(let number): inputs[input.name] = .number(number)
            case .boolean(let flag): inputs[input.name] = .bool(flag)
            }
        }
        return .object(inputs)
    }

    /// The runner of each step kind.
    private struct Runners {
        let http: HTTPStepRunner
        let run: RunStepRunner
        let upload: UploadStepRunner
    }

    private static func plan(
        _ step: Step, workflow: Workflow, values: RunValues, records: RunRecords<StepResult>, runners: Runners,
        queue: DispatchQueue
    ) -> PlannedStep<StepResult> {
        let work: StepWork<StepResult>
        switch step.kind {
        case .group(let group):
            let policy = GroupPolicy(
                mode: group.mode == .any ? .any : .all, atLeast: group.atLeast ?? 1, failFast: group.failFast)
            let outputs = step.outputs.isEmpty ? nil : groupOutputs(step, values: values)
            work = .group(policy, children: group.children.map(\.id), outputs: outputs)
        case .http(let request):
            work = leaf(step, values: values, queue: queue) { runners.http.run(step, request, start: $0) }
        case .run(let command):
            work = leaf(step, values: values, queue: queue) { runners.run.run(step, command, start: $0) }
        case .upload(let upload):
            work = leaf(step, values: values, queue: queue) { runners.upload.run(step, upload, start: $0) }
        case .sleep(let duration):
            work = .leaf { start in
                start.report(.attempt(1))
                let result: @Sendable () throws -> StepResult = {
                    let outputs = try outputValues(
                        step, values: values, records: start.records, locals: start.locals, result: .object([:]))
                    return StepResult(result: .object([:]), outputs: outputs, attempts: 1)
                }
                // A zero wait is finished at once: no future to wait on and map.
                guard duration > .zero else {
                    do {
                        return Future.succeeded(try result(), on: start.queue)
                    } catch {
                        return Future.failed(error, on: start.queue)
                    }
                }
                return Future<Void>.delay(duration, on: start.queue).map { _ in try result() }
            }
        }
        return PlannedStep(
            id: step.id, needs: step.needs, group: step.parent,
            condition: condition(of: step, values: values, records: records),
            continueOnError: step.continueOnError, timeout: step.timeout ?? workflow.defaults.timeout, work: work)
    }

    /// A leaf whose runner yields `result` and the attempts made; its outputs are evaluated after.
    private static func leaf(
        _ step: Step, values: RunValues, queue: DispatchQueue,
        runner: @escaping @Sendable (StepStart<StepResult>) -> Future<(Value, Int)>
    ) -> StepWork<StepResult> {
        .leaf { start in
            runner(start).map(on: queue) { result, attempts in
                let outputs = try outputValues(
                    step, values: values, records: start.records, locals: start.locals, result: result)
                return StepResult(result: result, outputs: outputs, attempts: attempts)
            }
        }
    }

    /// A group's outputs read its children through `steps.*` and its `result.winner`.
    private static func groupOutputs(
        _ step: Step, values: RunValues
    ) -> @Sendable (RunRecords<StepResult>, String?) throws -> StepResult {
        { records, winner in
            let result: Value = winner.map { Value.object(["winner": .string($0)]) } ?? .object([:])
            let outputs = try outputValues(step, values: values, records: records, result: result)
            return StepResult(result: result, outputs: outputs, attempts: 1)
        }
    }

    private static func condition(of step: Step, values: RunValues, records: RunRecords<StepResult>) -> StepCondition {
        guard let text = step.condition else { return .success }
        let compiled: CompiledCondition
        do {
            compiled = try CompiledCondition(text)
        } catch {
            return .custom { _ in throw error }
        }
        let implicitSuccess = !compiled.callsStatusFunction
        return .custom { facts in
            // As in GitHub Actions, a condition without a status function means `success() && …`.
            if implicitSuccess && !facts.holds(.success) { return false }
            let scope = values.scope(for: [], expressions: [compiled.expression], records: records, facts: facts)
            return try compiled.holds(in: scope)
        }
    }

    private static func outputValues(
        _ step: Step, values: RunValues, records: RunRecords<StepResult>, locals: [String: Value] = [:],
        result: Value
    ) throws(StepError) -> [String: Value] {
        guard !step.outputs.isEmpty else { return [:] }
        let scope = values.scope(for: step.outputs.map(\.value), records: records, result: result, locals: locals)
        var outputs: [String: Value] = [:]
        for output in step.outputs {
            do {
                outputs[output.name] = try output.value.evaluate(in: scope)
            } catch {
                throw StepError("output '\(output.name)': \(error.message)", at: error.location)
            }
        }
        return outputs
    }
}
