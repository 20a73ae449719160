import Dispatch

/// The errors FlowTasks itself produces, distinguishable from the errors of the work.
package enum FutureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `cancel()` was called before the work finished.
    case cancelled
    /// `timeout(after:)` fired before the work finished; the work was cancelled.
    case timedOut(after: Duration)
    /// The promise was released without ever being completed (a bug in the producer).
    case abandoned(file: String, line: Int)

    /// A one-line explanation for messages.
    package var description: String {
        switch self {
        case .cancelled:
            return "cancelled"
        case .timedOut(let duration):
            return "timed out after \(DurationFormat.text(duration))"
        case .abandoned(let file, let line):
            return "the promise made at \(file):\(line) was released without being completed"
        }
    }
}

/// One input's error inside a combined failure, with the input's position.
package struct IndexedError: Error, Sendable, CustomStringConvertible {
    /// The position of the failed future in the combinator's input.
    package let index: Int
    /// What that future failed with.
    package let error: any Error

    /// A one-line explanation for messages.
    /// A one-line explanation for messages.
    package var description: String { "#\(index): \(error)" }
}

/// `any` or `atLeast(k)` could no longer reach the successes it needed.
///
/// For `any` this means every input failed; `errors` then holds every input's error, in input order.
package struct QuorumError: Error, Sendable, CustomStringConvertible {
    /// How many successes were required.
    package let required: Int
    /// How many inputs succeeded before the quorum became impossible.
    package let succeeded: Int
    /// The failures that made the quorum impossible, in input order.
    package let errors: [IndexedError]

    /// A one-line explanation for messages.
    package var description: String {
        let list = errors.map(\.description).joined(separator: "; ")
        return "needed \(required) success(es), got \(succeeded)" + (list.isEmpty ? "" : ": \(list)")
    }
}

extension Duration {
    /// The span in seconds as a floating-point number.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The same span as a Dispatch interval, rounded to nanoseconds and clamped at zero.
    package var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if nanos.overflow { return .never }
        let total = nanos.partialValue + attoseconds / 1_000_000_000
        return .nanoseconds(Int(clamping: max(0, total)))
    }
}
