import Foundation

/// CRC-32C (Castagnoli), as Google Cloud Storage reports a stored object's `crc32c`: the
/// big-endian checksum in base64. Table-driven, fed in pieces.
struct CRC32C: Sendable {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    private var crc: UInt32 = 0xFFFF_FFFF

    /// Adds `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = self.crc
        for byte in bytes {
            crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        self.crc = crc
    }

    /// The checksum of everything added.
    var value: UInt32 { crc ^ 0xFFFF_FFFF }

    /// The checksum as GCS writes it: its four bytes, most significant first, in base64.
    var base64: String {
        let value = value
        return Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
            .base64EncodedString()
    }
}
