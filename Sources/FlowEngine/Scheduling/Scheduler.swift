import Dispatch
import FlowTasks

/// Runs a plan of steps: each starts when its needs are finished and its condition holds, at most
/// `concurrency` leaves at once, groups deciding by `all`/`any`/`at-least` with the FlowTasks
/// combinators.
///
/// `@unchecked Sendable`: all mutable state (`nodes`, `ready`, the counters) is touched only on
/// `queue`, the run's single owner; public entry points hop onto it. Steps waiting for needs or a
/// slot hold no thread: they are entries in `nodes` and `ready`.
///
/// Steps refer to each other by their position in `nodes` (declaration order), not by id: a run of
/// 10,000 steps otherwise hashed ids about ten times a step (measured with perf in bench/engine).
public final class Scheduler<Output: Sendable>: @unchecked Sendable {
    /// Every step's record, readable from any thread.
    public let records: RunRecords<Output>

    private let queue: DispatchQueue
    private let concurrency: Int
    private let onEvent: @Sendable (SchedulerEvent<Output>) -> Void
    /// Every step, in declaration order.
    private let nodes: [Node]
    /// The position in `nodes` of each id.
    private let positions: [String: Int]
    /// Positions in `nodes` of the leaves ready to start, oldest first from `readyHead`.
    private var ready: [Int] = []
    private var readyHead = 0
    private var runningLeaves = 0
    private var finalCount = 0
    private var runCancelled = false
    private var startTime = DispatchTime.now()
    private let done: Promise<RunRecords<Output>>
    /// Set on `queue`, so that progress reported while already on it (a zero wait reporting its
    /// attempt as it starts) is handled at once, in order, rather than queued behind the step's
    /// own completion (where it was dropped) at the cost of a block for every step.
    private let onQueue = DispatchSpecificKey<Bool>()

    /// One step's scheduling state; lives on `queue` only.
    private final class Node {
        let step: PlannedStep<Output>
        /// This step's place in `nodes` and in the records.
        let position: Int
        var record: StepRecord<Output>
        var waitingOn: Int
        /// How many of the steps this one needs are in the plan (a need outside it never counts
        /// as a success).
        var needsInPlan = 0
        /// Positions of the steps that need this one.
        var dependents: [Int] = []
        /// The position of the group this step belongs to.
        var group: Int?
        var upstreamFailed = false
        /// Some need finished without counting as a success (failed, skipped, cancelled): noted as
        /// each need finishes, so deciding the step reads no other step's record.
        var someNeedUnsuccessful = false
        /// The future a group's combinator watches, for children of groups.
        var childPromise: Promise<Output?>?
        /// The work in flight, for a running leaf.
        var work: Future<Output>?
        /// The combinator deciding a running group; cancelling it cancels the children.
        var decision: Future<String?>?
        /// For a group: decided, so children not yet started are cancelled instead of run.
        var decided = false

        init(step: PlannedStep<Output>, position: Int) {
            self.step = step
            self.position = position
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
        done = Promise(on: queue)
        let nodes = steps.enumerated().map { Node(step: $1, position: $0) }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(nodes.count)
        for node in nodes {
            positions[node.step.id] = node.position
        }
        for node in nodes {
            node.group = node.step.group.flatMap { positions[$0] }
            for need in node.step.needs {
                guard let position = positions[need] else { continue }
                node.needsInPlan += 1
                nodes[position].dependents.append(node.position)
            }
        }
        self.nodes = nodes
        self.positions = positions
        let records = records ?? RunRecords([:])
        records.register(nodes.map(\.record))
        self.records = records
        queue.setSpecific(key: onQueue, value: true)
    }

    deinit {
        // The queue may outlive this run; a later key at the same address must not find the mark.
        queue.setSpecific(key: onQueue, value: nil)
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
            for node in self.nodes where node.step.group == nil && node.waitingOn == 0 {
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
            for position in pendingReady {
                let node = self.nodes[position]
                guard node.record.state == .pending else { continue }
                self.finish(node, .cancelled, error: FutureError.cancelled)
            }
            for node in self.nodes where node.record.state == .running {
                node.work?.cancel()
            }
            self.checkProgress()
        }
    }

    // MARK: - Deciding and starting

