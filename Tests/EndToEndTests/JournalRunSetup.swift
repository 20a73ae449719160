import FlowJournal
import FlowSandbox
import Foundation

/// What the journal's end-to-end tests start from (ForEachJournalTests, SharedJournalRunTests): a
/// scratch folder, the real sandbox, and a workflow for it written in the folder.
struct JournalRunSetup {
    let scratch: ResumeRunTests.Scratch
    let sandbox: Sandbox
    /// The workflow's file.
    let file: String
    /// The state folder a run of `file` keeps its journal in by default.
    var state: String { scratch.path(".flow") }

    /// A new scratch folder and sandbox, with `workflow(the sandbox's base URL)` written as `name`.
    static func start(_ name: String, _ workflow: (String) -> String) async throws -> JournalRunSetup {
        let scratch = try ResumeRunTests.Scratch()
        let sandbox = try await Sandbox.start()
        do {
            return JournalRunSetup(
                scratch: scratch, sandbox: sandbox, file: try scratch.write(name, workflow(sandbox.baseURL)))
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// Stops the sandbox without waiting (for a `defer`).
    func stop() {
        let sandbox = sandbox
        Task { await sandbox.stop() }
    }

    /// What `read` gives of the journal in `stateDirectory`, closed after; nil when there is none.
    static func reading<T>(_ stateDirectory: String, _ read: (Journal) throws -> T) throws -> T? {
        guard let journal = try Journal.openForReading(stateDirectory: stateDirectory) else { return nil }
        defer { journal.close() }
        return try read(journal)
    }
}
