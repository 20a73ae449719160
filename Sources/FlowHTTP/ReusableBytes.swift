/// Memory a caller fills again for each of a series of request bodies (an upload's chunks), so
/// that sending a large file in chunks allocates one chunk's worth once instead of once a chunk:
/// memory freed and allocated again in chunk sizes, from the threads that happen to run, is kept
/// by the allocator's arenas and grows with the file.
///
/// The rule that makes it safe to share: the caller changes the bytes only while no request that
/// sends them is in flight (before it starts, or after its future completed: the HTTP client reads
/// a body on its own thread, and stops for good before it completes the request's future).
package final class ReusableBytes: @unchecked Sendable, Equatable {
    /// How many bytes it holds.
    package let capacity: Int
    private let memory: UnsafeMutableRawBufferPointer

    /// `capacity` bytes, uninitialized until written.
    package init(capacity: Int) {
        self.capacity = capacity
        memory = .allocate(byteCount: max(capacity, 1), alignment: 16)
    }

    deinit {
        memory.deallocate()
    }

    /// The memory, to fill (see the rule in the type's comment).
    package var mutableBytes: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: memory[0..<capacity])
    }

    /// The first `count` bytes.
    package func bytes(count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: memory[0..<min(count, capacity)])
    }

    /// The same memory.
    package static func == (left: ReusableBytes, right: ReusableBytes) -> Bool {
        left === right
    }
}
