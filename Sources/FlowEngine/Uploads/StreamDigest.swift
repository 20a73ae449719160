import FlowDigest
import FlowTasks
import Foundation

/// The sha256 (and, for Google Cloud Storage, the md5 and crc32c it reports as `md5Hash` and
/// `crc32c`) of a file computed from the pieces an upload reads to send, so the file is read once.
///
/// md5 and crc32c are kept only when asked for (`gcsDigests`: the upload goes to GCS, the one
/// server known to report them); for any other server they would cost a third of the upload's
/// CPU to compare with nothing. Should another server report them anyway, the session hashes the
/// file again for them (`GCSDigests.compute`).
///
/// Pieces arrive in file order, but a resumed upload reads some bytes again (from the server's
/// offset): only bytes past what was already hashed are added. Fed on the HTTP client's transfer
/// thread, read on the upload's queue; the lock makes that safe.
final class StreamDigest: Sendable {
    private struct State {
        var hasher = SHA256()
        var md5: Insecure.MD5?
        var crc32c: CRC32C?
        var hashedUpTo: Int64 = 0
    }

    private let state: LockedBox<State>
    /// Whether md5 and crc32c are computed too.
    let gcsDigests: Bool

    /// A digest of nothing yet; `gcsDigests` adds GCS's md5 and crc32c to the sha256.
    init(gcsDigests: Bool = true) {
        self.gcsDigests = gcsDigests
        state = LockedBox(State(md5: gcsDigests ? Insecure.MD5() : nil, crc32c: gcsDigests ? CRC32C() : nil))
    }

    /// How many bytes from the start have been hashed.
    var hashedBytes: Int64 { state.withLock { $0.hashedUpTo } }

    /// Adds the part of `bytes` (which start at file offset `offset`) not hashed yet.
    func feed(offset: Int64, _ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            let end = offset + Int64(bytes.count)
            // A gap cannot happen (uploads read in order from a server offset ≤ bytes read); skip
            // rather than hash out of order if it ever did, which `finalHex` then reports.
            guard offset <= state.hashedUpTo, end > state.hashedUpTo else { return }
            let skip = Int(state.hashedUpTo - offset)
            let fresh = UnsafeRawBufferPointer(rebasing: bytes[skip...])
            state.hasher.update(bufferPointer: fresh)
            state.md5?.update(bufferPointer: fresh)
            state.crc32c?.update(fresh)
            state.hashedUpTo = end
        }
    }

    /// The hex digest, when exactly `size` bytes were hashed; nil otherwise.
    func finalHex(size: Int64) -> String? {
        state.withLock { state in
            guard state.hashedUpTo == size else { return nil }
            return Hex.encode(state.hasher.finalize())
        }
    }

    /// The md5 digest in base64 (as GCS's `md5Hash`), when exactly `size` bytes were hashed and
    /// md5 was kept.
    func finalMD5Base64(size: Int64) -> String? {
        state.withLock { state in
            guard state.hashedUpTo == size, let md5 = state.md5 else { return nil }
            return Data(md5.finalize()).base64EncodedString()
        }
    }
}

extension StreamDigest {
    /// The crc32c in base64 (as GCS's `crc32c`), when exactly `size` bytes were hashed and crc32c
    /// was kept.
    func finalCRC32CBase64(size: Int64) -> String? {
        state.withLock { state in state.hashedUpTo == size ? state.crc32c?.base64 : nil }
    }
}

/// Lower-case hexadecimal text of bytes.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
