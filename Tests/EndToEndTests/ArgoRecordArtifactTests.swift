import Foundation
import Testing

/// Records that can pass Argo's size limits go through an artifact repository instead of
/// parameters (issue 28, defect 5c): a fanned-out step whose items are counted only in the run
/// (or number 100 or more) saves one key-only artifact per item under a common key, which its
/// dependents read as a folder (Argo aggregates no artifacts of an expanded task's children), and
/// a step running such a `for-each` in its one pod saves its records as an output artifact, read
/// with `from: "{{tasks.X.outputs.artifacts.records}}"`. The harness keeps the repository in a
/// local folder, saves output artifacts when a pod's container ends and loads input artifacts
/// before it starts, as Argo's executor does; a lost record still reads as a failed need.
@Suite(.serialized) struct ArgoRecordArtifactTests {
    typealias Scratch = ArgoExportTests.Scratch

    static let workflow = """
        version: 1
        steps:
          list: { run: "echo '[1, 2, 3]'", outputs: { ids: "${{ fromJSON(result.stdout) }}" }, timeout: 10s }
          fan:
            needs: list
            for-each: ${{ steps.list.outputs.ids }}
            run: "sleep 1; echo item-${{ item }}"
            outputs: { text: "${{ result.stdout }}" }
            timeout: 10s
          race:
            needs: list
            for-each: ${{ steps.list.outputs.ids }}
            parallel: any
            run: "echo first-${{ item }}"
            outputs: { text: "${{ result.stdout }}" }
            timeout: 10s
          after:
            needs: [fan, race]
            run: echo after
            outputs: { texts: "${{ steps.fan.outputs.text }}", first: "${{ steps.race.outputs.text }}" }
            timeout: 10s
          report:
            needs: [fan, race]
            if: "${{ always() }}"
            run: echo report
            outputs: { fan: "${{ steps.fan.status }}", race: "${{ steps.race.status }}" }
            timeout: 10s
        """

    /// Runs `manifest` in the harness with the artifact repository in `repository`.
    static func run(_ manifest: String, scratch: Scratch, repository: String, lose: [String] = []) async throws
        -> (exitCode: Int32, report: [String: Any], output: String)
    {
        let run = try await ArgoExportTests.check(
            [
                "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
                "--artifact-repository", repository, "--deadline", "60",
            ] + lose.flatMap { ["--lose-pod", $0] })
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (run.exitCode, report, run.stdout + run.stderr.suffix(3000))
    }

    /// The outputs flow recorded for step `step` in the record task `task` left.
    static func outputs(_ report: [String: Any], task: String, step: String) -> [String: Any] {
        ArgoRecordSizeTests.recorded(report, task: task)[step]?["outputs"] as? [String: Any] ?? [:]
    }

    /// The item pods save their records under one key, the race step's pod its record as an
    /// output artifact; the dependents read them as `flow run` would (every item's output in
    /// order, the race's winner), through a repository named by `--artifact-repository`
    /// (`spec.artifactRepositoryRef`), and nothing of them passes as a parameter.
    @Test func largeRecordsGoThroughTheArtifactRepository() async throws {
        let scratch = try Scratch()
        let export = try await ArgoMappingTests.exported(
            scratch, "big.yaml", Self.workflow, ["--artifact-repository", "flow-artifacts:records"])
        let manifest = export.stdout
        #expect(
            manifest.contains("  artifactRepositoryRef:\n    configMap: \"flow-artifacts\"\n    key: \"records\"\n"))
        #expect(manifest.contains("key: \"{{workflow.name}}/flow-records/fan/{{inputs.parameters.index}}.json\""))
        #expect(manifest.contains("key: \"{{workflow.name}}/flow-records/fan\"\n"), "\(manifest)")
        #expect(manifest.contains("from: \"{{tasks.race.outputs.artifacts.records}}\""), "\(manifest)")
        #expect(!manifest.contains("{{tasks.fan.outputs.parameters}}"), "\(manifest)")
        #expect(!manifest.contains("tasks['race']?.outputs?.parameters?.flow"), "\(manifest)")

