import FlowTasks

/// The records of a run's steps, readable from any thread while the run goes on.
///
/// The scheduler's queue is the only writer; runners and renderers read. A mutex makes a record
/// written on the queue visible, whole, to a reader on another thread.
package final class RunRecords<Output: Sendable>: Sendable {
    private struct Storage {
        /// Records given before the plan (`init(_:)`), by id.
        var records: [String: StepRecord<Output>]
        /// The plan's records, in the plan's order: the scheduler writes the record of step n in
        /// place, without hashing its id (ten thousand steps changed twice each), and registering
        /// a plan hashes no id either (its positions are the scheduler graph's own table).
        var plan: [StepRecord<Output>] = []
        /// Where each id of the plan is in `plan`.
        var positions: [String: Int] = [:]

        /// The record of `id`: the plan's, else one given before it.
        func record(_ id: String) -> StepRecord<Output>? {
            if let position = positions[id] { return plan[position] }
            return records[id]
        }
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
        storage.withLock { $0.record(id) } ?? outer?[id]
    }

    /// Every record, by id.
    package var all: [String: StepRecord<Output>] {
        storage.withLock { storage in
            guard !storage.plan.isEmpty else { return storage.records }
            var all = storage.records
            all.reserveCapacity(all.count + storage.plan.count)
            for record in storage.plan { all[record.id] = record }
            return all
        }
    }

    /// Whether some record (this run's own, not the outer run's) failed without its failure
    /// being ignored, or was cancelled: when none did, no step can fail the run, and its outcome
    /// needs no walk of the workflow's steps by id (`WorkflowRun.outcome(records:interrupted:setupFailed:)`).
    var someFailedOrCancelled: Bool {
        func failsRun(_ record: StepRecord<Output>) -> Bool {
            (record.state == .failed && !record.failureIgnored) || record.state == .cancelled
        }
        return storage.withLock { storage in
            // By index: each record's state read in place, no record copied.
            for index in storage.plan.indices where failsRun(storage.plan[index]) {
                return true
            }
            return storage.records.values.contains(where: failsRun)
        }
    }

    /// Sets the records of a plan's steps, so that the record of the plan's step `n` can then be
    /// written with `update(_:at: n)`; `positions` gives each id's place in `plan` (the scheduler
    /// graph's table).
    func register(_ plan: [StepRecord<Output>], positions: [String: Int]) {
        storage.withLock { storage in
            // A second plan (not made today) keeps the first one's records readable.
            for record in storage.plan { storage.records[record.id] = record }
            storage.plan = plan
            storage.positions = positions
        }
    }

    /// Writes the record of the plan's step `slot` (see `register`).
    func update(_ record: StepRecord<Output>, at slot: Int) {
        storage.withLock { storage in
            storage.plan[slot] = record
        }
    }
}
