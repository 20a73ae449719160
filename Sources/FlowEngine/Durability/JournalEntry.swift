import FlowDSL

/// A step's record as the journal keeps it: the entry `StepRecordsFile` writes for one step, as
/// JSON text, so that `--outputs-from` and `--resume` read records the same way.
package enum JournalEntry {
    /// The entry for `record` and whether it held a secret value. When it did, there is no text:
    /// a secret value is never kept, and the step runs again on resume.
    package static func encode(_ record: StepRecord<StepResult>, masker: SecretMasker) -> (
        json: String?, containsSecret: Bool
    ) {
        if let text = plainText(record) { return (text, false) }
        let masked = StepRecordsFile.encode(record, masker: masker)
        // Masking changed something: a secret value (or a form of it) is in the outputs or the error.
        if !masker.isEmpty, masked != StepRecordsFile.encode(record, masker: .none) {
            return (nil, true)
        }
        return (masked.jsonText, false)
    }

    /// The entry of a record that holds nothing but its state (no outputs, items, error or winner,
    /// so no secret either), as `encode` would write it but without building it: most steps'
    /// records are such, and building them was most of what the journal cost a step.
    static func plainText(_ record: StepRecord<StepResult>) -> String? {
        guard record.error == nil, !record.failureIgnored, record.winner == nil,
            record.output?.items == nil, record.output?.outputs.isEmpty ?? true
        else { return nil }
        // A search of six cases: cheaper than hashing the state, once a step.
        guard let index = StepState.allCases.firstIndex(of: record.state) else { return nil }
        return plainTexts[index]
    }

    /// `plainText`'s texts, made once, in the order of `StepState.allCases`.
    private static let plainTexts = StepState.allCases.map { #"{"outputs":{},"status":""# + $0.rawValue + #""}"# }

    /// The records of `entries` (step id to the text `encode` gave) for the steps of `workflow`;
    /// an entry that cannot be read is left out, so its step runs again.
    package static func decode(_ entries: [String: String], workflow: Workflow) -> [String: StepRecord<StepResult>] {
        var records: [String: StepRecord<StepResult>] = [:]
        for (id, text) in entries {
            guard let entry = try? Value(jsonText: text) else { continue }
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
