import FlowSandbox
import Foundation
import Testing

/// `retry: 3` on a POST never applies (a POST is not sent again without an `Idempotency-Key`):
/// `validate` warns, and the failure line says why there was no retry and how to allow one.
@Suite struct UnsafeRetryTests {
    @Test func aRetryThatNeverAppliesIsAWarningAndTheFailureSaysWhy() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "post.yaml",
            """
            version: 1
            steps:
              create:
                retry: { attempts: 3, delay: 10ms }
                http: { method: POST, url: "\(sandbox.baseURL)/status/503", json: { name: x } }
              keyed:
                retry: { attempts: 3, delay: 10ms }
                http:
                  method: POST
                  url: "\(sandbox.baseURL)/status/200"
                  headers: { Idempotency-Key: "${{ idempotencyKey() }}" }
              listed:
                retry: { attempts: 3, delay: 10ms, on: [503] }
                http: { method: PATCH, url: "\(sandbox.baseURL)/status/200" }
            """)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let said = validate.stdout + validate.stderr
        #expect(
            said.contains(
                "post.yaml:4:5: warning: 'retry' of step 'create' never applies: a POST without an 'Idempotency-Key' header is not sent again, since the server may have done the work"
            ), "\(said)")
        #expect(said.contains("hint: to allow it, send 'Idempotency-Key: ${{ idempotencyKey() }}'"), "\(said)")
        #expect(!said.contains("step 'keyed' never") && !said.contains("step 'listed' never"), "\(said)")

        let run = try await FlowProcess.run(["run", file])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(
                "; not retried: a POST without an 'Idempotency-Key' header is not sent again, since the server may "
                    + "have done the work; to allow it, send 'Idempotency-Key: ${{ idempotencyKey() }}'"),
            "\(run.stdout)")
        #expect(sandbox.events().filter { $0.method == "POST" && $0.path == "/status/503" }.count == 1)
    }
}
