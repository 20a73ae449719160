import Foundation

/// A run's steps and transfers as they stand: its `step` and `transfer` rows (journals of format 1
/// kept one row each), then its `step_log` cells' changes in the order they were written.
///
/// The rules are the ones format 1's upserts had: a first attempt starts a step afresh (earlier
/// outputs are stale) and keeps the start of its first attempt; a finish sets everything and closes
/// an unsafe send; an unsafe send only marks the step; a transfer replaces its step's earlier one of
/// the same kind.
struct StepLogFold {
    private var steps: [StepLogKey: JournalStep] = [:]
    private var transfers: [TransferKey: JournalTransfer] = [:]

    private struct TransferKey: Hashable {
        var step: StepLogKey
        var kind: String
    }

    /// A step as a format-1 row had it.
    mutating func add(_ step: JournalStep) {
        steps[StepLogKey(step: step.step, item: step.item)] = step
    }

    /// A transfer as a format-1 row had it.
    mutating func add(_ transfer: JournalTransfer) {
        transfers[TransferKey(step: StepLogKey(step: transfer.step, item: transfer.item), kind: transfer.kind)] =
            transfer
    }

    /// Applies one `step_log` cell's changes in order.
    mutating func apply(_ cell: [UInt8]) throws(StepLogDamage) {
        var decoder = StepLogDecoder(cell)
        while let change = try decoder.next() {
            apply(change)
        }
    }

    private mutating func apply(_ change: StepLogDecoder.Change) {
        switch change {
        case .started(let key, let attempt, let at):
            let earlier = steps[key]?.startedAt
            steps[key] = JournalStep(
                step: key.step, item: key.item, state: .running, attempts: attempt,
                startedAt: attempt <= 1 || earlier == nil ? at : earlier, finishedAt: nil, outputs: .none,
                error: nil, unsafeInFlight: false)
        case .finished(
            let key, let state, let attempts, let startedAt, let finishedAt, let outputs, let error):
            steps[key] = JournalStep(
                step: key.step, item: key.item, state: state, attempts: attempts,
                startedAt: startedAt ?? steps[key]?.startedAt, finishedAt: finishedAt,
                outputs: outputs, error: error, unsafeInFlight: false)
        case .unsafeSend(let key, let at):
            if steps[key] != nil {
                steps[key]?.unsafeInFlight = true
            } else {
                steps[key] = JournalStep(
                    step: key.step, item: key.item, state: .running, attempts: 1, startedAt: at, finishedAt: nil,
                    outputs: .none, error: nil, unsafeInFlight: true)
            }
        case .transfer(let key, let kind, let target, let bytesConfirmed, let fileIdentity):
            transfers[TransferKey(step: key, kind: kind)] = JournalTransfer(
                step: key.step, item: key.item, kind: kind, target: target, bytesConfirmed: bytesConfirmed,
                fileIdentity: fileIdentity)
        }
    }

    /// The steps in the order they started (those never started last), then by id (its UTF-8
    /// bytes, as SQLite compares text) and item.
    var orderedSteps: [JournalStep] {
        steps.values.sorted { left, right in
            switch (left.startedAt, right.startedAt) {
            case (nil, .some): return false
            case (.some, nil): return true
            case (.some(let a), .some(let b)) where a != b: return a < b
            default: break
            }
            if left.step != right.step { return left.step.utf8.lexicographicallyPrecedes(right.step.utf8) }
            return (left.item ?? -1) < (right.item ?? -1)
        }
    }

    /// The transfers by step, item and kind.
    var orderedTransfers: [JournalTransfer] {
        transfers.values.sorted { left, right in
            if left.step != right.step { return left.step.utf8.lexicographicallyPrecedes(right.step.utf8) }
            if left.item != right.item { return (left.item ?? -1) < (right.item ?? -1) }
            return left.kind.utf8.lexicographicallyPrecedes(right.kind.utf8)
        }
    }

    /// How many steps, and apart from them how many `for-each` items, are in each state.
    var stateCounts: StateCounts {
        var counts = StateCounts()
        for (key, step) in steps {
            if key.item == nil {
                counts.steps[step.state.rawValue, default: 0] += 1
            } else {
                counts.items[step.state.rawValue, default: 0] += 1
            }
        }
        return counts
    }
}
