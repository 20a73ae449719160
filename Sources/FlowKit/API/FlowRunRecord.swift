import FlowJournal
import Foundation

/// One run as a journal recorded it (see `FlowRuns`): a line of `flow runs`.
///
/// ```swift
/// for run in try FlowRuns.list(folder: ".flow") where run.state == .failed {
///     print(run.id, run.workflowFile, run.finishedAt ?? run.startedAt)
/// }
/// ```
public struct FlowRunRecord: Sendable, Hashable {
    /// Where a recorded run is.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Under way, in a process that is still alive.
        case running
        /// Every step that had to succeed did.
        case succeeded
        /// A step failed, or the run could not start: `flow run --resume` continues it.
        case failed
        /// Cancelled (Ctrl-C, a signal, `FlowRun.cancel()`), or its process died (killed, machine
        /// restarted): `flow run --resume` continues it.
        case interrupted
    }

    /// The run's id, e.g. "20261123-130455-a1b2" (its UTC start time and a random suffix).
    public let id: String
    /// The workflow file's absolute path, symbolic links resolved.
    public let workflowFile: String
    /// How it ended, or `running`.
    public let state: State
    /// When it started.
    public let startedAt: Date
    /// When it ended; nil while it runs, or when it was interrupted without ending.
    public let finishedAt: Date?
    /// How many steps are in each state; a `for-each` step counts once (its items are in
    /// `itemCounts`), and states no step is in are absent.
    public let stepCounts: [FlowStepState: Int]
    /// How many `for-each` items are in each state (empty when the run has none).
    public let itemCounts: [FlowStepState: Int]

    init(_ run: JournalRun) {
        id = run.id
        workflowFile = run.file
        state = State(run.state)
        startedAt = run.startedAt
        finishedAt = run.finishedAt
        stepCounts = Self.counts(run.stepCounts)
        itemCounts = Self.counts(run.itemCounts)
    }

    /// The journal counts by its states' names, which are `FlowStepState`'s (it decodes each one
    /// it reads: an unknown name is a `FlowJournalError` before it gets here).
    private static func counts(_ counts: [String: Int]) -> [FlowStepState: Int] {
        var typed: [FlowStepState: Int] = [:]
        for (name, count) in counts {
            guard let state = JournalStepState(rawValue: name) else { continue }
            typed[FlowStepState(state), default: 0] += count
        }
        return typed
    }
}

/// Everything a journal keeps about one run: what `flow runs show` prints.
///
/// ```swift
/// if let run = try FlowRuns.run(id: id, folder: ".flow") {
///     print(run.record.state, run.inputs)
///     for step in run.steps { print(step.name, step.state, step.attempts, step.error ?? "") }
/// }
/// ```
public struct FlowRunDetail: Sendable, Hashable {
    /// The run, as `FlowRuns.list` gives it.
    public let record: FlowRunRecord
    /// The workflow file's hash when the run started (or was last resumed).
    public let fileHash: String
    /// Each step's definition hash, by step id: `--resume` runs a step again when it changed.
    public let stepHashes: [String: String]
    /// The inputs it was given, by name (secret ones are never recorded).
    public let inputs: [String: String]
    /// Every step and `for-each` item recorded, in the order they started (those never started
    /// last), then by step and item.
    public let steps: [FlowStepRecord]
    /// Every upload's and resumable download's session, as last recorded.
    public let transfers: [FlowTransferRecord]

    init(_ detail: JournalRunDetail) {
        record = FlowRunRecord(detail.run)
        fileHash = detail.fileHash
        stepHashes = detail.stepHashes
        inputs = detail.inputs
        steps = detail.steps.map(FlowStepRecord.init)
        transfers = detail.transfers.map(FlowTransferRecord.init)
    }
}

extension FlowRunRecord.State {
    init(_ state: JournalRunState) {
        switch state {
        case .running: self = .running
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .interrupted: self = .interrupted
        }
    }
}

extension FlowStepState {
    init(_ state: JournalStepState) {
        switch state {
        case .pending: self = .pending
        case .running: self = .running
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .skipped: self = .skipped
        case .cancelled: self = .cancelled
        }
    }
}
