import FlowAWS
import FlowDigest
import Foundation
import Testing

/// flow's signer against botocore's own (`SigV4Auth`, `S3SigV4Auth`; run by
/// `scripts/s3-peer tool sign` in the peers' venv) for the same request, key and instant: the
/// requests flow sends to S3 and to other AWS APIs, beyond what AWS's test suite covers (S3's
/// path rules, `UNSIGNED-PAYLOAD`, a streamed body's hash, session tokens, bare query keys).
struct BotocoreSignerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let service: String
        let method: String
        let url: String
        var headers: [Header] = []
        var body: String = ""
        /// The body is a file of this many bytes, whose hash the signer is handed (a streamed part).
        var fileSize: Int?
        var unsigned = false
        var token: String?
        var testDescription: String { name }
    }

    struct Header: Sendable {
        let name: String
        let value: String
    }

    static let cases: [Case] = [
        Case(
            name: "S3 ListObjectsV2 with a prefix to encode", service: "s3", method: "GET",
            url: "http://127.0.0.1:9000/flow-bucket?list-type=2&prefix=dir%2Fa%20b&max-keys=5"),
        Case(
            name: "S3 PutObject of a key with a space, a plus and UTF-8", service: "s3", method: "PUT",
            url: "https://flow-bucket.s3.eu-west-3.amazonaws.com/dir/a%20b+c/%C3%A7a.txt",
            headers: [
                Header(name: "Content-Type", value: "text/plain"),
                Header(name: "x-amz-meta-note", value: "  two   spaces  "),
            ], body: "hello, S3\n"),
        Case(
            name: "S3 UploadPart streamed from a file, its hash given", service: "s3", method: "PUT",
            url: "http://127.0.0.1:9000/flow-bucket/big.bin?partNumber=3&uploadId=2~abc.DEF_ghi-", fileSize: 300_000),
        Case(
            name: "S3 UploadPart with UNSIGNED-PAYLOAD and a session token", service: "s3", method: "PUT",
            url: "https://s3.us-east-1.amazonaws.com/flow-bucket/big.bin?partNumber=1&uploadId=xyz",
            headers: [Header(name: "Content-Length", value: "5242880")], unsigned: true,
            token: "FQoGZXIvYXdzEBYaDH+token/with=signs"),
        Case(
            name: "S3 CreateMultipartUpload (a bare ?uploads)", service: "s3", method: "POST",
            url: "http://127.0.0.1:9000/flow-bucket/big.bin?uploads",
            headers: [Header(name: "x-amz-storage-class", value: "STANDARD_IA")]),
        Case(
            name: "STS form POST with a session token", service: "sts", method: "POST",
            url: "https://sts.amazonaws.com/",
            headers: [Header(name: "Content-Type", value: "application/x-www-form-urlencoded; charset=utf-8")],
            body: "Action=GetCallerIdentity&Version=2011-06-15", token: "IQoJb3JpZ2luX2VjE/token"),
        Case(
            name: "An API Gateway path with dot segments and an encoded space", service: "execute-api", method: "GET",
            url: "https://abc.execute-api.eu-west-1.amazonaws.com/prod/./items/../items/a%20b?z=1&a=2&a=1",
            headers: [Header(name: "Accept", value: "application/json")]),
    ]

    static let credentials = (key: "AKIAIOSFODNN7EXAMPLE", secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    /// 2026-03-01T08:09:10Z.
    static let date = Date(timeIntervalSince1970: 1_772_352_550)

    @Test(arguments: cases) func signsAsBotocoreDoes(_ test: Case) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-sigv4-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var payload = SigV4Payload.bytes(Array(test.body.utf8))
        var bodyFile: String?
        if let size = test.fileSize {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let file = folder.appendingPathComponent("part.bin")
            try Data(bytes).write(to: file)
            bodyFile = file.path
            var hash = SHA256()
            for start in stride(from: 0, to: size, by: 65_536) {
                hash.update(data: bytes[start..<min(size, start + 65_536)])
            }
            payload = .sha256(hash.finalize().hexString)
        }
        if test.unsigned { payload = .unsigned }
        let region = test.service == "execute-api" ? "eu-west-1" : "us-east-1"
        let signer = SigV4Signer(
            credentials: AWSCredentials(
                accessKeyID: Self.credentials.key, secretAccessKey: Self.credentials.secret, sessionToken: test.token),
            region: region, service: test.service)
        let headers = test.headers.map { (name: $0.name, value: $0.value) }
        let ours = try signer.sign(
            method: test.method, url: test.url, headers: headers, payload: payload, date: Self.date)

        var spec: [String: Any] = [
            "method": test.method, "url": ours.url, "headers": test.headers.map { [$0.name, $0.value] },
            "service": test.service, "region": region, "access_key_id": Self.credentials.key,
            "secret_access_key": Self.credentials.secret, "timestamp": "20260301T080910Z", "s3": test.service == "s3",
            "body": test.body,
        ]
        if let token = test.token { spec["session_token"] = token }
        if let bodyFile { spec["body_file"] = bodyFile }
        if test.unsigned { spec["payload_signing_enabled"] = false }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let result = try await Self.runPeer(["tool", "sign", json])
        try #require(result.status == 0, "\(result.output)")
        let theirs = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        #expect(ours.canonicalRequest == theirs["canonical_request"] as? String)
        #expect(ours.stringToSign == theirs["string_to_sign"] as? String)
        #expect(ours.authorization == theirs["authorization"] as? String)
        // Every header botocore adds to sign, flow adds with the same value.
        let added = Dictionary(ours.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
        for pair in theirs["headers"] as? [[String]] ?? [] where pair[0].lowercased().hasPrefix("x-amz-") {
            guard !test.headers.contains(where: { $0.name.lowercased() == pair[0].lowercased() }) else { continue }
            #expect(added[pair[0].lowercased()] == pair[1], "\(pair[0])")
        }
    }

    /// Runs `scripts/s3-peer` with `arguments` on a thread of its own; its status and output.
    static func runPeer(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/s3-peer")
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let process = Process()
                        process.executableURL = script
                        process.arguments = arguments
                        let output = Pipe()
                        let errors = Pipe()
                        process.standardOutput = output
                        process.standardError = errors
                        try process.run()
                        // stderr is small (a traceback at most); read it after stdout.
                        let text = output.fileHandleForReading.readDataToEndOfFile()
                        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        let status = process.terminationStatus
                        return (status, String(decoding: status == 0 ? text : text + errorText, as: UTF8.self))
                    })
            }.start()
        }
    }
}
