import Foundation
import Testing

/// The local Argo harness (`scripts/argo-check run`, scripts/argo_controller.py) against Argo's
/// own expectations, and the exported workflows' defects it shows (issue 28).
@Suite(.serialized) struct ArgoHarnessConformanceTests {
    /// Ten DAG workflows of Argo v4.1.2's end-to-end tests (listed with their files and Go tests in
    /// scripts/argo_conformance.py), run with their pods' commands here, give the workflow and
    /// node phases those Go tests assert.
    @Test func theHarnessGivesThePhasesArgosOwnTestsAssert() async throws {
        let outcome = try await ArgoExportTests.check(["conformance", "--quiet"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("10 of 10 cases give Argo's phases"), "\(outcome.stdout)")
    }

    /// A root task has no `/tmp/flow` in its pod unless the manifest mounts one: the exported
    /// manifest mounts an emptyDir there, and flow makes the folder of `--outputs-to` itself.
    @Test func aRootTaskWritesItsRecordsInAPodOfItsOwn() async throws {
        let scratch = try ArgoExportTests.Scratch()
        let file = try scratch.write(
            "root.yaml",
            """
            version: 1
            steps:
              first: { run: echo one }
              second: { needs: first, run: echo two }
            """)
        let missing = scratch.path("not-yet/outputs.json")
        let only = try await FlowProcess.run(["run", file, "--only", "first", "--outputs-to", missing])
        #expect(only.exitCode == 0, "\(only.stdout)\(only.stderr)")
        #expect(FileManager.default.fileExists(atPath: missing))
        let export = try await FlowProcess.run(["export", "argo", file])
        #expect(export.exitCode == 0, "\(export.stderr)")
        #expect(export.stdout.contains("    - name: \"records\"\n      emptyDir: {}\n"), "\(export.stdout)")
        let manifest = try scratch.write("root.argo.yaml", export.stdout)
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("\"phase\": \"Succeeded\""), "\(run.stdout)")
    }
}
