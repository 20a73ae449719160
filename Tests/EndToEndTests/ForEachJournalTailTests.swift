import FlowSandbox
import Foundation
import Testing

@testable import FlowJournal

/// A `for-each` item's end is kept on the run's queue as a few fields and encoded by the journal's
/// thread when it writes its next batch (`RunRecorder.holdItemEnds`, `Journal.addTail`). What
/// Grammar promises ("What 'on disk' means") still holds: an item's end is on disk within the batch
/// window even when nothing else happens after it, and survives a `kill -9`.
@Suite(.serialized) struct ForEachJournalTailTests {
    /// Item 0 runs for a minute; the other 19 end after their starts were written, and nothing
    /// else is recorded after their ends: only the held ends themselves make the journal write a
    /// batch. Killed then, the run loses none of them: each is in the journal, and item 0 (still
    /// in flight) is the only one a resume would run.
    @Test func itemEndsHeldForTheJournalAreOnDiskWithinTheWindowAndSurviveAKill() async throws {
        let setup = try await JournalRunSetup.start("tail.yaml") { baseURL in
            """
            version: 1
            steps:
              fetch:
                for-each: [60000, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300]
                concurrency: 20
                http: { url: "\(baseURL)/delay/${{ item }}?i=${{ index }}" }
            """
        }
        defer { setup.stop() }
        let child = try FlowChild(["run", setup.file])
        var states: [Int: JournalStepState] = [:]
        let ended = await FlowChild.wait(for: .seconds(30)) {
            let read = try? JournalRunSetup.reading(setup.state) { journal in
                try journal.runs(file: nil).first.map { try journal.run(id: $0.id) } ?? nil
            }
            guard let detail = read ?? nil else { return false }
            states = Dictionary(
                detail.steps.filter { $0.step == "fetch" }.compactMap { step in step.item.map { ($0, step.state) } },
                uniquingKeysWith: { $1 })
            return (1..<20).allSatisfy { states[$0] == .succeeded }
        }
        #expect(ended, "\(states)\n\(child.errors)")
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))

        let after = try #require(
            try JournalRunSetup.reading(setup.state) { journal in
                try journal.runs(file: nil).first.map { try journal.run(id: $0.id) } ?? nil
            } ?? nil)
        let items = after.steps.filter { $0.step == "fetch" && $0.item != nil }
        #expect(items.filter { $0.state == .succeeded }.compactMap(\.item).sorted() == Array(1..<20))
        // Item 0's start was written with the others' (a batch came after it), and it never ended.
        #expect(items.first { $0.item == 0 }?.state == .running)
        #expect(items.first { $0.item == 1 }?.outputs.json == #"{"item":300}"#)
    }
}
