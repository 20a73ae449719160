import Dispatch
import FlowDSL
import FlowTasks

/// One run of a `for-each` step: runs the step's leaf once per item with the item and `index` in
/// scope, at most `limit` at once, and decides like a group (`all` with or without fail-fast,
/// `any`, `at-least`). Items in flight are cancelled when the outcome is decided (a failure under
/// fail-fast, a won race) or when the step is. The results become one `StepResult`: outputs as
/// lists in item order and `items`.
///
/// `@unchecked Sendable`: every mutable field is touched only on `queue` (the run's queue, which
/// `StepStart` gives), the one owner; `cancel()` hops onto it.
final class ForEachRun: @unchecked Sendable {
    /// What stays the same across items.
    struct Plan: Sendable {
        let step: Step
        let forEach: ForEach
        /// Items in flight at once.
        let limit: Int
        /// Each item's time limit.
        let timeout: Duration?
        let masker: SecretMasker
        /// Runs the step once with the given start (whose `locals` hold the item).
        let leaf: @Sendable (StepStart<StepResult>) -> Future<StepResult>
        /// Items that succeeded in the run being resumed, by index: one whose value is the same
        /// again does not run and keeps its outputs.
        var kept: [Int: PriorItem] = [:]
    }

    private let plan: Plan
    private let start: StepStart<StepResult>
    private let items: [Value]
    private let queue: DispatchQueue
    private let promise: Promise<StepResult>
    /// Each item's result once final; nil until then.
    private var results: [ItemResult?]
    private var running: [Int: Future<StepResult>] = [:]
    private var nextIndex = 0
    private var succeeded = 0
    private var failed = 0
    private var finished = 0
    private var decided = false
    /// The failed items' errors, by index (only failures are kept); the message names the lowest.
    private var failures: [Int: any Error] = [:]
    /// Set while `pump` runs, so an item finishing synchronously does not re-enter it.
    private var pumping = false
    /// An item ended in this turn of the queue and none started since: the next start follows it
    /// (`ItemProgress.followsEnd`). Every end is followed by `pump`, in the same turn, which
    /// clears it when it returns.
    private var ended = false

    private init(plan: Plan, start: StepStart<StepResult>, items: [Value]) {
        self.plan = plan
        self.start = start
        self.items = items
        queue = start.queue
        promise = Promise(on: start.queue)
        results = Array(repeating: nil, count: items.count)
    }

    /// Runs the step over `items` (already evaluated); the future completes with the combined
    /// result, or fails with a `ForEachFailure`. Cancelling it cancels the items in flight.
    static func run(_ plan: Plan, start: StepStart<StepResult>, items: [Value]) -> Future<StepResult> {
        let run = ForEachRun(plan: plan, start: start, items: items)
        run.promise.onCancel { [weak run] in
            guard let run else { return }
            run.queue.async { run.cancelAll() }
        }
        // Started from the run's queue (a scheduler leaf starts there).
        run.begin()
        return run.promise.future
    }

    private var needed: Int {
        plan.forEach.mode == .any ? (plan.forEach.atLeast ?? 1) : items.count
    }

    private func begin() {
        if plan.forEach.mode == .any, needed > items.count {
            let message =
                items.isEmpty
                ? "step '\(plan.step.id)' has no items to race ('parallel: any' needs at least one)"
                : "step '\(plan.step.id)' needs \(needed) successes but has only \(items.count) item(s)"
            fail(message, at: plan.forEach.location)
            return
        }
        pump()
    }

    /// Items `pump` starts in one turn of the queue before it gives the queue back. A cancel (Ctrl-C,
    /// a decided group, a timeout) and the run's other steps wait their turn on the same queue: without
    /// a pause, a million items that finish at once (a zero wait, items kept by a resume) held them
    /// for seconds and the step ran to its end after an interrupt.
    static let itemsInOneTurn = 1_000

