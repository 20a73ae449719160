import Foundation
import Testing

/// `workflows/s3/presigned-parts.yaml`: an app's backend (Tests/Peers/s3_presign_backend.py,
/// boto3) hands out presigned UploadPart URLs, flow sends each part as a byte range of the file
/// (`body-file: { path, offset, length }`), four at once, and hands back the ETags; moto stores
/// the object, which boto3 reads back byte for byte. Signatures are checked: moto 5.2.5 cannot
/// check one in a query string (moto/iam/access_control.py line 233 reads only the `Authorization`
/// header, and answers 500), so the peer checks presigned requests with botocore's query signer
/// before moto checks the rest (`Tests/Peers/s3_presigned_check.py`).
@Suite(.serialized, .s3Peer) struct S3PresignedPartsTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("workflows/s3/presigned-parts.yaml")

    @Test func theExampleUploadsThePartsAndTheBackendCompletesTheObject() async throws {
        let peer = try S3Peer.required()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-presigned-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await peer.createBucket("flow-presigned")
        let port = try freeLoopbackPort()
        let backend = try await startListening(
            "scripts/s3-peer", ["backend", String(port), peer.endpoint, peer.keysFile, "flow-presigned"], port: port,
            name: "the presigned-URL backend", log: folder.appendingPathComponent("backend.log"))
        defer { stopProcess(backend) }
        // Three parts: 5 MiB, 5 MiB and the last, smaller one.
        let file = folder.appendingPathComponent("big.bin")
        try TusPeerTests.randomBytes(11 * 1024 * 1024 + 123).write(to: file)

        let outcome = try await FlowProcess.run([
            "run", Self.example.path, "--no-journal", "--log-format", "plain", "--input", "file=\(file.path)",
            "--input", "key=dir/big.bin", "--input", "backend=http://127.0.0.1:\(port)",
        ])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        try await peer.expectObject("flow-presigned", "dir/big.bin", equals: file)
    }

    /// The checks are on: a part URL whose signature was changed, or sent to another part number,
    /// is refused (403 SignatureDoesNotMatch); the URL as presigned is taken.
    @Test func aPresignedURLWhoseSignatureDoesNotHoldIsRefused() async throws {
        let peer = try S3Peer.required()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-presigned-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await peer.createBucket("flow-presigned-check")
        let presigned = try await peer.tool(["presign-parts", "flow-presigned-check", "checked.bin", "1"])
        #expect(presigned.status == 0, "\(presigned.output)")
        let url = try #require(presigned.output.firstMatch(of: /"(http[^"]+)"/).map { String($0.1) })
        let signature = try #require(url.firstMatch(of: /X-Amz-Signature=([0-9a-f]+)/).map { String($0.1) })
        let tampered = url.replacingOccurrences(
            of: signature, with: String(signature.dropLast()) + (signature.hasSuffix("0") ? "1" : "0"))
        let otherPart = url.replacingOccurrences(of: "partNumber=1", with: "partNumber=2")
        try Data(count: 1000).write(to: folder.appendingPathComponent("part.bin"))
        let workflow = folder.appendingPathComponent("parts.yaml")
        try """
        version: 1
        steps:
          tampered:
            http: { method: PUT, url: "${{ env.TAMPERED }}", body-file: part.bin }
            expect: { status: 403, assert: ["${{ contains(result.body, 'SignatureDoesNotMatch') }}"] }
          other-part:
            http: { method: PUT, url: "${{ env.OTHER_PART }}", body-file: part.bin }
            expect: { status: 403, assert: ["${{ contains(result.body, 'SignatureDoesNotMatch') }}"] }
          as-presigned:
            http: { method: PUT, url: "${{ env.PRESIGNED }}", body-file: part.bin }
            expect: { status: 200 }
        """.write(to: workflow, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(
            ["run", workflow.path, "--no-journal", "--log-format", "plain"],
            environment: ["TAMPERED": tampered, "OTHER_PART": otherPart, "PRESIGNED": url])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test func theExampleValidatesAndItsDryRunShowsTheRange() async throws {
        let validate = try await FlowProcess.run(["validate", Self.example.path])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let dryRun = try await FlowProcess.run([
            "run", Self.example.path, "--dry-run", "--input", "file=\(Self.example.path)", "--input", "key=k",
            "--input", "backend=http://127.0.0.1:9",
        ])
        #expect(dryRun.exitCode == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("bytes from offset <part.offset>"), "\(dryRun.stdout)")
    }

    @Test func aRangePastTheFilesEndFailsBeforeSending() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-range-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(count: 100).write(to: folder.appendingPathComponent("small.bin"))
        let workflow = folder.appendingPathComponent("range.yaml")
        try """
        version: 1
        steps:
          put:
            http:
              method: PUT
              url: http://127.0.0.1:9/x
              body-file: { path: small.bin, offset: 60, length: 60 }
        """.write(to: workflow, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", workflow.path, "--no-journal", "--log-format", "plain"])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stdout.contains("body-file bytes 60..<120 are past the end of"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("(100 bytes)"), "\(outcome.stdout)")
    }
}