        let repository = scratch.path("repository")
        let run = try await Self.run(scratch.path("big.yaml.argo.yaml"), scratch: scratch, repository: repository)
        let plain = try await FlowProcess.run(["run", scratch.path("big.yaml")])
        #expect(plain.exitCode == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.report["phase"] as? String == "Succeeded", "\(run.output)")
        let after = Self.outputs(run.report, task: "after", step: "after")
        #expect(after["texts"] as? [String] == ["item-1", "item-2", "item-3"], "\(run.output)")
        let winners = (after["first"] as? [Any] ?? []).compactMap { $0 as? String }
        #expect(winners.count == 1 && winners[0].hasPrefix("first-"), "\(run.output)")
        // The repository holds each item's record under the step's key, and the race's record.
        let saved = FileManager.default.enumerator(atPath: repository)?.allObjects as? [String] ?? []
        for index in 0..<3 {
            #expect(saved.contains { $0.hasSuffix("flow-records/fan/\(index).json") }, "\(saved)")
        }
        #expect(saved.contains { $0.hasSuffix("/outputs.json") }, "\(saved)")
        #expect((run.report["artifacts"] as? [String: Any])?["race"] != nil, "\(run.output)")

        // Without the flag: Argo's default repository, and a warning naming the steps; with
        // `none`, records stay parameters.
        let standard = try await ArgoMappingTests.export(scratch.path("big.yaml"), [])
        #expect(!standard.stdout.contains("artifactRepositoryRef"), "\(standard.stdout)")
        #expect(standard.stderr.contains("the records of steps 'fan', 'race' can pass Argo's size limits"))
        let none = try await ArgoMappingTests.export(scratch.path("big.yaml"), ["--artifact-repository", "none"])
        #expect(!none.stdout.contains("artifacts.records") && !none.stdout.contains("flow-records"))
        #expect(none.stdout.contains("{{tasks.fan.outputs.parameters}}"), "\(none.stdout)")
        let bad = try await ArgoMappingTests.export(scratch.path("big.yaml"), ["--artifact-repository", "a:b:c/d"])
        #expect(bad.exitCode == 2 && bad.stderr.contains("--artifact-repository a:b:c/d: expected"), "\(bad.stderr)")
    }

    /// A record that never reached the repository reads as a failed need, promptly: with every
    /// item pod of `fan` lost, and with the pod of `race` lost, nothing is saved; the optional
    /// input artifacts are left out (the folder key holds nothing; `from` cannot be resolved),
    /// `report` runs and reads the lost step as failed, `after` is skipped, and the Workflow
    /// fails as `flow run` does when that step fails.
    @Test func aLostRecordReadsAsAFailedNeed() async throws {
        let scratch = try Scratch()
        _ = try await ArgoMappingTests.exported(scratch, "big.yaml", Self.workflow)
        for lost in ["fan", "race"] {
            let repository = scratch.path("repository-\(lost)")
            let run = try await Self.run(
                scratch.path("big.yaml.argo.yaml"), scratch: scratch, repository: repository, lose: [lost])
            #expect(run.exitCode == 1, "\(lost): \(run.output)")
            #expect(run.report["phase"] as? String == "Failed", "\(lost): \(run.output)")
            #expect(run.report["hung"] == nil, "\(lost): \(run.output)")
            let report = Self.outputs(run.report, task: "report", step: "report")
            #expect(report[lost] as? String == "failed", "\(lost): \(run.output)")
            #expect(report[lost == "fan" ? "race" : "fan"] as? String == "succeeded", "\(lost): \(run.output)")
            // `after` needs both without a status function: flow skips it when the fan step's
            // items were lost (its task, whose DAG continues on failed items, succeeds); Argo omits
            // it when the race step's own pod was lost.
            if lost == "fan" {
                let after = ArgoRecordSizeTests.recorded(run.report, task: "after")
                #expect(after["after"]?["status"] as? String == "skipped", "\(lost): \(run.output)")
            } else {
                #expect((run.report["nodes"] as? [String: String])?["after"] == "Omitted", "\(run.output)")
            }
        }
        let failing = try scratch.write(
            "failing.yaml", Self.workflow.replacingOccurrences(of: "echo first-${{ item }}", with: "exit 1"))
        let plain = try await FlowProcess.run(["run", failing])
        #expect(plain.exitCode == 1, "\(plain.stdout)\(plain.stderr)")
    }

    /// The harness's artifact rules, on a manifest written by hand: an output artifact is saved
    /// from the pod's path when its container ends, under the repository's key format; a
    /// dependent's non-optional input artifact whose key holds nothing fails its pod before it
    /// starts (Argo's init container: the node is `Error`), an optional one is left out.
    @Test func theHarnessSavesAndLoadsArtifactsAsArgosExecutorDoes() async throws {
        let scratch = try Scratch()
        let manifest = try scratch.write(
            "artifacts.argo.yaml",
            """
            apiVersion: argoproj.io/v1alpha1
            kind: Workflow
            metadata: { generateName: artifacts- }
            spec:
              entrypoint: main
              templates:
                - name: main
                  dag:
                    tasks:
                      - { name: make, template: make }
                      - name: read
                        depends: make
                        template: read
                        arguments: { artifacts: [ { name: file, from: "{{tasks.make.outputs.artifacts.file}}" } ] }
                      - { name: missing, depends: make, template: missing }
                      - { name: optional, depends: make, template: optional }
                - name: make
                  container: { image: alpine, command: [sh, -c, "echo made > /tmp/made.txt"] }
                  outputs: { artifacts: [ { name: file, path: /tmp/made.txt } ] }
                - name: read
                  inputs: { artifacts: [ { name: file, path: /tmp/in.txt } ] }
                  container: { image: alpine, command: [sh, -c, "grep -q made /tmp/in.txt"] }
                - name: missing
                  inputs: { artifacts: [ { name: file, path: /tmp/in.txt, s3: { key: nothing/here } } ] }
                  container: { image: alpine, command: [sh, -c, "true"] }
                - name: optional
                  inputs: { artifacts: [ { name: file, path: /tmp/in.txt, optional: true, s3: { key: nothing/here } } ] }
                  container: { image: alpine, command: [sh, -c, "test ! -e /tmp/in.txt"] }
            """)
        let repository = scratch.path("repository")
        let run = try await Self.run(manifest, scratch: scratch, repository: repository)
        let nodes = run.report["nodes"] as? [String: String] ?? [:]
        #expect(nodes["make"] == "Succeeded" && nodes["read"] == "Succeeded", "\(run.output)")
        #expect(nodes["missing"] == "Error" && nodes["optional"] == "Succeeded", "\(run.output)")
        #expect(run.report["phase"] as? String == "Error", "\(run.output)")
        let key = ((run.report["artifacts"] as? [String: Any])?["make"] as? [String: String])?["file"] ?? ""
        #expect(key.hasPrefix("artifacts/") && key.hasSuffix("/file.tgz"), "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: repository + "/" + key), "\(run.output)")
    }

    /// Records saved as artifacts leave the bucket with the Workflow (`spec.artifactGC`): by
    /// default `OnWorkflowDeletion`, so they stay while the Workflow exists and go when it is
    /// deleted; `--artifact-gc OnWorkflowCompletion` deletes them when it ends, `Never` keeps
    /// them, the overlay's `spec.artifactGC` wins over the flag; nothing is set when no record
    /// goes by artifact; another strategy is exit 2. The harness collects them as Argo's
    /// controller does (`artifact_gc.go`).
    @Test func savedRecordsAreCollectedWithTheWorkflow() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("big.yaml", Self.workflow)
        func files(_ folder: String) -> [String] {
            (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter {
                $0.hasSuffix(".json")
            }
        }
        let cases: [(flag: [String], delete: Bool, strategy: String, left: Bool)] = [
            ([], false, "OnWorkflowDeletion", true), ([], true, "OnWorkflowDeletion", false),
            (["--artifact-gc", "OnWorkflowCompletion"], false, "OnWorkflowCompletion", false),
            (["--artifact-gc", "Never"], true, "Never", true),
        ]
        for (index, example) in cases.enumerated() {
            let name = "gc-\(index).yaml"
            let export = try await ArgoMappingTests.exported(scratch, name, Self.workflow, example.flag)
            #expect(
                export.stdout.contains("  artifactGC:\n    strategy: \"\(example.strategy)\"\n"), "\(export.stdout)")
            let repository = scratch.path("repository-\(index)")
            let run = try await ArgoExportTests.check(
                [
                    "run", scratch.path(name + ".argo.yaml"), "--flow", FlowProcess.binary.path, "--mount",
                    "workflow=\(scratch.folder.path)", "--artifact-repository", repository, "--deadline", "60",
                ] + (example.delete ? ["--delete-workflow"] : []))
            let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
            #expect(run.exitCode == 0, "\(example): \(run.stdout)\(run.stderr.suffix(3000))")
            let collected = report["artifact-gc"] as? [String: [String]] ?? [:]
            #expect(files(repository).isEmpty != example.left, "\(example): \(files(repository))")
            #expect((collected["deleted"] ?? []).isEmpty == example.left, "\(example): \(collected)")
            #expect((collected["kept"] ?? []).isEmpty != example.left, "\(example): \(collected)")
        }
        let overlay = try scratch.write(
            "overlay.yaml", "spec: { artifactGC: { strategy: Never, forceFinalizerRemoval: true } }\n")
        let overlaid = try await ArgoMappingTests.exported(
            scratch, "gc-overlay.yaml", Self.workflow, ["--artifact-gc", "OnWorkflowCompletion", "--overlay", overlay])
        #expect(
            overlaid.stdout.contains("strategy: \"Never\"") && overlaid.stdout.contains("forceFinalizerRemoval: true"))
        let none = try await ArgoMappingTests.export(file, ["--artifact-repository", "none"])
        #expect(none.exitCode == 0 && !none.stdout.contains("artifactGC"), "\(none.stdout)")
        let bad = try await ArgoMappingTests.export(file, ["--artifact-gc", "Sometimes"])
        #expect(
            bad.exitCode == 2
                && bad.stderr.contains(
                    "--artifact-gc Sometimes: expected OnWorkflowDeletion, OnWorkflowCompletion, Never"),
            "\(bad.stderr)")
    }

    /// The export's own `OnWorkflowDeletion` default warns, once, that the Workflow's service
    /// account needs Argo's artifact-GC permissions or a deleted Workflow stays on its finalizer;
    /// `--artifact-gc` or the overlay's `spec.artifactGC` silences it, and a manifest without
    /// artifact records has none.
    @Test func theDefaultCollectionWarnsAboutItsPermissions() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("big.yaml", Self.workflow)
        let warning = "warning: records saved as artifacts are deleted with the Workflow"
        let defaulted = try await ArgoMappingTests.export(file)
        #expect(defaulted.exitCode == 0, "\(defaulted.stderr)")
        #expect(defaulted.stderr.components(separatedBy: warning).count == 2, "\(defaulted.stderr)")
        for needed in [
            "workflowartifactgctasks", "workflows.argoproj.io/artifact-gc", "--artifact-gc OnWorkflowCompletion|Never",
            "docs/walk-through/artifacts.md",
        ] {
            #expect(defaulted.stderr.contains(needed), "\(needed): \(defaulted.stderr)")
        }
        let overlay = try scratch.write("overlay.yaml", "spec: { artifactGC: { strategy: OnWorkflowDeletion } }\n")
        let silenced: [[String]] = [
            ["--artifact-gc", "OnWorkflowDeletion"], ["--artifact-gc", "Never"], ["--overlay", overlay],
            ["--artifact-repository", "none"],
        ]
        for arguments in silenced {
            let outcome = try await ArgoMappingTests.export(file, arguments)
            #expect(outcome.exitCode == 0 && !outcome.stderr.contains(warning), "\(arguments): \(outcome.stderr)")
        }
        let small = try scratch.write("small.yaml", "version: 1\nsteps:\n  a: { run: echo a, timeout: 10s }\n")
        let plain = try await ArgoMappingTests.export(small)
        #expect(plain.exitCode == 0 && !plain.stderr.contains(warning), "\(plain.stderr)")
    }
}
