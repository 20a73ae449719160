import Foundation
import Testing

/// The local Argo harness (`scripts/argo-check run`, scripts/argo_controller.py) against Argo's
/// own expectations, and the exported workflows' defects it shows (issue 28).
@Suite(.serialized) struct ArgoHarnessConformanceTests {
    /// Eleven workflows of Argo v4.1.2's end-to-end tests, ten DAGs and an exit handler (listed
    /// with their files and Go tests in scripts/argo_conformance.py), run with their pods'
    /// commands here, give the workflow and node phases those Go tests assert.
    @Test func theHarnessGivesThePhasesArgosOwnTestsAssert() async throws {
        let outcome = try await ArgoExportTests.check(["conformance", "--quiet"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("11 of 11 cases give Argo's phases"), "\(outcome.stdout)")
    }

    /// Every rule of the harness's model of Argo cites the Go file it comes from as a path in
    /// argoproj/argo-workflows (`workflow/controller/dag.go`, not `dag.go`, which could be one of
    /// several), beside the function's name; only the model's plumbing is exempt, each with why
    /// (`scripts/argo_citations.py`).
    @Test func everyRuleOfTheHarnessCitesArgosCode() async throws {
        let outcome = try await ArgoExportTests.check(["citations"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("every rule of the harness cites Argo's code"), "\(outcome.stdout)")
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

    /// Grammar.md's `build → publish → notify (always)`: `build` fails, flow skips `publish` and
    /// runs `notify`, and `flow run` exits 1. Argo takes the DAG's phase from its leaves only, so
    /// the exported Workflow must end in a task that fails when a step failed: its phase is Failed.
    @Test func theWorkflowPhaseIsTheRunsOutcomeWhenAnAlwaysStepEndsIt() async throws {
        let scratch = try ArgoExportTests.Scratch()
        let file = try scratch.write(
            "notify.yaml",
            """
            version: 1
            steps:
              build: { run: exit 1 }
              publish: { needs: build, run: echo publish }
              notify: { needs: publish, if: "${{ always() }}", run: echo notify }
            """)
        let plain = try await FlowProcess.run(["run", file])
        #expect(plain.exitCode == 1, "\(plain.stdout)\(plain.stderr)")
        let export = try await FlowProcess.run(["export", "argo", file])
        #expect(export.exitCode == 0, "\(export.stderr)")
        let manifest = try scratch.write("notify.argo.yaml", export.stdout)
        let validated = try await ArgoExportTests.check(["validate", manifest])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
        let strict = try await ArgoExportTests.check(["schema", manifest])
        #expect(strict.exitCode == 0, "\(strict.stdout)\(strict.stderr)")
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
        ])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("\"phase\": \"Failed\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"notify\": \"Succeeded\""), "\(run.stdout)")
        #expect(run.stderr.contains("flow: task build Failed: the run failed"), "\(run.stderr.suffix(3000))")
    }

