/// One item of a `for-each` step that started or ended, with where the step's items stand.
///
/// ```swift
/// if case .item(let item) = event, item.state == .failed { print("\(item.step)[\(item.index)]: \(item.error ?? "")") }
/// ```
public struct FlowItemEvent: Sendable, Hashable {
    /// The `for-each` step's id.
    public let step: String
    /// The item's position in the list, from 0.
    public let index: Int
    /// The item's value, short and masked, for messages (`"b.csv"`).
    public let label: String
    /// `running` when it started; else its final state.
    public let state: FlowStepState
    /// Why it failed or was cancelled (masked), when it ended so.
    public let error: String?
    /// The step's items final so far, this one included.
    public let finished: Int
    /// The step's items failed so far.
    public let failed: Int
    /// How many items the step has.
    public let total: Int
}

/// One item of a `for-each` step once it is final, as `FlowStepResult.items` lists it.
public struct FlowItemResult: Sendable, Hashable {
    /// Its final state: `succeeded`, `failed`, `cancelled`, or `skipped` when it never started.
    public let state: FlowStepState
    /// The item's value as JSON text, masked and cut to 60 characters, for messages.
    public let label: String
    /// Why it failed or was cancelled (masked).
    public let error: String?
    /// Its outputs (empty unless it succeeded).
    public let outputs: [String: FlowValue]
}
