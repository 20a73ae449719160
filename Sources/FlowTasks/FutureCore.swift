import Dispatch
import Synchronization

/// The state a promise and its future share: the result once known, the callbacks waiting for it,
/// and what cancelling means. All of it is guarded by one mutex, so any thread may complete,
/// cancel or add callbacks.
final class FutureCore<Value: Sendable>: Sendable {
    typealias Callback = @Sendable (Result<Value, any Error>) -> Void

    private struct Waiter {
        let queue: DispatchQueue
        let body: Callback
    }

    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [Waiter] = []
        var cancelHandlers: [@Sendable () -> Void] = []
    }

    private let state: Mutex<State>

    init() {
        state = Mutex(State())
    }

    init(result: Result<Value, any Error>) {
        state = Mutex(State(result: result))
    }

    /// The result, if the future has completed.
    var result: Result<Value, any Error>? {
        state.withLock { $0.result }
    }

    /// Completes the future unless it already completed. Returns whether this call completed it.
    ///
    /// Callbacks are never called from here: each is submitted to its own queue. A chain of
    /// any length therefore advances one queue hop at a time with a constant stack depth.
    @discardableResult
    func complete(_ result: Result<Value, any Error>) -> Bool {
        let waiters: [Waiter]? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            let waiters = state.waiters
            state.waiters = []
            state.cancelHandlers = []
            return waiters
        }
        guard let waiters else { return false }
        for waiter in waiters {
            waiter.queue.async { waiter.body(result) }
        }
        return true
    }

    /// Fails the future with `FutureError.cancelled` and runs the cancel handlers, if still pending.
    @discardableResult
    func cancel() -> Bool {
        let outcome: ([Waiter], [@Sendable () -> Void])? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = .failure(FutureError.cancelled)
            let taken = (state.waiters, state.cancelHandlers)
            state.waiters = []
            state.cancelHandlers = []
            return taken
        }
        guard let (waiters, handlers) = outcome else { return false }
        // Handlers first: they stop the work (abort a transfer, kill a process) as early as possible.
        for handler in handlers { handler() }
        let result: Result<Value, any Error> = .failure(FutureError.cancelled)
        for waiter in waiters {
            waiter.queue.async { waiter.body(result) }
        }
        return true
    }

    /// Runs `body` on `queue` with the result; at once (asynchronously) if already completed.
    func addCallback(on queue: DispatchQueue, _ body: @escaping Callback) {
        let ready: Result<Value, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            state.waiters.append(Waiter(queue: queue, body: body))
            return nil
        }
        if let ready {
            queue.async { body(ready) }
        }
    }

    /// Registers what cancelling means. Runs `handler` at once when the future was already cancelled.
    func addCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            guard let result = state.result else {
                state.cancelHandlers.append(handler)
                return false
            }
            if case .failure(let error) = result, let futureError = error as? FutureError,
                futureError == .cancelled
            {
                return true
            }
            return false
        }
        if runNow { handler() }
    }
}
