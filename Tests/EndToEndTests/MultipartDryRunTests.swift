import FlowSandbox
import Foundation
import Testing

/// `--dry-run` of a multipart request with a query list: the URL as sent, every header, the parts
/// by name with file paths and sizes; and the run sends what the plan shows, reading the part's
/// file from the workflow file's folder.
@Suite struct MultipartDryRunTests {
    @Test func theDryRunShowsURLHeadersAndPartsAndTheRunSendsThem() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-mp-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "id,name\n1,a\n".write(
            to: folder.appendingPathComponent("data/report.csv"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("send.yaml").path
        try """
        version: 1
        defaults: { http: { base-url: "\(sandbox.baseURL)", headers: { X-Key: "${{ secrets.KEY }}" } } }
        steps:
          send:
            http:
              method: POST
              url: /multipart
              query: { tag: [a b, c], key: dry }
              multipart:
                kind: csv
                report: { file: data/report.csv, content-type: text/csv }
            expect:
              assert:
                - result.json.parts[1].size == 12
                - result.json.parts[1].filename == 'report.csv'
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["FLOW_SECRET_KEY": "k3y-value"]

        let plan = try await FlowProcess.run(["run", file, "--dry-run"], environment: environment)
        #expect(plan.exitCode == 0, "\(plan.stdout)\(plan.stderr)")
        let out = plan.stdout
        #expect(out.contains("send: POST \(sandbox.baseURL)/multipart?tag=a%20b&tag=c&key=dry"), "\(out)")
        #expect(out.contains("header X-Key: ***"), "\(out)")
        #expect(out.contains("header User-Agent: flow (libcurl/"), "\(out)")
        #expect(out.contains("header Content-Type: multipart/form-data; boundary=<chosen by libcurl>"), "\(out)")
        #expect(out.contains("part kind = csv"), "\(out)")
        #expect(
            out.contains(
                "part report from file \(folder.path)/data/report.csv, 12 bytes (filename report.csv, content-type text/csv)"
            ),
            "\(out)")
        #expect(!out.contains("k3y-value") && !out.contains("1,a"), "no secret, no file content: \(out)")
        #expect(sandbox.events().isEmpty, "a dry run sends nothing")

        let report = folder.appendingPathComponent("report.json")
        let run = try await FlowProcess.run(["run", file, "--report", "json", report.path], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let sent = try DryRunEqualsSentTests.sentRequests(report)
        let planned = DryRunEqualsSentTests.plannedRequests(out)
        let request = try #require(sent["send"])
        #expect(DryRunEqualsSentTests.matches(request, plan: try #require(planned["send"])), "\(request)")
    }
}