    /// Starts items while slots are free; handles items that finish at once in the same loop,
    /// so 100,000 zero-length items neither recurse nor hop threads (one hop a thousand items).
    private func pump() {
        guard !pumping else { return }
        pumping = true
        defer {
            pumping = false
            ended = false
        }
        var startedInThisTurn = 0
        while !decided, running.count < plan.limit, nextIndex < items.count {
            if startedInThisTurn == Self.itemsInOneTurn {
                queue.async { [self] in pump() }
                return
            }
            startedInThisTurn += 1
            let index = nextIndex
            nextIndex += 1
            launch(index)
        }
        if !decided, running.isEmpty, nextIndex >= items.count { conclude() }
    }

    private func launch(_ index: Int) {
        let item = items[index]
        report(index, .started, followsEnd: ended)
        ended = false
        if let kept = plan.kept[index], kept.item == item {
            // Succeeded before this resume: not sent again, its outputs as they were (no attempt).
            itemFinished(index, .success(StepResult(result: .object([:]), outputs: kept.outputs, attempts: 0)))
            return
        }
        // The item's names join those the step already has (a nested run's, say): merged, not replaced.
        var locals = start.locals
        locals[plan.forEach.name] = item
        locals[ForEach.indexName] = .number(Double(index))
        let outer = start.report
        let itemStart = StepStart<StepResult>(
            id: start.id, records: start.records,
            report: { progress in
                // An item's first attempt is its start, already reported; lines, bytes and retries pass.
                if case .attempt(1) = progress { return }
                // Bytes name their item: with items in flight at once, the log says whose they are.
                if case .bytes(let done, let total, nil) = progress {
                    outer(.bytes(done: done, total: total, item: index))
                    return
                }
                outer(progress)
            }, queue: start.queue, locals: locals)
        var future = plan.leaf(itemStart)
        // An item done at once (a zero wait) is settled here: no timer, no callback, no hop.
        if let result = future.result {
            itemFinished(index, result)
            return
        }
        if let timeout = plan.timeout { future = future.timeout(after: timeout) }
        running[index] = future
        future.whenComplete(on: queue) { [self] result in
            guard running.removeValue(forKey: index) != nil else { return }
            itemFinished(index, result)
            pump()
        }
    }

    private func itemFinished(_ index: Int, _ result: Result<StepResult, any Error>) {
        finished += 1
        let item = items[index]
        switch result {
        case .success(let output):
            succeeded += 1
            results[index] = ItemResult(
                item: item, state: .succeeded, outputs: output.outputs, error: nil, attempts: output.attempts)
            report(index, .finished(.succeeded, message: nil), outputs: output.outputs, attempts: output.attempts)
        case .failure(let error as FutureError) where error == .cancelled:
            results[index] = ItemResult(item: item, state: .cancelled, outputs: [:], error: "cancelled", attempts: 1)
            report(index, .finished(.cancelled, message: nil))
        case .failure(let error):
            failed += 1
            let message = plan.masker(String(describing: error))
            results[index] = ItemResult(item: item, state: .failed, outputs: [:], error: message, attempts: 1)
            failures[index] = error
            report(index, .finished(.failed, message: message))
        }
        decideEarly()
        ended = true
    }

    /// Decides before every item is final when the policy allows.
    private func decideEarly() {
        guard !decided else { return }
        switch plan.forEach.mode {
        case .all:
            if failed > 0, plan.forEach.failFast { conclude() }
        case .any:
            if succeeded >= needed || failed > items.count - needed { conclude() }
        }
    }

