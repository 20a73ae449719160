import FlowTasks

/// The records of a run's steps, readable from any thread while the run goes on.
///
/// The scheduler's queue is the only writer; runners and renderers read. A mutex makes a record
/// written on the queue visible, whole, to a reader on another thread.
package final class RunRecords<Output: Sendable>: Sendable {
    private struct Storage {
        /// Records given before the plan (`init(_:)`), by id.
        var records: [String: StepRecord<Output>]
        /// The plan's records, by id. Made from the scheduler graph's table of positions with
        /// `mapValues`, which keeps its buckets: registering a plan hashes no id. The scheduler
        /// writes the record of step n through `slots[n]`, without hashing its id either, and
        /// `all` at the run's end is this table, not a new one (issue 32).
        var plan: [String: StepRecord<Output>] = [:]
        /// Where the record of the plan's step n is in `plan`.
        var slots: [Dictionary<String, StepRecord<Output>>.Index] = []

        /// The record of `id`: the plan's, else one given before it.
        func record(_ id: String) -> StepRecord<Output>? {
            plan[id] ?? records[id]
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
            guard !storage.records.isEmpty else { return storage.plan }
            guard !storage.plan.isEmpty else { return storage.records }
            return storage.records.merging(storage.plan) { _, planned in planned }
        }
    }

    /// Sets the records of a plan's steps, so that the record of the plan's step `n` can then be
    /// written with `update(_:at: n)`: `positions` gives each id's place in the plan (the
    /// scheduler graph's table), `record(id, n)` the record of step n, whose id is `id`.
    ///
    /// The records are made in the table's own order, from its ids: made by position, each read
    /// a scheduler node in hash order, a cache miss for every step of a large plan (issue 32).
    func register(positions: [String: Int], record: (String, Int) -> StepRecord<Output>) {
        // `mapValues` keeps the buckets, so both tables list the ids in one order: each slot is
        // then filled where the walk of `positions` is (checked, and looked up where it would not be).
        let placeholder = StepRecord<Output>(id: "", state: .pending)
        var plan = positions.mapValues { _ in placeholder }
        var slots = [Dictionary<String, StepRecord<Output>>.Index](repeating: plan.startIndex, count: positions.count)
        var index = plan.startIndex
        for (id, position) in positions {
            let slot = plan.keys[index] == id ? index : plan.index(forKey: id)!
            slots[position] = slot
            plan.values[slot] = record(id, position)
            plan.formIndex(after: &index)
        }
        storage.withLock { storage in
            // A second plan (not made today) keeps the first one's records readable.
            storage.records.merge(storage.plan) { _, planned in planned }
            storage.plan = plan
            storage.slots = slots
        }
    }

    /// Writes the record of the plan's step `slot` (see `register`).
    func update(_ record: StepRecord<Output>, at slot: Int) {
        storage.withLock { storage in
            storage.plan.values[storage.slots[slot]] = record
        }
    }

    /// Changes the record of the plan's step `slot` in place (see `register`): only the fields
    /// `change` sets are written. Writing the whole record copied it into its slot of a
    /// 10,000-record table, its id retained and the old fields released (issue 32).
    func update(at slot: Int, _ change: (inout StepRecord<Output>) -> Void) {
        storage.withLock { storage in
            change(&storage.plan.values[storage.slots[slot]])
        }
    }
}
