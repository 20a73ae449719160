import Foundation
import Testing

/// An S3 upload signed with keys from `secrets.*` (`auth: { aws-sigv4 }` on the `upload`), against
/// moto checking every signature: killed mid-upload and resumed with the secrets given again, the
/// object is the file byte for byte, and no key, secret or token is in any output, report or
/// journal file. The session's keys (a role's, with a token) are used: moto checks the token too.
@Suite(.serialized, .s3Peer) struct S3UploadSecretKeyTests {
    @Test(.timeLimit(.minutes(2))) func keysFromSecretsSignTheUploadAndAreWrittenNowhere() async throws {
        let peer = try S3Peer.required()
        let proxy = try await FaultProxy.start(
            to: peer.port, faults: ["chunk=3:stall:1000"], folder: FileManager.default.temporaryDirectory)
        defer { proxy.stop() }
        let test = try S3UploadTests.Case(
            "secrets", size: 16 * 1024 * 1024 + 5, endpoint: "http://127.0.0.1:\(proxy.port)",
            keys: """
                chunk-size: 5MiB
                chunks-in-flight: 1
                auth:
                  aws-sigv4:
                    access-key-id: ${{ secrets.S3_KEY }}
                    secret-access-key: ${{ secrets.S3_SECRET }}
                    session-token: ${{ secrets.S3_TOKEN }}
                    region: us-east-1
                """)
        defer { test.remove() }
        try await peer.createBucket(test.bucket)
        let session = peer.keys.session
        let secrets = [session.accessKeyID, session.secretAccessKey, session.sessionToken]
        // No key anywhere but in the secrets: unsigned or wrongly signed, moto refuses every request.
        let environment = [
            "FLOW_SECRET_S3_KEY": session.accessKeyID, "FLOW_SECRET_S3_SECRET": session.secretAccessKey,
            "FLOW_SECRET_S3_TOKEN": session.sessionToken, "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
            "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "", "AWS_REGION": "",
            "AWS_SHARED_CREDENTIALS_FILE": test.folder.appendingPathComponent("none").path,
            "AWS_CONFIG_FILE": test.folder.appendingPathComponent("none").path,
        ]
        let dry = try await FlowProcess.run(["run", test.workflow.path, "--dry-run"], environment: environment)
        #expect(dry.exitCode == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(
            dry.stdout.contains(
                "auth aws-sigv4 service s3 region us-east-1; key from access-key-id and "
                    + "secret-access-key (masked)"), "\(dry.stdout)")

        // Two parts confirmed, the third stalled: killed there, with the upload's id in the journal.
        let child = try FlowChild(
            ["run", test.workflow.path, "--state-dir", test.state, "--log-format", "json"], environment: environment)
        let stalled = await FlowChild.wait(for: .seconds(30)) { proxy.lines().contains { $0.contains("fault stall") } }
        #expect(stalled, "\(child.output)\(child.errors)")
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        let reports = test.folder.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let resumed = try await FlowProcess.run(
            [
                "run", test.workflow.path, "--state-dir", test.state, "--resume", "--log-format", "json",
                "--report", "json", reports.appendingPathComponent("report.json").path,
                "--report", "html", reports.appendingPathComponent("report.html").path,
                "--report", "junit", reports.appendingPathComponent("junit.xml").path,
            ], environment: environment)
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect((resumed.stdout + resumed.stderr).contains("continuing the multipart upload"), "\(resumed.stdout)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)

        var files = [String: Data]()
        for folder in [test.state, reports.path] {
            for name in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? [] {
                files[folder + "/" + name] = FileManager.default.contents(atPath: folder + "/" + name)
            }
        }
        #expect(files.keys.contains { $0.hasSuffix("report.html") } && files.count > 3, "\(files.keys)")
        let outputs = [dry.stdout, dry.stderr, child.output, child.errors, resumed.stdout, resumed.stderr]
        for secret in secrets {
            for output in outputs { #expect(!output.contains(secret), "\(output)") }
            for (path, data) in files { #expect(data.range(of: Data(secret.utf8)) == nil, "\(path) holds a key") }
        }
    }

    @Test func anUploadsAuthIsCheckedBeforeAnythingRuns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-s3-auth-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = folder.appendingPathComponent("auth.yaml")
        try """
        version: 1
        steps:
          s3:
            upload:
              file: a.bin
              url: http://127.0.0.1:9/bucket/a.bin
              protocol: s3
              region: eu-west-3
              auth: { aws-sigv4: { service: sts, region: eu-west-1, payload: unsigned, secret-acess-key: x } }
          basic:
            upload:
              file: a.bin
              url: http://127.0.0.1:9/bucket/a.bin
              protocol: s3
              auth: { bearer: token }
          tus:
            upload:
              file: a.bin
              url: http://127.0.0.1:9/files
              protocol: tus
              auth: { aws-sigv4: { service: s3 } }
        """.write(to: workflow, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["validate", workflow.path])
        #expect(outcome.exitCode == 2, "\(outcome.stdout)\(outcome.stderr)")
        let errors = outcome.stderr
        for expected in [
            "auth.yaml:9:80: error: unknown key 'secret-acess-key' in 'aws-sigv4'",
            "did you mean 'secret-access-key'?",
            "auth.yaml:9:37: error: an S3 upload is signed for the service 's3', not 'sts'",
            "auth.yaml:9:61: error: an S3 upload signs each part's SHA-256: 'payload' is for 'http' steps",
            "auth.yaml:8:7: error: the S3 upload's region is given twice",
            "auth.yaml:15:15: error: an S3 upload is signed with AWS Signature Version 4: its 'auth' takes "
                + "'aws-sigv4', not 'bearer'",
            "auth.yaml:21:15: error: 'aws-sigv4' signs the requests of an 'http' step or of an upload with "
                + "'protocol: s3'",
        ] {
            #expect(errors.contains(expected), "\(expected)\n\(errors)")
        }
    }
}
