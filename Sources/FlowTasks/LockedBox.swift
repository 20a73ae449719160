import Foundation

/// A value shared between threads behind a lock: every read and write goes through `withLock`.
///
/// Why not Swift's `Synchronization.Mutex`: on Linux it is built on futexes that ThreadSanitizer
/// cannot see, so every access it guards is reported as a data race (checked with a two-thread
/// counter: correct total, TSan warnings, exit 66). A pthread mutex is intercepted by TSan, so the
/// thread-sanitizer run of the tests stays meaningful.
///
/// `@unchecked Sendable`: `value` is only touched while `mutex` is held.
///
/// A lock with nothing to guard still holds a value of some size (`LockedBox(0)`), never `()`:
/// ThreadSanitizer puts an empty value's accesses at the box's own address and reports them,
/// under contention, as racing with another thread's unlocked read of the box's header (a
/// false report; a two-thread counter shows it every time with `()` and never with an `Int`).
package final class LockedBox<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A box holding `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body(&valueStorage)
    }

    @usableFromInline
    var valueStorage: Value {
        get { value }
        _modify { yield &value }
    }

    @usableFromInline
    func lock() { pthread_mutex_lock(mutex) }

    @usableFromInline
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// A lock without a value, for a class that guards several of its own fields (FutureCore).
/// Not generic, so using it costs no run-time generic-metadata lookup.
final class PlainLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock(_ body: () -> Void) {
        pthread_mutex_lock(mutex)
        body()
        pthread_mutex_unlock(mutex)
    }
}
