/// The one place where the states the journal stores as text become `JournalRunState` and
/// `JournalStepState` again: every reader (rows, `step_log` cells, counts) decodes through it, so a
/// state this flow does not know is an error naming what holds it, never a crash or a default.
enum JournalStateText {
    /// The state of the run `id`, stored as `text` in its row.
    static func run(_ text: String, id: String) throws(JournalUnknownState) -> JournalRunState {
        guard let state = JournalRunState(rawValue: text) else {
            throw JournalUnknownState(owner: "run \(id)", value: text, known: JournalRunState.allCases.map(\.rawValue))
        }
        return state
    }

    /// The state of `step` (its `item`, nil for a step without items), stored as `text`.
    static func step(_ text: String, step: String, item: Int?) throws(JournalUnknownState) -> JournalStepState {
        guard let state = JournalStepState(rawValue: text) else {
            throw JournalUnknownState(
                owner: "step '\(step)'" + (item.map { " item \($0)" } ?? ""), value: text,
                known: JournalStepState.allCases.map(\.rawValue))
        }
        return state
    }
}

/// A state in the journal that this flow does not know (written by a newer flow, or edited by
/// hand). Readers name the journal's file around it (`JournalError.from`).
struct JournalUnknownState: Error, CustomStringConvertible {
    /// What holds the state: "run ID" or "step 'ID'".
    let owner: String
    /// The stored text.
    let value: String
    /// The states this flow knows.
    let known: [String]

    var description: String {
        "\(owner) has the state \(value.debugDescription), which this flow does not know (it knows "
            + known.joined(separator: ", ") + "); was the journal written by a newer flow?"
    }
}