    /// Settles the step: cancels what is in flight, marks items never started, completes.
    private func conclude() {
        guard !decided else { return }
        decided = true
        stopTheRest(reason: "cancelled")
        let result = combined()
        let enough: Bool =
            switch plan.forEach.mode {
            case .all: failed == 0 && succeeded == items.count
            case .any: succeeded >= needed
            }
        if enough {
            promise.succeed(result)
            return
        }
        guard let index = failures.keys.min(), let error = failures[index] else {
            fail("step '\(plan.step.id)' was cancelled", at: plan.forEach.location, partial: result)
            return
        }
        let described = plan.masker(String(describing: error))
        var message = "step '\(plan.step.id)' item \(index) (\(label(index))) failed: \(described)"
        if plan.forEach.mode == .any {
            message =
                "step '\(plan.step.id)': \(succeeded) of \(items.count) items succeeded, \(needed) needed; first failure: item \(index) (\(label(index))): \(described)"
        } else if failed > 1 {
            message += " (\(failed) of \(items.count) items failed)"
        }
        let location = (error as? any LocatedFailure)?.location ?? plan.forEach.location
        promise.fail(ForEachFailure(message: message, location: location, partial: result))
    }

    private func stopTheRest(reason: String) {
        let inFlight = running
        running = [:]
        for (index, future) in inFlight.sorted(by: { $0.key < $1.key }) {
            future.cancel()
            finished += 1
            results[index] = ItemResult(item: items[index], state: .cancelled, outputs: [:], error: reason, attempts: 1)
            report(index, .finished(.cancelled, message: nil))
        }
        while nextIndex < items.count {
            results[nextIndex] = ItemResult(
                item: items[nextIndex], state: .skipped, outputs: [:], error: nil, attempts: 0)
            nextIndex += 1
        }
    }

    /// The step was cancelled (the run was interrupted, or its group decided).
    private func cancelAll() {
        guard !decided else { return }
        decided = true
        stopTheRest(reason: "cancelled")
    }

    private func combined() -> StepResult {
        // The step's own outputs, and those only its items know (a `uses` step's called file's).
        var names = Set(plan.step.outputs.map(\.name))
        for case let result? in results { names.formUnion(result.outputs.keys) }
        var lists: [String: [Value]] = [:]
        for name in names {
            lists[name] = results.map { $0?.outputs[name] ?? .null }
        }
        let attempts = results.reduce(0) { $0 + ($1?.attempts ?? 0) }
        return StepResult(
            result: .object([:]), outputs: lists.mapValues(Value.array), attempts: attempts,
            items: results.enumerated().map { index, result in
                result ?? ItemResult(item: items[index], state: .skipped, outputs: [:], error: nil, attempts: 0)
            })
    }

    private func fail(_ message: String, at location: SourceLocation, partial: StepResult? = nil) {
        decided = true
        promise.fail(ForEachFailure(message: message, location: location, partial: partial ?? combined()))
    }

    private func report(
        _ index: Int, _ event: ItemProgress.Event, outputs: [String: Value] = [:], attempts: Int = 1,
        followsEnd: Bool = false
    ) {
        // The label costs a JSON rendering and a mask: only where it is shown (failures, small lists).
        let shown: Bool =
            switch event {
            case .finished(.failed, _): true
            default: items.count <= Self.labelledItems
            }
        start.report(
            .item(
                ItemProgress(
                    index: index, total: items.count, event: event, finished: finished, failed: failed,
                    label: shown ? label(index) : "", item: items[index], outputs: outputs, attempts: attempts,
                    followsEnd: followsEnd)))
    }

    /// Lists up to this long label every item's events; longer ones only failures.
    static let labelledItems = 1000

    /// The item's value, short and masked, as messages show it.
    private func label(_ index: Int) -> String {
        Self.label(items[index], masker: plan.masker)
    }

    static func label(_ item: Value, masker: SecretMasker) -> String {
        let text = masker.maskedPrefix(item.jsonText, maxLength: 60)
        return text
    }
}

extension ForEachRun {
    /// The items `for-each` gives: a list as it is, an object as `{key, value}` entries in key
    /// order; anything else is an error naming the step.
    static func items(of value: Value, step: Step, at location: SourceLocation) throws(StepError) -> [Value] {
        switch value {
        case .array(let items): return items
        case .object(let members):
            return members.keys.sorted().map { key in .object(["key": .string(key), "value": members[key] ?? .null]) }
        default:
            throw StepError(
                "'for-each' of step '\(step.id)' gave \(value.typeName), not a list", at: location)
        }
    }
}
