import Foundation
import Testing

/// A group with `for-each` from the command line: the dry run expands each known item's children
/// with their final requests, and a run's log and summary name the children as `batch[2]/probe`.
@Suite struct ForEachGroupCommandTests {
    private func write(_ text: String) throws -> (folder: URL, file: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-fegroup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("plan.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return (folder, url.path)
    }

    @Test func dryRunExpandsEachKnownItemsChildrenAndShowsTheExpressionOtherwise() async throws {
        let (folder, file) = try write(
            """
            version: 1
            defaults:
              http: { base-url: "http://127.0.0.1:9" }
            steps:
              list:
                http: { url: /items/3 }
                outputs: { names: "${{ result.json.items }}" }
              batch:
                for-each: [a, b]
                as: name
                items: { parallel: any }
                parallel: all
                steps:
                  create:
                    http: { method: POST, url: "/jobs?name=${{ name }}&at=${{ index }}" }
                    outputs: { id: "${{ result.json.id }}" }
                  check:
                    needs: create
                    http: { url: "/jobs/${{ steps.create.outputs.id }}?name=${{ name }}" }
              later:
                needs: list
                for-each: ${{ steps.list.outputs.names }}
                parallel: all
                steps:
                  get: { http: { url: "/files/${{ item }}" } }
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await FlowProcess.run(["run", file, "--dry-run"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let plan =
            outcome.stdout.split(separator: "\n").filter { !$0.contains("header User-Agent:") }
            .joined(separator: "\n") + "\n"
        let known = """
              batch: for-each name in 2 items (any)
                batch[0]: parallel all of create, check
                batch[0]/create: POST http://127.0.0.1:9/jobs?name=a&at=0  (in batch)
                batch[0]/check: GET http://127.0.0.1:9/jobs/<steps.create.outputs.id>?name=a  (needs create; in batch)
                batch[1]: parallel all of create, check
                batch[1]/create: POST http://127.0.0.1:9/jobs?name=b&at=1  (in batch)

            """
        #expect(plan.contains(known), "\(plan)")
        let runTime = """
              later: for-each item in ${{ steps.list.outputs.names }}: items known at run time
                later: parallel all of get  (needs list)
                later[i]/get: GET http://127.0.0.1:9/files/<item>  (in later)

            """
        #expect(plan.contains(runTime), "\(plan)")
        // The children are shown in their group's items only, never as steps of their own.
        #expect(!plan.contains("  create:") && !plan.contains("  get:"), "\(plan)")
        #expect(outcome.stderr.isEmpty || !outcome.stderr.contains("error"), "\(outcome.stderr)")
    }

    @Test func aFailingChildIsNamedWithItsItemInTheLogAndTheSummary() async throws {
        let (folder, file) = try write(
            """
            version: 1
            steps:
              batch:
                for-each: [ok, bad]
                concurrency: 1
                parallel: all
                steps:
                  probe: { run: "test ${{ item }} = ok" }
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("run.json").path
        let outcome = try await FlowProcess.run(["run", file, "--report", "json", json])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("[batch[0]/probe] succeeded"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("[batch[1]/probe] failed"), "\(outcome.stdout)")
        #expect(
            outcome.stdout.contains("step 'batch' item 1 (\"bad\") failed: step 'batch[1]/probe' failed: "),
            "\(outcome.stdout)")
        #expect(outcome.stdout.contains("  ✗ batch[1]/probe (\(file):8:"), "\(outcome.stdout)")
        let report = try String(contentsOfFile: json, encoding: .utf8)
        #expect(report.contains("\"id\" : \"batch[0]/probe\""), "\(report)")
        #expect(report.contains("\"id\" : \"batch[1]/probe\""), "\(report)")
        #expect(report.contains("\"id\" : \"batch[1]\""), "the item itself: \(report)")
    }
}
