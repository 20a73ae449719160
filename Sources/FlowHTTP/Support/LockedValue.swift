import Foundation

/// A value shared between threads, every access under one lock.
///
/// Not `Synchronization.Mutex`: on Linux its contended path waits on a priority-inheritance
/// futex inside the (uninstrumented) standard library, so ThreadSanitizer never sees the lock
/// being taken and reports the loop thread and request threads as racing. `NSLock` is a
/// pthread mutex, which the sanitizer understands.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only read or written inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
