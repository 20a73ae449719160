import Dispatch
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct AllTests {
    @Test func succeedsWithEveryValueInInputOrder() async throws {
        let queue = makeQueue()
        let works = (0..<5).map { _ in FakeWork<Int>(on: queue) }
        let all = Future.all(works.map(\.future), on: queue)
        for index in [3, 1, 4, 0, 2] { works[index].promise.succeed(index * 10) }
        #expect(try await all.value == [0, 10, 20, 30, 40])
        #expect(works.allSatisfy { !$0.wasCancelled })
    }

    @Test func theFirstFailureFailsItAndCancelsTheRest() async throws {
        let queue = makeQueue()
        let works = (0..<4).map { _ in FakeWork<Int>(on: queue) }
        let all = Future.all(works.map(\.future), on: queue)
        works[0].promise.succeed(1)
        works[2].promise.fail(TestError("third failed"))
        await #expect(throws: TestError("third failed")) { try await all.value }
        #expect(await eventually { works[1].wasCancelled && works[3].wasCancelled })
        #expect(!works[0].wasCancelled)
        #expect(!works[2].wasCancelled)
    }

    @Test func zeroInputsSucceedWithNothing() async throws {
        let all = Future<Int>.all([], on: makeQueue())
        #expect(try await all.value == [])
    }

    @Test func cancellingTheResultCancelsEveryInput() async throws {
        let queue = makeQueue()
        let works = (0..<3).map { _ in FakeWork<Int>(on: queue) }
        Future.all(works.map(\.future), on: queue).cancel()
        #expect(works.allSatisfy { $0.wasCancelled })
    }

    @Test func allSettledReportsEveryOutcomeAndNeverFails() async throws {
        let queue = makeQueue()
        let works = (0..<3).map { _ in FakeWork<Int>(on: queue) }
        let settled = Future.allSettled(works.map(\.future), on: queue)
        works[1].promise.fail(TestError("middle"))
        works[0].promise.succeed(0)
        works[2].promise.succeed(2)
        let results = try await settled.value
        #expect(try results[0].get() == 0)
        #expect(throws: TestError("middle")) { try results[1].get() }
        #expect(try results[2].get() == 2)
        #expect(works.allSatisfy { !$0.wasCancelled })
    }
}

@Suite struct AnyTests {
    @Test func theFirstSuccessWinsEvenAfterEarlierFailures() async throws {
        let queue = makeQueue()
        let works = (0..<3).map { _ in FakeWork<String>(on: queue) }
        let any = Future.any(works.map(\.future), on: queue)
        works[0].promise.fail(TestError("fastest failed"))
        try await Task.sleep(for: .milliseconds(10))
        works[2].promise.succeed("third")
        let winner = try await any.value
        #expect(winner.index == 2)
        #expect(winner.value == "third")
        #expect(await eventually { works[1].wasCancelled })
        #expect(!works[0].wasCancelled)
    }

    @Test func failsWithEveryErrorInInputOrderWhenAllFail() async throws {
        let queue = makeQueue()
        let works = (0..<3).map { _ in FakeWork<Int>(on: queue) }
        let any = Future.any(works.map(\.future), on: queue)
        works[2].promise.fail(TestError("c"))
        works[0].promise.fail(TestError("a"))
        works[1].promise.fail(TestError("b"))
        do {
            _ = try await any.value
            Issue.record("any must fail when every input fails")
        } catch let error as QuorumError {
            #expect(error.errors.map(\.index) == [0, 1, 2])
            #expect(error.errors.compactMap { ($0.error as? TestError)?.name } == ["a", "b", "c"])
            #expect(error.succeeded == 0)
            #expect(error.description == "needed 1 success(es), got 0: #0: a; #1: b; #2: c")
        }
    }

    @Test func zeroInputsFailAtOnce() async throws {
        let any = Future<Int>.any([], on: makeQueue())
        await #expect(throws: QuorumError.self) { try await any.value }
    }

    @Test func losersThatAreCancelledDoNotTurnIntoFailures() async throws {
        let queue = makeQueue()
        let works = (0..<10).map { _ in FakeWork<Int>(on: queue) }
        let any = Future.any(works.map(\.future), on: queue)
        works[5].promise.succeed(5)
        #expect(try await any.value.index == 5)
        #expect(await eventually { works.enumerated().allSatisfy { $0.offset == 5 || $0.element.wasCancelled } })
    }
}

@Suite struct AtLeastTests {
    @Test func succeedsWithTheFirstKSuccessesAndCancelsTheRest() async throws {
        let queue = makeQueue()
        let works = (0..<5).map { _ in FakeWork<Int>(on: queue) }
        let quorum = Future.atLeast(2, of: works.map(\.future), on: queue)
        works[4].promise.succeed(4)
        works[0].promise.fail(TestError("zero"))
        works[1].promise.succeed(1)
        let successes = try await quorum.value
        #expect(successes.map(\.index).sorted() == [1, 4])
        #expect(await eventually { works[2].wasCancelled && works[3].wasCancelled })
    }

    @Test func failsAsSoonAsTheQuorumIsImpossible() async throws {
        let queue = makeQueue()
        let works = (0..<4).map { _ in FakeWork<Int>(on: queue) }
        let quorum = Future.atLeast(3, of: works.map(\.future), on: queue)
        works[0].promise.succeed(0)
        works[1].promise.fail(TestError("one"))
        works[2].promise.fail(TestError("two"))
        do {
            _ = try await quorum.value
            Issue.record("the quorum became impossible")
        } catch let error as QuorumError {
            #expect(error.required == 3)
            #expect(error.succeeded == 1)
            #expect(error.errors.map(\.index) == [1, 2])
        }
        #expect(await eventually { works[3].wasCancelled })
    }

    @Test func zeroRequiredSucceedsAtOnceAndCancelsEveryInput() async throws {
        let queue = makeQueue()
        let works = (0..<2).map { _ in FakeWork<Int>(on: queue) }
        let quorum = Future.atLeast(0, of: works.map(\.future), on: queue)
        #expect(try await quorum.value.isEmpty)
        #expect(works.allSatisfy { $0.wasCancelled })
    }

    @Test func moreRequiredThanInputsFailsAtOnce() async throws {
        let queue = makeQueue()
        let works = (0..<2).map { _ in FakeWork<Int>(on: queue) }
        let quorum = Future.atLeast(3, of: works.map(\.future), on: queue)
        await #expect(throws: QuorumError.self) { try await quorum.value }
        #expect(works.allSatisfy { $0.wasCancelled })
    }
}
