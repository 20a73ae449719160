import Dispatch
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct TransformTests {
    @Test func aHundredThousandMapsNeitherRecurseNorOverflow() async throws {
        let queue = makeQueue()
        let start = Promise<Int>(on: queue)
        var future = start.future
        for _ in 0..<100_000 {
            future = future.map { $0 + 1 }
        }
        start.succeed(0)
        #expect(try await future.value == 100_000)
    }

    @Test func aHundredThousandFlatMapsNeitherRecurseNorOverflow() async throws {
        let queue = makeQueue()
        let start = Promise<Int>(on: queue)
        var future = start.future
        for _ in 0..<100_000 {
            future = future.flatMap { Future.succeeded($0 + 1, on: queue) }
        }
        start.succeed(0)
        #expect(try await future.value == 100_000)
    }

    @Test func anErrorTravelsDownTheChainToOneHandler() async throws {
        let queue = makeQueue()
        let calls = Recorder<String>()
        let future = Future.succeeded(1, on: queue)
            .map { value -> Int in
                calls.append("first")
                throw TestError("first failed")
            }
            .map { value -> Int in
                calls.append("second")
                return value + 1
            }
            .flatMap { value -> Future<Int> in
                calls.append("third")
                return Future.succeeded(value, on: queue)
            }
        await #expect(throws: TestError("first failed")) { try await future.value }
        #expect(calls.all == ["first"])
    }

    @Test func recoverTurnsAFailureIntoAValue() async throws {
        let queue = makeQueue()
        let recovered = Future<Int>.failed(TestError("x"), on: queue).recover { _ in 42 }
        #expect(try await recovered.value == 42)
        let untouched = Future.succeeded(1, on: queue).recover { _ in 42 }
        #expect(try await untouched.value == 1)
    }

    @Test func flatMapErrorReplacesAFailureWithAnotherFuture() async throws {
        let queue = makeQueue()
        let replaced = Future<Int>.failed(TestError("x"), on: queue)
            .flatMapError { _ in Future.succeeded(9, on: queue) }
        #expect(try await replaced.value == 9)
        let stillFailing = Future<Int>.failed(TestError("x"), on: queue)
            .flatMapError { _ in Future<Int>.failed(TestError("y"), on: queue) }
        await #expect(throws: TestError("y")) { try await stillFailing.value }
    }

    @Test func cancellationIsNotRecovered() async throws {
        let work = FakeWork<Int>(on: makeQueue())
        let chained = work.future.recover { _ in 0 }
        chained.cancel()
        await #expect(throws: FutureError.cancelled) { try await chained.value }
        #expect(work.wasCancelled)
    }

    @Test func cancellingTheEndOfAChainReachesTheWorkInFlight() async throws {
        let queue = makeQueue()
        let first = FakeWork<Int>(on: queue)
        let second = FakeWork<Int>(on: queue)
        let chain = first.future.flatMap { _ in second.future }.map { $0 * 2 }
        first.promise.succeed(1)
        // Wait until the chain has moved on to the second piece of work.
        try await Task.sleep(for: .milliseconds(20))
        chain.cancel()
        #expect(await eventually { second.wasCancelled })
        #expect(!first.wasCancelled)
        await #expect(throws: FutureError.cancelled) { try await chain.value }
    }

    @Test func mapRunsOnTheNamedQueue() async throws {
        let origin = makeQueue("origin")
        let target = makeQueue("target")
        let key = DispatchSpecificKey<String>()
        target.setSpecific(key: key, value: "target")
        let future = Future.succeeded(1, on: origin).map(on: target) { _ in
            DispatchQueue.getSpecific(key: key) ?? "elsewhere"
        }
        #expect(try await future.value == "target")
    }
}
