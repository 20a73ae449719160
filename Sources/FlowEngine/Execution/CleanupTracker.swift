import Dispatch
import FlowTasks

/// Requests a cancelled step leaves running on purpose (a tus `DELETE` of a partial upload), which
/// the run waits for before it ends, so the process does not exit under them.
final class CleanupTracker: Sendable {
    private let pending = LockedBox<[Future<Void>]>([])

    /// Waits for `work` (failures included) before the run ends.
    func add(_ work: Future<Void>) {
        pending.withLock { $0.append(work) }
    }

    /// Completes when every cleanup added so far has finished, whatever its outcome.
    func settled(on queue: DispatchQueue) -> Future<Void> {
        let work = pending.withLock { $0 }
        guard !work.isEmpty else { return .succeeded((), on: queue) }
        return Future.allSettled(work, on: queue).map(on: queue) { _ in () }
    }
}
