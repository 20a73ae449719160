import FlowTasks

/// The records of a run's steps, readable from any thread while the run goes on.
///
/// The scheduler's queue is the only writer; runners and renderers read. A mutex makes a record
/// written on the queue visible, whole, to a reader on another thread.
public final class RunRecords<Output: Sendable>: Sendable {
    /// Records in slots, found by id through `slots`; the scheduler writes a step's slot directly
    /// (its position in the plan), without hashing the id on every change.
    private struct Storage {
        var slots: [String: Int] = [:]
        var records: [StepRecord<Output>] = []

        mutating func set(_ record: StepRecord<Output>, id: String) {
            if let slot = slots[id] {
                records[slot] = record
            } else {
                slots[id] = records.count
                records.append(record)
            }
        }
    }

    private let storage: LockedBox<Storage>

    /// Records for a run about to be scheduled (the scheduler adds every step).
    public init(_ initial: [String: StepRecord<Output>] = [:]) {
        var storage = Storage()
        for (id, record) in initial { storage.set(record, id: id) }
        self.storage = LockedBox(storage)
    }

    /// The record of step `id`, or nil for an unknown id.
    public subscript(id: String) -> StepRecord<Output>? {
        storage.withLock { storage in storage.slots[id].map { storage.records[$0] } }
    }

    /// Every record, by id.
    public var all: [String: StepRecord<Output>] {
        storage.withLock { storage in storage.slots.mapValues { storage.records[$0] } }
    }

    /// Sets the records of a plan's steps, in order, so that the record of the plan's step `n` can
    /// then be written with `update(_:at: n)`.
    func register(_ plan: [StepRecord<Output>]) {
        storage.withLock { storage in
            if storage.records.isEmpty {
                storage.records = plan
                storage.slots.reserveCapacity(plan.count)
                for (slot, record) in plan.enumerated() { storage.slots[record.id] = slot }
                return
            }
            // Records given beforehand keep their slots; a plan's step must land in slot n.
            var slots: [String: Int] = [:]
            var records = plan
            for (slot, record) in plan.enumerated() { slots[record.id] = slot }
            for (id, slot) in storage.slots where slots[id] == nil {
                slots[id] = records.count
                records.append(storage.records[slot])
            }
            storage = Storage(slots: slots, records: records)
        }
    }

    /// Writes the record of the plan's step `slot` (see `register`).
    func update(_ record: StepRecord<Output>, at slot: Int) {
        storage.withLock { $0.records[slot] = record }
    }
}
