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
                "ordered-import.yaml", "retry-and-timeouts.yaml", "build-and-publish.yaml",
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
