import Dispatch

/// The consumer side of a result that will be known later.
///
/// Callbacks run on a queue the caller names, or on the future's own queue by default, whichever
/// thread completes it. A callback added after completion still runs, asynchronously, on its queue.
package struct Future<Value: Sendable>: Sendable {
    let core: FutureCore<Value>

    /// The queue on which callbacks run unless another is named.
    package let queue: DispatchQueue

    init(core: FutureCore<Value>, queue: DispatchQueue) {
        self.core = core
        self.queue = queue
    }

    /// A future that has already succeeded with `value`.
    package static func succeeded(_ value: Value, on queue: DispatchQueue) -> Future<Value> {
        Future(core: FutureCore(result: .success(value)), queue: queue)
    }

    /// A future that has already failed with `error`.
    package static func failed(_ error: any Error, on queue: DispatchQueue) -> Future<Value> {
        Future(core: FutureCore(result: .failure(error)), queue: queue)
    }

    /// The result, if the future has completed; `nil` while it is pending.
    package var result: Result<Value, any Error>? { core.result }

    /// Whether the future has completed (succeeded, failed or cancelled).
    package var isCompleted: Bool { core.isCompleted }

    /// Runs `body` with the result on `queue` (the future's own queue by default).
    package func whenComplete(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        core.addCallback(on: queue ?? self.queue, body)
    }

    /// Runs `body` with the result on the thread that completes the future when that thread
    /// allows it (inside `InlineCallbacks.run`, as FlowHTTP's curl thread is when a single
    /// transfer finishes); otherwise on `queue` (the future's own by default), as `whenComplete`.
    ///
    /// Inline, `body` runs on a thread that does other work and alongside whatever runs on
    /// `queue`: it must be quick, must never block or wait (`Future.wait`, `queue.sync`), and must
    /// guard any state it shares (a `LockedBox`). It still runs exactly once, never inside the
    /// call that completes the future or adds it, and the inline callbacks of one future run in
    /// the order they were added.
    package func whenCompleteInline(
        otherwiseOn queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        core.addCallback(on: queue ?? self.queue, inline: true, body)
    }

    /// Runs `body` with the value on `queue` if the future succeeds.
    package func whenSuccess(on queue: DispatchQueue? = nil, _ body: @escaping @Sendable (Value) -> Void) {
        whenComplete(on: queue) { result in
            if case .success(let value) = result { body(value) }
        }
    }

    /// Runs `body` with the error on `queue` if the future fails (cancellation included).
    package func whenFailure(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (any Error) -> Void
    ) {
        whenComplete(on: queue) { result in
            if case .failure(let error) = result { body(error) }
        }
    }

    /// Cancels the work: fails the future with `FutureError.cancelled` and runs the producer's
    /// cancel handlers once. Does nothing if the future has already completed.
    package func cancel() {
        core.cancel()
    }
}

extension DispatchQueue {
    /// Runs `body` on this queue and returns a future of its outcome.
    package func submit<Value: Sendable>(
        _ body: @escaping @Sendable () throws -> Value
    ) -> Future<Value> {
        let promise = Promise<Value>(on: self)
        async {
            promise.complete(Result { try body() })
        }
        return promise.future
    }
}
