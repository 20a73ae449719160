/// A step's `retry:` policy (or `defaults.retry`).
package struct Retry: Sendable, Hashable {
    /// How the delay grows between attempts.
    package enum Backoff: String, Sendable, Hashable, CaseIterable {
        /// The same delay every time.
        case constant
        /// `delay × attempt`.
        case linear
        /// `delay × 2^(attempt-1)`.
        case exponential
    }

    /// How much randomness is added to each delay.
    package enum Jitter: String, Sendable, Hashable, CaseIterable {
        /// The computed delay exactly.
        case none
        /// A random delay between zero and the computed one.
        case full
    }

    /// What a `retry.on` entry matches.
    package enum Condition: Sendable, Hashable {
        /// A response status matching the pattern (`429`, `5xx`).
        case status(StatusPattern)
        /// The connection failed (refused, reset, DNS).
        case connectionError
        /// The attempt timed out.
        case timeout
    }

    /// The most attempts, the first included (at least 1).
    package let attempts: Int
    /// The delay before the second attempt (default 1s).
    package let delay: Duration
    /// How the delay grows (default exponential).
    package let backoff: Backoff
    /// The longest delay (default none); also caps `Retry-After`.
    package let maxDelay: Duration?
    /// The randomness added to delays (default none).
    package let jitter: Jitter
    /// What is retried; empty means the default (connection errors, timeouts, 429, 5xx).
    package let on: [Condition]
    /// Where `retry:` is written.
    package let location: SourceLocation

    /// Creates a retry policy.
    package init(
        attempts: Int,
        delay: Duration = .seconds(1),
        backoff: Backoff = .exponential,
        maxDelay: Duration? = nil,
        jitter: Jitter = .none,
        on: [Condition] = [],
        location: SourceLocation
    ) {
        self.attempts = attempts
        self.delay = delay
        self.backoff = backoff
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.on = on
        self.location = location
    }
}