    /// Called when every need of `node` is final (and its group, if any, has started).
    private func consider(_ node: Node) {
        guard node.record.state == .pending else { return }
        if let group = node.group, nodes[group].decided {
            finish(node, .cancelled, error: FutureError.cancelled)
            return
        }
        let facts = ConditionFacts(
            needsSucceeded: node.needsInPlan == node.step.needs.count && !node.someNeedUnsuccessful,
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
            ready.append(node.position)
        case .group(let policy, let children, let outputs):
            startGroup(node, policy: policy, children: children, outputs: outputs)
        }
    }

    /// Starts ready leaves while slots are free, in the order they became ready.
    private func pump() {
        while runningLeaves < concurrency, readyHead < ready.count {
            let node = nodes[ready[readyHead]]
            readyHead += 1
            guard node.record.state == .pending else { continue }
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
        let position = node.position
        let start = StepStart(
            id: node.step.id, records: records,
            report: { [weak self] progress in
                guard let self else { return }
                if DispatchQueue.getSpecific(key: self.onQueue) == true {
                    self.progress(position, progress)
                } else {
                    self.queue.async { self.progress(position, progress) }
                }
            }, queue: queue)
        var work = runner(start)
        if let timeout = node.step.timeout {
            work = work.timeout(after: timeout)
        }
        node.work = work
        work.whenComplete(on: queue) { result in
            self.leafFinished(position, result)
        }
    }

    private func leafFinished(_ position: Int, _ result: Result<Output, any Error>) {
        let node = nodes[position]
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
        records.update(node.record, at: node.position)
        onEvent(SchedulerEvent(id: node.step.id, kind: .started, record: node.record))
    }

    private func progress(_ position: Int, _ progress: StepProgress) {
        let node = nodes[position]
        // Lines still count after a step ended: a cancelled upload says what it does about it.
        guard node.record.state == .running || progress.isLine else { return }
        onEvent(SchedulerEvent(id: node.step.id, kind: .progress(progress), record: node.record))
    }

    // MARK: - Groups

    private func startGroup(
        _ group: Node, policy: GroupPolicy, children: [String],
        outputs: (@Sendable (RunRecords<Output>, String?) throws -> Output)?
    ) {
        markStarted(group)
        let childNodes = children.compactMap { positions[$0].map { nodes[$0] } }
        let futures = childNodes.map { child -> Future<Output?> in
            let promise = Promise<Output?>(on: queue)
            child.childPromise = promise
            let childPosition = child.position
            promise.onCancel { [weak self] in
                guard let self else { return }
                self.queue.async { self.cancelChild(childPosition) }
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
        let groupPosition = group.position
        decision.whenComplete(on: queue) { result in
            self.groupDecided(groupPosition, result, outputs: outputs)
        }
        group.decision = decision
    }

    private func groupDecided(
        _ position: Int, _ result: Result<String?, any Error>,
        outputs: (@Sendable (RunRecords<Output>, String?) throws -> Output)?
    ) {
        let group = nodes[position]
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
    private func cancelChild(_ position: Int) {
        let node = nodes[position]
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
        records.update(node.record, at: node.position)
        finalCount += 1
        onEvent(SchedulerEvent(id: node.step.id, kind: .finished, record: node.record))
        reportToGroup(node)
        if case .group(_, let children, _) = node.step.work, state != .running {
            // Children never reached (the group was skipped or cancelled) end with it.
            for child in children {
                guard let childNode = positions[child].map({ nodes[$0] }), !childNode.record.state.isFinal else {
                    continue
                }
                if childNode.record.state == .running {
                    childNode.work?.cancel()
                    childNode.decision?.cancel()
                } else {
                    finish(childNode, state == .skipped ? .skipped : .cancelled, error: nil)
                }
            }
        }
        let failedHere = state == .failed && !node.step.continueOnError
        let succeeded = node.record.countsAsSuccess
        for position in node.dependents {
            let dependent = nodes[position]
            dependent.waitingOn -= 1
            if failedHere || node.upstreamFailed { dependent.upstreamFailed = true }
            if !succeeded { dependent.someNeedUnsuccessful = true }
            if dependent.waitingOn == 0 { ready(dependentIfStarted: dependent) }
        }
    }

    /// A dependent whose needs are all final is considered once its group (if any) has started.
    private func ready(dependentIfStarted node: Node) {
        if let group = node.group, nodes[group].record.state == .pending {
            return
        }
        consider(node)
    }

    private func reportToGroup(_ node: Node) {
        guard let promise = node.childPromise else { return }
        let id = node.step.id
        let mode: GroupPolicy.Mode? = node.group.flatMap { group in
            if case .group(let policy, _, _) = nodes[group].step.work { return policy.mode }
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
