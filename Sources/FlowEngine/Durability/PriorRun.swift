import FlowDSL

/// What an earlier, unfinished run of the same file leaves to a resumed one: the records of the
/// steps that need not run again, and the upload sessions to adopt.
package struct PriorRun: Sendable {
    /// The final records of the steps kept (they do not run; see `Scheduler.init(prior:)`).
    package var records: [String: StepRecord<StepResult>]
    /// Upload sessions by step id (and item), to continue from the server's offset.
    package var transfers: [TransferKey: TransferSession]
    /// The items that succeeded, by `for-each` step id and index, of the steps that run again:
    /// an item whose value is the same again is not run and keeps its outputs.
    package var items: [String: [Int: PriorItem]]

    /// A prior run.
    package init(
        records: [String: StepRecord<StepResult>] = [:], transfers: [TransferSession] = [],
        items: [String: [Int: PriorItem]] = [:]
    ) {
        self.records = records
        self.items = items
        self.transfers = Dictionary(
            transfers.map { (TransferKey(step: $0.step, item: $0.item), $0) }, uniquingKeysWith: { _, last in last })
    }
}

/// A step, or one item of a `for-each` step.
package struct TransferKey: Sendable, Hashable {
    /// The step's id.
    package let step: String
    /// The item's index.
    package let item: Int?

    /// A key.
    package init(step: String, item: Int?) {
        self.step = step
        self.item = item
    }
}

/// A `for-each` item that succeeded in the run being resumed: its value then and its outputs.
package struct PriorItem: Sendable, Equatable {
    /// The item as the step read it.
    package let item: Value
    /// Its outputs.
    package let outputs: [String: Value]

    /// A kept item.
    package init(item: Value, outputs: [String: Value]) {
        self.item = item
        self.outputs = outputs
    }

    /// The journal's text for a succeeded item: `{"item": …, "outputs": {…}}`, without `outputs`
    /// when it has none (journal format 5).
    package var jsonText: String {
        JournalEntryText.priorItem(item: item, outputs: outputs)
    }

    /// The item `jsonText` gave (of any journal format); nil for text that is not one.
    package init?(jsonText: String) {
        guard case .object(let members)? = try? Value(jsonText: jsonText), let item = members["item"] else {
            return nil
        }
        switch members["outputs"] {
        case nil: self.init(item: item, outputs: [:])
        case .object(let outputs)?: self.init(item: item, outputs: outputs)
        case _?: return nil
        }
    }
}
