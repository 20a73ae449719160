/// What the journal keeps of a finished step's (or item's) outputs, as the recorder hands them
/// over and a reader gets them back: a value, so that neither side recognises the other's text.
package enum JournalOutputs: Sendable, Equatable {
    /// Nothing kept: an item that did not succeed, a step still running.
    case none
    /// The step's record is its state alone (no outputs, items, error or winner): most steps.
    /// Kept as one byte (a tenth of a run's log otherwise); a reader makes the record from the state.
    case stateOnly
    /// The record, or an item's value and outputs, as the recorder encoded it (JSON text).
    case json(String)
    /// The outputs held a secret value and were not kept: the step runs again on resume.
    case secret

    /// The JSON text, for `.json`.
    package var json: String? {
        if case .json(let text) = self { return text }
        return nil
    }

    /// Whether the outputs held a secret value and were not kept.
    package var containsSecret: Bool { self == .secret }
}
