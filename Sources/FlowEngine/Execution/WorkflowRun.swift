import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// One run of a checked workflow: turns its steps into a scheduler plan with the runners for each
/// kind, and runs it. Every step is a FlowTasks future; groups are `all`/`any`/`atLeast`.
package final class WorkflowRun: Sendable {
    /// The workflow being run.
    package let workflow: Workflow
    /// Masks every secret value in text the run produces.
    package let masker: SecretMasker
    private let scheduler: Scheduler<StepResult>
    private let cleanups = CleanupTracker()
    private let queue: DispatchQueue
    /// The run's fixed values (inputs, env, secrets), for the workflow's top-level `outputs`.
    private let values: RunValues
    /// The records of the steps of called files (`uses`), by qualified id (`deploy/publish`).
    private let nestedRecords = LockedBox<[String: StepRecord<StepResult>]>([:])
    /// Why the setup failed (see `startAfterFailedSetup`).
    private let setupFailure = LockedBox<String?>(nil)
    /// The jar's files (`defaults.http.cookies: { load, save }`), and the client whose jar it is.
    private let cookieFiles: RunCookieFiles?
    private let client: HTTPClient
    /// Why the cookie jar could not be saved, when it could not.
    private let cookieSaveFailure = LockedBox<String?>(nil)

    /// Prepares a run. Fails, naming each place, when a secret the workflow reads is not set or
    /// the workflow-level values (`env`, `defaults.http`) cannot be evaluated.
    package init(
        workflow: Workflow, options: RunOptions, client: HTTPClient,
        onEvent: @escaping @Sendable (SchedulerEvent<StepResult>) -> Void = { _ in }
    ) throws(RunSetupError) {
        let masker = options.secrets.masker
        self.masker = masker
        var problems: [StepError] = []
        // `flow run --only` (an Argo task) checks the secrets of the steps it runs: its pod is
        // given only the secrets its step reads.
        for (name, location) in Self.secretReferences(workflow, running: options.onlySteps)
        where options.secrets.values[name] == nil {
            problems.append(
                StepError(
                    "secret '\(name)' is not set (set FLOW_SECRET_\(name) or give it in a --secrets file; "
                        + "an empty value counts as not set; list it in 'optional-secrets' if the workflow can do without it)",
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
        self.values = runValues
        var baseURL: String?
        do {
            baseURL = try workflow.defaults.http.baseURL?.string(in: runValues.scope(for: [], records: RunRecords([:])))
        } catch {
            problems.append(error)
        }
        let transportContext = TransportContext(
            folder: workflow.folder, environment: options.environment)
        problems += Self.unreadableTLSFiles(workflow, context: transportContext, values: runValues)
        var cookieFiles: RunCookieFiles?
        do {
            cookieFiles = try RunCookieFiles.prepare(
                workflow.defaults.http.cookieFiles, scope: runValues.scope(for: [], records: RunRecords([:])),
                folder: WorkflowPath.absolute(workflow.folder, in: options.workingDirectory))
        } catch {
            problems.append(StepError(masker(error.message), at: error.location))
        }
        self.cookieFiles = cookieFiles
        self.client = client
        guard problems.isEmpty else { throw RunSetupError(problems: problems) }

        let queue = DispatchQueue(label: "flow.run")
        self.queue = queue
        let openSends = options.openSends
        let stepQueue = DispatchQueue(label: "flow.steps", attributes: .concurrent)
        var http = HTTPStepRunner(
            client: client, defaults: workflow.defaults, baseURL: baseURL, values: runValues, masker: masker,
            queue: stepQueue, defaultRequestTimeout: options.defaultRequestTimeout)
        http.transportContext = transportContext
        http.durability = HTTPDurability(
            recorder: options.recorder, prefix: options.journalPrefix, runID: options.runID, openSends: openSends,
            masker: masker)
        // One folder for every relative path of the workflow, whatever the current folder.
        let folder = WorkflowPath.absolute(workflow.folder, in: options.workingDirectory)
        http.workflowFolder = folder
        var run = RunStepRunner(
            values: runValues, workflowEnvironment: environment, masker: masker, queue: stepQueue,
            defaultRetry: workflow.defaults.retry)
        run.workflowFolder = folder
        run.processGroups = options.processGroups
        var upload = UploadStepRunner(
            client: client, defaults: workflow.defaults, baseURL: baseURL, values: runValues, masker: masker,
            cleanups: cleanups, queue: stepQueue)
        upload.transportContext = transportContext
        upload.workflowFolder = folder
        upload.durability = UploadDurability(
            recorder: options.recorder, prefix: options.journalPrefix, prior: options.priorTransfers,
            masker: masker)
        let records = RunRecords<StepResult>(outer: options.outerRecords)
        let nested = NestedRunContext(
            client: client, options: options, queue: queue, onEvent: onEvent, records: nestedRecords,
            cleanups: cleanups)
        let host = HostStepRunner(
            registry: options.hostSteps, values: runValues, masker: masker, queue: stepQueue,
            defaultRetry: workflow.defaults.retry, cleanups: cleanups)
        let ahead = ConnectionsAhead(
            workflow, baseURL: baseURL, values: runValues, environment: ProcessInfo.processInfo.environment)
        let runners = Runners(http: http, run: run, upload: upload, nested: nested, host: host, ahead: ahead)
        let concurrency = options.concurrency ?? workflow.concurrency
        // A constant for the closures below: reading the `var` from them copied the whole
        // workflow (every field retained, then released) for every step (issue 32).
        let resolved = workflow
        let repeatsGroups = resolved.allSteps.contains { step in
            if case .group = step.kind { return step.forEach != nil }
            return false
        }
        // Sized once: grown step by step, the plan moved to a larger buffer about fourteen times at 10,000 steps.
        var plan: [PlannedStep<StepResult>] = []
        plan.reserveCapacity(resolved.allSteps.count)
        for step in resolved.allSteps {
            // The children of a `for-each` group run in each item's own run, not in this one.
            if repeatsGroups, resolved.forEachGroup(enclosing: step) != nil { continue }
            let planned = Self.plan(
                step, workflow: resolved, values: runValues, records: records, runners: runners, queue: stepQueue)
            plan.append(
                Self.repeated(
                    planned, step: step, values: runValues, masker: masker, concurrency: concurrency,
                    kept: options.priorItems[step.id] ?? [:]))
        }
        // The journal hears of each step's start and end before the caller's printer does.
        var recorded = onEvent
        if let recorder = options.recorder, options.recordsEvents {
            let recording = RunRecording(
                recorder: recorder, masker: masker, plan: plan.map(\.id), openSends: openSends)
            recorded = { event in
                recording.handle(event)
                onEvent(event)
            }
        }
        // Without `for-each` groups the plan has a step for each of `allSteps`, in order: the
        // checks' positions of ids, needs and groups serve the scheduler as they are.
        let known = plan.count == resolved.allSteps.count ? resolved.stepPositions : nil
        scheduler = Scheduler(
            steps: plan, concurrency: concurrency, queue: queue, records: records, prior: options.prior,
            known: known, onEvent: recorded)
    }

    /// Starts the run; the future completes with every step's record when all are final and the
    /// clean-up requests of cancelled steps (a tus `DELETE`) have finished.
    package func start() -> Future<RunRecords<StepResult>> {
        let (cleanups, queue, scheduler) = (cleanups, queue, self.scheduler)
        guard let cookieFiles else {
            return scheduler.start().flatMap(on: queue) { records in
                cleanups.settled(on: queue).map(on: queue) { records }
            }
        }
        // The jar is filled before the first request and written once every request has ended.
        let (client, failure, masker) = (client, cookieSaveFailure, masker)
        return client.cookies(adding: cookieFiles.lines)
            .flatMap(on: queue) { _ in scheduler.start() }
            .flatMap(on: queue) { records in cleanups.settled(on: queue).map(on: queue) { records } }
            .flatMap(on: queue) { records in
                client.cookies(adding: []).flatMap(on: queue) { cookies in cookieFiles.save(cookies, on: queue) }
                    .map(on: queue) { records }
                    .flatMapError(on: queue) { error in
                        failure.withLock { $0 = masker("could not save the cookie jar: \(error)") }
                        return .succeeded(records, on: queue)
                    }
            }
    }

    /// Why the cookie jar (`defaults.http.cookies.save`) could not be written, when it could not.
    package var cookieSaveError: String? { cookieSaveFailure.withLock { $0 } }

    /// Interrupts the run: transfers are aborted and processes killed; `always()` steps still run.
    package func cancel() {
        scheduler.cancel()
    }

    /// Gives up the run without starting it (its services failed to start): no step runs.
    package func abandon() {
        scheduler.abandon()
    }

    /// Starts the run after its setup failed (a service did not start, `reason` says which and
    /// why): only steps whose `if` holds after a failure — `always()`, `failure()` — run, the
    /// others are skipped, and the run's outcome is `failed` whatever they do.
    package func startAfterFailedSetup(_ reason: String) -> Future<RunRecords<StepResult>> {
        setupFailure.withLock { $0 = masker(reason) }
        scheduler.failSetup()
        return start()
    }

    /// Why the run's setup failed, when it did (masked).
    package var setupError: String? { setupFailure.withLock { $0 } }

    /// The records so far.
    package var records: RunRecords<StepResult> { scheduler.records }

    /// Every record so far: this file's steps and those of the files its `uses` steps call, the
    /// latter by qualified id (`deploy/publish`).
    package var allRecords: [String: StepRecord<StepResult>] {
        let (own, nested) = (scheduler.records.all, nestedRecords.withLock { $0 })
        // Merging nothing would still copy the table of every step.
        guard !nested.isEmpty else { return own }
        return own.merging(nested) { own, _ in own }
    }

    /// The workflow's top-level `outputs`, read from the finished steps' records.
    func workflowOutputs(records: RunRecords<StepResult>) throws(StepError) -> [String: Value] {
        let scope = values.scope(for: workflow.outputs.map(\.value), records: records)
        var outputs: [String: Value] = [:]
        for output in workflow.outputs {
            do {
                outputs[output.name] = try output.value.evaluate(in: scope)
            } catch {
                throw StepError("output '\(output.name)' of \(workflow.file): \(error.message)", at: error.location)
            }
        }
        return outputs
    }

    /// The secrets this workflow and the files it calls read, each with its place, but those
    /// the file that reads them lists in `optional-secrets`: the ones that must be set.
    /// With `running`, only where those steps run (`flow run --only`): the workflow-level values,
    /// those steps, and the whole of the files their `uses` steps call.
    static func secretReferences(_ workflow: Workflow, running: Set<String>? = nil) -> [(
        name: String, location: SourceLocation
    )] {
        guard let running else {
            return workflow.secretReferences().filter { !workflow.optionalSecrets.contains($0.name) }
                + workflow.called.keys.sorted().flatMap { secretReferences(workflow.called[$0]!) }
        }
        return workflow.secretReferences(readBy: running).filter { !workflow.optionalSecrets.contains($0.name) }
            + Set(workflow.calledFiles(by: running)).sorted().compactMap { workflow.called[$0] }.flatMap {
                secretReferences($0)
            }
    }

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
        let nested: NestedRunContext
        let host: HostStepRunner
        /// Connections opened when a request starts, for its dependents (see `ConnectionsAhead`).
        let ahead: ConnectionsAhead
    }

    private static func plan(
        _ step: Step, workflow: Workflow, values: RunValues, records: RunRecords<StepResult>, runners: Runners,
        queue: DispatchQueue
    ) -> PlannedStep<StepResult> {
        let work: StepWork<StepResult>
        var immediate: (@Sendable (StepStart<StepResult>) -> Result<StepResult, any Error>)?
        switch step.kind {
        case .group where step.forEach != nil:
            work = forEachGroupLeaf(step, workflow: workflow, context: runners.nested)
        case .group(let group):
            let policy = GroupPolicy(
                mode: group.mode == .any ? .any : .all, atLeast: group.atLeast ?? 1, failFast: group.failFast)
            let outputs = step.outputs.isEmpty ? nil : groupOutputs(step, values: values)
            work = .group(policy, children: group.children.map(\.id), outputs: outputs)
        case .http(let request):
            let ahead = runners.ahead.byStep[step.id]
            work = leaf(step, values: values, masker: runners.http.masker, queue: queue) { start in
                if let ahead { runners.http.client.openAhead(to: ahead.url, connections: ahead.connections) }
                return runners.http.run(step, request, start: start)
            }
        case .run(let command):
            work = leaf(step, values: values, masker: runners.http.masker, queue: queue) {
                runners.run.run(step, command, start: $0)
            }
        case .upload(let upload):
            work = leaf(step, values: values, masker: runners.http.masker, queue: queue) {
                runners.upload.run(step, upload, start: $0)
            }
        case .sleep(let duration) where step.repeat != nil:
            work = leaf(step, values: values, masker: runners.http.masker, queue: queue) { start in
                start.report(.attempt(1))
                return Future<Void>.delay(duration, on: start.queue).map { _ in
                    RunnerOutput(result: .object([:]), attempts: 1)
                }
            }
        case .call(let call):
            work = hostLeaf(
                leaf(step, values: values, masker: runners.http.masker, queue: queue) {
                    runners.host.run(step, call, start: $0)
                })
        case .uses(let uses):
            work = usesLeaf(step, uses, workflow: workflow, values: values, context: runners.nested)
        case .sleep(let duration) where duration > .zero:
            work = .leaf { start in
                start.report(.attempt(1))
                return Future<Void>.delay(duration, on: start.queue).map { _ in
                    try waitResult(step, values: values, start: start)
                }
            }
        case .sleep:
            // A zero wait is finished at once: the scheduler takes its result without a future.
            // Without outputs it reads nothing of its step (a cache miss a step at 10,000 steps).
            let finished: @Sendable (StepStart<StepResult>) -> Result<StepResult, any Error>
            if step.outputs.isEmpty {
                // Captures nothing of the step: a closure holding the step kept a copy of the
                // whole `Step` (a heap box, every field retained) for each of 10,000 steps (issue 32).
                // One result for every such wait: it never changes, and a result of its own for each
                // step was an allocation at set-up and, at the end, a cold object to retain for every
                // copy of the step's record (three passes over 10,000 records, issue 32).
                let empty = StepResult.zeroWait
                finished = { start in
                    start.report(.attempt(1))
                    return .success(empty)
                }
            } else {
                finished = { start in
                    start.report(.attempt(1))
                    do {
                        return .success(try waitResult(step, values: values, start: start))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            immediate = finished
            work = .leaf { start in
                switch finished(start) {
                case .success(let result): Future.succeeded(result, on: start.queue)
                case .failure(let error): Future.failed(error, on: start.queue)
                }
            }
        }
        return PlannedStep(
            id: step.id, needs: step.needs, group: step.parent,
            condition: condition(of: step, values: values, records: records),
            continueOnError: step.continueOnError, timeout: step.timeout ?? workflow.defaults.timeout, work: work,
            immediate: immediate)
    }

    /// A finished wait's result: no outputs to evaluate unless the step declares some.
    private static func waitResult(
        _ step: Step, values: RunValues, start: StepStart<StepResult>
    ) throws(StepError) -> StepResult {
        guard !step.outputs.isEmpty else { return StepResult(result: .object([:]), outputs: [:], attempts: 1) }
        let outputs = try outputValues(
            step, values: values, records: start.records, locals: start.locals, result: .object([:]))
        return StepResult(result: .object([:]), outputs: outputs, attempts: 1)
    }

    /// A leaf whose runner yields `result` and the attempts made; its outputs are evaluated after.
    private static func leaf(
        _ step: Step, values: RunValues, masker: SecretMasker, queue: DispatchQueue,
        runner: @escaping @Sendable (StepStart<StepResult>) -> Future<RunnerOutput>
    ) -> StepWork<StepResult> {
        if let rule = step.repeat {
            return repeatedLeaf(step, rule, values: values, masker: masker, queue: queue, runner: runner)
        }
        return .leaf { start in
            let start = IdempotencyKey.seeded(start, step: step.id, values: values)
            return runner(start).map(on: queue) { output in
                let outputs = try outputValues(
                    step, values: values, records: start.records, locals: start.locals, result: output.result)
                return StepResult(
                    result: output.result, outputs: outputs, attempts: output.attempts, request: output.request)
            }
        }
    }

    /// A leaf with `repeat`: the runner once per attempt (see `Repetition`); its outputs read the
    /// last attempt, and each `collect` entry is an output of its own.
    private static func repeatedLeaf(
        _ step: Step, _ rule: Repeat, values: RunValues, masker: SecretMasker, queue: DispatchQueue,
        runner: @escaping @Sendable (StepStart<StepResult>) -> Future<RunnerOutput>
    ) -> StepWork<StepResult> {
        .leaf { start in
            let start = IdempotencyKey.seeded(start, step: step.id, values: values)
            return Repetition.run(rule, values: values, masker: masker, start: start, queue: queue, runner: runner)
                .map(on: queue) { outcome in
                    var outputs = try outputValues(
                        step, values: values, records: start.records, locals: outcome.locals, result: outcome.result)
                    outputs.merge(outcome.collected) { _, collected in collected }
                    return StepResult(
                        result: outcome.result, outputs: outputs, attempts: outcome.attempts,
                        repetitions: outcome.repetitions, request: outcome.request)
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

    static func outputValues(
        _ step: Step, values: RunValues, records: RunRecords<StepResult>, locals: [String: Value] = [:],
        result: Value
    ) throws(StepError) -> [String: Value] {
        guard !step.outputs.isEmpty else { return [:] }
        let scope = values.scope(for: step.outputs.map(\.value), records: records, result: result, locals: locals)
        var outputs: [String: Value] = [:]
        for output in step.outputs {
            do {
                let value = try output.value.evaluate(in: scope)
                // Masked before the step's result reaches an event, a report or the journal.
                if output.secret {
                    _ = value.mappingStrings {
                        values.masker.add($0); return $0
                    }
                }
                outputs[output.name] = value
            } catch {
                throw StepError("output '\(output.name)': \(error.message)", at: error.location)
            }
        }
        return outputs
    }
}
