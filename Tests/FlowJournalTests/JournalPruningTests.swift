import FlowTestSupport
import Foundation
import GRDB
import Testing

@testable import FlowJournal

/// Pruning keeps the 50 newest runs of a file, plus the newest unfinished one and runs still
/// running; other files' runs are untouched.
@Suite("Journal pruning")
struct JournalPruningTests {
    @Test("60 runs of a file leave the 50 newest and the old failed run --resume would continue")
    func pruneToFifty() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        var ids: [String] = []
        let other = try journal.beginRun(
            NewRun(file: "/w/other.yaml", fileHash: "o", stepHashes: [:], inputs: [:], startedAt: base))
        journal.record(.runFinished(run: other, state: .succeeded, at: base))
        for index in 0..<60 {
            let started = base.addingTimeInterval(Double(index) * 60)
            let id = try journal.beginRun(
                NewRun(file: "/w/a.yaml", fileHash: "a", stepHashes: [:], inputs: [:], startedAt: started))
            journal.record(
                .stepFinished(
                    run: id, step: "only", item: nil, state: index == 3 ? .failed : .succeeded, attempts: 1,
                    startedAt: started, finishedAt: started, outputs: .json("{}"), error: nil))
            journal.record(.runFinished(run: id, state: index == 3 ? .failed : .succeeded, at: started))
            // Finished before the next begins: a run still running is never pruned.
            try await journal.flushed()
            ids.append(id)
        }
        let kept = try journal.runs(file: "/w/a.yaml").map(\.id)
        #expect(kept == Array(ids.suffix(50).reversed()) + [ids[3]])
        #expect(try journal.runs(file: "/w/other.yaml").map(\.id) == [other])
        #expect(try journal.run(id: ids[0]) == nil)
        // The pruned runs' steps went with them: one log cell for each run kept, none for the others.
        let cells = try journal.reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM step_log") }
        #expect(cells == 51)
        #expect(try journal.latestUnfinishedRun(file: "/w/a.yaml")?.run.id == ids[3])
    }
}
