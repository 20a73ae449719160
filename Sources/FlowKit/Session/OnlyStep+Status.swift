import FlowDSL
import FlowEngine

/// `flow run --only ID --status-to FILE --status-for STEP…`: besides `--outputs-to`, a small
/// record of the step for the item pods of an exported `for-each` step (issue 28): each such pod
/// decides the step's `if` and its needs' states itself, so it needs each need's status, but of
/// its outputs only those the step reads; given the whole record, every one of thousands of pods
/// would carry it.
struct StatusRecord: Sendable {
    /// Where it is written.
    let path: String
    /// What the readers read of each step, by id.
    let reads: [String: RecordRead]
}

extension OnlyStep {
    /// Sets `--status-to`: a problem (exit 2) when a reader is not a top-level step, or with
    /// `--item` / `--items-to` (an item pod's record is already one item's).
    mutating func addStatusRecord(to path: String, readers: [String], workflow: Workflow) throws(Problem) {
        guard selection == nil else {
            throw Problem("--status-to goes with a step run whole, not with --item or --items-to")
        }
        var ids: Set<String> = []
        for reader in readers {
            guard let step = workflow.steps.first(where: { $0.id == reader }) else {
                throw Problem(
                    "--status-for \(reader): \(workflow.file) has no top-level step '\(reader)'; its top-level steps "
                        + "are " + workflow.steps.map(\.id).joined(separator: ", "))
            }
            ids.formUnion(Self.descendants(of: step).map(\.id))
        }
        status = StatusRecord(path: path, reads: workflow.recordReads(by: ids))
    }

    /// The status record: the upstream failures, as in `--outputs-to`, and each of the step's own
    /// records with its status, `winner` and `failure-ignored`, the outputs the readers read,
    /// its items only when read (an empty list otherwise, which keeps a failed `for-each`'s
    /// partial outputs readable), and no error text.
    func statusDocument(_ records: [String: StepRecord<StepResult>], masker: SecretMasker) -> Value {
        let own = ownRecords(records)
        let whole = StepRecordsFile.encode(upstreamFailures.merging(own) { _, own in own }, masker: masker)
        guard case .object(var root) = whole, case .object(var steps)? = root["steps"] else { return whole }
        for id in own.keys {
            guard case .object(var fields)? = steps[id] else { continue }
            let read = status?.reads[id] ?? RecordRead()
            fields["error"] = nil
            if let names = read.outputs, case .object(let outputs)? = fields["outputs"] {
                fields["outputs"] = Value.object(outputs.filter { names.contains($0.key) })
            }
            if !read.items, fields["items"] != nil { fields["items"] = Value.array([]) }
            steps[id] = Value.object(fields)
        }
        root["steps"] = Value.object(steps)
        return Value.object(root)
    }
}
