import FlowTasks

/// Keeps a command's output from piling up in memory when the command prints faster than flow can
/// show it: the reader of its pipes stops reading while more than `size` of its output is still on
/// the way to the printer, so the command waits on a full pipe, as it would writing to a slow
/// terminal.
///
/// What is on the way is counted by `OutputHold`s: each batch of lines carries one, and its share
/// is given back when the last copy of the batch's lines is gone (printed, or dropped by a
/// consumer that does not print them).
final class OutputWindow: Sendable {
    /// Bytes on the way at most before reading pauses; reading resumes below half of it.
    static let defaultSize = 1 << 20
    /// What a line costs besides its bytes (the event carrying it, the printer's prefix), so a
    /// flood of empty lines is bounded too.
    static let lineCost = 64

    private struct State {
        var inFlight = 0
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
    }

    private let size: Int
    private let state = LockedBox(State())

    init(size: Int = defaultSize) {
        self.size = size
    }

    /// Counts `lines` (with `bytes` in all) as on the way until the returned hold is released.
    func hold(bytes: Int, lines: Int) -> OutputHold {
        let cost = bytes + lines * Self.lineCost
        state.withLock { $0.inFlight += cost }
        return OutputHold(window: self, cost: cost)
    }

    /// Returns once there is room again (at once when there is), or when the task is cancelled
    /// or the window closed.
    func room() async {
        guard state.withLock({ $0.inFlight > size && !$0.closed }) else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let wait = state.withLock { state in
                    guard state.inFlight > size / 2, !state.closed else { return false }
                    state.waiter = continuation
                    return true
                }
                if !wait { continuation.resume() }
            }
        } onCancel: {
            close()
        }
    }

    /// Wakes a waiting reader for good: the command is done or being stopped.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    fileprivate func release(_ cost: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.inFlight -= cost
            guard state.inFlight <= size / 2 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}

/// A batch of a command's output lines on its way to the printer; see `OutputWindow`. Keep it
/// (inside the event that carries the lines) until the lines are written out.
package final class OutputHold: Sendable, Equatable {
    private let window: OutputWindow
    private let cost: Int

    fileprivate init(window: OutputWindow, cost: Int) {
        self.window = window
        self.cost = cost
    }

    deinit { window.release(cost) }

    /// Holds are bookkeeping, not content: every hold equals every other.
    package static func == (lhs: OutputHold, rhs: OutputHold) -> Bool { true }
}
