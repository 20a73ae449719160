import FlowDigest
import Foundation
internal import NIOConcurrencyHelpers
internal import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// One upload: a file in the storage folder, its offset, and the SHA-256 of what it holds so far.
///
/// The hasher state is kept between chunks, so the final digest never re-reads the file.
final class Upload: Sendable {
    /// The two protocols; the raw value is the path segment (`/uploads/cr`, `/uploads/tus`).
    enum Kind: String, Sendable {
        case contentRange = "cr"
        case tus
    }

    /// What `/info`, HEAD and the status query report.
    struct Snapshot: Sendable {
        var offset: Int
        var length: Int
        var sha256: String
        var metadata: String?
        var complete: Bool { offset == length }
    }

    let kind: Kind
    let id: String
    let length: Int
    let metadata: String?

    /// `@unchecked Sendable` for swift-crypto's digest state, which is not marked Sendable: a
    /// `State` lives only inside `state` and is read and written only under its lock.
    private struct State: @unchecked Sendable {
        var offset = 0
        /// The digest state of the stored bytes.
        var sha256 = SHA256()
        /// The digest state including the chunk being written; adopted when the chunk is kept.
        var pending = SHA256()
        var busy = false
        var removed = false
        var dropAt: Int?
        var dropArmed = false
        /// `?drop-every=N`: every N-th chunk is dropped halfway, for as long as the upload lasts.
        var dropEvery: Int?
        var dropsCountedFrom = 0
        var chunks = 0
        var paceMilliseconds = 0
    }

    private let state: NIOLockedValueBox<State>
    private let descriptor: Int32

    /// Creates the upload's file, empty; throws when the file cannot be created.
    init(kind: Kind, id: String, length: Int, metadata: String?, dropAt: Int?, path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw UploadFileError(operation: "create \(path)", code: errno) }
        self.descriptor = descriptor
        self.kind = kind
        self.id = id
        self.length = length
        self.metadata = metadata
        self.state = NIOLockedValueBox(State(dropAt: dropAt, dropArmed: dropAt != nil))
    }

    deinit {
        close(descriptor)
    }

    /// The state as clients may see it.
    func snapshot() -> Snapshot {
        state.withLockedValue { state in
            Snapshot(
                offset: state.offset, length: length, sha256: state.sha256.finalize().hexString, metadata: metadata)
        }
    }

    /// Arms `?drop-at=N` (counted from the next chunk) unless this upload was armed before: it drops once.
    func armDrop(at chunk: Int?) {
        guard let chunk, chunk > 0 else { return }
        state.withLockedValue { state in
            guard !state.dropArmed else { return }
            state.dropArmed = true
            state.dropAt = state.chunks + chunk
        }
    }

    /// Arms `?drop-every=N` (N ≥ 2, counted from the next chunk; the first one given wins): every
    /// N-th chunk is cut halfway, so a client must resume many times within one upload.
    func armDrops(every interval: Int?) {
        guard let interval, interval >= 2 else { return }
        state.withLockedValue { state in
            guard state.dropEvery == nil else { return }
            state.dropEvery = interval
            state.dropsCountedFrom = state.chunks
        }
    }

    /// Sets `?pace-ms=N` (the last one given wins): every later chunk is answered N ms after it
    /// arrived, so a demo's progress bar is visible on loopback.
    func setPace(milliseconds: Int?) {
        guard let milliseconds, (0...10_000).contains(milliseconds) else { return }
        state.withLockedValue { $0.paceMilliseconds = milliseconds }
    }

    /// The wait `?pace-ms` asked for before answering a chunk.
    var pace: Duration { .milliseconds(state.withLockedValue { $0.paceMilliseconds }) }

    /// Reserves the upload for one chunk that must start at `offset`.
    func beginChunk(at offset: Int) -> Result<ChunkWriter, ChunkRefusal> {
        state.withLockedValue { state in
            if state.removed { return .failure(.gone) }
            if state.busy { return .failure(.busy(offset: state.offset)) }
            guard offset == state.offset else { return .failure(.offsetMismatch(offset: state.offset)) }
            state.busy = true
            state.pending = state.sha256
            state.chunks += 1
            var drop = state.dropAt == state.chunks
            if drop { state.dropAt = nil }
            if let every = state.dropEvery, (state.chunks - state.dropsCountedFrom) % every == 0 { drop = true }
            return .success(ChunkWriter(upload: self, descriptor: descriptor, start: state.offset, dropsHalfway: drop))
        }
    }

    /// Ends a chunk: keeps what `writer` wrote, or, when `keep` is false, cuts the file back.
    func endChunk(_ writer: ChunkWriter, keep: Bool) {
        state.withLockedValue { state in
            state.busy = false
            if keep {
                state.offset = writer.start + writer.written
                state.sha256 = state.pending
            } else {
                _ = ftruncate(descriptor, off_t(state.offset))
            }
        }
    }

    /// Adds bytes of the chunk being written to the pending digest.
    func absorb(_ buffer: ByteBuffer) {
        state.withLockedValue { state in
            buffer.withUnsafeReadableBytes { state.pending.update(bufferPointer: $0) }
        }
    }

    /// Marks the upload terminated; later requests see it as unknown.
    func remove() {
        state.withLockedValue { $0.removed = true }
    }
}

/// Why a chunk was not even started.
enum ChunkRefusal: Error, Equatable {
    case gone
    case busy(offset: Int)
    case offsetMismatch(offset: Int)
}

/// A failed file operation and why it failed.
struct UploadFileError: Error, CustomStringConvertible {
    var description: String

    init(operation: String, code: Int32) {
        self.init(operation: operation, reason: String(cString: strerror(code)))
    }

    init(operation: String, reason: String) {
        description = "cannot \(operation): \(reason)"
    }
}
