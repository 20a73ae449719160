import Foundation
import Testing

/// A pod lost under an exported workflow (`scripts/argo-check run --lose-pod`: deleted or evicted
/// once it started, its node Errored with no outputs, as Argo's `podReconciliation` leaves it)
/// ends the Workflow with `flow run`'s outcome, promptly: the steps that run after failures
/// read the lost step as failed (issue 28), and a `continue-on-error` step's loss counts as its
/// failure does in `flow run`.
@Suite(.serialized) struct ArgoLostPodTests {
    typealias Scratch = ArgoExportTests.Scratch

    /// Exports `text` (checked against Argo's models and CRD schema), runs its DAG in the harness
    /// with task `lose`'s pod lost, and returns the harness's exit code and report. `--deadline`
    /// makes the harness report a Workflow that still runs after 30 s as hung (exit 3).
    static func runLosing(_ lose: String, _ text: String, scratch: Scratch) async throws
        -> (exitCode: Int32, report: [String: Any], output: String)
    {
        let export = try await ArgoMappingTests.exported(scratch, "lost.yaml", text)
        let manifest = try scratch.write("lost.argo.yaml", export.stdout)
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
            "--lose-pod", lose, "--deadline", "30",
        ])
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (run.exitCode, report, run.stdout + run.stderr.suffix(3000))
    }

    /// The status flow recorded for step `id` in the record task `task` left (its `flow` output).
    static func recordedStatus(_ report: [String: Any], task: String, step: String) -> String? {
        guard let outputs = report["outputs"] as? [String: Any], let parameters = outputs[task] as? [String: Any],
            let text = parameters["flow"] as? String,
            let record = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let steps = record["steps"] as? [String: Any], let own = steps[step] as? [String: Any]
        else { return nil }
        return own["status"] as? String
    }

    /// A lost pod upstream of a `failure()` step: that step runs at once, reading the lost step
    /// as failed (its need's record falls back to the lost record when the task has no outputs),
    /// and the Workflow fails as `flow run` exits 1 when that step fails — not left requeued
    /// until `activeDeadlineSeconds` (here the computed 260 s) ends it.
    @Test func aStepAfterFailuresRunsPromptlyAfterALostPod() async throws {
        let scratch = try Scratch()
        let workflow = """
            version: 1
            steps:
              build: { run: "sleep 5", timeout: 60s }
              report: { needs: build, if: "${{ failure() }}", run: echo reporting, timeout: 10s }
            """
        let run = try await Self.runLosing("build", workflow, scratch: scratch)
        #expect(run.exitCode == 1, "\(run.output)")
        #expect(run.report["phase"] as? String == "Failed", "\(run.output)")
        #expect(run.report["hung"] == nil, "\(run.output)")
        let nodes = run.report["nodes"] as? [String: String] ?? [:]
        #expect(nodes["build"] == "Error", "\(nodes)")
        #expect(nodes["report"] == "Succeeded", "\(nodes)")
        #expect(Self.recordedStatus(run.report, task: "report", step: "report") == "succeeded", "\(run.output)")
        #expect(Self.recordedStatus(run.report, task: "report", step: "build") == "failed", "\(run.output)")

        // `flow run` where `build` fails: `report` runs and the run exits 1.
        let failing = try scratch.write("failing.yaml", workflow.replacingOccurrences(of: "sleep 5", with: "exit 1"))
        let plain = try await FlowProcess.run(["run", failing])
        #expect(plain.exitCode == 1, "\(plain.stdout)\(plain.stderr)")
        #expect(plain.stdout.contains("reporting") || plain.stderr.contains("reporting"), "\(plain.stdout)")
    }

    /// A lost pod of a `continue-on-error` step counts as that step's failure counts in
    /// `flow run`: the run goes on (its dependent runs, reading the step as failed with its
    /// failure ignored) and the Workflow succeeds as `flow run` exits 0.
    @Test func aLostContinueOnErrorStepLetsTheRunGoOnAsFlowRunDoes() async throws {
        let scratch = try Scratch()
        let workflow = """
            version: 1
            steps:
              flaky: { run: "sleep 5", continue-on-error: true, timeout: 60s }
              after: { needs: flaky, run: echo after, timeout: 10s }
            """
        let run = try await Self.runLosing("flaky", workflow, scratch: scratch)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.report["phase"] as? String == "Succeeded", "\(run.output)")
        let nodes = run.report["nodes"] as? [String: String] ?? [:]
        #expect(nodes["flaky"] == "Error", "\(nodes)")
        #expect(nodes["after"] == "Succeeded", "\(nodes)")
        #expect(Self.recordedStatus(run.report, task: "after", step: "after") == "succeeded", "\(run.output)")

        // `flow run` where `flaky` fails: `after` runs and the run exits 0.
        let failing = try scratch.write("failing.yaml", workflow.replacingOccurrences(of: "sleep 5", with: "exit 1"))
        let plain = try await FlowProcess.run(["run", failing])
        #expect(plain.exitCode == 0, "\(plain.stdout)\(plain.stderr)")
    }
}
