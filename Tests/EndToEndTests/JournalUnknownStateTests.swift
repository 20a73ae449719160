import FlowJournal
import Foundation
import GRDB
import Testing

/// A journal holding a run state this flow does not know (a newer flow's, or a hand edit):
/// `flow runs` and `flow run --resume` name the journal's file, the run and the state, and exit 2,
/// instead of listing a word they cannot act on or skipping the run in silence.
@Suite struct JournalUnknownStateTests {
    /// The fixture of `RunsCommandTests` with its failed run's state changed to "paused".
    private func fixtureWithUnknownState() throws -> RunsCommandTests.Fixture {
        let fixture = try RunsCommandTests.Fixture()
        let database = try DatabaseQueue(path: fixture.folder + "/.flow/journal.sqlite")
        try database.write { db in
            try db.execute(sql: "UPDATE run SET state = 'paused' WHERE id = ?", arguments: [fixture.failed])
        }
        try database.close()
        return fixture
    }

    private func expectNamed(_ stderr: String, _ fixture: RunsCommandTests.Fixture) {
        let journal = fixture.folder + "/.flow/journal.sqlite"
        #expect(stderr.contains("journal \(journal): run \(fixture.failed) has the state \"paused\""), "\(stderr)")
        #expect(stderr.contains("(it knows running, succeeded, failed, interrupted)"), "\(stderr)")
    }

    @Test func flowRunsNamesTheJournalTheRunAndTheState() async throws {
        let fixture = try fixtureWithUnknownState()
        defer { fixture.remove() }
        for arguments in [["runs", fixture.file], ["runs", "show", fixture.failed, fixture.file]] {
            let outcome = try await FlowProcess.run(arguments)
            #expect(outcome.exitCode == 2, "\(arguments) \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
            expectNamed(outcome.stderr, fixture)
        }
    }

    @Test func resumeNamesTheJournalTheRunAndTheState() async throws {
        let fixture = try fixtureWithUnknownState()
        defer { fixture.remove() }
        let outcome = try await FlowProcess.run(["run", fixture.file, "--resume"])
        #expect(outcome.exitCode == 2, "\(outcome.stderr)")
        expectNamed(outcome.stderr, fixture)
    }
}
