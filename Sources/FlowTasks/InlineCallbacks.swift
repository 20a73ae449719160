import Dispatch

/// Lets a completing thread run, itself, the callbacks that were registered as inline-capable
/// (`Future.whenCompleteInline`), instead of handing each to its queue.
///
/// Both sides must agree. The waiter says its callback is light and thread-safe, so any thread
/// may run it; the completer says, by completing inside `run`, that its thread may run such
/// callbacks now. Anywhere else an inline-capable callback goes to its queue as usual. Used by
/// FlowHTTP's curl thread when a single transfer is in flight: its completion and the request
/// the callback sends next then need no thread hop at all.
///
/// Callbacks are never run from inside the call that completes a future or adds the callback:
/// they are queued on the thread's list and run, in order, once `run`'s body returns, in a loop
/// (so a chain of inline completions keeps a constant stack depth).
package enum InlineCallbacks {
    /// Runs `body`, then every inline-capable callback of futures completed meanwhile on this
    /// thread (and those their callbacks complete in turn), in the order they became ready.
    /// A nested call only runs its body: the outermost one runs the callbacks.
    package static func run(_ body: () -> Void) {
        let drain = CallbackDrain.current
        guard !drain.inlineActive else {
            body()
            return
        }
        drain.inlineActive = true
        body()
        drain.runInline()
        drain.inlineActive = false
    }

    /// Whether the calling thread is inside `run` (inline-capable callbacks would run here).
    package static var areAllowed: Bool {
        CallbackDrain.current.inlineActive
    }

    /// Queues `body` on this thread's inline list when inside `run`; false (and `body` untouched)
    /// otherwise, and the caller submits it to its queue.
    static func submit(_ body: @escaping @Sendable () -> Void) -> Bool {
        let drain = CallbackDrain.current
        guard drain.inlineActive else { return false }
        drain.inlinePending.append(body)
        return true
    }
}
