import Dispatch
import Foundation

/// A per-thread loop that runs future callbacks, so completing a future from inside a callback on
/// the same queue needs no new queue hop and no recursion (swift-nio's approach).
///
/// While a FlowTasks callback runs on queue Q, the thread's drain remembers Q. A completion that
/// happens meanwhile and has callbacks for Q appends them to the drain's FIFO list instead of
/// calling `Q.async`; the loop runs them after the current callback returns, still inside the
/// same block of Q — so they run on Q, in order, with constant stack depth, and never inside the
/// call that completed the future or added the callback. Callbacks for any other queue go
/// through `async`.
final class CallbackDrain {
    private var queue: ObjectIdentifier?
    // The callbacks keep the `@Sendable` type they are submitted with.
    private var pending: [@Sendable () -> Void] = []
    private var head = 0
    /// Inside `InlineCallbacks.run` on this thread, and what it has still to run.
    var inlineActive = false
    var inlinePending: [@Sendable () -> Void] = []

    /// Submits `body` to run on `queue`: inline in the current drain when it is draining `queue`,
    /// otherwise as a new block on `queue` that starts a drain.
    static func submit(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
        let drain = current
        if let draining = drain.queue, draining == ObjectIdentifier(queue) {
            drain.pending.append(body)
            return
        }
        queue.async { CallbackDrain.current.run(on: queue, body) }
    }

    private func run(on queue: DispatchQueue, _ body: () -> Void) {
        // A block of another queue nested inside a callback (queue.sync) keeps the outer drain:
        // what it completes for the outer queue still runs in the outer loop.
        guard self.queue == nil else {
            body()
            return
        }
        self.queue = ObjectIdentifier(queue)
        body()
        while head < pending.count {
            let next = pending[head]
            head += 1
            next()
        }
        pending.removeAll(keepingCapacity: pending.count < 1024)
        head = 0
        self.queue = nil
    }

    /// Runs the inline list until empty; callbacks may add more as they run.
    func runInline() {
        var index = 0
        while index < inlinePending.count {
            let next = inlinePending[index]
            index += 1
            next()
        }
        inlinePending.removeAll(keepingCapacity: inlinePending.count < 1024)
    }

    /// The calling thread's drain, made on first use and released when the thread exits.
    static var current: CallbackDrain {
        if let raw = pthread_getspecific(drainKey) {
            return Unmanaged<CallbackDrain>.fromOpaque(raw).takeUnretainedValue()
        }
        let drain = CallbackDrain()
        pthread_setspecific(drainKey, Unmanaged.passRetained(drain).toOpaque())
        return drain
    }
}

/// The thread-local slot holding each thread's drain; the destructor releases it at thread exit.
private let drainKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { argument in
        // Optional in Glibc's signature, not in Darwin's: bound through an optional for both.
        let raw: UnsafeMutableRawPointer? = argument
        guard let raw else { return }
        Unmanaged<CallbackDrain>.fromOpaque(raw).release()
    }
    return key
}()
