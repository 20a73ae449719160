import Dispatch
import FlowTasks

/// Runs a plan of steps: each starts when its needs are finished and its condition holds, at most
/// `concurrency` leaves at once, groups deciding by `all`/`any`/`at-least` with the FlowTasks
/// combinators.
///
/// `@unchecked Sendable`: all mutable state (`nodes`, `ready`, the counters) is touched only on
/// `queue`, the run's single owner; public entry points hop onto it. Steps waiting for needs or a
/// slot hold no thread: they are entries in `nodes` and `ready`.
public final class Scheduler<Output: Sendable>: @unchecked Sendable {
    /// Every step's record, readable from any thread.
    public let records: RunRecords<Output>

    private let queue: DispatchQueue
    private let concurrency: Int
    private let onEvent: @Sendable (SchedulerEvent<Output>) -> Void
    private let declarationOrder: [String]
    private var nodes: [String: Node] = [:]
    private var ready: [String] = []
    private var readyHead = 0
    private var runningLeaves = 0
    private var finalCount = 0
    private var runCancelled = false
    private var startTime = DispatchTime.now()
    private let done: Promise<RunRecords<Output>>

    /// One step's scheduling state; lives on `queue` only.
    private final class Node {
        let step: PlannedStep<Output>
        var record: StepRecord<Output>
        var waitingOn: Int
        var dependents: [String] = []
        var upstreamFailed = false
        /// The future a group's combinator watches, for children of groups.
        var childPromise: Promise<Output?>?
        /// The work in flight, for a running leaf.
        var work: Future<Output>?
        /// The combinator deciding a running group; cancelling it cancels the children.
        var decision: Future<String?>?
        /// For a group: decided, so children not yet started are cancelled instead of run.
        var decided = false

        init(step: PlannedStep<Output>) {
            self.step = step
            record = StepRecord(id: step.id, state: .pending)
            waitingOn = step.needs.count
        }
    }

    /// Prepares a run of `steps` (in declaration order; needs and groups must name steps of the
    /// plan, as a checked workflow guarantees). `onEvent` is called on the run's queue, in order.
    /// `records` may be given when the plan's closures need to read them (conditions reading
    /// `steps.X`); the scheduler fills it.
    public init(
        steps: [PlannedStep<Output>], concurrency: Int, queue: DispatchQueue, records: RunRecords<Output>? = nil,
        onEvent: @escaping @Sendable (SchedulerEvent<Output>) -> Void = { _ in }
    ) {
        self.queue = queue
        self.concurrency = max(1, concurrency)
        self.onEvent = onEvent
        declarationOrder = steps.map(\.id)
        done = Promise(on: queue)
        let records = records ?? RunRecords([:])
        for step in steps {
            let node = Node(step: step)
            nodes[step.id] = node
            records.update(node.record)
        }
        self.records = records
        for step in steps {
            for need in step.needs {
                nodes[need]?.dependents.append(step.id)
            }
        }
    }

    /// Gives up a run that will never be started (say, its services failed): completes its future
    /// with the records as they are, every step pending, so no promise is left behind.
    public func abandon() {
        queue.async { self.done.succeed(self.records) }
    }

    /// Starts the run. The future completes when every step is final; it never fails.
    public func start() -> Future<RunRecords<Output>> {
        queue.async {
            self.startTime = DispatchTime.now()
            if self.nodes.isEmpty {
                self.done.succeed(self.records)
                return
            }
            for id in self.declarationOrder {
                guard let node = self.nodes[id], node.step.group == nil, node.waitingOn == 0 else { continue }
                self.consider(node)
            }
            self.checkProgress()
        }
        return done.future
    }

    /// Interrupts the run: running steps are cancelled (transfers aborted, processes killed);
    /// steps not started are cancelled unless their condition is `always()` or `cancelled()`.
    public func cancel() {
        queue.async {
            guard !self.runCancelled else { return }
            self.runCancelled = true
            let pendingReady = self.ready[self.readyHead...]
            self.ready = []
            self.readyHead = 0
            for id in pendingReady {
                guard let node = self.nodes[id], node.record.state == .pending else { continue }
                self.finish(node, .cancelled, error: FutureError.cancelled)
            }
            for id in self.declarationOrder {
                guard let node = self.nodes[id], node.record.state == .running else { continue }
                node.work?.cancel()
            }
            self.checkProgress()
        }
    }

    // MARK: - Deciding and starting

