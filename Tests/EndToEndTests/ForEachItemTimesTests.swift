import FlowJournal
import Foundation
import Testing

/// A `for-each` item's times in the journal: an item started right after another of the step's
/// items ended, in the same turn of the run's queue, starts at that end's reading of the clock
/// (one reading an item); an item started on its own (the first ones, up to the concurrency)
/// reads the clock for its start. Grammar, "What 'on disk' means".
@Suite(.serialized) struct ForEachItemTimesTests {
    /// The items of step `id` in the journal of the folder's latest run, by index.
    static func items(_ id: String, state: String) throws -> [Int: JournalStep] {
        let detail = try #require(
            try JournalRunSetup.reading(state) { journal in
                try journal.runs(file: nil).first.map { try journal.run(id: $0.id) } ?? nil
            } ?? nil)
        var items: [Int: JournalStep] = [:]
        for step in detail.steps where step.step == id {
            if let item = step.item { items[item] = step }
        }
        return items
    }

    @Test func anItemDoneAtOnceIsFollowedByTheNextStartingAtItsEnd() async throws {
        let scratch = try ResumeRunTests.Scratch()
        let file = try scratch.write(
            "times.yaml",
            """
            version: 1
            steps:
              tick:
                for-each: ${{ range(0, 300) }}
                sleep: 0s
            """)
        let state = scratch.path(".flow")
        let outcome = try await FlowProcess.run(["run", file], environment: ["FLOW_STATE_DIR": state])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let items = try Self.items("tick", state: state)
        #expect(items.count == 300)
        for index in 0..<300 {
            let item = try #require(items[index])
            let started = try #require(item.startedAt)
            let finished = try #require(item.finishedAt)
            #expect(item.state == .succeeded && started <= finished, "item \(index)")
            if index > 0 {
                // The same reading, to the bit: no second read of the clock.
                #expect(started == items[index - 1]?.finishedAt, "item \(index)")
            }
        }
    }

    @Test func itemsStartedOnTheirOwnReadTheClockAndTheRestStartAtTheEndThatLetThemIn() async throws {
        let scratch = try ResumeRunTests.Scratch()
        let file = try scratch.write(
            "waits.yaml",
            """
            version: 1
            steps:
              wait:
                for-each: ${{ range(0, 6) }}
                concurrency: 2
                sleep: 50ms
            """)
        let state = scratch.path(".flow")
        let outcome = try await FlowProcess.run(["run", file], environment: ["FLOW_STATE_DIR": state])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let items = try Self.items("wait", state: state)
        #expect(items.count == 6)
        let ends = Set(items.values.compactMap(\.finishedAt))
        for (index, item) in items {
            let started = try #require(item.startedAt)
            let finished = try #require(item.finishedAt)
            // Each waited its 50 ms after its start.
            #expect(finished.timeIntervalSince(started) >= 0.045, "item \(index)")
            // The first two start together, before any end; each later one when one ended.
            #expect(ends.contains(started) == (index >= 2), "item \(index)")
        }
    }
}
