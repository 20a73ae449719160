import FlowTestSupport
import Foundation
import GRDB
import Testing

@testable import FlowJournal

/// States come back from the journal as `JournalRunState` and `JournalStepState`, decoded in one
/// place: a state this flow does not know (a newer flow's, or a hand edit) is an error naming the
/// journal's file and what holds the state, never a crash or a silent default.
@Suite("Journal unknown states")
struct JournalUnknownStateTests {
    /// A journal with one finished run of `/w/u.yaml` and its id.
    private func journalWithRun(_ folder: TemporaryFolder) async throws -> (Journal, String) {
        let journal = try Journal.open(stateDirectory: folder.path)
        let run = try journal.beginRun(
            NewRun(file: "/w/u.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        journal.record(
            .stepFinished(
                run: run, step: "a", item: nil, state: .failed, attempts: 1, startedAt: nil, finishedAt: Date(),
                outputs: .none, error: "boom"))
        journal.record(.runFinished(run: run, state: .failed, at: Date()))
        try await journal.flushed()
        return (journal, run)
    }

    @Test("every state round-trips as a value")
    func statesRoundTrip() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(file: "/w/u.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        for (index, state) in JournalStepState.allCases.enumerated() {
            // With an error, so that the state is written as its text, not as a code.
            journal.record(
                .stepFinished(
                    run: run, step: "s\(index)", item: nil, state: state, attempts: 1,
                    startedAt: Date(timeIntervalSince1970: Double(index)), finishedAt: Date(), outputs: .none,
                    error: "e"))
        }
        journal.record(.runFinished(run: run, state: .interrupted, at: Date()))
        try await journal.flushed()
        let detail = try #require(try journal.run(id: run))
        #expect(detail.steps.map(\.state) == JournalStepState.allCases)
        #expect(detail.run.state == .interrupted)
    }

    @Test("a run row's unknown state: every reader says which journal, which run and which state")
    func unknownRunState() async throws {
        let folder = try TemporaryFolder()
        let (journal, run) = try await journalWithRun(folder)
        defer { journal.close() }
        try journal.tampering { db in
            try db.execute(sql: "UPDATE run SET state = 'paused' WHERE id = ?", arguments: [run])
        }
        let reads: [() throws -> Void] = [
            { _ = try journal.runs(file: nil) },
            { _ = try journal.run(id: run) },
            { _ = try journal.latestUnfinishedRun(file: "/w/u.yaml") },
            { try journal.reopenRun(id: run, fileHash: "h", stepHashes: [:]) },
        ]
        for read in reads {
            #expect {
                try read()
            } throws: { error in
                guard case .io(let message) = error as? JournalError else { return false }
                return message.hasPrefix("journal \(journal.file): run \(run) has the state \"paused\"")
                    && message.contains("running, succeeded, failed, interrupted")
            }
        }
    }

    @Test("a step row's unknown state (format 1): an error naming the journal and the step")
    func unknownStepRowState() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/journal.sqlite"
        try StepLogTests.writeFormatOne(file)
        let old = try DatabaseQueue(path: file)
        try old.write { db in try db.execute(sql: "UPDATE step SET state = 'parked' WHERE step = 'b'") }
        try old.close()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        for read in [{ _ = try journal.run(id: "old-run") }, { _ = try journal.runs(file: nil) }] {
            #expect {
                try read()
            } throws: { error in
                guard case .io(let message) = error as? JournalError else { return false }
                return message.hasPrefix("journal \(journal.file): step 'b' item 3 has the state \"parked\"")
            }
        }
    }

    @Test("a step log cell's unknown state: the journal's damage, named, not a crash")
    func unknownStepLogState() async throws {
        let folder = try TemporaryFolder()
        let (journal, run) = try await journalWithRun(folder)
        defer { journal.close() }
        // A finish of step "a" (no item) in state "parked", laid out as `StepLogEncoder` writes one.
        var cell: [UInt8] = [StepLogTag.finished.rawValue, 1, UInt8(ascii: "a"), 0, 6]
        cell += Array("parked".utf8) + [1, 0] + [UInt8](repeating: 0, count: 8) + [0, 0, 0]
        try journal.tampering { db in
            try db.execute(sql: "INSERT INTO step_log (run_id, changes) VALUES (?, ?)", arguments: [run, Data(cell)])
        }
        for read in [{ _ = try journal.run(id: run) }, { _ = try journal.runs(file: nil) }] {
            #expect {
                try read()
            } throws: { error in
                guard case .corrupt(let file, let reason) = error as? JournalError else { return false }
                return file == journal.file && reason.contains("step 'a' has the state \"parked\"")
            }
        }
    }
}

extension Journal {
    /// A synchronous write to the journal's database, for tests that put in what flow never writes.
    fileprivate func tampering(_ body: (Database) throws -> Void) throws {
        try database.write(body)
    }
}
