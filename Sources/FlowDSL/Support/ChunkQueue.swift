#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Positions `0..<count` cut into chunks that threads take in turn, each chunk once, in order.
///
/// `@unchecked Sendable`: `taken` is touched only while `mutex` is held.
final class ChunkQueue: @unchecked Sendable {
    /// How many chunks there are.
    let total: Int
    private let count: Int
    private let size: Int
    private var taken = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(count: Int, size: Int) {
        self.count = count
        self.size = size
        total = (count + size - 1) / size
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The next chunk's number and positions; nil when every chunk is taken.
    func next() -> (Int, Range<Int>)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard taken < total else { return nil }
        let number = taken
        taken += 1
        return (number, number * size..<min(count, (number + 1) * size))
    }
}
