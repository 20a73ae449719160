import CDigest
import Foundation

// sha256, sha1 and md5 over the system's libcrypto, with the small part of swift-crypto's
// surface flow uses (`SHA256()`, `update(bufferPointer:)`, `finalize()`, `hash(data:)`,
// `Insecure.SHA1`, `Insecure.MD5`). swift-crypto compiled its own copy of BoringSSL (about 340
// C files) into every build, the thread-sanitized one too: a third of `make test`'s build time
// for three hash functions libcurl's OpenSSL already has (see "Dependencies" in README.md).

/// The bytes of a finished hash.
package struct HashDigest: RandomAccessCollection, Sendable, Hashable {
    /// The digest's bytes.
    package let bytes: [UInt8]

    /// Index of the first byte.
    package var startIndex: Int { bytes.startIndex }
    /// Index past the last byte.
    package var endIndex: Int { bytes.endIndex }
    /// The byte at `position`.
    package subscript(position: Int) -> UInt8 { bytes[position] }

    /// The digest in lowercase hex.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A hash function fed in pieces; a copy carries the state so far.
package protocol IncrementalHash: Sendable {
    /// A new hash of nothing yet.
    init()
    /// Adds `bytes` to what is hashed.
    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer)
    /// The digest of everything added (the value itself is left as it was).
    func finalize() -> HashDigest
}

extension IncrementalHash {
    /// Adds `data` to what is hashed.
    package mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> HashDigest {
        var hash = Self()
        hash.update(data: data)
        return hash.finalize()
    }
}

/// SHA-256.
package struct SHA256: IncrementalHash, @unchecked Sendable {
    // A plain C struct, copied with the value; `@unchecked`: it holds no pointers.
    private var context = SHA256_CTX()

    /// A new hash.
    package init() { flow_sha256_init(&context) }

    /// Adds `bytes`.
    package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        flow_sha256_update(&context, base, bytes.count)
    }

    /// The digest so far.
    package func finalize() -> HashDigest {
        var copy = context
        var digest = [UInt8](repeating: 0, count: 32)
        flow_sha256_final(&copy, &digest)
        return HashDigest(bytes: digest)
    }
}

/// Hashes kept for protocols that name them (tus' sha1 checksum, GCS's md5), not for security.
package enum Insecure {
    /// SHA-1.
    package struct SHA1: IncrementalHash, @unchecked Sendable {
        private var context = SHA_CTX()

        /// A new hash.
        package init() { flow_sha1_init(&context) }

        /// Adds `bytes`.
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            flow_sha1_update(&context, base, bytes.count)
        }

        /// The digest so far.
        package func finalize() -> HashDigest {
            var copy = context
            var digest = [UInt8](repeating: 0, count: 20)
            flow_sha1_final(&copy, &digest)
            return HashDigest(bytes: digest)
        }
    }

    /// MD5.
    package struct MD5: IncrementalHash, @unchecked Sendable {
        private var context = MD5_CTX()

        /// A new hash.
        package init() { flow_md5_init(&context) }

        /// Adds `bytes`.
        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            flow_md5_update(&context, base, bytes.count)
        }

        /// The digest so far.
        package func finalize() -> HashDigest {
            var copy = context
            var digest = [UInt8](repeating: 0, count: 16)
            flow_md5_final(&copy, &digest)
            return HashDigest(bytes: digest)
        }
    }
}
