import Foundation
import Testing

/// A run whose services do not start — one exits, one is never ready, or Ctrl-C comes while
/// flow waits for them — still writes every report it was asked for (an older report at the path
/// must not keep saying `succeeded`) and still runs its `always()` steps.
@Suite struct ServiceReportTests {
    /// Writes `yaml` and stale reports that say `succeeded` where the run is asked to write.
    private func prepare(_ scratch: ForEachCommandTests.Scratch, _ yaml: String) throws -> (
        file: String, args: [String]
    ) {
        let file = try scratch.write("services.yaml", yaml)
        var args = ["run", file]
        for (format, name) in [("json", "run.json"), ("junit", "run.xml"), ("html", "run.html")] {
            let path = try scratch.write(name, "stale: succeeded")
            args += ["--report", format, path]
        }
        return (file, args)
    }

    private func report(_ scratch: ForEachCommandTests.Scratch) throws -> [String: Any] {
        let data = try Data(contentsOf: scratch.folder.appendingPathComponent("run.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func states(_ report: [String: Any]) -> [String: String] {
        var states: [String: String] = [:]
        for step in report["steps"] as? [[String: Any]] ?? [] {
            if let id = step["id"] as? String { states[id] = step["state"] as? String }
        }
        return states
    }

    static let steps = """
        steps:
          hello: { run: echo hello }
          after: { needs: hello, run: echo after }
          cleanup:
            needs: after
            if: always()
            run: echo cleaned up
        """

    @Test(arguments: ["run: \"echo boom; exit 3\"", "run: \"echo still starting; sleep 30\"\n    timeout: 1s"])
    func aServiceThatDoesNotStartStillWritesEveryReportAndRunsAlwaysSteps(service: String) async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let (_, args) = try prepare(
            scratch,
            """
            version: 1
            services:
              broken:
                \(service)
            \(Self.steps)
            """)
        let outcome = try await FlowProcess.run(args)
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("[cleanup] | cleaned up"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("[hello] started"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("flow: failed — 1 succeeded, 0 failed, 2 skipped"), "\(outcome.stdout)")
        let json = try report(scratch)
        #expect(json["outcome"] as? String == "failed")
        #expect((json["setupError"] as? String)?.contains("service 'broken'") == true, "\(json)")
        #expect(states(json) == ["hello": "skipped", "after": "skipped", "cleanup": "succeeded"])
        let xml = try String(contentsOf: scratch.folder.appendingPathComponent("run.xml"), encoding: .utf8)
        #expect(xml.contains(#"tests="4" failures="1" errors="0" skipped="2""#), "\(xml)")
        #expect(xml.contains(#"<testcase name="services""#), "\(xml)")
        let html = try String(contentsOf: scratch.folder.appendingPathComponent("run.html"), encoding: .utf8)
        #expect(html.contains("outcome-failed"))
    }

    @Test func anInterruptWhileServicesStartWritesTheReportsAndRunsAlwaysSteps() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let marker = scratch.folder.appendingPathComponent("started").path
        let (_, args) = try prepare(
            scratch,
            """
            version: 1
            services:
              slow:
                run: "touch \(marker); exec sleep 60"
                timeout: 60s
            \(Self.steps)
            """)
        let output = scratch.folder.appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = FlowProcess.binary
        process.arguments = args
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: marker) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.fileExists(atPath: marker))
        kill(process.processIdentifier, SIGINT)
        for _ in 0..<500 where process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 130)
        let stdout = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(stdout.contains("[cleanup] | cleaned up"), "\(stdout)")
        let json = try report(scratch)
        #expect(json["outcome"] as? String == "cancelled")
        #expect(states(json) == ["hello": "cancelled", "after": "cancelled", "cleanup": "succeeded"])
        let xml = try String(contentsOf: scratch.folder.appendingPathComponent("run.xml"), encoding: .utf8)
        #expect(xml.contains(#"errors="2""#), "\(xml)")
    }
}
