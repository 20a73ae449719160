import Dispatch
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@Suite struct InlineCallbacksTests {
    @Test func inlineCallbacksRunOnTheCompletingThreadInOrderOnceAfterTheBody() {
        let promise = Promise<Int>(on: makeQueue())
        let seen = Recorder<String>()
        for index in 0..<100 {
            promise.future.whenCompleteInline { result in
                seen.append("\(index):\((try? result.get()) ?? -1):\(InlineCallbacks.areAllowed)")
            }
        }
        InlineCallbacks.run {
            #expect(promise.succeed(7))
            // Never inside the call that completed the future.
            seen.append("body done")
        }
        // `run` returns only after the callbacks ran, so no waiting is needed here.
        #expect(seen.all == ["body done"] + (0..<100).map { "\($0):7:true" })
        InlineCallbacks.run { #expect(!promise.succeed(8)) }
        #expect(seen.count == 101)
        #expect(!InlineCallbacks.areAllowed)
    }

    @Test func outsideRunInlineCallbacksGoToTheirQueue() async {
        let queue = makeQueue()
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let promise = Promise<Int>(on: queue)
        let seen = Recorder<String>()
        promise.future.whenCompleteInline { _ in
            seen.append(DispatchQueue.getSpecific(key: key) == true ? "on queue" : "elsewhere")
        }
        promise.succeed(1)
        #expect(await eventually { seen.count == 1 })
        #expect(seen.all == ["on queue"])
    }

    @Test func plainCallbacksStillGoToTheirQueueInsideRun() async {
        let queue = makeQueue()
        queue.suspend()
        let promise = Promise<Int>(on: queue)
        let seen = Recorder<String>()
        promise.future.whenComplete { _ in seen.append("queued") }
        promise.future.whenCompleteInline { _ in seen.append("inline") }
        InlineCallbacks.run { promise.succeed(1) }
        // The queue is suspended: only the inline one could have run.
        #expect(seen.all == ["inline"])
        queue.resume()
        #expect(await eventually { seen.count == 2 })
        #expect(seen.all == ["inline", "queued"])
    }

    @Test func aCallbackAddedAfterCompletionRunsAfterTheCurrentOneNotInsideTheCall() {
        let promise = Promise<Int>(on: makeQueue())
        let seen = Recorder<String>()
        promise.future.whenCompleteInline { _ in
            promise.future.whenCompleteInline { _ in seen.append("added late") }
            seen.append("first returns")
        }
        InlineCallbacks.run { promise.succeed(1) }
        #expect(seen.all == ["first returns", "added late"])
    }

    @Test func aLongChainOfInlineCompletionsKeepsAConstantStackDepth() {
        let queue = makeQueue()
        let count = 100_000
        let finished = Recorder<Int>()
        let first = Promise<Int>(on: queue)
        // Each callback completes the next promise, as a request sent from a callback does.
        var promises = [first]
        for _ in 1...count { promises.append(Promise<Int>(on: queue)) }
        let chain = promises
        for index in 0..<count {
            chain[index].future.whenCompleteInline { result in
                chain[index + 1].complete(result.map { $0 + 1 })
            }
        }
        chain[count].future.whenCompleteInline { result in
            if case .success(let value) = result { finished.append(value) }
        }
        InlineCallbacks.run { first.succeed(0) }
        #expect(finished.all == [count])
    }

    @Test func cancellingInsideRunRunsTheHandlerAtOnceAndTheCallbackOnceAfterwards() {
        let work = FakeWork<Int>(on: makeQueue())
        let seen = Recorder<String>()
        work.future.whenCompleteInline { result in
            if case .failure(let error as FutureError) = result, error == .cancelled {
                seen.append("cancelled")
            } else {
                seen.append("other")
            }
        }
        InlineCallbacks.run {
            work.future.cancel()
            #expect(work.wasCancelled)
            #expect(!work.promise.succeed(1))
            seen.append("body done")
        }
        #expect(seen.all == ["body done", "cancelled"])
        #expect(work.cancellations.count == 1)
    }

    @Test func threadsRacingToCompleteInsideRunRunEachCallbackExactlyOnce() {
        let promise = Promise<Int>(on: makeQueue())
        let runs = Recorder<Int>()
        for index in 0..<50 {
            promise.future.whenCompleteInline { _ in runs.append(index) }
        }
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            InlineCallbacks.run { promise.succeed(index) }
        }
        #expect(runs.all == Array(0..<50))
    }

    @Test func nestedRunLeavesTheCallbacksToTheOutermost() {
        let promise = Promise<Int>(on: makeQueue())
        let seen = Recorder<String>()
        promise.future.whenCompleteInline { _ in seen.append("callback") }
        InlineCallbacks.run {
            InlineCallbacks.run { promise.succeed(1) }
            seen.append("inner returned")
        }
        #expect(seen.all == ["inner returned", "callback"])
    }
}
