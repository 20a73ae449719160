import Foundation
import Testing

/// `call:` steps seen from the flow command, which registers no handlers: `validate` and `run`
/// stop at the call, `--dry-run` shows it.
@Suite struct HostStepCommandTests {
    static let workflow = """
        version: 1
        steps:
          login:
            http: { method: POST, url: http://127.0.0.1:9/login, json: { user: demo } }
            outputs: { token: "${{ result.json.token }}" }
          score:
            needs: login
            call: score-user
            with:
              token: ${{ steps.login.outputs.token }}
              key: ${{ secrets.KEY }}
              limit: 3
          notify:
            needs: score
            run: echo "${{ steps.score.outputs.score }}"
        """

    static let unknown = """
        :8:11: error: step 'score' calls handler 'score-user', which is not registered
            8 |     call: score-user
              |           ^~~~~~~~~~
        hint: 'call' steps run inside an app that registers their handler (FlowKit's HostStepRegistry); the flow command has none

        """

    @Test func validateAndRunReportTheUnknownHandlerAtItsPlace() async throws {
        let scratch = try ValidateAndDryRunTests.Scratch()
        let file = try scratch.write("call.yaml", Self.workflow)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 2)
        #expect(validate.stderr == file + Self.unknown)
        let run = try await FlowProcess.run(["run", "--no-journal", file], environment: ["FLOW_SECRET_KEY": "k-9876"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.hasPrefix(file + Self.unknown), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func aDryRunShowsTheCallWithItsInputsAndSecretsMasked() async throws {
        let scratch = try ValidateAndDryRunTests.Scratch()
        let file = try scratch.write("call.yaml", Self.workflow)
        let outcome = try await FlowProcess.run(
            ["run", "--dry-run", file], environment: ["FLOW_SECRET_KEY": "k-9876"])
        #expect(outcome.exitCode == 0)
        #expect(
            outcome.stdout.contains(
                """
                wave 2:
                  score: call score-user with {"key":"***","limit":3,"token":<steps.login.outputs.token>}  (needs login)
                """), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("k-9876"))
        #expect(outcome.stderr == file + Self.unknown.replacingOccurrences(of: "error:", with: "warning:"))
    }

    @Test func aCallWithoutAValidNameOrWithAMisplacedWithIsInvalid() async throws {
        let scratch = try ValidateAndDryRunTests.Scratch()
        let file = try scratch.write(
            "bad.yaml",
            """
            version: 1
            steps:
              a:
                call: "${{ inputs.name }}"
              b:
                http: { url: http://127.0.0.1:9/x }
                with: { x: 1 }
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("\(file):4:11: error: 'call' names a handler; it cannot contain '${{ }}'"))
        #expect(outcome.stderr.contains("\(file):7:5: error: 'with' only applies to 'uses' steps, not to step 'b'"))
    }
}
