import FlowDSL

/// A step's record as the journal keeps it: its state alone for most steps, else the entry
/// `StepRecordsFile` writes for one step, as JSON text, so that `--outputs-from` and `--resume`
/// read records the same way.
package enum JournalEntry {
    /// What the journal keeps of `record`: `.stateOnly` when it holds nothing but its state,
    /// `.secret` when it held a secret value (never kept: the step runs again on resume), else its
    /// entry as JSON text. `itemsInLog`: the journal holds each of the step's items' ends, so a
    /// `for-each` step whose items all succeeded need not repeat them (see `decode`).
    package static func encode(_ record: StepRecord<StepResult>, masker: SecretMasker, itemsInLog: Bool = false)
        -> StepOutputs
    {
        if isStateOnly(record) { return .stateOnly }
        // No secret to mask: the text written as bytes, without the entry's `Value` tree.
        if masker.isEmpty { return .json(JournalEntryText.unmasked(record, itemsInLog: itemsInLog)) }
        let masked = StepRecordsFile.encode(record, masker: masker)
        // Masking changed something: a secret value (or a form of it) is in the outputs or the error.
        if !masker.isEmpty, masked != StepRecordsFile.encode(record, masker: .none) {
            return .secret
        }
        return .json(masked.jsonText)
    }

    /// Whether `record` holds nothing but its state (no outputs, items, error or winner, so no
    /// secret either): most steps' records are such, and are kept without encoding anything
    /// (building their entry was most of what the journal cost a step).
    static func isStateOnly(_ record: StepRecord<StepResult>) -> Bool {
        record.error == nil && !record.failureIgnored && record.winner == nil && record.output?.items == nil
            && record.output?.outputs.isEmpty ?? true
    }

    /// The records of `entries` (step id to its state and what `encode` gave) for the steps of
    /// `workflow`; an entry that cannot be read, or that kept nothing, is left out, so its step
    /// runs again. `items`: the succeeded items' ends the journal holds, by step and index, from
    /// which an entry written with `itemsInLog` gets its items back; one whose items are not all
    /// there is left out too.
    package static func decode(
        _ entries: [String: (state: StepState, outputs: StepOutputs)], items: [String: [Int: LoggedItem]] = [:],
        workflow: Workflow
    ) -> [String: StepRecord<StepResult>] {
        var records: [String: StepRecord<StepResult>] = [:]
        for (id, kept) in entries {
            let entry: Value
            switch kept.outputs {
            case .stateOnly:
                // The entry `encode` would have written for a record of its state alone.
                entry = .object(["status": .string(kept.state.rawValue), "outputs": .object([:])])
            case .json(let text):
                guard let value = try? Value(jsonText: text), let whole = withLoggedItems(value, items[id] ?? [:])
                else { continue }
                entry = whole
            case .none, .secret:
                continue
            }
            let document = Value.object([
                "flow-outputs": .number(Double(StepRecordsFile.version)), "steps": .object([id: entry]),
            ])
            if let decoded = try? StepRecordsFile.decode(document, file: "the journal", workflow: workflow) {
                records.merge(decoded) { _, new in new }
            }
        }
        return records
    }
}
