import Dispatch
import FlowDSL
import FlowTasks

/// Runs a plan of steps: each starts when its needs are finished and its condition holds, at most
/// `concurrency` leaves at once, groups deciding by `all`/`any`/`at-least` with the FlowTasks
/// combinators (`Scheduler+Groups.swift`).
///
/// `@unchecked Sendable`: all mutable state (the nodes of `graph`, `ready`, the counters) is touched
/// only on `queue`, the run's single owner; package entry points hop onto it. Steps waiting for
/// needs or a slot hold no thread: they are nodes in `graph` and entries in `ready`.
package final class Scheduler<Output: Sendable>: @unchecked Sendable {
    /// Every step's record, readable from any thread.
    package let records: RunRecords<Output>

    let queue: DispatchQueue
    private let concurrency: Int
    private let onEvent: @Sendable (SchedulerEvent<Output>) -> Void
    /// Every step and how they depend on each other.
    let graph: SchedulerGraph<Output>
    /// Records of steps already final before the run starts (a resumed run's earlier results).
    private let prior: [String: StepRecord<Output>]
    private var ready = ReadyQueue()
    private var runningLeaves = 0
    private var finalCount = 0
    private(set) var runCancelled = false
    /// The run's setup failed before any step (a service did not start): every step sees a failed
    /// need, so only steps whose condition holds after a failure (`always()`, `failure()`) run.
    private var setupFailed = false
    private var startTime = DispatchTime.now()
    private let done: Promise<RunRecords<Output>>
    /// Set on `queue`, so that progress reported while already on it (a zero wait reporting its
    /// attempt as it starts) is handled at once, in order, rather than queued behind the step's
    /// own completion (where it was dropped) at the cost of a block for every step.
    private let onQueue = DispatchSpecificKey<Bool>()

    /// Prepares a run of `steps` (in declaration order; needs and groups must name steps of the
    /// plan, as a checked workflow guarantees). `onEvent` is called on the run's queue, in order.
    /// `records` may be given when the plan's closures need to read them (conditions reading
    /// `steps.X`); the scheduler fills it.
    ///
    /// `prior` is the one door for results known before the run (a resumed run): those steps start
    /// final with the given record, without running or emitting events, and release their
    /// dependents as if they had just finished. A group's prior record applies only with its
    /// children's (a group is resumed as a whole); a child's applies only with its group's.
    ///
    /// `known`: the positions of the workflow's `allSteps` that `steps` were planned from, one
    /// planned step for each in that order; the graph then reuses them (see `SchedulerGraph`).
    package init(
        steps: [PlannedStep<Output>], concurrency: Int, queue: DispatchQueue, records: RunRecords<Output>? = nil,
        prior: [String: StepRecord<Output>] = [:], known: Workflow.StepPositions? = nil,
        onEvent: @escaping @Sendable (SchedulerEvent<Output>) -> Void = { _ in }
    ) {
        self.queue = queue
        self.concurrency = max(1, concurrency)
        self.onEvent = onEvent
        self.prior = prior
        done = Promise(on: queue)
        graph = SchedulerGraph(steps, known: known)
        let records = records ?? RunRecords([:])
        // Every node starts pending (`SchedulerNode.init`): its record is made again from the id,
        // rather than read from 10,000 nodes in the table's hash order.
        records.register(positions: graph.positions) { id, _ in StepRecord(id: id, state: .pending) }
        self.records = records
        queue.setSpecific(key: onQueue, value: true)
    }

    deinit {
        // The queue may outlive this run; a later key at the same address must not find the mark.
        queue.setSpecific(key: onQueue, value: nil)
    }

    /// Gives up a run that will never be started (say, its services failed): completes its future
    /// with the records as they are, every step pending, so no promise is left behind.
    package func abandon() {
        queue.async { self.done.succeed(self.records) }
    }

    /// Marks the run's setup as failed (call before `start`): see `setupFailed`.
    package func failSetup() {
        queue.async { self.setupFailed = true }
    }

    /// Starts the run. The future completes when every step is final; it never fails.
    package func start() -> Future<RunRecords<Output>> {
        queue.async {
            self.startTime = DispatchTime.now()
            if self.graph.nodes.isEmpty {
                self.done.succeed(self.records)
                return
            }
            let roots = self.graph.nodes.filter { $0.step.group == nil && $0.waitingOn == 0 }
            // Steps released by a prior result are considered as it is applied.
            self.applyPrior()
            for node in roots {
                self.consider(node)
            }
            self.checkProgress()
        }
        return done.future
    }

    /// Interrupts the run: running steps are cancelled (transfers aborted, processes killed);
    /// steps not started are cancelled unless their condition is `always()` or `cancelled()`.
    package func cancel() {
        queue.async {
            guard !self.runCancelled else { return }
            self.runCancelled = true
            for position in self.ready.drain() {
                let node = self.graph.nodes[position]
                guard node.record.state == .pending else { continue }
                self.finish(node, .cancelled, error: FutureError.cancelled)
            }
            for node in self.graph.nodes where node.record.state == .running {
                node.work?.cancel()
            }
            self.checkProgress()
        }
    }

    // MARK: - Deciding and starting

    /// Called when every need of `node` is final (and its group, if any, has started).
    func consider(_ node: SchedulerNode<Output>) {
        guard node.record.state == .pending else { return }
        // A result known before the run wins over deciding again: a step released by its needs'
        // prior records (settled first, in graph order) keeps its own prior record.
        if let record = prior[node.step.id], record.state.isFinal {
            settlePrior(node)
            if node.record.state.isFinal { return }
        }
        if let group = node.group, graph.nodes[group].decided {
            finish(node, .cancelled, error: FutureError.cancelled)
            return
        }
        let runs: Bool
        do {
            let facts =
                setupFailed
                ? ConditionFacts(needsSucceeded: false, upstreamFailed: true, runCancelled: runCancelled)
                : node.facts(runCancelled: runCancelled)
            runs = try node.step.condition.holds(facts)
        } catch {
            finish(node, .failed, error: error)
            return
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
        while runningLeaves < concurrency, let position = ready.next() {
            let node = graph.nodes[position]
            guard node.record.state == .pending else { continue }
            startLeaf(node)
        }
    }

    private func startLeaf(_ node: SchedulerNode<Output>) {
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
        // A result known at once (a zero wait) needs no future: its end is handled where the
        // future's callback would have run, so the events keep their order (a timeout keeps the
        // future, whose own callbacks take their turns).
        if let immediate = node.step.immediate, node.step.timeout == nil {
            let result = immediate(start)
            CompletedCallback.submit(on: queue) { self.leafFinished(position, result) }
            return
        }
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
        let node = graph.nodes[position]
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

    func markStarted(_ node: SchedulerNode<Output>) {
        node.record.state = .running
        let now = DispatchTime.now().uptimeNanoseconds
        let startedAt = elapsed(at: now)
        node.record.startedAt = startedAt
        // The table's record is the node's as it was when pending: the two fields that changed.
        records.update(at: node.position) { record in
            record.state = .running
            record.startedAt = startedAt
        }
        onEvent(SchedulerEvent(id: node.step.id, kind: .started, record: node.record, position: node.position, at: now))
    }

    private func progress(_ position: Int, _ progress: StepProgress) {
        let node = graph.nodes[position]
        // Lines still count after a step ended: a cancelled upload says what it does about it.
        guard node.record.state == .running || progress.isLine else { return }
        onEvent(
            SchedulerEvent(id: node.step.id, kind: .progress(progress), record: node.record, position: node.position))
    }

    // MARK: - Prior results

    /// Settles the steps `prior` gives a record for (see `init`), children before their group.
    private func applyPrior() {
        guard !prior.isEmpty else { return }
        for node in graph.nodes where node.group == nil {
            settlePrior(node)
        }
    }

    private func settlePrior(_ node: SchedulerNode<Output>) {
        guard let record = prior[node.step.id], !node.record.state.isFinal, record.state.isFinal else { return }
        if case .group(_, let children, _) = node.step.work {
            let childNodes = children.compactMap(graph.node)
            guard childNodes.allSatisfy({ prior[$0.step.id]?.state.isFinal == true }) else { return }
            for child in childNodes {
                settlePrior(child)
            }
        }
        node.record = record
        settle(node, state: record.state, emittedAt: nil)
    }

    // MARK: - Finishing

    func finish(
        _ node: SchedulerNode<Output>, _ state: StepState, output: Output? = nil, error: (any Error)? = nil
    ) {
        guard !node.record.state.isFinal else { return }
        node.record.state = state
        node.record.output = output
        node.record.error = error
        node.record.failureIgnored = state == .failed && node.step.continueOnError
        let now = DispatchTime.now().uptimeNanoseconds
        let finishedAt = elapsed(at: now)
        node.record.finishedAt = finishedAt
        // Every field but the id and the start may have changed since the start (a group's winner).
        let (failureIgnored, winner) = (node.record.failureIgnored, node.record.winner)
        records.update(at: node.position) { record in
            record.state = state
            record.output = output
            record.error = error
            record.failureIgnored = failureIgnored
            record.winner = winner
            record.finishedAt = finishedAt
        }
        settle(node, state: state, emittedAt: now, written: true)
    }

    /// Publishes a final record and releases what waited for it: the group, children never
    /// reached, and dependents. A `.finished` event says so when `emittedAt` (the clock's
    /// reading for the end) is given.
    /// `written`: the records table already holds the node's record (`finish` wrote its fields).
    private func settle(_ node: SchedulerNode<Output>, state: StepState, emittedAt: UInt64?, written: Bool = false) {
        if !written { records.update(node.record, at: node.position) }
        finalCount += 1
        if let emittedAt {
            onEvent(
                SchedulerEvent(
                    id: node.step.id, kind: .finished, record: node.record, position: node.position, at: emittedAt))
        }
        reportToGroup(node)
        if case .group(_, let children, _) = node.step.work {
            finishChildrenNotReached(children, groupState: state)
        }
        let failedHere = state == .failed && !node.step.continueOnError
        let succeeded = node.record.countsAsSuccess
        for position in graph.dependents(of: node.position) {
            let dependent = graph.nodes[position]
            dependent.waitingOn -= 1
            if failedHere || node.upstreamFailed { dependent.upstreamFailed = true }
            if !succeeded { dependent.someNeedUnsuccessful = true }
            if dependent.waitingOn == 0 { ready(dependentIfStarted: dependent) }
        }
    }

    /// A dependent whose needs are all final is considered once its group (if any) has started.
    private func ready(dependentIfStarted node: SchedulerNode<Output>) {
        if let group = node.group, graph.nodes[group].record.state == .pending {
            return
        }
        consider(node)
    }

    /// Starts what became ready (a group's end releases its dependents too), then completes the
    /// run when every step is final.
    func checkProgress() {
        pump()
        guard finalCount == graph.nodes.count else { return }
        done.succeed(records)
    }

    /// The time from the run's start to `now`, a `DispatchTime` uptime in nanoseconds.
    private func elapsed(at now: UInt64) -> Duration {
        .nanoseconds(Int64(now - startTime.uptimeNanoseconds))
    }
}
