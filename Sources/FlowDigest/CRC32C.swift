import CDigest
import Foundation

/// CRC-32C (Castagnoli), as Google Cloud Storage reports a stored object's `crc32c`: the
/// big-endian checksum in base64. Fed in pieces; the SSE4.2 `crc32` instruction where the CPU has
/// it (checked once at run time), slicing-by-8 tables otherwise (see `CDigest`).
package struct CRC32C: Sendable {
    private var crc: UInt32 = 0

    /// A checksum of nothing yet.
    package init() {}

    /// Adds `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        crc = flow_crc32c_update(crc, base, bytes.count)
    }

    /// The checksum of everything added.
    package var value: UInt32 { crc }

    /// The checksum as GCS writes it: its four bytes, most significant first, in base64.
    package var base64: String {
        let value = value
        return Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
            .base64EncodedString()
    }

    /// The checksum of `bytes` computed in software whatever the CPU, to compare with `update`.
    package static func softwareValue(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return flow_crc32c_software(0, base, bytes.count)
    }
}
