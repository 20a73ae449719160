import Foundation
import Testing

/// The reports of a `for-each` past the rows the HTML page and the trace draw: the page draws the
/// first 1,000 items, the JSON and JUnit reports list every item, each made from the step's item
/// results when it is written.
@Suite struct ForEachReportRowsTests {
    @Test func thePageDrawsTheFirstThousandItemsAndTheJSONReportListsThemAll() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "rows.yaml",
            """
            version: 1
            steps:
              tick:
                for-each: ${{ range(0, 2500) }}
                sleep: 0s
            """)
        let path = { (name: String) in scratch.folder.appendingPathComponent(name).path }
        let outcome = try await FlowProcess.run([
            "run", file, "--no-journal", "--report", "html", path("run.html"), "--report", "json", path("run.json"),
            "--report", "trace", path("trace.json"), "--report", "junit", path("run.xml"),
        ])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let page = try String(contentsOfFile: path("run.html"), encoding: .utf8)
        for index in [0, 1, 500, 999] {
            #expect(page.contains(#"data-step="tick[\#(index)]" data-state="succeeded""#), "no row for tick[\(index)]")
        }
        #expect(!page.contains(#"data-step="tick[1000]""#))
        let trace = try String(contentsOfFile: path("trace.json"), encoding: .utf8)
        #expect(trace.contains("tick[999]") && !trace.contains("tick[1000]"))
        let report = try String(contentsOfFile: path("run.json"), encoding: .utf8)
        for index in [0, 999, 1000, 2499] {
            #expect(report.contains("\"id\" : \"tick[\(index)]\",\n          \"item\" : \(index),"), "tick[\(index)]")
        }
        #expect(report.components(separatedBy: "\"state\" : \"succeeded\"").count == 2502)
        let xml = try String(contentsOfFile: path("run.xml"), encoding: .utf8)
        #expect(xml.contains(#"<testcase name="tick[2499]""#))
    }
}
