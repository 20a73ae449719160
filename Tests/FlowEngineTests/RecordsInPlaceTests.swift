import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Testing

/// The scheduler writes only the fields a start or an end changes into the records table, in
/// place, instead of copying the whole record there (issue 32): at every event, the table must
/// still hold exactly the record the event carries.
@Suite struct RecordsInPlaceTests {
    /// One field of a record, as text, so that two records can be compared whole.
    private static func fields(_ record: StepRecord<String>?) -> [String] {
        guard let record else { return ["no record"] }
        return [
            record.id, record.state.rawValue, record.output ?? "-", record.error.map { "\($0)" } ?? "-",
            "\(record.failureIgnored)", record.winner ?? "-", record.startedAt.map { "\($0)" } ?? "-",
            record.finishedAt.map { "\($0)" } ?? "-",
        ]
    }

    /// A race's winner, a failure that counts as a success, a failure that skips its dependent, a
    /// cancelled child and plain successes with outputs: a field missed by the in-place writes
    /// (the winner, `failureIgnored`, the start) shows as a difference at some event.
    @Test func theTableHoldsTheEventsRecordAtEveryStartAndEnd() async throws {
        let fake = FakeSteps()
        let steps: [PlannedStep<String>] = [
            PlannedStep(id: "race", work: .group(GroupPolicy(mode: .any), children: ["fast", "slow"])),
            PlannedStep(id: "fast", group: "race", work: fake.automatic(.success("won"), after: .milliseconds(5))),
            PlannedStep(id: "slow", group: "race", work: fake.manual()),
            PlannedStep(
                id: "tolerated", continueOnError: true, work: fake.automatic(.failure(TestFailure("tolerated")))),
            PlannedStep(id: "broken", work: fake.automatic(.failure(TestFailure("broken")))),
            PlannedStep(id: "after-broken", needs: ["broken"], work: fake.automatic()),
            PlannedStep(id: "after-all", needs: ["race", "tolerated"], work: fake.automatic(.success("done"))),
        ]
        let records = RunRecords<String>()
        let mismatches = LockedBox<[String]>([])
        let seen = LockedBox(0)
        let scheduler = Scheduler(
            steps: steps, concurrency: 4, queue: DispatchQueue(label: "run"), records: records,
            onEvent: { event in
                if case .progress = event.kind { return }
                seen.withLock { $0 += 1 }
                let (table, carried) = (Self.fields(records[event.id]), Self.fields(event.record))
                if table != carried { mismatches.withLock { $0.append("\(event.id): \(table) != \(carried)") } }
            })
        let final = try await scheduler.start().value.all
        #expect(mismatches.withLock { $0 } == [])
        #expect(seen.withLock { $0 } >= 2 * 5)
        #expect(final["race"]?.winner == "fast")
        #expect(final["slow"]?.state == .cancelled)
        #expect(final["tolerated"]?.state == .failed)
        #expect(final["tolerated"]?.failureIgnored == true)
        #expect(final["after-broken"]?.state == .skipped)
        #expect(final["after-broken"]?.startedAt == nil)
        #expect(final["after-all"]?.output == "done")
        for (id, record) in final where record.state != .skipped {
            #expect(record.startedAt != nil, "\(id)")
            #expect(record.finishedAt != nil, "\(id)")
        }
    }
}
