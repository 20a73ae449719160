import FlowTasks

/// Unsafe requests sent and not answered yet, by step (and item). A step that ends cancelled or
/// failed with one still open does not know whether the server did the work: the journal is told
/// so again after the step's end, and a resume stops there as after a kill.
final class OpenUnsafeSends: Sendable {
    private let open = LockedBox<Set<TransferKey>>([])

    func sent(_ key: TransferKey) {
        open.withLock { _ = $0.insert(key) }
    }

    /// The request's outcome is known: an answer came, or it surely never left.
    func settled(_ key: TransferKey) {
        open.withLock { _ = $0.remove(key) }
    }

    /// Removes and returns the open sends of `step` (its items, and steps of the files it called).
    func take(step: String, item: Int?) -> [TransferKey] {
        open.withLock { open in
            // Nearly always: most steps send nothing unsafe, and this runs at every step's end.
            guard !open.isEmpty else { return [] }
            let taken = open.filter { key in
                if item != nil { return key.step == step && key.item == item }
                return key.step == step || key.step.hasPrefix(step + "/") || key.step.hasPrefix(step + "[")
            }
            open.subtract(taken)
            return Array(taken)
        }
    }
}
