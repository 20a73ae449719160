import Dispatch
import Foundation

/// The producer side of a future: the code doing the work completes it exactly once.
///
/// Later completions are ignored, from any thread, so several racing producers may all try and
/// exactly one wins. A promise released without being completed fails its future with
/// `FutureError.abandoned` so nobody waits forever; debug builds also report where it was made.
package final class Promise<Value: Sendable>: Sendable {
    /// The consumer side, to hand to whoever wants the result.
    package let future: Future<Value>
    private let file: String
    private let line: Int

    /// Makes a pending promise whose future runs its default callbacks on `queue`.
    package init(on queue: DispatchQueue, file: String = #fileID, line: Int = #line) {
        future = Future(core: FutureCore(), queue: queue)
        self.file = file
        self.line = line
    }

    deinit {
        guard !future.core.isCompleted else { return }
        let abandoned = FutureError.abandoned(file: file, line: line)
        if future.core.complete(.failure(abandoned)) {
            #if DEBUG
                FileHandle.standardError.write(Data("flow: bug: \(abandoned)\n".utf8))
            #endif
        }
    }

    /// Completes the future with `value`. Returns whether this call completed it.
    @discardableResult
    package func succeed(_ value: Value) -> Bool {
        future.core.complete(.success(value))
    }

    /// Fails the future with `error`. Returns whether this call completed it.
    @discardableResult
    package func fail(_ error: any Error) -> Bool {
        future.core.complete(.failure(error))
    }

    /// Completes the future with `result`. Returns whether this call completed it.
    @discardableResult
    package func complete(_ result: Result<Value, any Error>) -> Bool {
        future.core.complete(result)
    }

    /// Completes the future with whatever `other` completes with; cancelling ours cancels `other`.
    package func complete(with other: Future<Value>) {
        // Fast path: an already-finished future (a `flatMap` returning `Future.succeeded`) needs
        // neither a cancel link nor a callback.
        if other.core.isCompleted, let result = other.core.result {
            complete(result)
            return
        }
        onCancel { other.cancel() }
        other.whenComplete(on: future.queue) { result in
            self.complete(result)
        }
    }

    /// Registers what cancelling the future means: abort a transfer, kill a process, stop a timer.
    ///
    /// The handler runs once, on the thread that calls `cancel()`, so it must be quick and
    /// thread-safe (typically it posts the real work to the queue that owns the resource). It runs
    /// at once when the future was already cancelled, and never when it completed otherwise.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        future.core.addCancelHandler(handler)
    }

    /// Whether the future has completed (succeeded, failed or cancelled).
    package var isCompleted: Bool { future.core.isCompleted }
}
