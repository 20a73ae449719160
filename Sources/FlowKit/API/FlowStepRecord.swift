import FlowDSL
import FlowEngine
import FlowJournal
import Foundation

/// One step, or one item of a `for-each` step, as a journal recorded it (see `FlowRunDetail`).
///
/// ```swift
/// for step in run.steps {
///     print(step.name, step.state, step.attempts)                       // fetch[3] failed 3
///     if case .json(let text) = step.outputs { print("  outputs:", text) }  // {"colour":"red"}
/// }
/// ```
public struct FlowStepRecord: Sendable, Hashable {
    /// What the journal kept of a step's outputs.
    public enum Outputs: Sendable, Hashable {
        /// Nothing: a `for-each` item that did not succeed, a step still running.
        case notKept
        /// The outputs the workflow declared, as JSON text (compact, keys sorted), exactly as
        /// stored: `{"token":"abc"}`; `{}` for a step with none (it declares none, or failed). A
        /// `for-each` step's hold each output's values of every item, in item order.
        case json(String)
        /// They held a secret value and were not stored: `flow run --resume` runs the step again.
        case secret

        /// The outputs as a value (an object by output name); nil when none were kept or the
        /// stored text is not JSON. Parsed on each call: `json` is the cheap form.
        public var value: FlowValue? {
            guard case .json(let text) = self, let value = try? Value(jsonText: text) else { return nil }
            return FlowValue(value)
        }

        init(_ stored: JournalOutputs) {
            switch stored {
            case .none: self = .notKept
            case .secret: self = .secret
            case .stateOnly: self = .json("{}")
            // The stored text is the engine's record of the step (outputs, status, items); a text
            // that is not such a record (never written by flow) is given as it is.
            case .json(let record): self = .json(JournalEntry.outputsText(ofEntry: record) ?? record)
            }
        }
    }

    /// The step's id (`deploy/publish` for a step of a called file).
    public let step: String
    /// The item's index in its `for-each` step, from 0; nil for a step itself.
    public let item: Int?
    /// Its state when last recorded (`running` in a run that was interrupted: it never ended).
    public let state: FlowStepState
    /// Attempts made, as last recorded.
    public let attempts: Int
    /// When its latest first attempt started; nil when it never started.
    public let startedAt: Date?
    /// When it ended; nil while it runs or when it never ended.
    public let finishedAt: Date?
    /// What was kept of its outputs.
    public let outputs: Outputs
    /// The last failed attempt's error message.
    public let error: String?
    /// True when an unsafe request (POST, PATCH…) was about to be sent and no outcome was recorded
    /// since: whether the server acted on it is unknown.
    public let unsafeRequestInFlight: Bool

    /// "deploy", or "fetch[3]" for an item of a `for-each` step, as `flow runs show` names it.
    public var name: String { FlowStepRecord.name(step, item) }

    init(_ step: JournalStep) {
        self.step = step.step
        item = step.item
        state = FlowStepState(step.state)
        attempts = step.attempts
        startedAt = step.startedAt
        finishedAt = step.finishedAt
        outputs = Outputs(step.outputs)
        error = step.error
        unsafeRequestInFlight = step.unsafeInFlight
    }

    static func name(_ step: String, _ item: Int?) -> String {
        item.map { "\(step)[\($0)]" } ?? step
    }
}

/// An upload's or resumable download's session as a journal last recorded it: what
/// `flow run --resume` continues from.
///
/// ```swift
/// for transfer in run.transfers { print(transfer.name, transfer.kind, transfer.bytesConfirmed) }
/// ```
public struct FlowTransferRecord: Sendable, Hashable {
    /// The step's id.
    public let step: String
    /// The item's index in its `for-each` step, nil for a step itself.
    public let item: Int?
    /// `tus`, `content-range` (an upload in PUT ranges) or `download`.
    public let kind: String
    /// The tus upload's URL, the PUT URL, or the downloaded file's path.
    public let target: String
    /// Bytes the server (or, for a download, the file) confirmed.
    public let bytesConfirmed: Int64
    /// The local file's identity (path, size and modification time, or hash): a resume with a
    /// different file starts over.
    public let fileIdentity: String

    /// "send", or "send[2]" for an item of a `for-each` step.
    public var name: String { FlowStepRecord.name(step, item) }

    init(_ transfer: JournalTransfer) {
        step = transfer.step
        item = transfer.item
        kind = transfer.kind
        target = transfer.target
        bytesConfirmed = transfer.bytesConfirmed
        fileIdentity = transfer.fileIdentity
    }
}
