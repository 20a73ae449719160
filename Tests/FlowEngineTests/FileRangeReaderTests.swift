import Dispatch
import FlowHTTP
import FlowTasks
import Foundation
import Testing

@testable import FlowEngine

/// The upload's file reads (chunk checksums, S3 parts, digest catch-up): `pread` on threads of
/// their own into kept buffers, not DispatchIO's pieces allocated a read (issue 32, round nine).
@Suite struct FileRangeReaderTests {
    private let queue = DispatchQueue(label: "test.file-range-reader")

    /// A file of `count` varied bytes; its path and bytes.
    private func file(_ count: Int) throws -> (path: String, bytes: [UInt8]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-range-\(UUID())").path
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    @Test func aRangeIsHandedOverInOrderInPiecesOnAReadingThreadNotAWorker() async throws {
        let (path, bytes) = try file(2_500_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let seen = LockedBox<(bytes: [UInt8], offsets: [Int64], sizes: [Int], threads: Set<String>)>(([], [], [], []))
        try await FileRangeReader.read(path: path, offset: 100_001, length: 2_300_000, queue: queue) { at, piece in
            let name = Thread.current.name ?? ""
            seen.withLock { seen in
                seen.offsets.append(at)
                seen.sizes.append(piece.count)
                seen.bytes += piece
                seen.threads.insert(name)
            }
        }.value
        let got = seen.withLock { $0 }
        #expect(got.bytes == Array(bytes[100_001..<2_400_001]))
        #expect(got.sizes.allSatisfy { $0 <= 1 << 20 } && got.sizes.count == 3, "\(got.sizes)")
        #expect(got.offsets == [100_001, 100_001 + (1 << 20), 100_001 + (2 << 20)])
        // A thread of the reader's own: a Dispatch worker (DispatchIO's or the queue's) must not wait on the disk.
        #expect(got.threads == [FileReaderThreads.threadName], "\(got.threads)")
    }

    @Test func aRangeGivenABufferIsReadIntoItWithoutACopy() async throws {
        let (path, bytes) = try file(3_000_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let buffer = ReusableBytes(capacity: 2_000_000)
        let start = Int(bitPattern: buffer.mutableBytes.baseAddress!)
        let pieces = LockedBox<[Int]>([])
        try await FileRangeReader.read(path: path, offset: 500_000, length: 2_000_000, into: buffer, queue: queue) {
            at, piece in
            // Each piece is the buffer's own memory at its place in the range.
            pieces.withLock { $0.append(Int(bitPattern: piece.baseAddress!) - start - Int(at - 500_000)) }
        }.value
        #expect(Array(buffer.bytes(count: 2_000_000)) == Array(bytes[500_000..<2_500_000]))
        #expect(pieces.withLock { $0 } == [0, 0])
    }

    @Test func aFileShorterThanTheRangeFailsNamingIt() async throws {
        let (path, _) = try file(1_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try await FileRangeReader.read(path: path, offset: 0, length: 2_000, queue: queue) { _, _ in }.value
            Issue.record("a short file was read")
        } catch {
            let message = (error as? UploadFileError)?.message ?? "\(error)"
            #expect(message == "'\(path)' became shorter while it was being uploaded", "\(error)")
        }
        do {
            try await FileRangeReader.read(path: path + ".gone", offset: 0, length: 1, queue: queue) { _, _ in }.value
            Issue.record("a missing file was read")
        } catch {
            let message = (error as? UploadFileError)?.message ?? "\(error)"
            #expect(message == "cannot read '\(path).gone': No such file or directory", "\(error)")
        }
    }

    @Test func aCancelledReadStopsAfterThePieceInHand() async throws {
        let (path, _) = try file(8 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pieces = LockedBox(0)
        let handed = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let read = FileRangeReader.read(path: path, offset: 0, length: 8 << 20, queue: queue) { _, _ in
            // Holds the reading thread inside the first piece until the read is cancelled.
            if pieces.withLock({ count in
                count += 1
                return count == 1
            }) {
                handed.signal()
                go.wait()
            }
        }
        handed.wait()
        read.cancel()
        go.signal()
        await #expect(throws: (any Error).self) { try await read.value }
        // Give the thread the time to read on, were it to ignore the cancel.
        try await Task.sleep(for: .milliseconds(100))
        #expect(pieces.withLock { $0 } == 1)
    }

    @Test func readsOfSeveralUploadsGoOnAtOnceUpToTheLimit() async throws {
        let (path, _) = try file(1_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Two reads each hold their thread until both are inside: with one thread they never would.
        let inside = LockedBox(0)
        let both = DispatchSemaphore(value: 0)
        let waitedAlone = LockedBox(false)
        let reads = (0..<2).map { _ in
            FileRangeReader.read(path: path, offset: 0, length: 1_000, queue: queue) { _, _ in
                if inside.withLock({ count in
                    count += 1
                    return count == 2
                }) {
                    both.signal()
                    both.signal()
                }
                if both.wait(timeout: .now() + 10) == .timedOut { waitedAlone.withLock { $0 = true } }
            }
        }
        for read in reads { try await read.value }
        #expect(inside.withLock { $0 } == 2)
        #expect(!waitedAlone.withLock { $0 }, "one read waited for the other to start")
    }
}

/// The reading threads' name, which tests and `top -H` rely on, when a thread outruns its own
/// start: Foundation's `Thread.name`, set from inside the new thread, did nothing until `start`
/// had stored the thread's handle, and the thread kept its creator's name ("oot.default-qos", a
/// Dispatch worker's), which failed `TrailingFileDigestTests` now and then under the sanitizer.
/// The window is the creator's few instructions after `clone`, so this test, which starts many
/// threads, catches that race only sometimes; it holds every time once names are set for the system.
@Suite struct FileReaderThreadNameTests {
    @Test func everyNewReadingThreadIsNamedEvenWhenStartedFromADispatchWorker() async throws {
        let names = LockedBox<[String]>([])
        let pools = 24
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<pools {
                group.addTask {
                    // A pool of its own, so each submit starts a new thread, from a Dispatch worker.
                    let pool = FileReaderThreads(limit: 1)
                    let queue = DispatchQueue(label: "test.reader-names")
                    let promise = Promise<Void>(on: queue)
                    queue.async {
                        pool.submit { _ in
                            let name = Thread.current.name ?? ""
                            names.withLock { $0.append(name) }
                            promise.succeed(())
                        }
                    }
                    try await promise.future.value
                }
            }
            try await group.waitForAll()
        }
        let seen = names.withLock { $0 }
        #expect(seen.count == pools)
        #expect(Set(seen) == [FileReaderThreads.threadName], "\(seen)")
    }
}
