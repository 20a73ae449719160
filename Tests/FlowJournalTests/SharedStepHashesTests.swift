import FlowTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

@testable import FlowJournal

/// Format 4: the runs of one file text share one copy of their step hashes, made by the first of
/// them; each run still reads them as its own, and they go when the last run naming them is pruned.
@Suite("Journal shared step hashes")
struct SharedStepHashesTests {
    /// Counts the calls of a `sharedStepHashes` change's maker.
    final class Made: Sendable {
        let count = Mutex(0)

        func hashes(_ map: [String: String]) -> @Sendable () -> StepHashes {
            { [self] in
                count.withLock { $0 += 1 }
                return StepHashes(map)
            }
        }
    }

    @Test("two runs of one file text: the hashes are made and stored once, and both runs read them")
    func madeOnce() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let made = Made()
        let hashes = ["build": "1:b1", "deploy": "1:d1"]
        var runs: [String] = []
        for _ in 0..<2 {
            let run = try journal.beginRun(
                NewRun(
                    file: "/w/a.yaml", fileHash: "fa", stepHashes: [:], stepHashesKey: "1:fa", inputs: [:],
                    startedAt: Date()))
            journal.record(.sharedStepHashes(key: "1:fa", hashes: made.hashes(hashes)))
            try await journal.flushed()
            runs.append(run)
        }
        // Another file text has its own.
        let other = try journal.beginRun(
            NewRun(
                file: "/w/a.yaml", fileHash: "fb", stepHashes: [:], stepHashesKey: "1:fb", inputs: [:],
                startedAt: Date()))
        journal.record(.sharedStepHashes(key: "1:fb", hashes: made.hashes(["build": "1:b2"])))
        try await journal.flushed()

        #expect(made.count.withLock { $0 } == 2)
        for run in runs { #expect(try journal.run(id: run)?.stepHashes == hashes) }
        #expect(try journal.run(id: other)?.stepHashes == ["build": "1:b2"])
        let stored = try journal.reading { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM shared_step_hashes")
        }
        #expect(stored == 2)
        let ownCopies = try journal.reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM run_step_hashes") }
        #expect(ownCopies == 0)
    }

    @Test(
        "a format-1 journal opened only to read (flow runs before any flow run upgraded it): its runs, steps and hashes read"
    )
    func olderJournalReadWithoutMigrating() async throws {
        let folder = try TemporaryFolder()
        try StepLogTests.writeFormatOne(folder.path + "/journal.sqlite")
        let journal = try #require(try Journal.openForReading(stateDirectory: folder.path))
        defer { journal.close() }
        #expect(try journal.reading { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 1)
        let detail = try #require(try journal.run(id: "old-run"))
        #expect(detail.stepHashes == ["a": "1", "b": "2"])
        #expect(detail.steps.map(\.step) == ["a", "b"])
        #expect(try journal.runs(file: nil).map(\.id) == ["old-run"])
    }

    @Test("a resumed run keeps hashes of its own, which win over the shared ones")
    func resumedRunOwnsItsHashes() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(
                file: "/w/a.yaml", fileHash: "fa", stepHashes: [:], stepHashesKey: "1:fa", inputs: [:],
                startedAt: Date()))
        journal.record(.sharedStepHashes(key: "1:fa", hashes: Made().hashes(["a": "1:old"])))
        journal.record(.runFinished(run: run, state: .interrupted, at: Date()))
        try await journal.flushed()
        try journal.reopenRun(id: run, fileHash: "fc", stepHashes: ["a": "1:new"])
        #expect(try journal.run(id: run)?.stepHashes == ["a": "1:new"])
    }

    @Test("pruning removes shared hashes with the last run that names them, and keeps those still named")
    func prunedWithTheirLastRun() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        var ids: [String] = []
        // One run of an older text, then 52 of the current one: the first three are pruned.
        for index in 0..<53 {
            let key = index == 0 ? "1:old" : "1:new"
            let started = base.addingTimeInterval(Double(index) * 60)
            let id = try journal.beginRun(
                NewRun(
                    file: "/w/p.yaml", fileHash: key, stepHashes: [:], stepHashesKey: key, inputs: [:],
                    startedAt: started))
            journal.record(.sharedStepHashes(key: key, hashes: Made().hashes(["s": key])))
            journal.record(.runFinished(run: id, state: .succeeded, at: started))
            try await journal.flushed()
            ids.append(id)
        }
        let keys = try journal.reading { db in
            try String.fetchAll(db, sql: "SELECT hashes_key FROM shared_step_hashes ORDER BY hashes_key")
        }
        #expect(keys == ["1:new"])
        #expect(try journal.run(id: ids[0]) == nil)
        #expect(try journal.run(id: ids[3])?.stepHashes == ["s": "1:new"])
        #expect(try journal.run(id: ids[52])?.stepHashes == ["s": "1:new"])
    }
}
