import Synchronization

/// A value behind a lock, shared by reference: the command line's own small shared states (a
/// printer's timers, the signals seen). The engine's lock is not part of FlowKit's API.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, alone.
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in body(&value) }
    }
}
