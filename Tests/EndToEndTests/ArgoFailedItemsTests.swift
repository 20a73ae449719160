import Foundation
import Testing

/// A step reading a fanned-out `for-each`'s outputs or item records after its items failed
/// (issue 28, defect 9): Argo keeps only succeeded children's outputs in an expanded task's
/// aggregate (`operator.go` `processAggregateNodeOutputs`), so with records as parameters a failed
/// item's record was lost and the reader read its item as null. Such a step's records now go
/// through the artifact repository, where a failed item's pod saves its record too, and
/// `--artifact-repository none` is refused when the reader surely runs, warned about when it may.
@Suite(.serialized) struct ArgoFailedItemsTests {
    typealias Scratch = ArgoExportTests.Scratch

    static let workflow = """
        version: 1
        steps:
          fan:
            for-each: [0, 3, 0]
            fail-fast: false
            run: "echo out-${{ item }}; exit ${{ item }}"
            outputs: { text: "${{ result.stdout }}" }
            timeout: 10s
          report:
            needs: fan
            if: ${{ always() }}
            run: echo report
            outputs: { seen: "${{ toJSON(steps.fan.items) }} ${{ toJSON(steps.fan.outputs.text) }}" }
            timeout: 10s
        """

    /// The reader sees the failed item (its item, 3) as `flow run` does, in the harness with the
    /// default export; with `--artifact-repository none` the export is refused (exit 2) naming
    /// both steps, the reason and the fix.
    @Test func aReaderAfterFailedItemsSeesThemAsAPlainRunDoes() async throws {
        let scratch = try Scratch()
        let json = scratch.path("plain.json")
        let file = try scratch.write("failed-items.yaml", Self.workflow)
        let plain = try await FlowProcess.run(["run", file, "--report", "json", json])
        #expect(plain.exitCode == 1, "\(plain.stdout)\(plain.stderr)")
        let export = try await ArgoMappingTests.exported(scratch, "failed-items.yaml", Self.workflow)
        #expect(export.stdout.contains("flow-records/fan/{{inputs.parameters.index}}.json"), "\(export.stdout)")
        // The warning gives this step's own reason, and no way out that the export refuses.
        #expect(
            export.stderr.contains(
                "the records of step 'fan' are read after items failed, whose records Argo keeps in no task's "
                    + "aggregate of parameters and go through the namespace's default artifact repository"),
            "\(export.stderr)")
        #expect(!export.stderr.contains("size limits") && !export.stderr.contains("keep them in parameters"))
        let run = try await ArgoRecordArtifactTests.run(
            scratch.path("failed-items.yaml.argo.yaml"), scratch: scratch, repository: scratch.path("repository"))
        #expect(run.exitCode == 1, "\(run.output)")
        #expect(run.report["phase"] as? String == "Failed", "\(run.output)")
        let seen = ArgoItemSizeTests.seen(plainReport: json, harness: run.report)
        #expect(seen.0?.contains("\"item\":3") == true, "\(seen)")
        #expect(seen.0 != nil && seen.0 == seen.1, "\(seen) \(run.output)")

        let none = try await ArgoMappingTests.export(file, ["--artifact-repository", "none"])
        #expect(none.exitCode == 2 && none.stdout.isEmpty, "\(none.stdout)")
        #expect(
            none.stderr.contains(
                "step 'report' reads the records of for-each step 'fan' after its items failed: with "
                    + "--artifact-repository none"),
            "\(none.stderr)")
        #expect(none.stderr.contains("processAggregateNodeOutputs"), "\(none.stderr)")
        #expect(none.stderr.contains("drop --artifact-repository none"), "\(none.stderr)")
    }

    /// A reader that runs after the failed items only through a step between whose `if` calls a
    /// status function: under `--artifact-repository none` the export warns; a reader of the
    /// status alone, or one flow skips once the step failed, gets neither refusal nor warning.
    @Test func aReaderThatMayRunAfterFailedItemsIsWarnedAbout() async throws {
        let scratch = try Scratch()
        let may = try scratch.write(
            "may.yaml",
            """
            version: 1
            steps:
              fan: { for-each: [0, 1], fail-fast: false, run: "exit ${{ item }}", outputs: { n: "${{ item }}" }, timeout: 10s }
              gate: { needs: fan, if: "${{ always() }}", run: echo gate, timeout: 10s }
              late: { needs: gate, run: "echo ${{ toJSON(steps.fan.outputs.n) }}", timeout: 10s }
            """)
        let warned = try await ArgoMappingTests.export(may, ["--artifact-repository", "none"])
        #expect(warned.exitCode == 0, "\(warned.stderr)")
        #expect(
            warned.stderr.contains(
                "warning: step 'late' may read the records of for-each step 'fan' after its items failed"),
            "\(warned.stderr)")
        let quiet = try scratch.write(
            "quiet.yaml",
            """
            version: 1
            steps:
              fan: { for-each: [0, 1], fail-fast: false, run: "exit ${{ item }}", outputs: { n: "${{ item }}" }, timeout: 10s }
              status: { needs: fan, if: "${{ always() }}", run: "echo ${{ steps.fan.status }}", timeout: 10s }
              after: { needs: fan, run: "echo ${{ toJSON(steps.fan.outputs.n) }}", timeout: 10s }
            """)
        let none = try await ArgoMappingTests.export(quiet, ["--artifact-repository", "none"])
        #expect(none.exitCode == 0 && !none.stderr.contains("after its items failed"), "\(none.stderr)")
    }
}
