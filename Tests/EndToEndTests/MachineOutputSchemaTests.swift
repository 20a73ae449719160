import Foundation
import Testing

/// The JSON event stream and the JSON report, checked by an independent validator
/// (python-jsonschema, through `scripts/schema-check`) against the schemas in `schemas/`: every
/// line parses, numbers are numbers, and nothing is written that the schemas do not document.
@Suite struct MachineOutputSchemaTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every kind of event: a service's `ready`, output lines, a retry, upload progress, a skipped
    /// step, failures (one under `continue-on-error`), outputs of several JSON types, a `repeat` whose
    /// answer changes, the summary.
    private static let workflow = """
        version: 1
        services:
          sandbox:
            run: ["${{ flow.executable }}", sandbox, --port, "${{ services.sandbox.port }}"]
            ready: { http: "${{ services.sandbox.url }}/health" }
        defaults:
          http: { base-url: "${{ services.sandbox.url }}" }
        env:
          FILE: /tmp/flow-schema-upload-${{ services.sandbox.port }}.bin
        steps:
          flaky:
            http: { url: "/flaky/schema-${{ services.sandbox.port }}?fail=1" }
            retry: { attempts: 3, delay: 10ms }
            outputs:
              attempt: ${{ result.json.attempt }}
              body: ${{ result.json }}
              ok: ${{ result.json.ok }}
          talk:
            run: echo "hello \\"json\\""
            outputs: { text: "${{ result.stdout }}" }
          make-file:
            run: head -c 300000 /dev/zero > "$FILE"
          upload:
            needs: make-file
            upload: { file: "${{ env.FILE }}", url: /uploads/cr/schema, protocol: content-range, chunk-size: 100KiB }
          broken:
            needs: talk
            run: exit 3
            continue-on-error: true
          never:
            needs: missing-dependency-fails
            run: echo never
          missing-dependency-fails:
            run: exit 1
          poll:
            http: { url: "/status/${{ attempt > 1 && 200 || 202 }}" }
            repeat: { until: "${{ attempt >= 3 }}", every: 0s, max-attempts: 3 }
        """

    /// Runs `scripts/schema-check` on `file`; its output lists each violation.
    private func check(_ schema: String, _ file: String, lines: Bool) throws -> (status: Int32, output: String) {
        let schemaPath = Self.repository.appendingPathComponent("schemas/\(schema)").path
        return try FlowProcess.runToolBlocking(
            Self.repository.appendingPathComponent("scripts/schema-check"),
            (lines ? ["--lines"] : []) + [schemaPath, file])
    }

    @Test func theEventStreamAndTheReportMatchTheirSchemas() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-schema-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("all-events.yaml").path
        try Self.workflow.write(toFile: file, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.json").path
        let outcome = try await FlowProcess.run(["run", file, "--log-format", "json", "--report", "json", report])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        let events = folder.appendingPathComponent("events.jsonl").path
        try outcome.stdout.write(toFile: events, atomically: true, encoding: .utf8)
        for kind in ["ready", "started", "retry", "output", "progress", "finished", "summary", "repeat"] {
            #expect(outcome.stdout.contains(#""event":"\#(kind)""#), "no \(kind) event in:\n\(outcome.stdout)")
        }
        let streamCheck = try check("events.schema.json", events, lines: true)
        #expect(streamCheck.status == 0, "\(streamCheck.output)")
        let reportCheck = try check("report.schema.json", report, lines: false)
        #expect(reportCheck.status == 0, "\(reportCheck.output)")

        // Outputs keep their types in the report: not JSON text inside a string.
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let flaky = try #require(steps.first { $0["id"] as? String == "flaky" })
        let outputs = try #require(flaky["outputs"] as? [String: Any])
        #expect(outputs["attempt"] as? Int == 2)
        #expect(outputs["ok"] as? Bool == true)
        #expect((outputs["body"] as? [String: Any])?["ok"] as? Bool == true)
    }

    /// `flow runs --format json` and `flow runs show ID --format json` (schemas/runs.schema.json), on a
    /// journal with a failed run (items, errors, a secret marker, a transfer) and a succeeded one.
    @Test func theRunsListingAndARunMatchTheirSchema() async throws {
        let fixture = try RunsCommandTests.Fixture()
        defer { fixture.remove() }
        let list = try await FlowProcess.run(["runs", fixture.file, "--format", "json"])
        let show = try await FlowProcess.run(["runs", "show", fixture.failed, fixture.file, "--format", "json"])
        for (name, outcome) in [("list", list), ("show", show)] {
            #expect(outcome.exitCode == 0, "\(outcome.stderr)")
            let path = fixture.folder + "/\(name).json"
            try outcome.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try check("runs.schema.json", path, lines: false)
            #expect(result.status == 0, "\(name): \(result.output)")
        }
    }
}
