import Dispatch

/// The callback of a result known at once, without the future that would carry it.
package enum CompletedCallback {
    /// Runs `body` on `queue` exactly when a callback added to an already completed future would
    /// run: after the current callback when this thread is draining `queue` (see `CallbackDrain`),
    /// otherwise as a new block on `queue`; never inside this call.
    ///
    /// For work whose result is known as it starts (a zero wait): the scheduler takes the result
    /// without making a future, a lock and two callback closures for it, and what it does with the
    /// result keeps the place and order it had with the future (issue 32).
    package static func submit(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
        CallbackDrain.submit(on: queue, body)
    }
}
