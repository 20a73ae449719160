import Dispatch

/// One failed attempt reported to a retry observer, before the wait for the next one.
package struct RetryAttempt: Sendable {
    /// The attempt that failed, counted from 1.
    package let attempt: Int
    /// What it failed with.
    package let error: any Error
    /// How long the retry waits before the next attempt.
    package let nextDelay: Duration
}

/// Runs `operation` until it succeeds, the policy's attempts are used up, or the policy says an
/// error is not worth retrying; then completes with the last outcome.
///
/// `operation` receives the attempt number, counted from 1, and is always called on `queue`
/// (the first attempt too, so the caller's thread never runs the work). `onRetry` hears about each failed
/// attempt that will be retried, with the wait chosen. Cancelling the returned future cancels the
/// attempt in flight or the wait, and no further attempt starts.
package func retry<Value: Sendable>(
    policy: RetryPolicy,
    on queue: DispatchQueue,
    onRetry: (@Sendable (RetryAttempt) -> Void)? = nil,
    operation: @escaping @Sendable (Int) -> Future<Value>
) -> Future<Value> {
    let promise = Promise<Value>(on: queue)
    let run = RetryRun(policy: policy, queue: queue, promise: promise, onRetry: onRetry, operation: operation)
    promise.onCancel { run.cancelCurrent() }
    queue.async { run.start(attempt: 1) }
    return promise.future
}

/// The state of one `retry` call: the attempt or wait in flight, so cancelling can reach it.
private final class RetryRun<Value: Sendable>: Sendable {
    let policy: RetryPolicy
    let queue: DispatchQueue
    let promise: Promise<Value>
    let onRetry: (@Sendable (RetryAttempt) -> Void)?
    let operation: @Sendable (Int) -> Future<Value>
    /// What to cancel if the caller cancels: the running attempt or the pending wait.
    private let current = LockedBox<(@Sendable () -> Void)?>(nil)

    init(
        policy: RetryPolicy, queue: DispatchQueue, promise: Promise<Value>,
        onRetry: (@Sendable (RetryAttempt) -> Void)?, operation: @escaping @Sendable (Int) -> Future<Value>
    ) {
        self.policy = policy
        self.queue = queue
        self.promise = promise
        self.onRetry = onRetry
        self.operation = operation
    }

    func cancelCurrent() {
        let cancel = current.withLock { $0 }
        cancel?()
    }

    /// Remembers how to cancel `future`, then cancels it at once if the run was cancelled meanwhile.
    private func track<T: Sendable>(_ future: Future<T>) {
        current.withLock { $0 = { future.cancel() } }
        if promise.isCompleted { future.cancel() }
    }

    func start(attempt: Int) {
        guard !promise.isCompleted else { return }
        let future = operation(attempt)
        track(future)
        future.whenComplete(on: queue) { result in
            switch result {
            case .success(let value):
                self.promise.succeed(value)
            case .failure(let error):
                self.failed(attempt: attempt, error: error)
            }
        }
    }

    private func failed(attempt: Int, error: any Error) {
        guard attempt < policy.attempts, policy.shouldRetry(error), !promise.isCompleted else {
            promise.fail(error)
            return
        }
        let wait = policy.delay(afterFailures: attempt, error: error)
        onRetry?(RetryAttempt(attempt: attempt, error: error, nextDelay: wait))
        let delay = Future<Void>.delay(wait, on: queue)
        track(delay)
        delay.whenSuccess(on: queue) { self.start(attempt: attempt + 1) }
    }
}