    /// A pod lost under a step (deleted or evicted: `--lose-pod`) errors its node with no outputs;
    /// its dependents are Omitted and the Workflow fails, as the run would.
    @Test func aLostPodFailsTheWorkflow() async throws {
        let scratch = try ArgoExportTests.Scratch()
        let file = try scratch.write(
            "lost.yaml",
            """
            version: 1
            steps:
              first: { run: sleep 2 }
              second: { needs: first, run: echo two }
            """)
        let export = try await FlowProcess.run(["export", "argo", file])
        #expect(export.exitCode == 0, "\(export.stderr)")
        let manifest = try scratch.write("lost.argo.yaml", export.stdout)
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
            "--lose-pod", "first",
        ])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr.suffix(3000))")
        for line in ["\"phase\": \"Failed\"", "\"first\": \"Error\"", "\"second\": \"Omitted\""] {
            #expect(run.stdout.contains(line), "\(run.stdout)")
        }
    }

    /// Exports `text` as `name`, runs it plainly and through the harness (with `harness` added to
    /// `argo-check run`'s arguments); returns `flow run`'s exit code and the harness's outcome.
    /// With `plain` false, `flow run` is left out (its exit code is then -1): for a workflow that a
    /// plain run would only wait through.
    static func bothWays(
        _ name: String, _ text: String, export: [String] = [], harness: [String] = [], plain runsPlainly: Bool = true
    ) async throws -> (plain: Int32, argo: FlowProcess.Outcome, manifest: String) {
        let scratch = try ArgoExportTests.Scratch()
        let file = try scratch.write(name, text)
        let plain =
            runsPlainly
            ? try await FlowProcess.run(["run", file]) : FlowProcess.Outcome(exitCode: -1, stdout: "", stderr: "")
        let exported = try await FlowProcess.run(["export", "argo", file] + export)
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        let manifest = try scratch.write(name + ".argo.yaml", exported.stdout)
        let validated = try await ArgoExportTests.check(["validate", manifest])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
        let strict = try await ArgoExportTests.check(["schema", manifest])
        #expect(strict.exitCode == 0, "\(strict.stdout)\(strict.stderr)")
        let run = try await ArgoExportTests.check(
            ["run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)"]
                + harness)
        return (plain.exitCode, run, exported.stdout)
    }

    /// Defect 2 of issue 28: a fail-fast `for-each` with a failed item used to fail its DAG
    /// template, which then has no outputs (Argo's dag.go executeDAG), so the `always()` step
    /// after it read `{{tasks.items.outputs.parameters.flow}}`, which Argo cannot resolve: it
    /// requeues forever (resolveDependencyReferences) and the Workflow stayed Running (the
    /// harness said "hung", exit 3). The step's DAG now succeeds whatever its items did
    /// (`continueOn`), hands on Argo's list of its succeeded items' records, and its items'
    /// phase as the output `status`: the report runs and the Workflow fails, as `flow run` does.
    @Test func aFailedFailFastForEachBeforeAnAlwaysStepFailsTheWorkflow() async throws {
        let (plain, run, manifest) = try await Self.bothWays(
            "hang.yaml",
            """
            version: 1
            steps:
              items:
                for-each: ${{ range(0, 3) }}
                concurrency: 1
                run: "test ${{ item }} != 1"
              report:
                needs: items
                if: ${{ always() }}
                run: echo report
                outputs: { items: "${{ steps.items.items }}" }
            """)
        #expect(plain == 1)
        #expect(!run.stdout.contains("hung"), "\(run.stdout)")
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("\"phase\": \"Failed\""), "\(run.stdout)")
        #expect(run.stdout.contains("\"report\": \"Succeeded\""), "\(run.stdout)")
        #expect(run.stderr.contains("flow: task items Failed: the run failed"), "\(run.stderr.suffix(3000))")
        // Every record parameter has a default flow reads as a failed step.
        #expect(manifest.contains("            default: \"{\\\"flow-outputs\\\":1,"), "\(manifest)")
    }

    /// Defect 9: Argo aggregates the records of succeeded item pods only, so a failed item's
    /// record is missing from what a dependent reads: flow reads that item as failed (not
    /// skipped), and a step none of whose items succeeded as failed, where Argo sets no
    /// `{{tasks.X.outputs.parameters.flow}}` at all (the `always()` step used to wait forever).
    @Test func aFailedItemReadsAsFailedFromArgosAggregate() async throws {
        let some = try await Self.bothWays(
            "some.yaml",
            """
            version: 1
            steps:
              items:
                for-each: ${{ range(0, 3) }}
                fail-fast: false
                run: "test ${{ item }} != 1"
              report:
                needs: items
                if: ${{ always() }}
                run: echo report
                outputs: { items: "${{ steps.items.items }}" }
            """)
        #expect(some.plain == 1)
        #expect(some.argo.exitCode == 1, "\(some.argo.stdout)\(some.argo.stderr.suffix(3000))")
        #expect(some.argo.stdout.contains("\"report\": \"Succeeded\""), "\(some.argo.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(some.argo.stdout.utf8)) as? [String: Any]
        let outputs = (report?["outputs"] as? [String: [String: String]])?["report"]?["flow"] ?? ""
        let records = try JSONSerialization.jsonObject(with: Data(outputs.utf8)) as? [String: Any]
        // What `report` read of `items` (a task's record holds its own step's records only).
        let own = ((records?["steps"] as? [String: Any])?["report"] as? [String: Any])?["outputs"] as? [String: Any]
        let items = own?["items"] as? [[String: Any]]
        #expect(items?.map { $0["status"] as? String } == ["succeeded", "failed", "succeeded"], "\(outputs)")

        let none = try await Self.bothWays(
            "none.yaml",
            """
            version: 1
            steps:
              items:
                for-each: ${{ range(0, 2) }}
                fail-fast: false
                run: exit 1
              report:
                needs: items
                if: ${{ always() }}
                run: echo report
                outputs: { read: "${{ steps.items.status }}" }
            """)
        #expect(none.plain == 1)
        #expect(!none.argo.stdout.contains("hung"), "\(none.argo.stdout)")
        #expect(none.argo.exitCode == 1, "\(none.argo.stdout)\(none.argo.stderr.suffix(3000))")
        #expect(none.argo.stdout.contains("\"report\": \"Succeeded\""), "\(none.argo.stdout)")
        #expect(none.argo.stdout.contains("\\\"read\\\":\\\"failed\\\""), "\(none.argo.stdout)")
    }

    /// A Workflow still running when its `activeDeadlineSeconds` (computed from the timeouts, or
    /// `--active-deadline`) passes is ended Failed: the backstop for whatever would keep it
    /// running (a pod lost before an `always()` step no longer does: see ArgoLostPodTests).
    @Test func theDeadlineBackstopEndsAWorkflowStillRunning() async throws {
        let text = """
            version: 1
            steps:
              first: { run: sleep 2, timeout: 30s }
              report: { needs: first, if: "${{ always() }}", run: echo report, timeout: 10s }
            """
        let scratch = try ArgoExportTests.Scratch()
        let computed = try await FlowProcess.run(["export", "argo", try scratch.write("backstop.yaml", text)])
        #expect(
            computed.stdout.contains("\n  activeDeadlineSeconds: 220\n"), "\(computed.stdout)\(computed.stderr)")
        // Only on the harness: a plain run would wait the 20 s out.
        let run = try await Self.bothWays(
            "slow.yaml", text.replacingOccurrences(of: "sleep 2", with: "sleep 20"),
            export: ["--active-deadline", "4"],
            plain: false)
        #expect(run.argo.exitCode == 1, "\(run.argo.stdout)\(run.argo.stderr.suffix(3000))")
        for line in ["\"phase\": \"Failed\"", "\"first\": \"Failed\"", "Step exceeded its deadline"] {
            #expect(run.argo.stdout.contains(line), "\(run.argo.stdout)")
        }
    }

    /// A service that exits before it is ready fails `flow run` (exit 1). On Argo its daemon
    /// task fails and the steps waiting for it are Omitted, which alone would leave the
    /// Workflow Succeeded (its leaf, `flow-outcome`, succeeds): `flow-outcome` reads the
    /// services' phases too, so the Workflow fails.
    @Test func aFailedServiceFailsTheWorkflow() async throws {
        let (plain, run, _) = try await Self.bothWays(
            "service.yaml",
            """
            version: 1
            services:
              broken: { run: "exit 3", timeout: 5s }
            steps:
              hello: { run: echo hello, timeout: 10s }
            """, export: ["--service-port", String(try freeLoopbackPort())])
        #expect(plain == 1)
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr.suffix(3000))")
        for line in ["\"phase\": \"Failed\"", "\"service-broken\": \"Failed\"", "\"hello\": \"Omitted\""] {
            #expect(run.stdout.contains(line), "\(run.stdout)")
        }
        #expect(
            run.stderr.contains("flow: task service-broken Failed: the run failed"), "\(run.stderr.suffix(3000))")
    }
}
