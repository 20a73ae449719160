import Dispatch
import FlowDSL
import FlowTasks

/// The retry loop of a step kind whose attempts fail with `StepError`s (`run`, `call`): each
/// attempt reported, each wait reported with its reason masked.
enum StepRetry {
    /// Runs `attempt` under `retry` (or `defaultRetry`), retrying the errors that say they may be.
    static func run(
        _ retry: Retry?, defaultRetry: Retry?, start: StepStart<StepResult>, masker: SecretMasker,
        on queue: DispatchQueue, _ attempt: @escaping @Sendable (Int) -> Future<Value>
    ) -> Future<RunnerOutput> {
        let policy = RetryPolicy(retry ?? defaultRetry) { ($0 as? StepError)?.retryable ?? false }
        return FlowTasks.retry(
            policy: policy, on: queue,
            onRetry: { failed in
                start.report(
                    .retryWait(
                        StepProgress.RetryWait(
                            attempt: failed.attempt, wait: failed.nextDelay,
                            reason: masker(String(describing: failed.error)), retryAfter: false)))
            }
        ) { number in
            start.report(.attempt(number))
            return attempt(number).map { RunnerOutput(result: $0, attempts: number) }
        }
    }
}
