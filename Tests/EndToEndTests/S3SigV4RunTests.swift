import Foundation
import Testing

/// `auth: { aws-sigv4: … }` on `http` steps, run by the built `flow` against moto with its
/// signature checks on: every request below is refused unless flow signed it as AWS would.
@Suite(.serialized, .s3Peer) struct S3SigV4RunTests {
    /// A temporary folder with a workflow and a 300 KB data file, removed after the test.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-sigv4-run-\(UUID())")
        let data: URL

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            data = url.appendingPathComponent("data.bin")
            try TusPeerTests.randomBytes(300_000).write(to: data)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func workflow(_ yaml: String) throws -> String {
            let file = url.appendingPathComponent("workflow-\(UUID()).yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
    }

    /// `flow run` of `workflow` against the peer: no journal, plain log lines, `environment` only.
    static func run(_ workflow: String, environment: [String: String]) async throws -> FlowProcess.Outcome {
        try await FlowProcess.run(["run", workflow, "--no-journal", "--log-format", "plain"], environment: environment)
    }

    @Test func aWorkflowMakesABucketPutsListsHeadsDownloadsAndDeletesObjects() async throws {
        let peer = try S3Peer.required()
        let folder = try Folder()
        let workflow = try folder.workflow(
            """
            version: 1
            defaults:
              http:
                base-url: ${{ env.FLOW_S3_ENDPOINT }}
                auth: { aws-sigv4: { service: s3 } }
            steps:
              bucket:
                http: { method: PUT, url: /flow-sigv4-run }
              put:
                needs: bucket
                http:
                  method: PUT
                  url: /flow-sigv4-run/dir/a%20b+c.bin
                  body-file: data.bin
                  headers: { Content-Type: application/octet-stream, x-amz-meta-note: "two   spaces" }
              put-text:
                needs: bucket
                http: { method: PUT, url: /flow-sigv4-run/note.txt, body: hello }
              list:
                needs: [put, put-text]
                http: { url: /flow-sigv4-run, query: { list-type: "2", prefix: dir/ } }
                expect:
                  assert: ["${{ contains(result.body, '<Key>dir/a b+c.bin</Key>') }}"]
              head:
                needs: put
                http: { method: HEAD, url: /flow-sigv4-run/dir/a%20b+c.bin }
                expect:
                  headers: { content-length: "300000", x-amz-meta-note: "two   spaces" }
              get:
                needs: put
                http: { url: /flow-sigv4-run/dir/a%20b+c.bin, save-to: out.bin }
              delete:
                needs: [list, head, get]
                http: { method: DELETE, url: /flow-sigv4-run/note.txt }
                expect: { status: 204 }
            """)
        let outcome = try await Self.run(workflow, environment: peer.environment)
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        try await peer.expectObject("flow-sigv4-run", "dir/a b+c.bin", equals: folder.data)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("out.bin")) == Data(contentsOf: folder.data))
        let gone = try await peer.tool(["missing", "flow-sigv4-run", "note.txt"])
        #expect(gone.status == 0, "\(gone.output)")
        #expect(!outcome.stdout.contains(peer.keys.secretAccessKey))
    }

    @Test func aWrongSecretIsRefusedAndNeverPrinted() async throws {
        let peer = try S3Peer.required()
        let folder = try Folder()
        let workflow = try folder.workflow(
            """
            version: 1
            steps:
              list:
                http:
                  url: ${{ env.FLOW_S3_ENDPOINT }}/
                  auth: { aws-sigv4: { service: s3 } }
            """)
        var environment = peer.environment
        environment["AWS_SECRET_ACCESS_KEY"] = "not-the-secret-of-this-key"
        let outcome = try await Self.run(workflow, environment: environment)
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("SignatureDoesNotMatch"), "\(outcome.stdout)")
        #expect(!(outcome.stdout + outcome.stderr).contains("not-the-secret-of-this-key"))
        #expect(!(outcome.stdout + outcome.stderr).contains(peer.keys.accessKeyID))
    }

    @Test func aProfileWithASessionTokenSignsFromTheSharedFiles() async throws {
        let peer = try S3Peer.required()
        let folder = try Folder()
        let aws = folder.url.appendingPathComponent("home/.aws")
        try FileManager.default.createDirectory(at: aws, withIntermediateDirectories: true)
        let session = peer.keys.session
        try """
        [default]
        aws_access_key_id = AKIANOTTHEONETOUSE00
        aws_secret_access_key = wrong

        [flow-role]
        aws_access_key_id = \(session.accessKeyID)
        aws_secret_access_key = \(session.secretAccessKey)
        aws_session_token = \(session.sessionToken)
        """.write(to: aws.appendingPathComponent("credentials"), atomically: true, encoding: .utf8)
        try "[profile flow-role]\nregion = \(peer.keys.region)\n".write(
            to: aws.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let workflow = try folder.workflow(
            """
            version: 1
            steps:
              bucket:
                http:
                  method: PUT
                  url: ${{ env.FLOW_S3_ENDPOINT }}/flow-sigv4-profile
                  auth: { aws-sigv4: { service: s3 } }
              put:
                needs: bucket
                http:
                  method: PUT
                  url: ${{ env.FLOW_S3_ENDPOINT }}/flow-sigv4-profile/data.bin
                  body-file: data.bin
                  auth: { aws-sigv4: { service: s3, payload: signed } }
            """)
        let environment = [
            "HOME": folder.url.appendingPathComponent("home").path, "AWS_PROFILE": "flow-role",
            "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_REGION": "", "AWS_DEFAULT_REGION": "",
            "FLOW_S3_ENDPOINT": peer.endpoint,
        ]
        let dryRun = try await FlowProcess.run(["run", workflow, "--dry-run"], environment: environment)
        #expect(dryRun.exitCode == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(
            dryRun.stdout.contains(
                "auth aws-sigv4 service s3 region \(peer.keys.region); key from profile 'flow-role'"),
            "\(dryRun.stdout)")
        let outcome = try await Self.run(workflow, environment: environment)
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        try await peer.expectObject("flow-sigv4-profile", "data.bin", equals: folder.data)
        #expect(!(outcome.stdout + dryRun.stdout).contains(session.sessionToken))
    }

    @Test func keysFromSecretsSignAnotherServicesRequest() async throws {
        let peer = try S3Peer.required()
        let folder = try Folder()
        // STS checks a signature by the rules of every service but S3 (the path normalized and
        // encoded twice, no x-amz-content-sha256), on a form body whose hash is signed.
        let workflow = try folder.workflow(
            """
            version: 1
            steps:
              whoami:
                http:
                  method: POST
                  url: ${{ env.FLOW_S3_ENDPOINT }}/
                  form: { Action: GetCallerIdentity, Version: "2011-06-15" }
                  auth:
                    aws-sigv4:
                      service: sts
                      region: us-east-1
                      access-key-id: ${{ secrets.AWS_KEY }}
                      secret-access-key: ${{ secrets.AWS_SECRET }}
                expect:
                  assert: ["${{ contains(result.body, 'user/flow-tests') }}"]
            """)
        let outcome = try await Self.run(
            workflow,
            environment: [
                "FLOW_SECRET_AWS_KEY": peer.keys.accessKeyID, "FLOW_SECRET_AWS_SECRET": peer.keys.secretAccessKey,
                "FLOW_S3_ENDPOINT": peer.endpoint, "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
            ])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test func noCredentialsFailTheStepSayingWhereTheyAreLookedFor() async throws {
        let folder = try Folder()
        let workflow = try folder.workflow(
            """
            version: 1
            steps:
              list:
                http:
                  url: http://127.0.0.1:9/
                  auth: { aws-sigv4: { service: s3, region: eu-west-3 } }
            """)
        let outcome = try await Self.run(
            workflow,
            environment: [
                "HOME": folder.url.path, "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_PROFILE": "",
                "AWS_SHARED_CREDENTIALS_FILE": "", "AWS_CONFIG_FILE": "",
            ])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("no AWS credentials: set AWS_ACCESS_KEY_ID"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("never asks an instance metadata service"))
    }
}
