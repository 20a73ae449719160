import FlowHTTP
import FlowTasks

/// How many commands may hold their descriptors at once, so that starting one never runs flow out
/// of descriptors (`ulimit -n`): a command costs its pipes and its process descriptor. Commands
/// past the budget wait (suspended, no thread held) for one to end, as requests wait for a
/// connection (see `DescriptorLimit`).
enum ProcessBudget {
    /// The descriptors one command holds while it starts: two pipes (four ends), its pidfd, and the
    /// working folder swift-subprocess opens for the spawn.
    static let descriptorsPerCommand = 6

    private struct State {
        var capacity: Int?
        var inUse = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID = 0
    }

    private static let state = LockedBox(State())

    /// The most commands at once: what the descriptor limit leaves (see
    /// `DescriptorLimit.descriptorShare`) divided by a command's cost; measured at the first
    /// start, after flow raised its soft limit. Never below 1.
    static func capacity() -> Int {
        state.withLock { state in
            if let capacity = state.capacity { return capacity }
            let capacity = DescriptorLimit.descriptorShare.map { max(1, $0 / descriptorsPerCommand) } ?? Int.max
            state.capacity = capacity
            return capacity
        }
    }

    /// Waits for a place; false when the task was cancelled while waiting (it holds none then).
    static func acquire() async -> Bool {
        _ = capacity()
        let id = state.withLock { state -> Int? in
            if state.inUse < state.capacity ?? Int.max, state.waiters.isEmpty {
                state.inUse += 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow = state.withLock { state -> Bool? in
                    // Released (or cancelled) between the first look and now.
                    if Task.isCancelled { return false }
                    if state.inUse < state.capacity ?? Int.max, state.waiters.isEmpty {
                        state.inUse += 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Gives a place back: to the longest waiter, if any and if the budget (which may have shrunk)
    /// has room.
    static func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiters.isEmpty, state.inUse <= state.capacity ?? Int.max else {
                state.inUse -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// The caller, holding a place, could not start its command for want of descriptors (something
    /// else in flow holds more than was measured): the budget shrinks to the commands running now,
    /// so the caller waits for one of them to end. False when no other command holds a place:
    /// waiting would not help, the start fails.
    static func shrinkAfterExhaustion() -> Bool {
        state.withLock { state in
            guard state.inUse > 1 else { return false }
            state.capacity = min(state.capacity ?? Int.max, state.inUse - 1)
            return true
        }
    }
}
