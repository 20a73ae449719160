import Foundation
import Testing

/// `for-each` from the command line: what validate, the dry run, the run's log, summary and
/// reports, and the graph say about items.
@Suite struct ForEachCommandTests {
    final class Scratch {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-foreach-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func write(_ name: String, _ text: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
    }

    @Test func dryRunShowsEachKnownItemsRequestAndTheExpressionOtherwise() async throws {
        let scratch = try Scratch()
        _ = try scratch.write("data/b.csv", "b")
        _ = try scratch.write("data/a.csv", "a")
        let file = try scratch.write(
            "plan.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "http://127.0.0.1:9" }
            steps:
              list:
                http: { url: /items/3 }
                outputs: { names: "${{ result.json.items }}" }
              fetch:
                needs: list
                for-each: ${{ steps.list.outputs.names }}
                concurrency: 2
                http: { url: "/files/${{ item }}" }
              send:
                for-each: ${{ files('data/*.csv') }}
                as: file
                http: { method: PUT, url: "/upload/${{ index }}?name=${{ file }}" }
              pages:
                for-each: ${{ range(1, 30) }}
                parallel: any
                http: { url: "/page/${{ item }}" }
            """)
        let outcome = try await FlowProcess.run(["run", file, "--dry-run"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        // Header lines (the User-Agent every request sends) left out: the plan's own test covers them.
        let plan =
            outcome.stdout.split(separator: "\n").filter { !$0.contains("header User-Agent:") }
            .joined(separator: "\n") + "\n"
        #expect(
            plan.contains(
                "  fetch: for-each item in ${{ steps.list.outputs.names }} (2 at once): items known at run time\n"
                    + "    fetch: GET http://127.0.0.1:9/files/<item>  (needs list)\n"), "\(plan)")
        #expect(
            plan.contains(
                "  send: for-each file in 2 items\n"
                    + "    send[0]: PUT http://127.0.0.1:9/upload/0?name=data/a.csv\n"), "\(plan)")
        // Each item's request is followed by its headers (the User-Agent), then the next item.
        #expect(plan.contains("    send[1]: PUT http://127.0.0.1:9/upload/1?name=data/b.csv\n"), "\(plan)")
        #expect(plan.contains("  pages: for-each item in 29 items (any)\n"))
        #expect(plan.contains("    pages[19]: GET http://127.0.0.1:9/page/20\n"))
        #expect(!plan.contains("pages[20]"))
        #expect(plan.contains("      … and 9 more items\n"))
    }

    @Test func validateRejectsWhatCanNeverBeAListWithItsPlace() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "bad.yaml",
            """
            version: 1
            steps:
              numbers:
                for-each: 3
                sleep: 0s
              stray:
                run: echo ${{ item }}
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 2)
        #expect(
            outcome.stderr.contains("\(file):4:15: error: 'for-each' needs a list, not a number"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("hint: give a YAML list, or one expression giving a list"))
        #expect(
            outcome.stderr.contains(
                "\(file):7:19: error: 'item' is only available in a 'for-each' step, and step 'stray' has no 'for-each'"
            ))
    }

    @Test func aRunShowsItemsAsStepIndexInTheLogSummaryAndReports() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "items.yaml",
            """
            version: 1
            services:
              sandbox:
                run: ["${{ flow.executable }}", sandbox, --port, "${{ services.sandbox.port }}"]
                ready: { http: "${{ services.sandbox.url }}/health" }
            defaults:
              http: { base-url: "${{ services.sandbox.url }}" }
            steps:
              check:
                for-each: [ok, bad, fine]
                fail-fast: false
                http: { url: "/status/${{ item == 'bad' && 500 || 200 }}" }
            """)
        let json = scratch.folder.appendingPathComponent("run.json").path
        let junit = scratch.folder.appendingPathComponent("run.xml").path
        let outcome = try await FlowProcess.run(["run", file, "--report", "json", json, "--report", "junit", junit])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        let out = outcome.stdout
        #expect(out.contains("[check[1]] failed (item \"bad\"): "), "\(out)")
        #expect(out.contains("(3 items: 2 succeeded, 1 failed)"))
        #expect(out.contains("step 'check' item 1 (\"bad\") failed: "))
        #expect(out.contains("    ✗ check[1] (item \"bad\"): "))
        let report = try String(contentsOfFile: json, encoding: .utf8)
        #expect(report.contains("\"id\" : \"check[1]\""), "\(report)")
        #expect(report.contains("\"item\" : \"fine\""), "items keep their JSON type: \(report)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="4" failures="2""#), "\(xml)")
        #expect(xml.contains(#"<testcase name="check[1]""#))
    }

    @Test func graphLabelsARepeatedStep() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "graph.yaml",
            """
            version: 1
            steps:
              fetch:
                for-each: ${{ range(0, 4) }}
                concurrency: 2
                parallel: any
                sleep: 0s
            """)
        let outcome = try await FlowProcess.run(["graph", file])
        #expect(outcome.exitCode == 0)
        #expect(
            outcome.stdout.contains("fetch [for-each item in ${{ range(0, 4) }}, 2 at once, any]"), "\(outcome.stdout)")
    }
}
