import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Testing

/// Each scheduler node reads its id and its number of needs from its own place in the plan (read
/// through the plan's buffer, without a copy of the step: issue 32).
@Suite struct SchedulerNodeTests {
    /// Steps declared out of need order, with need counts that differ from each neighbour's: a
    /// node given another position's id or need count starts a step too soon or records it
    /// under another id.
    @Test func everyStepKeepsItsOwnIdAndWaitsForAllItsNeeds() async throws {
        let needs: [(String, [String])] = [
            ("last", ["first", "second", "third"]), ("first", []), ("third", ["first", "second"]),
            ("second", ["first"]), ("alone", []),
        ]
        let steps = needs.map { id, needs in
            PlannedStep<String>(
                id: id, needs: needs,
                work: .leaf { start in
                    start.report(.attempt(1))
                    return Future<Void>.delay(.milliseconds(5), on: start.queue).map { _ in id }
                })
        }
        let (records, events) = try await run(steps, concurrency: 8)
        #expect(records.count == needs.count)
        for (id, stepNeeds) in needs {
            #expect(records[id]?.id == id)
            #expect(records[id]?.state == .succeeded)
            #expect(records[id]?.output == id)
            let started = try #require(events.firstIndex(of: "start \(id)"))
            for need in stepNeeds {
                let finished = try #require(events.firstIndex(of: "succeeded \(need)"))
                #expect(finished < started, "\(id) started before its need \(need) finished")
            }
        }
    }
}
