import FlowTestSupport
import Foundation
import GRDB
import Testing

@testable import FlowJournal

/// The secret marker: outputs that held a secret are never stored, whatever the caller hands over.
/// Checked in every cell of every table and in the raw bytes of the database, its WAL and its
/// shared-memory file, against a control value that must be found the same way.
@Suite("Journal secrets")
struct JournalSecretTests {
    @Test("outputs marked as holding a secret are written nowhere")
    func secretWrittenNowhere() async throws {
        let folder = try TemporaryFolder()
        let secret = "s3cr3t-\(UUID().uuidString)"
        let control = "visible-\(UUID().uuidString)"
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(file: "/w/s.yaml", fileHash: "h", stepHashes: [:], inputs: ["region": "eu"], startedAt: Date()))
        for (index, (value, holdsSecret)) in [(secret, true), (control, false)].enumerated() {
            journal.record(
                .stepFinished(
                    run: run, step: "s\(index)", item: nil, state: .succeeded, attempts: 1, startedAt: Date(),
                    finishedAt: Date(), outputs: holdsSecret ? .secret : .json(#"{"token":"\#(value)"}"#),
                    error: nil))
        }
        try await journal.flushed()

        let steps = try #require(try journal.run(id: run)).steps
        #expect(steps.map(\.outputs) == [.secret, .json(#"{"token":"\#(control)"}"#)])

        let cells = try journal.reading { db in
            var cells: [String] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                    for (_, value) in row {
                        // A step log cell is bytes: its texts are in it as UTF-8.
                        if let data = Data.fromDatabaseValue(value) {
                            cells.append(String(decoding: data, as: UTF8.self))
                        } else {
                            cells.append(value.description)
                        }
                    }
                }
            }
            return cells
        }
        #expect(cells.contains { $0.contains(control) })
        #expect(!cells.contains { $0.contains(secret) })
        // The files as written, the journal still open (WAL not checkpointed).
        let files = ["", "-wal", "-shm"].map { bytes(of: journal.file + $0) }
        #expect(files.contains { $0.range(of: Data(control.utf8)) != nil })
        for data in files { #expect(data.range(of: Data(secret.utf8)) == nil) }
    }
}
