import FlowDSL
import FlowTasks

extension RetryPolicy {
    /// The policy a step's `retry` (or `defaults.retry`) describes, with the runner's own rule for
    /// which errors are worth another attempt; one attempt when there is no `retry`.
    init(
        _ retry: Retry?, shouldRetry: @escaping @Sendable (any Error) -> Bool,
        delayOverride: @escaping @Sendable (any Error) -> Duration? = { _ in nil }
    ) {
        guard let retry else {
            self.init(attempts: 1)
            return
        }
        self.init(
            attempts: max(1, retry.attempts), delay: retry.delay,
            backoff: Backoff(rawValue: retry.backoff.rawValue) ?? .constant,
            // Waits are capped even without `max-delay` (Grammar.md: Retries).
            maxDelay: retry.maxDelay ?? .seconds(60), jitter: retry.jitter == .full ? .full : .none,
            shouldRetry: shouldRetry, delayOverride: delayOverride)
    }
}
