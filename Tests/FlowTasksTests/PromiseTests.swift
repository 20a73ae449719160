import Dispatch
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@Suite struct PromiseTests {
    @Test func callbacksRunInRegistrationOrderOnASerialQueue() async throws {
        let queue = makeQueue()
        let promise = Promise<Int>(on: queue)
        let order = Recorder<Int>()
        for index in 0..<200 {
            promise.future.whenSuccess { _ in order.append(index) }
        }
        promise.succeed(7)
        _ = try await promise.future.value
        #expect(await eventually { order.count == 200 })
        #expect(order.all == Array(0..<200))
    }

    @Test func callbackAddedAfterCompletionRunsLaterOnItsQueue() async throws {
        let queue = makeQueue()
        let future = Future.succeeded(1, on: queue)
        let seen = Recorder<String>()
        let onQueueKey = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: onQueueKey, value: true)
        queue.sync {
            future.whenSuccess { _ in
                seen.append(DispatchQueue.getSpecific(key: onQueueKey) == true ? "callback on queue" : "elsewhere")
            }
            // Still inside the same block: the callback must not have run inline.
            seen.append("registered")
        }
        #expect(await eventually { seen.count == 2 })
        #expect(seen.all == ["registered", "callback on queue"])
    }

    @Test func onlyTheFirstCompletionCounts() async throws {
        let promise = Promise<String>(on: makeQueue())
        #expect(promise.succeed("first"))
        #expect(!promise.fail(TestError("late")))
        #expect(!promise.succeed("second"))
        #expect(try await promise.future.value == "first")
    }

    @Test func thousandsOfThreadsRacingCompleteItExactlyOnce() async throws {
        let promise = Promise<Int>(on: makeQueue())
        let winners = Recorder<Int>()
        let callbackRuns = Recorder<Int>()
        promise.future.whenSuccess { value in callbackRuns.append(value) }
        DispatchQueue.concurrentPerform(iterations: 5_000) { index in
            if index.isMultiple(of: 2) {
                if promise.succeed(index) { winners.append(index) }
            } else {
                if promise.fail(TestError("\(index)")) { winners.append(index) }
            }
        }
        #expect(winners.count == 1)
        let winner = winners.all[0]
        if winner.isMultiple(of: 2) {
            #expect(try await promise.future.value == winner)
            #expect(await eventually { callbackRuns.count == 1 })
            #expect(callbackRuns.all == [winner])
        } else {
            await #expect(throws: TestError("\(winner)")) { try await promise.future.value }
        }
    }

    @Test func cancelRunsTheProducersActionOnceAndFailsDistinguishably() async throws {
        let work = FakeWork<Int>(on: makeQueue())
        work.future.cancel()
        work.future.cancel()
        #expect(work.cancellations.count == 1)
        #expect(!work.promise.succeed(3))
        await #expect(throws: FutureError.cancelled) { try await work.future.value }
    }

    @Test func cancellingAFinishedFutureDoesNothing() async throws {
        let work = FakeWork<Int>(on: makeQueue())
        work.promise.succeed(5)
        work.future.cancel()
        #expect(work.cancellations.count == 0)
        #expect(try await work.future.value == 5)
    }

    @Test func cancelHandlerAddedAfterCancellationRunsAtOnce() {
        let promise = Promise<Int>(on: makeQueue())
        promise.future.cancel()
        let ran = Recorder<Int>()
        promise.onCancel { ran.append(1) }
        #expect(ran.count == 1)
    }

    @Test func aPromiseReleasedWithoutCompletionFailsItsFutureWithWhereItWasMade() async throws {
        let future: Future<Int> = {
            let promise = Promise<Int>(on: makeQueue())
            return promise.future
        }()
        do {
            _ = try await future.value
            Issue.record("an abandoned promise must fail its future")
        } catch let error as FutureError {
            guard case .abandoned(let file, let line) = error else {
                Issue.record("expected .abandoned, got \(error)")
                return
            }
            #expect(file.hasSuffix("PromiseTests.swift"))
            #expect(line > 0)
        }
    }

    @Test func completeWithAnotherFutureForwardsItsResultAndCancellation() async throws {
        let queue = makeQueue()
        let source = FakeWork<Int>(on: queue)
        let promise = Promise<Int>(on: queue)
        promise.complete(with: source.future)
        promise.future.cancel()
        #expect(source.wasCancelled)

        let other = Promise<Int>(on: queue)
        let forwarded = Promise<Int>(on: queue)
        forwarded.complete(with: other.future)
        other.succeed(11)
        #expect(try await forwarded.future.value == 11)
    }

    @Test func waitBlocksAPlainThreadUntilTheValueArrives() async throws {
        let queue = makeQueue()
        let promise = Promise<String>(on: queue)
        let result = LockedBox<Result<String, any Error>?>(nil)
        let waiter = Thread {
            let outcome = Result { try promise.future.wait() }
            result.withLock { $0 = outcome }
        }
        waiter.start()
        try await Task.sleep(for: .milliseconds(20))
        #expect(result.withLock { $0 } == nil)
        queue.asyncAfter(deadline: .now() + .milliseconds(10)) { promise.succeed("done") }
        #expect(await eventually { result.withLock { $0 } != nil })
        #expect(try result.withLock { $0 }?.get() == "done")
    }

    @Test func awaitingCancelledTaskCancelsTheFuture() async throws {
        let work = FakeWork<Int>(on: makeQueue())
        let task = Task { try await work.future.value }
        try await Task.sleep(for: .milliseconds(10))
        task.cancel()
        await #expect(throws: FutureError.cancelled) { try await task.value }
        #expect(work.wasCancelled)
    }

    @Test func submitRunsTheBodyOnTheQueue() async throws {
        let queue = makeQueue()
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "mine")
        let future = queue.submit { DispatchQueue.getSpecific(key: key) ?? "other" }
        #expect(try await future.value == "mine")
        let failing: Future<Int> = queue.submit { throw TestError("boom") }
        await #expect(throws: TestError("boom")) { try await failing.value }
    }
}

@Suite struct CallbackDrainTests {
    @Test func completingInsideACallbackRunsSameQueueCallbacksAfterItNotInside() async throws {
        let queue = makeQueue()
        let first = Promise<Int>(on: queue)
        let second = Promise<Int>(on: queue)
        let order = Recorder<String>()
        second.future.whenSuccess { _ in order.append("second's callback") }
        first.future.whenSuccess { _ in
            second.succeed(2)
            order.append("first's callback after completing second")
        }
        first.succeed(1)
        #expect(await eventually { order.count == 2 })
        #expect(order.all == ["first's callback after completing second", "second's callback"])
    }

    @Test func callbacksForAnotherQueueStillRunOnThatQueue() async throws {
        let queue = makeQueue("one")
        let other = makeQueue("two")
        let key = DispatchSpecificKey<String>()
        other.setSpecific(key: key, value: "two")
        let first = Promise<Int>(on: queue)
        let second = Promise<Int>(on: other)
        let seen = Recorder<String>()
        second.future.whenSuccess { _ in seen.append(DispatchQueue.getSpecific(key: key) ?? "wrong queue") }
        first.future.whenSuccess { _ in second.succeed(2) }
        first.succeed(1)
        #expect(await eventually { seen.count == 1 })
        #expect(seen.all == ["two"])
    }
}
