import FlowTasks

/// The records of a run's steps, readable from any thread while the run goes on.
///
/// The scheduler's queue is the only writer; runners and renderers read. A mutex makes a record
/// written on the queue visible, whole, to a reader on another thread.
package final class RunRecords<Output: Sendable>: Sendable {
    private struct Storage {
        var records: [String: StepRecord<Output>]
        /// Where the record of the plan's step n is in `records`, so the scheduler writes it in
        /// place without hashing its id on every change (ten thousand steps changed twice each).
        /// Valid because no key is added or removed once the plan is registered.
        var planIndices: [[String: StepRecord<Output>].Index] = []
    }

    private let storage: LockedBox<Storage>
    /// Where an id this run does not have is looked up (the run that an item of a `for-each`
    /// group is part of); `all` does not include them.
    private let outer: RunRecords<Output>?

    /// Records for a run about to be scheduled (the scheduler adds every step).
    package init(_ initial: [String: StepRecord<Output>] = [:]) {
        storage = LockedBox(Storage(records: initial))
        outer = nil
    }

    /// Records for the run of one item of a `for-each` group, reading `outer` for the other steps.
    init(outer: RunRecords<Output>?) {
        storage = LockedBox(Storage(records: [:]))
        self.outer = outer
    }

    /// The record of step `id` (this run's, else the outer run's), or nil for an unknown id.
    package subscript(id: String) -> StepRecord<Output>? {
        storage.withLock { $0.records[id] } ?? outer?[id]
    }

    /// Every record, by id.
    package var all: [String: StepRecord<Output>] {
        storage.withLock { $0.records }
    }

    /// Sets the records of a plan's steps, so that the record of the plan's step `n` can then be
    /// written with `update(_:at: n)`.
    func register(_ plan: [StepRecord<Output>]) {
        storage.withLock { storage in
            storage.records.reserveCapacity(storage.records.count + plan.count)
            for record in plan { storage.records[record.id] = record }
            // After every insertion: an insertion may move what is already there.
            storage.planIndices = plan.map { record in
                guard let index = storage.records.index(forKey: record.id) else {
                    preconditionFailure("a registered record is in the table")
                }
                return index
            }
        }
    }

    /// Writes the record of the plan's step `slot` (see `register`).
    func update(_ record: StepRecord<Output>, at slot: Int) {
        storage.withLock { storage in
            storage.records.values[storage.planIndices[slot]] = record
        }
    }
}
