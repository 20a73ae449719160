import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks

/// What a run hands to the steps that run a workflow inside it (`uses`): the shared client and
/// options, and where the inner run's events and records go.
struct NestedRunContext: Sendable {
    let client: HTTPClient
    let options: RunOptions
    /// The outer run's queue: inner events are delivered on it, in order, as its own are.
    let queue: DispatchQueue
    /// The outer run's event sink.
    let onEvent: @Sendable (SchedulerEvent<StepResult>) -> Void
    /// The records of every inner step so far, by qualified id (`deploy/publish`).
    let records: LockedBox<[String: StepRecord<StepResult>]>
    /// The outer run waits for inner runs to settle (their processes gone) before it ends.
    let cleanups: CleanupTracker
}

/// Runs a checked workflow as part of another run: its own scheduler over its steps, with the
/// given inputs and the outer run's secrets, client and masker. Its events reach the outer run
/// with ids prefixed `prefix` (`deploy-eu/`), and cancelling the future cancels the inner run
/// (transfers aborted, processes killed), which the outer run waits for before it ends.
enum NestedRun {
    /// What an inner run leaves: its outcome, its records (unprefixed ids) and, when it
    /// succeeded, its workflow's top-level `outputs`.
    struct Finished: Sendable {
        let outcome: RunOutcome
        let records: [String: StepRecord<StepResult>]
        let outputs: [String: Value]
        let workflow: Workflow
    }

    /// Starts `workflow` with `inputs`; `offset` is when the outer step started (relative to the
    /// outer run's start), added to inner times so reports show one timeline.
    static func start(
        _ workflow: Workflow, inputs: [String: InputValue], prefix: String, offset: Duration,
        context: NestedRunContext, at location: SourceLocation
    ) -> Future<Finished> {
        let queue = context.queue
        var options = context.options
        options.inputs = inputs
        // The called file's own `concurrency` limits its steps; it starts no services.
        options.concurrency = nil
        options.services = [:]
        let sink = context.onEvent
        let store = context.records
        let run: WorkflowRun
        do {
            run = try WorkflowRun(
                workflow: workflow, options: options, client: context.client,
                onEvent: { event in
                    let id = prefix + event.id
                    var record = event.record
                    record = StepRecord(
                        id: id, state: record.state, output: record.output, error: record.error,
                        failureIgnored: record.failureIgnored, winner: record.winner.map { prefix + $0 },
                        startedAt: record.startedAt.map { $0 + offset },
                        finishedAt: record.finishedAt.map { $0 + offset })
                    store.withLock { $0[id] = record }
                    let forwarded = SchedulerEvent(id: id, kind: event.kind, record: record)
                    queue.async { sink(forwarded) }
                })
        } catch {
            let message = error.problems.map { "\($0.location): \($0.message)" }.joined(separator: "; ")
            return .failed(StepError("\(workflow.file) cannot start: \(message)", at: location), on: queue)
        }
        let promise = Promise<Finished>(on: queue)
        let running = run.start()
        context.cleanups.add(running.map(on: queue) { _ in () })
        promise.onCancel { run.cancel() }
        running.whenComplete(on: queue) { _ in
            let records = run.allRecords
            let outcome = WorkflowRun.outcome(of: run.workflow, records: records, interrupted: false)
            var outputs: [String: Value] = [:]
            if outcome == .succeeded {
                do {
                    outputs = try run.workflowOutputs(records: run.records)
                } catch {
                    promise.fail(error)
                    return
                }
            }
            promise.succeed(Finished(outcome: outcome, records: records, outputs: outputs, workflow: run.workflow))
        }
        return promise.future
    }

    /// The error a failed inner run gives its step: the first failed step (innermost first,
    /// qualified as `deploy/publish`), its message and its place in the called file.
    static func failure(of finished: Finished, prefix: String, at location: SourceLocation) -> StepError {
        let steps = finished.workflow.qualifiedSteps(items: { WorkflowRun.itemCount(finished.records[$0]) })
        let failed = steps.filter { step in
            guard let record = finished.records[step.id] else { return false }
            return (record.state == .failed && !record.failureIgnored) || record.state == .cancelled
        }
        let leaf =
            failed.first { step in
                switch step.step.kind {
                case .group, .uses: return false
                default: return true
                }
            } ?? failed.first
        guard let leaf, let record = finished.records[leaf.id] else {
            return StepError("\(finished.workflow.file) failed", at: location)
        }
        let place = (record.error as? any LocatedFailure)?.location ?? leaf.step.location
        let reason = record.error.map { String(describing: $0) } ?? record.state.rawValue
        return StepError("step '\(prefix)\(leaf.id)' failed: \(reason)", at: place)
    }
}