    /// Called when every need of `node` is final (and its group, if any, has started).
    private func consider(_ node: Node) {
        guard node.record.state == .pending else { return }
        if let group = node.step.group, let parent = nodes[group], parent.decided {
            finish(node, .cancelled, error: FutureError.cancelled)
            return
        }
        let facts = ConditionFacts(
            needsSucceeded: node.step.needs.allSatisfy { nodes[$0]?.record.countsAsSuccess ?? false },
            upstreamFailed: node.upstreamFailed,
            runCancelled: runCancelled)
        let runs: Bool
        switch node.step.condition {
        case .success: runs = facts.needsSucceeded && !runCancelled
        case .failure: runs = facts.upstreamFailed && !runCancelled
        case .always: runs = true
        case .cancelled: runs = runCancelled
        case .custom(let decide):
            do {
                runs = try decide(facts)
            } catch {
                finish(node, .failed, error: error)
                return
            }
        }
        guard runs else {
            finish(node, runCancelled ? .cancelled : .skipped, error: nil)
            return
        }
        switch node.step.work {
        case .leaf:
            ready.append(node.step.id)
        case .group(let policy, let children, let outputs):
            startGroup(node, policy: policy, children: children, outputs: outputs)
        }
    }

    /// Starts ready leaves while slots are free, in the order they became ready.
    private func pump() {
        while runningLeaves < concurrency, readyHead < ready.count {
            let id = ready[readyHead]
            readyHead += 1
            guard let node = nodes[id], node.record.state == .pending else { continue }
            startLeaf(node)
        }
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
    }

    private func startLeaf(_ node: Node) {
        guard case .leaf(let runner) = node.step.work else { return }
        runningLeaves += 1
        markStarted(node)
        let id = node.step.id
        let start = StepStart(
            id: id, records: records,
            report: { [weak self] progress in
                guard let self else { return }
                self.queue.async { self.progress(id, progress) }
            }, queue: queue)
        var work = runner(start)
        if let timeout = node.step.timeout {
            work = work.timeout(after: timeout)
        }
        node.work = work
        work.whenComplete(on: queue) { result in
            self.leafFinished(id, result)
        }
    }

    private func leafFinished(_ id: String, _ result: Result<Output, any Error>) {
        guard let node = nodes[id] else { return }
        runningLeaves -= 1
        node.work = nil
        switch result {
        case .success(let output):
            finish(node, .succeeded, output: output)
        case .failure(let error as FutureError) where error == .cancelled:
            finish(node, .cancelled, error: error)
        case .failure(let error):
            finish(node, .failed, error: error)
        }
        checkProgress()
    }

    private func markStarted(_ node: Node) {
        node.record.state = .running
        node.record.startedAt = elapsed()
        records.update(node.record)
        onEvent(SchedulerEvent(id: node.step.id, kind: .started, record: node.record))
    }

    private func progress(_ id: String, _ progress: StepProgress) {
        // Lines still count after a step ended: a cancelled upload says what it does about it.
        guard let node = nodes[id], node.record.state == .running || progress.isLine else { return }
        onEvent(SchedulerEvent(id: id, kind: .progress(progress), record: node.record))
    }

    // MARK: - Groups

    private func startGroup(
        _ group: Node, policy: GroupPolicy, children: [String],
        outputs: (@Sendable (RunRecords<Output>, String?) throws -> Output)?
    ) {
        markStarted(group)
        let childNodes = children.compactMap { nodes[$0] }
        let futures = childNodes.map { child -> Future<Output?> in
            let promise = Promise<Output?>(on: queue)
            child.childPromise = promise
            let childID = child.step.id
            promise.onCancel { [weak self] in
                guard let self else { return }
                self.queue.async { self.cancelChild(childID) }
            }
            return promise.future
        }
        decide(group, policy: policy, children: childNodes.map(\.step.id), futures: futures, outputs: outputs)
        for child in childNodes where child.waitingOn == 0 {
            consider(child)
        }
    }

    private func decide(
        _ group: Node, policy: GroupPolicy, children: [String], futures: [Future<Output?>],
        outputs: (@Sendable (RunRecords<Output>, String?) throws -> Output)?
    ) {
        let groupID = group.step.id
        let failure: @Sendable ([(Int, any Error)]) -> GroupFailure = { errors in
            GroupFailure(
                group: groupID, policy: policy,
                failures: errors.map { index, error in
                    GroupFailure.ChildFailure(id: children[index], error: (error as? ChildFailed)?.error ?? error)
                })
        }
        let decision: Future<String?>
        switch policy.mode {
        case .all where policy.failFast:
            decision = Future.all(futures, on: queue)
                .map { _ in nil }
                .flatMapError { error in
                    let index = (error as? ChildFailed).flatMap { failed in children.firstIndex(of: failed.id) } ?? 0
                    return Future.failed(failure([(index, error)]), on: self.queue)
                }
        case .all:
            decision = Future.allSettled(futures, on: queue).flatMap { results in
                let errors = results.enumerated().compactMap { index, result -> (Int, any Error)? in
                    if case .failure(let error) = result { return (index, error) }
                    return nil
                }
                return errors.isEmpty
                    ? Future.succeeded(nil, on: self.queue) : Future.failed(failure(errors), on: self.queue)
            }
        case .any:
            decision = Future.atLeast(policy.atLeast, of: futures, on: queue)
                .map { successes in successes.first.map { children[$0.index] } }
                .flatMapError { error in
                    let errors = (error as? QuorumError)?.errors.map { ($0.index, $0.error) } ?? []
                    return Future.failed(failure(errors), on: self.queue)
                }
        }
        decision.whenComplete(on: queue) { result in
            self.groupDecided(groupID, result, outputs: outputs)
        }
        group.decision = decision
    }

