import FlowEngine
import FlowTasks
import Testing

/// The retry budget both upload sessions (chunked and S3 multipart) spend on their errors.
struct RetryBudgetTests {
    private struct Refused: Error {}
    private struct Dropped: Error {}

    private static let policy = RetryPolicy(
        attempts: 3, delay: .milliseconds(500), backoff: .exponential, shouldRetry: { !($0 is Refused) },
        delayOverride: { _ in nil })

    /// Two errors in a row are retried, with growing waits, each reported; the third spends it.
    @Test func errorsWithoutProgressSpendTheBudgetAndEachRetryIsReported() {
        var budget = RetryBudget(Self.policy)
        var events: [StepProgress] = []
        #expect(
            budget.spend(on: Dropped(), reason: { "dropped" }, report: { events.append($0) })
                == .retry(after: .milliseconds(500)))
        #expect(
            budget.spend(on: Dropped(), reason: { "dropped" }, report: { events.append($0) })
                == .retry(after: .seconds(1)))
        #expect(budget.spend(on: Dropped(), reason: { "dropped" }, report: { events.append($0) }) == .spent)
        #expect(budget.failures == 3 && budget.attempts == 3)
        #expect(
            events == [
                .retryWait(.init(attempt: 1, wait: .milliseconds(500), reason: "dropped", retryAfter: false)),
                .attempt(2),
                .retryWait(.init(attempt: 2, wait: .seconds(1), reason: "dropped", retryAfter: false)),
                .attempt(3),
            ])
    }

    /// Progress gives the whole budget back; the attempts still count up.
    @Test func progressGivesTheBudgetBack() {
        var budget = RetryBudget(Self.policy)
        for _ in 0..<5 {
            #expect(
                budget.spend(on: Dropped(), reason: { "dropped" }, report: { _ in })
                    == .retry(after: .milliseconds(500)))
            budget.progressed()
        }
        #expect(budget.failures == 0 && budget.attempts == 6)
    }

    /// A final error and a cancellation spend nothing and report nothing.
    @Test func finalErrorsAndCancellationSpendNothing() {
        var budget = RetryBudget(Self.policy)
        var events: [StepProgress] = []
        #expect(budget.spend(on: Refused(), reason: { "refused" }, report: { events.append($0) }) == .final)
        #expect(
            budget.spend(on: FutureError.cancelled, reason: { "cancelled" }, report: { events.append($0) })
                == .cancelled)
        #expect(events.isEmpty && budget.failures == 0 && budget.attempts == 1)
    }
}
