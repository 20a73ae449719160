import Foundation

/// A run about to start, as `Journal.beginRun` stores it.
package struct NewRun: Sendable {
    /// The workflow file's absolute path (see `JournalLocation.canonicalFile`).
    package var file: String
    /// The hash of the file's content.
    package var fileHash: String
    /// Each step's definition hash, by step id.
    package var stepHashes: [String: String]
    /// The key of step hashes the run shares with other runs of the same file text
    /// (see `JournalChange.sharedStepHashes`); nil when it has its own.
    package var stepHashesKey: String?
    /// The run's non-secret inputs, rendered as text, by name.
    package var inputs: [String: String]
    /// When the run started.
    package var startedAt: Date

    /// A run to begin.
    package init(
        file: String, fileHash: String, stepHashes: [String: String], stepHashesKey: String? = nil,
        inputs: [String: String], startedAt: Date
    ) {
        self.file = file
        self.fileHash = fileHash
        self.stepHashes = stepHashes
        self.stepHashesKey = stepHashesKey
        self.inputs = inputs
        self.startedAt = startedAt
    }
}
