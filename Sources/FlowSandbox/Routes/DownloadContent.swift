import FlowDigest

/// The bytes `/downloads/{n}` serves: deterministic, not UTF-8 text (bytes 0x80 to 0xFF appear
/// from offset 128 on), and computable at any offset so a range needs no stored file.
///
/// A 64 KiB table (`j ^ j >> 8`) read from a different starting point in each 64 KiB segment
/// (offset `i` reads entry `(i + i >> 16) mod 65536`), so any range is at most a few copies of
/// table slices: fast even in a debug build, and no two segments alike.
package enum DownloadContent {
    private static let table: [UInt8] = (0..<65536).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 8)) }

    /// The byte at `offset`.
    package static func byte(at offset: Int) -> UInt8 {
        table[(offset + (offset >> 16)) & 0xFFFF]
    }

    /// Hands the bytes of `range` to `body` in contiguous pieces, in order.
    package static func forEachPiece(of range: Range<Int>, _ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let segmentEnd = (offset | 0xFFFF) + 1
            let start = (offset + (offset >> 16)) & 0xFFFF
            let count = min(range.upperBound, segmentEnd) - offset
            let piece = min(count, 65536 - start)
            try body(table[start..<(start + piece)])
            offset += piece
        }
    }

    /// The bytes in `range`.
    package static func bytes(_ range: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        forEachPiece(of: range) { out.append(contentsOf: $0) }
        return out
    }

    /// The sha256 (lower-case hex) of the first `count` bytes, as a finished download must have.
    package static func sha256(count: Int) -> String {
        var hasher = SHA256()
        forEachPiece(of: 0..<count) { piece in piece.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        return hasher.finalize().map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
    }
}

/// A gzip stream of `count` copies of one byte, built by hand (one fixed-Huffman deflate block of
/// length-258 back-references, about 1.6 bytes per KiB), so the sandbox needs no zlib: a small
/// response that decodes far past a client's body limit.
enum RepeatedByteGzip {
    static func encode(_ byte: UInt8, count: Int) -> [UInt8] {
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        var bits = BitWriter()
        bits.put(1, count: 1)  // BFINAL
        bits.put(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var left = count
        if left > 0 {
            bits.literal(byte)
            left -= 1
        }
        while left >= 258 {
            bits.huffman(0b1100_0101, length: 8)  // length code 285: 258 bytes
            bits.huffman(0, length: 5)  // distance code 0: 1 byte back
            left -= 258
        }
        for _ in 0..<left { bits.literal(byte) }
        bits.huffman(0, length: 7)  // end of block (256)
        out += bits.finish()
        let crc = crc32(repeating: byte, count: count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        let size = UInt32(truncatingIfNeeded: count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        return out
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var used = 0

        /// `count` bits of `value`, least significant first (deflate's order for header and extra bits).
        mutating func put(_ value: UInt32, count: Int) {
            for index in 0..<count {
                current |= ((value >> UInt32(index)) & 1) << UInt32(used)
                used += 1
                if used == 8 {
                    bytes.append(UInt8(current))
                    current = 0
                    used = 0
                }
            }
        }

        /// A Huffman code, most significant bit first.
        mutating func huffman(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { put((code >> UInt32(index)) & 1, count: 1) }
        }

        /// A literal byte 0-143 (8-bit codes from 0x30) or 144-255 (9-bit codes from 0x190).
        mutating func literal(_ byte: UInt8) {
            if byte < 144 {
                huffman(0x30 + UInt32(byte), length: 8)
            } else {
                huffman(0x190 + UInt32(byte) - 144, length: 9)
            }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current)) }
            return bytes
        }
    }

    private static func crc32(repeating byte: UInt8, count: Int) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<count { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
