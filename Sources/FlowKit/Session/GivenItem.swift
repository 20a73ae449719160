import FlowDSL
import FlowEngine

/// `flow run --only ID --item=…`: which part of a `for-each` step one pod runs. Either an index
/// (the pod computes the step's items, from the records it is given, and runs that one), or one
/// entry of the list `--items-to` wrote, which an exported workflow's fanned-out task hands each
/// pod as `{{item}}` (see Grammar.md, "Running on Argo Workflows"):
///
/// - `{"index": I, "count": N, "item": VALUE}`: run VALUE as item I of N. The items' pod decided
///   the step's `if` and its items, so this pod decides neither and needs no record of them: it
///   is given only the records its item reads (issue 28, defect 5).
/// - `{"index": -1, "count": 0, "record": RECORDS}`: the step decided as a whole (RECORDS is a
///   records file of the step alone): skipped, failed computing its items, or run with none.
/// - An entry without `item` or `record` (an item that held a secret, which the list leaves
///   out): the pod computes the items, as with an index.
struct GivenItem {
    let index: Int
    let count: Int
    /// The item, when given.
    let item: Value?
    /// The step's record when it was decided as a whole and did not run (skipped or failed).
    let record: StepRecord<StepResult>?
    /// Whether the step's `if` and items were decided by the items' pod (no need is required).
    let decidedElsewhere: Bool

    init(_ text: String, step: Step, workflow: Workflow) throws(OnlyStep.Problem) {
        if let index = Int(text) {
            (self.index, count, item, record, decidedElsewhere) = (index, 0, nil, nil, false)
            return
        }
        guard case .object(let fields)? = try? Value(jsonText: text), case .number(let index, _)? = fields["index"],
            case .number(let count, _)? = fields["count"], index >= -1, count >= 0, index < max(count, 1)
        else {
            throw OnlyStep.Problem(
                "--item \(text): expected an index or an entry of the list --items-to writes "
                    + "({\"index\": 0, \"count\": 3, \"item\": …})")
        }
        (self.index, self.count, item) = (Int(index), Int(count), fields["item"])
        var record: StepRecord<StepResult>?
        if let document = fields["record"] {
            do {
                record = try StepRecordsFile.decode(document, file: "--item", workflow: workflow)[step.id]
            } catch {
                throw OnlyStep.Problem("--item: \(error)")
            }
        }
        // A step that ran with no items is run again here, so that each output is an empty list.
        self.record = record?.state == .succeeded ? nil : record
        decidedElsewhere = item != nil || record != nil
    }

    /// What the pod runs of step `step`.
    func selection(step: String) -> ForEachSelection {
        if let item { return .given(step: step, index: index, count: count, item: item) }
        if index == -1, decidedElsewhere { return .given(step: step, index: -1, count: 0, item: .null) }
        return .item(step: step, index: index)
    }

    /// The list `--items-to` writes for step `step` from its record in the items' pod: an entry
    /// per item, or one entry (-1) with the step's record when it runs none. An item that the
    /// masker changes (it holds a secret) is listed without its value, which Argo would show.
    static func entries(_ record: StepRecord<StepResult>?, step: Step, masker: SecretMasker) -> Value {
        guard let record, record.state == .succeeded, let items = record.output?.items, !items.isEmpty else {
            var fields: [String: Value] = ["index": .number(-1), "count": .number(0)]
            if let record { fields["record"] = StepRecordsFile.encode([step.id: record], masker: masker) }
            return .array([.object(fields)])
        }
        let count = Value.number(Double(items.count))
        return .array(
            items.enumerated().map { index, entry in
                var fields: [String: Value] = ["index": .number(Double(index)), "count": count]
                if StepRecordsFile.masked(entry.item, masker) == entry.item { fields["item"] = entry.item }
                return .object(fields)
            })
    }
}
