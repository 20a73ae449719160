import Foundation
import Testing

/// Every workflow in `workflows/` validates cleanly and runs to success, as a user would run it:
/// each starts `flow sandbox` as a service, so nothing else needs to be running.
@Suite(.serialized) struct WorkflowExamplesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("workflows")

    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".yaml") }.sorted()

    @Test func theExamplesAreAllThere() {
        #expect(
            Set(Self.files).isSuperset(of: [
                "demo.yaml", "sequence-then-upload.yaml", "race-then-all.yaml", "two-parallel-requests.yaml",
                "ordered-import.yaml", "retry-and-timeouts.yaml", "build-and-publish.yaml", "poll-and-paginate.yaml",
                "for-each.yaml", "uses.yaml", "download.yaml", "multipart-form.yaml", "https-multipart-download.yaml",
            ]))
    }

    @Test(arguments: files) func validatesWithoutWarnings(_ name: String) async throws {
        let outcome = try await FlowProcess.run(["validate", Self.folder.appendingPathComponent(name).path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!outcome.stderr.contains("warning"), "\(outcome.stderr)")
    }

    /// Files in `workflows/lib/` are called by other examples (`uses`) and may need inputs only a
    /// caller gives: each validates on its own and runs through its caller.
    static let libraryFiles: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("lib").path)) ?? [])
        .filter { $0.hasSuffix(".yaml") }.sorted()

    @Test(arguments: libraryFiles) func libraryFileValidatesWithoutWarnings(_ name: String) async throws {
        let path = Self.folder.appendingPathComponent("lib").appendingPathComponent(name).path
        let outcome = try await FlowProcess.run(["validate", path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!outcome.stderr.contains("warning"), "\(outcome.stderr)")
    }

    @Test func theUsesExampleRunsItsLibraryFilesAsSteps() async throws {
        let outcome = try await FlowProcess.run(["run", Self.folder.appendingPathComponent("uses.yaml").path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("[deploy-eu/announce/post] succeeded"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("[deploy-us/package] | packaging 1 replica(s) for us"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("[report] | eu at http://127.0.0.1:"), "\(outcome.stdout)")
    }

    @Test(arguments: files) func runsToSuccess(_ name: String) async throws {
        // The demo logs in with a secret, as `make demo` provides it.
        let outcome = try await FlowProcess.run(
            ["run", Self.folder.appendingPathComponent(name).path], environment: ["FLOW_SECRET_PASSWORD": "s3cret"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("flow: succeeded"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("s3cret"), "the secret is masked")
    }

    @Test func thePollingExampleShowsItsRepetitions() async throws {
        let file = Self.folder.appendingPathComponent("poll-and-paginate.yaml").path
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("flow-repeat-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let outcome = try await FlowProcess.run(["run", file, "--report", "json", report.path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let steps = json?["steps"] as? [[String: Any]] ?? []
        let waitJob = try #require(steps.first { $0["id"] as? String == "wait-job" })
        #expect(waitJob["repetitions"] as? Int == 4)
        #expect(
            (waitJob["request"] as? String)?.hasSuffix("?poll=4") == true, "outputs and reports read the last attempt")
        #expect(steps.first { $0["id"] as? String == "submit" }?["repetitions"] == nil)
        let out = outcome.stdout
        #expect(out.contains("[report] | job ok-1 after 4 polls; 10 items"), "\(out)")
        #expect(out.contains("[wait-job] repeat 2/20"))
        #expect(out.contains("[wait-job] succeeded in ") && out.contains("s (repeat 4/20)"))
        #expect(out.contains("↻ wait-job: repeat 4/20"))
        #expect(out.contains("↻ all-items: repeat 3/60"))
        let plan = try await FlowProcess.run(["run", "--dry-run", file])
        #expect(plan.exitCode == 0, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("/jobs/<steps.submit.outputs.id>?poll=1"), "\(plan.stdout)")
        #expect(plan.stdout.contains("/pages?per-page=4&count=10"))
        #expect(
            plan.stdout.contains(
                "      repeat until result.json.state == 'done', every 200ms, at most 20 attempts (first attempt shown)"
            ))
        #expect(
            plan.stdout.contains(
                "      repeat while result.json.next != null, every 0s, at most 60 attempts (first attempt shown); collect items"
            ))
    }

    @Test func jsonEventsCountTheRepetitions() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-repeat-\(UUID()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        version: 1
        steps:
          tick:
            sleep: 0s
            repeat: { until: "${{ attempt == 3 }}", every: 0s, max-attempts: 5 }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path, "--log-format", "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let events = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
        let repeats = events.filter { $0.contains("\"event\":\"repeat\"") }
        #expect(repeats.count == 2, "\(outcome.stdout)")
        #expect(
            repeats.last?.hasPrefix("{\"attempt\":3,\"event\":\"repeat\",\"max-attempts\":5,\"step\":\"tick\"")
                == true)
        #expect(events.contains { $0.contains("\"event\":\"finished\"") && $0.contains("\"repetitions\":3") })
    }

    @Test func theDemoShowsWhatItPromises() async throws {
        let outcome = try await FlowProcess.run(
            ["run", Self.folder.appendingPathComponent("demo.yaml").path],
            environment: ["FLOW_SECRET_PASSWORD": "s3cret"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let out = outcome.stdout
        #expect(out.contains("service sandbox ready on http://127.0.0.1:"))
        #expect(out.contains("[eu] failed"), "the fastest mirror fails")
        #expect(out.contains("[ap] cancelled"), "the slowest mirror is cancelled once `us` wins")
        #expect(out.contains("(mirror us won)"))
        #expect(out.contains("[upload] | the server holds"), "the upload resumed after the drop")
        #expect(out.contains("[upload] attempt 2"))
        // Progress in plain logs: a line a second with percentage, rate and time left, and the last one.
        #expect(out.contains("[upload] 2.9 MiB / 2.9 MiB (100%)"))
        #expect(out.contains("/s  ETA "), "the upload takes over a second (the sandbox paces it), so a line with ETA")
        #expect(out.contains("[cleanup] succeeded"))
        // users and reports both finished before the import started.
        let lines = out.split(separator: "\n").map(String.init)
        let importStart = lines.firstIndex { $0.contains("[import] started") } ?? -1
        let users = lines.firstIndex { $0.contains("[users] succeeded") } ?? Int.max
        let reports = lines.firstIndex { $0.contains("[reports] succeeded") } ?? Int.max
        #expect(users < importStart && reports < importStart)
    }
}
