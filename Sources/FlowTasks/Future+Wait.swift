import Dispatch
import Foundation

extension Future {
    /// Blocks the calling thread until the future completes, then returns its value or throws.
    ///
    /// For the command line's main thread only (waiting for a whole run). Blocking a Dispatch
    /// worker starves the pool (libdispatch on Linux adds about one thread a second) and blocking
    /// a serial queue that the future needs deadlocks; debug builds stop with a message when
    /// called from a Dispatch queue or the Swift concurrency pool. Elsewhere use callbacks or
    /// `try await value`.
    package func wait() throws -> Value {
        assert(
            CurrentQueue.mayBlock,
            "Future.wait() called on the Dispatch queue '\(CurrentQueue.label)'; use callbacks or `await value`"
        )
        if let result = core.result { return try result.get() }
        let done = DispatchSemaphore(value: 0)
        core.addCallback(on: .global()) { _ in done.signal() }
        done.wait()
        guard let result = core.result else { preconditionFailure("a future signalled before completing") }
        return try result.get()
    }

    /// The value, awaited without blocking a thread. Cancelling the awaiting task cancels the future.
    package var value: Value {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    core.addCallback(on: queue) { result in continuation.resume(with: result) }
                }
            } onCancel: {
                cancel()
            }
        }
    }
}

/// What Dispatch says about the thread we are on.
enum CurrentQueue {
    // libdispatch exports `dispatch_queue_get_label`, but the Swift overlay on Linux does not
    // surface it; the C symbol is stable API. Passing NULL asks for the current queue's label.
    @_silgen_name("dispatch_queue_get_label")
    private static func dispatchQueueGetLabel(_ queue: OpaquePointer?) -> UnsafePointer<CChar>?

    static var label: String {
        dispatchQueueGetLabel(nil).map { String(cString: $0) } ?? ""
    }

    /// True on the main thread and on threads no queue owns (libdispatch reports those as the
    /// overcommit root queue); false on serial queues, worker threads and the concurrency pool.
    static var mayBlock: Bool {
        if Thread.isMainThread { return true }
        let label = label
        return label.isEmpty || label == "com.apple.main-thread" || label.hasSuffix(".overcommit")
    }
}
