import Foundation

/// A run about to start, as `Journal.beginRun` stores it.
public struct NewRun: Sendable {
    /// The workflow file's absolute path (see `JournalLocation.canonicalFile`).
    public var file: String
    /// The hash of the file's content.
    public var fileHash: String
    /// Each step's definition hash, by step id.
    public var stepHashes: [String: String]
    /// The key of step hashes the run shares with other runs of the same file text
    /// (see `JournalChange.sharedStepHashes`); nil when it has its own.
    public var stepHashesKey: String?
    /// The run's non-secret inputs, rendered as text, by name.
    public var inputs: [String: String]
    /// When the run started.
    public var startedAt: Date

    /// A run to begin.
    public init(
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
