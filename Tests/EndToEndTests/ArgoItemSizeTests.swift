import Foundation
import Testing

/// Each item pod of a `for-each` step fanned out over items counted in the run is given its item
/// and the records its item reads, not the records its step's items were computed from (issue
/// 28, defect 5: with 10,000 items every pod received the whole list); the Workflow's phase and
/// the records still equal `flow run`'s, with a failed item, `fail-fast: false`, a step skipped
/// by its `if` and a step with no items.
@Suite(.serialized) struct ArgoItemSizeTests {
    typealias Scratch = ArgoExportTests.Scratch

    /// A workflow whose `list` step has a large record (a 20,000-character `blob` beside the
    /// items' names) and whose `fan` step goes over the names, reading `conf`'s small output.
    /// `reads`: what `report` echoes besides `fan`'s status and the blob's length.
    static func workflow(fan: String = "", count: Int = 12, reads: String = "") -> String {
        """
        version: 1
        steps:
          conf:
            run: echo pre
            outputs: { prefix: "${{ result.stdout }}" }
            timeout: 10s
          list:
            run: "python3 -c 'import json; print(json.dumps({\\"names\\": [\\"name-%02d\\" % i for i in range(\(count))], \\"blob\\": \\"x\\" * 20000}))'"
            outputs: { names: "${{ fromJSON(result.stdout).names }}", blob: "${{ fromJSON(result.stdout).blob }}" }
            timeout: 10s
          fan:
            needs: [list, conf]
            for-each: ${{ steps.list.outputs.names }}
            run: "test ${{ item }} != name-03 && echo ${{ steps.conf.outputs.prefix }}-${{ item }}"
            outputs: { echoed: "${{ result.stdout }}" }
            timeout: 10s\(fan)
          report:
            needs: fan
            if: ${{ always() }}
            run: "echo ${{ steps.fan.status }} ${{ length(steps.list.outputs.blob) }}\(reads)"
            outputs: { seen: "${{ result.stdout }}" }
            timeout: 10s
        """
    }

    /// The bytes each item pod of `fan` was handed (its parameters and raw input artifacts).
    static func itemInputs(_ report: [String: Any]) -> [String: Int] {
        ((report["inputs"] as? [String: Int]) ?? [:]).filter { $0.key.hasPrefix("fan(") }
    }

