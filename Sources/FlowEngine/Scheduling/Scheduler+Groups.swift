import FlowTasks

/// Parallel groups: a group starts its children, and a FlowTasks combinator over their futures
/// decides it by `all`, `any` or `at-least`; cancelling the combinator cancels the children.
extension Scheduler {
    func startGroup(
        _ group: SchedulerNode<Output>, policy: GroupPolicy, children: [String],
        outputs: (@Sendable (RunRecords<Output>, String?) throws -> Output)?
    ) {
        markStarted(group)
        let childNodes = children.compactMap(graph.node)
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
        _ group: SchedulerNode<Output>, policy: GroupPolicy, children: [String], futures: [Future<Output?>],
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
        let group = graph.nodes[position]
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
        let node = graph.nodes[position]
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

    /// Children a group never reached (it was skipped, cancelled or decided) end with it; those
    /// still running are cancelled.
    func finishChildrenNotReached(_ children: [String], groupState: StepState) {
        for child in children {
            guard let childNode = graph.node(child), !childNode.record.state.isFinal else { continue }
            if childNode.record.state == .running {
                childNode.work?.cancel()
                childNode.decision?.cancel()
            } else {
                finish(childNode, groupState == .skipped ? .skipped : .cancelled, error: nil)
            }
        }
    }

    /// Tells the group's combinator how a child ended.
    func reportToGroup(_ node: SchedulerNode<Output>) {
        guard let promise = node.childPromise else { return }
        let id = node.step.id
        switch node.record.state {
        case .succeeded:
            promise.succeed(node.record.output)
        case .failed where node.step.continueOnError:
            promise.succeed(nil)
        case .failed:
            promise.fail(ChildFailed(id: id, error: node.record.error ?? GroupChildError.failed))
        case .skipped where graph.groupMode(of: node) == .any:
            promise.fail(ChildFailed(id: id, error: ChildSkipped(id: id)))
        case .skipped:
            promise.succeed(nil)
        default:
            promise.fail(ChildFailed(id: id, error: node.record.error ?? FutureError.cancelled))
        }
    }
}

/// A child failed without saying why (should not happen; keeps the group's message whole).
enum GroupChildError: Error {
    case failed
}
