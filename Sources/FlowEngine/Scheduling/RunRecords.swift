import Synchronization

/// The records of a run's steps, readable from any thread while the run goes on.
///
/// The scheduler's queue is the only writer; runners and renderers read. A mutex makes a record
/// written on the queue visible, whole, to a reader on another thread.
public final class RunRecords<Output: Sendable>: Sendable {
    private let records: Mutex<[String: StepRecord<Output>]>

    init(_ initial: [String: StepRecord<Output>]) {
        records = Mutex(initial)
    }

    /// The record of step `id`, or nil for an unknown id.
    public subscript(id: String) -> StepRecord<Output>? {
        records.withLock { $0[id] }
    }

    /// Every record, by id.
    public var all: [String: StepRecord<Output>] {
        records.withLock { $0 }
    }

    func update(_ record: StepRecord<Output>) {
        records.withLock { $0[record.id] = record }
    }
}
