import FlowSandbox
import Foundation
import Testing

/// A failed `expect` shows the response it saw — status line, headers, the start of the body —
/// under the failure, in the terminal and in the reports, masked and escaped.
@Suite struct FailedExpectResponseTests {
    @Test func aFailedAssertionShowsTheResponseMaskedAndEscaped() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "failing.yaml",
            """
            version: 1
            steps:
              fetch:
                http:
                  url: "\(sandbox.baseURL)/response-headers"
                  query: { X-Token: "${{ secrets.TOKEN }}" }
                expect:
                  assert:
                    - result.status == 201
              echo:
                http:
                  method: POST
                  url: "\(sandbox.baseURL)/reflect/200"
                  body: "bell\\u0007here ${{ secrets.TOKEN }}"
                expect: { status: 201 }
            """)
        let report = scratch.folder.appendingPathComponent("report.json").path
        let junit = scratch.folder.appendingPathComponent("report.xml").path
        let outcome = try await FlowProcess.run(
            ["run", file, "--report", "json", report, "--report", "junit", junit],
            environment: ["FLOW_SECRET_TOKEN": "hunter2-secret"])
        #expect(outcome.exitCode != 0)
        let text = outcome.stdout + outcome.stderr
        #expect(!text.contains("hunter2-secret"), "\(text)")
        #expect(!text.contains("\u{7}"), "the bell reached the terminal")
        // The live line keeps the place at the end of the message's line; the response follows.
        #expect(text.contains("(result.status was 200) (\(file):9:11)\n< HTTP/1.1 200 OK\n"), "\(text)")
        #expect(text.contains("< X-Token: ***\n"), "\(text)")
        #expect(text.contains(#"< {"headers":[["X-Token","***"]]}"#), "\(text)")
        #expect(text.contains("expected status 201, got 200; the response began: bell"), "\(text)")
        #expect(text.contains(#"< bell\u{7}here ***"#), "\(text)")
        // The summary shows it under the snippet.
        #expect(text.contains("      |           ^\n    < HTTP/1.1 200 OK\n"), "\(text)")
        for path in [report, junit] {
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(
                written.contains("HTTP/1.1 200 OK\\n") || written.contains("HTTP/1.1 200 OK&#10;"),
                "\(path): \(written)")
            #expect(!written.contains("hunter2-secret"), "\(path): \(written)")
        }
    }
}
