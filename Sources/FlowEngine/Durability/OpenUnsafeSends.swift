import FlowTasks
import Synchronization

/// Unsafe requests sent and not answered yet, by step (and item). A step that ends cancelled or
/// failed with one still open does not know whether the server did the work: the journal is told
/// so again after the step's end, and a resume stops there as after a kill.
final class OpenUnsafeSends: Sendable {
    private let open = LockedBox<Set<TransferKey>>([])
    /// How many are open, kept with `open` under its lock: `take` reads it without the lock, as
    /// most runs send nothing unsafe and it runs at every step's and item's end (a lock an item of
    /// a 100,000-item `for-each`).
    private let count = Atomic<Int>(0)

    func sent(_ key: TransferKey) {
        open.withLock {
            $0.insert(key)
            count.store($0.count, ordering: .releasing)
        }
    }

    /// The request's outcome is known: an answer came, or it surely never left.
    func settled(_ key: TransferKey) {
        open.withLock {
            $0.remove(key)
            count.store($0.count, ordering: .releasing)
        }
    }

    /// Removes and returns the open sends of `step` (its items, and steps of the files it called).
    func take(step: String, item: Int?) -> [TransferKey] {
        // A send of this step happened before its end, which is what calls this: its count is seen.
        guard count.load(ordering: .acquiring) > 0 else { return [] }
        return open.withLock { open in
            // Nearly always: most steps send nothing unsafe, and this runs at every step's end.
            guard !open.isEmpty else { return [] }
            let taken = open.filter { key in
                if item != nil { return key.step == step && key.item == item }
                return key.step == step || key.step.hasPrefix(step + "/") || key.step.hasPrefix(step + "[")
            }
            open.subtract(taken)
            count.store(open.count, ordering: .releasing)
            return Array(taken)
        }
    }
}
