import Foundation
import Testing

/// moto's server (PyPI `moto[server]`, an independent S3), started by `scripts/s3-peer` once for a
/// suite that carries the `.s3Peer` trait, on a free loopback port, and stopped when the suite
/// ends. Its signature checks are on: every request must be signed (SigV4) with the IAM access key
/// it made at start (`keys`), as AWS checks them; presigned URLs, which moto cannot check, are
/// checked in front of it (see `Tests/Peers/s3_presigned_check.py`); `.s3PeerUnchecked` turns
/// all checks off. boto3 (through `tool`) checks what flow stored.
struct S3Peer: Sendable {
    /// What `Tests/Peers/s3_peer.py` wrote: the IAM user's access key and a role session's.
    struct Keys: Sendable, Decodable {
        struct Session: Sendable, Decodable {
            let accessKeyID: String
            let secretAccessKey: String
            let sessionToken: String

            enum CodingKeys: String, CodingKey {
                case accessKeyID = "access_key_id"
                case secretAccessKey = "secret_access_key"
                case sessionToken = "session_token"
            }
        }

        let region: String
        let accessKeyID: String
        let secretAccessKey: String
        let session: Session

        enum CodingKeys: String, CodingKey {
            case region, session
            case accessKeyID = "access_key_id"
            case secretAccessKey = "secret_access_key"
        }
    }

    /// The peer the running suite started; nil outside a suite with the trait.
    @TaskLocal static var current: S3Peer?

    /// `http://127.0.0.1:PORT`, the endpoint for path-style requests (`/BUCKET/KEY`).
    let endpoint: String
    let port: Int
    let keys: Keys
    /// The file `keys` was read from, which `tool` passes to boto3.
    let keysFile: String
    /// Whether moto checks signatures.
    let checked: Bool

    /// The environment that gives flow (or awscli) the IAM user's key and the region, as AWS's
    /// tools read them; `FLOW_S3_ENDPOINT` is the endpoint, for workflows.
    var environment: [String: String] {
        [
            "AWS_ACCESS_KEY_ID": keys.accessKeyID, "AWS_SECRET_ACCESS_KEY": keys.secretAccessKey,
            "AWS_REGION": keys.region, "FLOW_S3_ENDPOINT": endpoint,
        ]
    }

    /// The peer of the running suite, or a failure naming the trait it needs.
    static func required(sourceLocation: SourceLocation = #_sourceLocation) throws -> S3Peer {
        try #require(current, "the suite needs the .s3Peer trait", sourceLocation: sourceLocation)
    }

    /// Starts moto on a free port, on another one when that port was taken in the meantime, at
    /// most three times; returns once signature checks are on and the keys are written.
    static func start(checked: Bool, folder: URL) async throws -> (process: Process, peer: S3Peer) {
        var lastError: Error = PeerError(message: "moto did not start")
        for _ in 0..<3 {
            let port = try freeLoopbackPort()
            let keysFile = folder.appendingPathComponent("keys-\(port).json")
            let log = folder.appendingPathComponent("s3-peer-\(port).log")
            let process = Process()
            process.executableURL = repository.appendingPathComponent("scripts/s3-peer")
            process.arguments = ["serve", String(port), keysFile.path] + (checked ? [] : ["--unchecked"])
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: log)
            process.standardError = process.standardOutput
            try process.run()
            // The first start may make the virtual environment (pip install): allow a few minutes.
            for _ in 0..<1800 {
                if let data = try? Data(contentsOf: keysFile) {
                    let keys = try JSONDecoder().decode(Keys.self, from: data)
                    let peer = S3Peer(
                        endpoint: "http://127.0.0.1:\(port)", port: port, keys: keys, keysFile: keysFile.path,
                        checked: checked)
                    return (process, peer)
                }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            stopProcess(process)
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            lastError = PeerError(
                message: "moto (scripts/s3-peer) did not start on port \(port): \(output.suffix(2000))")
            guard output.contains("Address already in use") else { throw lastError }
        }
        throw lastError
    }

    /// Runs `Tests/Peers/s3_tool.py ENDPOINT KEYS arguments…` (boto3); its status and output.
    func tool(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await Self.runPeer(["tool", endpoint, keysFile] + arguments)
    }

    /// Makes a bucket (names are global to the peer: tests use their own).
    func createBucket(_ bucket: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await tool(["create-bucket", bucket])
        #expect(result.status == 0, "create-bucket \(bucket): \(result.output)", sourceLocation: sourceLocation)
    }

    /// Expects the object `bucket/key` to hold exactly the bytes of `file` (read by boto3).
    func expectObject(
        _ bucket: String, _ key: String, equals file: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let result = try await tool(["check", bucket, key, file.path])
        #expect(result.status == 0, "\(result.output)", sourceLocation: sourceLocation)
    }

    /// Runs `scripts/s3-peer arguments…` to its end, on a thread of its own (not the concurrency
    /// pool's); its status and its output (stdout and stderr together).
    static func runPeer(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await FlowProcess.runTool(repository.appendingPathComponent("scripts/s3-peer"), arguments)
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}

/// Starts moto once around a whole suite (not around each test) and stops it after.
struct S3PeerScope: SuiteTrait, TestScoping {
    let checked: Bool
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-s3-peer-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let started = try await S3Peer.start(checked: checked, folder: folder)
        defer {
            stopProcess(started.process)
            try? FileManager.default.removeItem(at: folder)
        }
        try await S3Peer.$current.withValue(started.peer) { try await function() }
    }
}

extension Trait where Self == S3PeerScope {
    /// moto for the suite's tests, checking every request's signature (see `S3Peer`).
    static var s3Peer: Self { Self(checked: true) }
    /// moto for the suite's tests without signature checks (see `S3Peer`).
    static var s3PeerUnchecked: Self { Self(checked: false) }
}
