import Dispatch
import FlowDigest
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@testable import FlowEngine

/// A `save-to` download's trailing hash (`TrailingFileDigest`) when its file changes under it.
@Suite struct TrailingFileDigestTests {
    /// The file is cut short after the writer said what it wrote (another process writing the
    /// same `save-to` path): the read-back used to find the same end again and again until the
    /// stack overflowed and flow crashed (seen in the Argo harness's https example). Now the
    /// hash is lost, `caughtUp` completes, and `finalHex` says it is unknown rather than guess.
    @Test func aFileCutShortUnderTheDigestLosesTheHashInsteadOfReadingForever() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/blob.bin"
        let size = 3 << 20
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: path))
        let digest = TrailingFileDigest(path: path)
        // Said as written, then cut to a third before the read-back caught up.
        digest.wrote(offset: 0, count: size / 3)
        truncate(path, off_t(size / 3 - 1000))
        digest.wrote(offset: Int64(size / 3), count: size - size / 3)
        let queue = DispatchQueue(label: "test")
        try await digest.caughtUp(on: queue).value
        #expect(digest.finalHex(size: Int64(size)) == nil)

        // Hashing the file again from what it now holds gives its true hash.
        let now = Int64(size / 3 - 1000)
        digest.restart(from: now)
        try await digest.caughtUp(on: queue).value
        let expected = Hex.encode(SHA256.hash(data: Data(repeating: 7, count: Int(now))))
        #expect(digest.finalHex(size: now) == expected)
    }

    /// The file removed under the digest: the same, without a crash.
    @Test func aFileRemovedUnderTheDigestLosesTheHash() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/gone.bin"
        try Data(repeating: 1, count: 2 << 20).write(to: URL(fileURLWithPath: path))
        let digest = TrailingFileDigest(path: path)
        try FileManager.default.removeItem(atPath: path)
        digest.wrote(offset: 0, count: 2 << 20)
        try await digest.caughtUp(on: DispatchQueue(label: "test")).value
        #expect(digest.finalHex(size: 2 << 20) == nil)
    }

    /// A resumed download hashes the partial file an earlier attempt left, which may no longer be
    /// in the page cache: those reads run on `FileReaderThreads`, not on a Dispatch worker that
    /// would wait on the disk (they ran on the digest's own queue before), and the hash is the
    /// file's.
    @Test func aRestartReadsTheFileOnAReadingThreadNotADispatchWorker() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/partial.bin"
        let size = (2 << 20) + 12_345
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let threads = LockedBox<(names: Set<String>, hashed: Int)>(([], 0))
        let digest = TrailingFileDigest(path: path) { _, count in
            let name = Thread.current.name ?? ""
            threads.withLock { seen in
                seen.names.insert(name)
                seen.hashed += count
            }
        }
        digest.restart(from: Int64(size))
        try await digest.caughtUp(on: DispatchQueue(label: "test")).value
        let seen = threads.withLock { $0 }
        #expect(seen.names == [FileReaderThreads.threadName], "\(seen.names)")
        #expect(seen.hashed == size)
        #expect(digest.finalHex(size: Int64(size)) == Hex.encode(SHA256.hash(data: bytes)))
    }
}
