import Dispatch
import FlowTasks
import Testing

@Suite struct TimeTests {
    @Test func delayFiresAfterItsDuration() async throws {
        let started = DispatchTime.now()
        try await Future<Void>.delay(.milliseconds(30), on: makeQueue()).value
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        #expect(elapsed >= 29)
    }

    @Test func aDelayCancelledBeforeFiringNeverFires() async throws {
        let delay = Future<Void>.delay(.milliseconds(30), on: makeQueue())
        let fired = Recorder<Int>()
        delay.whenSuccess { fired.append(1) }
        delay.cancel()
        try await Task.sleep(for: .milliseconds(80))
        #expect(fired.count == 0)
        await #expect(throws: FutureError.cancelled) { try await delay.value }
    }

    @Test func timeoutFailsAndCancelsTheWork() async throws {
        let work = FakeWork<Int>(on: makeQueue())
        let limited = work.future.timeout(after: .milliseconds(20))
        await #expect(throws: FutureError.timedOut(after: .milliseconds(20))) { try await limited.value }
        #expect(work.wasCancelled)
    }

    @Test func aTimeOutIsReportedAsOneEveryTime() async throws {
        // Work on the timer's own queue, whose cancellation (caused by the timer) completes it with
        // `cancelled`: the result must still say "timed out". (A full-suite run once saw a step
        // time-out recorded as a cancellation; `timeout` now remembers that it expired.)
        let queue = DispatchQueue(label: "timeout-race")
        for _ in 0..<100 {
            let work = Promise<Int>(on: queue)
            let limited = work.future.timeout(after: .milliseconds(1))
            await #expect(throws: FutureError.timedOut(after: .milliseconds(1))) { try await limited.value }
        }
    }

    @Test func workFinishingInTimePassesThrough() async throws {
        let queue = makeQueue()
        let work = FakeWork<Int>(on: queue)
        let limited = work.future.timeout(after: .seconds(5))
        work.promise.succeed(3)
        #expect(try await limited.value == 3)
        #expect(!work.wasCancelled)
    }

    @Test func timeoutMessageSaysHowLong() {
        #expect(FutureError.timedOut(after: .milliseconds(250)).description == "timed out after 250ms")
        #expect(FutureError.timedOut(after: .milliseconds(1500)).description == "timed out after 1.5s")
        #expect(FutureError.timedOut(after: .seconds(90)).description == "timed out after 1m30s")
    }
}
