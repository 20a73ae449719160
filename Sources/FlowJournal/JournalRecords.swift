import Foundation

/// One run as `flow runs` lists it.
public struct JournalRun: Sendable, Codable, Equatable {
    /// The run's id, e.g. "20261123-130455-a1b2" (UTC start time and a random suffix).
    public var id: String
    /// The workflow file's absolute path.
    public var file: String
    /// running, succeeded, failed or interrupted. A run recorded as running whose process is gone
    /// (killed, machine restarted) reads as interrupted.
    public var state: String
    /// When the run started.
    public var startedAt: Date
    /// When it ended; nil while running or when it was interrupted without ending.
    public var finishedAt: Date?
    /// How many steps are in each state, e.g. ["succeeded": 3, "failed": 1]; a `for-each` step
    /// counts once.
    public var stepCounts: [String: Int]
    /// How many `for-each` items are in each state (empty when the run has none).
    public var itemCounts: [String: Int]

    /// A run as read from the journal.
    public init(
        id: String, file: String, state: String, startedAt: Date, finishedAt: Date?, stepCounts: [String: Int],
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
public struct JournalStep: Sendable, Equatable {
    /// The step's id.
    public var step: String
    /// The item's index, nil for a step without items.
    public var item: Int?
    /// running, succeeded, failed, skipped, cancelled… as the run recorded it.
    public var state: String
    /// Attempts made so far.
    public var attempts: Int
    /// When the latest first attempt started.
    public var startedAt: Date?
    /// When the step ended.
    public var finishedAt: Date?
    /// What was kept of the outputs (`.secret` when they held a secret and were not stored: the
    /// step runs again on resume).
    public var outputs: JournalOutputs
    /// The error message of the last failed attempt.
    public var error: String?
    /// True when an unsafe request was about to be sent and no outcome was recorded since.
    public var unsafeInFlight: Bool

    /// A step as read from the journal.
    public init(
        step: String, item: Int?, state: String, attempts: Int, startedAt: Date?, finishedAt: Date?,
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
public struct JournalTransfer: Sendable, Codable, Equatable {
    /// The step's id.
    public var step: String
    /// The item's index, nil for a step without items.
    public var item: Int?
    /// tus, content-range or download.
    public var kind: String
    /// The tus URL, PUT URL or file path.
    public var target: String
    /// Bytes the server (or the file) confirmed.
    public var bytesConfirmed: Int64
    /// The local file's identity (path+size+mtime or hash).
    public var fileIdentity: String

    /// A transfer as read from the journal.
    public init(step: String, item: Int?, kind: String, target: String, bytesConfirmed: Int64, fileIdentity: String) {
        self.step = step
        self.item = item
        self.kind = kind
        self.target = target
        self.bytesConfirmed = bytesConfirmed
        self.fileIdentity = fileIdentity
    }
}

/// Everything the journal keeps about one run.
public struct JournalRunDetail: Sendable, Equatable {
    /// The run's summary.
    public var run: JournalRun
    /// The workflow file's hash when the run started (or was last resumed).
    public var fileHash: String
    /// Each step's definition hash, by step id.
    public var stepHashes: [String: String]
    /// The non-secret inputs, by name.
    public var inputs: [String: String]
    /// Every step and item recorded, in step then item order.
    public var steps: [JournalStep]
    /// Every transfer session recorded.
    public var transfers: [JournalTransfer]

    /// A run's details as read from the journal.
    public init(
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
