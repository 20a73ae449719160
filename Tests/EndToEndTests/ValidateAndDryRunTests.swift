import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flow validate` and `flow run --dry-run` as a user runs them.
@Suite struct ValidateAndDryRunTests {
    /// A scratch folder of its own for each test, so tests running in parallel share nothing.
    final class Scratch {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-e2e-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func write(_ name: String, _ text: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    static let valid = """
        version: 1
        steps:
          ping:
            http: { url: http://127.0.0.1:9/health }
        """

    static let invalid = """
        version: 1
        steps:
          upload:
            http: { method: PUT, url: http://127.0.0.1:9/upload }
          notify:
            needs: [uplod]
            run: echo done
        """

    @Test func validFileExitsZero() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("ok.yaml", Self.valid)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout == "\(file): valid, 1 step\n")
        #expect(outcome.stderr.isEmpty)
    }

    @Test func invalidFileExitsTwoWithLocatedDiagnostics() async throws {
        let scratch = try Scratch()
        let good = try scratch.write("good.yaml", Self.valid)
        let file = try scratch.write("deploy.yaml", Self.invalid)
        let outcome = try await FlowProcess.run(["validate", good, file])
        #expect(outcome.exitCode == 2)
        #expect(
            outcome.stderr == """
                \(file):6:13: error: step 'notify' needs unknown step 'uplod'
                    6 |     needs: [uplod]
                      |             ^~~~~
                hint: did you mean 'upload'?

                """
        )
        #expect(outcome.stdout == "\(good): valid, 1 step\n")
    }

    @Test func jsonFormatListsDiagnosticsOnStdout() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("deploy.yaml", Self.invalid)
        let missing = scratch.path("missing.yaml")
        let outcome = try await FlowProcess.run(["validate", "--format", "json", file, missing])
        #expect(outcome.exitCode == 2)
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]]
        )
        #expect(records.count == 2)
        #expect(records.first?["file"] as? String == file)
        #expect(records.first?["line"] as? Int == 6)
        #expect(records.first?["column"] as? Int == 13)
        #expect(records.first?["severity"] as? String == "error")
        #expect(records.first?["message"] as? String == "step 'notify' needs unknown step 'uplod'")
        #expect(records.first?["hint"] as? String == "did you mean 'upload'?")
        #expect(records.last?["message"] as? String == "cannot read '\(missing)': no such file")
        #expect(records.last?["line"] is NSNull)
        let firstRecord = "[\n  {\"file\": \"\(file)\", \"line\": 6, \"column\": 13, \"severity\": \"error\""
        #expect(outcome.stdout.hasPrefix(firstRecord), "keys in the documented order")
    }

    @Test func jsonFormatOfAValidFileIsAnEmptyArray() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("ok.yaml", Self.valid)
        let outcome = try await FlowProcess.run(["validate", "--format", "json", file])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout == "[]\n")
        #expect(outcome.stderr.isEmpty)
    }

    @Test func validateWithoutFilesIsAUsageError() async throws {
        let outcome = try await FlowProcess.run(["validate"])
        #expect(outcome.exitCode == 64)
    }

    static let planned = """
        version: 1
        inputs:
          base_url: { default: "http://127.0.0.1:PORT" }
          artifact: { type: file, required: true }
          retries: { type: number, default: 3 }
        env:
          STAGE: test
        defaults:
          http: { base-url: "${{ inputs.base_url }}" }
        steps:
          login:
            http:
              method: POST
              url: /login
              json: { user: demo, password: "${{ secrets.PASSWORD }}" }
            outputs:
              token: ${{ result.json.token }}
          users:
            needs: login
            http:
              url: "/api/users?stage=${{ env.STAGE }}&n=${{ inputs.retries }}"
              headers: { Authorization: "Bearer ${{ steps.login.outputs.token }}" }
          upload:
            needs: users
            upload: { file: "${{ inputs.artifact }}", url: /tus, protocol: tus, chunk-size: 100KiB }
          touch:
            needs: upload
            run: [touch, MARKER]
          versioned:
            http: { url: "/${{ format('v{0}-{1}', inputs.retries, env.STAGE) }}/${{ format('{0}', secrets.PASSWORD) }}" }
        """

    @Test func dryRunPrintsThePlanAndTouchesNothing() async throws {
        let scratch = try Scratch()
        let listener = try LoopbackListener()
        defer { listener.close() }
        let marker = scratch.path("marker")
        let artifact = scratch.path("artifact.bin")
        #expect(FileManager.default.createFile(atPath: artifact, contents: Data(count: 250_000)))
        let file = try scratch.write(
            "plan.yaml",
            Self.planned.replacingOccurrences(of: "PORT", with: "\(listener.port)")
                .replacingOccurrences(of: "MARKER", with: marker)
        )
        let outcome = try await FlowProcess.run(
            ["run", file, "--dry-run", "--input", "artifact=\(artifact)"],
            environment: ["FLOW_SECRET_PASSWORD": "hunter2"]
        )
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let base = "http://127.0.0.1:\(listener.port)"
        let plan = outcome.stdout
        #expect(plan.contains("5 steps in 4 waves, at most 16 at once"))
        #expect(plan.contains("wave 1:\n  login: POST \(base)/login\n"))
        #expect(plan.contains("versioned: GET \(base)/v3-test/<format('{0}', secrets.PASSWORD)>\n"))
        #expect(plan.contains(#"json {"password":"***","user":"demo"}"#))
        #expect(!plan.contains("hunter2"))
        #expect(plan.contains("users: GET \(base)/api/users?stage=test&n=3  (needs login)"))
        #expect(plan.contains("header Authorization: Bearer <steps.login.outputs.token>"))
        #expect(plan.contains("upload: upload tus POST+PATCH \(base)/tus  (needs users)"))
        #expect(plan.contains("file \(artifact) (250000 bytes): 3 chunks × 100KiB, last 45200B"))
        #expect(plan.contains("touch: run touch \(marker)  (needs upload)"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(listener.acceptedConnections() == 0)
    }

    /// The plan shown in Grammar.md's "Command line" section is what `flow` prints.
    @Test func grammarPlanExampleIsCurrent() async throws {
        let grammar = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Grammar.md")
        let lines = try String(contentsOf: grammar, encoding: .utf8).components(separatedBy: "\n")
        let intro = try #require(lines.firstIndex { $0.contains("`flow run plan.yaml --dry-run") })
        func block(_ fence: String, after start: Int) throws -> (text: String, end: Int) {
            let open = try #require(lines[start...].firstIndex { $0 == "  " + fence })
            let close = try #require(lines[(open + 1)...].firstIndex { $0 == "  ```" })
            let body = lines[(open + 1)..<close].map { String($0.dropFirst(min(2, $0.count))) }
            return (body.joined(separator: "\n") + "\n", close)
        }
        let workflow = try block("```yaml", after: intro)
        let plan = try block("```text", after: workflow.end)
        let scratch = try Scratch()
        let file = try scratch.write("plan.yaml", workflow.text)
        let report = scratch.path("report.pdf")
        #expect(FileManager.default.createFile(atPath: report, contents: Data(count: 1_048_576)))
        let outcome = try await FlowProcess.run(["run", file, "--dry-run", "--input", "artifact=\(report)"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.replacingOccurrences(of: scratch.folder.path + "/", with: "") == plan.text)
    }

    @Test func dryRunRejectsBadInputsNamingThem() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("plan.yaml", Self.planned.replacingOccurrences(of: "PORT", with: "9"))
        let missing = try await FlowProcess.run(["run", file, "--dry-run"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("error: input 'artifact' is required"))
        #expect(missing.stderr.contains("hint: pass --input artifact=PATH"))

        let wrong = try await FlowProcess.run([
            "run", file, "--dry-run", "--input", "artifact=\(scratch.path("nope.bin"))", "--input", "retries=many",
            "--input", "retires=2",
        ])
        #expect(wrong.exitCode == 2)
        #expect(wrong.stderr.contains("input 'artifact': file '\(scratch.path("nope.bin"))' does not exist"))
        #expect(wrong.stderr.contains("input 'retries' must be a number, not 'many'"))
        #expect(wrong.stderr.contains("error: unknown input 'retires'\nhint: did you mean 'retries'?"))
    }

    @Test func dryRunOfAnInvalidFileExitsTwo() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("deploy.yaml", Self.invalid)
        let outcome = try await FlowProcess.run(["run", file, "--dry-run"])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("needs unknown step 'uplod'"))
        #expect(outcome.stdout.isEmpty)
    }
}

/// A TCP listener on an ephemeral loopback port that never accepts on its own, so a test can
/// count the connections a command opened.
final class LoopbackListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let listening = try ListeningSocket(backlog: 16)
        _ = fcntl(listening.descriptor, F_SETFL, O_NONBLOCK)
        descriptor = listening.descriptor
        port = UInt16(listening.port)
    }

    /// How many connections are waiting to be accepted (each is accepted and closed).
    func acceptedConnections() -> Int {
        var count = 0
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 { return count }
            Glibc.close(client)
            count += 1
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
