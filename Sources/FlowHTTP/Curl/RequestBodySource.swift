#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Feeds a request body to curl piece by piece, and rewinds when curl must send it again (a
/// redirect keeping the method, or a retry on a fresh connection after a kept-alive one died).
///
/// A file range is read with `pread` straight into curl's buffer, so memory stays flat whatever
/// the file's size.
///
/// The observer of a `.reused` body (an upload's chunk, whose memory stays put until the request
/// completes) sees its bytes after curl has sent them, when the loop calls `observeSent`: the
/// observer's work (an upload hashing what it sends) then overlaps the server's reading of them,
/// rather than holding the bytes back before they go out.
final class RequestBodySource {
    private enum Storage {
        case bytes([UInt8])
        case reused(ReusableBytes)
        case file(descriptor: Int32, offset: Int64)
    }

    private let storage: Storage
    private let observer: HTTPRequest.BodyObserver?
    let length: Int64
    private var position: Int64 = 0
    /// Where the observer's view of a `.reused` body ends (see `observeSent`).
    private var observedUpTo: Int64 = 0
    /// Why reading stopped early, when it did.
    private(set) var failure: String?

    /// Opens the body; throws a message when its file is missing, unreadable or too short.
    init(_ body: HTTPBody, observer: HTTPRequest.BodyObserver? = nil) throws(BodyError) {
        self.observer = observer
        switch body {
        case .empty, .multipart:
            // A multipart body is fed by libcurl's MIME API (see `Transfer+Multipart.swift`).
            storage = .bytes([])
            length = 0
        case .bytes(let bytes):
            storage = .bytes(bytes)
            length = Int64(bytes.count)
        case .reused(let bytes, let count):
            storage = .reused(bytes)
            length = Int64(min(count, bytes.capacity))
        case .file(let path, let offset, let length):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw BodyError(message: "cannot open the body file '\(path)': \(Self.systemError())")
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let message = "cannot read the body file '\(path)': \(Self.systemError())"
                close(descriptor)
                throw BodyError(message: message)
            }
            guard Int64(info.st_size) >= offset + length else {
                close(descriptor)
                throw BodyError(
                    message:
                        "the body file '\(path)' has \(info.st_size) bytes, fewer than offset \(offset) + length \(length)"
                )
            }
            storage = .file(descriptor: descriptor, offset: offset)
            self.length = length
        }
    }

    deinit {
        if case .file(let descriptor, _) = storage { close(descriptor) }
    }

    /// Copies up to `capacity` next bytes into `buffer`; returns how many, 0 at the end, or
    /// `nil` when the file could not be read (see `failure`).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        let wanted = Int(min(Int64(capacity), length - position))
        guard wanted > 0 else { return 0 }
        switch storage {
        case .bytes(let bytes):
            bytes.withUnsafeBytes { source in copy(source, into: buffer, count: wanted) }
            return wanted
        case .reused(let bytes):
            buffer.copyMemory(from: bytes.bytes(count: Int(length)).baseAddress! + Int(position), byteCount: wanted)
            position += Int64(wanted)
            return wanted
        case .file(let descriptor, let offset):
            var got = 0
            while true {
                got = pread(descriptor, buffer, wanted, off_t(offset + position))
                if got >= 0 || errno != EINTR { break }
            }
            guard got > 0 else {
                failure =
                    got == 0
                    ? "the body file became shorter while it was being sent"
                    : "reading the body file failed: \(Self.systemError())"
                return nil
            }
            observer?(offset + position, UnsafeRawBufferPointer(start: buffer, count: got))
            position += Int64(got)
            return got
        }
    }

    /// Copies `count` bytes of `source` from the current position into curl's `buffer`.
    private func copy(_ source: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer, count: Int) {
        buffer.copyMemory(from: source.baseAddress! + Int(position), byteCount: count)
        observer?(position, UnsafeRawBufferPointer(start: buffer, count: count))
        position += Int64(count)
    }

    /// Pending bytes of a `.reused` body shown to the observer before the whole body was handed
    /// over (see `observeSent`).
    static let observeBatch: Int64 = 1 << 20

    /// Shows the observer the bytes of a `.reused` body handed to curl since the last call, from
    /// the body's own memory. The loop calls it after `curl_multi_perform` has sent them, and
    /// before it completes the request (the memory may be refilled after that). Only once the
    /// whole body was handed over (or `observeBatch` bytes wait): curl sends a body a piece per
    /// `curl_multi_perform` (64 KiB), and an observer's work (hashing) between two pieces would
    /// hold the rest of the body back, where after the last piece it overlaps the server's work.
    /// `all` shows what waits whatever its size (a rewind, the transfer's end).
    func observeSent(all: Bool = false) {
        guard case .reused(let bytes) = storage, let observer, observedUpTo < position else { return }
        guard all || position == length || position - observedUpTo >= Self.observeBatch else { return }
        let sent = bytes.bytes(count: Int(length))
        observer(observedUpTo, UnsafeRawBufferPointer(rebasing: sent[Int(observedUpTo)..<Int(position)]))
        observedUpTo = position
    }

    /// Moves to `offset` from the start; false when that is outside the body.
    func rewind(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= length else { return false }
        observeSent(all: true)
        position = offset
        observedUpTo = min(observedUpTo, offset)
        return true
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

/// Why a request body cannot be sent.
struct BodyError: Error {
    var message: String
}