    /// Expects `count` item pods of `fan` in the harness's `report`, each handed under `limit`
    /// bytes: its item and small records, never an upstream record of 20,000 bytes or more.
    static func expectSmallItemInputs(
        _ report: [String: Any], count: Int, limit: Int = 2_000, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let inputs = itemInputs(report)
        #expect(inputs.count == count, "\(label): \(inputs)", sourceLocation: sourceLocation)
        #expect(
            !inputs.isEmpty && inputs.values.allSatisfy { $0 < limit }, "\(label): \(inputs)",
            sourceLocation: sourceLocation)
    }

    /// `report`'s output `seen` in a plain run's JSON report and in the harness's records.
    static func seen(plainReport path: String, harness report: [String: Any]) -> (String?, String?) {
        let plain =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))) as? [String: Any]
        let steps = plain?["steps"] as? [[String: Any]]
        let plainSeen = (steps?.first { $0["id"] as? String == "report" }?["outputs"] as? [String: Any])?["seen"]
        let argoSeen = ArgoRecordSizeTests.recorded(report, task: "report")["report"]?["outputs"] as? [String: Any]
        return (plainSeen as? String, argoSeen?["seen"] as? String)
    }

    @Test func itemPodsAreGivenTheirItemNotTheListTheyCameFrom() async throws {
        let scratch = try Scratch()
        let cases: [(name: String, text: String, exit: Int32, items: Int)] = [
            // A failed item (name-03) fails the step with fail-fast, the default.
            ("fail-fast", Self.workflow(), 1, 12),
            ("no-fail-fast", Self.workflow(fan: "\n    fail-fast: false"), 1, 12),
            (
                "all-succeed", Self.workflow(count: 3, reads: " ${{ join(steps.fan.outputs.echoed, ',') }}"), 0, 3
            ),
            // Decided by the items task as a whole: one pod (-1) records it from its entry.
            ("skipped", Self.workflow(fan: "\n    if: ${{ steps.conf.outputs.prefix == 'nope' }}"), 0, 1),
            ("no-items", Self.workflow(count: 0, reads: " ${{ length(steps.fan.outputs.echoed) }}"), 0, 1),
        ]
        for example in cases {
            let file = try scratch.write("\(example.name).yaml", example.text)
            let json = scratch.folder.appendingPathComponent("\(example.name).json").path
            let plain = try await FlowProcess.run(["run", file, "--report", "json", json])
            #expect(plain.exitCode == example.exit, "\(example.name): \(plain.stdout)\(plain.stderr)")
            let run = try await ArgoRecordSizeTests.bothWays(example.text, scratch: scratch)
            #expect(run.exitCode == example.exit, "\(example.name): \(run.output)")
            #expect(run.report["phase"] as? String == (example.exit == 0 ? "Succeeded" : "Failed"), "\(run.output)")
            let seen = Self.seen(plainReport: json, harness: run.report)
            #expect(seen.0 != nil && seen.0 == seen.1, "\(example.name): \(seen) \(run.output)")
            // `list`'s record (over 20,000 bytes) reached no item pod: an item pod gets its item,
            // `conf`'s status record with what its command reads, and the items task's record.
            Self.expectSmallItemInputs(run.report, count: example.items, example.name)
        }
    }

    /// The export warns, naming the step, when a fanned-out step's records can pass Argo's real
    /// limits: from 500 items the list of their records that each dependent's pod carries can
    /// pass the 128 KiB over which Argo moves a pod's template to a ConfigMap per pod (and, with
    /// more, the 1 MiB of a Kubernetes object); not below.
    @Test func aFanOutThatCanPassArgosLimitsIsNamedInAWarning() async throws {
        let scratch = try Scratch()
        for (count, warns) in [(400, false), (600, true)] {
            let outcome = try await ArgoMappingTests.exported(
                scratch, "fan-\(count).yaml",
                """
                version: 1
                steps:
                  many: { for-each: "${{ range(0, \(count)) }}", run: "echo ${{ item }}", timeout: 10s }
                  after: { needs: many, run: echo done, timeout: 10s }
                """)
            let warning = "step 'many' fans out over \(count) items"
            #expect(outcome.stderr.contains(warning) == warns, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("128 KiB") == warns, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("1 MiB") == warns, "\(outcome.stderr)")
        }
    }

    /// An item that holds a secret stays out of Argo: the items task lists it without its value
    /// (Argo would show it in the node's name, inputs and the Workflow's status), and its pod,
    /// given the records the step reads, computes it; the others are given their items. The
    /// outputs equal `flow run`'s.
    @Test func anItemHoldingASecretIsNotWrittenIntoTheWorkflow() async throws {
        let scratch = try Scratch()
        let text = """
            version: 1
            steps:
              list: { run: "echo x,y", outputs: { names: "${{ result.stdout }}" }, timeout: 10s }
              fan:
                needs: list
                for-each: ${{ split(format('{0},{1}', steps.list.outputs.names, secrets.EXTRA), ',') }}
                run: "echo ${{ index }}-${{ length(item) }}"
                outputs: { o: "${{ result.stdout }}" }
                timeout: 10s
              report:
                needs: fan
                run: "echo ${{ join(steps.fan.outputs.o, ',') }}"
                outputs: { seen: "${{ result.stdout }}" }
                timeout: 10s
            """
        let file = try scratch.write("secret-items.yaml", text)
        let json = scratch.folder.appendingPathComponent("secret-items.json").path
        let plain = try await FlowProcess.run(
            ["run", file, "--report", "json", json], environment: ["FLOW_SECRET_EXTRA": "s3cr3t-item"])
        #expect(plain.exitCode == 0, "\(plain.stdout)\(plain.stderr)")
        let export = try await ArgoMappingTests.exported(scratch, "secret-items.yaml", text)
        let manifest = try scratch.write("secret-items.argo.yaml", export.stdout)
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
            "--secret", "EXTRA=s3cr3t-item", "--deadline", "60",
        ])
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")
        #expect(!run.stdout.contains("s3cr3t"), "\(run.stdout)")
        let seen = Self.seen(plainReport: json, harness: report)
        #expect(seen.0 == "0-1,1-1,2-11" && seen.1 == seen.0, "\(seen) \(run.stdout)")
        let inputs = Self.itemInputs(report)
        #expect(
            inputs.count == 3 && inputs.keys.contains { $0.hasPrefix("fan(2:") && !$0.contains("item:") }, "\(inputs)")
    }
}
