import FlowDSL

/// A succeeded `for-each` item's end as the journal keeps it: what a resume keeps of it, and its
/// attempts, from which a step entry written without its items gets them back.
package struct LoggedItem: Sendable, Equatable {
    /// The item's value and outputs.
    package let prior: PriorItem
    /// Its attempts (0 for an item a resume kept).
    package let attempts: Int

    /// An item's end.
    package init(prior: PriorItem, attempts: Int) {
        self.prior = prior
        self.attempts = attempts
    }
}

extension JournalEntry {
    /// `entry` with its items: as it is when it holds them (every entry a flow before journal
    /// format 5 wrote), else the `items-in-log` count of them rebuilt from `logged` — all
    /// succeeded, as `JournalEntryText.unmasked` writes the count only then. Nil when one of them
    /// is missing (the step then runs again, its items kept one by one).
    static func withLoggedItems(_ entry: Value, _ logged: [Int: LoggedItem]) -> Value? {
        guard case .object(var fields) = entry, let marker = fields.removeValue(forKey: "items-in-log") else {
            return entry
        }
        guard case .number(let number, _) = marker, let count = Int(exactly: number), count >= 0,
            logged.count >= count
        else { return nil }
        var items: [Value] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            guard let item = logged[index] else { return nil }
            items.append(
                .object([
                    "attempts": .number(Double(item.attempts)), "item": item.prior.item,
                    "outputs": .object(item.prior.outputs), "status": .string(StepState.succeeded.rawValue),
                ]))
        }
        fields["items"] = .array(items)
        return .object(fields)
    }
}
