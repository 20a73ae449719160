import Foundation
import Testing

/// A 10,000-item `for-each` exported to Argo stays under every real limit (issue 28, defect 5d):
/// each template a pod receives under 128 KiB (Argo's `MaxEnvVarLen`, over which it offloads the
/// template to a ConfigMap per pod), every parameter value a pod receives under that too, every
/// output a pod saves (one `WorkflowTaskResult` object each) and the Workflow object, spec and
/// compressed node status, under 1 MiB (`workflow/packer/packer.go`).
///
/// The manifest's own sizes are checked at 10,000 items (`scripts/argo-check limits`). What Argo
/// builds in the run (each pod's resolved template, the parameters it resolves, the node status)
/// is measured by running the export in the harness — at 20 and at 60 items, since 10,000 pods,
/// each a flow process, would take the harness far too long on a test machine — and extrapolated
/// linearly to 10,000 items: what grows with the items must grow slowly enough. Before records
/// moved to artifacts, the step after the `for-each` received every item's record as one raw
/// artifact: about 300 bytes per item, 3 MB at 10,000.
@Suite(.serialized) struct ArgoTenThousandItemsTests {
    typealias Scratch = ArgoExportTests.Scratch

    /// Argo's and Kubernetes' limits: workflow/common/common.go `MaxEnvVarLen` and
    /// workflow/packer/packer.go `getMaxWorkflowSize`.
    static let templateLimit = 128 * 1024
    static let objectLimit = 1024 * 1024
    static let items = 10_000

    /// Items from an upstream step (its count known only in the run) and from `range` (known when
    /// exporting): each item an output, the step after reading the whole list.
    static func workflow(itemsFromStep: Bool) -> String {
        let forEach = itemsFromStep ? "${{ steps.list.outputs.ids }}" : "${{ range(0, \(items)) }}"
        return """
            version: 1
            inputs:
              n: { type: number, default: \(items) }
            steps:
              list:
                run: "seq -s, 0 $((${{ inputs.n }} - 1)) | sed 's/.*/[&]/'"
                outputs: { ids: "${{ fromJSON(result.stdout) }}" }
                timeout: 60s
              many:
                needs: list
                for-each: \(forEach)
                fail-fast: false
                run: echo v${{ item }}
                outputs: { v: "${{ result.stdout }}" }
                timeout: 10s
              after:
                needs: many
                run: echo done
                outputs: { count: "${{ length(steps.many.outputs.v) }}" }
                timeout: 10s
            """
    }

    /// Sizes of the manifest as submitted: the object, each template, the largest value.
    static func limits(_ manifest: String) async throws -> [String: Any] {
        let run = try await ArgoExportTests.check(["limits", manifest])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        return (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
    }

    /// Runs `manifest` in the harness with `n` items; its `sizes` and the count `after` read.
    static func run(_ manifest: String, n: Int, scratch: Scratch) async throws -> (sizes: [String: Any], count: Double?)
    {
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
            "--parameter", "n=\(n)", "--deadline", "240",
        ])
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any] ?? [:]
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")
        #expect(report["phase"] as? String == "Succeeded", "\(run.stdout)")
        let after = ArgoRecordSizeTests.recorded(report, task: "after")["after"]?["outputs"] as? [String: Any]
        return (report["sizes"] as? [String: Any] ?? [:], after?["count"] as? Double)
    }

    /// `value` at 10,000 items from its values at `small` and `large` items.
    static func extrapolated(_ atSmall: Int, _ atLarge: Int, small: Int, large: Int) -> Int {
        atLarge + (atLarge - atSmall) * (items - large) / (large - small)
    }

    @Test func aTenThousandItemForEachStaysUnderEveryLimit() async throws {
        let scratch = try Scratch()
        for itemsFromStep in [false, true] {
            let name = itemsFromStep ? "from-step.yaml" : "from-range.yaml"
            let export = try await ArgoMappingTests.exported(scratch, name, Self.workflow(itemsFromStep: itemsFromStep))
            let sizes = try await Self.limits(scratch.path(name + ".argo.yaml"))
            #expect((sizes["object"] as? Int ?? .max) < Self.objectLimit, "\(name): \(sizes)")
            for (template, size) in sizes["templates"] as? [String: Int] ?? [:] {
                #expect(size < Self.templateLimit, "\(name): template \(template): \(size) bytes")
            }
            #expect((sizes["parameter"] as? Int ?? .max) < Self.templateLimit, "\(name): \(sizes)")
            // The items' records go through the artifact repository, one key per item.
            #expect(export.stdout.contains("flow-records/many/{{inputs.parameters.index}}.json"), "\(name)")
        }

        // The run, measured at two counts and extrapolated to 10,000 items.
        let manifest = scratch.path("from-step.yaml.argo.yaml")
        let (small, large) = (20, 60)
        let atSmall = try await Self.run(manifest, n: small, scratch: scratch)
        let atLarge = try await Self.run(manifest, n: large, scratch: scratch)
        #expect(atSmall.count == Double(small) && atLarge.count == Double(large), "\(atSmall) \(atLarge)")
        func size(_ sizes: [String: Any], _ key: String) -> Int {
            if key == "status" { return (sizes["status"] as? [String: Any])?["compressed"] as? Int ?? .max }
            return sizes[key] as? Int ?? .max
        }
        // What a pod receives stays under the template limit; what a pod saves (its outputs, one
        // WorkflowTaskResult object) and the compressed node status under the object limit.
        for key in ["template", "parameter", "output", "status"] {
            let estimate = Self.extrapolated(
                size(atSmall.sizes, key), size(atLarge.sizes, key), small: small, large: large)
            let limit = ["template", "parameter"].contains(key) ? Self.templateLimit : Self.objectLimit
            #expect(estimate < limit, "\(key) at \(Self.items) items: about \(estimate) bytes (\(atSmall) \(atLarge))")
        }
    }
}
