import Dispatch
import FlowDSL
import FlowDigest
import FlowHTTP
import Foundation
import Testing

@testable import FlowEngine

/// The pieces of an upload that no well-behaved server exercises: checksums, a server reporting a
/// different file, odd `Range` answers, a digest fed out of order.
@Suite struct UploadPartsTests {
    @Test func chunkChecksumsMatchTheRangesSha256AndSha1() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-checksum-\(UUID())").path
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let range = bytes[1_000_000..<2_500_000]
        let queue = DispatchQueue(label: "test")
        let sha256 = try await ChunkChecksum.header(
            path: path, offset: 1_000_000, length: 1_500_000, algorithm: .sha256, queue: queue
        ).value
        #expect(sha256 == "sha256 " + Data(SHA256.hash(data: range)).base64EncodedString())
        let sha1 = try await ChunkChecksum.header(
            path: path, offset: 1_000_000, length: 1_500_000, algorithm: .sha1, queue: queue
        ).value
        #expect(sha1 == "sha1 " + Data(Insecure.SHA1.hash(data: range)).base64EncodedString())
        await #expect(throws: UploadFileError.self) {
            _ = try await ChunkChecksum.header(
                path: path, offset: 2_000_000, length: 2_000_000, algorithm: .sha1, queue: queue
            ).value
        }
    }

    /// A tus chunk small enough is read once: the read that hashes it keeps the bytes to send, in
    /// the one buffer every chunk of the upload reuses.
    @Test func aKeptChunkIsTheRangesBytesWithItsChecksum() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-kept-\(UUID())").path
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = DispatchQueue(label: "test")
        func sent(_ body: HTTPBody?) -> [UInt8]? {
            guard case .reused(let buffer, let count)? = body else { return nil }
            return Array(buffer.bytes(count: count))
        }
        let buffer = ReusableBytes(capacity: 102_400)
        let kept = try await ChunkChecksum.read(
            path: path, offset: 100_000, length: 102_400, algorithm: .sha256, into: buffer, queue: queue
        ).value
        let range = bytes[100_000..<202_400]
        #expect(sent(kept.body) == Array(range))
        #expect(kept.header == "sha256 " + Data(SHA256.hash(data: range)).base64EncodedString())
        let unkept = try await ChunkChecksum.read(
            path: path, offset: 100_000, length: 102_400, algorithm: .sha256, into: nil, queue: queue
        ).value
        #expect(unkept.body == nil)
        #expect(unkept.header == kept.header)
        // The same buffer again, for the next chunk: its bytes are the new range's.
        let here = try ChunkChecksum.readHere(
            path: path, offset: 150_000, length: 102_400, algorithm: .sha256, into: buffer)
        let next = bytes[150_000..<252_400]
        #expect(sent(here.body) == Array(next))
        #expect(here.header == "sha256 " + Data(SHA256.hash(data: next)).base64EncodedString())
        #expect(throws: UploadFileError.self) {
            _ = try ChunkChecksum.readHere(
                path: path, offset: 250_000, length: 102_400, algorithm: .sha1, into: buffer)
        }
    }

    /// md5 and crc32c are computed as the file is sent only for GCS; any other server reporting
    /// them gets them from a second read of the file (`GCSDigests`).
    @Test func gcsDigestsAreKeptOnlyForGoogleCloudStorage() async throws {
        func target(_ url: String) throws -> UploadTarget {
            UploadTarget(
                url: url, file: try UploadFile(path: "/etc/hostname"), uploadProtocol: .contentRange, method: "PUT",
                chunkSize: 1024, headers: HTTPHeaders(), metadata: [], controlTimeout: .seconds(1),
                location: SourceLocation(file: "t.yaml", line: 1, column: 1))
        }
        #expect(try target("https://storage.googleapis.com/upload/storage/v1/b/b/o?name=x").isGoogleCloudStorage)
        #expect(
            try target("http://127.0.0.1:9/upload/storage/v1/b/b/o?uploadType=resumable&upload_id=abc")
                .isGoogleCloudStorage)
        #expect(try target("http://127.0.0.1:9/session?upload_id=abc").isGoogleCloudStorage)
        #expect(try !target("http://127.0.0.1:9/uploads/cr/x").isGoogleCloudStorage)
        #expect(try !target("https://googleapis.com.example.org/x").isGoogleCloudStorage)

        let data = Array("hello, resumable world".utf8)
        let digest = StreamDigest(gcsDigests: false)
        data.withUnsafeBytes { digest.feed(offset: 0, $0) }
        #expect(digest.finalHex(size: Int64(data.count)) == SHA256.hash(data: data).hexString)
        #expect(digest.finalMD5Base64(size: Int64(data.count)) == nil)
        #expect(digest.finalCRC32CBase64(size: Int64(data.count)) == nil)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-gcs-\(UUID())").path
        let bytes = (0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let late = try await GCSDigests.compute(path: path, size: Int64(bytes.count), queue: DispatchQueue(label: "t"))
            .value
        var crc = CRC32C()
        bytes.withUnsafeBytes { crc.update($0) }
        #expect(late.md5 == Data(Insecure.MD5.hash(data: bytes)).base64EncodedString())
        #expect(late.crc32c == crc.base64)
    }

    /// The hardware crc32c (SSE4.2, where the CPU has it) and slicing-by-8 agree, whatever the
    /// lengths, alignments and pieces.
    @Test func crc32cAgreesWithItsSoftwareFallbackAndABitwiseReference() {
        func reference(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for start in 0..<9 {
            for length in stride(from: 0, to: 600, by: 37) {
                let slice = bytes[start..<(start + length)]
                let expected = reference(slice)
                var whole = CRC32C()
                var pieces = CRC32C()
                slice.withUnsafeBytes { all in
                    whole.update(all)
                    #expect(CRC32C.softwareValue(all) == expected)
                    let cut = length / 3
                    pieces.update(UnsafeRawBufferPointer(rebasing: all[..<cut]))
                    pieces.update(UnsafeRawBufferPointer(rebasing: all[cut...]))
                }
                #expect(whole.value == expected, "start \(start), length \(length)")
                #expect(pieces.value == expected, "start \(start), length \(length), in two pieces")
            }
        }
    }

    @Test func sha256IsPreferredThenSha1ThenNone() {
        #expect(ChecksumAlgorithm.preferred(in: ["md5", "sha1", "SHA256"]) == .sha256)
        #expect(ChecksumAlgorithm.preferred(in: ["md5", "sha1"]) == .sha1)
        #expect(ChecksumAlgorithm.preferred(in: ["md5", "crc32"]) == nil)
    }

    @Test func aServerReportingAnotherSizeOrHashFailsTheUpload() {
        let good = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        func response(_ body: String) -> HTTPResponse {
            HTTPResponse(status: 200, headers: [:], body: Array(body.utf8), effectiveURL: "http://x/")
        }
        #expect(
            ServerReport.mismatch(in: response("{\"size\": 0, \"sha256\": \"\(good)\"}"), size: 0, sha256: good) == nil)
        #expect(ServerReport.mismatch(in: response("not json"), size: 0, sha256: good) == nil)
        #expect(
            ServerReport.mismatch(in: response("{\"size\": 12}"), size: 10, sha256: good)
                == "the server stored 12 bytes, but the file has 10")
        let other = String(repeating: "0", count: 64)
        #expect(
            ServerReport.mismatch(in: response("{\"sha256\": \"\(other)\"}"), size: 0, sha256: good)
                == "the server stored a file with sha256 \(other), but the file sent has sha256 \(good)")
    }

    /// Google Cloud Storage reports `size` as a string and `md5Hash` in base64.
    @Test func aSizeGivenAsTextAndAnMD5HashAreCompared() {
        let sha = String(repeating: "a", count: 64)
        func response(_ body: String) -> HTTPResponse {
            HTTPResponse(status: 200, headers: [:], body: Array(body.utf8), effectiveURL: "http://x/")
        }
        #expect(
            ServerReport.mismatch(in: response("{\"size\": \"3407879\"}"), size: 3_145_735, sha256: sha)
                == "the server stored 3407879 bytes, but the file has 3145735")
        #expect(ServerReport.mismatch(in: response("{\"size\": \"3145735\"}"), size: 3_145_735, sha256: sha) == nil)
        let md5 = "1B2M2Y8AsgTpgAmY7PhCfg=="
        #expect(
            ServerReport.mismatch(
                in: response("{\"size\": \"0\", \"md5Hash\": \"\(md5)\"}"), size: 0, sha256: sha, md5Base64: md5)
                == nil)
        #expect(
            ServerReport.mismatch(
                in: response("{\"md5Hash\": \"AAAAAAAAAAAAAAAAAAAAAA==\"}"), size: 0, sha256: sha, md5Base64: md5)
                == "the server stored a file with md5Hash AAAAAAAAAAAAAAAAAAAAAA==, but the file sent has md5Hash \(md5)"
        )
    }

    /// GCS also reports `crc32c`: CRC-32C, big-endian, in base64.
    @Test func aCRC32CIsComputedAsGCSReportsItAndCompared() {
        var crc = CRC32C()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0xE306_9283, "the standard check value of CRC-32C")
        #expect(crc.base64 == "4waSgw==")
        let digest = StreamDigest()
        Array("123456789".utf8).withUnsafeBytes { digest.feed(offset: 0, $0) }
        #expect(digest.finalCRC32CBase64(size: 9) == "4waSgw==")
        func response(_ body: String) -> HTTPResponse {
            HTTPResponse(status: 200, headers: [:], body: Array(body.utf8), effectiveURL: "http://x/")
        }
        let sha = String(repeating: "a", count: 64)
        #expect(
            ServerReport.mismatch(
                in: response("{\"size\": \"9\", \"crc32c\": \"4waSgw==\"}"), size: 9, sha256: sha,
                crc32cBase64: "4waSgw==") == nil)
        #expect(
            ServerReport.mismatch(
                in: response("{\"crc32c\": \"AAAAAA==\"}"), size: 9, sha256: sha, crc32cBase64: "4waSgw==")
                == "the server stored a file with crc32c AAAAAA==, but the file sent has crc32c 4waSgw==")
    }

    @Test func rangeHeadersAreReadOnlyInTheirOneValidShape() {
        #expect(ContentRangeDriver.heldBytes("bytes=0-99") == 100)
        #expect(ContentRangeDriver.heldBytes(" bytes=0-0 ") == 1)
        #expect(ContentRangeDriver.heldBytes("bytes=10-99") == nil)
        #expect(ContentRangeDriver.heldBytes("bytes=0-") == nil)
        #expect(ContentRangeDriver.heldBytes("0-99") == nil)
        // Read from the bytes (every chunk's answer): the same answers as the text path.
        #expect(ContentRangeDriver.heldBytes("Bytes=0-99") == 100)
        #expect(ContentRangeDriver.heldBytes("\tBYTES=0-7\t") == 8)
        #expect(ContentRangeDriver.heldBytes("bytes=0-+5") == 6)
        #expect(ContentRangeDriver.heldBytes("bytes=0--5") == nil)
        #expect(ContentRangeDriver.heldBytes("bytes=0-5x") == nil)
        #expect(ContentRangeDriver.heldBytes("bytes:0-5") == nil)
        #expect(ContentRangeDriver.heldBytes("\u{00A0}bytes=0-9\u{00A0}") == 10)
        #expect(ContentRangeDriver.heldBytes("bytes=0-9\u{00E9}") == nil)
        // The largest offset has no byte after it: refused, where N + 1 used to overflow (a crash).
        #expect(ContentRangeDriver.heldBytes("bytes=0-9223372036854775807") == nil)
        #expect(ContentRangeDriver.heldBytes("bytes=0-9223372036854775806") == Int64.max)
        #expect(ContentRangeDriver.heldBytes("bytes=0-99999999999999999999") == nil)
    }

    @Test func theDigestHashesEachByteOnceWhateverIsReadAgain() {
        let digest = StreamDigest()
        let data = Array("hello, resumable world".utf8)
        data.withUnsafeBytes { all in
            digest.feed(offset: 0, UnsafeRawBufferPointer(rebasing: all[0..<10]))
            digest.feed(offset: 5, UnsafeRawBufferPointer(rebasing: all[5..<15]))  // resent after a drop
            digest.feed(offset: 20, UnsafeRawBufferPointer(rebasing: all[20...]))  // a gap: ignored
            #expect(digest.finalHex(size: Int64(data.count)) == nil)
            digest.feed(offset: 15, UnsafeRawBufferPointer(rebasing: all[15...]))
        }
        #expect(digest.hashedBytes == Int64(data.count))
        #expect(
            digest.finalHex(size: Int64(data.count))
                == SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined())
        #expect(
            digest.finalMD5Base64(size: Int64(data.count)) == Data(Insecure.MD5.hash(data: data)).base64EncodedString())
    }
}
