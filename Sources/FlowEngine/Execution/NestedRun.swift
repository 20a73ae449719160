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

    /// What the run of one item of a `for-each` group adds: the item's names in every scope, the
    /// outer run's records for steps outside the group, and the group's id, whose own events the
    /// outer run does not see (its item events stand for them).
    struct Item: Sendable {
        let locals: [String: Value]
        let records: RunRecords<StepResult>
        let group: String
    }

    /// Starts `workflow` with `inputs`; `offset` is when the outer step started (relative to the
    /// outer run's start), added to inner times so reports show one timeline. With `item`, the
    /// run is one item of a `for-each` group of the same file (same services and `--concurrency`).
    static func start(
        _ workflow: Workflow, inputs: [String: InputValue], prefix: String, offset: Duration,
        context: NestedRunContext, at location: SourceLocation, item: Item? = nil
    ) -> Future<Finished> {
        let queue = context.queue
        var options = context.options
        options.inputs = inputs
        // `flow run --only`'s given records and item selection belong to the top-level run.
        options.prior = [:]
        options.priorItems = [:]
        options.forEachSelection = nil
        // The outer run records the step as a whole; this one tells only what must be known of it.
        options.recordsEvents = false
        options.journalPrefix = context.options.journalPrefix + prefix
        if let item {
            // An enclosing group's item (this run being an item of an item) stays in scope.
            options.itemLocals = context.options.itemLocals.merging(item.locals) { _, inner in inner }
            options.outerRecords = item.records
        } else {
            // The called file's own `concurrency` limits its steps; it starts no services; it
            // reads nothing of its caller's but its inputs.
            options.concurrency = nil
            options.services = [:]
            options.itemLocals = [:]
            options.outerRecords = nil
        }
        let hidden = item?.group
        let sink = context.onEvent
        let store = context.records
        let run: WorkflowRun
        do {
            run = try WorkflowRun(
                workflow: workflow, options: options, client: context.client,
                onEvent: { event in
                    if event.id == hidden { return }
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
    static func failure(
        of finished: Finished, prefix: String, at location: SourceLocation, hidden: String? = nil
    ) -> StepError {
        let steps = finished.workflow.qualifiedSteps(items: { WorkflowRun.itemCount(finished.records[$0]) })
        let failed = steps.filter { step in
            guard let record = finished.records[step.id] else { return false }
            return (record.state == .failed && !record.failureIgnored) || record.state == .cancelled
        }
        let leaves = failed.filter { step in
            switch step.step.kind {
            case .group where step.step.forEach == nil, .uses: return false
            default: return true
            }
        }
        // A failed leaf before one its failure cancelled (a sibling under fail-fast).
        let leaf = leaves.first { finished.records[$0.id]?.state == .failed } ?? leaves.first ?? failed.first
        guard let leaf, let record = finished.records[leaf.id] else {
            return StepError("\(finished.workflow.file) failed", at: location)
        }
        let place = (record.error as? any LocatedFailure)?.location ?? leaf.step.location
        let reason = record.error.map { String(describing: $0) } ?? record.state.rawValue
        // The body of a `for-each` group item is the item itself: its own failure (an output that
        // cannot be computed) is told without a step name.
        if leaf.id == hidden { return StepError(reason, at: place) }
        return StepError("step '\(prefix)\(leaf.id)' failed: \(reason)", at: place)
    }
}
