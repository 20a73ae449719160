import Dispatch
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct RetryTests {
    @Test func retriesUntilTheOperationSucceeds() async throws {
        let queue = makeQueue()
        let attempts = Recorder<Int>()
        let retried = Recorder<Int>()
        let policy = RetryPolicy(attempts: 5, delay: .milliseconds(1))
        let future = retry(policy: policy, on: queue, onRetry: { retried.append($0.attempt) }) { attempt in
            attempts.append(attempt)
            return attempt < 3
                ? Future.failed(TestError("attempt \(attempt)"), on: queue)
                : Future.succeeded("ok on \(attempt)", on: queue)
        }
        #expect(try await future.value == "ok on 3")
        #expect(attempts.all == [1, 2, 3])
        #expect(retried.all == [1, 2])
    }

    @Test func stopsAfterTheLastAttemptWithItsError() async throws {
        let queue = makeQueue()
        let attempts = Recorder<Int>()
        let future: Future<Int> = retry(policy: RetryPolicy(attempts: 3), on: queue) { attempt in
            attempts.append(attempt)
            return Future.failed(TestError("attempt \(attempt)"), on: queue)
        }
        await #expect(throws: TestError("attempt 3")) { try await future.value }
        #expect(attempts.count == 3)
    }

    @Test func errorsThePredicateRejectsAreNotRetried() async throws {
        let queue = makeQueue()
        let attempts = Recorder<Int>()
        let policy = RetryPolicy(attempts: 5, shouldRetry: { ($0 as? TestError)?.name != "fatal" })
        let future: Future<Int> = retry(policy: policy, on: queue) { attempt in
            attempts.append(attempt)
            return Future.failed(TestError(attempt == 2 ? "fatal" : "transient"), on: queue)
        }
        await #expect(throws: TestError("fatal")) { try await future.value }
        #expect(attempts.all == [1, 2])
    }

    @Test func cancellingStopsTheAttemptInFlightAndAnyFurtherOnes() async throws {
        let queue = makeQueue()
        let works = Recorder<FakeWork<Int>>()
        let future: Future<Int> = retry(policy: RetryPolicy(attempts: 10), on: queue) { _ in
            let work = FakeWork<Int>(on: queue)
            works.append(work)
            return work.future
        }
        #expect(await eventually { works.count == 1 })
        future.cancel()
        await #expect(throws: FutureError.cancelled) { try await future.value }
        #expect(works.all[0].wasCancelled)
        try await Task.sleep(for: .milliseconds(30))
        #expect(works.count == 1)
    }

    @Test func cancellingDuringTheWaitPreventsTheNextAttempt() async throws {
        let queue = makeQueue()
        let attempts = Recorder<Int>()
        let firstAttempt = Promise<Int>(on: queue)
        let retrying = LockedBox<Future<Int>?>(nil)
        // onRetry runs just before the wait starts: cancelling there lands inside the wait.
        let future: Future<Int> = retry(
            policy: RetryPolicy(attempts: 3, delay: .milliseconds(20)), on: queue,
            onRetry: { _ in retrying.withLock { $0 }?.cancel() }
        ) { attempt in
            attempts.append(attempt)
            return attempt == 1 ? firstAttempt.future : Future.succeeded(attempt, on: queue)
        }
        retrying.withLock { $0 = future }
        firstAttempt.fail(TestError("first"))
        await #expect(throws: FutureError.cancelled) { try await future.value }
        // Well past the 20 ms wait: a timer that was not stopped would have started attempt 2.
        try await Task.sleep(for: .milliseconds(150))
        #expect(attempts.all == [1])
    }

    @Test(arguments: [
        (RetryPolicy.Backoff.constant, [100, 100, 100, 100]),
        (.linear, [100, 200, 300, 400]),
        (.exponential, [100, 200, 400, 800]),
    ])
    func backoffGrowsAsConfigured(backoff: RetryPolicy.Backoff, expectedMillis: [Int]) {
        let policy = RetryPolicy(attempts: 5, delay: .milliseconds(100), backoff: backoff, maxDelay: .seconds(10))
        let delays = (1...4).map { policy.delay(afterFailures: $0, error: TestError("x")) }
        #expect(delays == expectedMillis.map { .milliseconds($0) })
    }

    @Test func maxDelayCapsTheBackoffAndRequestedWaits() {
        var policy = RetryPolicy(attempts: 80, delay: .seconds(1), backoff: .exponential, maxDelay: .seconds(5))
        #expect(policy.delay(afterFailures: 70, error: TestError("x")) == .seconds(5))
        policy.delayOverride = { _ in .seconds(30) }
        #expect(policy.delay(afterFailures: 1, error: TestError("x")) == .seconds(5))
    }

    @Test func aDelayTheErrorAsksForReplacesTheBackoff() {
        let policy = RetryPolicy(
            attempts: 3, delay: .milliseconds(100), maxDelay: .seconds(10),
            delayOverride: { ($0 as? TestError)?.name == "retry-after" ? .seconds(2) : nil })
        #expect(policy.delay(afterFailures: 1, error: TestError("retry-after")) == .seconds(2))
        #expect(policy.delay(afterFailures: 1, error: TestError("other")) == .milliseconds(100))
    }

    @Test func fullJitterScalesTheDelayByTheRandomDraw() {
        let policy = RetryPolicy(
            attempts: 3, delay: .milliseconds(400), jitter: .full, random: { 0.25 })
        #expect(policy.delay(afterFailures: 1, error: TestError("x")) == .milliseconds(100))
    }

    @Test func cancellationAndTimeoutsAreNotRetriedByDefault() {
        let policy = RetryPolicy(attempts: 3)
        #expect(!policy.shouldRetry(FutureError.cancelled))
        #expect(!policy.shouldRetry(FutureError.timedOut(after: .seconds(1))))
        #expect(policy.shouldRetry(TestError("io")))
    }

    @Test func waitsBetweenAttempts() async throws {
        let queue = makeQueue()
        let started = DispatchTime.now()
        let future: Future<Int> = retry(policy: RetryPolicy(attempts: 3, delay: .milliseconds(20)), on: queue) {
            attempt in
            attempt < 3 ? Future.failed(TestError("no"), on: queue) : Future.succeeded(attempt, on: queue)
        }
        #expect(try await future.value == 3)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        #expect(elapsed >= 39)
    }
}
