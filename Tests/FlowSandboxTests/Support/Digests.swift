import FlowTestSupport
import Foundation

/// Digests computed by coreutils (`sha1sum`, `sha256sum`), independent of the server's swift-crypto.
enum Digests {
    /// Lowercase hex digest of `data` by `sha1sum` or `sha256sum`.
    static func hex(_ algorithm: String, of data: Data) async throws -> String {
        try await runOffThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/\(algorithm)sum")
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            // A writer thread so a large input cannot deadlock against the output pipe.
            let writer = Thread {
                input.fileHandleForWriting.write(data)
                try? input.fileHandleForWriting.close()
            }
            writer.start()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: printed, as: UTF8.self)
            guard process.terminationStatus == 0, let digest = text.split(separator: " ").first else {
                throw TestFailure("\(algorithm)sum failed: \(text)")
            }
            return String(digest)
        }
    }

    /// The digest as tus sends it in `Upload-Checksum`: base64 of the raw bytes.
    static func base64(_ algorithm: String, of data: Data) async throws -> String {
        let hex = try await self.hex(algorithm, of: data)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }

    /// Deterministic bytes that differ from position to position, so an offset error changes the hash.
    static func sample(count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        var value: UInt32 = 2_463_534_242
        for index in 0..<count {
            value ^= value << 13
            value ^= value >> 17
            value ^= value << 5
            bytes[index] = UInt8(truncatingIfNeeded: value)
        }
        return Data(bytes)
    }
}
