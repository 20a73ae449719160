import FlowTestSupport
import Foundation
import GRDB
import Testing

@testable import FlowJournal

/// Two writers on one journal (two `flow run` of the same file): neither loses changes or corrupts the
/// file; a writer killed with SIGKILL leaves a journal that opens, and its run reads as interrupted.
@Suite("Journal shared by writers")
struct JournalConcurrencyTests {
    private func integrity(_ folder: TemporaryFolder) throws -> String? {
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        return try journal.reading { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    @Test("two Journal instances in one process write the same file at once")
    func twoInstances() async throws {
        let folder = try TemporaryFolder()
        let first = try Journal.open(stateDirectory: folder.path)
        let second = try Journal.open(stateDirectory: folder.path)
        let file = "/w/same.yaml"
        let runs = try [first, second].map { journal in
            try journal.beginRun(NewRun(file: file, fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        }
        // Both record from threads of their own at the same time, flushing now and then.
        await withTaskGroup(of: Void.self) { group in
            for (journal, run) in zip([first, second], runs) {
                group.addTask {
                    for index in 0..<3_000 {
                        journal.record(
                            .stepFinished(
                                run: run, step: "s\(index)", item: nil, state: .succeeded, attempts: 1,
                                startedAt: Date(), finishedAt: Date(), outputs: .json(#"{"i":\#(index)}"#), error: nil))
                        if index % 500 == 0 { journal.flush { _ in } }
                    }
                    journal.record(.runFinished(run: run, state: .succeeded, at: Date()))
                }
            }
        }
        try await first.flushed()
        try await second.flushed()
        first.close()
        second.close()
        #expect(try integrity(folder) == "ok")
        let reader = try #require(try Journal.openForReading(stateDirectory: folder.path))
        for run in runs {
            let detail = try #require(try reader.run(id: run))
            #expect(detail.run.state == .succeeded)
            #expect(detail.run.stepCounts == ["succeeded": 3_000])
        }
    }

    @Test("two processes write the same journal at once")
    func twoProcesses() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/same.yaml"
        let writers = try (0..<2).map { _ in try WriterProcess(["write", folder.path, file, "4000"]) }
        for writer in writers {
            #expect(await writer.exitStatus() == 0, "\(writer.printed)")
        }
        let ids = writers.compactMap(\.runID)
        #expect(ids.count == 2 && Set(ids).count == 2, "\(writers.map(\.printed))")
        #expect(try integrity(folder) == "ok")
        let journal = try #require(try Journal.openForReading(stateDirectory: folder.path))
        let runs = try journal.runs(file: file)
        #expect(Set(runs.map(\.id)) == Set(ids))
        for run in runs {
            #expect(run.state == .succeeded)
            #expect(run.stepCounts == ["succeeded": 4_000])
        }
    }

    @Test("a writer killed with SIGKILL: the journal opens, its run was running, now interrupted")
    func killedWriter() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/killed.yaml"
        let writer = try WriterProcess(["write", folder.path, file, "200", "hang"])
        #expect(await writer.wait(for: "ready"), "\(writer.printed)")
        let id = try #require(writer.runID)
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        // Alive: running, and not offered for --resume (another process runs it).
        #expect(try journal.run(id: id)?.run.state == .running)
        #expect(try journal.latestUnfinishedRun(file: file) == nil)
        // Nor can it be reopened while that process runs it.
        #expect(throws: JournalError.self) { try journal.reopenRun(id: id, fileHash: "h", stepHashes: [:]) }
        kill(writer.process.processIdentifier, SIGKILL)
        #expect(await writer.exitStatus() != nil)
        let detail = try #require(try journal.run(id: id))
        #expect(detail.run.state == .interrupted)
        #expect(detail.run.finishedAt == nil)
        #expect(detail.run.stepCounts == ["succeeded": 200])
        #expect(try journal.latestUnfinishedRun(file: file)?.run.id == id)
        // Once its process is gone, this process can take it over.
        try journal.reopenRun(id: id, fileHash: "h2", stepHashes: [:])
        #expect(try journal.run(id: id)?.run.state == .running)
        #expect(try integrity(folder) == "ok")
    }
}
