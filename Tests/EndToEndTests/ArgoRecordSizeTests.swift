import Foundation
import Testing

/// What an exported workflow passes between its pods stays the size of what each step reads
/// (issue 28, defect 5): a task's record holds its own step's records (and which steps upstream
/// failed), and a task is given its needs' records and those of the steps its expressions read.
@Suite(.serialized) struct ArgoRecordSizeTests {
    typealias Scratch = ArgoExportTests.Scratch

    /// Exports `text`, runs its DAG in the harness and runs it with `flow run`.
    static func bothWays(_ text: String, scratch: Scratch) async throws
        -> (plain: FlowProcess.Outcome, exitCode: Int32, report: [String: Any], output: String)
    {
        let file = try scratch.write("records.yaml", text)
        let plain = try await FlowProcess.run(["run", file])
        let export = try await ArgoMappingTests.exported(scratch, "records.yaml", text)
        let manifest = try scratch.write("records.argo.yaml", export.stdout)
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
            "--deadline", "60",
        ])
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        return (plain, run.exitCode, report, run.stdout + run.stderr.suffix(3000))
    }

    /// Runs `file` with `flow run --input INPUT` (its JSON report kept) and its exported
    /// `manifest` in the harness with the same parameter (and `secret` as `KEY`, and
    /// `harnessArguments`). Checks that both exit with `exit`, that the Workflow's phase agrees,
    /// that the secret shows in neither, and that step `report` sees the same in both; returns
    /// what it saw, with the harness's report and output for further checks.
    static func comparedRuns(
        _ scratch: Scratch, file: String, manifest: String, input: String, exit: Int32, _ label: String,
        secret: String? = nil, harnessArguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (seen: String?, report: [String: Any], output: String) {
        let json = scratch.path("plain.json")
        let plain = try await FlowProcess.run(
            ["run", file, "--input", input, "--report", "json", json],
            environment: secret.map { ["FLOW_SECRET_KEY": $0] } ?? [:])
        #expect(plain.exitCode == exit, "\(label): \(plain.stdout)\(plain.stderr)", sourceLocation: sourceLocation)
        let run = try await ArgoExportTests.check(
            [
                "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
                "--parameter", input, "--deadline", "60",
            ] + (secret.map { ["--secret", "KEY=\($0)"] } ?? []) + harnessArguments)
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        let output = run.stdout + run.stderr.suffix(3000)
        #expect(run.exitCode == exit, "\(label): \(output)", sourceLocation: sourceLocation)
        #expect(
            report["phase"] as? String == (exit == 0 ? "Succeeded" : "Failed"), "\(output)",
            sourceLocation: sourceLocation)
        if let secret {
            #expect(
                !run.stdout.contains(secret) && !run.stderr.contains(secret), "\(label)", sourceLocation: sourceLocation
            )
        }
        let seen = ArgoItemSizeTests.seen(plainReport: json, harness: report)
        #expect(seen.0 != nil && seen.0 == seen.1, "\(label): \(seen) \(output)", sourceLocation: sourceLocation)
        return (seen.1, report, output)
    }

    /// The steps recorded in the `flow` output task `task` left.
    static func recorded(_ report: [String: Any], task: String) -> [String: [String: Any]] {
        guard let outputs = report["outputs"] as? [String: Any], let parameters = outputs[task] as? [String: Any],
            let text = parameters["flow"] as? String,
            let record = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let steps = record["steps"] as? [String: [String: Any]]
        else { return [:] }
        return steps
    }

    /// A chain `produce → middle → last` where `last` reads `produce`'s output without needing it
    /// directly: `middle`'s record no longer carries `produce`'s (it used to carry everything
    /// upstream), `last` is given `produce`'s own record and reads the same value as in
    /// `flow run`; and a failure upstream still reaches a `failure()` step two hops down.
    @Test func eachTaskGetsTheRecordsItReadsAndPassesOnOnlyItsOwn() async throws {
        let scratch = try Scratch()
        let chain = """
            version: 1
            steps:
              produce: { run: "printf 'payload-%0500d' 7", outputs: { text: "${{ result.stdout }}" }, timeout: 10s }
              middle: { needs: produce, run: echo middle, timeout: 10s }
              last:
                needs: middle
                run: echo read
                outputs: { seen: "${{ length(steps.produce.outputs.text) }}" }
                timeout: 10s
            """
        let run = try await Self.bothWays(chain, scratch: scratch)
        #expect(run.plain.exitCode == 0, "\(run.plain.stdout)\(run.plain.stderr)")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.report["phase"] as? String == "Succeeded", "\(run.output)")
        let middle = Self.recorded(run.report, task: "middle")
        #expect(Set(middle.keys) == ["middle"], "\(middle)")
        let last = Self.recorded(run.report, task: "last")
        #expect(Set(last.keys) == ["last"], "\(last)")
        #expect((last["last"]?["outputs"] as? [String: Any])?["seen"] as? Double == 508, "\(last)")

        let failing = """
            version: 1
            steps:
              a: { run: exit 1, timeout: 10s }
              b: { needs: a, run: echo b, timeout: 10s }
              c: { needs: b, if: "${{ failure() }}", run: echo c, timeout: 10s }
            """
        let failed = try await Self.bothWays(failing, scratch: scratch)
        #expect(failed.plain.exitCode == 1, "\(failed.plain.stdout)\(failed.plain.stderr)")
        #expect(failed.exitCode == 1, "\(failed.output)")
        let b = Self.recorded(failed.report, task: "b")
        #expect(b["b"]?["status"] as? String == "skipped", "\(b)")
        // `a` only as a failure mark: no error, no outputs of its own.
        let markKeys = Set((b["a"] ?? [:]).keys)
        #expect(markKeys.isSubset(of: ["status", "outputs"]), "\(b)")
        #expect(b["a"]?["status"] as? String == "failed", "\(b)")
        #expect(Self.recorded(failed.report, task: "c")["c"]?["status"] as? String == "succeeded", "\(failed.output)")
    }

    /// A `for-each` over items known when exporting (`range(0, N)`, Argo's `withSequence`): each
    /// item pod decides the step's `if` and its need's state itself, so it used to be given the
    /// need's whole record (here over 20,000 bytes) once per item. Now the need's pod also writes
    /// a status record (`--status-to`) with its status and only what `fan` reads of it, which is
    /// what each item pod is given; the Workflow's phase and `report`'s status equal `flow run`'s
    /// with the need succeeding, `fan` skipped by its `if`, and the need failing (an `always()`
    /// step after), and the need's secret output reaches neither the manifest nor Argo.
    @Test func itemPodsOverASequenceAreGivenTheirNeedsStatusRecords() async throws {
        let scratch = try Scratch()
        let secret = "s3cr3t-upstream"
        func text(_ count: Int) -> String {
            """
            version: 1
            inputs:
              gate: { type: string, default: go }
              fail: { type: string, default: "no" }
            steps:
              list:
                run: "test ${{ inputs.fail }} = no && python3 -c 'print(\\"x\\" * 20000)'"
                outputs: { blob: "${{ result.stdout }}", gate: "${{ inputs.gate }}", key: "${{ secrets.KEY }}" }
                timeout: 10s
              fan:
                needs: list
                for-each: ${{ range(0, \(count)) }}
                fail-fast: false
                if: ${{ steps.list.outputs.gate == 'go' && steps.list.outputs.key != '' }}
                run: "echo ${{ steps.list.outputs.gate }}-${{ item }}"
                outputs: { echoed: "${{ result.stdout }}" }
                timeout: 10s
              report:
                needs: fan
                if: ${{ always() }}
                run: "echo ${{ steps.fan.status }}"
                outputs: { seen: "${{ result.stdout }}" }
                timeout: 10s
            """
        }
        // At 10,000 items: one withSequence line, and the item pods read the status record.
        let large = try await ArgoMappingTests.exported(scratch, "large.yaml", text(10_000))
        #expect(large.stdout.contains("count: \"10000\""), "\(large.stdout)")
        #expect(large.stdout.contains("tasks['list']?.outputs?.parameters?.brief"), "\(large.stdout)")
        #expect(large.stdout.contains("\"--status-for\"\n          - \"fan\""), "\(large.stdout)")

        let small = try await ArgoMappingTests.exported(scratch, "sequence.yaml", text(12))
        #expect(!small.stdout.contains(secret) && !large.stdout.contains(secret))
        let manifest = scratch.path("sequence.yaml.argo.yaml")
        let cases: [(name: String, input: String, exit: Int32, fan: String)] = [
            ("succeeds", "gate=go", 0, "succeeded"), ("skipped by if", "gate=stop", 0, "skipped"),
            ("need fails", "fail=yes", 1, "skipped"),
        ]
        for example in cases {
            let (seen, report, _) = try await Self.comparedRuns(
                scratch, file: scratch.path("sequence.yaml"), manifest: manifest, input: example.input,
                exit: example.exit, example.name, secret: secret)
            #expect(seen?.hasPrefix(example.fan) == true, "\(example.name): \(String(describing: seen))")
            ArgoItemSizeTests.expectSmallItemInputs(report, count: 12, limit: 1_000, example.name)
        }
    }

    /// `flow run --only ID --status-to FILE --status-for STEP`: the record keeps the step's status
    /// and the outputs STEP reads, not the others; a reader that is no top-level step is exit 2,
    /// `--status-for` without `--status-to` a usage error.
    @Test func theStatusRecordKeepsOnlyWhatItsReadersRead() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "status.yaml",
            """
            version: 1
            steps:
              list: { run: "echo hi", outputs: { small: "${{ result.stdout }}", other: "x${{ result.stdout }}" } }
              fan: { needs: list, for-each: "${{ range(0, 2) }}", run: "echo ${{ steps.list.outputs.small }}" }
              all: { needs: list, run: "echo ${{ steps.list.outputs.other }}" }
            """)
        let status = scratch.path("status.json")
        let run = try await FlowProcess.run([
            "run", file, "--only", "list", "--outputs-to", scratch.path("whole.json"), "--status-to", status,
            "--status-for", "fan",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let record =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: status))))
            as? [String: Any]
        let list = (record?["steps"] as? [String: [String: Any]])?["list"]
        #expect(list?["status"] as? String == "succeeded", "\(String(describing: record))")
        #expect(list?["outputs"] as? [String: String] == ["small": "hi"], "\(String(describing: record))")
        let unknown = try await FlowProcess.run([
            "run", file, "--only", "list", "--status-to", status, "--status-for", "nope",
        ])
        #expect(unknown.exitCode == 2 && unknown.stderr.contains("--status-for nope: "), "\(unknown.stderr)")
        let alone = try await FlowProcess.run(["run", file, "--only", "list", "--status-for", "fan"])
        #expect(alone.exitCode == 64 && alone.stderr.contains("--status-for goes with --status-to"), "\(alone.stderr)")
    }

    /// Item pods after a fanned-out step (`make`, 6 items known when exporting, each output 3,000
    /// bytes) used to be handed Argo's aggregate of all its item records each, which grows with
    /// its items and their outputs; its records now go through the artifact repository, so each
    /// pod of `fan` is handed a pointer and a key. The Workflow's phase and `report`'s status
    /// equal `flow run`'s, with `make` succeeding and failing.
    @Test func itemPodsAfterAFannedOutStepAreHandedAKeyNotItsItemsRecords() async throws {
        let scratch = try Scratch()
        let text = """
            version: 1
            inputs:
              fail: { type: string, default: "no" }
            steps:
              make:
                for-each: ${{ range(0, 6) }}
                run: "test ${{ inputs.fail }} = no && python3 -c 'print(\\"y\\" * 3000)'"
                outputs: { big: "${{ result.stdout }}" }
                timeout: 10s
              fan:
                needs: make
                for-each: ${{ range(0, 12) }}
                fail-fast: false
                run: "echo ${{ item }}"
                timeout: 10s
              report:
                needs: fan
                if: ${{ always() }}
                run: "echo ${{ steps.fan.status }} ${{ length(steps.make.outputs.big) }}"
                outputs: { seen: "${{ result.stdout }}" }
                timeout: 10s
            """
        let export = try await ArgoMappingTests.exported(scratch, "after-fan.yaml", text)
        #expect(export.stdout.contains("flow-records/make/{{inputs.parameters.index}}.json"), "\(export.stdout)")
        #expect(!export.stdout.contains("{{tasks.make.outputs.parameters}}"), "\(export.stdout)")
        for (input, exit) in [("fail=no", Int32(0)), ("fail=yes", 1)] {
            let (_, report, _) = try await Self.comparedRuns(
                scratch, file: scratch.path("after-fan.yaml"), manifest: scratch.path("after-fan.yaml.argo.yaml"),
                input: input, exit: exit, input)
            ArgoItemSizeTests.expectSmallItemInputs(report, count: 12, limit: 1_000, input)
        }
    }

    /// A need whose records go by artifact (a race over items counted in the run) used to hand
    /// each item pod of a fanned-out step a key to its whole record (here over 20,000 bytes),
    /// which every pod downloaded. Its pod now also saves its status record as the artifact
    /// `brief`, and the item pods read that instead: the Workflow's phase and `report`'s status
    /// equal `flow run`'s with the need succeeding, `fan` skipped by its `if`, and the need
    /// failing with an `always()` step after; the need's secret output reaches neither the
    /// manifest nor the harness's output.
    @Test func itemPodsReadTheStatusRecordOfANeedSavedAsAnArtifact() async throws {
        let scratch = try Scratch()
        let secret = "s3cr3t-brief"
        let text = """
            version: 1
            inputs:
              gate: { type: string, default: go }
              fail: { type: string, default: "no" }
            steps:
              seed: { run: "echo '[1, 2]'", outputs: { ids: "${{ fromJSON(result.stdout) }}" }, timeout: 10s }
              list:
                needs: seed
                for-each: ${{ steps.seed.outputs.ids }}
                parallel: any
                run: "test ${{ inputs.fail }} = no && python3 -c 'print(\\"x\\" * 20000)'"
                outputs: { blob: "${{ result.stdout }}", gate: "${{ inputs.gate }}", key: "${{ secrets.KEY }}" }
                timeout: 10s
              fan:
                needs: list
                for-each: ${{ range(0, 12) }}
                fail-fast: false
                if: ${{ contains(toJSON(steps.list.outputs.gate), 'go') && steps.list.outputs.key != '' }}
                run: "echo ${{ item }}"
                timeout: 10s
              report:
                needs: fan
                if: ${{ always() }}
                run: "echo ${{ steps.fan.status }}"
                outputs: { seen: "${{ result.stdout }}" }
                timeout: 10s
            """
        let export = try await ArgoMappingTests.exported(scratch, "brief.yaml", text)
        #expect(export.stdout.contains("from: \"{{tasks.list.outputs.artifacts.brief}}\""), "\(export.stdout)")
        #expect(!export.stdout.contains("tasks.list.outputs.artifacts.records"), "\(export.stdout)")
        #expect(!export.stdout.contains(secret))
        let cases: [(name: String, input: String, exit: Int32, fan: String)] = [
            ("succeeds", "gate=go", 0, "succeeded"), ("skipped by if", "gate=stop", 0, "skipped"),
            ("need fails", "fail=yes", 1, "skipped"),
        ]
        for (index, example) in cases.enumerated() {
            let repository = scratch.path("repository-\(index)")
            let (seen, report, output) = try await Self.comparedRuns(
                scratch, file: scratch.path("brief.yaml"), manifest: scratch.path("brief.yaml.argo.yaml"),
                input: example.input, exit: example.exit, example.name, secret: secret,
                harnessArguments: ["--artifact-repository", repository])
            #expect(seen?.hasPrefix(example.fan) == true, "\(example.name): \(String(describing: seen))")
            // What `list` saved: its whole record, and the small status record the item pods read.
            let saved = (report["artifacts"] as? [String: [String: String]])?["list"] ?? [:]
            func size(_ name: String) -> Int {
                guard let key = saved[name] else { return -1 }
                let path = (repository as NSString).appendingPathComponent(key)
                return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
            }
            #expect(size("brief") > 0 && size("brief") < 1_000, "\(example.name): \(saved) \(output)")
            if index == 0 { #expect(size("records") > 20_000, "\(saved)") }
        }
    }
}
