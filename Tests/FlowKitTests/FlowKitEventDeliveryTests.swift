import Dispatch
import FlowKit
import Foundation
import Testing

/// How `FlowRun.events` reaches a consumer on an actor: the events waiting are taken on that
/// actor, without a hop to another executor and back for each one (issue 32, bench/flowkit).
@Suite struct FlowKitEventDeliveryTests {
    /// A serial executor that counts the jobs it is given: each hop onto the actor is one.
    /// (An `NSLock`, which the thread sanitizer sees, guards the count.)
    final class CountingExecutor: SerialExecutor, @unchecked Sendable {
        private let queue = DispatchQueue(label: "flow.test.counting-executor")
        private let lock = NSLock()
        private var count = 0

        /// The jobs run so far.
        var jobs: Int { lock.withLock { count } }

        func enqueue(_ job: consuming ExecutorJob) {
            lock.withLock { count += 1 }
            let job = UnownedJob(job)
            let executor = asUnownedSerialExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }

        func asUnownedSerialExecutor() -> UnownedSerialExecutor {
            UnownedSerialExecutor(ordinary: self)
        }
    }

    /// A consumer of events isolated to an actor, as an app's view model on the main actor is.
    actor Consumer {
        let executor = CountingExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func count(_ events: FlowEvents) async -> Int {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
    }

    @Test func anActorReadsTheWaitingEventsWithoutAHopForEach() async throws {
        var yaml = "version: 1\nsteps:\n"
        for index in 0..<500 { yaml += "  s\(index): { sleep: 0s }\n" }
        let workflow = try FlowWorkflow(yaml: yaml, baseFolder: NSTemporaryDirectory())
        let run = try workflow.start()
        // Every event is waiting before the consumer starts (the steps' own are never dropped),
        // so how many jobs the actor runs depends on how events are taken, not on timing.
        #expect(await run.outcome.state == .succeeded)
        let consumer = Consumer()
        let events = await consumer.count(run.events)
        #expect(events == 500 * 3 + 1)
        let jobs = consumer.executor.jobs
        // One hop onto the actor per event (and one off) before; a few for all of them now.
        #expect(jobs < 20, "the actor ran \(jobs) jobs for \(events) events")
    }
}
