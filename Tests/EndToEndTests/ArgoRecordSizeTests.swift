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
}
