import Dispatch

/// A DispatchWorkItem shared between the code that schedules it and the code that cancels it.
/// `DispatchWorkItem.cancel()` is documented as thread-safe, which is what makes this box safe.
private final class TimerItem: @unchecked Sendable {
    let item: DispatchWorkItem

    init(_ body: @escaping @Sendable () -> Void) {
        item = DispatchWorkItem(block: body)
    }

    func cancel() { item.cancel() }
}

extension Future where Value == Void {
    /// A future that succeeds after `duration`, on `queue`. Cancelling it stops the timer, so a
    /// cancelled delay holds no thread and never fires.
    package static func delay(_ duration: Duration, on queue: DispatchQueue) -> Future<Void> {
        // No timer for no wait: arming one costs a kernel wake-up and a thread switch (measured in
        // bench/engine, where `sleep: 0s` steps spent most of their time there).
        guard duration > .zero else { return Future.succeeded((), on: queue) }
        let promise = Promise<Void>(on: queue)
        let timer = TimerItem { promise.succeed(()) }
        promise.onCancel { timer.cancel() }
        queue.asyncAfter(deadline: .now() + duration.dispatchInterval, execute: timer.item)
        return promise.future
    }
}

extension Future {
    /// A future of this one that fails with `FutureError.timedOut` after `duration` and then
    /// cancels this one, so the work really stops. Cancelling the result cancels this one too.
    package func timeout(after duration: Duration) -> Future<Value> {
        let promise = Promise<Value>(on: queue)
        let expired = LockedBox(false)
        let timer = TimerItem {
            // Stop the work before reporting the time-out, so whoever hears of the failure can
            // count on the work having been told to stop.
            guard !promise.isCompleted else { return }
            expired.withLock { $0 = true }
            self.cancel()
            promise.fail(FutureError.timedOut(after: duration))
        }
        promise.onCancel {
            timer.cancel()
            self.cancel()
        }
        whenComplete { result in
            timer.cancel()
            // The cancellation the timer caused may be delivered first (the drain loop runs it at
            // once on this queue): it is the time-out, not a cancellation.
            if case .failure = result, expired.withLock({ $0 }) {
                promise.fail(FutureError.timedOut(after: duration))
            } else {
                promise.complete(result)
            }
        }
        queue.asyncAfter(deadline: .now() + duration.dispatchInterval, execute: timer.item)
        return promise.future
    }
}
