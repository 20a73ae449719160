import Dispatch
import Synchronization

/// The state a promise and its future share: the result once known, the callbacks waiting for it,
/// and what cancelling means. Any thread may complete, cancel or add callbacks.
///
/// `@unchecked Sendable`: every stored `var` is read and written only while holding `lock`. The
/// lock guards plain fields rather than wrapping a generic `State` because a lock generic over the
/// future's value type costs a run-time generic-metadata lookup on every use (measured with
/// callgrind: most of a hop's instructions); a concrete one does not. It is a pthread mutex so
/// ThreadSanitizer sees it (see `LockedBox`).
final class FutureCore<Value: Sendable>: @unchecked Sendable {
    typealias Callback = @Sendable (Result<Value, any Error>) -> Void

    private struct Waiter {
        let queue: DispatchQueue
        let body: Callback
        /// The waiter lets the completing thread run `body` itself (see `InlineCallbacks`).
        let inline: Bool

        /// Runs `body` with `result`: on this thread's inline list when allowed, else on `queue`.
        func submit(_ result: Result<Value, any Error>) {
            let body = self.body
            if inline, InlineCallbacks.submit({ body(result) }) { return }
            CallbackDrain.submit(on: queue) { body(result) }
        }
    }

    private let lock = PlainLock()
    private let done = Atomic<Bool>(false)
    private var storedResult: Result<Value, any Error>?
    // Most futures have exactly one waiter and one cancel handler: keeping the first of each
    // inline saves two array allocations a link in a chain.
    private var firstWaiter: Waiter?
    private var moreWaiters: [Waiter] = []
    private var firstCancelHandler: (@Sendable () -> Void)?
    private var moreCancelHandlers: [@Sendable () -> Void] = []

    init() {}

    init(result: Result<Value, any Error>) {
        storedResult = result
        done.store(true, ordering: .relaxed)
    }

    /// The result, if the future has completed.
    var result: Result<Value, any Error>? {
        var result: Result<Value, any Error>?
        lock.withLock { result = storedResult }
        return result
    }

    /// Completes the future unless it already completed. Returns whether this call completed it.
    ///
    /// Callbacks are never called from here directly: each is submitted to its own queue through
    /// the thread's `CallbackDrain`, which runs same-queue callbacks in a loop. A chain of any
    /// length therefore advances with a constant stack depth.
    @discardableResult
    func complete(_ result: Result<Value, any Error>) -> Bool {
        // The closures given to `withLock` return Void and capture their outputs: a closure whose
        // result type involved `Value` would make `withLock` generic again.
        var completed = false
        var waiters: (first: Waiter?, more: [Waiter]) = (nil, [])
        lock.withLock {
            guard storedResult == nil else { return }
            storedResult = result
            done.store(true, ordering: .releasing)
            firstCancelHandler = nil
            moreCancelHandlers = []
            waiters = takeWaiters()
            completed = true
        }
        guard completed else { return false }
        Self.notify(waiters, of: result)
        return true
    }

    /// Whether the future has completed; a lock-free read for the common case of checking a
    /// promise that is done (every promise's deinit asks).
    var isCompleted: Bool {
        done.load(ordering: .acquiring)
    }

    /// Fails the future with `FutureError.cancelled` and runs the cancel handlers, if still pending.
    @discardableResult
    func cancel() -> Bool {
        var cancelled = false
        var waiters: (first: Waiter?, more: [Waiter]) = (nil, [])
        var handlers: [@Sendable () -> Void] = []
        lock.withLock {
            guard storedResult == nil else { return }
            storedResult = .failure(FutureError.cancelled)
            done.store(true, ordering: .releasing)
            waiters = takeWaiters()
            handlers = takeCancelHandlers()
            cancelled = true
        }
        guard cancelled else { return false }
        // Handlers first: they stop the work (abort a transfer, kill a process) as early as possible.
        for handler in handlers { handler() }
        Self.notify(waiters, of: .failure(FutureError.cancelled))
        return true
    }

    /// Runs `body` on `queue` with the result. When already completed, `body` still runs later,
    /// never inside this call: after the current callback when the thread is draining `queue`,
    /// otherwise as a new block on `queue`. With `inline`, a thread inside `InlineCallbacks.run`
    /// runs it instead, from its inline list.
    func addCallback(on queue: DispatchQueue, inline: Bool = false, _ body: @escaping Callback) {
        var ready: Result<Value, any Error>?
        let waiter = Waiter(queue: queue, body: body, inline: inline)
        lock.withLock {
            if let result = storedResult {
                ready = result
            } else if firstWaiter == nil {
                firstWaiter = waiter
            } else {
                moreWaiters.append(waiter)
            }
        }
        if let ready {
            waiter.submit(ready)
        }
    }

    /// Registers what cancelling means. Runs `handler` at once when the future was already cancelled.
    func addCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        var runNow = false
        lock.withLock {
            guard let result = storedResult else {
                if firstCancelHandler == nil {
                    firstCancelHandler = handler
                } else {
                    moreCancelHandlers.append(handler)
                }
                return
            }
            if case .failure(let error) = result, let futureError = error as? FutureError {
                runNow = futureError == .cancelled
            }
        }
        if runNow { handler() }
    }

    /// Takes the waiters out; call with `lock` held.
    private func takeWaiters() -> (first: Waiter?, more: [Waiter]) {
        defer {
            firstWaiter = nil
            moreWaiters = []
        }
        return (firstWaiter, moreWaiters)
    }

    /// Takes the cancel handlers out; call with `lock` held.
    private func takeCancelHandlers() -> [@Sendable () -> Void] {
        guard let first = firstCancelHandler else { return [] }
        let all = moreCancelHandlers.isEmpty ? [first] : [first] + moreCancelHandlers
        firstCancelHandler = nil
        moreCancelHandlers = []
        return all
    }

    private static func notify(_ waiters: (first: Waiter?, more: [Waiter]), of result: Result<Value, any Error>) {
        guard let first = waiters.first else { return }
        first.submit(result)
        for waiter in waiters.more {
            waiter.submit(result)
        }
    }
}
