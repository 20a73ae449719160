/// How `retry(policy:on:operation:)` repeats failed work: how often, how long to wait between
/// attempts, and which errors are worth another attempt.
package struct RetryPolicy: Sendable {
    /// How the wait between attempts grows.
    package enum Backoff: String, Sendable, CaseIterable {
        /// The same delay every time.
        case constant
        /// `delay × n` before attempt n + 1.
        case linear
        /// `delay × 2^(n-1)` before attempt n + 1.
        case exponential
    }

    /// Whether to randomise the wait.
    package enum Jitter: String, Sendable, CaseIterable {
        /// Wait exactly the computed delay.
        case none
        /// Wait a uniformly random time between zero and the computed delay (AWS's "full jitter").
        case full
    }

    /// The most attempts in all, the first included (1 = no retry).
    package var attempts: Int
    /// The base delay.
    package var delay: Duration
    /// How the delay grows with each failure.
    package var backoff: Backoff
    /// The longest wait, whatever the backoff or a server asked for.
    package var maxDelay: Duration
    /// Whether to randomise the wait.
    package var jitter: Jitter
    /// Decides whether an error is worth another attempt. Default: every error but cancellation.
    package var shouldRetry: @Sendable (any Error) -> Bool
    /// A wait the error itself asks for (an HTTP `Retry-After`), used instead of the backoff,
    /// still capped by `maxDelay`. Return `nil` to use the backoff.
    package var delayOverride: @Sendable (any Error) -> Duration?
    /// A source of random numbers in `0..<1` for jitter; replaceable in tests.
    package var random: @Sendable () -> Double

    /// A policy; the defaults retry every error but cancellation and time-outs, without waiting.
    package init(
        attempts: Int,
        delay: Duration = .zero,
        backoff: Backoff = .constant,
        maxDelay: Duration = .seconds(60),
        jitter: Jitter = .none,
        shouldRetry: @escaping @Sendable (any Error) -> Bool = RetryPolicy.retriesAllButCancellation,
        delayOverride: @escaping @Sendable (any Error) -> Duration? = { _ in nil },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.attempts = attempts
        self.delay = delay
        self.backoff = backoff
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.shouldRetry = shouldRetry
        self.delayOverride = delayOverride
        self.random = random
    }

    /// The default predicate: anything but a cancellation or a FlowTasks time-out is retried.
    package static let retriesAllButCancellation: @Sendable (any Error) -> Bool = { error in
        switch error as? FutureError {
        case .cancelled?, .timedOut?: return false
        case .abandoned?, nil: return true
        }
    }

    /// The wait before the next attempt after `failures` failures (1 after the first attempt
    /// failed), given the error of the last attempt.
    package func delay(afterFailures failures: Int, error: any Error) -> Duration {
        if let requested = delayOverride(error) {
            return min(max(requested, .zero), maxDelay)
        }
        let base: Duration
        switch backoff {
        case .constant:
            base = delay
        case .linear:
            base = delay * max(failures, 1)
        case .exponential:
            let exponent = min(max(failures - 1, 0), 62)
            let factor = Double(1 << exponent)
            base = delay.seconds * factor > maxDelay.seconds ? maxDelay : delay * factor
        }
        let capped = min(base, maxDelay)
        switch jitter {
        case .none: return capped
        case .full: return capped * min(max(random(), 0), 1)
        }
    }
}
