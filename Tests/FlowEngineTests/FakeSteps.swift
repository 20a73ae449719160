import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport

/// Leaf steps whose work the test finishes by hand, recording what the scheduler did to them.
final class FakeSteps: Sendable {
    private let state = LockedBox<(started: [String], cancelled: [String], promises: [String: Promise<String>])>(
        ([], [], [:]))
    private let running = LockedBox<(now: Int, most: Int)>((0, 0))
    let queue = DispatchQueue(label: "fake.steps")

    var started: [String] { state.withLock { $0.started } }
    var cancelled: [String] { state.withLock { $0.cancelled } }
    var mostAtOnce: Int { running.withLock { $0.most } }

    /// A leaf that waits until the test calls `succeed`/`fail` for it.
    func manual() -> StepWork<String> {
        .leaf { start in
            let promise = Promise<String>(on: self.queue)
            self.begin(start.id, promise)
            return promise.future
        }
    }

    /// A leaf that finishes by itself after `delay`, with `outcome`.
    func automatic(_ outcome: Result<String, TestFailure> = .success("ok"), after delay: Duration = .zero) -> StepWork<
        String
    > {
        .leaf { start in
            let promise = Promise<String>(on: self.queue)
            self.begin(start.id, promise)
            let timer = Future<Void>.delay(delay, on: self.queue)
            promise.onCancel { timer.cancel() }
            timer.whenSuccess { self.end(start.id, promise, outcome.mapError { $0 }) }
            return promise.future
        }
    }

    func succeed(_ id: String, _ value: String = "ok") {
        guard let promise = state.withLock({ $0.promises[id] }) else { return }
        end(id, promise, .success(value))
    }

    func fail(_ id: String, _ message: String = "boom") {
        guard let promise = state.withLock({ $0.promises[id] }) else { return }
        end(id, promise, .failure(TestFailure(message)))
    }

    private func begin(_ id: String, _ promise: Promise<String>) {
        state.withLock {
            $0.started.append(id)
            $0.promises[id] = promise
        }
        running.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
        promise.onCancel {
            self.state.withLock { $0.cancelled.append(id) }
            self.leave(id)
        }
    }

    private func end(_ id: String, _ promise: Promise<String>, _ result: Result<String, any Error>) {
        // Count the step as no longer running before the scheduler can hear it finished.
        guard leave(id) else { return }
        promise.complete(result)
    }

    /// Marks `id` as no longer running, once; false if it already was.
    @discardableResult
    private func leave(_ id: String) -> Bool {
        guard finished.withLock({ $0.insert(id).inserted }) else { return false }
        running.withLock { $0.now -= 1 }
        return true
    }

    private let finished = LockedBox<Set<String>>([])
}

/// Runs `steps` and returns the final records, with the order of events seen.
func run(
    _ steps: [PlannedStep<String>], concurrency: Int = 16, prior: [String: StepRecord<String>] = [:],
    whileRunning: @Sendable (Scheduler<String>) async -> Void = {
        _ in
    }
) async throws -> (records: [String: StepRecord<String>], events: [String]) {
    let events = LockedBox<[String]>([])
    let scheduler = Scheduler(
        steps: steps, concurrency: concurrency, queue: DispatchQueue(label: "run"), prior: prior,
        onEvent: { event in
            let text: String
            switch event.kind {
            case .started: text = "start \(event.id)"
            case .finished: text = "\(event.record.state.rawValue) \(event.id)"
            case .progress: text = "progress \(event.id)"
            }
            events.withLock { $0.append(text) }
        })
    let done = scheduler.start()
    await whileRunning(scheduler)
    let records = try await done.value
    return (records.all, events.withLock { $0 })
}