    private func groupDecided(
        _ id: String, _ result: Result<String?, any Error>,
        outputs: (@Sendable (RunRecords<Output>, String?) throws -> Output)?
    ) {
        guard let group = nodes[id] else { return }
        group.decided = true
        switch result {
        case .success(let winner):
            group.record.winner = winner
            if let outputs {
                do {
                    finish(group, .succeeded, output: try outputs(records, winner))
                } catch {
                    finish(group, .failed, error: error)
                }
            } else {
                finish(group, .succeeded)
            }
        case .failure(let error as FutureError) where error == .cancelled:
            finish(group, .cancelled, error: error)
        case .failure(let error):
            // Children stopped by an interrupt fail the combinator; the group itself was cancelled.
            finish(group, runCancelled ? .cancelled : .failed, error: error)
        }
        checkProgress()
    }

    /// A group's combinator gave up on this child (a loser, or a sibling failed).
    private func cancelChild(_ id: String) {
        guard let node = nodes[id] else { return }
        switch node.record.state {
        case .running:
            node.work?.cancel()
            node.decision?.cancel()
        case .pending:
            finish(node, .cancelled, error: FutureError.cancelled)
        default:
            break
        }
        checkProgress()
    }

    // MARK: - Finishing

    private func finish(_ node: Node, _ state: StepState, output: Output? = nil, error: (any Error)? = nil) {
        guard !node.record.state.isFinal else { return }
        node.record.state = state
        node.record.output = output
        node.record.error = error
        node.record.failureIgnored = state == .failed && node.step.continueOnError
        node.record.finishedAt = elapsed()
        records.update(node.record)
        finalCount += 1
        onEvent(SchedulerEvent(id: node.step.id, kind: .finished, record: node.record))
        reportToGroup(node)
        if case .group(_, let children, _) = node.step.work, state != .running {
            // Children never reached (the group was skipped or cancelled) end with it.
            for child in children {
                guard let childNode = nodes[child], !childNode.record.state.isFinal else { continue }
                if childNode.record.state == .running {
                    childNode.work?.cancel()
                    childNode.decision?.cancel()
                } else {
                    finish(childNode, state == .skipped ? .skipped : .cancelled, error: nil)
                }
            }
        }
        let failedHere = state == .failed && !node.step.continueOnError
        for dependentID in node.dependents {
            guard let dependent = nodes[dependentID] else { continue }
            dependent.waitingOn -= 1
            if failedHere || node.upstreamFailed { dependent.upstreamFailed = true }
            if dependent.waitingOn == 0 { ready(dependentIfStarted: dependent) }
        }
    }

    /// A dependent whose needs are all final is considered once its group (if any) has started.
    private func ready(dependentIfStarted node: Node) {
        if let group = node.step.group, let parent = nodes[group], parent.record.state == .pending {
            return
        }
        consider(node)
    }

    private func reportToGroup(_ node: Node) {
        guard let promise = node.childPromise else { return }
        let id = node.step.id
        let mode: GroupPolicy.Mode? = node.step.group.flatMap { group in
            if case .group(let policy, _, _) = nodes[group]?.step.work { return policy.mode }
            return nil
        }
        switch node.record.state {
        case .succeeded:
            promise.succeed(node.record.output)
        case .failed where node.step.continueOnError:
            promise.succeed(nil)
        case .failed:
            promise.fail(ChildFailed(id: id, error: node.record.error ?? GroupChildError.failed))
        case .skipped where mode == .any:
            promise.fail(ChildFailed(id: id, error: ChildSkipped(id: id)))
        case .skipped:
            promise.succeed(nil)
        default:
            promise.fail(ChildFailed(id: id, error: node.record.error ?? FutureError.cancelled))
        }
    }

    /// Starts what became ready (a group's end releases its dependents too), then completes the
    /// run when every step is final.
    private func checkProgress() {
        pump()
        guard finalCount == nodes.count else { return }
        done.succeed(records)
    }

    private func elapsed() -> Duration {
        .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - startTime.uptimeNanoseconds))
    }
}

/// A child failed without saying why (should not happen; keeps the group's message whole).
enum GroupChildError: Error {
    case failed
}
