import Foundation

/// One run as `flow runs` lists it.
package struct JournalRun: Sendable, Codable, Equatable {
    /// The run's id, e.g. "20261123-130455-a1b2" (UTC start time and a random suffix).
    package var id: String
    /// The workflow file's absolute path.
    package var file: String
    /// running, succeeded, failed or interrupted. A run recorded as running whose process is gone
    /// (killed, machine restarted) reads as interrupted.
    package var state: JournalRunState
    /// When the run started.
    package var startedAt: Date
    /// When it ended; nil while running or when it was interrupted without ending.
    package var finishedAt: Date?
    /// How many steps are in each state, e.g. ["succeeded": 3, "failed": 1]; a `for-each` step
    /// counts once.
    package var stepCounts: [String: Int]
    /// How many `for-each` items are in each state (empty when the run has none).
    package var itemCounts: [String: Int]

    /// A run as read from the journal.
    package init(
        id: String, file: String, state: JournalRunState, startedAt: Date, finishedAt: Date?,
        stepCounts: [String: Int],
        itemCounts: [String: Int] = [:]
    ) {
        self.itemCounts = itemCounts
        self.id = id
        self.file = file
        self.state = state
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.stepCounts = stepCounts
    }
}

/// One step (or one `for-each` item) of a run.
package struct JournalStep: Sendable, Equatable {
    /// The step's id.
    package var step: String
    /// The item's index, nil for a step without items.
    package var item: Int?
    /// running, succeeded, failed, skipped, cancelled… as the run recorded it.
    package var state: JournalStepState
    /// Attempts made so far.
    package var attempts: Int
    /// When the latest first attempt started.
    package var startedAt: Date?
    /// When the step ended.
    package var finishedAt: Date?
    /// What was kept of the outputs (`.secret` when they held a secret and were not stored: the
    /// step runs again on resume).
    package var outputs: JournalOutputs
    /// The error message of the last failed attempt.
    package var error: String?
    /// True when an unsafe request was about to be sent and no outcome was recorded since.
    package var unsafeInFlight: Bool

    /// A step as read from the journal.
    package init(
        step: String, item: Int?, state: JournalStepState, attempts: Int, startedAt: Date?, finishedAt: Date?,
        outputs: JournalOutputs, error: String?, unsafeInFlight: Bool
    ) {
        self.step = step
        self.item = item
        self.state = state
        self.attempts = attempts
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.outputs = outputs
        self.error = error
        self.unsafeInFlight = unsafeInFlight
    }
}

/// An upload's or resumable download's session, as last recorded.
package struct JournalTransfer: Sendable, Codable, Equatable {
    /// The step's id.
    package var step: String
    /// The item's index, nil for a step without items.
    package var item: Int?
    /// tus, content-range or download.
    package var kind: String
    /// The tus URL, PUT URL or file path.
    package var target: String
    /// Bytes the server (or the file) confirmed.
    package var bytesConfirmed: Int64
    /// The local file's identity (path+size+mtime or hash).
    package var fileIdentity: String

    /// A transfer as read from the journal.
    package init(step: String, item: Int?, kind: String, target: String, bytesConfirmed: Int64, fileIdentity: String) {
        self.step = step
        self.item = item
        self.kind = kind
        self.target = target
        self.bytesConfirmed = bytesConfirmed
        self.fileIdentity = fileIdentity
    }
}

/// Everything the journal keeps about one run.
package struct JournalRunDetail: Sendable, Equatable {
    /// The run's summary.
    package var run: JournalRun
    /// The workflow file's hash when the run started (or was last resumed).
    package var fileHash: String
    /// Each step's definition hash, by step id.
    package var stepHashes: [String: String]
    /// The non-secret inputs, by name.
    package var inputs: [String: String]
    /// Every step and item recorded, in step then item order.
    package var steps: [JournalStep]
    /// Every transfer session recorded.
    package var transfers: [JournalTransfer]

    /// A run's details as read from the journal.
    package init(
        run: JournalRun, fileHash: String, stepHashes: [String: String], inputs: [String: String],
        steps: [JournalStep], transfers: [JournalTransfer]
    ) {
        self.run = run
        self.fileHash = fileHash
        self.stepHashes = stepHashes
        self.inputs = inputs
        self.steps = steps
        self.transfers = transfers
    }
}
