internal import NIOConcurrencyHelpers

/// One TCP connection as the sandbox sees it: a number for the event log, and whether the client hung up.
final class Connection: Sendable {
    /// Counts connections since the sandbox started; keep-alive reuse shows as a repeated id.
    let id: Int

    private struct State {
        var hungUp = false
        var nextToken = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var abandoned: Set<Int> = []
    }

    private let state = NIOLockedValueBox(State())

    init(id: Int) {
        self.id = id
    }

    /// Whether the client closed its side (or the whole connection) already.
    var hasHungUp: Bool {
        state.withLockedValue { $0.hungUp }
    }

    /// Called from the channel pipeline when the input side closes; wakes every waiter.
    func markHungUp() {
        let waiters = state.withLockedValue { state in
            state.hungUp = true
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits up to `duration`; returns true as soon as the client hangs up, false when the time ran out.
    func waitForHangUp(upTo duration: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await Task.sleep(for: duration)
                return false
            }
            group.addTask {
                await self.hangUp()
                return !Task.isCancelled
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Returns when the client hangs up, or at once when the task is cancelled.
    private func hangUp() async {
        let token = state.withLockedValue { state in
            state.nextToken += 1
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLockedValue { state in
                    if state.hungUp || state.abandoned.remove(token) != nil { return true }
                    state.waiters[token] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            // The cancel can come before the continuation is stored; `abandoned` covers that order.
            let waiter = state.withLockedValue { state in
                guard let waiter = state.waiters.removeValue(forKey: token) else {
                    state.abandoned.insert(token)
                    return nil as CheckedContinuation<Void, Never>?
                }
                return waiter
            }
            waiter?.resume()
        }
    }
}
